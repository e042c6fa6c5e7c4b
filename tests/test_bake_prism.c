/* Prisms with cheap checks (src/bake/known_prism.c): the templates equal the loops written out
 * here by hand; on random prisms (Riot cells at any place and height, triangles with corners
 * anywhere, thicknesses down to 1/128 qu, both diagonals, bends down to one height step, corners
 * pushed toward the lines of their neighbours) every prism the cheap checks accept passes
 * known.c's general checks too, and the model stores it exactly as the known-hull path would
 * (same corners, same face loops, same bounds). Controls: a far corner off by one float step, the
 * wrong diagonal, a NaN and a coordinate past the limit are refused by the cheap checks and still
 * give the known path's collider. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/model/fast.h"
#include "bake/model/model.h"
#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "check.h"
#include "support/prism_loops.h"

static uint64_t rng = 2027;
static int urand(int n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (int)((rng >> 33) % (uint64_t)n);
}

static int same_collider(const bake_collider *x, const bake_collider *y) {
    const bake_shape *a = &x->shape, *b = &y->shape;
    if (a->kind != b->kind || a->vertex_count != b->vertex_count ||
        a->face_count != b->face_count || a->face_index_count != b->face_index_count ||
        x->c.flags != y->c.flags || x->c.material != y->c.material || x->c.door != y->c.door ||
        x->c.gametypes != y->c.gametypes || x->c.source_kind != y->c.source_kind ||
        x->c.source_entity != y->c.source_entity || x->c.symbol != y->c.symbol)
        return 0; /* field by field: the struct's padding is not the model's */
    return !memcmp(a->vertices, b->vertices, a->vertex_count * sizeof *a->vertices) &&
           !memcmp(a->face_sizes, b->face_sizes, a->face_count * sizeof *a->face_sizes) &&
           !memcmp(a->face_indices, b->face_indices, a->face_index_count * sizeof(uint32_t)) &&
           !memcmp(&a->lo, &b->lo, sizeof a->lo) && !memcmp(&a->hi, &b->hi, sizeof a->hi);
}

/* Adds the prism both ways (cheap path, known path) and checks the two colliders are one. */
static int both(blvl_bake *b, const blvl_Vec3 *p, int n, int split, int up) {
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    faces f;
    prism_loops(&f, n, split, up);
    uint32_t i0 = 0, i1 = 0;
    CHECK(blvl__bake_model_add_prism(b, &c, p, (uint32_t)n, split, up, &i0, NULL) == BLVL_OK);
    CHECK(blvl__bake_model_add_known_hull(b, &c, p, 2u * (uint32_t)n, f.sizes, f.n, f.idx, &i1,
                                          NULL) == BLVL_OK);
    if (i0 == BLVL_BAKE_NONE || i1 == BLVL_BAKE_NONE)
        return i0 == i1;
    bake_collider_view v0, v1;
    return same_collider(blvl__bake_model_collider_at(b, i0, &v0),
                         blvl__bake_model_collider_at(b, i1, &v1));
}

static float step_h(void) { /* heights: small, large, and near the limit */
    int k = urand(4);
    double h = k == 0   ? urand(4000) - 2000
               : k == 1 ? (urand(2000000) - 1000000) / 16.0
               : k == 2 ? (double)(urand(2000) - 1000) * 8192.0
                        : 16777000.0 - urand(400);
    return (float)h;
}

/* A level of prisms written and read back: every hull's corners as given and its loops the
 * template's, whether its shape shares them (two cells of one template, a triangle) or not (a
 * planar quad through known.c); the sections verify. */
