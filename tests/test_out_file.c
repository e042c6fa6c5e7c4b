/* The out-file rule of the library (docs/API.md, "Output files"), through blvl_file_write and
 * the streaming writer: the temp_file hook hears of each temporary before it exists and again
 * once its name is gone; a directory is refused with nothing announced; a FIFO is written
 * through (the writer, whose header comes last, spools: in an unnamed TMPDIR file, or in memory
 * without one) and the same bytes arrive as in a file; a symlink stays a link; modes are kept;
 * a new file gets 0666 & ~umask; abort leaves nothing; the caller's allocator gets every byte
 * back. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blvl/blvl.h"
#include "check.h"
#include "support/counting_alloc.h"

static char dir[] = "/tmp/blvl_out_file_XXXXXX";

typedef struct events {
    int created, gone;
    int existed_before; /* a `created` call found the name already there */
    int remained_after; /* a `gone` call found the name still there */
    char last[512];
} events;

static void on_temp(void *user, const char *path, bool created) {
    events *ev = user;
    bool exists = access(path, F_OK) == 0;
    if (created) {
        ev->created++;
        ev->existed_before += exists;
        snprintf(ev->last, sizeof ev->last, "%s", path);
    } else {
        ev->gone++;
        ev->remained_after += exists;
        CHECK(strcmp(ev->last, path) == 0);
    }
}

static char *at(const char *name) {
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static uint8_t *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *b = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 65536;
            b = realloc(b, cap);
        }
        size_t r = fread(b + *n, 1, cap - *n, f);
        if (r == 0)
            break;
        *n += r;
    }
    fclose(f);
    return b;
}

/* Files in dir whose names hold ".tmp." */
static int temporaries(void) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c '\\.tmp\\.' >/dev/null", dir);
    return system(cmd) == 0;
}

/* A child that reads the FIFO to its end and exits 0 when it got `want` exactly. */
static pid_t reader(const char *fifo, const uint8_t *want, size_t n) {
    pid_t pid = fork();
    if (pid == 0) {
        size_t got = 0;
        uint8_t *b = slurp(fifo, &got);
        _exit(b && got == n && memcmp(b, want, n) == 0 ? 0 : 1);
    }
    return pid;
}

