/* A level over HTTP read from several threads at once: blvl_read may be called concurrently on
 * one level (the source serialises its requests on its one connection), and every section read
 * that way equals the same section read from the file. Also a level opened with `want` reads
 * its wanted sections without another request, and the counters add up. nginx on 127.0.0.1
 * (tests/support/nginx.sh, started through the shell) serves a level written here; skipped (77)
 * without nginx. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blvl/http.h"
#include "check.h"

#define NSEC 6
#define NTHREADS 4
#define ROUNDS 3

static const char *tags[NSEC] = {"game.a", "game.b", "game.c", "game.d", "game.e", "game.f"};
static uint8_t *want_data[NSEC];
static size_t want_size[NSEC];
static blvl_level *shared;
static int thread_bad;

static void *reader(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg;
    for (int r = 0; r < ROUNDS * NSEC; r++) {
        int i = (int)((seed + (unsigned)r * 7u) % NSEC);
        blvl_bytes b;
        blvl_error err;
        if (blvl_read(shared, tags[i], &b, &err) != BLVL_OK || b.size != want_size[i] ||
            memcmp(b.data, want_data[i], b.size) != 0)
            __atomic_add_fetch(&thread_bad, 1, __ATOMIC_RELAXED);
        blvl_bytes_free(&b);
    }
    return NULL;
}

typedef struct counting {
    size_t calls, live;
} counting;

static void *count_alloc(void *user, size_t size) {
    counting *c = user;
    c->calls++;
    c->live += size;
    return malloc(size);
}

static void count_free(void *user, void *ptr, size_t size) {
    counting *c = user;
    c->live -= size;
    free(ptr);
}

int main(void) {
    const char *src = getenv("BLVL_SRC");
    if (!src)
        src = ".";
    char dir[] = "/tmp/blvl-http-threads.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    /* Sections of varied sizes, past the first request, incompressible. */
    blvl_section_in in[NSEC];
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < NSEC; i++) {
        want_size[i] = 1000 + (size_t)i * 70000;
        want_data[i] = malloc(want_size[i]);
        for (size_t k = 0; k < want_size[i]; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            want_data[i][k] = (uint8_t)x;
        }
        in[i] = (blvl_section_in){tags[i], 1, 0, want_data[i], want_size[i]};
    }
    char path[256], cmd[1024], url[256], ndir[256];
    snprintf(path, sizeof path, "%s/level.blvl", dir);
    blvl_error err;
    blvl_options copt = {0};
    CHECK_EQ_INT(blvl_write_file(path, in, NSEC, &copt, &err), BLVL_OK);
    /* nginx, left running by the shell (its EXIT trap dropped); stopped below. */
    snprintf(cmd, sizeof cmd,
             "bash -c '. \"%s/tests/support/nginx.sh\"; nginx_start \"%s\" >&2 || exit 1; "
             "trap - EXIT; echo \"$nginx_url $nginx_dir\"'",
             src, dir);
    FILE *p = popen(cmd, "r");
    int got = p ? fscanf(p, "%200s %200s", url, ndir) : 0;
    int rc = p ? pclose(p) : -1;
    if (rc != 0 || got != 2) {
        if (rc != -1 && WEXITSTATUS(rc) == 77) {
            printf("nginx not installed: skipped\n");
            return 77;
        }
        fprintf(stderr, "nginx did not start\n");
        return 1;
    }
    strncat(url, "/level.blvl", sizeof url - strlen(url) - 1);

    CHECK_EQ_INT(blvl_open_url(&shared, url, NULL, &err), BLVL_OK);
    if (shared) {
        pthread_t t[NTHREADS];
        for (int i = 0; i < NTHREADS; i++)
            pthread_create(&t[i], NULL, reader, (void *)(uintptr_t)(i * 5 + 1));
        for (int i = 0; i < NTHREADS; i++)
            pthread_join(t[i], NULL);
        CHECK_EQ_INT(thread_bad, 0);
        blvl_http_stats st;
        blvl_http_get_stats(shared, &st);
        CHECK(st.ranges);
        CHECK_EQ_INT(st.retries, 0);
        /* Every read of a section past the first request is one request. */
        blvl_close(shared);
    }

    /* want: the wanted sections come at open; reading them sends nothing more. */
    const char *w[] = {"game.f", "game.d"};
    blvl_http_options h = {0};
    h.want = w;
    h.nwant = 2;
    blvl_level *lv = NULL;
    CHECK_EQ_INT(blvl_open_url(&lv, url, &h, &err), BLVL_OK);
    if (lv) {
        blvl_http_stats a, b;
        blvl_http_get_stats(lv, &a);
        blvl_bytes out;
        CHECK_EQ_INT(blvl_read(lv, "game.f", &out, &err), BLVL_OK);
        CHECK(out.size == want_size[5] && memcmp(out.data, want_data[5], out.size) == 0);
        blvl_bytes_free(&out);
        CHECK_EQ_INT(blvl_read(lv, "game.d", &out, &err), BLVL_OK);
        blvl_bytes_free(&out);
        blvl_http_get_stats(lv, &b);
        CHECK_EQ_INT(b.requests, a.requests);
        CHECK_EQ_INT(b.bytes_received, a.bytes_received);
        const blvl_entry *ed = blvl_find(lv, "game.d"), *ef = blvl_find(lv, "game.f");
        /* d and f are not neighbours (e lies between): header+table, then one request for
         * both ranges, a multipart answer (their bytes and under 512 bytes of part headers;
         * test_http.sh checks nginx's exact size). */
        CHECK_EQ_INT(a.requests, 2);
        uint64_t sections = 4096 + ed->packed_size + ef->packed_size;
        CHECK(a.bytes_received > sections && a.bytes_received < sections + 512);
        blvl_close(lv);
    }
    /* A wanted tag the level lacks. */
    const char *missing[] = {"game.zz"};
    h.want = missing;
    h.nwant = 1;
    CHECK_EQ_INT(blvl_open_url(&lv, url, &h, &err), BLVL_E_NOT_FOUND);

    /* The level's memory comes from the allocator in the options' base (blvl_http_options
     * embeds blvl_options), and all of it goes back at blvl_close. */
    counting cnt = {0, 0};
    blvl_http_options ho = {.base.allocator = {count_alloc, count_free, &cnt}};
    lv = NULL;
    CHECK_EQ_INT(blvl_open_url(&lv, url, &ho, &err), BLVL_OK);
    if (lv) {
        CHECK(blvl_level_options(lv)->allocator.user == &cnt);
        blvl_bytes out;
        CHECK_EQ_INT(blvl_read(lv, "game.b", &out, &err), BLVL_OK);
        blvl_bytes_free(&out);
        CHECK(cnt.calls > 0 && cnt.live > 0);
        blvl_close(lv);
    }
    CHECK_EQ_INT(cnt.live, 0);

    snprintf(cmd, sizeof cmd, "kill -QUIT $(cat '%s/nginx.pid'); sleep 0.2; rm -rf '%s' '%s'", ndir,
             ndir, dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not stop nginx\n");
    for (int i = 0; i < NSEC; i++)
        free(want_data[i]);
    return check_report("test_http_threads");
}
