/* The rules every edit and rewrite keeps: no level a reader would refuse under the inflation
 * budget is written (in place or by rewrite), sections in identity cannot be put or dropped by
 * a rewrite, a drop names a section the level holds, and the edit lock is shared by in-place
 * edits and in-place rewrites (busy, waiting with a timeout, never losing an edit). Every
 * refusal leaves the file byte for byte as it was. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blvl/blvl.h"
#include "check.h"

static char dir[] = "/tmp/blvl_edit_rules_XXXXXX";

static char *path_in(const char *name) {
    static char buf[4][256];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static uint8_t *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*n ? *n : 1);
    if (fread(b, 1, *n, f) != *n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

/* True when `path` holds exactly `want` (n bytes). */
static int same_bytes(const char *path, const uint8_t *want, size_t n) {
    size_t m;
    uint8_t *b = slurp(path, &m);
    int same = b && m == n && memcmp(b, want, n) == 0;
    free(b);
    return same;
}

static int exists(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0;
}

static uint64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* meta and sim (core), eds.rules (a game section in identity), x.notes (outside), and when
 * `noise` is set x.noise (2 MiB that does not compress) and x.zeros (70 MiB of zeros, a few
 * KB packed): 72 MiB raw is within max(64 MiB, 64 x covered) only while x.noise is there. */
static void make_level(const char *path, int noise) {
    static uint8_t *zeros, *rnd;
    size_t zn = 70u << 20, rn = 2u << 20;
    if (!zeros) {
        zeros = calloc(1, zn);
        rnd = malloc(rn);
        uint64_t x = 88172645463325252ull;
        for (size_t i = 0; i < rn; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            rnd[i] = (uint8_t)x;
        }
    }
    blvl_section_in s[6] = {
        {"meta", 1, 0, "meta!", 5},
        {"sim", 1, 0, "sim bytes", 9},
        {"eds.rules", 3, BLVL_ENTRY_FLAG_IDENTITY, "rules", 5},
        {"x.notes", 0, 0, "notes", 5},
        {"x.noise", 0, 0, rnd, rn},
        {"x.zeros", 0, 0, zeros, zn},
    };
    blvl_error e;
    blvl_options wo = {.threads = 2};
    CHECK_EQ_INT(blvl_write_file(path, s, noise ? 6 : 4, &wo, &e), BLVL_OK);
}

static bool drop_noise(void *user, const blvl_entry *e) {
    (void)user;
    return strcmp(e->tag, "x.noise") != 0;
}

/* ---- the inflation budget on every writer that edits ---------------------------------------- */

static void budget_refusals(void) {
    const char *L = path_in("b.blvl"), *out = path_in("b.out.blvl");
    make_level(L, 0);
    size_t n;
    uint8_t *before = slurp(L, &n);
    size_t bomb_n = 68u << 20;
    uint8_t *bomb = calloc(1, bomb_n);
    blvl_error e;

    /* in place: 68 MiB from a few KB is past max(64 MiB, 64 x covered) */
    CHECK_EQ_INT(blvl_edit_put(L, "x.bomb", 0, bomb, bomb_n, NULL, &e), BLVL_E_BUDGET);
    CHECK(strncmp(e.message, "inflation-budget: ", 18) == 0);
    CHECK(strstr(e.message, "'x.bomb'") != NULL && strstr(e.message, "ratio") != NULL);
    CHECK(same_bytes(L, before, n));

    /* rewrite with --put, to another file and over itself */
    blvl_section_in put = {"x.bomb", 0, 0, bomb, bomb_n};
    CHECK_EQ_INT(blvl_rewrite_edit_file(L, out, NULL, NULL, &put, 1, NULL, 0, NULL, &e),
                 BLVL_E_BUDGET);
    CHECK(!exists(out));
    CHECK_EQ_INT(blvl_rewrite_edit_file(L, L, NULL, NULL, &put, 1, NULL, 0, NULL, &e),
                 BLVL_E_BUDGET);
    CHECK(same_bytes(L, before, n));
    free(before);
    free(bomb);

    /* A rewrite that drops bytes can shrink `covered` under what the rest inflates to:
     * dropping x.noise leaves 70 MiB of zeros in a few KB. */
    const char *M = path_in("m.blvl");
    make_level(M, 1);
    blvl_level *lv;
    CHECK_EQ_INT(blvl_open_file(&lv, M, NULL, &e), BLVL_OK); /* it opens as it is */
    blvl_close(lv);
    before = slurp(M, &n);
    const char *drop[] = {"x.noise"};
    CHECK_EQ_INT(blvl_rewrite_edit_file(M, out, NULL, NULL, NULL, 0, drop, 1, NULL, &e),
                 BLVL_E_BUDGET);
    CHECK(strstr(e.message, "'x.zeros'") != NULL);
    CHECK(!exists(out));
    CHECK_EQ_INT(blvl_rewrite_file(M, M, drop_noise, NULL, NULL, &e), BLVL_E_BUDGET);
    CHECK(same_bytes(M, before, n));
    /* and the in-place drop of x.noise is refused on the same rule */
    CHECK_EQ_INT(blvl_edit_drop(M, "x.noise", NULL, &e), BLVL_E_BUDGET);
    CHECK(same_bytes(M, before, n));
    free(before);
    unlink(M);
    unlink(L);
}

