/* blvl-trace on hand-built levels: the Quake trace semantics, a rotated box given with
 * crossed loops, wedge bevels, stairs, thin walls, masks and filters, water, gametypes, doors,
 * reports, the caller's allocator and concurrent traces. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_trace_shapes.h"

static const double IDENT[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const float PMINS[3] = {-16, -16, -24}, PMAXS[3] = {16, 16, 32};

#define NEAR(a, b, tol) (fabs((double)(a) - (double)(b)) <= (tol))

static blvl_trace_world *world_of(const blvl_trace_collider_desc *d, uint32_t n) {
    blvl_trace_world *w = NULL;
    blvl_error err;
    CHECK(blvl_trace_world_new(&w, d, n, NULL, &err) == BLVL_OK);
    return w;
}

static void box_shape(shape *s, double x0, double y0, double z0, double x1, double y1, double z1) {
    double c[3] = {(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2};
    double h[3] = {(x1 - x0) / 2, (y1 - y0) / 2, (z1 - z0) / 2};
    shape_box(s, c, h, IDENT, 0);
}

static void test_unit_box(void) {
    shape s;
    box_shape(&s, -0.5, -0.5, -0.5, 0.5, 0.5, 0.5);
    blvl_trace_collider_desc d;
    shape_desc(&s, &d, 0);
    blvl_trace_world *w = world_of(&d, 1);
    if (!w)
        return;
    uint32_t n;
    blvl_trace_world_planes(w, 0, &n);
    CHECK_EQ_INT(n, 6); /* an axial box: its faces are its axial planes, no bevels */
    blvl_trace_result r;
    float a[3] = {-10, 0, 0}, b[3] = {10, 0, 0};
    blvl_trace_ray(w, NULL, a, b, &r);
    /* the ray stops DIST_EPSILON short of x = -0.5 */
    CHECK(NEAR(r.fraction, (9.5 - BLVL_TRACE_DIST_EPSILON) / 20, 1e-6));
    CHECK(NEAR(r.endpos[0], -0.5 - BLVL_TRACE_DIST_EPSILON, 1e-4));
    CHECK(NEAR(r.plane.normal.x, -1, 1e-6) && NEAR(r.plane.dist, 0.5, 1e-6));
    CHECK_EQ_INT(r.collider, 0);
    CHECK(!r.startsolid && !r.allsolid);
    /* a box of half-size 2 stops 2 units earlier */
    float mn[3] = {-2, -2, -2}, mx[3] = {2, 2, 2};
    blvl_trace_box(w, NULL, a, b, mn, mx, &r);
    CHECK(NEAR(r.endpos[0], -2.5 - BLVL_TRACE_DIST_EPSILON, 1e-4));
    /* start inside, leave: startsolid; start and end inside: allsolid, fraction 0 */
    float in[3] = {0, 0, 0}, in2[3] = {0.1f, 0.1f, 0};
    blvl_trace_ray(w, NULL, in, b, &r);
    CHECK(r.startsolid && !r.allsolid && r.fraction == 1);
    blvl_trace_ray(w, NULL, in, in2, &r);
    CHECK(r.startsolid && r.allsolid && r.fraction == 0 && r.collider == 0);
    /* a miss */
    float c[3] = {-10, 2, 0}, e[3] = {10, 2, 0};
    blvl_trace_ray(w, NULL, c, e, &r);
    CHECK(r.fraction == 1 && r.collider == BLVL_TRACE_NONE && r.endpos[0] == 10);
    /* point contents */
    uint32_t flags, col;
    CHECK_EQ_INT(blvl_trace_point_contents(w, NULL, in, &flags, &col), 1);
    CHECK_EQ_INT(col, 0);
    CHECK_EQ_INT(blvl_trace_point_contents(w, NULL, c, &flags, &col), 0);
    blvl_trace_world_free(w);
}

