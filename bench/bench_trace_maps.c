/* blvl-trace on real maps: for each baked level, the world build time, player-box traces and
 * rays per second (short: 16-512 qu, long: 512-4096 qu, random directions from starts in empty
 * space where a player could be), the hierarchy's work per trace (blvl_trace_box_stats), the
 * build's growth with the collider count (the map's colliders replicated 4 and 16 times side by
 * side), and two threads tracing one world against one (by wall time, phases interleaved).
 * Everything else is CPU time (the machine is shared), the median of the runs; ratios are against
 * the baseline figures below, measured on the same machine with the code before this benchmark's
 * work (docs/BENCHMARKS.md).
 *
 *   bench_trace_maps LEVEL.blvl... [--traces N (default 100000)] [--runs R (default 5)]
 *                    [--walk N (default 1000000)] [--pairs N (default 9)] [--no-baseline]
 *                    [--build-only (the 1x world build alone)]
 *                    [--threads-only (the world build and the two-thread phases alone)]
 *                    [--load-only (the world from the level against world_new, paired)]
 *
 * scripts/bench.sh bakes the five OpenArena maps into the build folder once and runs this. */
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "blvl/trace.h"
#include "bench_util.h"
#include "trace/trace_internal.h"

/* The Quake 3 player box in blvl axes (Quake -15 -15 -24 .. 15 15 32, z up -> y up). */
static const float box_lo[3] = {-15, -24, -15}, box_hi[3] = {15, 32, 15};

enum { SET_BOX_SHORT, SET_BOX_LONG, SET_RAY_SHORT, SET_RAY_LONG, SET_COUNT };
static const char *const set_name[SET_COUNT] = {"box short", "box long", "ray short", "ray long"};

/* Baseline: the figures of the code before this work (commit d935fa7's trace, with only the
 * counters of blvl_trace_box_stats added): world build ms, then traces/s of each set, this
 * program's defaults, same machine, a loaded one (docs/BENCHMARKS.md). */
typedef struct baseline {
    const char *map;
    double build_ms;
    double rate[SET_COUNT];
} baseline;
static const baseline baselines[] = {
    {"oa_ctf2", 5.68, {1682218, 1102325, 1875354, 1313282}},
    {"oa_dm1", 0.15, {935834, 882852, 952420, 811407}},
    {"oa_rpg3dm2", 2.31, {654560, 532682, 841971, 624744}},
    {"ctf_inyard", 8.55, {626183, 514390, 694167, 519675}},
    {"islandctf", 8.21, {691776, 476357, 958097, 511709}},
};

static uint64_t rng;
static double rnd(void) {
    return bench_rnd(&rng);
}

/* e: s moved lmin..lmax units in a random direction. */
static void rnd_end(const float s[3], double lmin, double lmax, float e[3]) {
    double d[3], len = bench_rnd_dir(&rng, d);
    double want = lmin + (lmax - lmin) * rnd();
    for (int k = 0; k < 3; k++)
        e[k] = (float)(s[k] + want * d[k] / len);
}

static double thread_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the colliders of a sim, as descriptions (what blvl_trace_world_from_level builds) ---- */

typedef struct descs {
    blvl_trace_collider_desc *d;
    uint32_t n;
    blvl_Plane *planes;
    blvl_Vec3 *verts;
} descs;

static void descs_free(descs *x) {
    free(x->d), free(x->planes), free(x->verts);
    memset(x, 0, sizeof *x);
}

/* The map's descriptions (the library's reading of its sim) `copies` times, copy j moved by
 * offs[j]; the copies share the face lists, which do not move. */
