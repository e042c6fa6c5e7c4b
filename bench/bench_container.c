/* Container benchmarks (docs/BENCHMARKS.md), run by scripts/bench.sh on the level it builds.
 *
 *   bench_container BIG SIM_LEVEL CHUNKS [--runs N] [--iters N] [--blvl BIN]
 *
 * 1. Verify: libblvl's blvl_open_file + blvl_verify (every digest checked, every chunk
 *    inflated) with 1 and 2 threads, against the reference measured in the same round:
 *    `b3sum` over the whole file plus `zstd -d -T0` over CHUNKS (the level's zstd chunks as
 *    concatenated frames, exactly what verify inflates). Optionally `blvl verify` too.
 *    Rounds interleave the contenders so drift on a noisy machine hits all of them alike;
 *    the first round warms the page cache and is discarded. Reported: medians, the ratio of
 *    medians and the median of per-round ratios.
 * 2. Open + read `sim`: in-process, many iterations, BIG (sim among ~100 MiB) against
 *    SIM_LEVEL (meta and the same sim only), page cache warm, then with both files evicted
 *    (posix_fadvise DONTNEED) before every iteration. Reported: medians and their ratio.
 * Times are wall clock (CLOCK_MONOTONIC). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blvl/blvl.h"
#include "bench_util.h"

/* Run a command with stdout to /dev/null (stdin from `in` when given); seconds, or exit. */
static double run_cmd(char *const argv[], const char *in) {
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, 1) < 0)
            _exit(126);
        if (in) {
            int fd = open(in, O_RDONLY);
            if (fd < 0 || dup2(fd, 0) < 0)
                _exit(126);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            perror("waitpid");
            exit(2);
        }
    double t = bench_now() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_container: %s failed (status %d)\n", argv[0], status);
        exit(2);
    }
    return t;
}

static void die(const char *what, const char *path, const blvl_error *err) {
    fprintf(stderr, "bench_container: %s %s: %s\n", what, path, err->message);
    exit(2);
}

static double lib_verify(const char *path, unsigned threads) {
    blvl_options opt = {0};
    opt.threads = threads;
    blvl_error err;
    blvl_level *lv = NULL;
    double t0 = bench_now();
    if (blvl_open_file(&lv, path, &opt, &err) != BLVL_OK)
        die("open", path, &err);
    if (blvl_verify(lv, &err) != BLVL_OK)
        die("verify", path, &err);
    blvl_close(lv);
    return bench_now() - t0;
}

/* How a timed read opens the level: the library's own mmap, a pread source, or a mapping of
 * ours advised MADV_RANDOM with MADV_WILLNEED over just the section (the fix this bench
 * suggests for cold reads: no read-around of the whole readahead window on every fault). */
enum open_kind { OPEN_FILE, OPEN_PREAD, OPEN_ADVISED };

static int pread_cb(void *user, uint64_t off, void *buf, size_t len) {
    int fd = *(int *)user;
    while (len) {
        ssize_t n = pread(fd, buf, len, (off_t)off);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            return -1;
        }
        buf = (char *)buf + n;
        len -= (size_t)n;
        off += (uint64_t)n;
    }
    return 0;
}

/* Open, read `sim`, touch its bytes, close. */
static double lib_read_sim(const char *path, enum open_kind kind, uint64_t *sum) {
    blvl_error err;
    blvl_level *lv = NULL;
    blvl_bytes sec = {0};
    int fd = -1;
    void *map = NULL;
    size_t map_size = 0;
    double t0 = bench_now();
    if (kind == OPEN_FILE) {
        if (blvl_open_file(&lv, path, NULL, &err) != BLVL_OK)
            die("open", path, &err);
    } else {
        struct stat sb;
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &sb) != 0) {
            perror(path);
            exit(2);
        }
        if (kind == OPEN_PREAD) {
            blvl_source src = {.read = pread_cb, .size = (uint64_t)sb.st_size, .user = &fd};
            if (blvl_open_source(&lv, &src, NULL, &err) != BLVL_OK)
                die("open", path, &err);
        } else {
            map_size = (size_t)sb.st_size;
            map = mmap(NULL, map_size, PROT_READ, MAP_SHARED, fd, 0);
            if (map == MAP_FAILED) {
                perror("mmap");
                exit(2);
            }
            (void)madvise(map, map_size, MADV_RANDOM);
            if (blvl_open_memory(&lv, map, map_size, NULL, &err) != BLVL_OK)
                die("open", path, &err);
            const blvl_entry *e = blvl_find(lv, "sim");
            if (e) {
                uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
                uintptr_t a = ((uintptr_t)map + e->offset) & ~(page - 1);
                (void)madvise((void *)a, (uintptr_t)map + e->offset + e->packed_size - a,
                              MADV_WILLNEED);
            }
        }
    }
    if (blvl_read(lv, "sim", &sec, &err) != BLVL_OK)
        die("read sim of", path, &err);
    for (size_t i = 0; i < sec.size; i += 4096)
        *sum += sec.data[i];
    blvl_bytes_free(&sec);
    blvl_close(lv);
    if (map)
        munmap(map, map_size);
    if (fd >= 0)
        close(fd);
    return bench_now() - t0;
}

