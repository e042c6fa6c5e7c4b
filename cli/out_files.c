/* The program's half of the out-file rule (docs/CLI.md, "Output files"): the library tells
 * blvl_options.temp_file of every temporary it creates and of every one whose name is gone;
 * this keeps them in a fixed table a signal handler can read, and SIGINT, SIGTERM and SIGHUP
 * remove them before the program ends as the signal's default action would end it. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* A bake stages two files at once; no command has more than that open. A temporary that finds
 * the table full is still removed by the library on every failure, only not on a signal. */
#define SLOTS 8

static struct slot {
    int used; /* read and written with __atomic: a handler on any thread may read it */
    char path[PATH_MAX];
} slots[SLOTS];

static void on_temp_file(void *user, const char *path, bool created) {
    (void)user;
    size_t n = strlen(path);
    if (n >= PATH_MAX)
        return;
    for (int i = 0; i < SLOTS; i++) {
        int used = __atomic_load_n(&slots[i].used, __ATOMIC_SEQ_CST);
        if (created && !used) {
            /* the name first, then the flag: a handler never sees half a name */
            memcpy(slots[i].path, path, n + 1);
            __atomic_store_n(&slots[i].used, 1, __ATOMIC_SEQ_CST);
            return;
        }
        if (!created && used && strcmp(slots[i].path, path) == 0) {
            __atomic_store_n(&slots[i].used, 0, __ATOMIC_SEQ_CST);
            return;
        }
    }
}

/* Only async-signal-safe calls: unlink, sigaction, sigprocmask, raise. */
static void on_signal(int sig) {
    int saved = errno;
    for (int i = 0; i < SLOTS; i++)
        if (__atomic_load_n(&slots[i].used, __ATOMIC_SEQ_CST))
            (void)unlink(slots[i].path);
    struct sigaction dfl = {0};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig); /* ends the process as the signal would have: the shell sees 128 + sig */
    errno = saved;
}

void cli_reports_off_stdout(const char *out) {
    struct stat a, b;
    if (stat(out, &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino) {
        fflush(stdout);
        dup2(STDERR_FILENO, STDOUT_FILENO);
    }
}

void cli_out_options(blvl_options *opt) {
    opt->temp_file = on_temp_file;
    opt->temp_file_user = NULL;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        /* An ignored signal stays ignored (nohup, a shell's background job). */
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN ||
            old.sa_handler == on_signal)
            continue;
        struct sigaction sa = {0};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}