static int reaped(pid_t pid) {
    int status = 0;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static blvl_status write_level(const char *path, const blvl_section_in *s, size_t n,
                               const blvl_options *opt, blvl_error *err) {
    blvl_writer *w;
    blvl_status st = blvl_writer_open_file(&w, path, (uint32_t)n, opt, err);
    for (size_t i = 0; i < n && st == BLVL_OK; i++)
        st = blvl_writer_add(w, s[i].tag, s[i].version, s[i].flags, s[i].data, s[i].size, err);
    if (st == BLVL_OK)
        return blvl_writer_commit(w, err);
    if (w)
        blvl_writer_abort(w);
    return st;
}

int main(void) {
    if (!mkdtemp(dir))
        return 1;
    umask(027);
    test_counter cnt;
    blvl_options opt = test_counting(&cnt);
    events ev = {0};
    opt.temp_file = on_temp;
    opt.temp_file_user = &ev;
    blvl_error err;
    struct stat sb;

    /* A new file: announced before it exists, gone after the rename, 0666 & ~027. */
    static const char hello[] = "hello, out file";
    CHECK_EQ_INT(blvl_file_write(at("new.bin"), hello, sizeof hello, &opt, &err), BLVL_OK);
    CHECK_EQ_INT(ev.created, 1);
    CHECK_EQ_INT(ev.gone, 1);
    CHECK_EQ_INT(ev.existed_before, 0);
    CHECK_EQ_INT(ev.remained_after, 0);
    CHECK(strncmp(ev.last, at("new.bin.tmp."), strlen(at("new.bin.tmp."))) == 0);
    CHECK(stat(at("new.bin"), &sb) == 0 && (sb.st_mode & 07777) == 0640);
    size_t n = 0;
    uint8_t *b = slurp(at("new.bin"), &n);
    CHECK(b && n == sizeof hello && memcmp(b, hello, n) == 0);
    free(b);

    /* Its mode kept when replaced. */
    CHECK(chmod(at("new.bin"), 0600) == 0);
    CHECK_EQ_INT(blvl_file_write(at("new.bin"), "x", 1, &opt, &err), BLVL_OK);
    CHECK(stat(at("new.bin"), &sb) == 0 && (sb.st_mode & 07777) == 0600 && sb.st_size == 1);

    /* A symlink (relative, in another folder) stays; the file it names is replaced. */
    CHECK(mkdir(at("sub"), 0700) == 0);
    CHECK(symlink("../new.bin", at("sub/link")) == 0);
    memset(&ev, 0, sizeof ev);
    CHECK_EQ_INT(blvl_file_write(at("sub/link"), "yz", 2, &opt, &err), BLVL_OK);
    CHECK(lstat(at("sub/link"), &sb) == 0 && S_ISLNK(sb.st_mode));
    CHECK(stat(at("new.bin"), &sb) == 0 && sb.st_size == 2 && (sb.st_mode & 07777) == 0600);
    CHECK(strncmp(ev.last, at("sub/../new.bin.tmp."), strlen(at("sub/../new.bin.tmp."))) == 0);

    /* A directory: refused, argument, nothing announced, nothing written. */
    memset(&ev, 0, sizeof ev);
    CHECK_EQ_INT(blvl_file_write(at("sub"), "x", 1, &opt, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "is a directory") != NULL);
    CHECK_EQ_INT(ev.created, 0);
    blvl_writer *w = NULL;
    CHECK_EQ_INT(blvl_writer_open_file(&w, at("sub"), 1, &opt, &err), BLVL_E_ARGUMENT);
    CHECK(w == NULL);

    /* A FIFO: written through, nothing announced, the reader gets the bytes. */
    CHECK(mkfifo(at("fifo"), 0600) == 0);
    pid_t pid = reader(at("fifo"), (const uint8_t *)hello, sizeof hello);
    CHECK_EQ_INT(blvl_file_write(at("fifo"), hello, sizeof hello, &opt, &err), BLVL_OK);
    CHECK_EQ_INT(reaped(pid), 0);
    CHECK_EQ_INT(ev.created, 0);
    CHECK(lstat(at("fifo"), &sb) == 0 && S_ISFIFO(sb.st_mode));

    /* The streaming writer into a FIFO: the same bytes as blvl_write_memory, spooled in an
     * unnamed file, then (TMPDIR without a folder) in memory. 3 MiB of random bytes: several
     * pieces of the copy. */
    size_t big = 3u << 20;
    uint8_t *data = malloc(big);
    uint64_t r = 88172645463325252ull;
    for (size_t i = 0; i < big; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        data[i] = (uint8_t)r;
    }
    blvl_section_in s[2] = {{"x.big", 1, 0, data, big}, {"x.small", 2, 0, hello, sizeof hello}};
    void *mem = NULL;
    size_t mem_size = 0;
    CHECK_EQ_INT(blvl_write_memory(&mem, &mem_size, s, 2, NULL, &err), BLVL_OK);
    for (int spool = 0; spool < 2; spool++) {
        if (spool == 1)
            setenv("TMPDIR", at("no-such-folder"), 1);
        pid = reader(at("fifo"), mem, mem_size);
        CHECK_EQ_INT(write_level(at("fifo"), s, 2, &opt, &err), BLVL_OK);
        CHECK_EQ_INT(reaped(pid), 0);
        CHECK_EQ_INT(ev.created, 0);
    }
    unsetenv("TMPDIR");

    /* A level into a file, then an aborted one: announced, gone, nothing left, old kept. */
    CHECK_EQ_INT(write_level(at("lv.blvl"), s, 2, &opt, &err), BLVL_OK);
    CHECK_EQ_INT(ev.created, 1);
    CHECK_EQ_INT(ev.gone, 1);
    CHECK_EQ_INT(blvl_writer_open_file(&w, at("lv.blvl"), 2, &opt, &err), BLVL_OK);
    CHECK_EQ_INT(ev.created, 2);
    CHECK(access(ev.last, F_OK) == 0); /* the temporary exists while the writer is open */
    blvl_writer_abort(w);
    CHECK_EQ_INT(ev.gone, 2);
    CHECK_EQ_INT(ev.existed_before, 0);
    CHECK_EQ_INT(ev.remained_after, 0);
    CHECK(!temporaries());
    b = slurp(at("lv.blvl"), &n);
    CHECK(b && n == mem_size && memcmp(b, mem, n) == 0);
    free(b);

    CHECK_EQ_INT(cnt.live, 0);
    CHECK_EQ_INT(cnt.bad_free, 0);
    blvl_free(NULL, mem);
    free(data);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_out_file");
}
