/* The content-addressed cache of the http layer (src/http/cache.h), without a network: put and
 * get of sections and tables, a damaged entry dropped and reported as a miss, least recently
 * used eviction under a small cap, two caches on one directory, an unusable directory that
 * means no caching and no failure, and every byte through the caller's allocator; the folder
 * holding only what the cache wrote: DIR/tmp cleaned of the cache's own temporaries only, a
 * symlink at DIR/tmp not followed, a FIFO, a folder or a symlink at an entry's name a miss that
 * the next put replaces (the FIFO without blocking), new folders 0700. Digests are computed
 * here with BLAKE3 directly, not through the library. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blake3.h"
#include "blvl/blvl.h"
#include "check.h"
#include "http/cache.h"
#include "support/counting_alloc.h"

static void b3(const void *d, size_t n, uint8_t out[16]) {
    blake3_hasher h;
    blake3_hasher_init(&h);
    blake3_hasher_update(&h, d, n);
    blake3_hasher_finalize(&h, out, 16);
}

static void hex(const uint8_t d[16], char out[33]) {
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static char *section_path(const char *dir, const uint8_t d[16]) {
    static char path[512];
    char h[33];
    hex(d, h);
    snprintf(path, sizeof path, "%s/sections/%.2s/%s", dir, h, h);
    return path;
}

static bool exists(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* A section payload of `n` bytes, filled from `seed`, and its digest. */
static void payload(uint8_t *buf, size_t n, unsigned seed, uint8_t digest[16]) {
    for (size_t i = 0; i < n; i++)
        buf[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8));
    b3(buf, n, digest);
}

static void flip_byte(const char *path, long at) {
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (!f)
        return;
    fseek(f, at, SEEK_SET);
    int ch = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(ch ^ 0x20, f);
    fclose(f);
}

static void rm_rf(const char *dir) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

static void test_sections(const char *dir, const blvl_options *opt) {
    blvl__cache *c = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 0, &opt->allocator, &err), BLVL_OK);
    CHECK(c != NULL);
    uint8_t data[3000], d[16], got[3000];
    payload(data, sizeof data, 1, d);

    CHECK(!blvl__http_cache_get_section(c, d, got, sizeof got)); /* empty: a miss */
    blvl__http_cache_put_section(c, d, data, sizeof data);
    CHECK(exists(section_path(dir, d))); /* the documented layout */
    memset(got, 0, sizeof got);
    CHECK(blvl__http_cache_get_section(c, d, got, sizeof got));
    CHECK_MEM(got, data, sizeof data);
    CHECK_EQ_INT(blvl__http_cache_bytes(c), sizeof data);
    /* A second put of the same bytes changes nothing. */
    blvl__http_cache_put_section(c, d, data, sizeof data);
    CHECK_EQ_INT(blvl__http_cache_bytes(c), sizeof data);
    /* Asked with a wrong size: the entry cannot be what the caller wants (a digest names one
     * size), so it is a miss. */
    CHECK(!blvl__http_cache_get_section(c, d, got, sizeof data - 1));

    /* One flipped byte: a miss, and the entry is gone. */
    blvl__http_cache_put_section(c, d, data, sizeof data);
    flip_byte(section_path(dir, d), 1234);
    CHECK(!blvl__http_cache_get_section(c, d, got, sizeof got));
    CHECK(!exists(section_path(dir, d)));
    /* Put again (what the http source does after fetching), then a hit again. */
    blvl__http_cache_put_section(c, d, data, sizeof data);
    CHECK(blvl__http_cache_get_section(c, d, got, sizeof got));
    CHECK_MEM(got, data, sizeof data);

    /* Cut short: also a miss, also removed. */
    CHECK_EQ_INT(truncate(section_path(dir, d), 100), 0);
    CHECK(!blvl__http_cache_get_section(c, d, got, sizeof got));
    CHECK(!exists(section_path(dir, d)));

    /* Bytes that do not match the name they were put under are never handed out. */
    uint8_t other[16];
    memcpy(other, d, 16);
    other[0] ^= 1;
    blvl__http_cache_put_section(c, other, data, sizeof data);
    CHECK(!blvl__http_cache_get_section(c, other, got, sizeof got));
    CHECK(!exists(section_path(dir, other)));

    /* The empty section's 4 bytes. */
    uint8_t empty[4] = {0, 0, 0, 0}, de[16], ge[4] = {9, 9, 9, 9};
    b3(empty, 4, de);
    blvl__http_cache_put_section(c, de, empty, 4);
    CHECK(blvl__http_cache_get_section(c, de, ge, 4));
    CHECK_MEM(ge, empty, 4);
    blvl__http_cache_close(c);
}

