/* Shared by the Quake 3 geometry tests: bake a .bsp in memory, open the level through the
 * public API and check its geometry against the BSP itself (docs/IMPORT-Q3.md, "Geometry"):
 *   - every vertex finite, every index in range;
 *   - per BSP surface, the triangles its .bsym triangle runs hold: num_indexes / 3 for planar
 *     surfaces and soups, 2 (N nu)(N nv) for a patch of nu x nv spans at N segments a span
 *     (only when the bake ran with patch_subdivisions N);
 *   - lightmapped surfaces' lightmap UVs inside their lightmap's slot of the atlas, and their
 *     batch on the slot's atlas page, the slot computed here from the documented layout;
 *   - triangles wound counter-clockwise seen from the side the BSP's normals face.
 * The world model's surfaces the engine draws (planar, soup, patch; not SURF_NODRAW, not
 * CONTENTS_FOG unless a liquid's) must all be there. */
#ifndef BLVL_TEST_Q3_GEOM_CHECK_H
#define BLVL_TEST_Q3_GEOM_CHECK_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/q3.h"
#include "blvl/sections.h"
#include "blvl/sections/bsym.h"
#include "check.h"

typedef struct q3gc {
    blvl_q3_bake_report rep;
    uint64_t want_tris, want_patch_tris; /* over the world's drawn surfaces */
    uint64_t got_tris;
    uint32_t nonfinite, bad_index, lm_outside, lm_layer_wrong, count_wrong, missing;
    uint32_t wound_ok, wound_wrong; /* non-degenerate triangles vs the BSP's normals */
    uint32_t *tris_of;              /* per BSP surface: triangles baked */
    uint32_t lightmap_sections;     /* 1 when the level has a lightmaps section */
    uint32_t grid_cells;            /* cells of the level's light grid (0: none) */
    void *level, *sym;
    size_t level_size, sym_size;
} q3gc;

/* The atlas slot of lightmap `page` (docs/IMPORT-Q3.md): pages of cols x rows slots of 130
 * texels, the lightmap at texel 1 of its slot. */
static void q3gc_slot(uint32_t count, uint32_t page, double lo[2], double hi[2], uint32_t *layer) {
    uint32_t cols = 8, rows = 8;
    if (count < 64) {
        cols = 1;
        while (cols * cols < count)
            cols++;
        rows = (count + cols - 1) / cols;
    }
    uint32_t per = cols * rows, s = page % per;
    double w = cols * 130.0, h = rows * 130.0;
    *layer = page / per;
    lo[0] = ((s % cols) * 130.0 + 1) / w, hi[0] = ((s % cols) * 130.0 + 129) / w;
    lo[1] = ((s / cols) * 130.0 + 1) / h, hi[1] = ((s / cols) * 130.0 + 129) / h;
}

static bool q3gc_drawn_world(const blvl_q3_bsp *bsp, uint32_t i) {
    const blvl_q3_model *w = &bsp->models[0];
    if ((int64_t)i < w->first_surface || (int64_t)i >= (int64_t)w->first_surface + w->num_surfaces)
        return false;
    const blvl_q3_surface *s = &bsp->surfaces[i];
    const blvl_q3_shader_ref *r = &bsp->shaders[s->shader];
    return (s->type == 2 || ((s->type == 1 || s->type == 3) && s->num_indexes >= 3)) &&
           !(r->surface_flags & BLVL_Q3_SURF_NODRAW) &&
           (!(r->contents & BLVL_Q3_CONTENTS_FOG) ||
            (r->contents &
             (BLVL_Q3_CONTENTS_WATER | BLVL_Q3_CONTENTS_SLIME | BLVL_Q3_CONTENTS_LAVA)));
}

static uint64_t q3gc_expect(const blvl_q3_bsp *bsp, uint32_t i, int n) {
    const blvl_q3_surface *s = &bsp->surfaces[i];
    if (s->type == 2)
        return 2ull * (uint64_t)(n * (s->patch_width - 1) / 2) *
               (uint64_t)(n * (s->patch_height - 1) / 2);
    return (uint64_t)s->num_indexes / 3;
}

