/* Patch collision: the engine's collision grid of a hand-made 3 x 3 patch (an arch over x,
 * straight along y) against the Bezier curve evaluated here, and the baked hulls against rays
 * (the top on the curve, the bottom `patch_thickness` behind each facet). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/q3.h"
#include "blvl/sections.h"
#include "blvl/trace.h"
#include "check.h"
#include "import/q3/bake_collide.h"

/* Control points row-major (row along y, column along x): the arch a=(0,0,0), b=(64,0,128),
 * c=(128,0,0), the same at y = 64 and y = 128. On the curve: x = 128 t, z = 256 t (1 - t). */
static void arch(float ctrl[9][3]) {
    const float xs[3] = {0, 64, 128}, zs[3] = {0, 128, 0};
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++) {
            ctrl[r * 3 + col][0] = xs[col];
            ctrl[r * 3 + col][1] = 64.0f * (float)r;
            ctrl[r * 3 + col][2] = zs[col];
        }
}

static void test_grid(void) {
    static float grid[Q3_MAX_GRID * Q3_MAX_GRID][3];
    float ctrl[9][3];
    arch(ctrl);
    int w = 0, h = 0;
    CHECK(blvl__import_q3_coll_patch_grid((const float(*)[3])ctrl, 3, 3, grid, &w, &h));
    /* Along x the curve is split until each span's midpoint is within 16 qu of its chord: the
     * halves (64 off) and quarters (16 off: "16 or more" splits) are split, the eighths (4 off)
     * are not, so five points at t = 0, 1/4, 1/2, 3/4, 1. Along y the rows are straight: two.
     * The grid ends transposed: rows first. */
    CHECK_EQ_INT(w, 2);
    CHECK_EQ_INT(h, 5);
    int bad = 0;
    for (int i = 0; i < w && i < 2; i++)
        for (int j = 0; j < h && j < 5; j++) {
            double t = j / 4.0;
            const float *p = grid[(size_t)i * Q3_MAX_GRID + (size_t)j];
            bad += fabs(p[0] - 128 * t) > 1e-4 || fabs(p[1] - 128.0 * i) > 1e-4 ||
                   fabs(p[2] - 256 * t * (1 - t)) > 1e-4;
        }
    CHECK_EQ_INT(bad, 0);
    /* refused: even or too small control grids */
    CHECK(!blvl__import_q3_coll_patch_grid((const float(*)[3])ctrl, 2, 3, grid, &w, &h));
    CHECK(!blvl__import_q3_coll_patch_grid((const float(*)[3])ctrl, 3, 1, grid, &w, &h));
}

static void test_bake(void) {
    float ctrl[9][3];
    arch(ctrl);
    static blvl_q3_shader_ref shaders[1];
    static blvl_q3_draw_vert verts[9];
    static blvl_q3_surface surf;
    static blvl_q3_model model;
    snprintf(shaders[0].name, sizeof shaders[0].name, "textures/test/arch");
    shaders[0].contents = BLVL_Q3_CONTENTS_SOLID;
    for (int i = 0; i < 9; i++) {
        memcpy(verts[i].xyz, ctrl[i], sizeof verts[i].xyz);
        verts[i].normal[2] = 1;
        memset(verts[i].color, 255, 4);
    }
    surf.type = BLVL_Q3_MST_PATCH;
    surf.fog = -1;
    surf.lightmap = -1;
    surf.num_verts = 9;
    surf.patch_width = surf.patch_height = 3;
    model.num_surfaces = 1;
    model.maxs[0] = 128, model.maxs[1] = 128, model.maxs[2] = 128;
    static const char ents[] = "{ \"classname\" \"worldspawn\" }";
    blvl_q3_bsp bsp = {.shaders = shaders,
                       .shader_count = 1,
                       .draw_verts = verts,
                       .draw_vert_count = 9,
                       .surfaces = &surf,
                       .surface_count = 1,
                       .models = &model,
                       .model_count = 1,
                       .entities = (char *)ents,
                       .entities_size = sizeof ents - 1};
    blvl_error err;
    blvl_bake *b = NULL;
    blvl_q3_bake_report rep;
    blvl_q3_bake_options o = {0};
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    blvl_status st = blvl_q3_bake(&bsp, b, &rep, &o, &err);
    if (st)
        fprintf(stderr, "bake: %s\n", err.message);
    CHECK_EQ_INT(st, BLVL_OK);
    /* four quads between the five columns, each flat: four hulls */
    CHECK_EQ_INT(rep.patch_hulls, 4);
    void *lv = NULL;
    size_t ls = 0;
    blvl_level *level = NULL;
    blvl_trace_world *w = NULL;
    CHECK(blvl_bake_write_memory(b, &lv, &ls, NULL, NULL, NULL, &err) == BLVL_OK);
    CHECK(blvl_open_memory(&level, lv, ls, NULL, &err) == BLVL_OK);
    CHECK(blvl_trace_world_from_level(&w, level, NULL, &err) == BLVL_OK);
    if (w) {
        /* Quake (64, 64, z) is blvl (64, z, -64): the apex, z = 64 on the curve. The facets
         * next to it slope 1/2, so their hulls are 4 * sqrt(1.25) = 4.47 qu thick straight
         * down. */
        float top[3] = {64, 200, -64}, below[3] = {64, -100, -64};
        blvl_trace_result r;
        blvl_trace_ray(w, NULL, top, below, &r);
        CHECK(r.fraction < 1 && fabsf(r.endpos[1] - 64) < 0.1f);
        CHECK(r.plane.normal.y > 0.8f);
        blvl_trace_ray(w, NULL, below, top, &r);
        CHECK(r.fraction < 1 && fabsf(r.endpos[1] - (64 - 4 * sqrtf(1.25f))) < 0.1f);
        /* x = 16 (t = 1/8) lies between grid points: the chord is at z = 24 (the curve at 28) */
        float q0[3] = {16, 200, -64}, q1[3] = {16, -100, -64};
        blvl_trace_ray(w, NULL, q0, q1, &r);
        CHECK(r.fraction < 1 && fabsf(r.endpos[1] - 24) < 0.1f);
    }
    blvl_trace_world_free(w);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_bake_free(b);

    /* a thicker option reaches farther behind */
    o.patch_thickness = 16;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_q3_bake(&bsp, b, &rep, &o, &err), BLVL_OK);
    CHECK(blvl_bake_write_memory(b, &lv, &ls, NULL, NULL, NULL, &err) == BLVL_OK);
    CHECK(blvl_open_memory(&level, lv, ls, NULL, &err) == BLVL_OK);
    w = NULL;
    CHECK(blvl_trace_world_from_level(&w, level, NULL, &err) == BLVL_OK);
    if (w) {
        float top[3] = {64, 200, -64}, below[3] = {64, -100, -64};
        blvl_trace_result r;
        blvl_trace_ray(w, NULL, below, top, &r);
        CHECK(r.fraction < 1 && fabsf(r.endpos[1] - (64 - 16 * sqrtf(1.25f))) < 0.1f);
    }
    blvl_trace_world_free(w);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_bake_free(b);
}

int main(void) {
    test_grid();
    test_bake();
    return check_report("test_q3_patch_collide");
}