/* A small level from the library's writer; its header and table region is bytes 0..floor. */
static uint8_t *make_level(const char *b_text, size_t *size, uint64_t *floor, uint8_t id[16],
                           uint8_t td[16]) {
    const char *a_text = "section a: in identity";
    blvl_section_in in[2] = {
        {.tag = "t.a", .flags = BLVL_ENTRY_FLAG_IDENTITY, .data = a_text, .size = strlen(a_text)},
        {.tag = "t.b", .data = b_text, .size = strlen(b_text)},
    };
    void *out = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl_write_memory(&out, size, in, 2, NULL, &err), BLVL_OK);
    if (!out)
        return NULL;
    *floor = 0;
    for (int i = 0; i < 8; i++)
        *floor |= (uint64_t)((const uint8_t *)out)[16 + i] << (8 * i);
    memcpy(td, (const uint8_t *)out + 24, 16);
    memcpy(id, (const uint8_t *)out + 48, 16);
    return out;
}

static void test_tables(const char *dir, const blvl_options *opt) {
    blvl__cache *c = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 0, &opt->allocator, &err), BLVL_OK);
    size_t size1, size2;
    uint64_t floor1, floor2;
    uint8_t id1[16], td1[16], id2[16], td2[16];
    uint8_t *l1 = make_level("b, first", &size1, &floor1, id1, td1);
    uint8_t *l2 = make_level("b, second edit", &size2, &floor2, id2, td2);
    if (!l1 || !l2)
        return;
    CHECK_MEM(id1, id2, 16); /* t.b is outside identity: an edit keeps the name */
    CHECK(memcmp(td1, td2, 16) != 0);
    CHECK(floor1 >= 128 && floor1 <= size1);

    uint8_t *buf = malloc(floor1 + 64);
    CHECK(!blvl__http_cache_get_table(c, id1, td1, buf, floor1));
    blvl__http_cache_put_table(c, id1, td1, l1, floor1);
    blvl__http_cache_put_table(c, id2, td2, l2, floor2);
    char path[600], h1[33], h2[33];
    hex(id1, h1);
    hex(td1, h2);
    snprintf(path, sizeof path, "%s/tables/%s-%s", dir, h1, h2);
    CHECK(exists(path));
    CHECK(blvl__http_cache_get_table(c, id1, td1, buf, floor1));
    CHECK_MEM(buf, l1, floor1);
    CHECK(blvl__http_cache_get_table(c, id2, td2, buf, floor2));
    CHECK_MEM(buf, l2, floor2);
    /* A table that does not carry the names it is put under is not kept. */
    uint8_t wrong[16];
    memcpy(wrong, td1, 16);
    wrong[5] ^= 1;
    blvl__http_cache_put_table(c, id1, wrong, l1, floor1);
    CHECK(!blvl__http_cache_get_table(c, id1, wrong, buf, floor1));

    /* A flipped byte anywhere in the region, the slack the table digest does not cover
     * included, is a miss and the entry goes. */
    flip_byte(path, (long)floor1 - 8);
    CHECK(!blvl__http_cache_get_table(c, id1, td1, buf, floor1));
    CHECK(!exists(path));
    blvl__http_cache_put_table(c, id1, td1, l1, floor1);
    flip_byte(path, 50); /* inside the identity */
    CHECK(!blvl__http_cache_get_table(c, id1, td1, buf, floor1));
    CHECK(!exists(path));
    /* Asked with another size than the one the names fix: a miss (and the entry goes). */
    blvl__http_cache_put_table(c, id1, td1, l1, floor1);
    CHECK(!blvl__http_cache_get_table(c, id1, td1, buf, floor1 - 64));
    CHECK(!blvl__http_cache_get_table(c, id1, td1, buf, floor1));

    free(buf);
    blvl_free(NULL, l1);
    blvl_free(NULL, l2);
    blvl__http_cache_close(c);
}

