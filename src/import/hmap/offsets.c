/* File offsets of the fields a bake refusal names. Only refusals ask, so each walks the records
 * before the one it wants (the reader keeps no per-record offsets). A map read from a file has
 * its chunks' offsets; a hand-built one (chunk_count 0) is laid out as blvl_hmap_write lays it
 * out: the 12-byte header, then META, MATS, BRSH, MESH, ENTS, CMPL. */
#include <string.h>

#include "bake_internal.h"

#define STR(s) (4u + (uint64_t)(s).size)

static uint64_t size_meta(const blvl_hmap *m) {
    return m->meta ? STR(m->meta->name) + 12 + 4 + 4 + 4 : 0;
}

static uint64_t size_mats(const blvl_hmap *m) {
    uint64_t n = 4;
    for (uint32_t i = 0; i < m->material_count; i++)
        n += STR(m->materials[i].name) + STR(m->materials[i].texture) + 8 + 12 + 4;
    return n;
}

static uint64_t size_brush(const blvl_hmap_brush *b) {
    return 20 + 44 * (uint64_t)b->face_count;
}

static uint64_t size_mesh(const blvl_hmap_mesh *me) {
    uint64_t n = 12 + STR(me->name) + 4 + 12 * (uint64_t)me->vertex_count + 4;
    for (uint32_t p = 0; p < me->poly_count; p++)
        n += 4 + 4 + 20 + 4 + 4 * (uint64_t)me->polys[p].index_count + 4 +
             8 * (uint64_t)me->polys[p].uv_count;
    return n;
}

static uint64_t size_entity(const blvl_hmap_entity *e) {
    uint64_t n = 8 + STR(e->classname) + 36 + 4;
    for (uint32_t p = 0; p < e->pair_count; p++)
        n += STR(e->pairs[p].key) + STR(e->pairs[p].value);
    return n;
}

uint64_t blvl__hb_off_chunk(const blvl_hmap *m, const char tag[4]) {
    if (m->chunk_count) {
        for (uint32_t i = 0; i < m->chunk_count; i++)
            if (memcmp(m->chunks[i].tag, tag, 4) == 0)
                return m->chunks[i].offset;
        return 0;
    }
    static const char order[6][4] = {"META", "MATS", "BRSH", "MESH", "ENTS", "CMPL"};
    uint64_t off = 12;
    for (int k = 0; k < 6; k++) {
        if (memcmp(order[k], tag, 4) == 0)
            return off;
        uint64_t size = 0;
        bool present = false;
        switch (k) {
        case 0:
            present = m->meta != NULL;
            size = size_meta(m);
            break;
        case 1:
            present = m->has_mats;
            size = size_mats(m);
            break;
        case 2:
            present = m->has_brsh;
            size = 4;
            for (uint32_t i = 0; i < m->brush_count; i++)
                size += size_brush(&m->brushes[i]);
            break;
        case 3:
            present = m->has_mesh;
            size = 4;
            for (uint32_t i = 0; i < m->mesh_count; i++)
                size += size_mesh(&m->meshes[i]);
            break;
        case 4:
            present = m->has_ents;
            size = 4;
            for (uint32_t i = 0; i < m->entity_count; i++)
                size += size_entity(&m->entities[i]);
            break;
        default:
            break;
        }
        if (present)
            off += 8 + size;
    }
    return off;
}

uint64_t blvl__hb_off_meta_upm(const blvl_hmap *m) {
    return blvl__hb_off_chunk(m, "META") + 8 + STR(m->meta->name) + 12 + 4;
}

uint64_t blvl__hb_off_cmpl_upm(const blvl_hmap *m) {
    return blvl__hb_off_chunk(m, "CMPL") + 8 + 12;
}

uint64_t blvl__hb_off_brush(const blvl_hmap *m, uint32_t i) {
    uint64_t off = blvl__hb_off_chunk(m, "BRSH") + 8 + 4;
    for (uint32_t k = 0; k < i && k < m->brush_count; k++)
        off += size_brush(&m->brushes[k]);
    return off;
}

uint64_t blvl__hb_off_face(const blvl_hmap *m, uint32_t i, uint32_t j) {
    return blvl__hb_off_brush(m, i) + 20 + 44 * (uint64_t)j;
}

uint64_t blvl__hb_off_mesh(const blvl_hmap *m, uint32_t i) {
    uint64_t off = blvl__hb_off_chunk(m, "MESH") + 8 + 4;
    for (uint32_t k = 0; k < i && k < m->mesh_count; k++)
        off += size_mesh(&m->meshes[k]);
    return off;
}

