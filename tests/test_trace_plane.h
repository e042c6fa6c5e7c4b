/* The check of "a trace reports the plane it touched" (docs/TRACE.md, "The plane of a stop")
 * and the chained walk that feeds it, for test_trace_plane (a synthetic level) and
 * test_trace_plane_maps (OpenArena maps): after every stop, the box's corner nearest the reported
 * plane (its support point against the plane's normal) lies between 0 and 0.25 units in front of
 * that plane, and the plane is one of the reported collider's own. The walk: two chains (each
 * trace starts where the chain's previous one stopped), player-box traces and rays in turn,
 * random directions (a quarter level, an eighth straight down), lengths 1-32, 16-512 or
 * 512-4096 units.
 *
 * The control, at every stop: the check fed the plane and collider of the chain's previous stop
 * against another collider (a deliberately wrong plane) must refuse most of them (not all: a
 * neighbour's plane can be coplanar with the right one, or touch the box too in a corner or on
 * a floor), so the check is able to fail. */
#ifndef TEST_TRACE_PLANE_H
#define TEST_TRACE_PLANE_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blvl/trace.h"
#include "check.h"
#include "support/rnd.h"
#include "trace/trace_internal.h"

/* The Quake 3 player box in blvl axes (Quake -15 -15 -24 .. 15 15 32, z up -> y up). */
static const float box_lo[3] = {-15, -24, -15}, box_hi[3] = {15, 32, 15};
static const float zero[3] = {0, 0, 0};

/* The bound the issue sets: DIST_EPSILON included. */
#define TOUCH_MAX 0.25

typedef struct tally {
    long traces, stops, bad, stuck;
    long control, control_failed;
    double worst; /* the distance farthest outside [0, TOUCH_MAX] seen */
} tally;

/* How far the box's corner nearest the plane lies in front of it, in double. */
static double support_dist(const blvl_Plane *p, const float pos[3], const float mins[3],
                           const float maxs[3]) {
    const float n[3] = {p->normal.x, p->normal.y, p->normal.z};
    double d = -(double)p->dist;
    for (int k = 0; k < 3; k++)
        d += (double)n[k] * ((double)pos[k] + (n[k] < 0 ? maxs[k] : mins[k]));
    return d;
}

/* Is `plane` one of collider ci's planes as the world traces it? */
static int own_plane(const blvl_trace_world *w, uint32_t ci, const blvl_Plane *plane) {
    if (ci >= w->collider_count)
        return 0;
    const tw_collider *c = &w->colliders[ci];
    for (uint32_t i = 0; i < c->plane_count; i++)
        if (!memcmp(&w->planes[c->first_plane + i], plane, sizeof *plane))
            return 1;
    return 0;
}

/* The check: the plane touches the box at pos and belongs to the collider named. */
static int touches(const blvl_trace_world *w, uint32_t ci, const blvl_Plane *plane,
                   const float pos[3], const float mins[3], const float maxs[3], double *dist) {
    *dist = support_dist(plane, pos, mins, maxs);
    return *dist >= 0 && *dist <= TOUCH_MAX && own_plane(w, ci, plane);
}

static uint64_t rng_ = 0x2545F4914F6CDD1Dull;

/* e: s moved in a random direction (a quarter of them level, an eighth straight down, as a
 * game's moves often are) by a length from one of three ranges, 1-32, 16-512 or 512-4096. */
static void rnd_end(const float s[3], int i, float e[3]) {
    double d[3], l = test_rnd_ball(&rng_, d);
    int kind = (int)(test_rnd(&rng_) * 8);
    if (kind < 2) {
        d[1] = 0;
        l = sqrt(d[0] * d[0] + d[2] * d[2]);
        if (l < 1e-3)
            d[0] = l = 1;
    } else if (kind == 2) {
        d[0] = d[2] = 0, d[1] = -1, l = 1;
    }
    static const double range[3][2] = {{1, 32}, {16, 512}, {512, 4096}};
    const double *r = range[i % 3];
    double want = r[0] + (r[1] - r[0]) * test_rnd(&rng_);
    for (int k = 0; k < 3; k++)
        e[k] = (float)(s[k] + want * d[k] / l);
}

/* A free spot for the player box inside the level: rays along the six axes all meet a solid
 * within 4096 units (a point outside a sealed map sees the void one way at least), and the floor
 * is within 512 units. */