/* Bake, write, open, check. 0 on success of the bake (checks counted in q3gc). */
static int q3gc_run(const void *bytes, size_t size, int subdiv, q3gc *r) {
    memset(r, 0, sizeof *r);
    blvl_error e;
    blvl_q3_bsp *bsp = NULL;
    if (blvl_q3_bsp_read(&bsp, bytes, size, NULL, &e) != BLVL_OK) {
        fprintf(stderr, "read: %s\n", e.message);
        return 1;
    }
    blvl_bake *b = NULL;
    blvl_q3_bake_options o = {0};
    o.patch_subdivisions = subdiv;
    int rc = 1;
    if (blvl_bake_new(&b, NULL, &e) != BLVL_OK ||
        blvl_q3_bake(bsp, b, &r->rep, &o, &e) != BLVL_OK ||
        blvl_bake_write_memory(b, &r->level, &r->level_size, &r->sym, &r->sym_size, NULL, &e) !=
            BLVL_OK) {
        fprintf(stderr, "bake: %s\n", e.message);
        goto done;
    }
    blvl_level *level = NULL;
    blvl_bytes sec = {0};
    blvl_Geometry g = {0};
    CHECK(blvl_open_memory(&level, r->level, r->level_size, NULL, &e) == BLVL_OK);
    if (!level)
        goto done;
    CHECK(blvl_sections_verify(level, &e) == BLVL_OK);
    CHECK(blvl_Symbols_verify(r->sym, r->sym_size, &e) == BLVL_OK);
    {
        blvl_bytes lm = {0};
        blvl_Lightmaps L = {0};
        if (blvl_level_lightmaps(level, &lm, &L, &e) == BLVL_OK) {
            r->lightmap_sections = 1;
            blvl_bytes_free(&lm);
        }
    }
    {
        blvl_bytes ls = {0};
        blvl_Lighting G = {0};
        if (blvl_level_lighting(level, &ls, &G, &e) == BLVL_OK) {
            if (blvl_Lighting_light_grid_present(G)) {
                blvl_Image am = blvl_LightGrid_ambient(blvl_Lighting_light_grid(G));
                r->grid_cells =
                    blvl_Image_width(am) * blvl_Image_height(am) * (uint32_t)blvl_Image_layers(am);
            }
            blvl_bytes_free(&ls);
        }
    }
    r->tris_of = calloc(bsp->surface_count + 1, sizeof *r->tris_of);
    if (blvl_level_geometry(level, &sec, &g, &e) == BLVL_OK) {
        blvl_Symbols S = blvl_Symbols_root(r->sym);
        uint32_t nidx = blvl_Geometry_indices_len(g), nv = blvl_Geometry_vertices_len(g);
        uint32_t ntri = nidx / 3, nb = blvl_Geometry_batches_len(g);
        r->got_tris = ntri;
        for (uint32_t i = 0; i < nv; i++) {
            blvl_Vertex v = blvl_Geometry_vertices_at(g, i);
            float f[10] = {v.position.x,    v.position.y,   v.position.z, v.normal.x,
                           v.normal.y,      v.normal.z,     v.uv.x,       v.uv.y,
                           v.lightmap_uv.x, v.lightmap_uv.y};
            for (int k = 0; k < 10; k++)
                r->nonfinite += !isfinite(f[k]);
        }
        for (uint32_t i = 0; i < nidx; i++)
            r->bad_index += blvl_Geometry_indices_at(g, i) >= nv;
        uint32_t nruns = blvl_Symbols_tri_runs_len(S);
        uint32_t *layer_of = calloc(ntri + 1, sizeof *layer_of); /* per triangle: its batch's */
        for (uint32_t k = 0; k < nb; k++) {
            blvl_Batch B = blvl_Geometry_batches_at(g, k);
            uint32_t f = blvl_Batch_first_index(B) / 3, c = blvl_Batch_index_count(B) / 3;
            for (uint32_t t = f; t < f + c && t < ntri; t++)
                layer_of[t] = blvl_Batch_lightmap_layer(B);
        }
        for (uint32_t ri = 0; ri < nruns; ri++) {
            blvl_TriRun run = blvl_Symbols_tri_runs_at(S, ri);
            uint32_t end = ri + 1 < nruns ? blvl_Symbols_tri_runs_at(S, ri + 1).first_tri : ntri;
            if (run.source >= blvl_Symbols_sources_len(S))
                continue;
            blvl_SymbolSource src = blvl_Symbols_sources_at(S, run.source);
            if ((src.kind != blvl_SourceKind_Face && src.kind != blvl_SourceKind_Patch) ||
                src.index >= bsp->surface_count)
                continue;
            const blvl_q3_surface *s = &bsp->surfaces[src.index];
            r->tris_of[src.index] += end - run.first_tri;
            bool lit = s->lightmap >= 0 && (uint32_t)s->lightmap < bsp->lightmap_count;
            double lo[2] = {0, 0}, hi[2] = {0, 0};
            uint32_t layer = 0;
            if (lit)
                q3gc_slot(bsp->lightmap_count, (uint32_t)s->lightmap, lo, hi, &layer);
            for (uint32_t t = run.first_tri; t < end && t < ntri; t++) {
                uint32_t id[3];
                blvl_Vertex v[3];
                bool ok = true;
                for (int k = 0; k < 3; k++) {
                    id[k] = blvl_Geometry_indices_at(g, 3 * t + (uint32_t)k);
                    ok &= id[k] < nv;
                }
                if (!ok)
                    continue;
                for (int k = 0; k < 3; k++)
                    v[k] = blvl_Geometry_vertices_at(g, id[k]);
                if (lit) {
                    for (int k = 0; k < 3; k++) {
                        double u = v[k].lightmap_uv.x, w = v[k].lightmap_uv.y;
                        r->lm_outside += u < lo[0] - 1e-6 || u > hi[0] + 1e-6 || w < lo[1] - 1e-6 ||
                                         w > hi[1] + 1e-6;
                    }
                    /* the batch holding triangle t: on the slot's page */
                    r->lm_layer_wrong += layer_of[t] != layer;
                }
                double e1[3] = {v[1].position.x - v[0].position.x,
                                v[1].position.y - v[0].position.y,
                                v[1].position.z - v[0].position.z};
                double e2[3] = {v[2].position.x - v[0].position.x,
                                v[2].position.y - v[0].position.y,
                                v[2].position.z - v[0].position.z};
                double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                               e1[0] * e2[1] - e1[1] * e2[0]};
                double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                if (len < 1e-3)
                    continue;
                double d = 0;
                for (int k = 0; k < 3; k++)
                    d += (n[0] * v[k].normal.x + n[1] * v[k].normal.y + n[2] * v[k].normal.z) / len;
                if (d > 0.3)
                    r->wound_ok++;
                else if (d < -0.3)
                    r->wound_wrong++;
            }
        }
        for (uint32_t i = 0; i < bsp->surface_count; i++) {
            bool world = q3gc_drawn_world(bsp, i);
            if (world) {
                uint64_t want = q3gc_expect(bsp, i, subdiv);
                r->want_tris += want;
                if (bsp->surfaces[i].type == 2)
                    r->want_patch_tris += want;
                if (!r->tris_of[i])
                    r->missing++;
            }
            if (r->tris_of[i] && subdiv > 0 && r->tris_of[i] != q3gc_expect(bsp, i, subdiv))
                r->count_wrong++;
            if (r->tris_of[i] && subdiv <= 0 && bsp->surfaces[i].type != 2 &&
                r->tris_of[i] != q3gc_expect(bsp, i, 0))
                r->count_wrong++;
        }
        free(layer_of);
        blvl_bytes_free(&sec);
    }
    blvl_close(level);
    rc = 0;
done:
    blvl_bake_free(b);
    blvl_q3_bsp_free(bsp);
    return rc;
}

static void q3gc_free(q3gc *r) {
    free(r->tris_of);
    blvl_free(NULL, r->level);
    blvl_free(NULL, r->sym);
    memset(r, 0, sizeof *r);
}

#endif