/* Least recently used goes first; a get is a use. */
static void test_eviction(const char *dir, const blvl_options *opt) {
    blvl__cache *c = NULL;
    blvl_error err;
    /* Room for three entries of 300 bytes; the fourth puts the total over the cap, and the
     * cache evicts down to 15/16 of it (937 bytes): exactly one entry goes. */
    CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 1000, &opt->allocator, &err), BLVL_OK);
    uint8_t data[4][300], d[4][16], got[300];
    for (unsigned i = 0; i < 4; i++)
        payload(data[i], 300, 10 + i, d[i]);
    for (int i = 0; i < 3; i++)
        blvl__http_cache_put_section(c, d[i], data[i], 300);
    CHECK_EQ_INT(blvl__http_cache_bytes(c), 900);
    CHECK(blvl__http_cache_get_section(c, d[0], got, 300)); /* 0 is now newer than 1 and 2 */
    blvl__http_cache_put_section(c, d[3], data[3], 300);
    CHECK_EQ_INT(blvl__http_cache_bytes(c), 900);
    CHECK(exists(section_path(dir, d[0])));
    CHECK(!exists(section_path(dir, d[1]))); /* the least recently used */
    CHECK(exists(section_path(dir, d[2])));
    CHECK(exists(section_path(dir, d[3])));
    /* Next to go: 2, then 0. */
    blvl__http_cache_put_section(c, d[1], data[1], 300);
    CHECK(!exists(section_path(dir, d[2])));
    CHECK(exists(section_path(dir, d[0])));
    blvl__http_cache_put_section(c, d[2], data[2], 300);
    CHECK(!exists(section_path(dir, d[0])));
    CHECK(exists(section_path(dir, d[3])) && exists(section_path(dir, d[1])) &&
          exists(section_path(dir, d[2])));
    /* An entry larger than the cap is never kept (it would evict everything, then itself). */
    static uint8_t big[1500];
    uint8_t db[16];
    payload(big, sizeof big, 99, db);
    blvl__http_cache_put_section(c, db, big, sizeof big);
    CHECK(!exists(section_path(dir, db)));
    CHECK_EQ_INT(blvl__http_cache_bytes(c), 900);
    blvl__http_cache_close(c);
}

/* Two caches (as two processes would) on one directory see each other's entries and uses, and
 * either one's eviction counts both's entries. */
static void test_shared(const char *dir, const blvl_options *opt) {
    blvl__cache *c1 = NULL, *c2 = NULL;
    blvl_error err;
    uint8_t data[6][300], d[6][16], got[300];
    for (unsigned i = 0; i < 6; i++)
        payload(data[i], 300, 20 + i, d[i]);
    CHECK_EQ_INT(blvl__http_cache_open(&c1, dir, 1000, &opt->allocator, &err), BLVL_OK);
    for (int i = 0; i < 3; i++)
        blvl__http_cache_put_section(c1, d[i], data[i], 300);
    CHECK_EQ_INT(blvl__http_cache_open(&c2, dir, 1000, &opt->allocator, &err), BLVL_OK);
    CHECK(blvl__http_cache_get_section(c2, d[0], got, 300)); /* c1's entry, now c2's newest use */
    CHECK_MEM(got, data[0], 300);
    blvl__http_cache_put_section(c2, d[3], data[3], 300); /* 1200: c2 evicts the oldest, 1 */
    CHECK(!blvl__http_cache_get_section(c1, d[1], got, 300));
    CHECK(blvl__http_cache_get_section(c1, d[0], got, 300));
    CHECK(blvl__http_cache_get_section(c1, d[3], got, 300)); /* c2's entry */
    /* c1 counted 900 of its own; its put makes 1200 and the listing finds 2, 0, 3, 4: the
     * oldest use is 2 (0 and 3 were just read). */
    blvl__http_cache_put_section(c1, d[4], data[4], 300);
    CHECK(!exists(section_path(dir, d[2])));
    CHECK(exists(section_path(dir, d[0])) && exists(section_path(dir, d[3])) &&
          exists(section_path(dir, d[4])));
    CHECK_EQ_INT(blvl__http_cache_bytes(c1), 900);
    CHECK_EQ_INT(blvl__http_cache_bytes(c2), 900);
    /* A damaged entry seen by one cache is dropped for both. */
    flip_byte(section_path(dir, d[4]), 3);
    CHECK(!blvl__http_cache_get_section(c2, d[4], got, 300));
    CHECK(!blvl__http_cache_get_section(c1, d[4], got, 300));
    CHECK_EQ_INT(blvl__http_cache_bytes(c1), 600);
    blvl__http_cache_close(c1);
    blvl__http_cache_close(c2);
}