/* A box at an angle whose loops are listed corner by corner (crossed loops, docs/TRACE.md). */
static void test_crossed_rotated_box(void) {
    double r[3][3], c[3] = {0, 0, 0}, h[3] = {64, 8, 32};
    rot_euler(3.14159265358979 / 4, 0, 0, r); /* 45 degrees about +Y (up) */
    shape good, crossed;
    shape_box(&good, c, h, r, 0);
    shape_box(&crossed, c, h, r, 1);
    blvl_trace_collider_desc d[2];
    shape_desc(&good, &d[0], 0);
    shape_desc(&crossed, &d[1], 0);
    blvl_trace_world *wg = world_of(&d[0], 1), *wc = world_of(&d[1], 1);
    if (!wg || !wc)
        return;
    uint32_t nrep, ng, nc;
    blvl_trace_world_reports(wc, &nrep);
    CHECK_EQ_INT(nrep, 0);
    const blvl_Plane *pg = blvl_trace_world_planes(wg, 0, &ng);
    const blvl_Plane *pc = blvl_trace_world_planes(wc, 0, &nc);
    CHECK_EQ_INT(ng, nc);
    CHECK(ng > 6 + 6); /* faces, axial planes and bevels */
    for (uint32_t i = 0; i < ng && i < nc; i++)
        CHECK(NEAR(pg[i].normal.x, pc[i].normal.x, 1e-5) &&
              NEAR(pg[i].normal.z, pc[i].normal.z, 1e-5) && NEAR(pg[i].dist, pc[i].dist, 1e-3));
    /* Inside its bounding box, outside the box itself: a ray down the corner must pass. */
    float lo[3], hi[3];
    CHECK(blvl_trace_world_bounds(wc, 0, lo, hi));
    float a[3] = {hi[0] - 4, 100, hi[2] - 4}, b[3] = {hi[0] - 4, -100, hi[2] - 4};
    blvl_trace_result res;
    blvl_trace_ray(wc, NULL, a, b, &res);
    CHECK(res.fraction == 1);
    /* and through the middle it hits the rotated face, not an axial plane */
    float m0[3] = {100, 0, 100}, m1[3] = {0, 0, 0};
    blvl_trace_ray(wc, NULL, m0, m1, &res);
    CHECK(res.fraction < 1 && NEAR(fabs(res.plane.normal.x), sqrt(0.5), 1e-3));
    blvl_trace_world_free(wg);
    blvl_trace_world_free(wc);
}

/* A wedge whose sloped edge is not on an axis: a box sliding along the edge, just clear of it,
 * must not snag; the same box nudged into it must stop. */
static void test_wedge_edge(void) {
    shape s;
    double r[3][3], at[3] = {0, 0, 0};
    rot_euler(0.6, 0, 0, r); /* turn the wedge about +Y so its edges are off-axis */
    double tri[3][2] = {{0, 0}, {128, 0}, {0, 64}};
    shape_wedge(&s, tri, -64, 64, r, at);
    blvl_trace_collider_desc d;
    shape_desc(&s, &d, 0);
    blvl_trace_world *w = world_of(&d, 1);
    if (!w)
        return;
    ref_prepare(&s);
    /* Move along the wedge's long top edge (vertex 1 to vertex 2 direction, extruded) */
    int hits_clear = 0, misses_into = 0;
    for (int i = 0; i < 200; i++) {
        double u = rnd_in(0.1, 0.9), off = rnd_in(0.5, 2);
        double e[3] = {s.v[2].x - s.v[1].x, s.v[2].y - s.v[1].y, s.v[2].z - s.v[1].z};
        double p[3] = {s.v[1].x + e[0] * u, s.v[1].y + e[1] * u, s.v[1].z + e[2] * u};
        /* outward direction: away from the wedge's centroid, perpendicular to the edge */
        double cx = 0, cy = 0, cz = 0;
        for (int v = 0; v < 6; v++)
            cx += s.v[v].x / 6, cy += s.v[v].y / 6, cz += s.v[v].z / 6;
        double o[3] = {p[0] - cx, p[1] - cy, 0};
        double l = sqrt(o[0] * o[0] + o[1] * o[1]);
        o[0] /= l, o[1] /= l;
        /* push the box out until the reference says it is `off` clear */
        float st[3], en[3];
        double k = 0;
        do {
            k += 0.25;
            for (int j = 0; j < 3; j++)
                st[j] = (float)(p[j] + o[j] * k);
        } while (ref_gap(&s, st, PMINS, PMAXS) < off);
        for (int j = 0; j < 3; j++)
            en[j] = st[j] + (float)(e[j] * 0.3);
        if (ref_gap(&s, en, PMINS, PMAXS) < 0.2 || ref_enter(&s, st, en, PMINS, PMAXS) <= 1)
            continue;
        blvl_trace_result res;
        blvl_trace_box(w, NULL, st, en, PMINS, PMAXS, &res);
        hits_clear += res.fraction < 1;
        /* the same move, started 2 units into where the box would touch, must be stopped */
        float into[3];
        for (int j = 0; j < 3; j++)
            into[j] = (float)(en[j] - o[j] * (off + 2));
        if (ref_enter(&s, st, into, PMINS, PMAXS) <= 1) {
            blvl_trace_box(w, NULL, st, into, PMINS, PMAXS, &res);
            misses_into += res.fraction == 1;
        }
    }
    CHECK_EQ_INT(hits_clear, 0);
    CHECK_EQ_INT(misses_into, 0);
    blvl_trace_world_free(w);
}

/* Stairs: 8 steps of 16 up and 32 deep; a player box walking into the first step stops at its
 * riser, one dropped onto a tread lands on it. */
