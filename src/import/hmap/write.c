/* blvl_hmap_write: the header, then every chunk of chunks[] in order (known chunks from the
 * parsed records, their payloadSize recomputed; unknown ones verbatim), or, for a hand-built
 * map with no chunk list, the known chunks in the canonical order. It checks nothing a reader
 * refuses, so tests build malformed files with it; it only refuses what it cannot write (a
 * payload over 4 GiB). Sizes come from layout.c, so the buffer is allocated once. */
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

typedef struct out {
    uint8_t *p;
} out;

static void u8(out *o, uint8_t v) {
    *o->p++ = v;
}
static void u32(out *o, uint32_t v) {
    blvl_le_put32(o->p, v);
    o->p += 4;
}
static void i32(out *o, int32_t v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u32(o, u);
}
static void f32(out *o, float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u32(o, u);
}
static void vec2(out *o, blvl_Vec2 v) {
    f32(o, v.x), f32(o, v.y);
}
static void vec3(out *o, blvl_Vec3 v) {
    f32(o, v.x), f32(o, v.y), f32(o, v.z);
}
static void plane(out *o, blvl_Plane v) {
    vec3(o, v.normal), f32(o, v.dist);
}
static void box(out *o, blvl_hmap_box v) {
    vec3(o, v.min), vec3(o, v.max);
}
static void uv(out *o, blvl_hmap_uv v) {
    vec2(o, v.offset), vec2(o, v.scale), f32(o, v.rotation);
}
static void str(out *o, const blvl_hmap_str *s) {
    u32(o, s->size);
    if (s->bytes) {
        memcpy(o->p, s->bytes, s->size);
        o->p += s->size;
    }
}
/* The count as stored, then the records when the array is there (layout.c's ARR). */
static void u32s(out *o, const uint32_t *v, uint32_t n) {
    u32(o, n);
    for (uint32_t i = 0; v && i < n; i++)
        u32(o, v[i]);
}
static void vec3s(out *o, const blvl_Vec3 *v, uint32_t n) {
    u32(o, n);
    for (uint32_t i = 0; v && i < n; i++)
        vec3(o, v[i]);
}
static void planes(out *o, const blvl_Plane *v, uint32_t n) {
    u32(o, n);
    for (uint32_t i = 0; v && i < n; i++)
        plane(o, v[i]);
}

static void meta(out *o, const blvl_hmap_meta *m) {
    if (!m)
        return;
    str(o, &m->name);
    vec3(o, m->ambient);
    f32(o, m->grid_size);
    f32(o, m->units_per_meter);
    u32(o, m->next_id);
}

static void mats(out *o, const blvl_hmap *map) {
    u32(o, map->material_count);
    for (uint32_t i = 0; map->materials && i < map->material_count; i++) {
        const blvl_hmap_material *m = &map->materials[i];
        str(o, &m->name);
        str(o, &m->texture);
        vec2(o, m->tile_size);
        vec3(o, m->color);
        u32(o, m->flags);
    }
}

static void brsh(out *o, const blvl_hmap *map) {
    u32(o, map->brush_count);
    for (uint32_t i = 0; map->brushes && i < map->brush_count; i++) {
        const blvl_hmap_brush *b = &map->brushes[i];
        u32(o, b->id), u32(o, b->owner), u32(o, b->contents), u32(o, b->flags);
        u32(o, b->face_count);
        for (uint32_t k = 0; b->faces && k < b->face_count; k++) {
            const blvl_hmap_face *f = &b->faces[k];
            plane(o, f->plane);
            i32(o, f->material);
            uv(o, f->uv);
            u32(o, f->flags);
        }
    }
}