/* Two processes at once on one directory with a small cap, each getting and putting (and so
 * evicting) the same names: every hit is the right bytes, no temporary is left, and the total
 * stays within what two processes can overshoot (each sees the other's puts at its next
 * listing). */
static void test_processes(const char *dir, const blvl_options *opt) {
    enum { N = 40, SIZE = 300, CAP = 4000, ROUNDS = 300 };
    static uint8_t data[N][SIZE], d[N][16];
    for (unsigned i = 0; i < N; i++)
        payload(data[i], SIZE, 200 + i, d[i]);
    pid_t kids[2];
    for (int k = 0; k < 2; k++) {
        kids[k] = fork();
        if (kids[k] == 0) {
            blvl__cache *c = NULL;
            blvl_error err;
            int bad = blvl__http_cache_open(&c, dir, CAP, &opt->allocator, &err) != BLVL_OK;
            uint8_t got[SIZE];
            for (int j = 0; j < ROUNDS && !bad; j++) {
                int i = (j * 7 + k * 13) % N;
                if (blvl__http_cache_get_section(c, d[i], got, SIZE))
                    bad |= memcmp(got, data[i], SIZE) != 0;
                else
                    blvl__http_cache_put_section(c, d[i], data[i], SIZE);
            }
            blvl__http_cache_close(c);
            _exit(bad);
        }
    }
    for (int k = 0; k < 2; k++) {
        int status = -1;
        CHECK(kids[k] > 0 && waitpid(kids[k], &status, 0) == kids[k]);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    blvl__cache *c = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl__http_cache_open(&c, dir, CAP, &opt->allocator, &err), BLVL_OK);
    uint64_t total = blvl__http_cache_bytes(c);
    CHECK(total > 0 && total <= 2 * CAP);
    blvl__http_cache_close(c);
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s/tmp", dir);
    DIR *td = opendir(tmp);
    CHECK(td != NULL);
    int left = 0;
    for (struct dirent *e; td && (e = readdir(td)) != NULL;)
        left += e->d_name[0] != '.';
    if (td)
        closedir(td);
    CHECK_EQ_INT(left, 0);
}

