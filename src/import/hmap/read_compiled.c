/* CMPL, the compiled map: batches, models, the BSP, mesh collision, lights. Checks that need
 * only this chunk run as soon as what they compare against has been read (a batch's indices
 * against its vertices, the BSP once all of it is read, batch models once the models are);
 * batch materials against MATS wait for every chunk (check.c). */
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

#define TRY(x)                                                                                     \
    do {                                                                                           \
        blvl_status st_ = (x);                                                                     \
        if (st_)                                                                                   \
            return st_;                                                                            \
    } while (0)

static blvl_status read_batch(hm_cur *c, blvl_hmap_batch *b) {
    TRY(hm_i32(c, "material", &b->material));
    uint64_t at = c->pos;
    TRY(hm_u8(c, "source", &b->source));
    if (b->source > 1)
        return hm_fail(c, "source", at, "enum", "%u is neither 0 (brush) nor 1 (mesh)", b->source);
    TRY(hm_i32(c, "model", &b->model));
    TRY(hm_array(c, "vertexCount", HM_CVERTEX_SIZE, sizeof(blvl_hmap_cvertex), &b->vertex_count,
                 (void **)&b->vertices));
    for (uint32_t k = 0; k < b->vertex_count; k++) {
        blvl_hmap_cvertex *v = &b->vertices[k];
        TRY(hm_vec3(c, "pos", &v->pos));
        TRY(hm_vec3(c, "normal", &v->normal));
        TRY(hm_vec2(c, "uv", &v->uv));
        TRY(hm_u32(c, "color", &v->color));
    }
    at = c->pos;
    TRY(hm_array(c, "indexCount", 4, sizeof(uint32_t), &b->index_count, (void **)&b->indices));
    if (b->index_count % 3)
        return hm_fail(c, "indexCount", at, "batch-triangles",
                       "%u is not a multiple of 3 (a triangle list)", b->index_count);
    uint64_t first = c->pos;
    hm_take_u32s(c, b->indices, b->index_count);
    for (uint32_t k = 0; k < b->index_count; k++)
        if (b->indices[k] >= b->vertex_count) {
            hm_enter(c, "index", k);
            blvl_status st =
                hm_fail(c, NULL, first + 4ull * k, "batch-index",
                        "%u is past the batch's %u vertices", b->indices[k], b->vertex_count);
            hm_leave(c);
            return st;
        }
    return BLVL_OK;
}

static blvl_status read_cbrush(hm_cur *c, blvl_hmap_cbrush *b) {
    TRY(hm_u32(c, "contents", &b->contents));
    TRY(hm_u32(c, "sourceId", &b->source_id));
    TRY(hm_box(c, "bounds", &b->bounds));
    TRY(hm_array(c, "planeCount", 16, sizeof(blvl_Plane), &b->plane_count, (void **)&b->planes));
    hm_take_planes(c, b->planes, b->plane_count);
    return BLVL_OK;
}

static blvl_status read_cbrushes(hm_cur *c, uint32_t *count, blvl_hmap_cbrush **arr) {
    TRY(hm_array(c, "brushCount", HM_CBRUSH_MIN, sizeof(blvl_hmap_cbrush), count, (void **)arr));
    hm_enter(c, "brush", 0);
    for (uint32_t k = 0; k < *count; k++) {
        hm_at(c, k);
        TRY(read_cbrush(c, &(*arr)[k]));
    }
    hm_leave(c);
    return BLVL_OK;
}

static blvl_status read_bsp(hm_cur *c, blvl_hmap_bsp *t) {
    uint64_t at = c->pos;
    hm_enter(c, "bsp", HM_NO_INDEX);
    TRY(hm_i32(c, "root", &t->root));
    TRY(hm_u32(c, "depth", &t->depth));
    TRY(hm_box(c, "bounds", &t->bounds));
    TRY(hm_array(c, "planeCount", 16, sizeof(blvl_Plane), &t->plane_count, (void **)&t->planes));
    hm_take_planes(c, t->planes, t->plane_count);
    TRY(hm_array(c, "nodeCount", HM_NODE_SIZE, sizeof(blvl_hmap_node), &t->node_count,
                 (void **)&t->nodes));
    for (uint32_t k = 0; k < t->node_count; k++) {
        TRY(hm_i32(c, "node", &t->nodes[k].plane));
        TRY(hm_i32(c, "node", &t->nodes[k].front));
        TRY(hm_i32(c, "node", &t->nodes[k].back));
    }
    TRY(hm_array(c, "leafCount", HM_LEAF_SIZE, sizeof(blvl_hmap_leaf), &t->leaf_count,
                 (void **)&t->leaves));
    for (uint32_t k = 0; k < t->leaf_count; k++) {
        TRY(hm_u32(c, "leaf", &t->leaves[k].first_brush));
        TRY(hm_u32(c, "leaf", &t->leaves[k].brush_count));
    }
    TRY(hm_array(c, "leafBrushCount", 4, sizeof(uint32_t), &t->leaf_brush_count,
                 (void **)&t->leaf_brushes));
    hm_take_u32s(c, t->leaf_brushes, t->leaf_brush_count);
    TRY(read_cbrushes(c, &t->brush_count, &t->brushes));
    TRY(hm_check_bsp(c, t, at));
    hm_leave(c);
    return BLVL_OK;
}

