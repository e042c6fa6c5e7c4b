/* Fuzz target: the IBSP 46 reader (blvl_q3_bsp_read). A refusal must be BLVL_E_SOURCE with the
 * documented "<part>: <field> at offset N: <rule>: ..." shape; a map that reads must keep every
 * promise include/blvl/q3.h makes (indices in range or the documented "none", runs inside their
 * arrays, finite positions), checked here apart from the reader. Seeds (fuzz/corpus/q3_bsp/):
 * the valid map and some malformed ones of tests/data/q3/make_bsp.py. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/q3.h"

static void need(int ok) {
    if (!ok)
        abort();
}

static int run_ok(int32_t first, int32_t n, uint32_t total) {
    return first >= 0 && n >= 0 && (int64_t)first + n <= (int64_t)total;
}

static int idx_ok(int32_t v, uint32_t n) {
    return v >= 0 && (uint32_t)v < n;
}

static void check(const blvl_q3_bsp *b) {
    need(b->model_count >= 1);
    need(strlen(b->entities) == b->entities_size);
    for (uint32_t i = 0; i < b->node_count; i++) {
        need(idx_ok(b->nodes[i].plane, b->plane_count));
        for (int k = 0; k < 2; k++) {
            int32_t c = b->nodes[i].children[k];
            need(c < 0 ? (uint32_t)(-(int64_t)c - 1) < b->leaf_count
                       : (uint32_t)c > i && (uint32_t)c < b->node_count);
        }
    }
    for (uint32_t i = 0; i < b->leaf_count; i++) {
        const blvl_q3_leaf *l = &b->leafs[i];
        need(run_ok(l->first_leaf_surface, l->num_leaf_surfaces, b->leaf_surface_count));
        need(run_ok(l->first_leaf_brush, l->num_leaf_brushes, b->leaf_brush_count));
        need(l->cluster >= -1 && (!b->vis || l->cluster < (int64_t)b->vis_clusters));
    }
    for (uint32_t i = 0; i < b->leaf_surface_count; i++)
        need(idx_ok(b->leaf_surfaces[i], b->surface_count));
    for (uint32_t i = 0; i < b->leaf_brush_count; i++)
        need(idx_ok(b->leaf_brushes[i], b->brush_count));
    for (uint32_t i = 0; i < b->model_count; i++) {
        const blvl_q3_model *m = &b->models[i];
        need(run_ok(m->first_surface, m->num_surfaces, b->surface_count));
        need(run_ok(m->first_brush, m->num_brushes, b->brush_count));
    }
    for (uint32_t i = 0; i < b->brush_count; i++) {
        need(run_ok(b->brushes[i].first_side, b->brushes[i].num_sides, b->brush_side_count));
        need(idx_ok(b->brushes[i].shader, b->shader_count));
    }
    for (uint32_t i = 0; i < b->brush_side_count; i++) {
        need(idx_ok(b->brush_sides[i].plane, b->plane_count));
        need(idx_ok(b->brush_sides[i].shader, b->shader_count));
    }
    for (uint32_t i = 0; i < b->plane_count; i++)
        need(isfinite(b->planes[i].dist) && isfinite(b->planes[i].normal[0]));
    for (uint32_t i = 0; i < b->draw_vert_count; i++)
        for (int k = 0; k < 3; k++)
            need(isfinite(b->draw_verts[i].xyz[k]));
    for (uint32_t i = 0; i < b->fog_count; i++) {
        need(idx_ok(b->fogs[i].brush, b->brush_count));
        need(b->fogs[i].visible_side == -1 ||
             idx_ok(b->fogs[i].visible_side, (uint32_t)b->brushes[b->fogs[i].brush].num_sides));
    }
    for (uint32_t i = 0; i < b->surface_count; i++) {
        const blvl_q3_surface *s = &b->surfaces[i];
        need(idx_ok(s->shader, b->shader_count));
        need(s->fog == -1 || idx_ok(s->fog, b->fog_count));
        need(s->type >= BLVL_Q3_MST_PLANAR && s->type <= BLVL_Q3_MST_FLARE);
        need(run_ok(s->first_vert, s->num_verts, b->draw_vert_count));
        need(run_ok(s->first_index, s->num_indexes, b->draw_index_count));
        if (s->type == BLVL_Q3_MST_PLANAR || s->type == BLVL_Q3_MST_TRIANGLE_SOUP) {
            need(s->num_indexes % 3 == 0);
            for (int32_t k = 0; k < s->num_indexes; k++)
                need(idx_ok(b->draw_indexes[s->first_index + k], (uint32_t)s->num_verts));
        }
        if (s->type == BLVL_Q3_MST_PATCH)
            need(s->patch_width >= 3 && s->patch_height >= 3 &&
                 (int64_t)s->patch_width * s->patch_height == s->num_verts);
        if (b->lightmap_count && s->lightmap >= 0)
            need((uint32_t)s->lightmap < b->lightmap_count &&
                 s->lightmap_x + (int64_t)s->lightmap_width <= BLVL_Q3_LIGHTMAP_SIZE &&
                 s->lightmap_y + (int64_t)s->lightmap_height <= BLVL_Q3_LIGHTMAP_SIZE);
    }
    need(b->length[BLVL_Q3_LUMP_LIGHTMAPS] == b->lightmap_count * 128u * 128u * 3u);
    need(!b->vis || (uint64_t)b->vis_row_size * 8 >= b->vis_clusters);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    blvl_error err;
    blvl_q3_bsp *bsp = NULL;
    blvl_status st = blvl_q3_bsp_read(&bsp, data, size, &opt, &err);
    if (st == BLVL_OK) {
        check(bsp);
        blvl_q3_bsp_free(bsp);
    } else {
        need(st == BLVL_E_SOURCE && bsp == NULL);
        need(strstr(err.message, " at offset ") != NULL);
    }
    return 0;
}
