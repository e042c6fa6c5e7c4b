/* Made prisms (blvl__bake_model_add_prism_made, src/bake/known.h): a level whose prisms the bake
 * makes again from their keys when it writes must be byte for byte the level of the same prisms
 * given with their corners (level and .bsym), written twice. The level mixes made and given
 * colliders, every template (triangles, quads of each split, solid up and down), a door whose
 * bounds come from its made colliders, symbols, a named collider (stored, not made: the made form
 * has no name) and a prism the cheap checks refuse (stored through the general path). Indices,
 * counts and the order of colliders are the given level's. A maker that makes other corners than it
 * was checked with gives other bytes (the comparison can fail); misuse is refused at add. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/model/fast.h"
#include "bake/model/model.h"
#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "check.h"

enum { SIDE = 12 }; /* grid vertices a side */

/* The maker's grid: positions of SIDE x SIDE vertices 128 qu apart, heights from a pattern. */
typedef struct grid {
    blvl_Vec3 pos[SIDE * SIDE];
    double dy;
    float drift; /* added to every made y after the add when not 0: the control */
} grid;

static void make(const void *ctx, const uint32_t key[4], uint32_t n, blvl_Vec3 *out) {
    const grid *g = ctx;
    for (uint32_t q = 0; q < n; q++) {
        out[q] = g->pos[key[q]];
        out[q].y += g->drift;
        out[n + q] = out[q];
        out[n + q].y = (float)((double)out[q].y + g->dy);
    }
}

static void grid_init(grid *g, double dy, int salt) {
    memset(g, 0, sizeof *g);
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++) {
            blvl_Vec3 *p = &g->pos[r * SIDE + c];
            p->x = (float)(128 * c + 4096 * salt);
            p->z = (float)(128 * r);
            p->y = (float)((r * 7 + c * 3 + salt) % 5) * 8.0f + (r > SIDE / 2 ? 0.5f : 0.0f);
        }
    g->dy = dy;
}

/* Collider k's place and shape: a cell (quad, split -1 only where it is planar: flat rows) or
 * one of its triangles, both corners counter-clockwise seen from +Y as the Riot importer lays
 * them (a b / c d; triangles a-c-b, b-c-d). */
static uint32_t shape_of(int k, uint32_t key[4], int *split) {
    int cell = (k * 5) % ((SIDE - 1) * (SIDE - 1)), r = cell / (SIDE - 1), c = cell % (SIDE - 1);
    uint32_t a = (uint32_t)(r * SIDE + c), b = a + 1, cc = a + SIDE, d = a + SIDE + 1;
    switch (k % 4) {
    case 0: /* triangle a-c-b */
        key[0] = a, key[1] = cc, key[2] = b, key[3] = 0;
        *split = -1;
        return 3;
    case 1: /* triangle b-c-d */
        key[0] = b, key[1] = cc, key[2] = d, key[3] = 0;
        *split = -1;
        return 3;
    default: /* quad split along c-b or a-d */
        key[0] = a, key[1] = b, key[2] = cc, key[3] = d;
        *split = k % 4 == 2 ? 0 : 1;
        return 4;
    }
}

enum { COLLIDERS = 160 };

/* One level: grids 0 (floor, solid below) and 1 (ceiling, solid above); colliders k of
 * COLLIDERS made when `made` and k % 7 != 3 (the others given either way); collider 40 named,
 * collider 41 a flat quad the cheap checks refuse (split -1 over a non-planar cell is the
 * general path's), every collider with k % 9 == 0 the door's. */
static blvl_bake *level(bool made, grid *gs, uint32_t *index, uint32_t *made_count) {
    blvl_bake *b = NULL;
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, NULL), BLVL_OK);
    if (!b)
        return NULL;
    blvl_bake_door door;
    blvl_bake_door_init(&door);
    door.name = "lift";
    uint32_t di = 0, mk[2] = {0, 0};
    CHECK_EQ_INT(blvl_bake_add_door(b, &door, &di, NULL), BLVL_OK);
    for (int s = 0; s < 2; s++)
        CHECK_EQ_INT(blvl__bake_model_prism_maker(b, make, &gs[s], &mk[s], NULL), BLVL_OK);
    for (int k = 0; k < COLLIDERS; k++) {
        blvl_bake_source src = {0, (uint32_t)k, 0, 0, BLVL_BAKE_NONE, BLVL_BAKE_NONE};
        blvl_bake_collider c;
        blvl_bake_collider_init(&c);
        CHECK_EQ_INT(blvl_bake_add_source(b, &src, &c.symbol, NULL), BLVL_OK);
        c.flags = (uint32_t)(k % 3 == 0);
        c.door = k % 9 == 0 ? di : BLVL_BAKE_NONE;
        c.source_name = k == 40 ? "named" : NULL;
        uint32_t key[4];
        int split;
        uint32_t n = shape_of(k, key, &split), g = (uint32_t)(k / 2) % 2;
        if (k == 41)
            split = -1, n = 4;
        bool up = gs[g].dy > 0;
        blvl_status st;
        if (made && k % 7 != 3) {
            st = blvl__bake_model_add_prism_made(b, &c, mk[g], key, n, split, up, &index[k], NULL);
        } else {
            blvl_Vec3 p[8];
            make(&gs[g], key, n, p);
            st = blvl__bake_model_add_prism(b, &c, p, n, split, up, &index[k], NULL);
        }
        CHECK_EQ_INT(st, BLVL_OK);
    }
    *made_count = b->made_prisms.n;
    return b;
}