static void test_stairs_and_thin_wall(void) {
    shape steps[9];
    blvl_trace_collider_desc d[9];
    for (int i = 0; i < 8; i++) {
        box_shape(&steps[i], 32.0 * i, -64, 0, 32.0 * i + 32, 64, 16.0 * (i + 1));
        shape_desc(&steps[i], &d[i], 0);
    }
    box_shape(&steps[8], -500, -500, 100, 500, 500, 100.25); /* a quarter-unit thin floor */
    shape_desc(&steps[8], &d[8], 0);
    blvl_trace_world *w = world_of(d, 9);
    if (!w)
        return;
    blvl_trace_result r;
    float a[3] = {-100, 0, 41}, b[3] = {100, 0, 41};
    /* feet at 41 - 24 = 17: the box clears step 0 (top 16) and meets step 1's riser at x 32 */
    blvl_trace_box(w, NULL, a, b, PMINS, PMAXS, &r);
    CHECK(r.fraction < 1 && NEAR(r.endpos[0], 32 - 16 - BLVL_TRACE_DIST_EPSILON, 1e-3));
    CHECK_EQ_INT(r.collider, 1);
    CHECK(NEAR(r.plane.normal.x, -1, 1e-6));
    float c[3] = {78, 0, 90}, e[3] = {78, 0, -10};
    blvl_trace_box(w, NULL, c, e, PMINS, PMAXS, &r);
    /* x 78 +-16 spans steps 1 (top 32) and 2 (top 48): lands on 48 */
    CHECK(NEAR(r.endpos[2], 48 + 24 + BLVL_TRACE_DIST_EPSILON, 1e-3));
    if (!NEAR(r.endpos[2], 48 + 24 + BLVL_TRACE_DIST_EPSILON, 1e-3))
        fprintf(stderr, "landed at %g on %u\n", r.endpos[2], r.collider);
    CHECK(NEAR(r.plane.normal.z, 1, 1e-6));
    /* a fast box never tunnels through the thin floor */
    float f0[3] = {300, 300, 5000}, f1[3] = {300, 300, 0};
    blvl_trace_box(w, NULL, f0, f1, PMINS, PMAXS, &r);
    CHECK(r.collider == 8 && NEAR(r.endpos[2], 100.25 + 24 + BLVL_TRACE_DIST_EPSILON, 2e-3));
    float g0[3] = {300, 300, 200}, g1[3] = {300, 300, -5000};
    blvl_trace_ray(w, NULL, g0, g1, &r);
    CHECK(r.collider == 8 && r.fraction < 1);
    blvl_trace_world_free(w);
}

/* The flag rules of docs/TRACE.md. Five walls across the x axis at x = 100, 200, ... */
static void test_masks(void) {
    const uint32_t flags[6] = {
        BLVL_COLLIDER_CLIP | BLVL_COLLIDER_SHOT_THROUGH,   /* player clip */
        BLVL_COLLIDER_LADDER | BLVL_COLLIDER_SHOT_THROUGH, /* ladder */
        BLVL_COLLIDER_PLAYER_THROUGH,                      /* projectile-only collision */
        BLVL_COLLIDER_WATER,                               /* water */
        BLVL_COLLIDER_CLIP,                                /* nodraw wall: clip, no bit 5 */
        0,                                                 /* plain wall */
    };
    shape s[6];
    blvl_trace_collider_desc d[6];
    for (int i = 0; i < 6; i++) {
        box_shape(&s[i], 100.0 * (i + 1), -64, -64, 100.0 * (i + 1) + 8, 64, 64);
        shape_desc(&s[i], &d[i], flags[i]);
    }
    d[3].material = 7;
    blvl_trace_world *w = world_of(d, 6);
    if (!w)
        return;
    blvl_trace_filter player = {0}, shot = {0};
    player.mover = BLVL_TRACE_AS_PLAYER;
    shot.mover = BLVL_TRACE_AS_SHOT;
    blvl_trace_result r;
    /* start in front of each wall and go through it */
    uint32_t expect_player[6] = {1, 1, 0, 0, 1, 1}, expect_shot[6] = {0, 0, 1, 0, 1, 1};
    for (int i = 0; i < 6; i++) {
        float a[3] = {100.0f * (i + 1) - 40, 0, 0}, b[3] = {100.0f * (i + 1) + 48, 0, 0};
        blvl_trace_box(w, &player, a, b, PMINS, PMAXS, &r);
        CHECK_EQ_INT(r.fraction < 1, expect_player[i]);
        if (r.fraction < 1)
            CHECK_EQ_INT(r.flags, flags[i]);
        blvl_trace_ray(w, &shot, a, b, &r);
        CHECK_EQ_INT(r.fraction < 1, expect_shot[i]);
        blvl_trace_filter custom = {0};
        custom.mover = BLVL_TRACE_AS_CUSTOM;
        custom.include = BLVL_COLLIDER_WATER; /* water is never swept, even asked for */
        blvl_trace_ray(w, &custom, a, b, &r);
        CHECK(r.fraction == 1);
        custom.include = BLVL_COLLIDER_CLIP;
        custom.exclude = BLVL_COLLIDER_SHOT_THROUGH;
        blvl_trace_ray(w, &custom, a, b, &r);
        CHECK_EQ_INT(r.fraction < 1, i == 4);
    }
    /* water: only the point query sees it */
    float in[3] = {404, 0, 0}, out[3] = {0, 0, 0};
    uint32_t mat, col;
    CHECK(blvl_trace_point_water(w, NULL, in, &mat, &col) == 1 && mat == 7 && col == 3);
    CHECK(blvl_trace_point_water(w, NULL, out, &mat, &col) == 0 && col == BLVL_TRACE_NONE);
    CHECK_EQ_INT(blvl_trace_point_contents(w, NULL, in, NULL, NULL), 0);
    /* the player is inside the ladder, the shot is not */
    float lad[3] = {204, 0, 0};
    CHECK_EQ_INT(blvl_trace_point_contents(w, &player, lad, NULL, NULL), 1);
    CHECK_EQ_INT(blvl_trace_point_contents(w, &shot, lad, NULL, NULL), 0);
    /* skip set: a shattered wall */
    uint32_t skip = 1u << 5;
    blvl_trace_filter sk = {0};
    sk.skip = &skip;
    sk.skip_words = 1;
    float a[3] = {560, 0, 0}, b[3] = {700, 0, 0};
    blvl_trace_ray(w, &sk, a, b, &r);
    CHECK(r.fraction == 1);
    blvl_trace_world_free(w);
}