/* A directory that cannot be made or written: no caching, no failure. */
static void test_unusable(const char *base, const blvl_options *opt) {
    char file[512], dir[600];
    snprintf(file, sizeof file, "%s/a-file", base);
    FILE *f = fopen(file, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    snprintf(dir, sizeof dir, "%s/cache", file); /* under a regular file: mkdir fails */
    blvl__cache *c = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 0, &opt->allocator, &err), BLVL_OK);
    uint8_t data[100], d[16], got[100];
    payload(data, sizeof data, 3, d);
    blvl__http_cache_put_section(c, d, data, sizeof data);
    CHECK(!blvl__http_cache_get_section(c, d, got, sizeof got));
    CHECK_EQ_INT(blvl__http_cache_bytes(c), 0);
    blvl__http_cache_close(c);

    /* A read-only directory (root writes anyway, so only checked for other users): gets of
     * what is there still work, puts do nothing. */
    if (geteuid() != 0) {
        snprintf(dir, sizeof dir, "%s/ro", base);
        CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 0, &opt->allocator, &err), BLVL_OK);
        blvl__http_cache_put_section(c, d, data, sizeof data);
        blvl__http_cache_close(c);
        char sub[700];
        const char *subs[] = {"", "/sections", "/tables", "/tmp"};
        for (int i = 3; i >= 0; i--) {
            snprintf(sub, sizeof sub, "%s%s", dir, subs[i]);
            chmod(sub, 0555);
        }
        char h[33];
        hex(d, h);
        snprintf(sub, sizeof sub, "%s/sections/%.2s", dir, h);
        chmod(sub, 0555);
        CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 0, &opt->allocator, &err), BLVL_OK);
        CHECK(blvl__http_cache_get_section(c, d, got, sizeof got));
        uint8_t d2[16];
        payload(data, sizeof data, 4, d2);
        blvl__http_cache_put_section(c, d2, data, sizeof data);
        CHECK(!blvl__http_cache_get_section(c, d2, got, sizeof got));
        blvl__http_cache_close(c);
        chmod(sub, 0755);
        for (int i = 0; i < 4; i++) {
            snprintf(sub, sizeof sub, "%s%s", dir, subs[i]);
            chmod(sub, 0755);
        }
    }
}

/* "" is $XDG_CACHE_HOME/blvl, made when missing. */
static void test_default_dir(const char *base, const blvl_options *opt) {
    char xdg[512], expect[600];
    snprintf(xdg, sizeof xdg, "%s/xdg/deeper", base);
    setenv("XDG_CACHE_HOME", xdg, 1);
    blvl__cache *c = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl__http_cache_open(&c, "", 0, &opt->allocator, &err), BLVL_OK);
    uint8_t data[64], d[16];
    payload(data, sizeof data, 5, d);
    blvl__http_cache_put_section(c, d, data, sizeof data);
    snprintf(expect, sizeof expect, "%s/blvl", xdg);
    CHECK(exists(section_path(expect, d)));
    blvl__http_cache_close(c);
}

/* ---- the cache folder holds only what the cache wrote (docs/HTTP.md, "The cache") -------- */

/* Warnings the cache gave, for the checks below. */
typedef struct warned {
    int n;
    char last[1024];
} warned;

static void on_warn(void *user, const char *message) {
    warned *w = user;
    w->n++;
    snprintf(w->last, sizeof w->last, "%s", message);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Sets a file's times two hours back: older than the temporaries' hour. */
static void make_old(const char *path) {
    struct timespec ts[2];
    clock_gettime(CLOCK_REALTIME, &ts[0]);
    ts[0].tv_sec -= 7200;
    ts[1] = ts[0];
    CHECK_EQ_INT(utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW), 0);
}

static mode_t mode_of(const char *path) {
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return 0;
    return sb.st_mode;
}

/* DIR/tmp cleaning removes only old temporaries named as the cache names them; another
 * program's files there (any age, any name, the cache's old plain-number pattern included)
 * stay, and a symlink there is not followed. */
