/* blvl_hmap_bake: a read .hmap into the bake model (docs/IMPORT-HMAP.md). The steps, in the
 * order their indices are made (the order fixes the output bytes):
 *   1. units (refused without a positive finite unitsPerMeter), meta
 *   2. materials (MATS order), entities (ENTS order), spawns, intermission cameras
 *   3. entity bounds (sources, else CMPL models), teleport destinations, doors
 *   4. symbol sources and sim: brushes (BRSH, else CMPL models), meshes (MESH, else CMPL
 *      mesh collision)
 *   5. geometry: CMPL batches when CMPL is there, else brush faces and mesh polygons
 *   6. lighting */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_internal.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/cameras.h"
#include "blvl/sections/meta.h"
#include "common/alloc.h"
#include "common/error.h"

static int id_cmp(const void *a, const void *b) {
    const hb_idmap *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

bool blvl__import_hmap_bake_owner(const hmap_bake *c, uint32_t owner, uint32_t *index) {
    *index = BLVL_BAKE_NONE;
    if (owner == 0)
        return true;
    size_t lo = 0, hi = c->id_count;
    while (lo < hi) { /* the first entry with id >= owner */
        size_t mid = (lo + hi) / 2;
        if (c->ids[mid].id < owner)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < c->id_count && c->ids[lo].id == owner) {
        *index = c->ids[lo].index;
        return true;
    }
    return false;
}

uint32_t blvl__import_hmap_bake_material(const hmap_bake *c, int32_t material) {
    return material >= 0 && (uint32_t)material < c->map->material_count ? c->mat[material]
                                                                        : BLVL_BAKE_NONE;
}

/* The shortest of %.6g .. %.9g that reads back as the same float; "-0" is written "0". */
static void fmt_float(char *buf, size_t size, float v) {
    if (v == 0.0f)
        v = 0.0f;
    for (int prec = 6; prec <= 9; prec++) {
        snprintf(buf, size, "%.*g", prec, (double)v);
        if (strtof(buf, NULL) == v)
            return;
    }
}

static void fmt_vec3(char *buf, size_t size, blvl_Vec3 v) {
    char a[32], b[32], c[32];
    fmt_float(a, sizeof a, v.x);
    fmt_float(b, sizeof b, v.y);
    fmt_float(c, sizeof c, v.z);
    snprintf(buf, size, "%s %s %s", a, b, c);
}

/* 2. every entity verbatim: "origin" (qu), "angles" and "scale" come first, written from the
 * record, unless the entity's own pairs hold that key. */
static blvl_status entities(hmap_bake *c) {
    const blvl_hmap *m = c->map;
    uint32_t most = 0;
    for (uint32_t e = 0; e < m->entity_count; e++)
        most = m->entities[e].pair_count > most ? m->entities[e].pair_count : most;
    if (most > UINT32_MAX - 3)
        return blvl__fail_source(c->err, "ENTS", "kvCount",
                                 blvl__import_hmap_bake_off_chunk(m, "ENTS"), "entity",
                                 "too many pairs in one entity");
    size_t cap = (size_t)most + 3;
    blvl_bake_pair *pairs = blvl__calloc_n(c->al, cap, sizeof *pairs);
    if (!pairs)
        return blvl__nomem(c->err, "the bake's scratch memory");
    blvl_status st = BLVL_OK;
    for (uint32_t e = 0; e < m->entity_count && st == BLVL_OK; e++) {
        const blvl_hmap_entity *ent = &m->entities[e];
        /* everything placed at an entity (spawns, doors, lights) needs its numbers */
        if (!blvl__import_hmap_bake_finite3(ent->origin) ||
            !blvl__import_hmap_bake_finite3(ent->angles) ||
            !blvl__import_hmap_bake_finite3(ent->scale) ||
            !blvl__import_hmap_bake_finite3(blvl__import_hmap_bake_point(c, ent->origin))) {
            char field[48];
            snprintf(field, sizeof field, "entity[%u].origin", e);
            st = blvl__fail_source(
                c->err, "ENTS", field,
                blvl__import_hmap_bake_off_entity(m, e) + 8 + 4 + ent->classname.size, "entity",
                "origin, angles or scale holds a number that is not finite");
            break;
        }
        char origin[100], angles[100], scale[100];
        uint32_t n = 0;
        fmt_vec3(origin, sizeof origin, blvl__import_hmap_bake_point(c, ent->origin));
        fmt_vec3(angles, sizeof angles, ent->angles);
        fmt_vec3(scale, sizeof scale, ent->scale);
        if (!blvl__import_hmap_bake_key(ent, "origin", NULL))
            pairs[n++] = (blvl_bake_pair){"origin", origin};
        if (!blvl__import_hmap_bake_key(ent, "angles", NULL))
            pairs[n++] = (blvl_bake_pair){"angles", angles};
        if (!blvl__import_hmap_bake_key(ent, "scale", NULL))
            pairs[n++] = (blvl_bake_pair){"scale", scale};
        for (uint32_t p = 0; p < ent->pair_count; p++)
            pairs[n++] = (blvl_bake_pair){ent->pairs[p].key.bytes, ent->pairs[p].value.bytes};
        uint32_t index;
        st = blvl_bake_add_entity(c->b, ent->classname.bytes, pairs, n, &index, c->err);
        if (st != BLVL_OK)
            break;
        c->cls[e] = blvl__import_hmap_bake_classify(ent->classname.bytes);
        if (c->cls[e] == HB_SPAWN)
            st = blvl_bake_add_spawn(c->b, blvl__import_hmap_bake_point(c, ent->origin),
                                     ent->angles.y, ent->classname.bytes,
                                     blvl__import_hmap_bake_key(ent, "team", NULL),
                                     BLVL_BAKE_ALL_GAMETYPES, c->err);
        else if (c->cls[e] == HB_INTERMISSION) {
            const char *name = blvl__import_hmap_bake_key(ent, "targetname", NULL);
            st = blvl_bake_add_camera(c->b, name ? name : ent->classname.bytes,
                                      blvl_CameraPurpose_Overview,
                                      blvl__import_hmap_bake_point(c, ent->origin), ent->angles.y,
                                      ent->angles.x, ent->angles.z, 0, c->err);
        }
    }
    blvl__dealloc(c->al, pairs, cap * sizeof *pairs);
    return st;
}

/* 2. materials: a material on a face of a water brush is a water material, on a sky brush a
 * sky one. */
static blvl_status materials(hmap_bake *c) {
    const blvl_hmap *m = c->map;
    size_t n = m->material_count ? m->material_count : 1;
    uint8_t *use = blvl__calloc_n(c->al, n, 1);
    if (!use)
        return blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t i = 0; i < m->brush_count; i++) {
        const blvl_hmap_brush *br = &m->brushes[i];
        uint8_t bit = (br->contents & BLVL_HMAP_WATER) ? 1 : 0;
        bit |= (br->contents & BLVL_HMAP_SKY) ? 2 : 0;
        for (uint32_t j = 0; j < br->face_count && bit; j++) {
            int32_t mat = br->faces[j].material;
            if (mat >= 0 && (uint32_t)mat < m->material_count)
                use[mat] |= bit;
        }
    }
    blvl_status st = BLVL_OK;
    for (uint32_t i = 0; i < m->material_count && st == BLVL_OK; i++) {
        blvl_bake_material bm;
        blvl_bake_material_init(&bm);
        bm.name = m->materials[i].name.bytes;
        bm.source_name = m->materials[i].name.bytes;
        bm.source_texture = m->materials[i].texture.bytes;
        bm.water = (use[i] & 1) != 0;
        bm.sky = (use[i] & 2) != 0;
        st = blvl_bake_add_material(c->b, &bm, &c->mat[i], c->err);
    }
    blvl__dealloc(c->al, use, n);
    return st;
}