static int descs_copies(const blvl_trace_collider_desc *base, uint32_t n, uint32_t copies,
                        const float (*offs)[3], descs *x) {
    size_t np = 0, nv = 0;
    for (uint32_t i = 0; i < n; i++)
        np += base[i].plane_count, nv += base[i].vertex_count;
    memset(x, 0, sizeof *x);
    x->n = n * copies;
    x->d = calloc(x->n ? x->n : 1, sizeof *x->d);
    x->planes = calloc(np * copies + 1, sizeof *x->planes);
    x->verts = calloc(nv * copies + 1, sizeof *x->verts);
    if (!x->d || !x->planes || !x->verts)
        return -1;
    blvl_Plane *pl = x->planes;
    blvl_Vec3 *vv = x->verts;
    for (uint32_t j = 0; j < copies; j++) {
        const float *o = offs[j];
        for (uint32_t i = 0; i < n; i++) {
            blvl_trace_collider_desc *d = &x->d[j * n + i];
            *d = base[i];
            d->lo = (blvl_Vec3){d->lo.x + o[0], d->lo.y + o[1], d->lo.z + o[2]};
            d->hi = (blvl_Vec3){d->hi.x + o[0], d->hi.y + o[1], d->hi.z + o[2]};
            for (uint32_t m = 0; m < d->plane_count; m++) {
                blvl_Plane q = base[i].planes[m];
                float dd = q.normal.x * o[0] + q.normal.y * o[1] + q.normal.z * o[2];
                pl[m] = (blvl_Plane){q.normal, j ? q.dist + dd : q.dist};
            }
            d->planes = pl;
            pl += d->plane_count;
            for (uint32_t m = 0; m < d->vertex_count; m++) {
                blvl_Vec3 q = base[i].vertices[m];
                vv[m] = (blvl_Vec3){q.x + o[0], q.y + o[1], q.z + o[2]};
            }
            d->vertices = vv;
            vv += d->vertex_count;
        }
    }
    return 0;
}

/* Median CPU time (ms) of `runs` world builds from the descriptions. */
static double build_ms(const descs *x, int runs, blvl_trace_world **keep) {
    double *t = calloc((size_t)runs, sizeof *t), med;
    for (int r = 0; r < runs; r++) {
        blvl_trace_world *w = NULL;
        blvl_error err;
        double s = bench_cpu();
        if (blvl_trace_world_new(&w, x->d, x->n, NULL, &err) != BLVL_OK) {
            fprintf(stderr, "bench_trace_maps: %s\n", err.message);
            exit(1);
        }
        t[r] = (bench_cpu() - s) * 1e3;
        if (keep && r == runs - 1)
            *keep = w;
        else
            blvl_trace_world_free(w);
    }
    med = bench_median(t, (size_t)runs);
    free(t);
    return med;
}

/* ---- traces ------------------------------------------------------------------------------ */

typedef struct trace_set {
    float *s, *e; /* 3 per trace */
    size_t n;
    int box;
} trace_set;

/* Starts where a player could be (bench_player_spot). */
static int make_starts(const blvl_trace_world *w, const float lo[3], const float hi[3], size_t n,
                       float *out) {
    size_t made = 0, tries = 0;
    while (made < n) {
        if (++tries > 1000 * n + 100000)
            return -1;
        float p[3];
        for (int k = 0; k < 3; k++)
            p[k] = (float)(lo[k] + (hi[k] - lo[k]) * rnd());
        if (!bench_player_spot(w, p, box_lo, box_hi, hi[1] + 1))
            continue;
        memcpy(out + 3 * made++, p, sizeof p);
    }
    return 0;
}

static void make_ends(trace_set *ts, const float *starts, double lmin, double lmax) {
    memcpy(ts->s, starts, ts->n * 3 * sizeof *ts->s);
    for (size_t i = 0; i < ts->n; i++)
        rnd_end(starts + 3 * i, lmin, lmax, ts->e + 3 * i);
}

static size_t run_set(const blvl_trace_world *w, const trace_set *ts, size_t from, size_t to) {
    size_t hits = 0;
    for (size_t i = from; i < to; i++) {
        blvl_trace_result r;
        if (ts->box)
            blvl_trace_box(w, NULL, ts->s + 3 * i, ts->e + 3 * i, box_lo, box_hi, &r);
        else
            blvl_trace_ray(w, NULL, ts->s + 3 * i, ts->e + 3 * i, &r);
        hits += r.fraction < 1;
    }
    return hits;
}

/* Median traces/s (CPU time) over the runs. */
static double rate_of(const blvl_trace_world *w, const trace_set *ts, int runs, size_t *hits) {
    double *t = calloc((size_t)runs, sizeof *t), med;
    for (int r = 0; r < runs; r++) {
        double s = thread_cpu();
        *hits = run_set(w, ts, 0, ts->n);
        t[r] = thread_cpu() - s;
    }
    med = bench_median(t, (size_t)runs);
    free(t);
    return (double)ts->n / med;
}

/* One tracing thread's job and its times; each on its own cache line, so the threads' writes
 * of their results never share one. */
typedef struct worker {
    _Alignas(64) const blvl_trace_world *w;
    const trace_set *ts;
    double cpu, wall;
} worker;

