/* The content-addressed cache of levels over HTTP (docs/BENCHMARKS.md, "The HTTP cache"), run
 * by scripts/bench.sh with nginx on 127.0.0.1 serving the bench level.
 *
 *   bench_http_cache URL FILE CACHE_DIR [--runs N]
 *
 * URL and FILE are the same level. Each round opens the level and reads every section's packed
 * bytes (blvl_read_packed: digest checked, no inflation, so the figures are the transfer's and
 * the cache's) four ways: the local file; the URL without a cache; the URL with an empty cache
 * (CACHE_DIR removed first: every section fetched, checked and put); the URL with that cache
 * warm (every section a get: read from disk and hashed again). Medians of N rounds (default 5)
 * after a warm-up, wall and CPU time of this process, and the bytes received and served by the
 * cache. CACHE_DIR is removed at the end. */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "blvl/blvl.h"
#include "blvl/http.h"

#define MAX_RUNS 101

static void die(const char *what, const blvl_error *err) {
    fprintf(stderr, "bench_http_cache: %s: %s\n", what, err ? err->message : strerror(errno));
    exit(2);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void rm_tree(const char *dir) {
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Opens (the URL when set, with the cache when cache is set; else the file) and reads every
 * section's packed bytes. Wall seconds; *cpu this process's CPU seconds. */
static double read_all(const char *url, const char *file, const char *cache, blvl_http_stats *stats,
                       double *cpu) {
    blvl_error err;
    blvl_level *lv;
    blvl_http_options h = {0};
    h.cache_dir = cache;
    double c0 = bench_cpu(), t0 = bench_now();
    blvl_status st =
        url ? blvl_open_url(&lv, url, &h, &err) : blvl_open_file(&lv, file, NULL, &err);
    if (st != BLVL_OK)
        die("open", &err);
    for (uint32_t i = 0; i < blvl_count(lv); i++) {
        blvl_bytes b;
        if (blvl_read_packed(lv, blvl_entry_at(lv, i)->tag, &b, &err) != BLVL_OK)
            die("read", &err);
        blvl_bytes_free(&b);
    }
    double t = bench_now() - t0;
    *cpu = bench_cpu() - c0;
    if (stats)
        blvl_http_get_stats(lv, stats);
    blvl_close(lv);
    return t;
}

enum { LOCAL, NO_CACHE, COLD, WARM, WAYS };

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: bench_http_cache URL FILE CACHE_DIR [--runs N]\n");
        return 2;
    }
    const char *url = argv[1], *file = argv[2], *cache = argv[3];
    int runs = 5;
    for (int i = 4; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[i + 1]);
    if (runs < 1 || runs > MAX_RUNS)
        runs = 5;
    static const char *names[WAYS] = {"local file", "http, no cache", "http, empty cache",
                                      "http, warm cache"};
    double wall[WAYS][MAX_RUNS], cpu[WAYS][MAX_RUNS];
    blvl_http_stats stats[WAYS] = {{0}};
    for (int r = -1; r < runs; r++) {
        double w[WAYS], c[WAYS];
        w[LOCAL] = read_all(NULL, file, NULL, NULL, &c[LOCAL]);
        w[NO_CACHE] = read_all(url, NULL, NULL, &stats[NO_CACHE], &c[NO_CACHE]);
        rm_tree(cache);
        w[COLD] = read_all(url, NULL, cache, &stats[COLD], &c[COLD]);
        w[WARM] = read_all(url, NULL, cache, &stats[WARM], &c[WARM]);
        for (int k = 0; r >= 0 && k < WAYS; k++) {
            wall[k][r] = w[k];
            cpu[k][r] = c[k];
        }
    }
    rm_tree(cache);
    double mw[WAYS], mc[WAYS];
    for (int k = 0; k < WAYS; k++) {
        mw[k] = bench_median(wall[k], (size_t)runs);
        mc[k] = bench_median(cpu[k], (size_t)runs);
    }
    printf("http cache: open + read every section's packed bytes, medians of %d rounds\n", runs);
    for (int k = 0; k < WAYS; k++) {
        printf("  %-18s wall %8.1f ms  cpu %8.1f ms", names[k], mw[k] * 1e3, mc[k] * 1e3);
        if (k != LOCAL)
            printf("  received %llu bytes in %u requests, %llu from the cache",
                   (unsigned long long)stats[k].bytes_received, stats[k].requests,
                   (unsigned long long)stats[k].bytes_cached);
        printf("\n");
    }
    printf("  warm cache / no cache: wall %.2fx, cpu %.2fx; empty cache / no cache: wall %.2fx, "
           "cpu %.2fx\n",
           mw[WARM] / mw[NO_CACHE], mc[WARM] / mc[NO_CACHE], mw[COLD] / mw[NO_CACHE],
           mc[COLD] / mc[NO_CACHE]);
    return 0;
}
