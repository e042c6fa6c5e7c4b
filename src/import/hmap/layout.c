/* Wire sizes of parsed records: the writer sizes its output with them and the cross-chunk
 * checks find a field's file offset with them (read -> write is byte-identical, so both agree
 * with the file). */
#include <string.h>

#include "import/hmap/hmap_internal.h"

const char blvl__import_hmap_tags[HM_KINDS][4] = {{'M', 'E', 'T', 'A'}, {'M', 'A', 'T', 'S'},
                                                  {'B', 'R', 'S', 'H'}, {'M', 'E', 'S', 'H'},
                                                  {'E', 'N', 'T', 'S'}, {'C', 'M', 'P', 'L'}};

hm_kind blvl__import_hmap_kind_of(const char tag[4]) {
    for (int k = 0; k < HM_KINDS; k++)
        if (memcmp(tag, blvl__import_hmap_tags[k], 4) == 0)
            return (hm_kind)k;
    return HM_KINDS;
}

/* A hand-built map may leave an array NULL with a count set: the writer then writes the count
 * and no records (it checks nothing), and the sizes here agree. */
#define ARR(p, n, size) ((p) ? (uint64_t)(n) * (size) : 0)

uint64_t blvl__import_hmap_size_str(const blvl_hmap_str *s) {
    return 4 + ARR(s->bytes, s->size, 1);
}

uint64_t blvl__import_hmap_size_mesh_head(const blvl_hmap_mesh *m) {
    return 12 + blvl__import_hmap_size_str(&m->name) + 4 + ARR(m->vertices, m->vertex_count, 12) +
           4;
}

uint64_t blvl__import_hmap_size_poly(const blvl_hmap_poly *p) {
    return HM_POLY_MIN + ARR(p->indices, p->index_count, 4) + ARR(p->uvs, p->uv_count, 8);
}

uint64_t blvl__import_hmap_size_batch(const blvl_hmap_batch *b) {
    return HM_BATCH_MIN + ARR(b->vertices, b->vertex_count, HM_CVERTEX_SIZE) +
           ARR(b->indices, b->index_count, 4);
}

static uint64_t size_cbrushes(uint32_t n, const blvl_hmap_cbrush *b) {
    uint64_t s = 4;
    for (uint32_t i = 0; b && i < n; i++)
        s += HM_CBRUSH_MIN + ARR(b[i].planes, b[i].plane_count, 16);
    return s;
}

static uint64_t size_cmpl(const blvl_hmap_compiled *m) {
    uint64_t s = HM_CMPL_HEAD + 4;
    for (uint32_t i = 0; m->batches && i < m->batch_count; i++)
        s += blvl__import_hmap_size_batch(&m->batches[i]);
    s += 4;
    for (uint32_t i = 0; m->models && i < m->model_count; i++)
        s += 28 + size_cbrushes(m->models[i].brush_count, m->models[i].brushes);
    const blvl_hmap_bsp *t = &m->bsp;
    s += HM_BSP_MIN - 4 + ARR(t->planes, t->plane_count, 16) +
         ARR(t->nodes, t->node_count, HM_NODE_SIZE) + ARR(t->leaves, t->leaf_count, HM_LEAF_SIZE) +
         ARR(t->leaf_brushes, t->leaf_brush_count, 4) + size_cbrushes(t->brush_count, t->brushes);
    s += 4;
    for (uint32_t i = 0; m->mesh_colls && i < m->mesh_coll_count; i++)
        s += HM_COLL_MIN + ARR(m->mesh_colls[i].vertices, m->mesh_colls[i].vertex_count, 12);
    s += 4 + ARR(m->lights, m->light_count, HM_LIGHT_SIZE);
    return s;
}