static void write_both(blvl_bake *b, void **l, size_t *n, void **s, size_t *m) {
    blvl_error e;
    CHECK_EQ_INT(blvl_bake_write_memory(b, l, n, s, m, NULL, &e), BLVL_OK);
}

int main(void) {
    grid ga[2], gb[2];
    grid_init(&ga[0], -8.0, 0), grid_init(&ga[1], 16.0, 1);
    gb[0] = ga[0], gb[1] = ga[1];
    uint32_t ia[COLLIDERS], ib[COLLIDERS], made_a = 0, made_b = 0;
    blvl_bake *given = level(false, ga, ia, &made_a), *made = level(true, gb, ib, &made_b);
    CHECK(given && made);
    if (!given || !made)
        return check_report("test_bake_made_prism");
    /* the made path was taken (all but the given, named and refused ones), the order kept */
    CHECK_EQ_INT(made_a, 0);
    CHECK(made_b > COLLIDERS / 2 && made_b < COLLIDERS);
    CHECK_EQ_INT(blvl__bake_model_collider_count(given), blvl__bake_model_collider_count(made));
    CHECK_MEM(ia, ib, sizeof ia);
    for (uint32_t i = 0; i < blvl__bake_model_collider_count(made); i++) {
        bake_collider_view va, vb;
        const bake_collider *x = blvl__bake_model_collider_at(given, i, &va);
        const bake_collider *y = blvl__bake_model_collider_at(made, i, &vb);
        CHECK(x->shape.vertex_count == y->shape.vertex_count && x->c.symbol == y->c.symbol &&
              x->shape.face_index_count == y->shape.face_index_count);
        CHECK_MEM(x->shape.face_indices, y->shape.face_indices,
                  x->shape.face_index_count * sizeof *x->shape.face_indices);
        CHECK_MEM(x->shape.vertices, y->shape.vertices,
                  x->shape.vertex_count * sizeof *x->shape.vertices);
        CHECK_MEM(&x->shape.lo, &y->shape.lo, sizeof x->shape.lo);
        CHECK_MEM(&x->shape.hi, &y->shape.hi, sizeof x->shape.hi);
    }

    void *l1 = NULL, *s1 = NULL, *l2 = NULL, *s2 = NULL, *l3 = NULL, *s3 = NULL;
    size_t n1 = 0, m1 = 0, n2 = 0, m2 = 0, n3 = 0, m3 = 0;
    write_both(given, &l1, &n1, &s1, &m1);
    write_both(made, &l2, &n2, &s2, &m2);
    write_both(made, &l3, &n3, &s3, &m3);
    CHECK(n1 > 0 && n1 == n2 && n2 == n3 && m1 > 0 && m1 == m2 && m2 == m3);
    if (n1 == n2 && n2 == n3 && m1 == m2 && m2 == m3) {
        CHECK_MEM(l1, l2, n1);
        CHECK_MEM(l2, l3, n1);
        CHECK_MEM(s1, s2, m1);
        CHECK_MEM(s2, s3, m1);
    }
    /* the level verifies; its sim holds every collider, the door its colliders' bounds */
    blvl_level *lv = NULL;
    blvl_error e;
    CHECK_EQ_INT(blvl_open_memory(&lv, l2, n2, NULL, &e), BLVL_OK);
    if (lv) {
        CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
        blvl_close(lv);
    }

    /* the control: a maker that makes other corners than the add checked gives other bytes */
    gb[1].drift = 0.25f;
    void *l4 = NULL, *s4 = NULL;
    size_t n4 = 0, m4 = 0;
    write_both(made, &l4, &n4, &s4, &m4);
    CHECK(n4 != n1 || memcmp(l4, l1, n1) != 0);
    gb[1].drift = 0;

    /* misuse refused, the model unchanged */
    uint32_t count = blvl__bake_model_collider_count(made), idx = 7,
             key[4] = {0, 1, SIDE, SIDE + 1};
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    CHECK_EQ_INT(blvl__bake_model_add_prism_made(made, &c, 2, key, 4, 0, false, &idx, &e),
                 BLVL_E_ARGUMENT); /* no maker 2 */
    CHECK_EQ_INT(blvl__bake_model_add_prism_made(made, &c, 0, key, 5, 0, false, &idx, &e),
                 BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl__bake_model_add_prism_made(made, &c, 0, NULL, 4, 0, false, &idx, &e),
                 BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl__bake_model_add_prism_made(made, &c, 0, key, 3, 0, false, &idx, &e),
                 BLVL_E_ARGUMENT); /* a triangle has no diagonal */
    c.door = 5;
    CHECK_EQ_INT(blvl__bake_model_add_prism_made(made, &c, 0, key, 4, 0, false, &idx, &e),
                 BLVL_E_ARGUMENT); /* no door 5 */
    CHECK(strstr(e.message, "door") != NULL);
    CHECK_EQ_INT(blvl__bake_model_prism_maker(made, NULL, NULL, &idx, &e), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl__bake_model_collider_count(made), count);

    blvl_free(NULL, l1), blvl_free(NULL, s1), blvl_free(NULL, l2), blvl_free(NULL, s2);
    blvl_free(NULL, l3), blvl_free(NULL, s3), blvl_free(NULL, l4), blvl_free(NULL, s4);
    blvl_bake_free(given);
    blvl_bake_free(made);
    return check_report("test_bake_made_prism");
}
