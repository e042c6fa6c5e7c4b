/* The memory of reads over HTTP (docs/BENCHMARKS.md, "Memory of large sections over HTTP"),
 * run by scripts/bench.sh with nginx on 127.0.0.1 serving a level with one large section.
 *
 *   bench_http_memory BLVL URL TAG WORKDIR [--runs N]
 *
 * Each round runs, as child processes, `curl -s -o WORKDIR/curl.out URL` (the reference: a
 * plain download to a file), `blvl fetch URL -o WORKDIR/fetch.blvl`, the same with
 * `--cache=WORKDIR/cache` (the cache removed first, so every section is put), and
 * `blvl cat URL TAG` to /dev/null and `blvl verify --container URL`, and takes each child's peak
 * resident memory (wait4's ru_maxrss, the kernel's count) and wall time. Prints the medians of N
 * rounds (default 5) and each peak's ratio to curl's. WORKDIR's files are removed at the end. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_RUNS 101

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* Runs argv with stdout to /dev/null; its peak RSS in KiB (and *wall seconds). Exits on a
 * failure: a benchmark of a failing command means nothing. */
static long run(char *const argv[], double *wall) {
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_http_memory: fork");
        exit(2);
    }
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, STDOUT_FILENO);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) {
            perror("bench_http_memory: wait4");
            exit(2);
        }
    *wall = bench_now() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_http_memory: %s %s failed\n", argv[0], argv[1]);
        exit(2);
    }
    return ru.ru_maxrss;
}

enum { CURL, FETCH, FETCH_CACHE, CAT, VERIFY, WAYS };

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: bench_http_memory BLVL URL TAG WORKDIR [--runs N]\n");
        return 2;
    }
    char *blvl = argv[1], *url = argv[2], *tag = argv[3];
    const char *dir = argv[4];
    int runs = 5;
    for (int i = 5; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[i + 1]);
    if (runs < 1 || runs > MAX_RUNS)
        runs = 5;
    char curl_out[4096], fetch_out[4096], cache[4096], cache_opt[4200];
    snprintf(curl_out, sizeof curl_out, "%s/curl.out", dir);
    snprintf(fetch_out, sizeof fetch_out, "%s/fetch.blvl", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    snprintf(cache_opt, sizeof cache_opt, "--cache=%s", cache);
    char *cmds[WAYS][8] = {
        {"curl", "-s", "-o", curl_out, url, NULL},
        {blvl, "fetch", url, "-o", fetch_out, NULL},
        {blvl, "fetch", url, "-o", fetch_out, cache_opt, NULL},
        {blvl, "cat", url, tag, NULL},
        {blvl, "verify", "--container", url, NULL},
    };
    static const char *const names[WAYS] = {"curl -o (reference)", "blvl fetch -o",
                                            "blvl fetch -o --cache", "blvl cat URL TAG",
                                            "blvl verify --container URL"};
    double rss[WAYS][MAX_RUNS], wall[WAYS][MAX_RUNS];
    for (int r = -1; r < runs; r++) /* round -1 warms the server's page cache */
        for (int w = 0; w < WAYS; w++) {
            if (w == FETCH_CACHE)
                nftw(cache, rm_one, 16, FTW_DEPTH | FTW_PHYS);
            double t;
            long kib = run(cmds[w], &t);
            if (r >= 0) {
                rss[w][r] = (double)kib / 1024.0;
                wall[w][r] = t;
            }
        }
    double ref = bench_median(rss[CURL], (size_t)runs);
    printf("memory of large sections over HTTP (%s, section %s): peak RSS, medians of %d runs\n",
           url, tag, runs);
    for (int w = 0; w < WAYS; w++) {
        double m = bench_median(rss[w], (size_t)runs);
        printf("  %-29s peak %7.1f MiB  ratio %5.2f  wall %6.2f s\n", names[w], m, m / ref,
               bench_median(wall[w], (size_t)runs));
    }
    remove(curl_out);
    remove(fetch_out);
    nftw(cache, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}