/* 4. symbol sources of the source chunks; geometry ones only when the faces are drawn from
 * them. Brush and mesh sources carry the object's id, faces a running number: BRSH faces in
 * file order, then MESH polygons after them. */
typedef struct sources {
    uint32_t *brush, *mesh, *face, *poly;
    size_t nb, nm, nf, np;
} sources;

static blvl_status add_source(hmap_bake *c, uint32_t kind, uint32_t index, uint32_t sflags,
                              uint32_t cflags, uint32_t entity, uint32_t material, uint32_t *out) {
    blvl_bake_source s = {kind, index, sflags, cflags, entity, material};
    return blvl_bake_add_source(c->b, &s, out, c->err);
}

static blvl_status make_sources(hmap_bake *c, sources *s, bool faces) {
    const blvl_hmap *m = c->map;
    blvl_status st = BLVL_OK;
    uint32_t face = 0, poly = 0;
    for (uint32_t i = 0; i < m->brush_count && st == BLVL_OK; i++) {
        const blvl_hmap_brush *br = &m->brushes[i];
        uint32_t e;
        blvl__import_hmap_bake_owner(c, br->owner, &e);
        uint32_t mat = br->face_count ? blvl__import_hmap_bake_material(c, br->faces[0].material)
                                      : BLVL_BAKE_NONE;
        st = add_source(c, blvl_SourceKind_Brush, br->id, br->flags, br->contents, e, mat,
                        &s->brush[i]);
    }
    for (uint32_t i = 0; i < m->mesh_count && st == BLVL_OK; i++) {
        const blvl_hmap_mesh *me = &m->meshes[i];
        uint32_t e;
        blvl__import_hmap_bake_owner(c, me->owner, &e);
        st = add_source(c, blvl_SourceKind_Prop, me->id, me->flags, 0, e, BLVL_BAKE_NONE,
                        &s->mesh[i]);
    }
    for (uint32_t i = 0; i < m->brush_count && st == BLVL_OK && faces; i++) {
        const blvl_hmap_brush *br = &m->brushes[i];
        uint32_t e;
        blvl__import_hmap_bake_owner(c, br->owner, &e);
        for (uint32_t j = 0; j < br->face_count && st == BLVL_OK; j++, face++)
            st = add_source(c, blvl_SourceKind_Face, face, br->faces[j].flags, br->contents, e,
                            blvl__import_hmap_bake_material(c, br->faces[j].material),
                            &s->face[face]);
    }
    for (uint32_t i = 0; i < m->mesh_count && st == BLVL_OK && faces; i++) {
        const blvl_hmap_mesh *me = &m->meshes[i];
        uint32_t e;
        blvl__import_hmap_bake_owner(c, me->owner, &e);
        for (uint32_t p = 0; p < me->poly_count && st == BLVL_OK; p++, poly++)
            st = add_source(c, blvl_SourceKind_Face, c->face_total + poly, me->flags, 0, e,
                            blvl__import_hmap_bake_material(c, me->polys[p].material),
                            &s->poly[poly]);
    }
    return st;
}