static void test_gametypes(void) {
    shape s;
    box_shape(&s, 100, -64, -64, 108, 64, 64);
    blvl_trace_collider_desc d;
    shape_desc(&s, &d, 0);
    d.gametypes = 1u << 6; /* capture the flag only */
    blvl_trace_world *w = world_of(&d, 1);
    if (!w)
        return;
    blvl_trace_filter f = {0};
    blvl_trace_result r;
    float a[3] = {0, 0, 0}, b[3] = {200, 0, 0};
    blvl_trace_ray(w, &f, a, b, &r); /* 0: no filtering */
    CHECK(r.fraction < 1);
    f.gametypes = 1u << 0;
    blvl_trace_ray(w, &f, a, b, &r);
    CHECK(r.fraction == 1);
    f.gametypes = 1u << 6;
    blvl_trace_ray(w, &f, a, b, &r);
    CHECK(r.fraction < 1);
    blvl_trace_world_free(w);
    /* A mask of no match type: hidden from every match type, seen when nothing filters (a
     * reader that ignores the field gets the whole map). */
    d.gametypes = 0;
    w = world_of(&d, 1);
    if (!w)
        return;
    f.gametypes = 0;
    blvl_trace_ray(w, &f, a, b, &r);
    CHECK(r.fraction < 1);
    blvl_trace_ray(w, NULL, a, b, &r);
    CHECK(r.fraction < 1);
    f.gametypes = BLVL_TRACE_ALL_GAMETYPES;
    blvl_trace_ray(w, &f, a, b, &r);
    CHECK(r.fraction == 1);
    blvl_trace_world_free(w);
}

