/* Hand-built convex solids for the blvl-trace tests, and an independent reference: a swept
 * separating-axis test over each solid's vertices. It shares no code or idea with the library's
 * plane expansion: its axes are the box axes, the normal of every vertex triple and every vertex
 * pair crossed with each box axis (a superset of the axes that can separate a box from the solid),
 * so it needs no face loops, no winding and no bevel rule. */
#ifndef TEST_TRACE_SHAPES_H
#define TEST_TRACE_SHAPES_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "blvl/trace.h"
#include "support/rnd.h"

#define SHAPE_MAX_V 8
#define SHAPE_MAX_F 6
#define SHAPE_MAX_I 24
#define REF_MAX_AXES 256

typedef struct shape {
    int nv, nf, ni;
    blvl_Vec3 v[SHAPE_MAX_V];
    uint32_t sizes[SHAPE_MAX_F];
    uint32_t idx[SHAPE_MAX_I];
    /* the reference's axes and the solid's projection on each */
    int na;
    double axis[REF_MAX_AXES][3];
    double pmin[REF_MAX_AXES], pmax[REF_MAX_AXES];
} shape;

static inline void shape_face(shape *s, int n, const int *corners) {
    s->sizes[s->nf++] = (uint32_t)n;
    for (int i = 0; i < n; i++)
        s->idx[s->ni++] = (uint32_t)corners[i];
}

/* A box with corners c[0..7] where bit 0 of the index picks +x, bit 1 +y, bit 2 +z (before any
 * rotation). `crossed` lists every face corner by corner (a bow-tie) instead of around it. */
static inline void shape_box_corners(shape *s, const double c[8][3], int crossed) {
    memset(s, 0, sizeof *s);
    s->nv = 8;
    for (int i = 0; i < 8; i++)
        s->v[i] = (blvl_Vec3){(float)c[i][0], (float)c[i][1], (float)c[i][2]};
    static const int faces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                    {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
    for (int f = 0; f < 6; f++) {
        if (crossed) {
            int q[4] = {faces[f][0], faces[f][2], faces[f][1], faces[f][3]};
            shape_face(s, 4, q);
        } else {
            shape_face(s, 4, faces[f]);
        }
    }
}

/* rot: row-major rotation applied about the centre. */
static inline void shape_box(shape *s, const double centre[3], const double half[3],
                             const double rot[3][3], int crossed) {
    double c[8][3];
    for (int i = 0; i < 8; i++) {
        double l[3] = {(i & 1) ? half[0] : -half[0], (i & 2) ? half[1] : -half[1],
                       (i & 4) ? half[2] : -half[2]};
        for (int k = 0; k < 3; k++)
            c[i][k] = centre[k] + rot[k][0] * l[0] + rot[k][1] * l[1] + rot[k][2] * l[2];
    }
    shape_box_corners(s, c, crossed);
}

/* A wedge: triangle (a, b, c) in the plane z = z0 extruded to z = z1, then rotated about its
 * first vertex. */
static inline void shape_wedge(shape *s, const double tri[3][2], double z0, double z1,
                               const double rot[3][3], const double at[3]) {
    memset(s, 0, sizeof *s);
    s->nv = 6;
    for (int i = 0; i < 6; i++) {
        double l[3] = {tri[i % 3][0], tri[i % 3][1], i < 3 ? z0 : z1};
        double p[3];
        for (int k = 0; k < 3; k++)
            p[k] = at[k] + rot[k][0] * l[0] + rot[k][1] * l[1] + rot[k][2] * l[2];
        s->v[i] = (blvl_Vec3){(float)p[0], (float)p[1], (float)p[2]};
    }
    int f0[3] = {0, 2, 1}, f1[3] = {3, 4, 5}, q0[4] = {0, 1, 4, 3}, q1[4] = {1, 2, 5, 4},
        q2[4] = {2, 0, 3, 5};
    shape_face(s, 3, f0);
    shape_face(s, 3, f1);
    shape_face(s, 4, q0);
    shape_face(s, 4, q1);
    shape_face(s, 4, q2);
}

/* A tetrahedron: every triple of its vertices is a face. */
static inline void shape_tetra(shape *s, const double p[4][3]) {
    memset(s, 0, sizeof *s);
    s->nv = 4;
    for (int i = 0; i < 4; i++)
        s->v[i] = (blvl_Vec3){(float)p[i][0], (float)p[i][1], (float)p[i][2]};
    int f[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
    for (int i = 0; i < 4; i++)
        shape_face(s, 3, f[i]); /* winding left to the loader: it orients by the solid */
}

static inline void rot_euler(double yaw, double pitch, double roll, double r[3][3]) {
    double cy = cos(yaw), sy = sin(yaw), cp = cos(pitch), sp = sin(pitch), cr = cos(roll),
           sr = sin(roll);
    double a[3][3] = {{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}};
    double b[3][3] = {{1, 0, 0}, {0, cp, -sp}, {0, sp, cp}};
    double c[3][3] = {{cr, -sr, 0}, {sr, cr, 0}, {0, 0, 1}};
    double ab[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            ab[i][j] = 0;
            for (int k = 0; k < 3; k++)
                ab[i][j] += a[i][k] * b[k][j];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            r[i][j] = 0;
            for (int k = 0; k < 3; k++)
                r[i][j] += ab[i][k] * c[k][j];
        }
}

static inline void ref_add_axis(shape *s, double x, double y, double z) {
    double l = sqrt(x * x + y * y + z * z);
    if (l < 1e-9 || s->na >= REF_MAX_AXES)
        return;
    double a[3] = {x / l, y / l, z / l};
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < s->nv; i++) {
        double t = a[0] * s->v[i].x + a[1] * s->v[i].y + a[2] * s->v[i].z;
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
    }
    memcpy(s->axis[s->na], a, sizeof a);
    s->pmin[s->na] = lo;
    s->pmax[s->na] = hi;
    s->na++;
}

/* Prepare the reference's axes for a solid. */
static inline void ref_prepare(shape *s) {
    s->na = 0;
    ref_add_axis(s, 1, 0, 0);
    ref_add_axis(s, 0, 1, 0);
    ref_add_axis(s, 0, 0, 1);
    for (int i = 0; i < s->nv; i++)
        for (int j = i + 1; j < s->nv; j++) {
            double e[3] = {s->v[j].x - s->v[i].x, s->v[j].y - s->v[i].y, s->v[j].z - s->v[i].z};
            ref_add_axis(s, 0, e[2], -e[1]);
            ref_add_axis(s, -e[2], 0, e[0]);
            ref_add_axis(s, e[1], -e[0], 0);
            for (int k = j + 1; k < s->nv; k++) {
                double f[3] = {s->v[k].x - s->v[i].x, s->v[k].y - s->v[i].y, s->v[k].z - s->v[i].z};
                ref_add_axis(s, e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2],
                             e[0] * f[1] - e[1] * f[0]);
            }
        }
}