static void *worker_main(void *p) {
    worker *k = p;
    double s = thread_cpu(), s2 = bench_now();
    run_set(k->w, k->ts, 0, k->ts->n);
    k->cpu = thread_cpu() - s;
    k->wall = bench_now() - s2;
    return NULL;
}

/* n workers in their own threads at once; the wall time until the last is done. */
static double run_threads(worker *k, int n) {
    pthread_t th[2];
    double s = bench_now();
    for (int i = 0; i < n; i++)
        if (pthread_create(&th[i], NULL, worker_main, &k[i]) != 0) {
            fprintf(stderr, "bench_trace_maps: cannot start threads\n");
            exit(1);
        }
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    return bench_now() - s;
}

/* Two threads each tracing the whole set on one world, against one thread doing it alone, by
 * wall time: `pairs` one-thread and two-thread phases interleaved (so a change in the machine's
 * load falls on both), the median of the pairs' ratios. Printed with the load average and how
 * much of the two cores the two threads got (their CPU time over twice the wall time: near 1
 * when the second core was free), and the median over the pairs that got at least 95 % of both
 * cores, the figure for a machine with a free core; by each thread's CPU time too (what the
 * code costs: a slowdown from shared lines or locks shows there, a busy machine does not). */
static void threads_ratio(const blvl_trace_world *w, const trace_set *ts, int pairs) {
    double *rw = calloc((size_t)pairs, sizeof *rw), *rc = calloc((size_t)pairs, sizeof *rc);
    double *share = calloc((size_t)pairs, sizeof *share),
           *rfree = calloc((size_t)pairs, sizeof *rw);
    double load0[3] = {0, 0, 0}, load1[3] = {0, 0, 0};
    int nfree = 0;
    getloadavg(load0, 3);
    for (int r = 0; r < pairs; r++) {
        worker one[1] = {{w, ts, 0, 0}}, two[2] = {{w, ts, 0, 0}, {w, ts, 0, 0}};
        double wall1 = run_threads(one, 1), wall2 = run_threads(two, 2);
        rw[r] = (2.0 * (double)ts->n / wall2) / ((double)ts->n / wall1);
        double slow = two[0].cpu > two[1].cpu ? two[0].cpu : two[1].cpu;
        rc[r] = (2.0 * (double)ts->n / slow) / ((double)ts->n / one[0].cpu);
        share[r] = (two[0].cpu + two[1].cpu) / (2.0 * wall2);
        if (share[r] >= 0.95 && one[0].cpu >= 0.95 * wall1)
            rfree[nfree++] = rw[r];
    }
    getloadavg(load1, 3);
    double lo = rw[0], hi = rw[0];
    for (int r = 1; r < pairs; r++)
        lo = rw[r] < lo ? rw[r] : lo, hi = rw[r] > hi ? rw[r] : hi;
    double mw = bench_median(rw, (size_t)pairs), mc = bench_median(rc, (size_t)pairs);
    double ms = bench_median(share, (size_t)pairs);
    printf("  2 threads, one world (box short), %d interleaved pairs: %.2fx one thread by wall "
           "time (median; %.2f-%.2f), %.2fx by each thread's CPU time\n",
           pairs, mw, lo, hi, mc);
    printf("    load average %.2f before, %.2f after; the two threads got %.0f%% of both cores "
           "(median): the second core was %s",
           load0[0], load1[0], 100.0 * ms, ms >= 0.95 ? "free" : "busy (shared)");
    if (nfree)
        printf("; pairs with both cores free: %d, median %.2fx\n", nfree,
               bench_median(rfree, (size_t)nfree));
    else
        printf("; no pair had both cores free\n");
    free(rw), free(rc), free(share), free(rfree);
}

/* ---- one map ---------------------------------------------------------------------------- */

static const baseline *find_baseline(const char *name) {
    for (size_t i = 0; i < sizeof baselines / sizeof baselines[0]; i++)
        if (!strcmp(baselines[i].map, name) && baselines[i].build_ms > 0)
            return &baselines[i];
    return NULL;
}

static void print_ratio(const baseline *b, double now, double then, int lower_is_better) {
    if (!b || then <= 0)
        return;
    printf(" (baseline %.3g: %.2fx)", then, lower_is_better ? then / now : now / then);
}

static int build_only, threads_only, load_only, pairs = 9;
static size_t walk = 1000000;

/* The world from the level (the sections layer's read, digest check, inflate and verify of sim
 * included) against blvl_trace_world_new on the same colliders' descriptions, the two turn about
 * `runs` times so the load falls on both: the medians and the median of the pairs' ratios. Then
 * where the difference goes, each phase alone (medians, as a share of world_new): the section
 * read (digest and inflate), the FlatBuffers verifier, the descriptions. */