static blvl_status bake(hmap_bake *c) {
    const blvl_hmap *m = c->map;
    blvl_status st;
    /* 1. */
    if ((st = blvl__import_hmap_bake_units(c)) != BLVL_OK)
        return st;
    blvl_bake_meta meta = {0};
    meta.name = m->meta ? m->meta->name.bytes : NULL;
    meta.engine = blvl_Engine_Hmap;
    if ((st = blvl_bake_set_meta(c->b, &meta, c->err)) != BLVL_OK)
        return st;
    /* 2. */
    if ((st = materials(c)) != BLVL_OK || (st = entities(c)) != BLVL_OK)
        return st;
    /* 3. */
    if ((m->has_brsh || m->has_mesh) && (st = blvl__import_hmap_bake_sim_prepare(c)) != BLVL_OK)
        return st;
    if (m->compiled && !m->has_brsh && (st = blvl__import_hmap_bake_cmpl_prepare(c)) != BLVL_OK)
        return st;
    if ((st = blvl__import_hmap_bake_sim_entities(c)) != BLVL_OK)
        return st;
    /* 4. */
    bool from_sources = m->compiled == NULL;
    uint64_t faces = 0, polys = 0;
    for (uint32_t i = 0; i < m->brush_count; i++)
        faces += m->brushes[i].face_count;
    for (uint32_t i = 0; i < m->mesh_count; i++)
        polys += m->meshes[i].poly_count;
    if (faces + polys > UINT32_MAX)
        return blvl__fail_source(c->err, "BRSH", "faces",
                                 blvl__import_hmap_bake_off_chunk(m, "BRSH"), "face-count",
                                 "more than 2^32 faces and polygons in one map");
    c->face_total = (uint32_t)faces;
    sources s = {0};
    s.nb = m->brush_count ? m->brush_count : 1;
    s.nm = m->mesh_count ? m->mesh_count : 1;
    s.nf = from_sources && faces ? (size_t)faces : 1;
    s.np = from_sources && polys ? (size_t)polys : 1;
    s.brush = blvl__calloc_n(c->al, s.nb, sizeof(uint32_t));
    s.mesh = blvl__calloc_n(c->al, s.nm, sizeof(uint32_t));
    s.face = blvl__calloc_n(c->al, s.nf, sizeof(uint32_t));
    s.poly = blvl__calloc_n(c->al, s.np, sizeof(uint32_t));
    if (!s.brush || !s.mesh || !s.face || !s.poly)
        st = blvl__nomem(c->err, "the bake's scratch memory");
    if (st == BLVL_OK)
        st = make_sources(c, &s, from_sources);
    if (st == BLVL_OK)
        st = m->has_brsh   ? blvl__import_hmap_bake_sim_brushes(c, s.brush)
             : m->compiled ? blvl__import_hmap_bake_cmpl_models(c)
                           : st;
    if (st == BLVL_OK)
        st = m->has_mesh   ? blvl__import_hmap_bake_sim_meshes(c, s.mesh)
             : m->compiled ? blvl__import_hmap_bake_cmpl_mesh_colls(c)
                           : st;
    /* 5. */
    if (st == BLVL_OK && m->compiled)
        st = blvl__import_hmap_bake_cmpl_batches(c);
    if (st == BLVL_OK && from_sources &&
        (st = blvl__import_hmap_bake_geom_brushes(c, s.face)) == BLVL_OK)
        st = blvl__import_hmap_bake_geom_meshes(c, s.poly);
    blvl__dealloc(c->al, s.brush, s.nb * sizeof(uint32_t));
    blvl__dealloc(c->al, s.mesh, s.nm * sizeof(uint32_t));
    blvl__dealloc(c->al, s.face, s.nf * sizeof(uint32_t));
    blvl__dealloc(c->al, s.poly, s.np * sizeof(uint32_t));
    /* 6. */
    return st == BLVL_OK ? blvl__import_hmap_bake_lighting(c) : st;
}

