/* Checks across chunks, run once every chunk is read (chunks may come in any order: MATS after
 * BRSH is legal). The header's flags must agree with the chunks the file holds; every
 * material index of BRSH faces, MESH polygons and CMPL batches must name a MATS entry or be
 * negative (none). A field's offset is found by walking the parsed records' wire sizes from the
 * chunk's start, so the message names the first offending field in file order. */
#include "import/hmap/hmap_internal.h"

/* A set bit needs one chunk of its kind (`any`); a clear one allows none of the chunks only that
 * kind of file has (`own`). For CMPL the two are the same chunk. For source data they differ:
 * META, MATS and ENTS are source chunks (a map just made in an editor holds only META), but a
 * compiled-only file carries ENTS and MATS too, so only BRSH and MESH make a file a source one. */
static blvl_status flag(const blvl_hmap *map, blvl_error *err, uint32_t bit, bool any,
                        const char *any_what, bool own, const char *own_what) {
    bool set = (map->flags & bit) != 0;
    if (set ? any : !own)
        return BLVL_OK;
    return blvl__fail_source(err, "header", "flags", 8, "header-flags",
                             set ? "bit %u is set but the file has no %s"
                                 : "bit %u is clear but the file has %s",
                             bit == BLVL_HMAP_FLAG_SOURCE ? 0u : 1u, set ? any_what : own_what);
}

static blvl_status material(blvl__cursor *c, const blvl_hmap *map, int32_t m, uint64_t at) {
    if (m < 0 || (uint32_t)m < map->material_count)
        return BLVL_OK;
    if (!map->has_mats)
        return blvl__cursor_fail(c, "material", at, "material-range",
                                 "%d, but the file has no MATS", m);
    return blvl__cursor_fail(c, "material", at, "material-range",
                             "%d is past the %u materials of MATS", m, map->material_count);
}

static blvl_status brushes(blvl__cursor *c, const blvl_hmap *map) {
    uint64_t pos = blvl__import_hmap_payload_at(map, HM_BRSH) + 4;
    blvl__cursor_enter(c, "brush", 0);
    for (uint32_t i = 0; i < map->brush_count; i++) {
        const blvl_hmap_brush *b = &map->brushes[i];
        blvl__cursor_index(c, i);
        pos += HM_BRUSH_MIN;
        blvl__cursor_enter(c, "face", 0);
        for (uint32_t k = 0; k < b->face_count; k++, pos += HM_FACE_SIZE) {
            blvl__cursor_index(c, k);
            blvl_status st = material(c, map, b->faces[k].material, pos + 16);
            if (st)
                return st;
        }
        blvl__cursor_leave(c);
    }
    return BLVL_OK;
}

static blvl_status meshes(blvl__cursor *c, const blvl_hmap *map) {
    uint64_t pos = blvl__import_hmap_payload_at(map, HM_MESH) + 4;
    blvl__cursor_enter(c, "mesh", 0);
    for (uint32_t i = 0; i < map->mesh_count; i++) {
        const blvl_hmap_mesh *m = &map->meshes[i];
        blvl__cursor_index(c, i);
        pos += blvl__import_hmap_size_mesh_head(m);
        blvl__cursor_enter(c, "poly", 0);
        for (uint32_t k = 0; k < m->poly_count; k++) {
            blvl__cursor_index(c, k);
            blvl_status st = material(c, map, m->polys[k].material, pos);
            if (st)
                return st;
            pos += blvl__import_hmap_size_poly(&m->polys[k]);
        }
        blvl__cursor_leave(c);
    }
    return BLVL_OK;
}

static blvl_status batches(blvl__cursor *c, const blvl_hmap *map) {
    const blvl_hmap_compiled *m = map->compiled;
    uint64_t pos = blvl__import_hmap_payload_at(map, HM_CMPL) + HM_CMPL_HEAD + 4;
    blvl__cursor_enter(c, "batch", 0);
    for (uint32_t i = 0; i < m->batch_count; i++) {
        blvl__cursor_index(c, i);
        blvl_status st = material(c, map, m->batches[i].material, pos);
        if (st)
            return st;
        pos += blvl__import_hmap_size_batch(&m->batches[i]);
    }
    return BLVL_OK;
}

blvl_status blvl__import_hmap_check_map(const blvl_hmap *map, blvl_error *err) {
    bool geometry = map->has_brsh || map->has_mesh;
    bool source = geometry || map->meta || map->has_mats || map->has_ents;
    blvl_status st =
        flag(map, err, BLVL_HMAP_FLAG_SOURCE, source,
             "source chunk (META, MATS, BRSH, MESH or ENTS)", geometry, "BRSH or MESH");
    if (!st)
        st = flag(map, err, BLVL_HMAP_FLAG_COMPILED, map->compiled != NULL, "CMPL",
                  map->compiled != NULL, "CMPL");
    /* the material checks in file order of their chunks */
    for (uint32_t i = 0; !st && i < map->chunk_count; i++) {
        const blvl_hmap_chunk *ch = &map->chunks[i];
        if (!ch->known)
            continue;
        blvl__cursor c = {.unit = "chunk", .err = err};
        hm_kind kind = blvl__import_hmap_kind_of(ch->tag);
        char part[5] = {ch->tag[0], ch->tag[1], ch->tag[2], ch->tag[3], 0};
        c.part = part;
        if (kind == HM_BRSH)
            st = brushes(&c, map);
        else if (kind == HM_MESH)
            st = meshes(&c, map);
        else if (kind == HM_CMPL)
            st = batches(&c, map);
    }
    return st;
}
