/* blvl-trace on real maps (OpenArena's pak1-maps.pk3, baked by the Quake 3 importer):
 *   - on each of five maps, random player-box traces and rays, short and long, from random
 *     points of the map's bounds (in solid or not), through the hierarchy and by brute force
 *     (blvl_trace_box_brute, every collider): fraction, end, startsolid, allsolid and the
 *     collider hit agree on every one;
 *   - a chained walk on one map (each trace starts where the previous one stopped, random
 *     directions, 16-512 qu): no trace ever starts in solid (docs/TRACE.md, "Every stop is
 *     free"), and its control: the same walk through a move whose unbacked stop is in solid
 *     fails with the back-off switched off.
 * Fewer brute-force traces under the sanitizers (BLVL_SANITIZED=1). Skips (77) when the maps are
 * not installed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/trace.h"
#include "check.h"
#include "support/q3_map.h"
#include "support/rnd.h"
#include "trace/trace_internal.h"

static const char *const maps[] = {"maps/oa_ctf2.bsp", "maps/oa_dm1.bsp", "maps/oa_rpg3dm2.bsp",
                                   "maps/ctf_inyard.bsp", "maps/islandctf.bsp"};
#define WALK_MAP "maps/oa_rpg3dm2.bsp"
#define WALK_TRACES 100000

/* The Quake 3 player box in blvl axes (Quake -15 -15 -24 .. 15 15 32, z up -> y up). */
static const float box_lo[3] = {-15, -24, -15}, box_hi[3] = {15, 32, 15};

static uint64_t rng = 0x853C49E6748FEA9Bull;
static double rnd(void) {
    return test_rnd(&rng);
}

static void rnd_end(const float s[3], double lmin, double lmax, float e[3]) {
    double d[3], l = test_rnd_ball(&rng, d);
    double want = lmin + (lmax - lmin) * rnd();
    for (int k = 0; k < 3; k++)
        e[k] = (float)(s[k] + want * d[k] / l);
}

static int same(const blvl_trace_result *a, const blvl_trace_result *b) {
    return a->fraction == b->fraction && !memcmp(a->endpos, b->endpos, sizeof a->endpos) &&
           a->startsolid == b->startsolid && a->allsolid == b->allsolid &&
           a->collider == b->collider;
}

/* The bounds of every collider of the world; returns the collider count. */
static uint32_t world_bounds(const blvl_trace_world *w, float lo[3], float hi[3]) {
    uint32_t nc = blvl_trace_world_collider_count(w);
    for (int k = 0; k < 3; k++)
        lo[k] = INFINITY, hi[k] = -INFINITY;
    for (uint32_t i = 0; i < nc; i++) {
        float a[3], b[3];
        if (!blvl_trace_world_bounds(w, i, a, b))
            continue;
        for (int k = 0; k < 3; k++)
            lo[k] = fminf(lo[k], a[k]), hi[k] = fmaxf(hi[k], b[k]);
    }
    return nc;
}

