/* Quake 3 geometry and lighting on a hand-built map (tests/q3_bsp_build.h), every expected
 * number worked out here from the map's numbers and docs/IMPORT-Q3.md:
 *   - a planar quad (2 triangles, lightmap page 1, fogged by a fog without fogparms), a soup
 *     (1 triangle, vertex lit, one NaN texture coordinate), two 3 x 3 patches A and B that
 *     share an edge (B runs along it the other way), a fog-shader face and a nodraw face (not
 *     drawn), a lava face whose shader carries fog contents too (drawn);
 *   - the error rule: B's columns bulge 40 qu (|p0 - 2p1 + p2| = 80, 3 segments), its rows 40
 *     (2 segments); A is flat (1 segment) but shares B's column: A gets 3 along v, so both
 *     put the same 4 vertices on the shared edge (the control: alone A would put 2);
 *   - patch_subdivisions 2: 8 triangles a patch; 65 refused;
 *   - lightmap UVs rewritten into the atlas slot; winding counter-clockwise from the front;
 *   - the light grid count as the engine computes it: 3 x 3 x 2 cells, a wrong size dropped;
 *   - more than 2^24 tessellated triangles refused (patch-tessellation);
 *   - the atlas texels (slots and their copied borders), the grid's cells in blvl order
 *     (Quake row y at Z = 2 - y), directions from the two angle bytes, a dark cell's zero
 *     direction, the gain 2 (1 with _mapOverBrightBits 1) and the ambient. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STBI_ONLY_PNG
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include "q3_bsp_build.h"
#include "q3_geom_check.h"

#define NAN_F (0.0f / 0.0f)

static const char *ENTS_PLAIN = "{\n\"classname\" \"worldspawn\"\n\"message\" \"Test\"\n}\n";
/* overbright 1 (gain 1), ambient 51 of 255 tinted (1, 0.5, 0) */
static const char *ENTS_LIT = "{\n\"classname\" \"worldspawn\"\n\"_mapOverBrightBits\" \"1\"\n"
                              "\"_ambient\" \"51\"\n\"_color\" \"2 1 0\"\n}\n";
static const char *ENTS;