blvl_status hm_read_cmpl(hm_cur *c, blvl_hmap *map) {
    blvl_hmap_compiled *m = blvl__calloc(c->a, sizeof *m);
    if (!m)
        return blvl__fail(c->err, BLVL_E_NOMEM, "CMPL");
    map->compiled = m;
    TRY(hm_vec3(c, "ambient", &m->ambient));
    TRY(hm_f32(c, "unitsPerMeter", &m->units_per_meter));
    uint64_t at = c->pos;
    TRY(hm_u8(c, "baked", &m->baked));
    if (m->baked > 1)
        return hm_fail(c, "baked", at, "enum", "%u is neither 0 nor 1", m->baked);
    TRY(hm_box(c, "bounds", &m->bounds));

    uint64_t batches_at = c->pos + 4;
    TRY(hm_array(c, "batchCount", HM_BATCH_MIN, sizeof(blvl_hmap_batch), &m->batch_count,
                 (void **)&m->batches));
    hm_enter(c, "batch", 0);
    for (uint32_t i = 0; i < m->batch_count; i++) {
        hm_at(c, i);
        TRY(read_batch(c, &m->batches[i]));
    }
    hm_leave(c);

    TRY(hm_array(c, "modelCount", HM_MODEL_MIN, sizeof(blvl_hmap_model), &m->model_count,
                 (void **)&m->models));
    hm_enter(c, "model", 0);
    for (uint32_t i = 0; i < m->model_count; i++) {
        blvl_hmap_model *o = &m->models[i];
        hm_at(c, i);
        TRY(hm_u32(c, "entityId", &o->entity_id));
        TRY(hm_box(c, "bounds", &o->bounds));
        TRY(read_cbrushes(c, &o->brush_count, &o->brushes));
    }
    hm_leave(c);

    /* A batch's model: negative = none, like material indices. */
    hm_enter(c, "batch", 0);
    uint64_t pos = batches_at;
    for (uint32_t i = 0; i < m->batch_count; i++) {
        const blvl_hmap_batch *b = &m->batches[i];
        if (b->model >= 0 && (uint32_t)b->model >= m->model_count) {
            hm_at(c, i);
            return hm_fail(c, "model", pos + 5, "model-range", "%d is past the %u models of CMPL",
                           b->model, m->model_count);
        }
        pos += hm_size_batch(b);
    }
    hm_leave(c);

    TRY(read_bsp(c, &m->bsp));

    TRY(hm_array(c, "meshCollCount", HM_COLL_MIN, sizeof(blvl_hmap_mesh_coll), &m->mesh_coll_count,
                 (void **)&m->mesh_colls));
    hm_enter(c, "meshColl", 0);
    for (uint32_t i = 0; i < m->mesh_coll_count; i++) {
        blvl_hmap_mesh_coll *o = &m->mesh_colls[i];
        hm_at(c, i);
        TRY(hm_u32(c, "objectId", &o->object_id));
        TRY(hm_box(c, "bounds", &o->bounds));
        at = c->pos;
        TRY(hm_array(c, "vertexCount", 12, sizeof(blvl_Vec3), &o->vertex_count,
                     (void **)&o->vertices));
        if (o->vertex_count % 3)
            return hm_fail(c, "vertexCount", at, "coll-triangles",
                           "%u is not a multiple of 3 (3 vertices per triangle)", o->vertex_count);
        hm_take_vec3s(c, o->vertices, o->vertex_count);
    }
    hm_leave(c);

    TRY(hm_array(c, "lightCount", HM_LIGHT_SIZE, sizeof(blvl_hmap_light), &m->light_count,
                 (void **)&m->lights));
    hm_enter(c, "light", 0);
    for (uint32_t i = 0; i < m->light_count; i++) {
        blvl_hmap_light *l = &m->lights[i];
        hm_at(c, i);
        at = c->pos;
        hm_u8(c, "type", &l->type);
        if (l->type > 2)
            return hm_fail(c, "type", at, "enum", "%u is none of 0 (point), 1 (spot), 2 (sun)",
                           l->type);
        hm_vec3(c, "pos", &l->pos);
        hm_vec3(c, "dir", &l->dir);
        hm_vec3(c, "color", &l->color);
        hm_f32(c, "intensity", &l->intensity);
        hm_f32(c, "radius", &l->radius);
        hm_f32(c, "innerDeg", &l->inner_deg);
        hm_f32(c, "outerDeg", &l->outer_deg);
        hm_u32(c, "entityId", &l->entity_id);
    }
    hm_leave(c);
    return hm_end(c);
}