static void test_tmp_foreign(const char *dir, const blvl_options *opt) {
    char p[700], other[700], elsewhere[640];
    mkdir(dir, 0700);
    snprintf(p, sizeof p, "%s/tmp", dir);
    mkdir(p, 0700);
    snprintf(elsewhere, sizeof elsewhere, "%s-elsewhere", dir);
    mkdir(elsewhere, 0700);
    const char *foreign[] = {"notes.txt", "123.4.5678901234", "blvl-1.2.3.tmp", ".hidden",
                             "blvl-1.2.1234567890123456789.tmp.keep"};
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
        snprintf(p, sizeof p, "%s/tmp/%s", dir, foreign[i]);
        write_file(p, "someone else's\n");
        make_old(p);
    }
    /* A symlink with a temporary's name, to a file elsewhere: neither removed through. */
    snprintf(other, sizeof other, "%s/precious", elsewhere);
    write_file(other, "precious\n");
    make_old(other);
    snprintf(p, sizeof p, "%s/tmp/blvl-9.9.1234567890123456789.tmp", dir);
    CHECK_EQ_INT(symlink(other, p), 0);
    /* The cache's own: an old one (removed) and a fresh one (another process writing it). */
    char old_tmp[700], new_tmp[700];
    snprintf(old_tmp, sizeof old_tmp, "%s/tmp/blvl-77.0.1700000000123456789.tmp", dir);
    write_file(old_tmp, "left by a process that died\n");
    make_old(old_tmp);
    snprintf(new_tmp, sizeof new_tmp, "%s/tmp/blvl-78.0.1700000000123456789.tmp", dir);
    write_file(new_tmp, "being written\n");

    blvl__cache *c = NULL;
    blvl_error err;
    warned w = {0};
    CHECK_EQ_INT(blvl__http_cache_open_warn(&c, dir, 0, &opt->allocator, on_warn, &w, &err),
                 BLVL_OK);
    CHECK(!exists(old_tmp));
    CHECK(exists(new_tmp));
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
        snprintf(p, sizeof p, "%s/tmp/%s", dir, foreign[i]);
        CHECK(exists(p));
    }
    CHECK(exists(other));
    snprintf(p, sizeof p, "%s/tmp/blvl-9.9.1234567890123456789.tmp", dir);
    CHECK(S_ISLNK(mode_of(p))); /* a symlink is not a temporary the cache wrote */
    CHECK_EQ_INT(w.n, 0);
    /* And the cache still works beside them. */
    uint8_t data[200], d[16], got[200];
    payload(data, sizeof data, 60, d);
    blvl__http_cache_put_section(c, d, data, sizeof data);
    CHECK(blvl__http_cache_get_section(c, d, got, sizeof got));
    blvl__http_cache_close(c);
    rm_rf(elsewhere);
}

/* DIR/tmp a symlink to another folder (a planted `shared/tmp -> elsewhere`, or BLVL_CACHE=$HOME
 * with ~/tmp a link): never followed. Nothing there is removed, nothing is written there, the
 * cache says so once, and gets still work. */
static void test_tmp_symlink(const char *dir, const blvl_options *opt) {
    char elsewhere[700], p[800], kept[800];
    snprintf(elsewhere, sizeof elsewhere, "%s-elsewhere", dir);
    mkdir(elsewhere, 0700);
    /* Old files there, one of them even named as the cache names its temporaries. */
    snprintf(kept, sizeof kept, "%s/blvl-5.0.1700000000123456789.tmp", elsewhere);
    write_file(kept, "another user's\n");
    make_old(kept);
    snprintf(p, sizeof p, "%s/report.txt", elsewhere);
    write_file(p, "another user's\n");
    make_old(p);

    /* A section put before the link was planted. */
    uint8_t data[200], d[16], got[200];
    payload(data, sizeof data, 61, d);
    blvl__cache *c = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 0, &opt->allocator, &err), BLVL_OK);
    blvl__http_cache_put_section(c, d, data, sizeof data);
    blvl__http_cache_close(c);
    char tmp[700];
    snprintf(tmp, sizeof tmp, "%s/tmp", dir);
    rm_rf(tmp);
    CHECK_EQ_INT(symlink(elsewhere, tmp), 0);

    warned w = {0};
    CHECK_EQ_INT(blvl__http_cache_open_warn(&c, dir, 0, &opt->allocator, on_warn, &w, &err),
                 BLVL_OK);
    CHECK(exists(kept));
    CHECK(exists(p));
    CHECK(blvl__http_cache_get_section(c, d, got, sizeof got)); /* gets still work */
    CHECK_MEM(got, data, sizeof data);
    uint8_t d2[16];
    payload(data, sizeof data, 62, d2);
    blvl__http_cache_put_section(c, d2, data, sizeof data); /* not written (not through the link) */
    blvl__http_cache_put_section(c, d2, data, sizeof data);
    CHECK(!exists(section_path(dir, d2)));
    CHECK(S_ISLNK(mode_of(tmp)));
    DIR *e = opendir(elsewhere);
    int n = 0;
    for (struct dirent *de; e && (de = readdir(e)) != NULL;)
        n += de->d_name[0] != '.';
    if (e)
        closedir(e);
    CHECK_EQ_INT(n, 2);   /* nothing added there either */
    CHECK_EQ_INT(w.n, 1); /* said once */
    CHECK(strstr(w.last, "/tmp is a symlink") != NULL);
    blvl__http_cache_close(c);
    rm_rf(elsewhere);
}

