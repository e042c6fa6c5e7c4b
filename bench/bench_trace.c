/* blvl-trace benchmark: a generated level of brush colliders (axial boxes as stored planes,
 * rotated boxes and wedges as hulls, half the rotated boxes with crossed loops), short box traces
 * (64 units, a 32 x 56 x 32 player box, Y up) on one core, through the hierarchy and by brute force
 * (every collider, each rejected by its bounds first). Prints medians over several runs.
 *
 *   bench_trace [colliders (default 20000)] [traces per run (default 1000000)] [runs (5)] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blvl/trace.h"
#include "bench_util.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static double rnd(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}
static double rnd_in(double a, double b) {
    return a + (b - a) * rnd();
}

#define WORLD_XY 8192.0
#define WORLD_Z 2048.0

typedef struct gen {
    blvl_Vec3 *verts;
    uint32_t *sizes, *idx;
    blvl_Plane *planes;
} gen;

static void bounds_of(blvl_trace_collider_desc *d, const blvl_Vec3 *v, int n) {
    d->lo = d->hi = v[0];
    for (int i = 1; i < n; i++) {
        d->lo.x = fminf(d->lo.x, v[i].x), d->hi.x = fmaxf(d->hi.x, v[i].x);
        d->lo.y = fminf(d->lo.y, v[i].y), d->hi.y = fmaxf(d->hi.y, v[i].y);
        d->lo.z = fminf(d->lo.z, v[i].z), d->hi.z = fmaxf(d->hi.z, v[i].z);
    }
}

static void make(uint32_t n, blvl_trace_collider_desc *d, gen *g) {
    static const int box_faces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                        {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
    for (uint32_t i = 0; i < n; i++) {
        blvl_trace_collider_desc_init(&d[i]);
        double c[3] = {rnd_in(0, WORLD_XY), rnd_in(0, WORLD_XY), rnd_in(0, WORLD_Z)};
        double h[3] = {rnd_in(4, 64), rnd_in(4, 64), rnd_in(4, 48)};
        blvl_Vec3 *v = g->verts + 8 * (size_t)i;
        uint32_t *sz = g->sizes + 6 * (size_t)i, *ix = g->idx + 24 * (size_t)i;
        int kind = i % 3;
        if (kind == 0) { /* axial box, stored planes */
            blvl_Plane *p = g->planes + 6 * (size_t)i;
            for (int k = 0; k < 3; k++) {
                float n1[3] = {0, 0, 0};
                n1[k] = 1;
                p[2 * k] = (blvl_Plane){{n1[0], n1[1], n1[2]}, (float)(c[k] + h[k])};
                p[2 * k + 1] = (blvl_Plane){{-n1[0], -n1[1], -n1[2]}, (float)(-(c[k] - h[k]))};
            }
            d[i].shape = BLVL_TRACE_SHAPE_PLANES;
            d[i].planes = p;
            d[i].plane_count = 6;
            d[i].lo = (blvl_Vec3){(float)(c[0] - h[0]), (float)(c[1] - h[1]), (float)(c[2] - h[2])};
            d[i].hi = (blvl_Vec3){(float)(c[0] + h[0]), (float)(c[1] + h[1]), (float)(c[2] + h[2])};
            continue;
        }
        double yaw = rnd_in(0, 6.283), pitch = rnd_in(-0.4, 0.4);
        double cy = cos(yaw), sy = sin(yaw), cp = cos(pitch), sp = sin(pitch);
        /* yaw about z (up while generating, see to_y_up), then pitch about x */
        double r[3][3] = {{cy, -sy * cp, sy * sp}, {sy, cy * cp, -cy * sp}, {0, sp, cp}};
        int nv;
        if (kind == 1) { /* rotated box; every other one with crossed loops */
            nv = 8;
            for (int k = 0; k < 8; k++) {
                double l[3] = {(k & 1) ? h[0] : -h[0], (k & 2) ? h[1] : -h[1],
                               (k & 4) ? h[2] : -h[2]};
                v[k] =
                    (blvl_Vec3){(float)(c[0] + r[0][0] * l[0] + r[0][1] * l[1] + r[0][2] * l[2]),
                                (float)(c[1] + r[1][0] * l[0] + r[1][1] * l[1] + r[1][2] * l[2]),
                                (float)(c[2] + r[2][0] * l[0] + r[2][1] * l[1] + r[2][2] * l[2])};
            }
            int crossed = (i / 3) % 2;
            for (int f = 0; f < 6; f++) {
                sz[f] = 4;
                const int *q = box_faces[f];
                int o[4] = {q[0], crossed ? q[2] : q[1], crossed ? q[1] : q[2], q[3]};
                for (int j = 0; j < 4; j++)
                    ix[4 * f + j] = (uint32_t)o[j];
            }
            d[i].face_count = 6;
            d[i].face_index_count = 24;
        } else { /* wedge (ramp) */
            nv = 6;
            double tri[3][2] = {{-h[0], -h[1]}, {h[0], -h[1]}, {-h[0], h[1]}};
            for (int k = 0; k < 6; k++) {
                double l[3] = {tri[k % 3][0], k < 3 ? -h[2] : h[2], tri[k % 3][1]};
                v[k] =
                    (blvl_Vec3){(float)(c[0] + r[0][0] * l[0] + r[0][1] * l[1] + r[0][2] * l[2]),
                                (float)(c[1] + r[1][0] * l[0] + r[1][1] * l[1] + r[1][2] * l[2]),
                                (float)(c[2] + r[2][0] * l[0] + r[2][1] * l[1] + r[2][2] * l[2])};
            }
            static const uint32_t wi[18] = {0, 2, 1, 3, 4, 5, 0, 1, 4, 3, 1, 2, 5, 4, 2, 0, 3, 5};
            static const uint32_t ws[5] = {3, 3, 4, 4, 4};
            memcpy(ix, wi, sizeof wi);
            memcpy(sz, ws, sizeof ws);
            d[i].face_count = 5;
            d[i].face_index_count = 18;
        }
        d[i].shape = BLVL_TRACE_SHAPE_HULL;
        d[i].vertices = v;
        d[i].vertex_count = (uint32_t)nv;
        d[i].face_sizes = sz;
        d[i].face_indices = ix;
        bounds_of(&d[i], v, nv);
    }
}

