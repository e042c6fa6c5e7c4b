/* CMPL, the compiled map: batches, models, the BSP, mesh collision, lights. Checks that need
 * only this chunk run as soon as what they compare against has been read (a batch's indices
 * against its vertices, the BSP once all of it is read, batch models once the models are);
 * batch materials against MATS wait for every chunk (check.c). */
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

static blvl_status read_batch(blvl__cursor *c, blvl_hmap_batch *b) {
    HM_TRY(blvl__cursor_i32(c, "material", &b->material));
    uint64_t at = c->pos;
    HM_TRY(blvl__cursor_u8(c, "source", &b->source));
    if (b->source > 1)
        return blvl__cursor_fail(c, "source", at, "enum", "%u is neither 0 (brush) nor 1 (mesh)",
                                 b->source);
    HM_TRY(blvl__cursor_i32(c, "model", &b->model));
    HM_ARRAY(c, "vertexCount", HM_CVERTEX_SIZE, &b->vertex_count, b->vertices);
    for (uint32_t k = 0; k < b->vertex_count; k++) {
        blvl_hmap_cvertex *v = &b->vertices[k];
        HM_TRY(blvl__import_hmap_vec3(c, "pos", &v->pos));
        HM_TRY(blvl__import_hmap_vec3(c, "normal", &v->normal));
        HM_TRY(blvl__import_hmap_vec2(c, "uv", &v->uv));
        HM_TRY(blvl__cursor_u32(c, "color", &v->color));
    }
    at = c->pos;
    HM_ARRAY(c, "indexCount", 4, &b->index_count, b->indices);
    if (b->index_count % 3)
        return blvl__cursor_fail(c, "indexCount", at, "batch-triangles",
                                 "%u is not a multiple of 3 (a triangle list)", b->index_count);
    return blvl__import_hmap_take_indices(c, b->indices, b->index_count, b->vertex_count,
                                          "batch-index", "batch");
}

static blvl_status read_cbrush(blvl__cursor *c, blvl_hmap_cbrush *b) {
    HM_TRY(blvl__cursor_u32(c, "contents", &b->contents));
    HM_TRY(blvl__cursor_u32(c, "sourceId", &b->source_id));
    HM_TRY(blvl__import_hmap_box(c, "bounds", &b->bounds));
    HM_ARRAY(c, "planeCount", 16, &b->plane_count, b->planes);
    blvl__import_hmap_take_planes(c, b->planes, b->plane_count);
    return BLVL_OK;
}

static blvl_status read_cbrushes(blvl__cursor *c, uint32_t *count, blvl_hmap_cbrush **arr) {
    HM_ARRAY(c, "brushCount", HM_CBRUSH_MIN, count, *arr);
    blvl__cursor_enter(c, "brush", 0);
    for (uint32_t k = 0; k < *count; k++) {
        blvl__cursor_index(c, k);
        HM_TRY(read_cbrush(c, &(*arr)[k]));
    }
    blvl__cursor_leave(c);
    return BLVL_OK;
}

static blvl_status read_bsp(blvl__cursor *c, blvl_hmap_bsp *t) {
    uint64_t at = c->pos;
    blvl__cursor_enter(c, "bsp", BLVL__CURSOR_NO_INDEX);
    HM_TRY(blvl__cursor_i32(c, "root", &t->root));
    HM_TRY(blvl__cursor_u32(c, "depth", &t->depth));
    HM_TRY(blvl__import_hmap_box(c, "bounds", &t->bounds));
    HM_ARRAY(c, "planeCount", 16, &t->plane_count, t->planes);
    blvl__import_hmap_take_planes(c, t->planes, t->plane_count);
    HM_ARRAY(c, "nodeCount", HM_NODE_SIZE, &t->node_count, t->nodes);
    for (uint32_t k = 0; k < t->node_count; k++) {
        HM_TRY(blvl__cursor_i32(c, "node", &t->nodes[k].plane));
        HM_TRY(blvl__cursor_i32(c, "node", &t->nodes[k].front));
        HM_TRY(blvl__cursor_i32(c, "node", &t->nodes[k].back));
    }
    HM_ARRAY(c, "leafCount", HM_LEAF_SIZE, &t->leaf_count, t->leaves);
    for (uint32_t k = 0; k < t->leaf_count; k++) {
        HM_TRY(blvl__cursor_u32(c, "leaf", &t->leaves[k].first_brush));
        HM_TRY(blvl__cursor_u32(c, "leaf", &t->leaves[k].brush_count));
    }
    HM_ARRAY(c, "leafBrushCount", 4, &t->leaf_brush_count, t->leaf_brushes);
    blvl__import_hmap_take_u32s(c, t->leaf_brushes, t->leaf_brush_count);
    HM_TRY(read_cbrushes(c, &t->brush_count, &t->brushes));
    HM_TRY(blvl__import_hmap_check_bsp(c, t, at));
    blvl__cursor_leave(c);
    return BLVL_OK;
}