/* ---- sections in identity cannot be put or dropped by a rewrite ---------------------------- */

static void identity_rules(void) {
    const char *L = path_in("i.blvl"), *out = path_in("i.out.blvl");
    make_level(L, 0);
    size_t n;
    uint8_t *before = slurp(L, &n);
    blvl_error e;
    struct {
        const char *drop, *put;
        blvl_status want;
    } cases[] = {
        {"meta", NULL, BLVL_E_IDENTITY_SECTION},      /* a core tag */
        {"eds.rules", NULL, BLVL_E_IDENTITY_SECTION}, /* a game section with the flag */
        {"x.none", NULL, BLVL_E_NOT_FOUND},
        {NULL, "sim", BLVL_E_IDENTITY_SECTION},
        {NULL, "eds.rules", BLVL_E_IDENTITY_SECTION},
        {"x.notes", "x.notes", BLVL_E_ARGUMENT}, /* both put and dropped */
        {"Bad", NULL, BLVL_E_WRITE_TAG},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        blvl_section_in put = {cases[i].put, 0, 0, "x", 1};
        for (int inplace = 0; inplace < 2; inplace++) {
            blvl_status st =
                blvl_rewrite_edit_file(L, inplace ? L : out, NULL, NULL, &put, cases[i].put ? 1 : 0,
                                       &cases[i].drop, cases[i].drop ? 1 : 0, NULL, &e);
            if (st != cases[i].want)
                fprintf(stderr, "case %zu: %s (%s)\n", i, blvl_status_name(st), e.message);
            CHECK_EQ_INT(st, cases[i].want);
            CHECK(strncmp(e.message, blvl_status_name(cases[i].want),
                          strlen(blvl_status_name(cases[i].want))) == 0);
            CHECK(!exists(out));
            CHECK(same_bytes(L, before, n));
        }
    }
    /* a drop outside identity keeps the name */
    blvl_level *lv;
    blvl_info a, b;
    CHECK_EQ_INT(blvl_open_file(&lv, L, NULL, &e), BLVL_OK);
    blvl_get_info(lv, &a);
    blvl_close(lv);
    const char *drop[] = {"x.notes"};
    CHECK_EQ_INT(blvl_rewrite_edit_file(L, L, NULL, NULL, NULL, 0, drop, 1, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_open_file(&lv, L, NULL, &e), BLVL_OK);
    blvl_get_info(lv, &b);
    CHECK(blvl_find(lv, "x.notes") == NULL);
    CHECK_EQ_INT(blvl_count(lv), 3);
    blvl_close(lv);
    CHECK(memcmp(a.identity, b.identity, 16) == 0);
    free(before);
    unlink(L);
}

/* ---- the edit lock ------------------------------------------------------------------------ */

typedef struct unlocker {
    int fd;
    unsigned after_ms;
} unlocker;

static void *unlock_later(void *p) {
    unlocker *u = p;
    struct timespec t = {0, (long)u->after_ms * 1000000L};
    nanosleep(&t, NULL);
    flock(u->fd, LOCK_UN);
    return NULL;
}

static void busy_and_timeout(void) {
    const char *L = path_in("l.blvl"), *out = path_in("l.out.blvl");
    make_level(L, 0);
    int fd = open(L, O_RDONLY);
    CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0); /* another process's edit, as far as the
                                                 library can tell: its own open file */
    size_t n;
    uint8_t *before = slurp(L, &n);
    blvl_error e;
    blvl_options eo = {0};
    uint64_t t0 = now_ms();
    CHECK_EQ_INT(blvl_edit_put(L, "x.more", 0, "more", 4, &eo, &e), BLVL_E_BUSY);
    CHECK(now_ms() - t0 < 1000); /* 0: at once (loose: a loaded machine is slow to schedule) */
    CHECK(strncmp(e.message, "busy: ", 6) == 0);
    CHECK_EQ_INT(blvl_edit_drop(L, "x.notes", &eo, &e), BLVL_E_BUSY);
    eo.lock_timeout_ms = 150;
    t0 = now_ms();
    CHECK_EQ_INT(blvl_edit_put(L, "x.more", 0, "more", 4, &eo, &e), BLVL_E_BUSY);
    CHECK(now_ms() - t0 >= 150);
    blvl_options ro = {0};
    CHECK_EQ_INT(blvl_rewrite_file(L, L, NULL, NULL, &ro, &e), BLVL_E_BUSY);
    ro.lock_timeout_ms = 100;
    CHECK_EQ_INT(blvl_rewrite_file(L, L, NULL, NULL, &ro, &e), BLVL_E_BUSY);
    CHECK(same_bytes(L, before, n));
    /* a copy to another file does not replace the input: no lock needed */
    CHECK_EQ_INT(blvl_rewrite_file(L, out, NULL, NULL, NULL, &e), BLVL_OK);
    unlink(out);
    /* the holder lets go while we wait */
    unlocker u = {fd, 100};
    pthread_t t;
    pthread_create(&t, NULL, unlock_later, &u);
    eo.lock_timeout_ms = 5000;
    CHECK_EQ_INT(blvl_edit_put(L, "x.more", 0, "more", 4, &eo, &e), BLVL_OK);
    pthread_join(t, NULL);
    close(fd);
    free(before);
    unlink(L);
}

