/* Levels over HTTP (docs/BENCHMARKS.md, "Levels over HTTP"), run by scripts/bench.sh with nginx
 * on 127.0.0.1 serving the bench level (tests/support/nginx.sh).
 *
 *   bench_http URL FILE OUT_DIR [--runs N]
 *
 * URL and FILE are the same level (FILE the one nginx serves).
 * 1. Open + read `sim`: blvl_open_url + blvl_read("sim") + blvl_close against the same on FILE
 *    (page cache warm for both: nginx reads the file from it too). Bytes received (the library's
 *    count) against header + table (64 bytes + 64 per entry) + packed sim, and against what the
 *    design asks for: the first request (4 KiB, or to the table's end when that is further) +
 *    packed sim.
 * 2. The whole level: blvl_fetch_url (every digest checked, written to OUT_DIR, flushed to disk
 *    before the rename) against `curl -s -o OUT_DIR/http-curl.blvl URL`, and against that
 *    followed by an fsync of curl's file (the same durability), rounds interleaved.
 * Wall-clock medians of N runs (default 9) after one warm-up round, and for 1 the process's CPU
 * time too (the wall time includes waiting for nginx and for a core); ratios of medians. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "blvl/blvl.h"
#include "blvl/http.h"

#define MAX_RUNS 101

static void die(const char *what, const blvl_error *err) {
    fprintf(stderr, "bench_http: %s: %s\n", what, err ? err->message : strerror(errno));
    exit(2);
}

static double run_curl(const char *url, const char *out) {
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid < 0)
        die("fork", NULL);
    if (pid == 0) {
        execlp("curl", "curl", "-s", "-f", "-o", out, url, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            die("waitpid", NULL);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_http: curl failed (status %d)\n", status);
        exit(2);
    }
    return bench_now() - t0;
}

/* Opens (a URL when url is set, else the file), reads sim; seconds (wall; *cpu the process's
 * CPU time). */
static double open_read_sim(const char *url, const char *file, blvl_http_stats *stats,
                            double *cpu) {
    blvl_error err;
    blvl_level *lv;
    double c0 = bench_cpu();
    double t0 = bench_now();
    blvl_status st =
        url ? blvl_open_url(&lv, url, NULL, NULL, &err) : blvl_open_file(&lv, file, NULL, &err);
    if (st != BLVL_OK)
        die("open", &err);
    blvl_bytes b;
    if (blvl_read(lv, "sim", &b, &err) != BLVL_OK)
        die("read sim", &err);
    double t = bench_now() - t0;
    if (cpu)
        *cpu = bench_cpu() - c0;
    if (stats)
        blvl_http_get_stats(lv, stats);
    blvl_bytes_free(&b);
    blvl_close(lv);
    return t;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: bench_http URL FILE OUT_DIR [--runs N]\n");
        return 2;
    }
    const char *url = argv[1], *file = argv[2], *dir = argv[3];
    int runs = 9;
    for (int i = 4; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[i + 1]);
    if (runs < 1 || runs > MAX_RUNS)
        runs = 9;
    blvl_error err;
    blvl_level *lv;
    if (blvl_open_file(&lv, file, NULL, &err) != BLVL_OK)
        die(file, &err);
    blvl_info info;
    blvl_get_info(lv, &info);
    const blvl_entry *sim = blvl_find(lv, "sim");
    if (!sim) {
        fprintf(stderr, "bench_http: %s has no sim\n", file);
        return 2;
    }
    uint64_t sim_packed = sim->packed_size, floor = info.floor, size = info.file_size;
    blvl_close(lv);

    /* 1. open + read sim */
    double local[MAX_RUNS], remote[MAX_RUNS], lcpu[MAX_RUNS], rcpu[MAX_RUNS];
    blvl_http_stats stats = {0};
    open_read_sim(NULL, file, NULL, NULL); /* warm-up */
    open_read_sim(url, NULL, &stats, NULL);
    for (int r = 0; r < runs; r++) {
        local[r] = open_read_sim(NULL, file, NULL, &lcpu[r]);
        remote[r] = open_read_sim(url, NULL, &stats, &rcpu[r]);
    }
    double ml = bench_median(local, (size_t)runs), mr = bench_median(remote, (size_t)runs);
    double mlc = bench_median(lcpu, (size_t)runs), mrc = bench_median(rcpu, (size_t)runs);
    uint64_t table_end = info.table_offset + (uint64_t)info.count * BLVL_ENTRY_SIZE;
    uint64_t first = table_end > 4096 ? table_end : 4096;
    if (first > size)
        first = size;
    uint64_t ideal = table_end + sim_packed, asked = first + sim_packed;
    printf("http open+read sim: level %llu bytes, floor %llu, sim packed %llu\n",
           (unsigned long long)size, (unsigned long long)floor, (unsigned long long)sim_packed);
    printf("  bytes received %llu in %u requests: %.4fx header+table+sim (%llu), %.4fx "
           "first-request+sim (%llu)\n",
           (unsigned long long)stats.bytes_received, stats.requests,
           (double)stats.bytes_received / (double)ideal, (unsigned long long)ideal,
           (double)stats.bytes_received / (double)asked, (unsigned long long)asked);
    printf("  time: local %.3f ms, http %.3f ms (local + %.3f ms; goal local + 5 ms)\n", ml * 1e3,
           mr * 1e3, (mr - ml) * 1e3);
    printf("  cpu time of this process: local %.3f ms, http %.3f ms (local + %.3f ms)\n", mlc * 1e3,
           mrc * 1e3, (mrc - mlc) * 1e3);

    /* 2. the whole level: blvl fetch vs curl -o */
    char ours[4096], theirs[4096];
    snprintf(ours, sizeof ours, "%s/http-fetch.blvl", dir);
    snprintf(theirs, sizeof theirs, "%s/http-curl.blvl", dir);
    double tf[MAX_RUNS], tc[MAX_RUNS], ts[MAX_RUNS];
    for (int r = -1; r < runs; r++) {
        double t0 = bench_now();
        if (blvl_fetch_url(url, ours, NULL, NULL, NULL, &err) != BLVL_OK)
            die("fetch", &err);
        double t = bench_now() - t0;
        double c = run_curl(url, theirs);
        /* blvl_fetch_url flushes its file to disk before the rename; curl does not. */
        double s0 = bench_now();
        int fd = open(theirs, O_RDONLY);
        if (fd < 0 || fsync(fd) != 0)
            die("fsync", NULL);
        close(fd);
        if (r >= 0) {
            tf[r] = t;
            tc[r] = c;
            ts[r] = c + (bench_now() - s0);
        }
    }
    double mf = bench_median(tf, (size_t)runs), mc = bench_median(tc, (size_t)runs);
    double ms = bench_median(ts, (size_t)runs);
    printf("http whole level (%llu bytes): blvl_fetch_url %.1f ms, curl -o %.1f ms: ratio %.3f "
           "(goal <= 1.1); curl -o then fsync %.1f ms: ratio %.3f\n",
           (unsigned long long)size, mf * 1e3, mc * 1e3, mf / mc, ms * 1e3, mf / ms);
    unlink(ours);
    unlink(theirs);
    return 0;
}
