/* Made surfaces (blvl__bake_model_add_surface_made, src/bake/known.h): a level whose surfaces'
 * vertices the bake makes when it writes must be byte for byte the level whose surfaces gave the
 * same vertices (level and .bsym), with given and made surfaces mixed in one batch and across
 * batches, per-triangle sources and one source per surface, and written twice. A made vertex
 * that is not finite fails the write by name; misuse is refused at add. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/model/fast.h"
#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "check.h"

enum { GRID = 24, SURFACES = 5 };

/* Surface k: a GRID x GRID patch of quads, four vertices each, its own UVs and colours. */
typedef struct patch {
    uint32_t k;
    float poison; /* written into vertex 7's normal when not 0 */
} patch;

static void make(const void *ctx, uint32_t first, uint32_t count, blvl_bake_vertex *out) {
    const patch *p = ctx;
    for (uint32_t n = 0; n < count; n++) {
        uint32_t i = first + n, q = i / 4, c = i % 4;
        blvl_bake_vertex *v = &out[n];
        memset(v, 0, sizeof *v);
        v->position[0] = (float)(q % GRID + (c & 1)) * 64.0f + 1000.0f * (float)p->k;
        v->position[1] = (float)((q * 7 + c * 3 + p->k) % 11) * 0.5f;
        v->position[2] = (float)(q / GRID + (c >> 1)) * 64.0f;
        v->normal[1] = 1.0f;
        v->uv[0] = (float)(c & 1) * 0.25f + (float)p->k;
        v->uv[1] = (float)(c >> 1) * 0.5f;
        v->color[0] = (uint8_t)(q * 13), v->color[1] = (uint8_t)c, v->color[2] = 200;
        v->color[3] = 255;
        if (p->poison != 0 && i == 7)
            v->normal[0] = p->poison;
    }
}

static const uint32_t QUAD[6] = {0, 2, 1, 1, 2, 3};

/* One level: surfaces 1 and 3 made when `made`, the others given; surface k's material k % 2
 * (so both batches mix given and made ones); surfaces 0..2 with a source per triangle. */
static blvl_bake *level(bool made, float poison, patch *ps) {
    blvl_bake *b = NULL;
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, NULL), BLVL_OK);
    if (!b)
        return NULL;
    for (int m = 0; m < 2; m++) {
        blvl_bake_material mat;
        blvl_bake_material_init(&mat);
        mat.name = m ? "made/b" : "made/a";
        CHECK_EQ_INT(blvl_bake_add_material(b, &mat, NULL, NULL), BLVL_OK);
    }
    uint32_t nq = GRID * GRID, nv = 4 * nq, ni = 6 * nq;
    blvl_bake_vertex *vs = malloc(nv * sizeof *vs);
    uint32_t *idx = malloc(ni * sizeof *idx), *tri = malloc(2 * nq * sizeof *tri);
    for (uint32_t q = 0; q < nq; q++)
        for (int j = 0; j < 6; j++)
            idx[6 * q + j] = 4 * q + QUAD[j];
    for (uint32_t k = 0; k < SURFACES; k++) {
        ps[k] = (patch){k, k == 3 ? poison : 0};
        blvl_bake_source src = {1, k, 0, 0, BLVL_BAKE_NONE, k % 2};
        uint32_t first = 0;
        for (uint32_t q = 0; q < nq; q++) {
            src.index = k * nq + q;
            uint32_t si;
            CHECK_EQ_INT(blvl_bake_add_source(b, &src, &si, NULL), BLVL_OK);
            first = q ? first : si;
            tri[2 * q] = tri[2 * q + 1] = si;
        }
        blvl_bake_surface s;
        blvl_bake_surface_init(&s);
        s.vertex_count = nv;
        s.indices = idx;
        s.index_count = ni;
        s.material = k % 2;
        s.source = first;
        bool per_tri = k < 3, is_made = made && (k == 1 || k == 3);
        blvl_error e;
        blvl_status st;
        if (is_made) {
            st = blvl__bake_model_add_surface_made(b, &s, per_tri ? tri : NULL, make, &ps[k], &e);
        } else {
            make(&ps[k], 0, nv, vs);
            s.vertices = vs;
            st = per_tri ? blvl__bake_model_add_surface_tris(b, &s, tri, &e)
                         : blvl_bake_add_surface(b, &s, &e);
        }
        CHECK_EQ_INT(st, BLVL_OK);
    }
    free(vs);
    free(idx);
    free(tri);
    return b;
}