uint64_t blvl__hb_off_mesh_vertex(const blvl_hmap *m, uint32_t i, uint32_t v) {
    return blvl__hb_off_mesh(m, i) + 12 + STR(m->meshes[i].name) + 4 + 12 * (uint64_t)v;
}

uint64_t blvl__hb_off_entity(const blvl_hmap *m, uint32_t i) {
    uint64_t off = blvl__hb_off_chunk(m, "ENTS") + 8 + 4;
    for (uint32_t k = 0; k < i && k < m->entity_count; k++)
        off += size_entity(&m->entities[k]);
    return off;
}

uint64_t blvl__hb_off_pair_value(const blvl_hmap *m, uint32_t i, uint32_t p) {
    const blvl_hmap_entity *e = &m->entities[i];
    uint64_t off = blvl__hb_off_entity(m, i) + 8 + STR(e->classname) + 36 + 4;
    for (uint32_t k = 0; k < p; k++)
        off += STR(e->pairs[k].key) + STR(e->pairs[k].value);
    return off + STR(e->pairs[p].key);
}

/* CMPL: ambient 12, unitsPerMeter 4, baked 1, bounds 24, then the batches. */
static uint64_t size_batch(const blvl_hmap_batch *b) {
    return 4 + 1 + 4 + 4 + 36 * (uint64_t)b->vertex_count + 4 + 4 * (uint64_t)b->index_count;
}

static uint64_t size_cbrush(const blvl_hmap_cbrush *b) {
    return 4 + 4 + 24 + 4 + 16 * (uint64_t)b->plane_count;
}

static uint64_t size_model(const blvl_hmap_model *mo) {
    uint64_t n = 4 + 24 + 4;
    for (uint32_t j = 0; j < mo->brush_count; j++)
        n += size_cbrush(&mo->brushes[j]);
    return n;
}

uint64_t blvl__hb_off_cmpl_batch(const blvl_hmap *m, uint32_t i) {
    const blvl_hmap_compiled *c = m->compiled;
    uint64_t off = blvl__hb_off_chunk(m, "CMPL") + 8 + 12 + 4 + 1 + 24 + 4;
    for (uint32_t k = 0; k < i && k < c->batch_count; k++)
        off += size_batch(&c->batches[k]);
    return off;
}

uint64_t blvl__hb_off_cmpl_model(const blvl_hmap *m, uint32_t i) {
    const blvl_hmap_compiled *c = m->compiled;
    uint64_t off = blvl__hb_off_cmpl_batch(m, c->batch_count) + 4;
    for (uint32_t k = 0; k < i && k < c->model_count; k++)
        off += size_model(&c->models[k]);
    return off;
}

uint64_t blvl__hb_off_cmpl_plane(const blvl_hmap *m, uint32_t i, uint32_t j, uint32_t k) {
    const blvl_hmap_model *mo = &m->compiled->models[i];
    uint64_t off = blvl__hb_off_cmpl_model(m, i) + 4 + 24 + 4;
    for (uint32_t b = 0; b < j && b < mo->brush_count; b++)
        off += size_cbrush(&mo->brushes[b]);
    return off + 4 + 4 + 24 + 4 + 16 * (uint64_t)k;
}

/* mesh collision object i (i = meshCollCount: the lightCount field after them) */
static uint64_t off_cmpl_mesh_coll(const blvl_hmap *m, uint32_t i) {
    const blvl_hmap_compiled *c = m->compiled;
    const blvl_hmap_bsp *t = &c->bsp;
    uint64_t off = blvl__hb_off_cmpl_model(m, c->model_count);
    off += 4 + 4 + 24 + 4 + 16 * (uint64_t)t->plane_count + 4 + 12 * (uint64_t)t->node_count + 4 +
           8 * (uint64_t)t->leaf_count + 4 + 4 * (uint64_t)t->leaf_brush_count + 4;
    for (uint32_t k = 0; k < t->brush_count; k++)
        off += size_cbrush(&t->brushes[k]);
    off += 4;
    for (uint32_t k = 0; k < i && k < c->mesh_coll_count; k++)
        off += 4 + 24 + 4 + 12 * (uint64_t)c->mesh_colls[k].vertex_count;
    return off;
}

uint64_t blvl__hb_off_cmpl_coll_vertex(const blvl_hmap *m, uint32_t i, uint32_t v) {
    return off_cmpl_mesh_coll(m, i) + 4 + 24 + 4 + 12 * (uint64_t)v;
}

uint64_t blvl__hb_off_cmpl_light(const blvl_hmap *m, uint32_t i) {
    return off_cmpl_mesh_coll(m, m->compiled->mesh_coll_count) + 4 + 57 * (uint64_t)i;
}