static void mesh(out *o, const blvl_hmap *map) {
    u32(o, map->mesh_count);
    for (uint32_t i = 0; map->meshes && i < map->mesh_count; i++) {
        const blvl_hmap_mesh *m = &map->meshes[i];
        u32(o, m->id), u32(o, m->owner), u32(o, m->flags);
        str(o, &m->name);
        vec3s(o, m->vertices, m->vertex_count);
        u32(o, m->poly_count);
        for (uint32_t k = 0; m->polys && k < m->poly_count; k++) {
            const blvl_hmap_poly *p = &m->polys[k];
            i32(o, p->material);
            u32(o, p->smooth);
            uv(o, p->proj);
            u32s(o, p->indices, p->index_count);
            u32(o, p->uv_count);
            for (uint32_t j = 0; p->uvs && j < p->uv_count; j++)
                vec2(o, p->uvs[j]);
        }
    }
}

static void ents(out *o, const blvl_hmap *map) {
    u32(o, map->entity_count);
    for (uint32_t i = 0; map->entities && i < map->entity_count; i++) {
        const blvl_hmap_entity *e = &map->entities[i];
        u32(o, e->id), u32(o, e->flags);
        str(o, &e->classname);
        vec3(o, e->origin), vec3(o, e->angles), vec3(o, e->scale);
        u32(o, e->pair_count);
        for (uint32_t k = 0; e->pairs && k < e->pair_count; k++) {
            str(o, &e->pairs[k].key);
            str(o, &e->pairs[k].value);
        }
    }
}

static void cbrushes(out *o, const blvl_hmap_cbrush *b, uint32_t n) {
    u32(o, n);
    for (uint32_t i = 0; b && i < n; i++) {
        u32(o, b[i].contents), u32(o, b[i].source_id);
        box(o, b[i].bounds);
        planes(o, b[i].planes, b[i].plane_count);
    }
}

static void cmpl(out *o, const blvl_hmap_compiled *m) {
    if (!m)
        return;
    vec3(o, m->ambient);
    f32(o, m->units_per_meter);
    u8(o, m->baked);
    box(o, m->bounds);
    u32(o, m->batch_count);
    for (uint32_t i = 0; m->batches && i < m->batch_count; i++) {
        const blvl_hmap_batch *b = &m->batches[i];
        i32(o, b->material);
        u8(o, b->source);
        i32(o, b->model);
        u32(o, b->vertex_count);
        for (uint32_t k = 0; b->vertices && k < b->vertex_count; k++) {
            const blvl_hmap_cvertex *v = &b->vertices[k];
            vec3(o, v->pos), vec3(o, v->normal), vec2(o, v->uv), u32(o, v->color);
        }
        u32s(o, b->indices, b->index_count);
    }
    u32(o, m->model_count);
    for (uint32_t i = 0; m->models && i < m->model_count; i++) {
        u32(o, m->models[i].entity_id);
        box(o, m->models[i].bounds);
        cbrushes(o, m->models[i].brushes, m->models[i].brush_count);
    }
    const blvl_hmap_bsp *t = &m->bsp;
    i32(o, t->root);
    u32(o, t->depth);
    box(o, t->bounds);
    planes(o, t->planes, t->plane_count);
    u32(o, t->node_count);
    for (uint32_t i = 0; t->nodes && i < t->node_count; i++)
        i32(o, t->nodes[i].plane), i32(o, t->nodes[i].front), i32(o, t->nodes[i].back);
    u32(o, t->leaf_count);
    for (uint32_t i = 0; t->leaves && i < t->leaf_count; i++)
        u32(o, t->leaves[i].first_brush), u32(o, t->leaves[i].brush_count);
    u32s(o, t->leaf_brushes, t->leaf_brush_count);
    cbrushes(o, t->brushes, t->brush_count);
    u32(o, m->mesh_coll_count);
    for (uint32_t i = 0; m->mesh_colls && i < m->mesh_coll_count; i++) {
        u32(o, m->mesh_colls[i].object_id);
        box(o, m->mesh_colls[i].bounds);
        vec3s(o, m->mesh_colls[i].vertices, m->mesh_colls[i].vertex_count);
    }
    u32(o, m->light_count);
    for (uint32_t i = 0; m->lights && i < m->light_count; i++) {
        const blvl_hmap_light *l = &m->lights[i];
        u8(o, l->type);
        vec3(o, l->pos), vec3(o, l->dir), vec3(o, l->color);
        f32(o, l->intensity), f32(o, l->radius), f32(o, l->inner_deg), f32(o, l->outer_deg);
        u32(o, l->entity_id);
    }
}