static void sigalrm_fail(int sig) {
    (void)sig;
    static const char msg[] = "test_http_cache: a get blocked on a FIFO\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
    }
    _exit(2);
}

/* Something that is not a regular file at an entry's name: a FIFO (open() without O_NONBLOCK
 * would wait forever for a writer), a folder, a symlink. Each is a miss, said once, and the
 * put after the fetch replaces it, so the next get is a hit. A folder with files in it is
 * left alone (the cache removes only what it wrote), and said so. */
static void test_foreign_entries(const char *dir, const blvl_options *opt) {
    blvl__cache *c = NULL;
    blvl_error err;
    warned w = {0};
    CHECK_EQ_INT(blvl__http_cache_open_warn(&c, dir, 0, &opt->allocator, on_warn, &w, &err),
                 BLVL_OK);
    uint8_t data[4][500], d[4][16], got[500];
    for (unsigned i = 0; i < 4; i++)
        payload(data[i], 500, 70 + i, d[i]);
    char fan[700];
    for (unsigned i = 0; i < 4; i++) {
        snprintf(fan, sizeof fan, "%s", section_path(dir, d[i]));
        *strrchr(fan, '/') = '\0';
        mkdir(fan, 0700);
    }
    CHECK_EQ_INT(mkfifo(section_path(dir, d[0]), 0600), 0);
    CHECK_EQ_INT(mkdir(section_path(dir, d[1]), 0700), 0);
    CHECK_EQ_INT(symlink("/dev/zero", section_path(dir, d[2])), 0);
    char inner[800];
    CHECK_EQ_INT(mkdir(section_path(dir, d[3]), 0700), 0);
    snprintf(inner, sizeof inner, "%s/theirs", section_path(dir, d[3]));
    write_file(inner, "a file someone keeps here\n");

    /* The FIFO: bounded by an alarm (the old code blocked in open() for ever). */
    signal(SIGALRM, sigalrm_fail);
    alarm(10);
    CHECK(!blvl__http_cache_get_section(c, d[0], got, sizeof got));
    alarm(0);
    signal(SIGALRM, SIG_DFL);
    CHECK_EQ_INT(w.n, 1);
    CHECK(strstr(w.last, "is a FIFO, not a file") != NULL);
    CHECK(!blvl__http_cache_get_section(c, d[1], got, sizeof got));
    CHECK(!blvl__http_cache_get_section(c, d[2], got, sizeof got));
    CHECK_EQ_INT(w.n, 1); /* once per cache */
    /* A get leaves them (the put replaces them in one rename; a failed fetch removes nothing). */
    CHECK(S_ISFIFO(mode_of(section_path(dir, d[0]))));
    CHECK(S_ISDIR(mode_of(section_path(dir, d[1]))));
    CHECK(S_ISLNK(mode_of(section_path(dir, d[2]))));
    for (unsigned i = 0; i < 3; i++) {
        blvl__http_cache_put_section(c, d[i], data[i], 500);
        CHECK(S_ISREG(mode_of(section_path(dir, d[i]))));
        memset(got, 0, sizeof got);
        CHECK(blvl__http_cache_get_section(c, d[i], got, sizeof got));
        CHECK_MEM(got, data[i], 500);
    }
    /* The folder with a file in it: kept as it is, the entry not kept, said once. */
    CHECK(!blvl__http_cache_get_section(c, d[3], got, sizeof got));
    blvl__http_cache_put_section(c, d[3], data[3], 500);
    CHECK(S_ISDIR(mode_of(section_path(dir, d[3]))));
    CHECK(exists(inner));
    CHECK_EQ_INT(w.n, 2);
    CHECK(strstr(w.last, "is a folder with files in it") != NULL);
    CHECK(!blvl__http_cache_get_section(c, d[3], got, sizeof got));
    blvl__http_cache_close(c);
    /* A cache without a hook is as safe, and quiet. */
    CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 0, &opt->allocator, &err), BLVL_OK);
    unlink(section_path(dir, d[0]));
    CHECK_EQ_INT(mkfifo(section_path(dir, d[0]), 0600), 0);
    signal(SIGALRM, sigalrm_fail);
    alarm(10);
    CHECK(!blvl__http_cache_get_section(c, d[0], got, sizeof got));
    alarm(0);
    signal(SIGALRM, SIG_DFL);
    blvl__http_cache_close(c);
}

