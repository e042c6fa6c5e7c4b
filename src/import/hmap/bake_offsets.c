/* File offsets of the fields a bake refusal names. Only refusals ask, so each walks the records
 * before the one it wants (the reader keeps no per-record offsets). Records and wire sizes come
 * from layout.c, the reader's and the writer's: a map read from a file has its chunks'
 * offsets; a hand-built one (chunk_count 0) is laid out as blvl_hmap_write lays it out. */
#include <string.h>

#include "bake_internal.h"
#include "import/hmap/hmap_internal.h"

static uint64_t size_cbrush(const blvl_hmap_cbrush *b) {
    return HM_CBRUSH_MIN + 16 * (uint64_t)b->plane_count;
}

uint64_t blvl__import_hmap_bake_off_chunk(const blvl_hmap *m, const char tag[4]) {
    uint64_t at = blvl__import_hmap_payload_at(m, blvl__import_hmap_kind_of(tag));
    return at ? at - HM_CHUNK_HEADER : 0;
}

uint64_t blvl__import_hmap_bake_off_meta_upm(const blvl_hmap *m) {
    return blvl__import_hmap_payload_at(m, HM_META) + blvl__import_hmap_size_str(&m->meta->name) +
           12 + 4;
}

uint64_t blvl__import_hmap_bake_off_cmpl_upm(const blvl_hmap *m) {
    return blvl__import_hmap_payload_at(m, HM_CMPL) + 12;
}

uint64_t blvl__import_hmap_bake_off_brush(const blvl_hmap *m, uint32_t i) {
    return blvl__import_hmap_at_face(m, i, UINT32_MAX);
}

uint64_t blvl__import_hmap_bake_off_face(const blvl_hmap *m, uint32_t i, uint32_t j) {
    return blvl__import_hmap_at_face(m, i, j);
}

uint64_t blvl__import_hmap_bake_off_mesh(const blvl_hmap *m, uint32_t i) {
    return blvl__import_hmap_at_poly(m, i, UINT32_MAX);
}

uint64_t blvl__import_hmap_bake_off_mesh_vertex(const blvl_hmap *m, uint32_t i, uint32_t v) {
    return blvl__import_hmap_bake_off_mesh(m, i) + 12 +
           blvl__import_hmap_size_str(&m->meshes[i].name) + 4 + 12 * (uint64_t)v;
}

uint64_t blvl__import_hmap_bake_off_entity(const blvl_hmap *m, uint32_t i) {
    return blvl__import_hmap_at_entity(m, i);
}

uint64_t blvl__import_hmap_bake_off_pair_value(const blvl_hmap *m, uint32_t i, uint32_t p) {
    const blvl_hmap_entity *e = &m->entities[i];
    uint64_t off = blvl__import_hmap_bake_off_entity(m, i) + 8 +
                   blvl__import_hmap_size_str(&e->classname) + 36 + 4;
    for (uint32_t k = 0; k < p; k++)
        off += blvl__import_hmap_size_str(&e->pairs[k].key) +
               blvl__import_hmap_size_str(&e->pairs[k].value);
    return off + blvl__import_hmap_size_str(&e->pairs[p].key);
}

uint64_t blvl__import_hmap_bake_off_cmpl_batch(const blvl_hmap *m, uint32_t i) {
    return blvl__import_hmap_at_batch(m, i);
}

/* CMPL model i (i = modelCount: the BSP's root field after them) */
uint64_t blvl__import_hmap_bake_off_cmpl_model(const blvl_hmap *m, uint32_t i) {
    const blvl_hmap_compiled *c = m->compiled;
    uint64_t off = blvl__import_hmap_bake_off_cmpl_batch(m, c->batch_count) + 4;
    for (uint32_t k = 0; k < i && k < c->model_count; k++) {
        off += HM_MODEL_MIN;
        for (uint32_t j = 0; j < c->models[k].brush_count; j++)
            off += size_cbrush(&c->models[k].brushes[j]);
    }
    return off;
}

uint64_t blvl__import_hmap_bake_off_cmpl_plane(const blvl_hmap *m, uint32_t i, uint32_t j,
                                               uint32_t k) {
    const blvl_hmap_model *mo = &m->compiled->models[i];
    uint64_t off = blvl__import_hmap_bake_off_cmpl_model(m, i) + HM_MODEL_MIN;
    for (uint32_t b = 0; b < j && b < mo->brush_count; b++)
        off += size_cbrush(&mo->brushes[b]);
    return off + HM_CBRUSH_MIN + 16 * (uint64_t)k;
}

/* mesh collision object i (i = meshCollCount: the lightCount field after them) */
static uint64_t off_cmpl_mesh_coll(const blvl_hmap *m, uint32_t i) {
    const blvl_hmap_compiled *c = m->compiled;
    const blvl_hmap_bsp *t = &c->bsp;
    uint64_t off = blvl__import_hmap_bake_off_cmpl_model(m, c->model_count);
    off += HM_BSP_MIN + 16 * (uint64_t)t->plane_count + HM_NODE_SIZE * (uint64_t)t->node_count +
           HM_LEAF_SIZE * (uint64_t)t->leaf_count + 4 * (uint64_t)t->leaf_brush_count;
    for (uint32_t k = 0; k < t->brush_count; k++)
        off += size_cbrush(&t->brushes[k]);
    off += 4;
    for (uint32_t k = 0; k < i && k < c->mesh_coll_count; k++)
        off += HM_COLL_MIN + 12 * (uint64_t)c->mesh_colls[k].vertex_count;
    return off;
}

uint64_t blvl__import_hmap_bake_off_cmpl_coll_vertex(const blvl_hmap *m, uint32_t i, uint32_t v) {
    return off_cmpl_mesh_coll(m, i) + HM_COLL_MIN + 12 * (uint64_t)v;
}

uint64_t blvl__import_hmap_bake_off_cmpl_light(const blvl_hmap *m, uint32_t i) {
    return off_cmpl_mesh_coll(m, m->compiled->mesh_coll_count) + 4 + HM_LIGHT_SIZE * (uint64_t)i;
}