/* grid_bytes: light grid lump size; patches: extra copies of patch B (the cap test). */
static uint8_t *make_map(size_t grid_bytes, uint32_t extra_patches, int pages, size_t *size) {
    qb b;
    memset(&b, 0, sizeof b);
    qb_put(&b, BLVL_Q3_LUMP_ENTITIES, ENTS, strlen(ENTS) + 1);
    qb_shader(&b, "textures/test/wall", 0, BLVL_Q3_CONTENTS_SOLID);
    qb_shader(&b, "textures/test/fog", 0, BLVL_Q3_CONTENTS_FOG);
    qb_shader(&b, "textures/common/caulk", BLVL_Q3_SURF_NODRAW, BLVL_Q3_CONTENTS_SOLID);
    qb_shader(&b, "textures/test/lava", 0, BLVL_Q3_CONTENTS_LAVA | BLVL_Q3_CONTENTS_FOG);
    /* fog brush: the box 0..32 */
    qb_plane(&b, -1, 0, 0, 0), qb_plane(&b, 1, 0, 0, 32), qb_plane(&b, 0, -1, 0, 0);
    qb_plane(&b, 0, 1, 0, 32), qb_plane(&b, 0, 0, -1, 0), qb_plane(&b, 0, 0, 1, 32);
    for (int i = 0; i < 6; i++) {
        qb_i32(&b, BLVL_Q3_LUMP_BRUSH_SIDES, i);
        qb_i32(&b, BLVL_Q3_LUMP_BRUSH_SIDES, 1);
    }
    qb_i32(&b, BLVL_Q3_LUMP_BRUSHES, 0), qb_i32(&b, BLVL_Q3_LUMP_BRUSHES, 6);
    qb_i32(&b, BLVL_Q3_LUMP_BRUSHES, 1);
    qb_name(&b, BLVL_Q3_LUMP_FOGS, "textures/test/fog");
    qb_i32(&b, BLVL_Q3_LUMP_FOGS, 0), qb_i32(&b, BLVL_Q3_LUMP_FOGS, -1);
    /* 0: planar quad facing +z, clockwise seen from +z as Quake 3 winds a front */
    qb_vert(&b, 0, 0, 0, 0, 0, 0.25f, 0.5f, 0, 0, 1);
    qb_vert(&b, 64, 0, 0, 1, 0, 1, 0, 0, 0, 1);
    qb_vert(&b, 64, 64, 0, 1, 1, 1, 1, 0, 0, 1);
    qb_vert(&b, 0, 64, 0, 0, 1, 0, 1, 0, 0, 1);
    int32_t quad[6] = {0, 2, 1, 0, 3, 2};
    for (int i = 0; i < 6; i++)
        qb_i32(&b, BLVL_Q3_LUMP_DRAW_INDEXES, quad[i]);
    /* 1: soup, one triangle facing +z, a NaN s */
    qb_vert(&b, 0, 0, 10, NAN_F, 0, NAN_F, NAN_F, 0, 0, 1);
    qb_vert(&b, 10, 0, 10, 1, 0, NAN_F, NAN_F, 0, 0, 1);
    qb_vert(&b, 0, 10, 10, 0, 1, NAN_F, NAN_F, 0, 0, 1);
    int32_t tri[3] = {0, 2, 1};
    for (int i = 0; i < 3; i++)
        qb_i32(&b, BLVL_Q3_LUMP_DRAW_INDEXES, tri[i]);
    /* 2: patch A, flat at z = 0, u along +x, v along +y (front +z) */
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            qb_vert(&b, 32.0f * i, 32.0f * j, 0, i * 0.5f, j * 0.5f, 0.1f + 0.4f * i, 0.9f, 0, 0,
                    1);
    /* 3: patch B, column 0 = A's column 2 the other way; columns 1, 2 bulge 40 along z */
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            qb_vert(&b, 64.0f + 32.0f * i, 64.0f - 32.0f * j, (i > 0 && j == 1) ? 40.0f : 0, 0, 0,
                    0.5f, 0.5f, 0, 0, -1);
    /* 4, 5: a fog-shader face and a nodraw face, both quads */
    qb_surface(&b, 0, 0, BLVL_Q3_MST_PLANAR, 0, 4, 0, 6, 1, 0, 0);
    qb_surface(&b, 0, -1, BLVL_Q3_MST_TRIANGLE_SOUP, 4, 3, 6, 3, -3, 0, 0);
    qb_surface(&b, 0, -1, BLVL_Q3_MST_PATCH, 7, 9, 0, 0, 0, 3, 3);
    qb_surface(&b, 0, -1, BLVL_Q3_MST_PATCH, 16, 9, 0, 0, 0, 3, 3);
    qb_surface(&b, 1, -1, BLVL_Q3_MST_PLANAR, 0, 4, 0, 6, -1, 0, 0);
    qb_surface(&b, 2, -1, BLVL_Q3_MST_PLANAR, 0, 4, 0, 6, -1, 0, 0);
    qb_surface(&b, 3, -1, BLVL_Q3_MST_PLANAR, 0, 4, 0, 6, -1, 0, 0); /* 6: lava, drawn */
    for (uint32_t i = 0; i < extra_patches; i++)
        qb_surface(&b, 0, -1, BLVL_Q3_MST_PATCH, 16, 9, 0, 0, 0, 3, 3);
    float mins[3] = {0, 0, 0}, maxs[3] = {128, 128, 128};
    qb_model(&b, mins, maxs, 0, 7 + (int32_t)extra_patches, 0, 0);
    /* lightmaps: page 0 flat (10, 20, 30), page 1 a gradient */
    uint8_t *lm = malloc(2 * 128 * 128 * 3);
    for (int p = 0; p < pages; p++)
        for (int y = 0; y < 128; y++)
            for (int x = 0; x < 128; x++) {
                uint8_t *t = lm + ((size_t)p * 128 * 128 + (size_t)y * 128 + (size_t)x) * 3;
                t[0] = p ? (uint8_t)(2 * x) : 10;
                t[1] = p ? (uint8_t)(2 * y) : 20;
                t[2] = 30;
            }
    qb_put(&b, BLVL_Q3_LUMP_LIGHTMAPS, lm, (size_t)pages * 128 * 128 * 3);
    free(lm);
    uint8_t *grid = calloc(1, grid_bytes + 1);
    for (size_t i = 0; i < grid_bytes; i++)
        grid[i] = (uint8_t)(i * 7);
    if (grid_bytes == 144)
        memset(grid + 8 * 13, 0, 6); /* cell (1, 1, 1): no light */
    qb_put(&b, BLVL_Q3_LUMP_LIGHT_GRID, grid, grid_bytes);
    free(grid);
    return qb_finish(&b, size);
}