/* The generator thinks in Z up; the format is Y up (+Y up, -Z forward). Swapping the two axes
 * is an isometry, so every solid stays convex with its planes outward. */
static void swap_yz(float *y, float *z) {
    float t = *y;
    *y = *z;
    *z = t;
}

static void to_y_up(uint32_t n, blvl_trace_collider_desc *d, gen *g) {
    for (size_t i = 0; i < (size_t)n * 8; i++)
        swap_yz(&g->verts[i].y, &g->verts[i].z);
    for (size_t i = 0; i < (size_t)n * 6; i++)
        swap_yz(&g->planes[i].normal.y, &g->planes[i].normal.z);
    for (uint32_t i = 0; i < n; i++) {
        swap_yz(&d[i].lo.y, &d[i].lo.z);
        swap_yz(&d[i].hi.y, &d[i].hi.z);
    }
}

int main(int argc, char **argv) {
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 20000;
    uint32_t ntr = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1000000;
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    if (n < 1 || ntr < 1 || runs < 1 || runs > 101 || n > 10000000 || ntr > 100000000) {
        fprintf(stderr, "usage: bench_trace [colliders] [traces] [runs]\n");
        return 2;
    }
    gen g = {calloc((size_t)n * 8, sizeof(blvl_Vec3)), calloc((size_t)n * 6, 4),
             calloc((size_t)n * 24, 4), calloc((size_t)n * 6, sizeof(blvl_Plane))};
    blvl_trace_collider_desc *d = calloc(n, sizeof *d);
    float *pts = calloc((size_t)ntr * 6, sizeof(float));
    if (!g.verts || !g.sizes || !g.idx || !g.planes || !d || !pts) {
        fprintf(stderr, "bench_trace: out of memory\n");
        return 1;
    }
    make(n, d, &g);
    to_y_up(n, d, &g);
    double t0 = bench_now();
    blvl_trace_world *w = NULL;
    blvl_error err;
    if (blvl_trace_world_new(&w, d, n, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "bench_trace: %s\n", err.message);
        return 1;
    }
    double build = bench_now() - t0;
    uint32_t nrep, total_planes = 0;
    blvl_trace_world_reports(w, &nrep);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c;
        blvl_trace_world_planes(w, i, &c);
        total_planes += c;
    }
    const float mins[3] = {-16, -28, -16}, maxs[3] = {16, 28, 16}; /* 32 x 56 x 32, Y up */
    for (uint32_t i = 0; i < ntr; i++) {
        float *p = pts + 6 * (size_t)i;
        /* a player stands in free space: draw starts until the box fits */
        for (int tries = 0; tries < 100; tries++) {
            p[0] = (float)rnd_in(0, WORLD_XY);
            p[2] = (float)rnd_in(0, WORLD_XY);
            p[1] = (float)rnd_in(0, WORLD_Z);
            blvl_trace_result res;
            blvl_trace_box(w, NULL, p, p, mins, maxs, &res);
            if (!res.startsolid)
                break;
        }
        double yaw = rnd_in(0, 6.283), pitch = rnd_in(-0.5, 0.5);
        p[3] = p[0] + (float)(64 * cos(yaw) * cos(pitch));
        p[5] = p[2] + (float)(64 * sin(yaw) * cos(pitch));
        p[4] = p[1] + (float)(64 * sin(pitch));
    }
    printf("level: %u colliders (%u planes after expansion, %u reports), built in %.1f ms\n", n,
           total_planes, nrep, build * 1e3);

    double rates[101];
    double sink = 0;
    uint32_t hit = 0, solid = 0;
    for (int r = 0; r < runs; r++) {
        double s = bench_now();
        hit = solid = 0;
        for (uint32_t i = 0; i < ntr; i++) {
            blvl_trace_result res;
            const float *p = pts + 6 * (size_t)i;
            blvl_trace_box(w, NULL, p, p + 3, mins, maxs, &res);
            sink += res.fraction;
            hit += res.fraction < 1;
            solid += res.startsolid;
        }
        rates[r] = ntr / (bench_now() - s);
    }
    qsort(rates, (size_t)runs, sizeof(double), bench_cmp_double);
    double bvh = rates[runs / 2];
    printf("hierarchy: %.0f box traces/s (median of %d runs of %u; %.1f%% stopped, %.1f%% "
           "started solid)\n",
           bvh, runs, ntr, 100.0 * hit / ntr, 100.0 * solid / ntr);

    uint32_t nb = ntr / 200 < 1000 ? (ntr < 1000 ? ntr : 1000) : ntr / 200;
    uint32_t mismatch = 0;
    for (int r = 0; r < runs; r++) {
        double s = bench_now();
        for (uint32_t i = 0; i < nb; i++) {
            blvl_trace_result res;
            const float *p = pts + 6 * (size_t)i;
            blvl_trace_box_brute(w, NULL, p, p + 3, mins, maxs, &res);
            sink += res.fraction;
        }
        rates[r] = nb / (bench_now() - s);
    }
    for (uint32_t i = 0; i < nb; i++) {
        blvl_trace_result a, b;
        const float *p = pts + 6 * (size_t)i;
        blvl_trace_box(w, NULL, p, p + 3, mins, maxs, &a);
        blvl_trace_box_brute(w, NULL, p, p + 3, mins, maxs, &b);
        mismatch += a.fraction != b.fraction || a.startsolid != b.startsolid;
    }
    qsort(rates, (size_t)runs, sizeof(double), bench_cmp_double);
    double brute = rates[runs / 2];
    printf("brute force: %.0f box traces/s (median of %d runs of %u)\n", brute, runs, nb);
    printf("speed-up: %.0fx; hierarchy and brute force disagree on %u of %u traces\n", bvh / brute,
           mismatch, nb);
    printf("target >= 1000000 short box traces/s per core: %s\n", bvh >= 1e6 ? "met" : "NOT met");
    if (sink == 12345.678)
        printf("\n");
    blvl_trace_world_free(w);
    free(g.verts), free(g.sizes), free(g.idx), free(g.planes), free(d), free(pts);
    return mismatch ? 1 : 0;
}