static void compare(const char *name, const blvl_trace_world *w, int traces) {
    float lo[3], hi[3];
    uint32_t nc = world_bounds(w, lo, hi);
    int bad = 0, hits = 0;
    for (int i = 0; i < traces; i++) {
        float s[3], e[3];
        for (int k = 0; k < 3; k++)
            s[k] = (float)(lo[k] + (hi[k] - lo[k]) * rnd());
        int shrt = i % 2, box = (i / 2) % 2;
        rnd_end(s, shrt ? 16 : 512, shrt ? 512 : 4096, e);
        blvl_trace_result a, b;
        blvl_trace_box(w, NULL, s, e, box ? box_lo : NULL, box ? box_hi : NULL, &a);
        blvl_trace_box_brute(w, NULL, s, e, box ? box_lo : NULL, box ? box_hi : NULL, &b);
        hits += a.fraction < 1;
        if (!same(&a, &b)) {
            if (++bad <= 5)
                fprintf(stderr,
                        "%s: %s from (%.9g %.9g %.9g) to (%.9g %.9g %.9g): hierarchy fraction %.9g "
                        "collider %u startsolid %d, brute force %.9g collider %u startsolid %d\n",
                        name, box ? "box" : "ray", s[0], s[1], s[2], e[0], e[1], e[2], a.fraction,
                        a.collider, a.startsolid, b.fraction, b.collider, b.startsolid);
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(hits > traces / 4); /* the traces meet the map */
    printf("%s: %u colliders, %d traces and rays: hierarchy = brute force (%d hit)\n", name, nc,
           traces, hits);
}

/* The chained walk from p: each trace starts where the previous one stopped, the first one
 * towards `first` when given; returns how many traces started in solid (it stops at the
 * first). */
static int walk_from(const char *name, const blvl_trace_world *w, float p[3], const float *first,
                     int traces, int *moved, blvl_trace_stats *st) {
    int stuck = 0;
    blvl_trace_result r;
    for (int i = 0; i < traces; i++) {
        float e[3];
        if (i == 0 && first)
            memcpy(e, first, sizeof e);
        else
            rnd_end(p, 16, 512, e);
        blvl_trace_box_stats(w, NULL, p, e, box_lo, box_hi, &r, st);
        if (r.startsolid) {
            if (++stuck <= 5)
                fprintf(stderr, "%s: walk trace %d starts in solid at (%.9g %.9g %.9g)\n", name, i,
                        p[0], p[1], p[2]);
            break;
        }
        *moved += r.fraction > 0;
        memcpy(p, r.endpos, sizeof r.endpos);
    }
    return stuck;
}

static void walk(const char *name, blvl_trace_world *w) {
    /* a free start: the first spot on a vertical line through the map's middle */
    float lo[3], hi[3];
    world_bounds(w, lo, hi);
    float p[3];
    blvl_trace_result r;
    int found = 0;
    for (int tries = 0; tries < 100000 && !found; tries++) {
        for (int k = 0; k < 3; k++)
            p[k] = (float)(lo[k] + (hi[k] - lo[k]) * rnd());
        blvl_trace_box(w, NULL, p, p, box_lo, box_hi, &r);
        float down[3] = {p[0], p[1] - 512, p[2]};
        blvl_trace_result g;
        blvl_trace_ray(w, NULL, p, down, &g);
        found = !r.startsolid && g.fraction < 1;
    }
    CHECK(found);
    if (!found)
        return;
    blvl_trace_stats st = {0, 0, 0, 0};
    int moved = 0;
    CHECK_EQ_INT(walk_from(name, w, p, NULL, WALK_TRACES, &moved, &st), 0);
    CHECK(moved > WALK_TRACES / 2);
    printf("%s: chained walk of %d box traces never started in solid (%llu stops backed off)\n",
           name, WALK_TRACES, (unsigned long long)st.backoffs);
    /* The control: a move of this map whose stop, pulled back only by DIST_EPSILON, overlaps a
     * second solid (test_trace_backoff has the two colliders). With the back-off switched off
     * (for tests only) the walk through it must fail; with it, it must not. */
    const float from[3] = {365.207153f, 255.90773f, -1729.01111f};
    const float to[3] = {383.122955f, 398.850006f, -1728.96704f};
    blvl_trace_stats cst = {0, 0, 0, 0};
    int fails[2];
    for (int off = 1; off >= 0; off--) {
        memcpy(p, from, sizeof p);
        blvl__trace_world_set_no_backoff(w, off);
        fails[off] =
            walk_from(off ? "control (back-off off, expected)" : name, w, p, to, 100, &moved, &cst);
    }
    CHECK_EQ_INT(fails[1], 1);
    CHECK_EQ_INT(fails[0], 0);
    CHECK(cst.backoffs >= 1);
    printf("%s: control: with the back-off off the walk starts in solid after its first trace; "
           "with it, 100 traces never do\n",
           name);
}

static void run_map(blvl_q3_fs *fs, const char *name, int traces) {
    test_q3_map m;
    blvl_trace_world *w = NULL;
    blvl_error err;
    if (test_q3_map_bake(&m, fs, name) != BLVL_OK) {
        CHECK(0);
    } else if (blvl_trace_world_from_level(&w, m.level, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        CHECK(0);
    } else {
        compare(name, w, traces);
        if (!strcmp(name, WALK_MAP))
            walk(name, w);
    }
    blvl_trace_world_free(w);
    test_q3_map_free(&m);
}

int main(void) {
    blvl_q3_fs *fs;
    int rc = test_q3_maps_open("test_trace_maps", &fs);
    if (rc)
        return rc;
    const char *san = getenv("BLVL_SANITIZED");
    int traces = san && *san && strcmp(san, "0") ? 1000 : 10000;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        run_map(fs, maps[i], traces);
    blvl_q3_fs_free(fs);
    return check_report("test_trace_maps");
}
