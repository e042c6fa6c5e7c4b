/* What every benchmark needs: clocks, the median of repeated runs, the peak memory. Medians,
 * because the machines are shared and noisy; CPU time beside wall time, because wall time
 * includes waiting for a core. */
#ifndef BLVL_BENCH_UTIL_H
#define BLVL_BENCH_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static inline double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process (every thread). */
static inline double bench_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v in place (which leaves its median where it was). */
static inline double bench_median(double *v, size_t n) {
    qsort(v, n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A uniform double in [0, 1) from an xorshift64* state (never 0): random inputs that repeat
 * from run to run. */
static inline double bench_rnd(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

/* A uniform random direction: a point of the unit ball (by rejection, never near 0) in d,
 * its length returned (d / length is the unit direction). */
static inline double bench_rnd_dir(uint64_t *state, double d[3]) {
    double len;
    do {
        len = 0;
        for (int k = 0; k < 3; k++) {
            d[k] = 2 * bench_rnd(state) - 1;
            len += d[k] * d[k];
        }
    } while (len > 1 || len < 1e-6);
    return sqrt(len);
}

/* Peak resident set of the process, KiB. */
static inline long bench_peak_kib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Page faults taken and kernel CPU time so far: what first touches of memory cost (on a virtual
 * machine a large share of a fresh process's time) shows as their difference across a stage. */
static inline void bench_kernel(long *faults, double *kernel_s) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *faults = ru.ru_minflt + ru.ru_majflt;
    *kernel_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

#ifdef BLVL_TRACE_H /* the trace benchmarks */
/* Where a player could be: the box [mins, maxs] free at p, ground within 512 qu below and a
 * roof (or sky) below height `top` above (a point in the void around a map would measure
 * traces that meet nothing). */
static inline int bench_player_spot(const blvl_trace_world *w, const float p[3],
                                    const float mins[3], const float maxs[3], float top) {
    blvl_trace_result r;
    blvl_trace_box(w, NULL, p, p, mins, maxs, &r);
    if (r.startsolid)
        return 0;
    float down[3] = {p[0], p[1] - 512, p[2]}, up[3] = {p[0], top, p[2]};
    blvl_trace_ray(w, NULL, p, down, &r);
    if (r.fraction >= 1)
        return 0;
    blvl_trace_ray(w, NULL, p, up, &r);
    return r.fraction < 1;
}
#endif

#endif
