/* Writer benchmarks (docs/BENCHMARKS.md), run by scripts/bench.sh.
 *
 *   bench_writer [--level BIG] [--dir DIR] [--runs N] [--random-mib N] [--threads N]
 *                [--skip-memory] [--skip-speed]
 *
 * 1. Peak memory of the streaming writer: one child process per case packs one section into
 *    a file in DIR, its bytes generated 1 MiB at a time (the bench never holds the section);
 *    the parent reads the child's peak RSS (wait4 ru_maxrss). Cases: 16 MiB of compressible
 *    bytes, 1 GiB of mostly incompressible bytes with every 16th chunk compressible (so level
 *    19 runs on every worker, as in the small case, and the run stays short), and a baseline
 *    child that only generates the bytes. The writer's own count of its buffers and of the
 *    zstd encoders (ZSTD_sizeof_CCtx) is printed beside ZSTD_estimateCCtxSize(19).
 * 2. Incompressible speed: N MiB of random bytes through the writer to a discarding sink,
 *    with today's codec rule (a level-1 test first) and with level 19 on every chunk (a
 *    bench-only switch), interleaved; medians and their ratio.
 * 3. The bench level's size: every section of BIG re-packed both ways (sizes only).
 * Compressible bytes: a random 4 KiB block repeated with one byte in 512 changed: level 19
 * finds long matches, so it runs at a few MB/s and its encoder is fully sized. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* ZSTD_estimateCCtxSize_usingCParams: the encoder size zstd itself predicts. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "blvl/blvl.h"
#include "container/writer_internal.h"
#include "bench_util.h"

#define MIB (1ull << 20)

static void die(const char *what, const blvl_error *e) {
    fprintf(stderr, "bench_writer: %s: %s\n", what, e ? e->message : strerror(errno));
    exit(2);
}

/* ---- data, 1 MiB at a time ---------------------------------------------------------------- */

typedef struct gen {
    uint64_t s;
    uint8_t block[4096];
} gen;

static uint64_t next(gen *g) {
    g->s ^= g->s << 13;
    g->s ^= g->s >> 7;
    g->s ^= g->s << 17;
    return g->s;
}

static void gen_init(gen *g, uint64_t seed) {
    g->s = seed | 1;
    for (size_t i = 0; i < sizeof g->block; i += 8) {
        uint64_t r = next(g);
        memcpy(g->block + i, &r, 8);
    }
}

static void fill_random(gen *g, uint8_t *p, size_t n) {
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t r = next(g);
        memcpy(p + i, &r, 8);
    }
}

static void fill_compressible(gen *g, uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i += sizeof g->block)
        memcpy(p + i, g->block, n - i < sizeof g->block ? n - i : sizeof g->block);
    for (size_t i = 0; i < n; i += 512)
        p[i] = (uint8_t)next(g);
}

/* Piece `i` (1 MiB) of a section: every chunk (4 pieces) compressible when every_n is 1,
 * else chunks k with k % every_n == 0 compressible and the rest random. */
static void fill_piece(gen *g, uint8_t *p, uint64_t i, unsigned every_n) {
    if ((i / 4) % every_n == 0)
        fill_compressible(g, p, MIB);
    else
        fill_random(g, p, MIB);
}

/* ---- 1. peak memory ---------------------------------------------------------------------- */

typedef struct mem_result {
    long maxrss_kib;
    uint64_t footprint, codec;
    double seconds;
} mem_result;