/* An edit that waits on the lock of a file a rewrite then replaces must edit the new file,
 * not the old inode the path no longer names. Here the "rewrite" is done by hand: lock,
 * rename a copy over the path, unlock. */
static void lock_follows_rename(void) {
    const char *L = path_in("r.blvl"), *copy = path_in("r.copy.blvl");
    make_level(L, 0);
    make_level(copy, 0);
    int fd = open(L, O_RDONLY);
    CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        blvl_options eo = {.lock_timeout_ms = 5000};
        blvl_error e;
        _exit(blvl_edit_put(L, "x.late", 0, "late", 4, &eo, &e) == BLVL_OK ? 0 : 1);
    }
    struct timespec t = {0, 150 * 1000000L}; /* the child has opened the old file by now */
    nanosleep(&t, NULL);
    CHECK(rename(copy, L) == 0);
    flock(fd, LOCK_UN);
    close(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    blvl_level *lv;
    blvl_error e;
    CHECK_EQ_INT(blvl_open_file(&lv, L, NULL, &e), BLVL_OK);
    CHECK(blvl_find(lv, "x.late") != NULL);
    blvl_close(lv);
    unlink(L);
}

/* A put and an in-place rewrite started together: whichever takes the lock first, the put is
 * in the file afterwards. */
static void put_beside_rewrite(void) {
    const char *L = path_in("c.blvl");
    int lost = 0, runs = 40;
    for (int run = 0; run < runs; run++) {
        make_level(L, 0);
        int go[2];
        CHECK(pipe(go) == 0);
        pid_t pid = fork();
        if (pid == 0) {
            char c;
            close(go[1]);
            if (read(go[0], &c, 1) != 1)
                _exit(2);
            blvl_options eo = {.lock_timeout_ms = 5000};
            blvl_error e;
            _exit(blvl_edit_put(L, "x.put", 0, "put!", 4, &eo, &e) == BLVL_OK ? 0 : 1);
        }
        close(go[0]);
        blvl_options ro = {.lock_timeout_ms = 5000, .threads = 1};
        blvl_error e;
        if (write(go[1], "g", 1) != 1)
            kill(pid, SIGKILL);
        close(go[1]);
        if (run % 2)
            sched_yield(); /* vary who starts first */
        CHECK_EQ_INT(blvl_rewrite_file(L, L, NULL, NULL, &ro, &e), BLVL_OK);
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        blvl_level *lv;
        CHECK_EQ_INT(blvl_open_file(&lv, L, NULL, &e), BLVL_OK);
        lost += blvl_find(lv, "x.put") == NULL;
        CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
        blvl_close(lv);
    }
    if (lost)
        fprintf(stderr, "put lost in %d of %d runs\n", lost, runs);
    CHECK_EQ_INT(lost, 0);
    unlink(L);
}

int main(void) {
    if (!mkdtemp(dir))
        return 1;
    budget_refusals();
    identity_rules();
    busy_and_timeout();
    lock_follows_rename();
    put_beside_rewrite();
    rmdir(dir);
    return check_report("test_edit_rules");
}
