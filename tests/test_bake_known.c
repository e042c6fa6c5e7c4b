/* Hulls whose faces are known (src/bake/known.h): for random prisms over terrain cells (planar
 * quads, quads split along a diagonal, triangles; solid below and above) the known path must give
 * exactly the solid the general hull (hull.c) computes from the points alone: the same corners in
 * the same order and the same faces as cyclic loops. Controls: loops wound the wrong way, a
 * concave cell, a flat prism, a corner on an edge and a missing face must be refused (and the
 * model's known add then falls back to the general hull). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/model/fast.h"
#include "bake/convex/shapes.h"
#include "blvl/bake.h"
#include "check.h"
#include "support/prism_loops.h"

static uint64_t rng = 11;
static int urand(int n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (int)((rng >> 33) % (uint64_t)n);
}

/* Whether loop a (n corners) equals loop b up to where it starts. */
static int same_loop(const uint32_t *a, const uint32_t *b, uint32_t n) {
    for (uint32_t s = 0; s < n; s++) {
        uint32_t k = 0;
        while (k < n && a[k] == b[(k + s) % n])
            k++;
        if (k == n)
            return 1;
    }
    return 0;
}

/* Both shapes hold the same corners in order and the same faces (any order, any start). */
static int same_shape(const bake_shape *x, const bake_shape *y) {
    if (x->kind != y->kind || x->vertex_count != y->vertex_count ||
        x->face_count != y->face_count || x->face_index_count != y->face_index_count)
        return 0;
    if (memcmp(x->vertices, y->vertices, x->vertex_count * sizeof *x->vertices) ||
        memcmp(&x->lo, &y->lo, sizeof x->lo) || memcmp(&x->hi, &y->hi, sizeof x->hi))
        return 0;
    for (uint32_t f = 0, fx = 0; f < x->face_count; fx += x->face_sizes[f++]) {
        int found = 0;
        for (uint32_t g = 0, gy = 0; g < y->face_count && !found; gy += y->face_sizes[g++])
            found = x->face_sizes[f] == y->face_sizes[g] &&
                    same_loop(x->face_indices + fx, y->face_indices + gy, x->face_sizes[f]);
        if (!found)
            return 0;
    }
    return 1;
}

static int known(const blvl_Vec3 *p, uint32_t np, const faces *f, bake_shape *out) {
    bool ok = false;
    CHECK(blvl__bake_convex_shape_known(NULL, p, np, f->sizes, f->n, f->idx, out, &ok) == BLVL_OK);
    return ok;
}

/* A cell's corners at heights h (world units / 16 = qu, as the Riot bake), moved by dy. */
static void cell(blvl_Vec3 p[8], const int h[4], double dy, int x0, int z0) {
    for (int q = 0; q < 4; q++) {
        p[q] = (blvl_Vec3){(float)(128 * (x0 + (q & 1))), (float)(h[q] / 16.0),
                           (float)(128 * (z0 + (q >= 2)))};
        p[4 + q] = (blvl_Vec3){p[q].x, (float)(p[q].y + dy), p[q].z};
    }
}