static int cmp_vec(const void *a, const void *b) {
    const float *p = a, *q = b;
    for (int k = 0; k < 3; k++)
        if (p[k] != q[k])
            return p[k] < q[k] ? -1 : 1;
    return 0;
}

/* Vertices of surface `surf` on the plane blvl x = 64, sorted; returns their count. */
static uint32_t edge_verts(const q3gc *r, uint32_t surf, float out[][3], uint32_t cap) {
    blvl_level *level = NULL;
    blvl_error e;
    blvl_bytes sec = {0};
    blvl_Geometry g = {0};
    uint32_t n = 0;
    if (blvl_open_memory(&level, r->level, r->level_size, NULL, &e) != BLVL_OK)
        return 0;
    if (blvl_level_geometry(level, &sec, &g, &e) == BLVL_OK) {
        blvl_Symbols S = blvl_Symbols_root(r->sym);
        uint32_t nruns = blvl_Symbols_tri_runs_len(S), ntri = blvl_Geometry_indices_len(g) / 3;
        for (uint32_t ri = 0; ri < nruns; ri++) {
            blvl_TriRun run = blvl_Symbols_tri_runs_at(S, ri);
            uint32_t end = ri + 1 < nruns ? blvl_Symbols_tri_runs_at(S, ri + 1).first_tri : ntri;
            if (run.source >= blvl_Symbols_sources_len(S) ||
                blvl_Symbols_sources_at(S, run.source).index != surf)
                continue;
            for (uint32_t i = 3 * run.first_tri; i < 3 * end; i++) {
                blvl_Vertex v = blvl_Geometry_vertices_at(g, blvl_Geometry_indices_at(g, i));
                if (v.position.x != 64.0f)
                    continue;
                float p[3] = {v.position.x, v.position.y, v.position.z};
                bool seen = false;
                for (uint32_t k = 0; k < n; k++)
                    seen |= !memcmp(out[k], p, sizeof p);
                if (!seen && n < cap)
                    memcpy(out[n++], p, sizeof p);
            }
        }
        blvl_bytes_free(&sec);
    }
    blvl_close(level);
    qsort(out, n, sizeof out[0], cmp_vec);
    return n;
}

static void check_lm_uv(const q3gc *r) {
    /* Surface 0's vertex with lightmap (0.25, 0.5) on page 1 of 2: 2 x 1 slots, 260 x 130. */
    blvl_level *level = NULL;
    blvl_error e;
    blvl_bytes sec = {0};
    blvl_Geometry g = {0};
    CHECK(blvl_open_memory(&level, r->level, r->level_size, NULL, &e) == BLVL_OK);
    if (!level)
        return;
    int found = 0, soup = 0;
    if (blvl_level_geometry(level, &sec, &g, &e) == BLVL_OK) {
        for (uint32_t i = 0; i < blvl_Geometry_vertices_len(g); i++) {
            blvl_Vertex v = blvl_Geometry_vertices_at(g, i);
            if (v.position.x == 0 && v.position.y == 0 && v.position.z == 0 && v.normal.y > 0.9f &&
                v.uv.x == 0 && v.uv.y == 0 && fabsf(v.lightmap_uv.y - 0.5f) < 1e-6f) {
                CHECK(fabsf(v.lightmap_uv.x - 163.0f / 260.0f) < 1e-6f);
                found++;
            }
            if (v.position.y == 10.0f) { /* the soup: vertex lit, NaN s read as 0 */
                CHECK(v.lightmap_uv.x == 0 && v.lightmap_uv.y == 0);
                soup++;
                if (v.position.x == 0 && v.position.z == 0)
                    CHECK(v.uv.x == 0);
            }
        }
        blvl_bytes_free(&sec);
    }
    CHECK_EQ_INT(found, 1);
    CHECK_EQ_INT(soup, 3);
    blvl_close(level);
}