blvl_status blvl__import_hmap_read_cmpl(blvl__cursor *c, blvl_hmap *map) {
    blvl_hmap_compiled *m = blvl__calloc(c->a, sizeof *m);
    if (!m)
        return blvl__nomem(c->err, "CMPL");
    map->compiled = m;
    HM_TRY(blvl__import_hmap_vec3(c, "ambient", &m->ambient));
    HM_TRY(blvl__cursor_f32(c, "unitsPerMeter", &m->units_per_meter));
    uint64_t at = c->pos;
    HM_TRY(blvl__cursor_u8(c, "baked", &m->baked));
    if (m->baked > 1)
        return blvl__cursor_fail(c, "baked", at, "enum", "%u is neither 0 nor 1", m->baked);
    HM_TRY(blvl__import_hmap_box(c, "bounds", &m->bounds));

    uint64_t batches_at = c->pos + 4;
    HM_ARRAY(c, "batchCount", HM_BATCH_MIN, &m->batch_count, m->batches);
    blvl__cursor_enter(c, "batch", 0);
    for (uint32_t i = 0; i < m->batch_count; i++) {
        blvl__cursor_index(c, i);
        HM_TRY(read_batch(c, &m->batches[i]));
    }
    blvl__cursor_leave(c);

    HM_ARRAY(c, "modelCount", HM_MODEL_MIN, &m->model_count, m->models);
    blvl__cursor_enter(c, "model", 0);
    for (uint32_t i = 0; i < m->model_count; i++) {
        blvl_hmap_model *o = &m->models[i];
        blvl__cursor_index(c, i);
        HM_TRY(blvl__cursor_u32(c, "entityId", &o->entity_id));
        HM_TRY(blvl__import_hmap_box(c, "bounds", &o->bounds));
        HM_TRY(read_cbrushes(c, &o->brush_count, &o->brushes));
    }
    blvl__cursor_leave(c);

    /* A batch's model: negative = none, like material indices. */
    blvl__cursor_enter(c, "batch", 0);
    uint64_t pos = batches_at;
    for (uint32_t i = 0; i < m->batch_count; i++) {
        const blvl_hmap_batch *b = &m->batches[i];
        if (b->model >= 0 && (uint32_t)b->model >= m->model_count) {
            blvl__cursor_index(c, i);
            return blvl__cursor_fail(c, "model", pos + 5, "model-range",
                                     "%d is past the %u models of CMPL", b->model, m->model_count);
        }
        pos += blvl__import_hmap_size_batch(b);
    }
    blvl__cursor_leave(c);

    HM_TRY(read_bsp(c, &m->bsp));

    HM_ARRAY(c, "meshCollCount", HM_COLL_MIN, &m->mesh_coll_count, m->mesh_colls);
    blvl__cursor_enter(c, "meshColl", 0);
    for (uint32_t i = 0; i < m->mesh_coll_count; i++) {
        blvl_hmap_mesh_coll *o = &m->mesh_colls[i];
        blvl__cursor_index(c, i);
        HM_TRY(blvl__cursor_u32(c, "objectId", &o->object_id));
        HM_TRY(blvl__import_hmap_box(c, "bounds", &o->bounds));
        at = c->pos;
        HM_ARRAY(c, "vertexCount", 12, &o->vertex_count, o->vertices);
        if (o->vertex_count % 3)
            return blvl__cursor_fail(c, "vertexCount", at, "coll-triangles",
                                     "%u is not a multiple of 3 (3 vertices per triangle)",
                                     o->vertex_count);
        blvl__import_hmap_take_vec3s(c, o->vertices, o->vertex_count);
    }
    blvl__cursor_leave(c);

    HM_ARRAY(c, "lightCount", HM_LIGHT_SIZE, &m->light_count, m->lights);
    blvl__cursor_enter(c, "light", 0);
    for (uint32_t i = 0; i < m->light_count; i++) {
        blvl_hmap_light *l = &m->lights[i];
        blvl__cursor_index(c, i);
        at = c->pos;
        blvl__cursor_u8(c, "type", &l->type);
        if (l->type > 2)
            return blvl__cursor_fail(c, "type", at, "enum",
                                     "%u is none of 0 (point), 1 (spot), 2 (sun)", l->type);
        blvl__import_hmap_vec3(c, "pos", &l->pos);
        blvl__import_hmap_vec3(c, "dir", &l->dir);
        blvl__import_hmap_vec3(c, "color", &l->color);
        blvl__cursor_f32(c, "intensity", &l->intensity);
        blvl__cursor_f32(c, "radius", &l->radius);
        blvl__cursor_f32(c, "innerDeg", &l->inner_deg);
        blvl__cursor_f32(c, "outerDeg", &l->outer_deg);
        blvl__cursor_u32(c, "entityId", &l->entity_id);
    }
    blvl__cursor_leave(c);
    return blvl__cursor_end(c);
}