/* New folders are the user's alone (0700) whatever the umask, unless the parent is setgid (a
 * folder shared by a group): then 0770, and the setgid bit passes on. */
static void test_modes(const char *base, const blvl_options *opt) {
    mode_t old = umask(0);
    char dir[600], p[700];
    snprintf(dir, sizeof dir, "%s/modes/a/b", base);
    blvl__cache *c = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 0, &opt->allocator, &err), BLVL_OK);
    uint8_t data[64], d[16];
    payload(data, sizeof data, 80, d);
    blvl__http_cache_put_section(c, d, data, sizeof data);
    blvl__http_cache_close(c);
    char fan[700];
    snprintf(fan, sizeof fan, "%s", section_path(dir, d));
    *strrchr(fan, '/') = '\0';
    const char *subs[] = {"/..", "", "/sections", "/tables", "/tmp"};
    for (int i = 0; i < 5; i++) {
        snprintf(p, sizeof p, "%s%s", dir, subs[i]);
        CHECK_EQ_INT(mode_of(p) & 07777, 0700);
    }
    CHECK_EQ_INT(mode_of(fan) & 07777, 0700);

    /* A group's shared folder: setgid. */
    snprintf(p, sizeof p, "%s/group", base);
    CHECK_EQ_INT(mkdir(p, 0770), 0);
    CHECK_EQ_INT(chmod(p, 02770), 0);
    snprintf(dir, sizeof dir, "%s/group/cache", base);
    CHECK_EQ_INT(blvl__http_cache_open(&c, dir, 0, &opt->allocator, &err), BLVL_OK);
    blvl__http_cache_put_section(c, d, data, sizeof data);
    blvl__http_cache_close(c);
    snprintf(fan, sizeof fan, "%s", section_path(dir, d));
    *strrchr(fan, '/') = '\0';
    CHECK_EQ_INT(mode_of(dir) & 0777, 0770);
    CHECK(mode_of(dir) & S_ISGID);
    CHECK_EQ_INT(mode_of(fan) & 0777, 0770);
    umask(old);
}

int main(void) {
    char base[] = "/tmp/blvl-cache-test.XXXXXX";
    if (!mkdtemp(base))
        return 1;
    test_counter count;
    blvl_options opt = test_counting(&count);
    const char *names[] = {"sections", "tables", "evict", "shared", "processes"};
    void (*tests[])(const char *, const blvl_options *) = {
        test_sections, test_tables, test_eviction, test_shared, test_processes};
    for (int i = 0; i < 5; i++) {
        char dir[600];
        snprintf(dir, sizeof dir, "%s/%s", base, names[i]);
        tests[i](dir, &opt);
    }
    test_unusable(base, &opt);
    test_default_dir(base, &opt);
    const char *names2[] = {"tmp-foreign", "tmp-symlink", "foreign-entries"};
    void (*tests2[])(const char *, const blvl_options *) = {test_tmp_foreign, test_tmp_symlink,
                                                            test_foreign_entries};
    for (int i = 0; i < 3; i++) {
        char dir[600];
        snprintf(dir, sizeof dir, "%s/%s", base, names2[i]);
        tests2[i](dir, &opt);
    }
    test_modes(base, &opt);
    CHECK(count.calls > 0); /* the eviction listings went through the allocator */
    CHECK_EQ_INT(count.live, 0);
    CHECK_EQ_INT(count.bad_free, 0);
    rm_rf(base);
    return check_report("test_http_cache");
}