uint64_t blvl__import_hmap_size_payload(const blvl_hmap *map, hm_kind kind) {
    uint64_t s = 4;
    switch (kind) {
    case HM_META:
        return map->meta ? blvl__import_hmap_size_str(&map->meta->name) + 24 : 0;
    case HM_MATS:
        for (uint32_t i = 0; map->materials && i < map->material_count; i++)
            s += 24 + blvl__import_hmap_size_str(&map->materials[i].name) +
                 blvl__import_hmap_size_str(&map->materials[i].texture);
        return s;
    case HM_BRSH:
        for (uint32_t i = 0; map->brushes && i < map->brush_count; i++)
            s +=
                HM_BRUSH_MIN + ARR(map->brushes[i].faces, map->brushes[i].face_count, HM_FACE_SIZE);
        return s;
    case HM_MESH:
        for (uint32_t i = 0; map->meshes && i < map->mesh_count; i++) {
            const blvl_hmap_mesh *m = &map->meshes[i];
            s += blvl__import_hmap_size_mesh_head(m);
            for (uint32_t k = 0; m->polys && k < m->poly_count; k++)
                s += blvl__import_hmap_size_poly(&m->polys[k]);
        }
        return s;
    case HM_ENTS:
        for (uint32_t i = 0; map->entities && i < map->entity_count; i++) {
            const blvl_hmap_entity *e = &map->entities[i];
            s += 48 + blvl__import_hmap_size_str(&e->classname);
            for (uint32_t k = 0; e->pairs && k < e->pair_count; k++)
                s += blvl__import_hmap_size_str(&e->pairs[k].key) +
                     blvl__import_hmap_size_str(&e->pairs[k].value);
        }
        return s;
    case HM_CMPL:
        return map->compiled ? size_cmpl(map->compiled) : 0;
    default:
        return 0;
    }
}

uint64_t blvl__import_hmap_payload_at(const blvl_hmap *map, hm_kind kind) {
    if (!map->chunk_count) { /* built by hand: where blvl_hmap_write puts it */
        const bool present[HM_KINDS] = {map->meta != NULL, map->has_mats, map->has_brsh,
                                        map->has_mesh,     map->has_ents, map->compiled != NULL};
        uint64_t at = HM_HEADER_SIZE;
        for (int k = 0; k < (int)kind; k++)
            if (present[k])
                at += HM_CHUNK_HEADER + blvl__import_hmap_size_payload(map, (hm_kind)k);
        return at + HM_CHUNK_HEADER;
    }
    for (uint32_t i = 0; map->chunks && i < map->chunk_count; i++)
        if (map->chunks[i].known && blvl__import_hmap_kind_of(map->chunks[i].tag) == kind)
            return map->chunks[i].offset + HM_CHUNK_HEADER;
    return 0;
}

uint64_t blvl__import_hmap_at_face(const blvl_hmap *map, uint32_t brush, uint32_t face) {
    uint64_t at = blvl__import_hmap_payload_at(map, HM_BRSH);
    if (!at)
        return 0;
    at += 4;
    for (uint32_t i = 0; i < brush; i++)
        at += HM_BRUSH_MIN + ARR(map->brushes[i].faces, map->brushes[i].face_count, HM_FACE_SIZE);
    return face == UINT32_MAX ? at : at + HM_BRUSH_MIN + (uint64_t)HM_FACE_SIZE * face;
}

uint64_t blvl__import_hmap_at_poly(const blvl_hmap *map, uint32_t mesh, uint32_t poly) {
    uint64_t at = blvl__import_hmap_payload_at(map, HM_MESH);
    if (!at)
        return 0;
    at += 4;
    for (uint32_t i = 0; i <= mesh && i < map->mesh_count; i++) {
        const blvl_hmap_mesh *m = &map->meshes[i];
        if (i == mesh && poly == UINT32_MAX)
            return at;
        at += blvl__import_hmap_size_mesh_head(m);
        uint32_t n = i == mesh ? poly : m->poly_count;
        for (uint32_t k = 0; m->polys && k < n; k++)
            at += blvl__import_hmap_size_poly(&m->polys[k]);
    }
    return at;
}

uint64_t blvl__import_hmap_at_entity(const blvl_hmap *map, uint32_t entity) {
    uint64_t at = blvl__import_hmap_payload_at(map, HM_ENTS);
    if (!at)
        return 0;
    at += 4;
    for (uint32_t i = 0; i < entity && i < map->entity_count; i++) {
        const blvl_hmap_entity *e = &map->entities[i];
        at += 48 + blvl__import_hmap_size_str(&e->classname);
        for (uint32_t k = 0; e->pairs && k < e->pair_count; k++)
            at += blvl__import_hmap_size_str(&e->pairs[k].key) +
                  blvl__import_hmap_size_str(&e->pairs[k].value);
    }
    return at;
}

uint64_t blvl__import_hmap_at_batch(const blvl_hmap *map, uint32_t batch) {
    uint64_t at = blvl__import_hmap_payload_at(map, HM_CMPL);
    if (!at || !map->compiled)
        return 0;
    at += HM_CMPL_HEAD + 4;
    for (uint32_t i = 0; i < batch && i < map->compiled->batch_count; i++)
        at += blvl__import_hmap_size_batch(&map->compiled->batches[i]);
    return at;
}
