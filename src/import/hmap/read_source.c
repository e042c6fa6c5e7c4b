/* The chunks that come with either kind of file (META, MATS, ENTS) and the source chunks
 * (BRSH, MESH), field by field in the format's order (docs/IMPORT-HMAP.md, "The file"). Records go
 * into the map as soon as their array exists, so a refusal half-way leaves a map blvl_hmap_free can
 * release. */
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

blvl_status blvl__import_hmap_read_meta(blvl__cursor *c, blvl_hmap *map) {
    blvl_hmap_meta *m = blvl__calloc(c->a, sizeof *m);
    if (!m)
        return blvl__nomem(c->err, "META");
    map->meta = m;
    HM_TRY(blvl__import_hmap_str(c, "name", &m->name));
    HM_TRY(blvl__import_hmap_vec3(c, "ambient", &m->ambient));
    HM_TRY(blvl__cursor_f32(c, "gridSize", &m->grid_size));
    HM_TRY(blvl__cursor_f32(c, "unitsPerMeter", &m->units_per_meter));
    HM_TRY(blvl__cursor_u32(c, "nextId", &m->next_id));
    return blvl__cursor_end(c);
}

blvl_status blvl__import_hmap_read_mats(blvl__cursor *c, blvl_hmap *map) {
    map->has_mats = true;
    HM_ARRAY(c, "n", HM_MATERIAL_MIN, &map->material_count, map->materials);
    blvl__cursor_enter(c, "material", 0);
    for (uint32_t i = 0; i < map->material_count; i++) {
        blvl_hmap_material *m = &map->materials[i];
        blvl__cursor_index(c, i);
        HM_TRY(blvl__import_hmap_str(c, "name", &m->name));
        HM_TRY(blvl__import_hmap_str(c, "texture", &m->texture));
        HM_TRY(blvl__import_hmap_vec2(c, "tileSize", &m->tile_size));
        HM_TRY(blvl__import_hmap_vec3(c, "color", &m->color));
        HM_TRY(blvl__cursor_u32(c, "flags", &m->flags));
    }
    blvl__cursor_leave(c);
    return blvl__cursor_end(c);
}

blvl_status blvl__import_hmap_read_brsh(blvl__cursor *c, blvl_hmap *map) {
    map->has_brsh = true;
    HM_ARRAY(c, "n", HM_BRUSH_MIN, &map->brush_count, map->brushes);
    blvl__cursor_enter(c, "brush", 0);
    for (uint32_t i = 0; i < map->brush_count; i++) {
        blvl_hmap_brush *b = &map->brushes[i];
        blvl__cursor_index(c, i);
        HM_TRY(blvl__cursor_u32(c, "id", &b->id));
        HM_TRY(blvl__cursor_u32(c, "owner", &b->owner));
        HM_TRY(blvl__cursor_u32(c, "contents", &b->contents));
        HM_TRY(blvl__cursor_u32(c, "flags", &b->flags));
        HM_ARRAY(c, "faceCount", HM_FACE_SIZE, &b->face_count, b->faces);
        blvl__cursor_enter(c, "face", 0);
        for (uint32_t k = 0; k < b->face_count; k++) {
            blvl_hmap_face *f = &b->faces[k];
            blvl__cursor_index(c, k);
            /* The count check proved the faces fit: no field here can run short. */
            HM_TRY(blvl__import_hmap_plane(c, "plane", &f->plane));
            HM_TRY(blvl__cursor_i32(c, "material", &f->material));
            HM_TRY(blvl__import_hmap_uv(c, "uv", &f->uv));
            HM_TRY(blvl__cursor_u32(c, "flags", &f->flags));
        }
        blvl__cursor_leave(c);
    }
    blvl__cursor_leave(c);
    return blvl__cursor_end(c);
}

