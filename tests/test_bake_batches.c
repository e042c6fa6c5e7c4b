/* Batching and sorting (docs/BAKE.md, "Batches"): three materials with sort keys 3 and 9 and
 * one alpha-blended (sort 3) come out 3, 9, blended; one material splits by door, fog volume,
 * match types and lightmap layer; surfaces with the same key merge into one batch whatever
 * lies between them; every source triangle appears exactly once, with its winding; batch
 * bounds hold exactly their vertices; the .bsym runs follow the surfaces. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "check.h"

#define NSURF 9

typedef struct want {
    uint32_t material, door, fog, gametypes;
    uint16_t layer;
} want;

/* Surface s is a unit quad at height s (so every triangle is told apart by its positions). */
static void add_quad(blvl_bake *b, int s, const want *w, uint32_t source) {
    blvl_bake_vertex v[4];
    memset(v, 0, sizeof v);
    const float p[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 0, -1}, {0, 0, -1}};
    for (int i = 0; i < 4; i++) {
        v[i].position[0] = p[i][0] + (float)s * 10;
        v[i].position[1] = (float)s;
        v[i].position[2] = p[i][2];
        v[i].normal[1] = 1;
        v[i].uv[0] = p[i][0];
        v[i].uv[1] = -p[i][2];
    }
    static const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    blvl_bake_surface sf;
    blvl_bake_surface_init(&sf);
    sf.vertices = v;
    sf.vertex_count = 4;
    sf.indices = idx;
    sf.index_count = 6;
    sf.material = w->material;
    sf.door = w->door;
    sf.fog = w->fog;
    sf.gametypes = w->gametypes;
    sf.lightmap_layer = w->layer;
    sf.source = source;
    blvl_error err;
    CHECK(blvl_bake_add_surface(b, &sf, &err) == BLVL_OK);
}