static void test_doors(void) {
    /* a door panel 64 wide (x 0..64), 8 thick (y -4..4), 128 tall; hinge at x = 0 */
    shape s;
    box_shape(&s, 0, -4, 0, 64, 4, 128);
    blvl_trace_collider_desc d[2];
    shape_desc(&s, &d[0], 0);
    d[0].door = 3;
    /* the same door given as stored planes */
    static blvl_Plane pl[6] = {{{1, 0, 0}, 64}, {{-1, 0, 0}, 0},  {{0, 1, 0}, 4},
                               {{0, -1, 0}, 4}, {{0, 0, 1}, 128}, {{0, 0, -1}, 0}};
    blvl_trace_collider_desc_init(&d[1]);
    d[1].shape = BLVL_TRACE_SHAPE_PLANES;
    d[1].planes = pl;
    d[1].plane_count = 6;
    d[1].door = 4;
    d[1].lo = (blvl_Vec3){0, -4, 0};
    d[1].hi = (blvl_Vec3){64, 4, 128};
    blvl_trace_world *w = world_of(d, 2);
    if (!w)
        return;
    blvl_trace_doors *doors = NULL;
    blvl_error err;
    CHECK(blvl_trace_doors_new(&doors, w, &err) == BLVL_OK);
    if (!doors) {
        blvl_trace_world_free(w);
        return;
    }
    blvl_trace_filter f = {0};
    f.doors = doors;
    blvl_trace_result r;
    float a[3] = {32, -100, 64}, b[3] = {32, 100, 64};
    blvl_trace_box(w, &f, a, b, PMINS, PMAXS, &r);
    CHECK(r.fraction < 1 && NEAR(r.endpos[1], -4 - 16 - BLVL_TRACE_DIST_EPSILON, 1e-3));
    /* slide door 3 up by 200: the passage opens; door 4 still closes it */
    blvl_trace_transform xf;
    float up[3] = {0, 0, 1};
    CHECK(blvl_trace_transform_slide(&xf, up, 200, &err) == BLVL_OK);
    CHECK(blvl_trace_doors_set(doors, 3, &xf, &err) == BLVL_OK);
    blvl_trace_box(w, &f, a, b, PMINS, PMAXS, &r);
    CHECK(r.fraction < 1 && r.collider == 1);
    CHECK(blvl_trace_doors_set(doors, 4, &xf, &err) == BLVL_OK);
    blvl_trace_box(w, &f, a, b, PMINS, PMAXS, &r);
    CHECK(r.fraction == 1);
    /* the door where it slid to */
    float h0[3] = {32, -100, 264}, h1[3] = {32, 100, 264};
    blvl_trace_box(w, &f, h0, h1, PMINS, PMAXS, &r);
    CHECK(r.fraction < 1);
    /* no doors passed: closed pose */
    blvl_trace_box(w, NULL, a, b, PMINS, PMAXS, &r);
    CHECK(r.fraction < 1);
    /* swing door 3 by 90 degrees about the vertical hinge at x = 0: it now lies along y */
    float origin[3] = {0, 0, 0}, axis[3] = {0, 0, 1};
    CHECK(blvl_trace_transform_swing(&xf, origin, axis, 90, &err) == BLVL_OK);
    CHECK(blvl_trace_doors_set(doors, 3, &xf, &err) == BLVL_OK);
    CHECK(blvl_trace_doors_set(doors, 4, NULL, &err) == BLVL_OK); /* 4 closed again */
    float s0[3] = {-100, 32, 64}, s1[3] = {100, 32, 64};
    blvl_trace_ray(w, &f, s0, s1, &r);
    CHECK(r.fraction < 1 && r.collider == 0 &&
          NEAR(r.endpos[0], -4 - BLVL_TRACE_DIST_EPSILON, 1e-3));
    /* swung by 45 degrees: a box sliding along the panel's rotated edge must not snag */
    CHECK(blvl_trace_transform_swing(&xf, origin, axis, 45, &err) == BLVL_OK);
    CHECK(blvl_trace_doors_set(doors, 3, &xf, &err) == BLVL_OK);
    CHECK(blvl_trace_doors_set(doors, 4, &xf, &err) == BLVL_OK); /* same pose, from planes */
    shape moved;
    double c45 = sqrt(0.5), rot[3][3] = {{c45, -c45, 0}, {c45, c45, 0}, {0, 0, 1}};
    double cen[3] = {32 * c45, 32 * c45, 64}, half[3] = {32, 4, 64};
    shape_box(&moved, cen, half, rot, 0);
    ref_prepare(&moved);
    int bad = 0, hits = 0;
    for (int i = 0; i < 400; i++) {
        float st[3], en[3];
        for (int k = 0; k < 3; k++) {
            st[k] = (float)rnd_in(-120, 120) + (k == 2 ? 64 : 0);
            en[k] = st[k] + (float)rnd_in(-80, 80);
        }
        double g = ref_gap(&moved, st, PMINS, PMAXS);
        if (fabs(g) < 0.05)
            continue;
        double t = ref_enter(&moved, st, en, PMINS, PMAXS);
        blvl_trace_box(w, &f, st, en, PMINS, PMAXS, &r);
        if (g < 0) {
            bad += !r.startsolid;
            continue;
        }
        hits += t <= 1;
        double len = sqrt((en[0] - st[0]) * (en[0] - st[0]) + (en[1] - st[1]) * (en[1] - st[1]) +
                          (en[2] - st[2]) * (en[2] - st[2]));
        if ((r.fraction - (t > 1 ? 1 : t)) * len > 0.02)
            bad++;
        if (r.fraction < 1 && ref_gap(&moved, r.endpos, PMINS, PMAXS) > 0.25)
            bad++;
    }
    CHECK(hits > 20);
    CHECK_EQ_INT(bad, 0);
    /* a bad transform is refused */
    xf.rot[0][0] = 2;
    CHECK(blvl_trace_doors_set(doors, 3, &xf, &err) == BLVL_E_ARGUMENT);
    blvl_trace_doors_free(doors);
    blvl_trace_world_free(w);
}

typedef struct heard {
    blvl_trace_report r[8];
    uint32_t n;
} heard;

static void hear(void *user, const blvl_trace_report *report) {
    heard *h = user;
    if (h->n < 8)
        h->r[h->n] = *report;
    h->n++;
}