static mem_result child_pack(const char *path, uint64_t mib, unsigned every_n, unsigned threads,
                             int only_generate) {
    int fds[2];
    if (pipe(fds) != 0)
        die("pipe", NULL);
    pid_t pid = fork();
    if (pid < 0)
        die("fork", NULL);
    if (pid == 0) {
        close(fds[0]);
        mem_result r = {0, 0, 0, 0};
        uint8_t *buf = malloc(MIB);
        gen g;
        gen_init(&g, 7);
        double t0 = bench_now();
        blvl_writer *w = NULL;
        blvl_error e;
        blvl_options o = {0};
        o.threads = threads;
        if (!only_generate && (blvl_writer_open_file(&w, path, 1, &o, &e) != BLVL_OK ||
                               blvl_writer_begin(w, "bench.data", 0, 0, &e) != BLVL_OK))
            die("open", &e);
        for (uint64_t i = 0; i < mib; i++) {
            fill_piece(&g, buf, i, every_n);
            if (w && blvl_writer_append(w, buf, MIB, &e) != BLVL_OK)
                die("append", &e);
        }
        if (w) {
            if (blvl_writer_end(w, &e) != BLVL_OK)
                die("end", &e);
            size_t codec = 0;
            r.footprint = blvl__container_writer_footprint(w, &codec);
            r.codec = codec;
            if (blvl_writer_commit(w, &e) != BLVL_OK)
                die("commit", &e);
        }
        r.seconds = bench_now() - t0;
        if (write(fds[1], &r, sizeof r) != (ssize_t)sizeof r)
            _exit(3);
        _exit(0);
    }
    close(fds[1]);
    mem_result r;
    memset(&r, 0, sizeof r);
    if (read(fds[0], &r, sizeof r) != (ssize_t)sizeof r)
        fprintf(stderr, "bench_writer: the child died\n");
    close(fds[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
        die("child", NULL);
    r.maxrss_kib = ru.ru_maxrss;
    unlink(path);
    return r;
}

static void bench_memory(const char *dir, unsigned threads) {
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_writer.blvl", dir);
    printf("== peak memory of the streaming writer (%u threads, one child per case) ==\n", threads);
    mem_result base = child_pack(path, 16, 1, threads, 1);
    mem_result small = child_pack(path, 16, 1, threads, 0);
    mem_result big = child_pack(path, 1024, 16, threads, 0);
    printf("baseline (generate only)   peak RSS %7.1f MiB\n", base.maxrss_kib / 1024.0);
    printf("16 MiB, compressible       peak RSS %7.1f MiB  (%.1f s)  writer holds %.1f MiB, "
           "encoders %.1f MiB\n",
           small.maxrss_kib / 1024.0, small.seconds, small.footprint / (double)MIB,
           small.codec / (double)MIB);
    printf("1 GiB, 1 chunk in 16 compr. peak RSS %7.1f MiB  (%.1f s)  writer holds %.1f MiB, "
           "encoders %.1f MiB\n",
           big.maxrss_kib / 1024.0, big.seconds, big.footprint / (double)MIB,
           big.codec / (double)MIB);
    double diff = (big.maxrss_kib - small.maxrss_kib) / 1024.0;
    printf("1 GiB - 16 MiB: %+.1f MiB (target: at most +16 MiB) %s\n", diff,
           diff <= 16 ? "ok" : "MISSED");
    size_t est19 = ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(19, 4 * MIB, 0));
    size_t est1 = ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(1, 4 * MIB, 0));
    printf("zstd's estimate for a 4 MiB chunk: level 19 %.1f MiB, level 1 %.1f MiB per worker; "
           "the encoders' share (ZSTD_sizeof_CCtx + level-1 scratch) of the 16 MiB case's peak: "
           "%.0f%%\n\n",
           est19 / (double)MIB, est1 / (double)MIB,
           100.0 * (double)small.codec / ((double)small.maxrss_kib * 1024.0));
}

/* ---- 2. and 3. through a discarding sink ------------------------------------------------- */

static int sink_count(void *user, uint64_t off, const void *data, size_t len) {
    (void)data;
    uint64_t *end = user;
    if (off + len > *end)
        *end = off + len;
    return 0;
}

static blvl_writer *open_sink(uint64_t *end, unsigned threads, uint32_t n, int legacy) {
    static blvl_sink sink;
    sink.write = sink_count;
    sink.user = end;
    *end = 0;
    blvl_options o = {0};
    o.threads = threads;
    blvl_writer *w;
    blvl_error e;
    if (blvl_writer_open_sink(&w, &sink, n, &o, &e) != BLVL_OK)
        die("open", &e);
    if (legacy)
        blvl__container_writer_legacy_codec(w);
    return w;
}

static double pack_random(uint64_t mib, unsigned threads, int legacy) {
    uint8_t *buf = malloc(MIB);
    gen g;
    gen_init(&g, 11);
    uint64_t end;
    double t0 = bench_now();
    blvl_writer *w = open_sink(&end, threads, 1, legacy);
    blvl_error e;
    if (blvl_writer_begin(w, "bench.random", 0, 0, &e) != BLVL_OK)
        die("begin", &e);
    for (uint64_t i = 0; i < mib; i++) {
        fill_random(&g, buf, MIB);
        if (blvl_writer_append(w, buf, MIB, &e) != BLVL_OK)
            die("append", &e);
    }
    if (blvl_writer_end(w, &e) != BLVL_OK || blvl_writer_commit(w, &e) != BLVL_OK)
        die("commit", &e);
    free(buf);
    return bench_now() - t0;
}