enum { PH_NEW, PH_LEVEL, PH_RATIO, PH_READ, PH_VERIFY, PH_DESCS, PH_COUNT };

static int load_phases(blvl_level *lv, double *t) {
    blvl_error err;
    blvl_bytes b = {0};
    double s = bench_cpu();
    if (blvl_read(lv, "sim", &b, &err) != BLVL_OK)
        return -1;
    t[PH_READ] = (bench_cpu() - s) * 1e3;
    s = bench_cpu();
    int bad = blvl_Sim_verify(b.data, b.size, &err) != BLVL_OK;
    t[PH_VERIFY] = (bench_cpu() - s) * 1e3;
    size_t size = 0;
    s = bench_cpu();
    blvl_trace_collider_desc *d =
        bad ? NULL : blvl__trace_descs_from_sim(blvl_Sim_root(b.data), NULL, &size);
    t[PH_DESCS] = (bench_cpu() - s) * 1e3;
    blvl__dealloc(NULL, d, size);
    blvl_bytes_free(&b);
    return d ? 0 : -1;
}

static int load_ratio(const char *name, const descs *x, blvl_level *lv, const blvl_options *opt,
                      int runs) {
    double *t[PH_COUNT];
    int ok = 1;
    for (int k = 0; k < PH_COUNT; k++)
        ok &= (t[k] = calloc((size_t)runs, sizeof(double))) != NULL;
    blvl_error err = {0};
    for (int r = 0; ok && r < runs; r++) {
        blvl_trace_world *w = NULL, *w2 = NULL;
        double s = bench_cpu(), ph[PH_COUNT];
        ok = blvl_trace_world_new(&w, x->d, x->n, NULL, &err) == BLVL_OK;
        t[PH_NEW][r] = (bench_cpu() - s) * 1e3;
        blvl_trace_world_free(w);
        s = bench_cpu();
        ok = ok && blvl_trace_world_from_level(&w2, lv, &(blvl_trace_options){.base = *opt},
                                               &err) == BLVL_OK;
        t[PH_LEVEL][r] = (bench_cpu() - s) * 1e3;
        blvl_trace_world_free(w2);
        t[PH_RATIO][r] = t[PH_LEVEL][r] / t[PH_NEW][r];
        ok = ok && load_phases(lv, ph) == 0;
        for (int k = PH_READ; ok && k < PH_COUNT; k++)
            t[k][r] = ph[k];
    }
    if (ok) {
        double m[PH_COUNT];
        for (int k = 0; k < PH_COUNT; k++)
            m[k] = bench_median(t[k], (size_t)runs);
        printf("%s: world_new %.3f ms, from the level %.3f ms: %.2fx (median of %d pairs); "
               "read+inflate %.3f ms (%.2fx), verify %.3f (%.2fx), descriptions %.3f (%.2fx)\n",
               name, m[PH_NEW], m[PH_LEVEL], m[PH_RATIO], runs, m[PH_READ], m[PH_READ] / m[PH_NEW],
               m[PH_VERIFY], m[PH_VERIFY] / m[PH_NEW], m[PH_DESCS], m[PH_DESCS] / m[PH_NEW]);
    } else {
        fprintf(stderr, "bench_trace_maps: %s: %s\n", name,
                err.message[0] ? err.message : "failed");
    }
    for (int k = 0; k < PH_COUNT; k++)
        free(t[k]);
    return ok ? 0 : 1;
}

