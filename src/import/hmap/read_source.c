/* The chunks that come with either kind of file (META, MATS, ENTS) and the source chunks
 * (BRSH, MESH), field by field in the seed's order. Records go into the map as soon as their
 * array exists, so a refusal half-way leaves a map blvl_hmap_free can release. */
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

#define TRY(x)                                                                                     \
    do {                                                                                           \
        blvl_status st_ = (x);                                                                     \
        if (st_)                                                                                   \
            return st_;                                                                            \
    } while (0)

blvl_status hm_read_meta(hm_cur *c, blvl_hmap *map) {
    blvl_hmap_meta *m = blvl__calloc(c->a, sizeof *m);
    if (!m)
        return blvl__fail(c->err, BLVL_E_NOMEM, "META");
    map->meta = m;
    TRY(hm_str(c, "name", &m->name));
    TRY(hm_vec3(c, "ambient", &m->ambient));
    TRY(hm_f32(c, "gridSize", &m->grid_size));
    TRY(hm_f32(c, "unitsPerMeter", &m->units_per_meter));
    TRY(hm_u32(c, "nextId", &m->next_id));
    return hm_end(c);
}

blvl_status hm_read_mats(hm_cur *c, blvl_hmap *map) {
    map->has_mats = true;
    TRY(hm_array(c, "n", HM_MATERIAL_MIN, sizeof(blvl_hmap_material), &map->material_count,
                 (void **)&map->materials));
    hm_enter(c, "material", 0);
    for (uint32_t i = 0; i < map->material_count; i++) {
        blvl_hmap_material *m = &map->materials[i];
        hm_at(c, i);
        TRY(hm_str(c, "name", &m->name));
        TRY(hm_str(c, "texture", &m->texture));
        TRY(hm_vec2(c, "tileSize", &m->tile_size));
        TRY(hm_vec3(c, "color", &m->color));
        TRY(hm_u32(c, "flags", &m->flags));
    }
    hm_leave(c);
    return hm_end(c);
}

blvl_status hm_read_brsh(hm_cur *c, blvl_hmap *map) {
    map->has_brsh = true;
    TRY(hm_array(c, "n", HM_BRUSH_MIN, sizeof(blvl_hmap_brush), &map->brush_count,
                 (void **)&map->brushes));
    hm_enter(c, "brush", 0);
    for (uint32_t i = 0; i < map->brush_count; i++) {
        blvl_hmap_brush *b = &map->brushes[i];
        hm_at(c, i);
        TRY(hm_u32(c, "id", &b->id));
        TRY(hm_u32(c, "owner", &b->owner));
        TRY(hm_u32(c, "contents", &b->contents));
        TRY(hm_u32(c, "flags", &b->flags));
        TRY(hm_array(c, "faceCount", HM_FACE_SIZE, sizeof(blvl_hmap_face), &b->face_count,
                     (void **)&b->faces));
        hm_enter(c, "face", 0);
        for (uint32_t k = 0; k < b->face_count; k++) {
            blvl_hmap_face *f = &b->faces[k];
            hm_at(c, k);
            /* The count check proved the faces fit: no field here can run short. */
            TRY(hm_plane(c, "plane", &f->plane));
            TRY(hm_i32(c, "material", &f->material));
            TRY(hm_uv(c, "uv", &f->uv));
            TRY(hm_u32(c, "flags", &f->flags));
        }
        hm_leave(c);
    }
    hm_leave(c);
    return hm_end(c);
}