static void payload(out *o, const blvl_hmap *map, hm_kind kind) {
    switch (kind) {
    case HM_META:
        meta(o, map->meta);
        break;
    case HM_MATS:
        mats(o, map);
        break;
    case HM_BRSH:
        brsh(o, map);
        break;
    case HM_MESH:
        mesh(o, map);
        break;
    case HM_ENTS:
        ents(o, map);
        break;
    case HM_CMPL:
        cmpl(o, map->compiled);
        break;
    default:
        break;
    }
}

/* A hand-built map's chunks: the known kinds it holds, in the canonical order. */
typedef struct plan {
    uint32_t n;
    hm_kind kind[HM_KINDS];
} plan;

static hm_kind chunk_kind(const blvl_hmap_chunk *c) {
    return c->known ? blvl__import_hmap_kind_of(c->tag) : HM_KINDS;
}

blvl_status blvl_hmap_write(void **outp, size_t *size, const blvl_hmap *map,
                            const blvl_options *opt, blvl_error *err) {
    blvl__ok(err);
    if (!map || !outp || !size || (map->chunk_count && !map->chunks))
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_hmap_write: NULL map, out or size");
    *outp = NULL;
    *size = 0;
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    plan canon = {0};
    if (!map->chunk_count) {
        bool present[HM_KINDS] = {map->meta != NULL, map->has_mats, map->has_brsh,
                                  map->has_mesh,     map->has_ents, map->compiled != NULL};
        for (int k = 0; k < HM_KINDS; k++)
            if (present[k])
                canon.kind[canon.n++] = (hm_kind)k;
    }
    uint32_t n = map->chunk_count ? map->chunk_count : canon.n;

    uint64_t total = HM_HEADER_SIZE;
    for (uint32_t i = 0; i < n; i++) {
        hm_kind kind = map->chunk_count ? chunk_kind(&map->chunks[i]) : canon.kind[i];
        uint64_t s =
            kind == HM_KINDS ? map->chunks[i].size : blvl__import_hmap_size_payload(map, kind);
        if (s > UINT32_MAX)
            return blvl__fail(err, BLVL_E_ARGUMENT,
                              "blvl_hmap_write: a chunk of %llu bytes, past the format's 4 GiB",
                              (unsigned long long)s);
        total += HM_CHUNK_HEADER + s;
    }
    if (total > SIZE_MAX - 64)
        return blvl__nomem(err, "%llu bytes", (unsigned long long)total);
    uint8_t *buf = blvl__alloc_sized(a, (size_t)total);
    if (!buf)
        return blvl__nomem(err, "%llu bytes", (unsigned long long)total);
    out o = {buf};
    memcpy(o.p, "HMAP", 4);
    o.p += 4;
    u32(&o, map->version);
    u32(&o, map->flags);
    for (uint32_t i = 0; i < n; i++) {
        const blvl_hmap_chunk *c = map->chunk_count ? &map->chunks[i] : NULL;
        hm_kind kind = c ? chunk_kind(c) : canon.kind[i];
        memcpy(o.p, c ? c->tag : blvl__import_hmap_tags[kind], 4);
        o.p += 4;
        if (kind == HM_KINDS) {
            u32(&o, c->size);
            if (c->bytes)
                memcpy(o.p, c->bytes, c->size);
            else
                memset(o.p, 0, c->size);
            o.p += c->size;
            continue;
        }
        u32(&o, (uint32_t)blvl__import_hmap_size_payload(map, kind));
        payload(&o, map, kind);
    }
    /* the layout and the writer are one truth: a disagreement is a bug here, not bad input */
    if ((uint64_t)(o.p - buf) != total) {
        blvl__free_sized(a, buf);
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_hmap_write: internal size mismatch");
    }
    *outp = buf;
    *size = (size_t)total;
    return BLVL_OK;
}