static void bench_speed(uint64_t mib, unsigned threads, int runs) {
    printf("== incompressible input: %llu MiB of random bytes, %u threads, %d runs ==\n",
           (unsigned long long)mib, threads, runs);
    double *t_new = calloc((size_t)runs, sizeof *t_new),
           *t_old = calloc((size_t)runs, sizeof *t_old);
    for (int r = 0; r < runs; r++) {
        t_new[r] = pack_random(mib, threads, 0);
        t_old[r] = pack_random(mib, threads, 1);
        fprintf(stderr, "  run %d: level-1 test %.3f s, level 19 always %.3f s\n", r + 1, t_new[r],
                t_old[r]);
    }
    double n = bench_median(t_new, (size_t)runs), o = bench_median(t_old, (size_t)runs);
    printf("level-1 test first (now)    %8.3f s  %8.1f MB/s\n", n, mib * MIB / n / 1e6);
    printf("level 19 on every chunk     %8.3f s  %8.1f MB/s\n", o, mib * MIB / o / 1e6);
    printf("speed-up %.1fx (target: at least 10x) %s\n\n", o / n, o / n >= 10 ? "ok" : "MISSED");
    free(t_new);
    free(t_old);
}

static uint64_t repack(blvl_level *lv, unsigned threads, int legacy, double *secs) {
    uint64_t end;
    uint32_t n = blvl_count(lv);
    double t0 = bench_now();
    blvl_writer *w = open_sink(&end, threads, n, legacy);
    blvl_error e;
    for (uint32_t i = 0; i < n; i++) {
        const blvl_entry *en = blvl_entry_at(lv, i);
        blvl_bytes s;
        if (blvl_read(lv, en->tag, &s, &e) != BLVL_OK)
            die(en->tag, &e);
        if (blvl_writer_add(w, en->tag, en->version, en->flags, s.data, s.size, &e) != BLVL_OK)
            die(en->tag, &e);
        blvl_bytes_free(&s);
    }
    if (blvl_writer_commit(w, &e) != BLVL_OK)
        die("commit", &e);
    *secs = bench_now() - t0;
    return end;
}

static void bench_level(const char *path, unsigned threads) {
    blvl_level *lv;
    blvl_error e;
    if (blvl_open_file(&lv, path, NULL, &e) != BLVL_OK)
        die(path, &e);
    double t_new, t_old;
    uint64_t s_new = repack(lv, threads, 0, &t_new);
    uint64_t s_old = repack(lv, threads, 1, &t_old);
    blvl_close(lv);
    double change = 100.0 * ((double)s_new - (double)s_old) / (double)s_old;
    printf("== the bench level (%s), re-packed ==\n", path);
    printf("level 19 on every chunk  %llu bytes  (%.1f s)\n", (unsigned long long)s_old, t_old);
    printf("level-1 test first       %llu bytes  (%.1f s)\n", (unsigned long long)s_new, t_new);
    printf("size change %+.4f%% (target: under 0.5%%) %s\n\n", change,
           change < 0.5 && change > -0.5 ? "ok" : "MISSED");
}

int main(int argc, char **argv) {
    const char *level = NULL, *dir = ".";
    int runs = 3, skip_memory = 0, skip_speed = 0;
    uint64_t random_mib = 64;
    unsigned threads = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--level") && i + 1 < argc)
            level = argv[++i];
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--random-mib") && i + 1 < argc)
            random_mib = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--skip-memory"))
            skip_memory = 1;
        else if (!strcmp(argv[i], "--skip-speed"))
            skip_speed = 1;
        else {
            fprintf(stderr, "usage: bench_writer [--level BIG] [--dir DIR] [--runs N] "
                            "[--random-mib N] [--threads N] [--skip-memory] [--skip-speed]\n");
            return 2;
        }
    }
    if (runs < 1)
        runs = 1;
    double load[3] = {0};
    if (getloadavg(load, 3) == 3)
        printf("load average %.2f %.2f %.2f; zstd %s\n\n", load[0], load[1], load[2],
               ZSTD_versionString());
    if (!skip_memory)
        bench_memory(dir, threads);
    if (!skip_speed)
        bench_speed(random_mib, threads, runs);
    if (level)
        bench_level(level, threads);
    return 0;
}