int main(void) {
    int matched = 0, refused_ok = 0;
    for (int round = 0; round < 3000; round++) {
        int up = urand(2), kind = urand(3), x0 = urand(2000) - 1000, z0 = urand(2000) - 1000;
        double dy = up ? 64.0 : -(urand(2) ? 64.0 : 8.0);
        int h[4];
        for (int q = 0; q < 4; q++)
            h[q] = 2 * (urand(4000) - 2000);
        blvl_Vec3 p[8];
        faces f;
        uint32_t np = 8;
        if (kind == 0) { /* planar: d = b + c - a */
            h[3] = h[1] + h[2] - h[0];
            cell(p, h, dy, x0, z0);
            prism_loops(&f, 4, -1, up);
        } else if (kind == 1) { /* split along the diagonal that is the ridge seen from outside */
            if (h[0] + h[3] == h[1] + h[2])
                h[3] += 2;
            int ad_high = h[0] + h[3] > h[1] + h[2];
            /* floor (solid below): the higher diagonal; ceiling: the lower */
            int split = up ? !ad_high : ad_high;
            cell(p, h, dy, x0, z0);
            prism_loops(&f, 4, split, up);
        } else { /* a triangle a-c-b and its copy */
            cell(p, h, dy, x0, z0);
            blvl_Vec3 t[6] = {p[0], p[2], p[1], p[4], p[6], p[5]};
            memcpy(p, t, sizeof t);
            np = 6;
            prism_loops(&f, 3, -1, up);
        }
        bake_shape a, b;
        bool empty = true;
        int ok = known(p, np, &f, &a);
        CHECK(blvl__bake_convex_shape_hull(NULL, p, np, &b, &empty, NULL) == BLVL_OK);
        CHECK(!empty);
        CHECK(ok);
        if (ok && !empty) {
            int same = same_shape(&a, &b);
            CHECK(same);
            matched += same;
        }
        blvl__bake_convex_shape_free(NULL, &a);
        blvl__bake_convex_shape_free(NULL, &b);
        /* controls on the same points */
        faces w = f; /* every loop the wrong way round */
        for (uint32_t g = 0, o = 0; g < w.n; o += w.sizes[g++])
            for (uint32_t k = 0; k < w.sizes[g]; k++)
                w.idx[o + k] = f.idx[o + w.sizes[g] - 1 - k];
        int refused = !known(p, np, &w, &a);
        blvl__bake_convex_shape_free(NULL, &a);
        faces m = f; /* a face left out */
        m.total -= m.sizes[--m.n];
        refused += !known(p, np, &m, &a);
        blvl__bake_convex_shape_free(NULL, &a);
        CHECK_EQ_INT(refused, 2);
        refused_ok += refused == 2;
    }
    /* a concave cell: split along the lower diagonal of a floor */
    int h[4] = {0, 0, 0, 64};
    blvl_Vec3 p[8];
    faces f;
    bake_shape s;
    cell(p, h, -64, 0, 0);
    prism_loops(&f, 4, 0, 0); /* c-b is the lower diagonal here */
    CHECK(!known(p, 8, &f, &s));
    prism_loops(&f, 4, 1, 0); /* a-d: the ridge, accepted */
    CHECK(known(p, 8, &f, &s));
    blvl__bake_convex_shape_free(NULL, &s);
    /* flat: thinner than BAKE_FLAT */
    int flat[4] = {0, 0, 0, 0};
    cell(p, flat, -1.0 / 128, 0, 0);
    prism_loops(&f, 4, -1, 0);
    CHECK(!known(p, 8, &f, &s));
    /* a corner on an edge: d moved onto the line b-c of a planar top is no quad any more */
    cell(p, flat, -64, 0, 0);
    p[3] = (blvl_Vec3){64, 0, 64};
    p[7] = (blvl_Vec3){64, -64, 64};
    CHECK(!known(p, 8, &f, &s));
    /* the model's add: known faces and a fallback give one collider each */
    blvl_bake *b = NULL;
    CHECK(blvl_bake_new(&b, NULL, NULL) == BLVL_OK);
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    cell(p, flat, -64, 0, 0);
    uint32_t i0 = 99, i1 = 99, i2 = 99;
    CHECK(blvl__bake_model_add_known_hull(b, &c, p, 8, f.sizes, f.n, f.idx, &i0, NULL) == BLVL_OK);
    f.idx[0] ^= 1; /* broken loops: the general hull of the same points */
    CHECK(blvl__bake_model_add_known_hull(b, &c, p, 8, f.sizes, f.n, f.idx, &i1, NULL) == BLVL_OK);
    cell(p, flat, -1.0 / 128, 0, 0); /* flat: no collider, as blvl_bake_add_hull */
    CHECK(blvl__bake_model_add_known_hull(b, &c, p, 8, f.sizes, f.n, f.idx, &i2, NULL) == BLVL_OK);
    CHECK_EQ_INT(i0, 0);
    CHECK_EQ_INT(i1, 1);
    CHECK_EQ_INT(i2, BLVL_BAKE_NONE);
    bake_counts more = {.sources = 10,
                        .vertices = 20,
                        .indices = 30,
                        .surfaces = 5,
                        .colliders = 7,
                        .made_prisms = 3,
                        .tri_sources = 4};
    CHECK(blvl__bake_model_reserve_counts(b, &more, NULL) == BLVL_OK);
    more.vertices = BLVL_BAKE_NONE; /* past the tables' limit */
    CHECK(blvl__bake_model_reserve_counts(b, &more, NULL) == BLVL_E_ARGUMENT);
    blvl_bake_free(b);
    printf("known hulls: %d of 3000 random prisms equal to the general hull, %d with both "
           "controls refused\n",
           matched, refused_ok);
    return check_report("test_bake_known");
}