static void evict(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    (void)fdatasync(fd);
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
}

static double *vec(size_t n) {
    double *v = calloc(n ? n : 1, sizeof *v);
    if (!v) {
        perror("calloc");
        exit(2);
    }
    return v;
}

static void usage(void) {
    fprintf(stderr,
            "usage: bench_container BIG SIM_LEVEL CHUNKS [--runs N] [--iters N] [--blvl BIN]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *pos[3] = {0};
    int npos = 0, runs = 7, iters = 200;
    const char *blvl_bin = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--blvl") && i + 1 < argc)
            blvl_bin = argv[++i];
        else if (argv[i][0] == '-' || npos == 3)
            usage();
        else
            pos[npos++] = argv[i];
    }
    if (npos != 3 || runs < 1 || iters < 1)
        usage();
    const char *big = pos[0], *small = pos[1], *chunks = pos[2];

    blvl_error err;
    blvl_level *lv = NULL;
    if (blvl_open_file(&lv, big, NULL, &err) != BLVL_OK)
        die("open", big, &err);
    blvl_info info;
    blvl_get_info(lv, &info);
    uint64_t raw = 0;
    for (uint32_t i = 0; i < blvl_count(lv); i++)
        raw += blvl_entry_at(lv, i)->raw_size;
    const blvl_entry *sim = blvl_find(lv, "sim");
    if (!sim) {
        fprintf(stderr, "bench_container: %s has no sim\n", big);
        return 2;
    }
    printf("level %s: %u sections, %.1f MiB raw, %.1f MiB file; sim %.2f MiB raw, %.2f MiB "
           "packed; %ld CPUs online\n",
           big, blvl_count(lv), raw / 1048576.0, info.file_size / 1048576.0,
           sim->raw_size / 1048576.0, sim->packed_size / 1048576.0, sysconf(_SC_NPROCESSORS_ONLN));
    blvl_close(lv);
    double load[3] = {0};
    if (getloadavg(load, 3) == 3)
        printf("load average %.2f %.2f %.2f (other work on these CPUs skews the thread "
               "scaling)\n",
               load[0], load[1], load[2]);

    /* ---- 1. verify against b3sum + zstd -d -T0 ---- */
    char *b3_argv[] = {"b3sum", "--length", "16", "--no-names", (char *)big, NULL};
    char *zstd_argv[] = {"zstd", "-d", "-T0", "-q", "-c", NULL};
    /* The program runs the level rules too (FlatBuffers verifier over meta and sim). */
    char *cli1_argv[] = {(char *)blvl_bin, "verify", "--threads", "1", (char *)big, NULL};
    char *cli2_argv[] = {(char *)blvl_bin, "verify", "--threads", "2", (char *)big, NULL};
    double *b3 = vec(runs), *zd = vec(runs), *ref = vec(runs), *v1 = vec(runs), *v2 = vec(runs),
           *c1 = vec(runs), *c2 = vec(runs), *r1 = vec(runs), *r2 = vec(runs), *rc1 = vec(runs),
           *rc2 = vec(runs);
    for (int r = -1; r < runs; r++) {
        double tb = run_cmd(b3_argv, NULL);
        double tz = run_cmd(zstd_argv, chunks);
        double t1 = lib_verify(big, 1);
        double t2 = lib_verify(big, 2);
        double tc1 = blvl_bin ? run_cmd(cli1_argv, NULL) : 0;
        double tc2 = blvl_bin ? run_cmd(cli2_argv, NULL) : 0;
        if (r < 0)
            continue; /* warm-up round */
        b3[r] = tb;
        zd[r] = tz;
        ref[r] = tb + tz;
        v1[r] = t1;
        v2[r] = t2;
        c1[r] = tc1;
        c2[r] = tc2;
        r1[r] = t1 / ref[r];
        r2[r] = t2 / ref[r];
        rc1[r] = tc1 / ref[r];
        rc2[r] = tc2 / ref[r];
    }
    printf("\nverify, %d rounds (median seconds)\n", runs);
    printf("  b3sum (file)                    %8.4f\n", bench_median(b3, runs));
    printf("  zstd -d -T0 (chunks)            %8.4f\n", bench_median(zd, runs));
    printf("  reference = b3sum + zstd        %8.4f\n", bench_median(ref, runs));
    printf("  blvl_verify, 1 thread           %8.4f   ratio %.3f (median of rounds %.3f)\n",
           bench_median(v1, runs), bench_median(v1, runs) / bench_median(ref, runs),
           bench_median(r1, runs));
    printf("  blvl_verify, 2 threads          %8.4f   ratio %.3f (median of rounds %.3f)\n",
           bench_median(v2, runs), bench_median(v2, runs) / bench_median(ref, runs),
           bench_median(r2, runs));
    if (blvl_bin) {
        printf("  blvl verify --threads 1         %8.4f   ratio %.3f (median of rounds %.3f)\n",
               bench_median(c1, runs), bench_median(c1, runs) / bench_median(ref, runs),
               bench_median(rc1, runs));
        printf("  blvl verify --threads 2         %8.4f   ratio %.3f (median of rounds %.3f)\n",
               bench_median(c2, runs), bench_median(c2, runs) / bench_median(ref, runs),
               bench_median(rc2, runs));
    }
    printf("  speed-up from the second thread %8.2fx\n",
           bench_median(v1, runs) / bench_median(v2, runs));
    printf("  target: 2-thread verify <= 1.2 x reference: %s\n",
           bench_median(r2, runs) <= 1.2 ? "met" : "MISSED");

    /* ---- 2. open + read sim: big level against a level of only that sim ---- */
    uint64_t sum = 0;
    double *tb = vec(iters), *ts = vec(iters), *rr = vec(iters);
    for (int i = -3; i < iters; i++) {
        double a = lib_read_sim(big, OPEN_FILE, &sum);
        double b = lib_read_sim(small, OPEN_FILE, &sum);
        if (i < 0)
            continue;
        tb[i] = a;
        ts[i] = b;
        rr[i] = a / b;
    }
    double warm = bench_median(tb, iters) / bench_median(ts, iters);
    printf("\nopen + read sim, page cache warm, %d iterations (median milliseconds)\n", iters);
    printf("  in the big level                %8.3f\n", bench_median(tb, iters) * 1e3);
    printf("  in a level of only that sim     %8.3f\n", bench_median(ts, iters) * 1e3);
    printf("  ratio %.3f (median of pairs %.3f); target <= 1.5: %s\n", warm,
           bench_median(rr, iters), warm <= 1.5 ? "met" : "MISSED");
    /* Cold: both files evicted from the page cache before every read. */
    static const char *const kind_name[] = {"blvl_open_file (library mmap)",
                                            "blvl_open_source (pread)",
                                            "own mmap, MADV_RANDOM + WILLNEED on sim"};
    int cold = iters < 30 ? iters : 30;
    printf("\nopen + read sim, files evicted (posix_fadvise) before each, %d iterations "
           "(median ms: big, sim-only, ratio)\n",
           cold);
    for (int k = OPEN_FILE; k <= OPEN_ADVISED; k++) {
        for (int i = 0; i < cold; i++) {
            evict(big);
            tb[i] = lib_read_sim(big, (enum open_kind)k, &sum);
            evict(small);
            ts[i] = lib_read_sim(small, (enum open_kind)k, &sum);
            rr[i] = tb[i] / ts[i];
        }
        printf("  %-40s %8.3f %8.3f   %.3f (median of pairs %.3f)\n", kind_name[k],
               bench_median(tb, cold) * 1e3, bench_median(ts, cold) * 1e3,
               bench_median(tb, cold) / bench_median(ts, cold), bench_median(rr, cold));
    }
    printf("(checksum %llu)\n", (unsigned long long)sum);
    free(b3), free(zd), free(ref), free(v1), free(v2), free(c1), free(c2), free(r1), free(r2);
    free(rc1), free(rc2);
    free(tb), free(ts), free(rr);
    return 0;
}