/* The fuzz target's seeds (fuzz/corpus/q3_bake/) are these maps: written when
 * BLVL_Q3_SEED_DIR names a folder. */
static void write_seed(const char *name, const uint8_t *map, size_t n) {
    const char *dir = getenv("BLVL_Q3_SEED_DIR");
    if (!dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(map, 1, n, f) == n);
    if (f)
        fclose(f);
}

/* The atlas (decoded with stb_image) and the light grid against the map's bytes. */
static void check_light(const q3gc *r, float gain, bool ambient) {
    blvl_level *level = NULL;
    blvl_error e;
    CHECK(blvl_open_memory(&level, r->level, r->level_size, NULL, &e) == BLVL_OK);
    if (!level)
        return;
    blvl_bytes sec = {0};
    blvl_Lightmaps L = {0};
    CHECK(blvl_level_lightmaps(level, &sec, &L, &e) == BLVL_OK);
    if (sec.data && blvl_Lightmaps_lightmaps_len(L) == 1) {
        blvl_Lightmap lm = blvl_Lightmaps_lightmaps_at(L, 0);
        CHECK(blvl_Lightmap_gain(lm) == gain);
        CHECK(blvl_Lightmap_encoding(lm) == blvl_LightmapEncoding_Gamma8);
        blvl_Image im = blvl_Lightmap_color(lm);
        CHECK_EQ_INT(blvl_Image_width(im), 260); /* 2 lightmaps: 2 x 1 slots */
        CHECK_EQ_INT(blvl_Image_height(im), 130);
        CHECK_EQ_INT(blvl_Image_layers(im), 1);
        blvl_fb_vec png = blvl_Image_data_vec(im);
        int w = 0, h = 0, ch;
        uint8_t *px = stbi_load_from_memory(png.data, (int)png.len, &w, &h, &ch, 4);
        CHECK(px && w == 260 && h == 130);
        if (px && w == 260 && h == 130) {
            unsigned bad = 0;
            for (int y = 0; y < 130; y++)
                for (int x = 0; x < 260; x++) {
                    /* slot x / 130: lightmap texel (clamp(x % 130 - 1), clamp(y - 1)) */
                    int page = x / 130, lx = x % 130 - 1, ly = y - 1;
                    lx = lx < 0 ? 0 : lx > 127 ? 127 : lx;
                    ly = ly < 0 ? 0 : ly > 127 ? 127 : ly;
                    uint8_t want[4] = {page ? (uint8_t)(2 * lx) : 10, page ? (uint8_t)(2 * ly) : 20,
                                       30, 255};
                    bad += memcmp(px + 4 * ((size_t)y * 260 + (size_t)x), want, 4) != 0;
                }
            CHECK_EQ_INT(bad, 0);
        }
        stbi_image_free(px);
    }
    blvl_bytes_free(&sec);
    blvl_Lighting G = {0};
    CHECK(blvl_level_lighting(level, &sec, &G, &e) == BLVL_OK);
    if (sec.data && blvl_Lighting_light_grid_present(G)) {
        blvl_LightGrid g = blvl_Lighting_light_grid(G);
        blvl_Vec3 o = blvl_LightGrid_origin(g), cs = blvl_LightGrid_cell_size(g);
        /* world 0..128: 3 x 3 x 2 cells from 0; blvl Z = -y, so the origin is at -(0 + 2 * 64) */
        CHECK(o.x == 0 && o.y == 0 && o.z == -128);
        CHECK(cs.x == 64 && cs.y == 128 && cs.z == 64);
        CHECK(blvl_LightGrid_gain(g) == gain);
        blvl_Image am = blvl_LightGrid_ambient(g), di = blvl_LightGrid_directional(g),
                   dv = blvl_LightGrid_direction(g);
        CHECK_EQ_INT(blvl_Image_width(am), 3);
        CHECK_EQ_INT(blvl_Image_height(am), 3);
        CHECK_EQ_INT(blvl_Image_layers(am), 2);
        unsigned bad = 0;
        if (blvl_Image_data_len(am) == 72 && blvl_Image_data_len(di) == 72 &&
            blvl_Image_data_len(dv) == 72) {
            for (uint32_t z = 0; z < 2; z++)
                for (uint32_t y = 0; y < 3; y++)
                    for (uint32_t x = 0; x < 3; x++) {
                        uint32_t q = 8 * (x + 3 * (y + 3 * z)), c = x + 3 * ((2 - y) + 3 * z);
                        uint8_t d[8];
                        for (int k = 0; k < 8; k++)
                            d[k] = (uint8_t)((q + (uint32_t)k) * 7);
                        if (q == 8 * 13)
                            memset(d, 0, 6);
                        for (int k = 0; k < 3; k++) {
                            bad += blvl_Image_data_at(am, 4 * c + (uint32_t)k) != d[k];
                            bad += blvl_Image_data_at(di, 4 * c + (uint32_t)k) != d[3 + k];
                        }
                        double th = d[6] * 2 * M_PI / 256, ph = d[7] * 2 * M_PI / 256;
                        double v[3] = {cos(ph) * sin(th), cos(th), -sin(ph) * sin(th)};
                        if (q == 8 * 13)
                            v[0] = v[1] = v[2] = 0;
                        for (int k = 0; k < 3; k++) {
                            double want = floor((v[k] * 0.5 + 0.5) * 255 + 0.5);
                            bad += fabs(blvl_Image_data_at(dv, 4 * c + (uint32_t)k) - want) > 1;
                        }
                    }
        } else {
            bad = 1;
        }
        CHECK_EQ_INT(bad, 0);
        if (ambient) {
            blvl_Vec3 a = blvl_LightingProfile_ambient(blvl_Lighting_profiles_at(G, 0));
            CHECK(fabsf(a.x - 0.2f) < 1e-6f && fabsf(a.y - 0.1f) < 1e-6f && a.z == 0);
        }
    } else {
        CHECK(0);
    }
    blvl_bytes_free(&sec);
    blvl_close(level);
}