static int bench_map(const char *path, size_t traces, int runs, int use_baseline) {
    blvl_error err;
    blvl_level *lv = NULL;
    blvl_options opt = {0};
    opt.threads = 1;
    blvl_bytes sec = {0};
    blvl_Sim sim;
    if (blvl_open_file(&lv, path, &opt, &err) != BLVL_OK ||
        blvl_level_sim(lv, &sec, &sim, &err) != BLVL_OK) {
        fprintf(stderr, "bench_trace_maps: %s: %s\n", path, err.message);
        blvl_close(lv);
        return 1;
    }
    char name[64];
    const char *base = strrchr(path, '/');
    snprintf(name, sizeof name, "%s", base ? base + 1 : path);
    char *dot = strrchr(name, '.');
    if (dot)
        *dot = 0;
    const baseline *bl = use_baseline ? find_baseline(name) : NULL;
    /* A fixed seed per map (from its name), so the traces do not depend on the order of maps. */
    rng = 0x9E3779B97F4A7C15ull;
    for (const char *c = name; *c; c++)
        rng = (rng ^ (uint64_t)(unsigned char)*c) * 0x100000001B3ull;
    rng |= 1;

    blvl_allocator al = {0};
    size_t base_size = 0;
    descs x = {blvl__trace_descs_from_sim(sim, &al, &base_size), blvl_Sim_colliders_len(sim), NULL,
               NULL};
    if (!x.d) {
        fprintf(stderr, "bench_trace_maps: out of memory\n");
        return 1;
    }
    if (load_only) {
        int rc = load_ratio(name, &x, lv, &opt, runs);
        blvl__dealloc(&al, x.d, base_size);
        blvl_bytes_free(&sec);
        blvl_close(lv);
        return rc;
    }
    blvl_trace_world *w = NULL;
    double bms = build_ms(&x, runs, &w);
    if (build_only) { /* for a profiler: the 1x build alone */
        printf("%s: world build %.2f ms (median of %d)\n", name, bms, runs);
        blvl__dealloc(&al, x.d, base_size);
        blvl_trace_world_free(w);
        blvl_bytes_free(&sec);
        blvl_close(lv);
        return 0;
    }
    /* from the level: the sections layer's reading and verification of sim included */
    double *tl = calloc((size_t)runs, sizeof *tl);
    for (int r = 0; r < runs; r++) {
        blvl_trace_world *w2 = NULL;
        double s = bench_cpu();
        if (blvl_trace_world_from_level(&w2, lv, &(blvl_trace_options){.base = opt}, &err) !=
            BLVL_OK) {
            fprintf(stderr, "bench_trace_maps: %s: %s\n", path, err.message);
            return 1;
        }
        tl[r] = (bench_cpu() - s) * 1e3;
        blvl_trace_world_free(w2);
    }
    double lms = bench_median(tl, (size_t)runs);
    free(tl);
    uint32_t nc = blvl_trace_world_collider_count(w);
    size_t nplanes = 0;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < nc; i++) {
        float a[3], b[3];
        uint32_t np = 0;
        blvl_trace_world_planes(w, i, &np);
        nplanes += np;
        if (!blvl_trace_world_bounds(w, i, a, b))
            continue;
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], a[k]);
            hi[k] = fmaxf(hi[k], b[k]);
        }
    }
    printf("%s: %u colliders, %zu planes\n", name, nc, nplanes);
    printf("  world build %.2f ms", bms);
    print_ratio(bl, bms, bl ? bl->build_ms : 0, 1);
    printf("; from the level (sim read and verified) %.2f ms\n", lms);

    /* growth with the collider count: the map 4 and 16 times, side by side in x and z */
    double ext[3];
    for (int k = 0; k < 3; k++)
        ext[k] = hi[k] - lo[k] + 256;
    float offs[16][3];
    for (int j = 0; j < 16; j++) {
        offs[j][0] = (float)((j % 4) * ext[0]);
        offs[j][1] = 0;
        offs[j][2] = (float)((j / 4) * ext[2]);
    }
    double g[3] = {bms, 0, 0};
    for (int m = 1; m < 3 && !threads_only; m++) {
        descs y;
        uint32_t copies = m == 1 ? 4 : 16;
        if (descs_copies(x.d, x.n, copies, offs, &y)) {
            fprintf(stderr, "bench_trace_maps: out of memory\n");
            return 1;
        }
        g[m] = build_ms(&y, runs, NULL);
        descs_free(&y);
    }
    if (!threads_only)
        printf("  build growth: 1x %.2f ms, 4x %.2f ms (%.2f per copy), 16x %.2f ms (%.2f per "
               "copy)\n",
               g[0], g[1], g[1] / 4 / g[0], g[2], g[2] / 16 / g[0]);

    float *starts = malloc(traces * 3 * sizeof *starts);
    trace_set sets[SET_COUNT];
    for (int s = 0; s < SET_COUNT; s++) {
        sets[s].n = traces;
        sets[s].box = s == SET_BOX_SHORT || s == SET_BOX_LONG;
        sets[s].s = malloc(traces * 3 * sizeof(float));
        sets[s].e = malloc(traces * 3 * sizeof(float));
    }
    if (!starts || !(lo[0] <= hi[0]) || make_starts(w, lo, hi, traces, starts)) {
        fprintf(stderr, "bench_trace_maps: %s: no room for traces\n", path);
        return 1;
    }
    for (int s = 0; s < SET_COUNT; s++) {
        int shrt = s == SET_BOX_SHORT || s == SET_RAY_SHORT;
        make_ends(&sets[s], starts, shrt ? 16 : 512, shrt ? 512 : 4096);
    }
    for (int s = 0; s < SET_COUNT && !threads_only; s++) {
        size_t hits = 0;
        double rate = rate_of(w, &sets[s], runs, &hits);
        blvl_trace_stats st = {0, 0, 0, 0};
        for (size_t i = 0; i < traces; i++) {
            blvl_trace_result r;
            blvl_trace_box_stats(w, NULL, sets[s].s + 3 * i, sets[s].e + 3 * i,
                                 sets[s].box ? box_lo : NULL, sets[s].box ? box_hi : NULL, &r, &st);
        }
        printf("  %-9s %10.0f traces/s", set_name[s], rate);
        print_ratio(bl, rate, bl ? bl->rate[s] : 0, 0);
        printf("; %4.1f%% hit; per trace %.1f nodes, %.2f colliders\n",
               100.0 * (double)hits / (double)traces, (double)st.nodes / (double)st.traces,
               (double)st.colliders / (double)st.traces);
    }
    /* The chained walk: each trace starts where the previous one stopped. */
    if (!threads_only) {
        float p[3];
        memcpy(p, starts, sizeof p);
        size_t stuck = 0;
        blvl_trace_stats st = {0, 0, 0, 0};
        for (size_t i = 0; i < walk; i++) {
            float e[3];
            rnd_end(p, 16, 512, e);
            blvl_trace_result r;
            blvl_trace_box_stats(w, NULL, p, e, box_lo, box_hi, &r, &st);
            if (r.startsolid) {
                stuck++;
                if (stuck <= 3)
                    printf("  walk: trace %zu starts in solid at (%.9g %.9g %.9g)\n", i, p[0], p[1],
                           p[2]);
                memcpy(p, starts + 3 * (i % traces), sizeof p); /* start afresh */
                continue;
            }
            memcpy(p, r.endpos, sizeof p);
        }
        printf("  chained walk of %zu short box traces: %zu started in solid; %llu stops backed "
               "off\n",
               walk, stuck, (unsigned long long)st.backoffs);
    }
    threads_ratio(w, &sets[SET_BOX_SHORT], pairs);
    for (int s = 0; s < SET_COUNT; s++)
        free(sets[s].s), free(sets[s].e);
    free(starts);
    blvl__dealloc(&al, x.d, base_size);
    blvl_trace_world_free(w);
    blvl_bytes_free(&sec);
    blvl_close(lv);
    return 0;
}