static void test_reports(void) {
    blvl_trace_collider_desc d[4];
    /* 0: no shape */
    blvl_trace_collider_desc_init(&d[0]);
    /* 1: a hull with a collinear face and an out-of-range index */
    static blvl_Vec3 v[8];
    shape s;
    box_shape(&s, 0, 0, 0, 10, 10, 10);
    memcpy(v, s.v, sizeof v);
    static uint32_t sizes[8], idx[40];
    memcpy(sizes, s.sizes, 6 * sizeof(uint32_t));
    memcpy(idx, s.idx, 24 * sizeof(uint32_t));
    sizes[6] = 3, idx[24] = 0, idx[25] = 1, idx[26] = 0; /* a face that encloses nothing */
    sizes[7] = 3, idx[27] = 0, idx[28] = 1, idx[29] = 99;
    shape_desc(&s, &d[1], 0);
    d[1].vertices = v;
    d[1].face_sizes = sizes;
    d[1].face_count = 8;
    d[1].face_indices = idx;
    d[1].face_index_count = 30;
    /* 2: stored planes with a zero normal */
    static blvl_Plane pl[7] = {{{1, 0, 0}, 1}, {{-1, 0, 0}, 1}, {{0, 1, 0}, 1}, {{0, -1, 0}, 1},
                               {{0, 0, 1}, 1}, {{0, 0, -1}, 1}, {{0, 0, 0}, 1}};
    blvl_trace_collider_desc_init(&d[2]);
    d[2].shape = BLVL_TRACE_SHAPE_PLANES;
    d[2].planes = pl;
    d[2].plane_count = 7;
    /* 3: the crossed box with every loop crossed AND a degenerate one: still the box */
    blvl_trace_collider_desc_init(&d[3]);
    d[3].shape = BLVL_TRACE_SHAPE_HULL; /* no vertices */
    blvl_trace_world *w = world_of(d, 4);
    if (!w)
        return;
    uint32_t n;
    const blvl_trace_report *r = blvl_trace_world_reports(w, &n);
    CHECK_EQ_INT(n, 5);
    if (n == 5) {
        CHECK(r[0].collider == 0 && r[0].face == BLVL_TRACE_NONE);
        CHECK(r[1].collider == 1 && r[1].face == 6);
        CHECK(r[2].collider == 1 && r[2].face == 7);
        CHECK(r[3].collider == 2 && r[3].face == 6);
        CHECK(r[4].collider == 3 && r[4].face == BLVL_TRACE_NONE);
    }
    uint32_t np;
    blvl_trace_world_planes(w, 1, &np);
    CHECK_EQ_INT(np, 6); /* the good faces are still there */
    blvl_trace_world_planes(w, 0, &np);
    CHECK_EQ_INT(np, 0);
    /* The callback of blvl_trace_options hears each report as it is found, the same ones in the
     * same order. */
    heard h = {0};
    blvl_trace_options topt = {.report = hear, .report_user = &h};
    blvl_trace_world *w2 = NULL;
    blvl_error err;
    CHECK(blvl_trace_world_new(&w2, d, 4, &topt, &err) == BLVL_OK);
    CHECK_EQ_INT(h.n, 5);
    for (uint32_t i = 0; i < h.n && i < n; i++)
        CHECK(h.r[i].collider == r[i].collider && h.r[i].face == r[i].face &&
              strcmp(h.r[i].reason, r[i].reason) == 0);
    blvl_trace_world_free(w2);
    blvl_trace_world_free(w);
}

/* Planes colliders are used as stored: a plane whose normal is within 1e-3 of unit length is
 * kept bit for bit (no report), its bounds follow the stored plane (n_k x <= d); a normal off by
 * more is reported and normalised. */