static blvl_status read_poly(hm_cur *c, const blvl_hmap_mesh *m, blvl_hmap_poly *p) {
    TRY(hm_i32(c, "material", &p->material));
    TRY(hm_u32(c, "smooth", &p->smooth));
    TRY(hm_uv(c, "proj", &p->proj));
    uint64_t at = c->pos;
    TRY(hm_array(c, "idxCount", 4, sizeof(uint32_t), &p->index_count, (void **)&p->indices));
    if (p->index_count < 3)
        return hm_fail(c, "idxCount", at, "poly-size", "%u indices, a polygon needs at least 3",
                       p->index_count);
    uint64_t first = c->pos;
    hm_take_u32s(c, p->indices, p->index_count);
    for (uint32_t k = 0; k < p->index_count; k++)
        if (p->indices[k] >= m->vertex_count) {
            hm_enter(c, "index", k);
            blvl_status st =
                hm_fail(c, NULL, first + 4ull * k, "mesh-index",
                        "%u is past the mesh's %u vertices", p->indices[k], m->vertex_count);
            hm_leave(c);
            return st;
        }
    at = c->pos;
    TRY(hm_array(c, "uvCount", 8, sizeof(blvl_Vec2), &p->uv_count, (void **)&p->uvs));
    if (p->uv_count != 0 && p->uv_count != p->index_count)
        return hm_fail(c, "uvCount", at, "uv-count", "%u is neither 0 nor idxCount (%u)",
                       p->uv_count, p->index_count);
    for (uint32_t k = 0; k < p->uv_count; k++)
        TRY(hm_vec2(c, "uv", &p->uvs[k]));
    return BLVL_OK;
}

blvl_status hm_read_mesh(hm_cur *c, blvl_hmap *map) {
    map->has_mesh = true;
    TRY(hm_array(c, "n", HM_MESH_MIN, sizeof(blvl_hmap_mesh), &map->mesh_count,
                 (void **)&map->meshes));
    hm_enter(c, "mesh", 0);
    for (uint32_t i = 0; i < map->mesh_count; i++) {
        blvl_hmap_mesh *m = &map->meshes[i];
        hm_at(c, i);
        TRY(hm_u32(c, "id", &m->id));
        TRY(hm_u32(c, "owner", &m->owner));
        TRY(hm_u32(c, "flags", &m->flags));
        TRY(hm_str(c, "name", &m->name));
        TRY(hm_array(c, "vertCount", 12, sizeof(blvl_Vec3), &m->vertex_count,
                     (void **)&m->vertices));
        hm_take_vec3s(c, m->vertices, m->vertex_count);
        TRY(hm_array(c, "polyCount", HM_POLY_MIN, sizeof(blvl_hmap_poly), &m->poly_count,
                     (void **)&m->polys));
        hm_enter(c, "poly", 0);
        for (uint32_t k = 0; k < m->poly_count; k++) {
            hm_at(c, k);
            TRY(read_poly(c, m, &m->polys[k]));
        }
        hm_leave(c);
    }
    hm_leave(c);
    return hm_end(c);
}

blvl_status hm_read_ents(hm_cur *c, blvl_hmap *map) {
    map->has_ents = true;
    TRY(hm_array(c, "n", HM_ENTITY_MIN, sizeof(blvl_hmap_entity), &map->entity_count,
                 (void **)&map->entities));
    hm_enter(c, "entity", 0);
    for (uint32_t i = 0; i < map->entity_count; i++) {
        blvl_hmap_entity *e = &map->entities[i];
        hm_at(c, i);
        TRY(hm_u32(c, "id", &e->id));
        TRY(hm_u32(c, "flags", &e->flags));
        TRY(hm_str(c, "classname", &e->classname));
        TRY(hm_vec3(c, "origin", &e->origin));
        TRY(hm_vec3(c, "angles", &e->angles));
        TRY(hm_vec3(c, "scale", &e->scale));
        TRY(hm_array(c, "kvCount", HM_PAIR_MIN, sizeof(blvl_hmap_pair), &e->pair_count,
                     (void **)&e->pairs));
        hm_enter(c, "pair", 0);
        for (uint32_t k = 0; k < e->pair_count; k++) {
            hm_at(c, k);
            TRY(hm_str(c, "key", &e->pairs[k].key));
            TRY(hm_str(c, "value", &e->pairs[k].value));
        }
        hm_leave(c);
    }
    hm_leave(c);
    return hm_end(c);
}