int main(int argc, char **argv) {
#ifdef __GLIBC__
    /* Freed blocks stay in the heap: a world of 16 copies of a map is past glibc's largest mmap
     * threshold, and every build would otherwise fault its pages in afresh (the kernel's cost,
     * not the build's, and a large one on a virtual machine). */
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    size_t traces = 100000;
    int runs = 5, rc = 0, levels = 0, use_baseline = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--traces") && i + 1 < argc)
            traces = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-baseline"))
            use_baseline = 0;
        else if (!strcmp(argv[i], "--build-only"))
            build_only = 1;
        else if (!strcmp(argv[i], "--walk") && i + 1 < argc)
            walk = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
            pairs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads-only"))
            threads_only = 1;
        else if (!strcmp(argv[i], "--load-only"))
            load_only = 1;
    }
    if (!traces || runs < 1 || pairs < 1) {
        fprintf(stderr, "usage: bench_trace_maps LEVEL.blvl... [--traces N] [--runs R] "
                        "[--no-baseline]\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--traces") || !strcmp(argv[i], "--runs") ||
            !strcmp(argv[i], "--walk") || !strcmp(argv[i], "--pairs")) {
            i++;
            continue;
        }
        if (!strcmp(argv[i], "--no-baseline") || !strcmp(argv[i], "--build-only") ||
            !strcmp(argv[i], "--threads-only") || !strcmp(argv[i], "--load-only"))
            continue;
        levels++;
        rc |= bench_map(argv[i], traces, runs, use_baseline);
    }
    if (!levels) {
        fprintf(stderr, "usage: bench_trace_maps LEVEL.blvl... [--traces N] [--runs R] "
                        "[--no-baseline]\n");
        return 2;
    }
    return rc;
}