static inline void ref_box_extent(const double a[3], const float mins[3], const float maxs[3],
                                  double *bmin, double *bmax) {
    *bmin = *bmax = 0;
    for (int k = 0; k < 3; k++) {
        double x = a[k] * mins[k], y = a[k] * maxs[k];
        *bmin += x < y ? x : y;
        *bmax += x < y ? y : x;
    }
}

/* Separation of the box at p from the solid: > 0 apart, < 0 overlapping (a lower bound on the
 * distance when apart, since the axes are finitely many). */
static inline double ref_gap(const shape *s, const float p[3], const float mins[3],
                             const float maxs[3]) {
    double g = -INFINITY;
    for (int i = 0; i < s->na; i++) {
        double bmin, bmax, c = s->axis[i][0] * p[0] + s->axis[i][1] * p[1] + s->axis[i][2] * p[2];
        ref_box_extent(s->axis[i], mins, maxs, &bmin, &bmax);
        double a = s->pmin[i] - (c + bmax), b = (c + bmin) - s->pmax[i];
        g = a > g ? a : g;
        g = b > g ? b : g;
    }
    return g;
}

/* First time in [0, 1] the moving box overlaps the solid, or 2 when it never does. */
static inline double ref_enter(const shape *s, const float st[3], const float en[3],
                               const float mins[3], const float maxs[3]) {
    double t0 = -INFINITY, t1 = INFINITY;
    for (int i = 0; i < s->na; i++) {
        const double *a = s->axis[i];
        double bmin, bmax;
        ref_box_extent(a, mins, maxs, &bmin, &bmax);
        double c0 = a[0] * st[0] + a[1] * st[1] + a[2] * st[2];
        double dc = a[0] * (en[0] - st[0]) + a[1] * (en[1] - st[1]) + a[2] * (en[2] - st[2]);
        double lo = s->pmin[i] - bmax, hi = s->pmax[i] - bmin; /* overlap while c in (lo, hi) */
        if (fabs(dc) < 1e-12) {
            if (c0 <= lo || c0 >= hi)
                return 2;
            continue;
        }
        double ta = (lo - c0) / dc, tb = (hi - c0) / dc;
        if (ta > tb) {
            double x = ta;
            ta = tb;
            tb = x;
        }
        t0 = ta > t0 ? ta : t0;
        t1 = tb < t1 ? tb : t1;
    }
    if (t0 >= t1 || t1 <= 0 || t0 >= 1)
        return 2;
    return t0 < 0 ? 0 : t0;
}

/* A collider description over a shape's hull (borrowed). */
static inline void shape_desc(const shape *s, blvl_trace_collider_desc *d, uint32_t flags) {
    blvl_trace_collider_desc_init(d);
    d->flags = flags;
    d->shape = BLVL_TRACE_SHAPE_HULL;
    d->vertices = s->v;
    d->vertex_count = (uint32_t)s->nv;
    d->face_sizes = s->sizes;
    d->face_count = (uint32_t)s->nf;
    d->face_indices = s->idx;
    d->face_index_count = (uint32_t)s->ni;
    d->lo = d->hi = s->v[0];
    for (int i = 1; i < s->nv; i++) {
        d->lo.x = fminf(d->lo.x, s->v[i].x), d->hi.x = fmaxf(d->hi.x, s->v[i].x);
        d->lo.y = fminf(d->lo.y, s->v[i].y), d->hi.y = fmaxf(d->hi.y, s->v[i].y);
        d->lo.z = fminf(d->lo.z, s->v[i].z), d->hi.z = fmaxf(d->hi.z, s->v[i].z);
    }
}

/* A tiny deterministic generator (support/rnd.h). */
static uint64_t rng_state_ = 0x9E3779B97F4A7C15ull;
static inline double rnd(void) {
    return test_rnd(&rng_state_);
}
static inline double rnd_in(double a, double b) {
    return a + (b - a) * rnd();
}

#endif
