/* blvl_hmap_free: every array and string was allocated alone with map->allocator, at the
 * exact size its count gives (a string: size + 1 for its NUL), so a hand-built map made the same
 * way can be freed here too. NULL arrays are skipped whatever their count says. */
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

#define FREE_ARR(a, p, n) blvl__dealloc((a), (p), (size_t)(n) * sizeof *(p))

static void str(const blvl_allocator *a, blvl_hmap_str *s) {
    blvl__dealloc(a, s->bytes, (size_t)s->size + 1);
}

static void cbrushes(const blvl_allocator *a, blvl_hmap_cbrush *b, uint32_t n) {
    for (uint32_t i = 0; b && i < n; i++)
        FREE_ARR(a, b[i].planes, b[i].plane_count);
    FREE_ARR(a, b, n);
}

static void compiled(const blvl_allocator *a, blvl_hmap_compiled *m) {
    for (uint32_t i = 0; m->batches && i < m->batch_count; i++) {
        FREE_ARR(a, m->batches[i].vertices, m->batches[i].vertex_count);
        FREE_ARR(a, m->batches[i].indices, m->batches[i].index_count);
    }
    FREE_ARR(a, m->batches, m->batch_count);
    for (uint32_t i = 0; m->models && i < m->model_count; i++)
        cbrushes(a, m->models[i].brushes, m->models[i].brush_count);
    FREE_ARR(a, m->models, m->model_count);
    blvl_hmap_bsp *t = &m->bsp;
    FREE_ARR(a, t->planes, t->plane_count);
    FREE_ARR(a, t->nodes, t->node_count);
    FREE_ARR(a, t->leaves, t->leaf_count);
    FREE_ARR(a, t->leaf_brushes, t->leaf_brush_count);
    cbrushes(a, t->brushes, t->brush_count);
    for (uint32_t i = 0; m->mesh_colls && i < m->mesh_coll_count; i++)
        FREE_ARR(a, m->mesh_colls[i].vertices, m->mesh_colls[i].vertex_count);
    FREE_ARR(a, m->mesh_colls, m->mesh_coll_count);
    FREE_ARR(a, m->lights, m->light_count);
    blvl__dealloc(a, m, sizeof *m);
}

void blvl_hmap_free(blvl_hmap *map) {
    if (!map)
        return;
    blvl_allocator al = map->allocator; /* the map itself goes last */
    const blvl_allocator *a = &al;
    for (uint32_t i = 0; map->chunks && i < map->chunk_count; i++)
        blvl__dealloc(a, map->chunks[i].bytes, map->chunks[i].size);
    FREE_ARR(a, map->chunks, map->chunk_count);
    if (map->meta) {
        str(a, &map->meta->name);
        blvl__dealloc(a, map->meta, sizeof *map->meta);
    }
    for (uint32_t i = 0; map->materials && i < map->material_count; i++) {
        str(a, &map->materials[i].name);
        str(a, &map->materials[i].texture);
    }
    FREE_ARR(a, map->materials, map->material_count);
    for (uint32_t i = 0; map->brushes && i < map->brush_count; i++)
        FREE_ARR(a, map->brushes[i].faces, map->brushes[i].face_count);
    FREE_ARR(a, map->brushes, map->brush_count);
    for (uint32_t i = 0; map->meshes && i < map->mesh_count; i++) {
        blvl_hmap_mesh *m = &map->meshes[i];
        str(a, &m->name);
        FREE_ARR(a, m->vertices, m->vertex_count);
        for (uint32_t k = 0; m->polys && k < m->poly_count; k++) {
            FREE_ARR(a, m->polys[k].indices, m->polys[k].index_count);
            FREE_ARR(a, m->polys[k].uvs, m->polys[k].uv_count);
        }
        FREE_ARR(a, m->polys, m->poly_count);
    }
    FREE_ARR(a, map->meshes, map->mesh_count);
    for (uint32_t i = 0; map->entities && i < map->entity_count; i++) {
        blvl_hmap_entity *e = &map->entities[i];
        str(a, &e->classname);
        for (uint32_t k = 0; e->pairs && k < e->pair_count; k++) {
            str(a, &e->pairs[k].key);
            str(a, &e->pairs[k].value);
        }
        FREE_ARR(a, e->pairs, e->pair_count);
    }
    FREE_ARR(a, map->entities, map->entity_count);
    if (map->compiled)
        compiled(a, map->compiled);
    blvl__dealloc(a, map, sizeof *map);
}