static void test_planes_as_stored(void) {
    /* 9.99 / 0.99961 <= x <= 10.000123 / 0.9996 (normals off unit by ~4e-4), y, z in [-10, 10],
     * and a slanted plane whose float normal is not exactly unit */
    static blvl_Plane a[7] = {{{0.9996f, 0, 0}, 10.000123f},
                              {{-0.99961f, 0, 0}, -9.99f},
                              {{0, 1, 0}, 10},
                              {{0, -1, 0}, 10},
                              {{0, 0, 1}, 10},
                              {{0, 0, -1}, 10},
                              {{0.70710678f, 0.70710678f, 0}, 17.000017f}};
    static blvl_Plane b[6] = {{{2, 0, 0}, 20},  {{-1, 0, 0}, 10}, {{0, 1, 0}, 10},
                              {{0, -1, 0}, 10}, {{0, 0, 1}, 10},  {{0, 0, -1}, 10}};
    blvl_trace_collider_desc d[2];
    for (int i = 0; i < 2; i++) {
        blvl_trace_collider_desc_init(&d[i]);
        d[i].shape = BLVL_TRACE_SHAPE_PLANES;
        d[i].planes = i ? b : a;
        d[i].plane_count = i ? 6 : 7;
    }
    blvl_trace_world *w = world_of(d, 2);
    if (!w)
        return;
    uint32_t n = 0, nr = 0;
    const blvl_Plane *p = blvl_trace_world_planes(w, 0, &n);
    CHECK_EQ_INT(n, 7);
    if (n == 7)
        CHECK(memcmp(p, a, sizeof a) == 0); /* bit for bit */
    const blvl_trace_report *r = blvl_trace_world_reports(w, &nr);
    CHECK_EQ_INT(nr, 1);
    if (nr == 1)
        CHECK(r[0].collider == 1 && r[0].face == 0);
    p = blvl_trace_world_planes(w, 1, &n);
    CHECK_EQ_INT(n, 6);
    if (n == 6)
        CHECK(p[0].normal.x == 1.0f && p[0].dist == 10.0f);
    /* the culling bounds hold the solid as the stored planes cut it */
    float lo[3], hi[3];
    CHECK(blvl_trace_world_bounds(w, 0, lo, hi));
    CHECK(lo[0] <= 9.99 / 0.99961 + 1e-4 && lo[0] >= 9.99 / 0.99961 - 1e-3);
    CHECK(hi[0] >= 10.000123 / 0.9996 - 1e-4 && hi[0] <= 10.000123 / 0.9996 + 1e-3);
    /* a ray stopped by the stored +x plane: 1/32 off it along its own (stored) normal */
    blvl_trace_result res;
    float s[3] = {40, 0, 0}, e[3] = {20, 0, 0};
    blvl_trace_ray(w, NULL, s, e, &res);
    CHECK(res.collider == BLVL_TRACE_NONE);
    e[0] = 0;
    blvl_trace_ray(w, NULL, s, e, &res);
    CHECK_EQ_INT(res.collider, 0);
    double want = (10.000123f + BLVL_TRACE_DIST_EPSILON) / (double)0.9996f;
    CHECK(NEAR(res.endpos[0], want, 1e-4));
    CHECK(memcmp(&res.plane, &a[0], sizeof res.plane) == 0);
    blvl_trace_world_free(w);
}

/* Hostile and awkward inputs: a nearly axial stored plane must not shrink the culling bounds
 * below the solid; non-finite coordinates are answered as stuck. */
static void test_odd_inputs(void) {
    /* x <= 10 - 0.001 y (nearly axial), -10 <= x, |y| <= 5000, |z| <= 10: at y = -5000 the solid
     * reaches x = 15, past the plane's distance. */
    const double l = sqrt(1 + 1e-6);
    blvl_Plane pl[6] = {{{(float)(1 / l), (float)(1e-3 / l), 0}, (float)(10 / l)},
                        {{-1, 0, 0}, 10},
                        {{0, 1, 0}, 5000},
                        {{0, -1, 0}, 5000},
                        {{0, 0, 1}, 10},
                        {{0, 0, -1}, 10}};
    blvl_trace_collider_desc d;
    blvl_trace_collider_desc_init(&d);
    d.shape = BLVL_TRACE_SHAPE_PLANES;
    d.planes = pl;
    d.plane_count = 6;
    d.lo = (blvl_Vec3){-10, -5000, -10};
    d.hi = (blvl_Vec3){15, 5000, 10};
    blvl_trace_world *w = world_of(&d, 1);
    if (!w)
        return;
    float lo[3], hi[3];
    CHECK(blvl_trace_world_bounds(w, 0, lo, hi) && hi[0] >= 14.99f);
    blvl_trace_result r, rb;
    float a[3] = {30, -4990, 0}, b[3] = {0, -4990, 0};
    blvl_trace_ray(w, NULL, a, b, &r);
    blvl_trace_box_brute(w, NULL, a, b, NULL, NULL, &rb);
    CHECK(r.fraction < 1 && r.endpos[0] > 14.99f && r.endpos[0] < 15.03f); /* 14.99 + 1/32 */
    CHECK(r.fraction == rb.fraction);
    /* NaN and infinity: stuck, nothing named, the end is the start */
    float nan_[3] = {NAN, 0, 0}, inf_[3] = {0, INFINITY, 0}, z[3] = {100, 0, 0};
    blvl_trace_ray(w, NULL, z, nan_, &r);
    CHECK(r.allsolid && r.startsolid && r.fraction == 0 && r.collider == BLVL_TRACE_NONE);
    CHECK(r.endpos[0] == 100 && r.endpos[1] == 0);
    blvl_trace_box(w, NULL, z, z, inf_, inf_, &r);
    CHECK(r.allsolid && r.collider == BLVL_TRACE_NONE);
    blvl_trace_box_brute(w, NULL, nan_, z, NULL, NULL, &rb);
    CHECK(rb.allsolid && rb.collider == BLVL_TRACE_NONE);
    CHECK_EQ_INT(blvl_trace_point_contents(w, NULL, nan_, NULL, NULL), 0);
    /* no world: nothing is hit */
    blvl_trace_box_brute(NULL, NULL, z, a, NULL, NULL, &rb);
    CHECK(rb.fraction == 1 && rb.collider == BLVL_TRACE_NONE && rb.endpos[0] == 30);
    blvl_trace_world_free(w);
}