blvl_status blvl_hmap_bake(const blvl_hmap *map, blvl_bake *b, blvl_error *err) {
    if (!map || !b)
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_hmap_bake: map and bake must be set");
    hmap_bake c = {0};
    c.map = map;
    c.b = b;
    c.err = err;
    c.opt = blvl_bake_options(b);
    c.al = c.opt ? &c.opt->allocator : NULL;
    size_t ne = map->entity_count ? map->entity_count : 1;
    size_t nm = map->material_count ? map->material_count : 1;
    c.cls = blvl__calloc_n(c.al, ne, sizeof *c.cls);
    c.ids = blvl__calloc_n(c.al, ne, sizeof *c.ids);
    c.door = blvl__calloc_n(c.al, ne, sizeof *c.door);
    c.dest = blvl__calloc_n(c.al, ne, sizeof *c.dest);
    c.ent_lo = blvl__calloc_n(c.al, ne, sizeof *c.ent_lo);
    c.ent_hi = blvl__calloc_n(c.al, ne, sizeof *c.ent_hi);
    c.mat = blvl__calloc_n(c.al, nm, sizeof *c.mat);
    blvl_status st;
    if (!c.cls || !c.ids || !c.door || !c.dest || !c.ent_lo || !c.ent_hi || !c.mat)
        st = blvl__nomem(c.err, "the bake's scratch memory");
    else {
        for (uint32_t e = 0; e < map->entity_count; e++) {
            c.ids[e] = (hb_idmap){map->entities[e].id, e};
            c.door[e] = c.dest[e] = BLVL_BAKE_NONE;
            c.ent_lo[e] = (blvl_Vec3){INFINITY, INFINITY, INFINITY};
            c.ent_hi[e] = (blvl_Vec3){-INFINITY, -INFINITY, -INFINITY};
        }
        c.id_count = map->entity_count;
        qsort(c.ids, c.id_count, sizeof *c.ids, id_cmp);
        st = bake(&c);
        if (st == BLVL_OK)
            blvl__ok(err);
    }
    blvl__dealloc(c.al, c.cls, ne * sizeof *c.cls);
    blvl__dealloc(c.al, c.ids, ne * sizeof *c.ids);
    blvl__dealloc(c.al, c.door, ne * sizeof *c.door);
    blvl__dealloc(c.al, c.dest, ne * sizeof *c.dest);
    blvl__dealloc(c.al, c.ent_lo, ne * sizeof *c.ent_lo);
    blvl__dealloc(c.al, c.ent_hi, ne * sizeof *c.ent_hi);
    blvl__dealloc(c.al, c.mat, nm * sizeof *c.mat);
    return st;
}