static blvl_status read_poly(blvl__cursor *c, const blvl_hmap_mesh *m, blvl_hmap_poly *p) {
    HM_TRY(blvl__cursor_i32(c, "material", &p->material));
    HM_TRY(blvl__cursor_u32(c, "smooth", &p->smooth));
    HM_TRY(blvl__import_hmap_uv(c, "proj", &p->proj));
    uint64_t at = c->pos;
    HM_ARRAY(c, "idxCount", 4, &p->index_count, p->indices);
    if (p->index_count < 3)
        return blvl__cursor_fail(c, "idxCount", at, "poly-size",
                                 "%u indices, a polygon needs at least 3", p->index_count);
    HM_TRY(blvl__import_hmap_take_indices(c, p->indices, p->index_count, m->vertex_count,
                                          "mesh-index", "mesh"));
    at = c->pos;
    HM_ARRAY(c, "uvCount", 8, &p->uv_count, p->uvs);
    if (p->uv_count != 0 && p->uv_count != p->index_count)
        return blvl__cursor_fail(c, "uvCount", at, "uv-count", "%u is neither 0 nor idxCount (%u)",
                                 p->uv_count, p->index_count);
    for (uint32_t k = 0; k < p->uv_count; k++)
        HM_TRY(blvl__import_hmap_vec2(c, "uv", &p->uvs[k]));
    return BLVL_OK;
}

blvl_status blvl__import_hmap_read_mesh(blvl__cursor *c, blvl_hmap *map) {
    map->has_mesh = true;
    HM_ARRAY(c, "n", HM_MESH_MIN, &map->mesh_count, map->meshes);
    blvl__cursor_enter(c, "mesh", 0);
    for (uint32_t i = 0; i < map->mesh_count; i++) {
        blvl_hmap_mesh *m = &map->meshes[i];
        blvl__cursor_index(c, i);
        HM_TRY(blvl__cursor_u32(c, "id", &m->id));
        HM_TRY(blvl__cursor_u32(c, "owner", &m->owner));
        HM_TRY(blvl__cursor_u32(c, "flags", &m->flags));
        HM_TRY(blvl__import_hmap_str(c, "name", &m->name));
        HM_ARRAY(c, "vertCount", 12, &m->vertex_count, m->vertices);
        blvl__import_hmap_take_vec3s(c, m->vertices, m->vertex_count);
        HM_ARRAY(c, "polyCount", HM_POLY_MIN, &m->poly_count, m->polys);
        blvl__cursor_enter(c, "poly", 0);
        for (uint32_t k = 0; k < m->poly_count; k++) {
            blvl__cursor_index(c, k);
            HM_TRY(read_poly(c, m, &m->polys[k]));
        }
        blvl__cursor_leave(c);
    }
    blvl__cursor_leave(c);
    return blvl__cursor_end(c);
}

blvl_status blvl__import_hmap_read_ents(blvl__cursor *c, blvl_hmap *map) {
    map->has_ents = true;
    HM_ARRAY(c, "n", HM_ENTITY_MIN, &map->entity_count, map->entities);
    blvl__cursor_enter(c, "entity", 0);
    for (uint32_t i = 0; i < map->entity_count; i++) {
        blvl_hmap_entity *e = &map->entities[i];
        blvl__cursor_index(c, i);
        HM_TRY(blvl__cursor_u32(c, "id", &e->id));
        HM_TRY(blvl__cursor_u32(c, "flags", &e->flags));
        HM_TRY(blvl__import_hmap_str(c, "classname", &e->classname));
        HM_TRY(blvl__import_hmap_vec3(c, "origin", &e->origin));
        HM_TRY(blvl__import_hmap_vec3(c, "angles", &e->angles));
        HM_TRY(blvl__import_hmap_vec3(c, "scale", &e->scale));
        HM_ARRAY(c, "kvCount", HM_PAIR_MIN, &e->pair_count, e->pairs);
        blvl__cursor_enter(c, "pair", 0);
        for (uint32_t k = 0; k < e->pair_count; k++) {
            blvl__cursor_index(c, k);
            HM_TRY(blvl__import_hmap_str(c, "key", &e->pairs[k].key));
            HM_TRY(blvl__import_hmap_str(c, "value", &e->pairs[k].value));
        }
        blvl__cursor_leave(c);
    }
    blvl__cursor_leave(c);
    return blvl__cursor_end(c);
}