static int free_start(const blvl_trace_world *w, const float lo[3], const float hi[3], float p[3]) {
    for (int tries = 0; tries < 100000; tries++) {
        for (int k = 0; k < 3; k++)
            p[k] = (float)(lo[k] + (hi[k] - lo[k]) * test_rnd(&rng_));
        blvl_trace_result r;
        blvl_trace_box(w, NULL, p, p, box_lo, box_hi, &r);
        int inside = !r.startsolid;
        for (int a = 0; a < 6 && inside; a++) {
            float e[3] = {p[0], p[1], p[2]};
            e[a / 2] += (a % 2 ? 1 : -1) * (a == 2 ? 512.0f : 4096.0f);
            blvl_trace_ray(w, NULL, p, e, &r);
            inside = r.fraction < 1;
        }
        if (inside)
            return 1;
    }
    return 0;
}

/* One stop of a chain: the check, and the control with the chain's previous stop against
 * another collider. */
static void check_stop(const char *name, const blvl_trace_world *w, const float *from,
                       const float *to, const blvl_trace_result *r, const blvl_trace_result *prev,
                       int box, tally *t) {
    const float *mn = box ? box_lo : zero, *mx = box ? box_hi : zero;
    double d;
    t->stops++;
    if (!touches(w, r->collider, &r->plane, r->endpos, mn, mx, &d)) {
        double off = d < 0 ? -d : d - TOUCH_MAX;
        t->worst = off > t->worst ? off : t->worst;
        if (++t->bad <= 5)
            fprintf(stderr,
                    "%s: %s from (%.9g %.9g %.9g) to (%.9g %.9g %.9g): stop at fraction %.9g "
                    "collider %u, plane (%.9g %.9g %.9g) %.9g: nearest corner %.6f in front "
                    "(own plane %d)\n",
                    name, box ? "box" : "ray", from[0], from[1], from[2], to[0], to[1], to[2],
                    r->fraction, r->collider, r->plane.normal.x, r->plane.normal.y,
                    r->plane.normal.z, r->plane.dist, d, own_plane(w, r->collider, &r->plane));
    }
    if (prev->fraction < 1 && prev->collider != r->collider) {
        t->control++;
        t->control_failed += !touches(w, prev->collider, &prev->plane, r->endpos, mn, mx, &d);
    }
}

/* Called every 1000 traces of the walk when given (test_trace_plane replays known moves). */
typedef void (*walk_hook)(const blvl_trace_world *w, tally *t, blvl_trace_stats *st);

/* Two chained walks from p, a box trace and a ray in turn, `traces` in all. */
static void walk(const char *name, const blvl_trace_world *w, const float p[3], int traces,
                 tally *t, blvl_trace_stats *st, walk_hook hook) {
    float at[2][3];
    blvl_trace_result prev[2];
    for (int c = 0; c < 2; c++) {
        memcpy(at[c], p, sizeof at[c]);
        prev[c].fraction = 1;
    }
    for (int i = 0; i < traces; i++) {
        int box = i & 1;
        if (hook && i % 1000 == 0)
            hook(w, t, st);
        float e[3], s[3];
        memcpy(s, at[box], sizeof s);
        rnd_end(s, i >> 1, e);
        blvl_trace_result r;
        blvl_trace_box_stats(w, NULL, s, e, box ? box_lo : NULL, box ? box_hi : NULL, &r, st);
        t->traces++;
        if (r.startsolid) {
            if (++t->stuck <= 5)
                fprintf(stderr, "%s: %s trace %d starts in solid at (%.9g %.9g %.9g)\n", name,
                        box ? "box" : "ray", i, s[0], s[1], s[2]);
            continue;
        }
        if (r.fraction < 1) {
            check_stop(name, w, s, e, &r, &prev[box], box, t);
            prev[box] = r;
        }
        memcpy(at[box], r.endpos, sizeof at[box]);
    }
}

/* The walk over one world from a free spot within [lo, hi], its checks and its line of output.
 * Returns the back-offs seen. */
static unsigned long long run_world(const char *name, const blvl_trace_world *w, const float lo[3],
                                    const float hi[3], int traces, walk_hook hook) {
    float p[3];
    int found = free_start(w, lo, hi, p);
    CHECK(found);
    if (!found)
        return 0;
    tally t = {0};
    blvl_trace_stats st = {0, 0, 0, 0};
    walk(name, w, p, traces, &t, &st, hook);
    CHECK_EQ_INT(t.stuck, 0);
    CHECK_EQ_INT(t.bad, 0);
    CHECK(t.stops > t.traces / 4); /* the walk meets the level */
    /* the control: the check refuses most wrong planes */
    CHECK(t.control > 1000 && t.control_failed * 2 > t.control);
    printf("%s: %ld chained traces, %ld stops (%llu backed off): every reported plane touches "
           "the box at the stop (%ld off, worst by %.4f); control: %ld of %ld wrong planes "
           "refused\n",
           name, t.traces, t.stops, (unsigned long long)st.backoffs, t.bad, t.worst,
           t.control_failed, t.control);
    return st.backoffs;
}

#endif