static void written(void) {
    blvl_bake *b = NULL;
    CHECK(blvl_bake_new(&b, NULL, NULL) == BLVL_OK);
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    blvl_Vec3 p[4][8];
    const int n[4] = {4, 4, 3, 4}, split[4] = {1, 1, -1, -1};
    const float h[4][4] = {{0, 0, 0, 8}, {8, 8, 8, 24}, {0, 4, 2, 0}, {0, 0, 0, 0}};
    for (int k = 0; k < 4; k++) {
        for (int q = 0; q < n[k]; q++) {
            /* a cell's corners a b / c d, or a triangle (0,0) (0,128) (128,0): counter-clockwise
             * seen from +Y */
            float x = n[k] == 4 ? (float)(128 * (q & 1)) : (q == 2 ? 128.0f : 0.0f);
            float z = n[k] == 4 ? (float)(128 * (q >= 2)) : (q == 1 ? 128.0f : 0.0f);
            p[k][q] = (blvl_Vec3){x + 256.0f * (float)k, h[k][q], z};
            p[k][n[k] + q] = (blvl_Vec3){p[k][q].x, p[k][q].y - 32, p[k][q].z};
        }
        CHECK(blvl__bake_convex_prism_ok(p[k], (uint32_t)n[k], split[k], false) == (k < 3));
        uint32_t idx = 99;
        CHECK(blvl__bake_model_add_prism(b, &c, p[k], (uint32_t)n[k], split[k], false, &idx,
                                         NULL) == BLVL_OK);
        CHECK_EQ_INT(idx, (uint32_t)k);
    }
    void *lv = NULL, *sy = NULL;
    size_t ls = 0, ss = 0;
    blvl_bake_stats st;
    blvl_error err;
    CHECK(blvl_bake_write_memory(b, &lv, &ls, &sy, &ss, &st, &err) == BLVL_OK);
    blvl_level *level = NULL;
    CHECK(blvl_open_memory(&level, lv, ls, NULL, &err) == BLVL_OK);
    CHECK(blvl_sections_verify(level, &err) == BLVL_OK);
    blvl_bytes by = {0};
    blvl_Sim sim = {0};
    CHECK(blvl_level_sim(level, &by, &sim, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Sim_colliders_len(sim), 4);
    for (uint32_t k = 0; k < 4 && k < blvl_Sim_colliders_len(sim); k++) {
        blvl_Hull hull = blvl_Collider_shape_as_Hull(blvl_Sim_colliders_at(sim, k));
        faces f;
        prism_loops(&f, n[k], split[k], 0);
        CHECK_EQ_INT(blvl_Hull_vertices_len(hull), 2u * (uint32_t)n[k]);
        CHECK_EQ_INT(blvl_Hull_face_sizes_len(hull), f.n);
        CHECK_EQ_INT(blvl_Hull_face_indices_len(hull), f.total);
        for (uint32_t v = 0; v < blvl_Hull_vertices_len(hull) && v < 8; v++) {
            blvl_Vec3 a = blvl_Hull_vertices_at(hull, v);
            CHECK(!memcmp(&a, &p[k][v], sizeof a));
        }
        for (uint32_t i = 0; i < f.n && i < blvl_Hull_face_sizes_len(hull); i++)
            CHECK_EQ_INT(blvl_Hull_face_sizes_at(hull, i), f.sizes[i]);
        for (uint32_t i = 0; i < f.total && i < blvl_Hull_face_indices_len(hull); i++)
            CHECK_EQ_INT(blvl_Hull_face_indices_at(hull, i), f.idx[i]);
    }
    blvl_bytes_free(&by);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_free(NULL, sy);
    blvl_bake_free(b);
}

int main(void) {
    written();
    /* the templates */
    for (int n = 3; n <= 4; n++)
        for (int split = -1; split <= (n == 4 ? 1 : -1); split++)
            for (int up = 0; up < 2; up++) {
                faces f, g;
                prism_loops(&f, n, split, up);
                blvl__bake_convex_prism_faces((uint32_t)n, split, up, g.sizes, g.idx, &g.n,
                                              &g.total);
                CHECK_EQ_INT(g.n, f.n);
                CHECK_EQ_INT(g.total, f.total);
                CHECK(!memcmp(g.sizes, f.sizes, f.n) && !memcmp(g.idx, f.idx, f.total));
            }
    static const double thick[] = {1.0 / 128, 1.0 / 32, 1.0 / 16, 0.07, 1, 4, 32, 64};
    int tried = 0, cheap = 0, comfortable = 0, comfortable_cheap = 0, wrong = 0;
    blvl_bake *b = NULL;
    CHECK(blvl_bake_new(&b, NULL, NULL) == BLVL_OK);
    for (int round = 0; round < 20000; round++) {
        int up = urand(2), n = urand(3) ? 4 : 3;
        double t = thick[urand(8)] * (up ? 1 : -1);
        double x0 = 128.0 * (urand(131072) - 65536), z0 = 128.0 * (urand(131072) - 65536);
        float base = step_h();
        blvl_Vec3 p[8];
        int split = -1, ridge = 1;
        if (n == 4) { /* a Riot cell: heights in steps of 2 world units (1/8 qu) */
            int h[4];
            int spread = urand(3) == 0 ? 3 : 2000;
            for (int q = 0; q < 4; q++)
                h[q] = 2 * (urand(2 * spread + 1) - spread);
            int ad = h[0] + h[3], bc = h[1] + h[2];
            split = urand(2);
            int picked = split ? ad : bc, other = split ? bc : ad;
            ridge = up ? picked < other : picked > other;
            for (int q = 0; q < 4; q++)
                p[q] = (blvl_Vec3){(float)(x0 + 128 * (q & 1)), (float)(base + h[q] / 16.0),
                                   (float)(z0 + 128 * (q >= 2))};
        } else { /* a triangle with corners anywhere, counter-clockwise seen from +Y */
            double ax = urand(1000) / 4.0, az = urand(1000) / 4.0;
            double bx = urand(1000) / 4.0, bz = urand(1000) / 4.0;
            double cx = urand(1000) / 4.0, cz = urand(1000) / 4.0;
            if (urand(4) == 0) { /* c pushed toward the line a-b */
                double s = urand(1000) / 1000.0, e = (urand(200) - 100) / 4096.0;
                cx = ax + s * (bx - ax) + e, cz = az + s * (bz - az) + e;
            }
            double cross = (cz - az) * (bx - ax) - (cx - ax) * (bz - az);
            if (cross < 0) { /* swap b and c */
                double tx = bx, tz = bz;
                bx = cx, bz = cz, cx = tx, cz = tz;
            }
            const double xz[3][2] = {{ax, az}, {bx, bz}, {cx, cz}};
            for (int q = 0; q < 3; q++)
                p[q] = (blvl_Vec3){(float)(x0 + xz[q][0]), (float)(base + urand(64) / 8.0),
                                   (float)(z0 + xz[q][1])};
        }
        for (int q = 0; q < n; q++)
            p[n + q] = (blvl_Vec3){p[q].x, (float)((double)p[q].y + t), p[q].z};
        faces f;
        prism_loops(&f, n, split, up);
        int fast = blvl__bake_convex_prism_ok(p, (uint32_t)n, split, up);
        int general = blvl__bake_convex_known_ok(p, 2u * (uint32_t)n, f.sizes, f.n, f.idx);
        tried++;
        cheap += fast;
        if (fast && !general) {
            wrong++;
            printf("accepted, general refuses: n %d split %d up %d t %g at (%g %g %g)\n", n, split,
                   up, t, p[0].x, p[0].y, p[0].z);
        }
        /* a Riot cell at a modest height, a ridge, 1 qu or more thick (Riot's are 4 and 32): must
         * take the cheap path unless its bend is near the margin */
        if (n == 4 && ridge && fabs(t) >= 1 && fabs((double)base) < 1e6) {
            double bend = fabs((double)(p[0].y + p[3].y) - (p[1].y + p[2].y)) / 2;
            if (bend >= 0.25) {
                comfortable++;
                comfortable_cheap += fast;
            }
        }
        if (round % 10 == 0)
            CHECK(both(b, p, n, split, up));
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK(comfortable > 1000);
    CHECK_EQ_INT(comfortable_cheap, comfortable);
    /* controls on one comfortable cell */
    blvl_Vec3 p[8];
    const float h[4] = {0, 0, 0, 8}; /* a-d is the ridge of a floor: split 1 */
    for (int q = 0; q < 4; q++) {
        p[q] = (blvl_Vec3){(float)(128 * (q & 1)), h[q], (float)(128 * (q >= 2))};
        p[4 + q] = (blvl_Vec3){p[q].x, p[q].y - 32, p[q].z};
    }
    CHECK(blvl__bake_convex_prism_ok(p, 4, 1, false));
    CHECK(!blvl__bake_convex_prism_ok(p, 4, 0, false));  /* the other diagonal: concave */
    CHECK(!blvl__bake_convex_prism_ok(p, 4, 1, true));   /* the far side on the wrong side */
    CHECK(!blvl__bake_convex_prism_ok(p, 4, -1, false)); /* planar quads go to known.c */
    blvl_Vec3 q[8];
    memcpy(q, p, sizeof q);
    q[5].x = nextafterf(q[5].x, 1000); /* a far corner one float step off */
    CHECK(!blvl__bake_convex_prism_ok(q, 4, 1, false));
    CHECK(both(b, q, 4, 1, 0));
    memcpy(q, p, sizeof q);
    q[2].y = NAN; /* refused, and then by the general hull too */
    CHECK(!blvl__bake_convex_prism_ok(q, 4, 1, false));
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    CHECK(blvl__bake_model_add_prism(b, &c, q, 4, 1, false, NULL, NULL) == BLVL_E_ARGUMENT);
    memcpy(q, p, sizeof q);
    for (int k = 0; k < 8; k++)
        q[k].x += 17000000.0f; /* past the limit: the known path's collider */
    CHECK(!blvl__bake_convex_prism_ok(q, 4, 1, false));
    CHECK(both(b, q, 4, 1, 0));
    CHECK(both(b, p, 4, -1, 0)); /* planar: the known path, the same */
    blvl_bake_free(b);
    printf("prisms: %d tried, %d through the cheap checks (%d of %d comfortable Riot cells), "
           "%d accepted that the general checks refuse\n",
           tried, cheap, comfortable_cheap, comfortable, wrong);
    return check_report("test_bake_prism");
}