int main(void) {
    patch pa[SURFACES], pb[SURFACES];
    blvl_bake *given = level(false, 0, pa), *made = level(true, 0, pb);
    void *l1 = NULL, *s1 = NULL, *l2 = NULL, *s2 = NULL, *l3 = NULL, *s3 = NULL;
    size_t n1 = 0, m1 = 0, n2 = 0, m2 = 0, n3 = 0, m3 = 0;
    blvl_error e;
    CHECK_EQ_INT(blvl_bake_write_memory(given, &l1, &n1, &s1, &m1, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_bake_write_memory(made, &l2, &n2, &s2, &m2, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_bake_write_memory(made, &l3, &n3, &s3, &m3, NULL, &e), BLVL_OK);
    CHECK(n1 > 0 && n1 == n2 && n2 == n3 && m1 > 0 && m1 == m2 && m2 == m3);
    if (n1 == n2 && n2 == n3 && m1 == m2 && m2 == m3) {
        CHECK_MEM(l1, l2, n1);
        CHECK_MEM(l2, l3, n1);
        CHECK_MEM(s1, s2, m1);
        CHECK_MEM(s2, s3, m1);
    }
    /* the level decodes and holds every vertex: 5 surfaces of 2,304 */
    blvl_level *lv = NULL;
    CHECK_EQ_INT(blvl_open_memory(&lv, l2, n2, NULL, &e), BLVL_OK);
    if (lv) {
        CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
        blvl_close(lv);
    }
    blvl_free(NULL, l1), blvl_free(NULL, s1), blvl_free(NULL, l2), blvl_free(NULL, s2);
    blvl_free(NULL, l3), blvl_free(NULL, s3);
    blvl_bake_free(given);
    blvl_bake_free(made);

    /* a made vertex that is not finite: the write fails by name, nothing is returned */
    patch pc[SURFACES];
    blvl_bake *bad = level(true, NAN, pc);
    void *l4 = NULL;
    size_t n4 = 0;
    CHECK_EQ_INT(blvl_bake_write_memory(bad, &l4, &n4, NULL, NULL, NULL, &e), BLVL_E_ARGUMENT);
    CHECK(strstr(e.message, "made surface 3: vertex 7 not finite") != NULL);
    CHECK(l4 == NULL && n4 == 0);

    /* misuse refused at add, the model unchanged */
    blvl_bake_surface s;
    blvl_bake_surface_init(&s);
    uint32_t three[3] = {0, 1, 2}, past[3] = {0, 1, 4};
    blvl_bake_vertex v[4];
    s.vertex_count = 4;
    s.indices = three;
    s.index_count = 3;
    CHECK_EQ_INT(blvl__bake_model_add_surface_made(bad, &s, NULL, NULL, pc, &e), BLVL_E_ARGUMENT);
    CHECK(strstr(e.message, "maker") != NULL);
    s.vertices = v;
    CHECK_EQ_INT(blvl__bake_model_add_surface_made(bad, &s, NULL, make, pc, &e), BLVL_E_ARGUMENT);
    CHECK(strstr(e.message, "made, not given") != NULL);
    s.vertices = NULL;
    s.door = 0;
    CHECK_EQ_INT(blvl__bake_model_add_surface_made(bad, &s, NULL, make, pc, &e), BLVL_E_ARGUMENT);
    CHECK(strstr(e.message, "door") != NULL);
    s.door = BLVL_BAKE_NONE;
    s.indices = past;
    CHECK_EQ_INT(blvl__bake_model_add_surface_made(bad, &s, NULL, make, pc, &e), BLVL_E_ARGUMENT);
    CHECK(strstr(e.message, "past its 4 vertices") != NULL);
    blvl_bake_free(bad);
    return check_report("test_bake_made");
}