int main(void) {
    ENTS = ENTS_PLAIN;
    size_t n;
    uint8_t *map = make_map(3 * 3 * 2 * 8, 0, 2, &n);
    q3gc r;

    /* the error rule */
    CHECK_EQ_INT(q3gc_run(map, n, 0, &r), 0);
    CHECK_EQ_INT(r.rep.surfaces_drawn, 5);
    CHECK_EQ_INT(r.rep.patch_triangles, 2 * 1 * 3 + 2 * 2 * 3);
    CHECK_EQ_INT(r.rep.triangles, 2 + 1 + 18 + 2);
    CHECK_EQ_INT(r.got_tris, 23);
    CHECK_EQ_INT(r.tris_of[0], 2);
    CHECK_EQ_INT(r.tris_of[1], 1);
    CHECK_EQ_INT(r.tris_of[2], 6);
    CHECK_EQ_INT(r.tris_of[3], 12);
    CHECK_EQ_INT(r.tris_of[4], 0);
    CHECK_EQ_INT(r.tris_of[5], 0);
    CHECK_EQ_INT(r.tris_of[6], 2); /* lava with fogparms is drawn */
    CHECK_EQ_INT(r.nonfinite, 0);
    CHECK_EQ_INT(r.bad_index, 0);
    CHECK_EQ_INT(r.lm_outside, 0);
    CHECK_EQ_INT(r.lm_layer_wrong, 0);
    CHECK_EQ_INT(r.missing, 0);
    CHECK_EQ_INT(r.count_wrong, 0);
    CHECK_EQ_INT(r.wound_wrong, 0);
    CHECK(r.wound_ok >= 15);
    CHECK_EQ_INT(r.rep.values_replaced, 1); /* the soup's NaN s (its lightmap is not read) */
    CHECK_EQ_INT(r.rep.fogs_dropped, 1);    /* no shader scripts: no fogparms */
    CHECK_EQ_INT(r.rep.light_grid_dropped, 0);
    {
        float a[16][3], b[16][3];
        uint32_t na = edge_verts(&r, 2, a, 16), nb = edge_verts(&r, 3, b, 16);
        CHECK_EQ_INT(na, 4); /* alone, flat A would put 2 */
        CHECK_EQ_INT(nb, 4);
        CHECK(na == nb && !memcmp(a, b, na * sizeof a[0]));
        /* blvl (64, 0, -y) for y = 64 k / 3 */
        for (uint32_t k = 0; k < na && k < 4; k++) {
            CHECK(a[k][1] == 0);
            CHECK(fabsf(a[k][2] + 64.0f * (3 - k) / 3.0f) < 1e-4f);
        }
    }
    check_lm_uv(&r);
    check_light(&r, 2.0f, false);
    CHECK_EQ_INT(r.lightmap_sections, 1);
    q3gc_free(&r);

    /* a fixed level */
    CHECK_EQ_INT(q3gc_run(map, n, 2, &r), 0);
    CHECK_EQ_INT(r.rep.patch_triangles, 16);
    CHECK_EQ_INT(r.rep.triangles, 21);
    CHECK_EQ_INT(r.count_wrong, 0);
    CHECK_EQ_INT(r.missing, 0);
    CHECK_EQ_INT(r.want_tris, 21);
    q3gc_free(&r);
    free(map);

    /* refusals: a level past 64, the tessellation cap */
    map = make_map(144, 0, 2, &n);
    blvl_q3_bsp *bsp = NULL;
    blvl_error e;
    CHECK(blvl_q3_bsp_read(&bsp, map, n, NULL, &e) == BLVL_OK);
    blvl_bake *b = NULL;
    blvl_q3_bake_options o = {0};
    o.patch_subdivisions = 65;
    CHECK(blvl_bake_new(&b, NULL, &e) == BLVL_OK);
    CHECK(blvl_q3_bake(bsp, b, NULL, &o, &e) == BLVL_E_ARGUMENT);
    CHECK(strstr(e.message, "patch-subdivisions") != NULL);
    blvl_bake_free(b);
    blvl_q3_bsp_free(bsp);
    free(map);

    /* 2050 patches at 64: 2 * 64 * 64 = 8192 triangles each, 16.8 M > 2^24 */
    map = make_map(144, 2050, 2, &n);
    CHECK(blvl_q3_bsp_read(&bsp, map, n, NULL, &e) == BLVL_OK);
    o.patch_subdivisions = 64;
    CHECK(blvl_bake_new(&b, NULL, &e) == BLVL_OK);
    CHECK(blvl_q3_bake(bsp, b, NULL, &o, &e) == BLVL_E_SOURCE);
    CHECK(strstr(e.message, "patch-tessellation") != NULL);
    blvl_bake_free(b);
    /* control: 2040 patches fit (16.7 M < 2^24) */
    blvl_q3_bsp_free(bsp);
    free(map);
    map = make_map(144, 2040, 2, &n);
    CHECK(blvl_q3_bsp_read(&bsp, map, n, NULL, &e) == BLVL_OK);
    CHECK(blvl_bake_new(&b, NULL, &e) == BLVL_OK);
    o.patch_subdivisions = 1; /* the count rule alone; 1 keeps the control quick */
    CHECK(blvl_q3_bake(bsp, b, NULL, &o, &e) == BLVL_OK);
    blvl_bake_free(b);
    blvl_q3_bsp_free(bsp);
    free(map);

    /* light grid: 3 x 3 x 2 cells want 144 bytes; 136 is dropped */
    map = make_map(136, 0, 2, &n);
    CHECK_EQ_INT(q3gc_run(map, n, 0, &r), 0);
    CHECK_EQ_INT(r.rep.light_grid_dropped, 1);
    q3gc_free(&r);
    free(map);
    /* the worldspawn's overbright and ambient */
    ENTS = ENTS_LIT;
    map = make_map(144, 0, 2, &n);
    CHECK_EQ_INT(q3gc_run(map, n, 0, &r), 0);
    check_light(&r, 1.0f, true);
    q3gc_free(&r);
    free(map);
    ENTS = ENTS_PLAIN;

    /* vertex lit: no lightmap lump, no lightmaps section, zero lightmap UVs */
    map = make_map(144, 0, 0, &n);
    CHECK_EQ_INT(q3gc_run(map, n, 0, &r), 0);
    CHECK_EQ_INT(r.lightmap_sections, 0);
    CHECK_EQ_INT(r.rep.triangles, 23);
    q3gc_free(&r);
    write_seed("vertex_lit.bsp", map, n);
    free(map);
    map = make_map(144, 0, 2, &n);
    write_seed("lightmapped.bsp", map, n);
    free(map);
    return check_report("test_q3_geometry");
}