/* The caller's allocator: every byte handed out comes back with its size. */
typedef struct counting {
    long live;
    size_t bytes;
    int fail_after;
} counting;
static void *c_alloc(void *u, size_t n) {
    counting *c = u;
    if (c->fail_after == 0)
        return NULL;
    if (c->fail_after > 0)
        c->fail_after--;
    c->live++;
    c->bytes += n;
    return malloc(n);
}
static void c_free(void *u, void *p, size_t n) {
    counting *c = u;
    c->live--;
    c->bytes -= n;
    free(p);
}

static void test_allocator(void) {
    shape s[3];
    blvl_trace_collider_desc d[3];
    double r[3][3], c[3] = {0, 0, 0}, h[3] = {10, 20, 30};
    rot_euler(0.3, 0.2, 0.1, r);
    for (int i = 0; i < 3; i++) {
        shape_box(&s[i], c, h, r, i == 1);
        shape_desc(&s[i], &d[i], 0);
        c[0] += 100;
    }
    d[2].door = 0;
    for (int fail = -1; fail < 60; fail++) {
        counting cnt = {0, 0, fail};
        blvl_allocator al = {c_alloc, c_free, &cnt};
        blvl_trace_options o = {.base.allocator = al};
        blvl_trace_world *w = NULL;
        blvl_error err;
        blvl_status st = blvl_trace_world_new(&w, d, 3, &o, &err);
        if (fail < 0)
            CHECK(st == BLVL_OK);
        if (st == BLVL_OK) {
            blvl_trace_doors *dr = NULL;
            if (blvl_trace_doors_new(&dr, w, &err) == BLVL_OK) {
                blvl_trace_transform xf;
                float o3[3] = {0, 0, 0}, ax[3] = {0, 1, 0};
                blvl_trace_transform_swing(&xf, o3, ax, 30, &err);
                blvl_trace_doors_set(dr, 0, &xf, &err);
                blvl_trace_doors_free(dr);
            }
            blvl_trace_world_free(w);
        } else {
            CHECK(st == BLVL_E_NOMEM && w == NULL);
        }
        CHECK_EQ_INT(cnt.live, 0);
        CHECK_EQ_INT(cnt.bytes, 0);
        if (cnt.bytes)
            fprintf(stderr, "allocation %d failing: %zu bytes off\n", fail, cnt.bytes);
    }
}

/* Concurrent traces on one world give the single-threaded answers. */
#define TN 2000
typedef struct job {
    const blvl_trace_world *w;
    const float (*pts)[6];
    blvl_trace_result *out;
} job;
static void *run_job(void *u) {
    job *j = u;
    for (int i = 0; i < TN; i++)
        blvl_trace_box(j->w, NULL, j->pts[i], j->pts[i] + 3, PMINS, PMAXS, &j->out[i]);
    return NULL;
}

static void test_threads(void) {
    enum { NS = 200 };
    static shape s[NS];
    static blvl_trace_collider_desc d[NS];
    for (int i = 0; i < NS; i++) {
        double r[3][3], c[3] = {rnd_in(-1000, 1000), rnd_in(-1000, 1000), rnd_in(-200, 200)};
        double h[3] = {rnd_in(8, 64), rnd_in(8, 64), rnd_in(8, 64)};
        rot_euler(rnd_in(0, 3), 0, 0, r);
        shape_box(&s[i], c, h, r, i & 1);
        shape_desc(&s[i], &d[i], 0);
    }
    blvl_trace_world *w = world_of(d, NS);
    if (!w)
        return;
    static float pts[TN][6];
    for (int i = 0; i < TN; i++)
        for (int k = 0; k < 3; k++) {
            pts[i][k] = (float)rnd_in(-1000, 1000);
            pts[i][k + 3] = pts[i][k] + (float)rnd_in(-200, 200);
        }
    static blvl_trace_result single[TN], multi[4][TN];
    job j0 = {w, (const float(*)[6])pts, single};
    run_job(&j0);
    pthread_t th[4];
    job jobs[4];
    for (int t = 0; t < 4; t++) {
        jobs[t] = (job){w, (const float(*)[6])pts, multi[t]};
        CHECK(pthread_create(&th[t], NULL, run_job, &jobs[t]) == 0);
    }
    for (int t = 0; t < 4; t++)
        pthread_join(th[t], NULL);
    int diff = 0;
    for (int t = 0; t < 4; t++)
        diff += memcmp(single, multi[t], sizeof single) != 0;
    CHECK_EQ_INT(diff, 0);
    blvl_trace_world_free(w);
}

int main(void) {
    test_unit_box();
    test_crossed_rotated_box();
    test_wedge_edge();
    test_stairs_and_thin_wall();
    test_masks();
    test_gametypes();
    test_doors();
    test_reports();
    test_odd_inputs();
    test_planes_as_stored();
    test_allocator();
    test_threads();
    return check_report("test_trace_semantics");
}