int main(void) {
    blvl_error err;
    blvl_bake *b;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    uint32_t mA, mB, mC, door, fog, src[2];
    blvl_bake_material m;
    blvl_bake_material_init(&m);
    m.name = "sort3";
    CHECK(blvl_bake_add_material(b, &m, &mA, &err) == BLVL_OK);
    m.name = "sort9";
    m.sort = 9;
    CHECK(blvl_bake_add_material(b, &m, &mB, &err) == BLVL_OK);
    m.name = "blended";
    m.sort = 3;
    m.blend = blvl_BlendMode_Alpha;
    CHECK(blvl_bake_add_material(b, &m, &mC, &err) == BLVL_OK);
    blvl_bake_door d;
    blvl_bake_door_init(&d);
    CHECK(blvl_bake_add_door(b, &d, &door, &err) == BLVL_OK);
    CHECK(blvl_bake_add_fog_volume(b, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){1, 1, 1},
                                   (blvl_Vec3){1, 1, 1}, 64, &fog, &err) == BLVL_OK);
    blvl_bake_source so = {blvl_SourceKind_Face, 7, 0, 0, BLVL_BAKE_NONE, 0};
    CHECK(blvl_bake_add_source(b, &so, &src[0], &err) == BLVL_OK);
    so.index = 8;
    CHECK(blvl_bake_add_source(b, &so, &src[1], &err) == BLVL_OK);

    const uint32_t ALL = BLVL_BAKE_ALL_GAMETYPES, NONE = BLVL_BAKE_NONE;
    /* Added order; the comment is the batch each lands in. */
    const want w[NSURF] = {
        {mC, NONE, NONE, ALL, 0}, /* 0: blended, last batch */
        {mB, NONE, NONE, ALL, 0}, /* 1: sort 9 */
        {mA, NONE, NONE, ALL, 0}, /* 2: sort 3, first batch */
        {mA, door, NONE, ALL, 0}, /* 3: split by door */
        {mA, NONE, fog, ALL, 0},  /* 4: split by fog */
        {mA, NONE, NONE, 1, 0},   /* 5: split by match types */
        {mA, NONE, NONE, ALL, 0}, /* 6: joins surface 2's batch */
        {mA, NONE, NONE, ALL, 1}, /* 7: split by lightmap layer */
        {mB, NONE, NONE, ALL, 0}, /* 8: joins surface 1's batch */
    };
    const uint32_t sources[NSURF] = {NONE, src[0], src[0], src[1], NONE,
                                     NONE, src[1], src[0], src[0]};
    for (int s = 0; s < NSURF; s++)
        add_quad(b, s, &w[s], sources[s]);

    /* Expected batches: surfaces in order. */
    const int expect[][3] = {{2, 6, -1},  {3, -1, -1}, {4, -1, -1}, {5, -1, -1},
                             {7, -1, -1}, {1, 8, -1},  {0, -1, -1}};
    const int nb = (int)(sizeof expect / sizeof expect[0]);

    void *lv = NULL, *sy = NULL;
    size_t ls = 0, ss = 0;
    blvl_bake_stats stats;
    CHECK(blvl_bake_write_memory(b, &lv, &ls, &sy, &ss, &stats, &err) == BLVL_OK);
    CHECK_EQ_INT(stats.batches, nb);
    CHECK_EQ_INT(stats.triangles, NSURF * 2);
    blvl_level *level = NULL;
    CHECK(blvl_open_memory(&level, lv, ls, NULL, &err) == BLVL_OK);
    blvl_bytes bytes = {0};
    blvl_Geometry g = {0};
    CHECK(blvl_level_geometry(level, &bytes, &g, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Geometry_batches_len(g), nb);
    CHECK_EQ_INT(blvl_Geometry_indices_len(g), NSURF * 6);
    CHECK_EQ_INT(blvl_Geometry_vertices_len(g), NSURF * 4);

    int seen[NSURF][2] = {{0}};
    uint32_t next = 0;
    for (int i = 0; i < nb && i < (int)blvl_Geometry_batches_len(g); i++) {
        blvl_Batch bt = blvl_Geometry_batches_at(g, (uint32_t)i);
        int first = expect[i][0];
        CHECK_EQ_INT(blvl_Batch_first_index(bt), next);
        CHECK_EQ_INT(blvl_Batch_material(bt), w[first].material);
        CHECK_EQ_INT(blvl_Batch_door(bt), w[first].door);
        CHECK_EQ_INT(blvl_Batch_fog(bt), w[first].fog);
        CHECK_EQ_INT(blvl_Batch_gametypes(bt), w[first].gametypes);
        CHECK_EQ_INT(blvl_Batch_lightmap_layer(bt), w[first].layer);
        int count = 0;
        for (int k = 0; k < 3 && expect[i][k] >= 0; k++)
            count++;
        CHECK_EQ_INT(blvl_Batch_index_count(bt), count * 6);
        blvl_Vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
        /* Each triangle in the batch names one surface (its height) in batch order. */
        for (uint32_t t = 0; t < blvl_Batch_index_count(bt) / 3; t++) {
            blvl_Vec3 p[3];
            for (int c = 0; c < 3; c++) {
                uint32_t vi =
                    blvl_Geometry_indices_at(g, blvl_Batch_first_index(bt) + 3 * t + (uint32_t)c);
                p[c] = blvl_Geometry_vertices_at(g, vi).position;
                lo.x = fminf(lo.x, p[c].x), lo.y = fminf(lo.y, p[c].y), lo.z = fminf(lo.z, p[c].z);
                hi.x = fmaxf(hi.x, p[c].x), hi.y = fmaxf(hi.y, p[c].y), hi.z = fmaxf(hi.z, p[c].z);
            }
            int s = (int)p[0].y;
            CHECK(s == expect[i][t / 2]);
            float ox = (float)s * 10;
            /* The winding survives: triangle 0 is (0,1,2), triangle 1 is (0,2,3) of the quad. */
            const float want_x[2][3] = {{0, 1, 1}, {0, 1, 0}};
            const float want_z[2][3] = {{0, 0, -1}, {0, -1, -1}};
            int which = (p[1].z == 0) ? 0 : 1;
            for (int c = 0; c < 3; c++) {
                CHECK(p[c].x == ox + want_x[which][c]);
                CHECK(p[c].z == want_z[which][c]);
            }
            if (s >= 0 && s < NSURF)
                seen[s][which]++;
        }
        blvl_Vec3 blo = blvl_Batch_lo(bt), bhi = blvl_Batch_hi(bt);
        CHECK(blo.x == lo.x && blo.y == lo.y && blo.z == lo.z);
        CHECK(bhi.x == hi.x && bhi.y == hi.y && bhi.z == hi.z);
        next += blvl_Batch_index_count(bt);
    }
    for (int s = 0; s < NSURF; s++) {
        CHECK_EQ_INT(seen[s][0], 1);
        CHECK_EQ_INT(seen[s][1], 1);
    }

    /* The runs: written order of surfaces 2 6 3 4 5 7 1 8 0 with sources
     * s0 s1 s1 - - s0 s0 s0 -: merged to s0@0, s1@2, NONE@6, s0@10, NONE@16. */
    blvl_Symbols sym = blvl_Symbols_root(sy);
    CHECK(blvl_Symbols_verify(sy, ss, &err) == BLVL_OK);
    const blvl_TriRun runs[] = {{0, src[0]}, {2, src[1]}, {6, NONE}, {10, src[0]}, {16, NONE}};
    CHECK_EQ_INT(blvl_Symbols_tri_runs_len(sym), 5);
    for (uint32_t i = 0; i < 5 && i < blvl_Symbols_tri_runs_len(sym); i++) {
        blvl_TriRun r = blvl_Symbols_tri_runs_at(sym, i);
        CHECK_EQ_INT(r.first_tri, runs[i].first_tri);
        CHECK_EQ_INT(r.source, runs[i].source);
    }

    /* Writing again gives the same bytes (the model is unchanged by a write). */
    void *lv2 = NULL;
    size_t ls2 = 0;
    CHECK(blvl_bake_write_memory(b, &lv2, &ls2, NULL, NULL, NULL, &err) == BLVL_OK);
    CHECK(ls2 == ls && memcmp(lv, lv2, ls) == 0);

    /* Refusals: an index past what was added, a count not a multiple of 3, an index past the
     * surface's vertices. */
    blvl_bake_vertex v1[3];
    memset(v1, 0, sizeof v1);
    uint32_t bad_idx[3] = {0, 1, 3};
    blvl_bake_surface sf;
    blvl_bake_surface_init(&sf);
    sf.vertices = v1;
    sf.vertex_count = 3;
    sf.indices = bad_idx;
    sf.index_count = 3;
    CHECK(blvl_bake_add_surface(b, &sf, &err) == BLVL_E_ARGUMENT);
    bad_idx[2] = 2;
    sf.index_count = 2;
    CHECK(blvl_bake_add_surface(b, &sf, &err) == BLVL_E_ARGUMENT);
    sf.index_count = 3;
    sf.material = 3;
    CHECK(blvl_bake_add_surface(b, &sf, &err) == BLVL_E_ARGUMENT);
    sf.material = NONE;
    sf.door = 1;
    CHECK(blvl_bake_add_surface(b, &sf, &err) == BLVL_E_ARGUMENT);
    sf.door = NONE;
    sf.fog = 1;
    CHECK(blvl_bake_add_surface(b, &sf, &err) == BLVL_E_ARGUMENT);
    sf.fog = NONE;
    sf.source = 2;
    CHECK(blvl_bake_add_surface(b, &sf, &err) == BLVL_E_ARGUMENT);
    sf.source = NONE;
    CHECK(blvl_bake_add_surface(b, &sf, &err) == BLVL_OK);

    blvl_bytes_free(&bytes);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_free(NULL, lv2);
    blvl_free(NULL, sy);
    blvl_bake_free(b);
    return check_report("test_bake_batches");
}
