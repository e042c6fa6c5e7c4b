/* Swept-box traces per second on baked levels (the real-map half of the trace benchmark): for
 * each level, its sim's world is built, then short player-box traces (64 qu in a random
 * direction, the Quake 3 player box 30 x 56 x 30 qu, Y up) start from random points of the
 * level's bounds that are not inside a solid, have ground within 512 qu below and a roof or sky
 * above. One core. Prints the median over the runs, its ratio to the 1,000,000 traces/s goal,
 * and, as a reference measured in the same run, the same traces by brute force (every collider,
 * each rejected by its bounds first) on a sample.
 *
 *   bench_trace_level LEVEL.blvl... [--traces N (default 1000000)] [--runs R (default 5)] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blvl/blvl.h"
#include "blvl/trace.h"
#include "bench_util.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double rnd(void) {
    return bench_rnd(&rng);
}

static const float box_lo[3] = {-15, -24, -15}, box_hi[3] = {15, 32, 15};

/* Trace starts in empty space and their ends, 64 qu away in a random direction. */
static int make_traces(const blvl_trace_world *w, const float lo[3], const float hi[3], size_t n,
                       float *starts, float *ends) {
    size_t made = 0, tries = 0;
    while (made < n) {
        if (++tries > 200 * n + 100000)
            return -1;
        float p[3];
        for (int k = 0; k < 3; k++)
            p[k] = (float)(lo[k] + (hi[k] - lo[k]) * rnd());
        if (!bench_player_spot(w, p, box_lo, box_hi, hi[1] + 1))
            continue;
        double d[3], len = bench_rnd_dir(&rng, d);
        for (int k = 0; k < 3; k++) {
            starts[3 * made + k] = p[k];
            ends[3 * made + k] = (float)(p[k] + 64 * d[k] / len);
        }
        made++;
    }
    return 0;
}

static int bench_level(const char *path, size_t traces, int runs) {
    blvl_error err;
    blvl_level *lv = NULL;
    blvl_options opt = {0};
    opt.threads = 1;
    if (blvl_open_file(&lv, path, &opt, &err) != BLVL_OK) {
        fprintf(stderr, "bench_trace_level: %s: %s\n", path, err.message);
        return 1;
    }
    blvl_trace_world *w = NULL;
    double t0 = bench_now();
    if (blvl_trace_world_from_level(&w, lv, &(blvl_trace_options){.base = opt}, &err) != BLVL_OK) {
        fprintf(stderr, "bench_trace_level: %s: %s\n", path, err.message);
        blvl_close(lv);
        return 1;
    }
    double build = bench_now() - t0;
    uint32_t nc = blvl_trace_world_collider_count(w);
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < nc; i++) {
        float a[3], b[3];
        if (!blvl_trace_world_bounds(w, i, a, b))
            continue;
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], a[k]);
            hi[k] = fmaxf(hi[k], b[k]);
        }
    }
    float *starts = malloc(traces * 3 * sizeof *starts), *ends = malloc(traces * 3 * sizeof *ends);
    double *secs = malloc((size_t)runs * sizeof *secs);
    if (!starts || !ends || !secs || !(lo[0] <= hi[0]) ||
        make_traces(w, lo, hi, traces, starts, ends)) {
        fprintf(stderr, "bench_trace_level: %s: no room for traces (no colliders, or all solid)\n",
                path);
        free(starts), free(ends), free(secs);
        blvl_trace_world_free(w);
        blvl_close(lv);
        return 1;
    }
    size_t hits = 0;
    for (int r = 0; r < runs; r++) {
        hits = 0;
        double s = bench_now();
        for (size_t i = 0; i < traces; i++) {
            blvl_trace_result res;
            blvl_trace_box(w, NULL, starts + 3 * i, ends + 3 * i, box_lo, box_hi, &res);
            hits += res.fraction < 1;
        }
        secs[r] = bench_now() - s;
    }
    qsort(secs, (size_t)runs, sizeof *secs, bench_cmp_double);
    double med = secs[runs / 2], rate = (double)traces / med;
    /* The reference: the same traces by brute force, on a sample (it is slow on big maps). */
    size_t sample = traces < 20000 ? traces : 20000;
    double s = bench_now();
    for (size_t i = 0; i < sample; i++) {
        blvl_trace_result res;
        blvl_trace_box_brute(w, NULL, starts + 3 * i, ends + 3 * i, box_lo, box_hi, &res);
    }
    double brute_rate = (double)sample / (bench_now() - s);
    const char *base = strrchr(path, '/');
    printf("%-24s colliders %7u  world build %.3f s  traces/s %10.0f (median of %d, %zu each, "
           "%.0f%% hit)  goal 1M/s: %.2fx  brute force %9.0f/s: hierarchy %.1fx\n",
           base ? base + 1 : path, nc, build, rate, runs, traces, 100.0 * (double)hits / traces,
           rate / 1e6, brute_rate, rate / brute_rate);
    free(starts), free(ends), free(secs);
    blvl_trace_world_free(w);
    blvl_close(lv);
    return 0;
}

int main(int argc, char **argv) {
    size_t traces = 1000000;
    int runs = 5, rc = 0, levels = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--traces") && i + 1 < argc)
            traces = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
    }
    if (!traces || runs < 1) {
        fprintf(stderr, "usage: bench_trace_level LEVEL.blvl... [--traces N] [--runs R]\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--traces") || !strcmp(argv[i], "--runs")) {
            i++;
            continue;
        }
        levels++;
        rc |= bench_level(argv[i], traces, runs);
    }
    if (!levels) {
        fprintf(stderr, "usage: bench_trace_level LEVEL.blvl... [--traces N] [--runs R]\n");
        return 2;
    }
    return rc;
}
