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
 * 1b. Open with want = {sim, OTHER} (OTHER the first game section of 64 KiB or more that is not
 *    sim's neighbour; the
 *    level is opened at every run, nothing cached): bytes received and requests (the library's
 *    counts), wall and CPU time. Sections that are not neighbours go in one multi-range request
 *    (docs/HTTP.md); built against an older library, the same measure shows one request each.
 * 2. The whole level: blvl_fetch_url (every digest checked, written to OUT_DIR, flushed to disk
 *    before the rename) against `curl -s -o OUT_DIR/http-curl.blvl URL`, and against that
 *    followed by an fsync of curl's file (the same durability), rounds interleaved; and the
 *    CPU time of each (this process's for blvl_fetch_url, the child's rusage for curl).
 * Wall-clock medians of N runs (default 9) after one warm-up round, and for 1 the process's CPU
 * time too (the wall time includes waiting for nginx and for a core); ratios of medians. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
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

/* curl -s -f -o OUT URL; wall seconds, *cpu the child's user + system CPU time. */
static double run_curl(const char *url, const char *out, double *cpu) {
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid < 0)
        die("fork", NULL);
    if (pid == 0) {
        execlp("curl", "curl", "-s", "-f", "-o", out, url, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR)
            die("wait4", NULL);
    *cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
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
        url ? blvl_open_url(&lv, url, NULL, &err) : blvl_open_file(&lv, file, NULL, &err);
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

/* Opens the URL with want = {sim, other}; seconds (wall; *cpu the process's CPU time). */
static double open_want2(const char *url, const char *other, blvl_http_stats *stats, double *cpu) {
    const char *want[] = {"sim", other};
    blvl_http_options h = {0};
    h.want = want;
    h.nwant = 2;
    blvl_error err;
    blvl_level *lv;
    double c0 = bench_cpu();
    double t0 = bench_now();
    if (blvl_open_url(&lv, url, &h, &err) != BLVL_OK)
        die("open with want", &err);
    double t = bench_now() - t0;
    *cpu = bench_cpu() - c0;
    blvl_http_get_stats(lv, stats);
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
    /* The first game section of 64 KiB or more past the first request that is not sim's
     * neighbour (a map's geometry, say). */
    char other[BLVL_TAG_MAX + 1] = "";
    uint64_t other_packed = 0;
    for (uint32_t i = 0; i < blvl_count(lv) && !other[0]; i++) {
        const blvl_entry *e = blvl_entry_at(lv, i);
        bool near = e->offset + e->packed_size + 64 >= sim->offset &&
                    e->offset <= sim->offset + sim->packed_size + 64;
        if (e != sim && e->offset >= 4096 && !near && strchr(e->tag, '.') &&
            e->packed_size >= 65536) {
            snprintf(other, sizeof other, "%s", e->tag);
            other_packed = e->packed_size;
        }
    }
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

    /* 1b. open with want = {sim, other} */
    if (other[0]) {
        double tw[MAX_RUNS], cw[MAX_RUNS];
        open_want2(url, other, &stats, &cw[0]); /* warm-up */
        for (int r = 0; r < runs; r++)
            tw[r] = open_want2(url, other, &stats, &cw[r]);
        printf("http open with want sim + %s (%llu + %llu bytes packed): %llu bytes received in "
               "%u requests (%+lld over the first request and the two sections); wall %.3f ms, "
               "cpu %.3f ms\n",
               other, (unsigned long long)sim_packed, (unsigned long long)other_packed,
               (unsigned long long)stats.bytes_received, stats.requests,
               (long long)stats.bytes_received - (long long)(first + sim_packed + other_packed),
               bench_median(tw, (size_t)runs) * 1e3, bench_median(cw, (size_t)runs) * 1e3);
    }

    /* 2. the whole level: blvl fetch vs curl -o */
    char ours[4096], theirs[4096];
    snprintf(ours, sizeof ours, "%s/http-fetch.blvl", dir);
    snprintf(theirs, sizeof theirs, "%s/http-curl.blvl", dir);
    double tf[MAX_RUNS], tc[MAX_RUNS], ts[MAX_RUNS], cf[MAX_RUNS], cc[MAX_RUNS];
    for (int r = -1; r < runs; r++) {
        double c0 = bench_cpu();
        double t0 = bench_now();
        if (blvl_fetch_url(NULL, url, ours, NULL, &err) != BLVL_OK)
            die("fetch", &err);
        double t = bench_now() - t0;
        double fcpu = bench_cpu() - c0, ccpu = 0;
        double c = run_curl(url, theirs, &ccpu);
        /* blvl_fetch_url flushes its file to disk before the rename; curl does not. */
        double s0 = bench_now();
        int fd = open(theirs, O_RDONLY);
        if (fd < 0 || fsync(fd) != 0)
            die("fsync", NULL);
        close(fd);
        if (r >= 0) {
            tf[r] = t;
            tc[r] = c;
            cf[r] = fcpu;
            cc[r] = ccpu;
            ts[r] = c + (bench_now() - s0);
        }
    }
    double mf = bench_median(tf, (size_t)runs), mc = bench_median(tc, (size_t)runs);
    double ms = bench_median(ts, (size_t)runs);
    printf("http whole level (%llu bytes): blvl_fetch_url %.1f ms, curl -o %.1f ms: ratio %.3f "
           "(goal <= 1.1); curl -o then fsync %.1f ms: ratio %.3f\n",
           (unsigned long long)size, mf * 1e3, mc * 1e3, mf / mc, ms * 1e3, mf / ms);
    double mcf = bench_median(cf, (size_t)runs), mcc = bench_median(cc, (size_t)runs);
    printf("  cpu time: blvl_fetch_url %.1f ms (every digest, the copy to the file), curl %.1f ms "
           "(its process, start-up included): ratio %.3f\n",
           mcf * 1e3, mcc * 1e3, mcf / mcc);
    unlink(ours);
    unlink(theirs);
    return 0;
}
