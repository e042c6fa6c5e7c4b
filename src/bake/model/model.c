/* The bake handle: creation, freeing, the growable arrays and strings every add uses, and the
 * simple adds: the level's description, symbol sources, entities, sites, cameras, the ambient,
 * the sun, lights and fog volumes. */
#include "bake/model/fast.h"
#include "bake/model/model.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "blvl/sections/bsym.h"
#include "common/advise.h"
#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"

blvl_status blvl__bake_model_reserve(blvl_bake *b, void *arrp, uint32_t n, uint32_t *cap,
                                     uint32_t extra, size_t elem, blvl_error *err) {
    if (extra > BLVL_BAKE_NONE - 1u - n)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: more than %u elements in one table",
                          BLVL_BAKE_NONE - 1u);
    uint32_t need = n + extra;
    if (need <= *cap)
        return BLVL_OK;
    /* the common growth rule, never past the largest table */
    uint64_t grown = blvl__array_grown(*cap, need, 8, 1);
    if (!grown || grown > BLVL_BAKE_NONE - 1u)
        grown = BLVL_BAKE_NONE - 1u;
    if (grown > SIZE_MAX / elem)
        return blvl__nomem(err, "bake: %llu elements do not fit in memory",
                           (unsigned long long)grown);
    void *old;
    memcpy(&old, arrp, sizeof old);
    void *p = blvl__alloc(b->al, (size_t)grown * elem);
    if (!p)
        return blvl__nomem(err, "bake: growing a table to %llu", (unsigned long long)grown);
    if (old) {
        memcpy(p, old, (size_t)n * elem);
        blvl__dealloc(b->al, old, (size_t)*cap * elem);
    }
    blvl__advise_large(p, (size_t)grown * elem);
    memcpy(arrp, &p, sizeof p);
    *cap = (uint32_t)grown;
    return BLVL_OK;
}

blvl_status blvl__bake_model_reserve_counts(blvl_bake *b, const bake_counts *more,
                                            blvl_error *err) {
    if (!b || !more)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: reserve needs a bake and counts");
    blvl_status st;
    if ((st = BAKE_RESERVE(b, b->sources, more->sources, err)) ||
        (st = BAKE_RESERVE(b, b->vertices, more->vertices, err)) ||
        (st = BAKE_RESERVE(b, b->indices, more->indices, err)) ||
        (st = BAKE_RESERVE(b, b->surfaces, more->surfaces, err)) ||
        (st = BAKE_RESERVE(b, b->tri_sources, more->tri_sources, err)) ||
        (st = BAKE_RESERVE(b, b->colliders, more->colliders, err)) ||
        (st = BAKE_RESERVE(b, b->made_prisms, more->made_prisms, err)) ||
        (st = BAKE_RESERVE(b, b->collider_order,
                           more->colliders > UINT32_MAX - more->made_prisms
                               ? UINT32_MAX
                               : more->colliders + more->made_prisms,
                           err)))
        return st;
    if (more->arena && !blvl__bake_model_arena_reserve(b, more->arena))
        return blvl__nomem(err, "bake: %zu bytes", more->arena);
    return BLVL_OK;
}

/* A block and its header make 2 MiB: one huge page where the default allocator maps blocks
 * (common/alloc.c). */
#define BAKE_BLOCK (((size_t)2 << 20) - sizeof(bake_block))

void *blvl__bake_model_arena(blvl_bake *b, size_t bytes) {
    bytes = (bytes + 7u) & ~(size_t)7u;
    bake_block *k = b->blocks;
    if (!k || k->size - k->used < bytes) {
        size_t size = bytes > BAKE_BLOCK ? bytes : BAKE_BLOCK;
        if (size > SIZE_MAX - sizeof *k)
            return NULL;
        k = blvl__alloc(b->al, sizeof *k + size);
        if (!k)
            return NULL;
        k->size = size;
        k->used = 0;
        k->next = b->blocks;
        b->blocks = k;
    }
    void *p = (uint8_t *)(k + 1) + k->used;
    k->used += bytes;
    return p;
}

bool blvl__bake_model_arena_reserve(blvl_bake *b, size_t bytes) {
    bake_block *k = b->blocks;
    bytes = (bytes + 7u) & ~(size_t)7u;
    if (k && k->size - k->used >= bytes)
        return true;
    if (bytes <= BAKE_BLOCK)
        bytes = BAKE_BLOCK;
    if (bytes > SIZE_MAX - sizeof *k)
        return false;
    k = blvl__alloc(b->al, sizeof *k + bytes);
    if (!k)
        return false;
    blvl__advise_large(k, sizeof *k + bytes);
    k->size = bytes;
    k->used = 0;
    k->next = b->blocks;
    b->blocks = k;
    return true;
}

void blvl__bake_model_dealloc(const blvl_bake *b, void *p, size_t size) {
    if (p)
        blvl__dealloc(b->al, p, size);
}

char *blvl__bake_model_str(blvl_bake *b, const char *s, bool *ok) {
    if (!s)
        return NULL;
    char *c = blvl__strdup(b->al, s);
    if (!c)
        *ok = false;
    return c;
}

void blvl__bake_model_str_free(blvl_bake *b, char *s) {
    if (s)
        blvl__free_sized(b->al, s);
}

void *blvl__bake_model_dup(blvl_bake *b, const void *p, size_t n, bool *ok) {
    if (n == 0 || !p)
        return NULL;
    void *c = blvl__alloc(b->al, n);
    if (!c) {
        *ok = false;
        return NULL;
    }
    memcpy(c, p, n);
    return c;
}

blvl_status blvl__bake_model_check_index(uint32_t index, uint32_t count, const char *what,
                                         blvl_error *err) {
    if (index == BLVL_BAKE_NONE || index < count)
        return BLVL_OK;
    return blvl__fail(err, BLVL_E_ARGUMENT, "bake: %s %u names nothing (%u added)", what, index,
                      count);
}

bool blvl__bake_model_finite3(blvl_Vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

double blvl__bake_model_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double blvl__bake_model_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

blvl_status blvl_bake_new(blvl_bake **out, const blvl_options *opt, blvl_error *err) {
    if (!out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: out is NULL");
    *out = NULL;
    blvl_options o = {0};
    if (opt)
        o = *opt;
    if ((o.allocator.alloc == NULL) != (o.allocator.free == NULL))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: allocator needs both alloc and free");
    blvl_bake *b = blvl__calloc(&o.allocator, sizeof *b);
    if (!b)
        return blvl__nomem(err, "bake: the model");
    b->opt = o;
    b->al = &b->opt.allocator;
    b->kill_y = -131072.0f;
    *out = b;
    blvl__ok(err);
    return BLVL_OK;
}

static void free_meta(blvl_bake *b) {
    blvl__bake_model_str_free(b, (char *)b->meta.name);
    blvl__bake_model_str_free(b, (char *)b->meta.author);
    blvl__bake_model_str_free(b, (char *)b->meta.description);
    memset(&b->meta, 0, sizeof b->meta);
}

void blvl_bake_free(blvl_bake *b) {
    if (!b)
        return;
    free_meta(b);
    for (uint32_t i = 0; i < b->images.n; i++) {
        blvl__bake_model_str_free(b, b->images.p[i].name);
        if (b->images.p[i].data)
            blvl__free_sized(b->al, b->images.p[i].data);
    }
    for (uint32_t i = 0; i < b->materials.n; i++) {
        blvl_bake_material *m = &b->materials.p[i];
        blvl__bake_model_str_free(b, (char *)m->name);
        blvl__bake_model_str_free(b, (char *)m->source_name);
        blvl__bake_model_str_free(b, (char *)m->source_texture);
    }
    for (uint32_t i = 0; i < b->colliders.n; i++) {
        blvl__bake_model_str_free(b, (char *)b->colliders.p[i].c.source_name);
        blvl__bake_convex_shape_free(b->al, &b->colliders.p[i].shape);
    }
    for (uint32_t i = 0; i < b->doors.n; i++) {
        blvl__bake_model_str_free(b, (char *)b->doors.p[i].name);
        blvl__bake_model_str_free(b, (char *)b->doors.p[i].team);
    }
    for (uint32_t i = 0; i < b->triggers.n; i++)
        blvl__bake_model_dealloc(b, (void *)b->triggers.p[i].planes,
                                 b->triggers.p[i].plane_count * sizeof(blvl_Plane));
    for (uint32_t i = 0; i < b->teleports.n; i++)
        blvl__bake_model_str_free(b, b->teleports.p[i].name);
    for (uint32_t i = 0; i < b->spawns.n; i++) {
        blvl__bake_model_str_free(b, b->spawns.p[i].kind);
        blvl__bake_model_str_free(b, b->spawns.p[i].team);
    }
    for (uint32_t i = 0; i < b->hurts.n; i++) {
        blvl__bake_model_str_free(b, (char *)b->hurts.p[i].name);
        blvl__bake_model_dealloc(b, (void *)b->hurts.p[i].planes,
                                 b->hurts.p[i].plane_count * sizeof(blvl_Plane));
    }
    for (uint32_t i = 0; i < b->sites.n; i++)
        blvl__bake_model_str_free(b, b->sites.p[i].name);
    for (uint32_t i = 0; i < b->cameras.n; i++)
        blvl__bake_model_str_free(b, b->cameras.p[i].name);
    BAKE_FREE(b, b->sources);
    BAKE_FREE(b, b->images);
    BAKE_FREE(b, b->materials);
    BAKE_FREE(b, b->vertices);
    BAKE_FREE(b, b->indices);
    BAKE_FREE(b, b->surfaces);
    BAKE_FREE(b, b->tri_sources);
    BAKE_FREE(b, b->colliders);
    BAKE_FREE(b, b->made_prisms);
    BAKE_FREE(b, b->prism_makers);
    BAKE_FREE(b, b->collider_order);
    BAKE_FREE(b, b->doors);
    BAKE_FREE(b, b->triggers);
    BAKE_FREE(b, b->teleports);
    BAKE_FREE(b, b->spawns);
    BAKE_FREE(b, b->hurts);
    BAKE_FREE(b, b->entities);
    BAKE_FREE(b, b->sites);
    BAKE_FREE(b, b->cameras);
    BAKE_FREE(b, b->lights);
    BAKE_FREE(b, b->fogs);
    blvl__bake_model_free_lighting(b);
    while (b->blocks) {
        bake_block *k = b->blocks;
        b->blocks = k->next;
        blvl__dealloc(b->al, k, sizeof *k + k->size);
    }
    blvl_allocator al = b->opt.allocator;
    blvl__dealloc(&al, b, sizeof *b);
}

blvl_status blvl_bake_set_meta(blvl_bake *b, const blvl_bake_meta *m, blvl_error *err) {
    if (!b || !m)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: set_meta needs a bake and a meta");
    bool ok = true;
    blvl_bake_meta c = *m;
    c.name = blvl__bake_model_str(b, m->name, &ok);
    c.author = blvl__bake_model_str(b, m->author, &ok);
    c.description = blvl__bake_model_str(b, m->description, &ok);
    if (!ok) {
        blvl__bake_model_str_free(b, (char *)c.name);
        blvl__bake_model_str_free(b, (char *)c.author);
        blvl__bake_model_str_free(b, (char *)c.description);
        return blvl__nomem(err, "bake: copying meta");
    }
    free_meta(b);
    b->meta = c;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_add_source(blvl_bake *b, const blvl_bake_source *s, uint32_t *index,
                                 blvl_error *err) {
    if (!b || !s)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_source needs a bake and a source");
    blvl_status st;
    if (s->kind > blvl_SourceKind_PhysicsShape)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: source kind %u is not a SourceKind",
                          s->kind);
    if ((st = blvl__bake_model_check_index(s->entity, b->entities.n, "source entity", err)) !=
            BLVL_OK ||
        (st = blvl__bake_model_check_index(s->material, b->materials.n, "source material", err)) !=
            BLVL_OK ||
        (st = BAKE_RESERVE(b, b->sources, 1, err)) != BLVL_OK)
        return st;
    if (index)
        *index = b->sources.n;
    b->sources.p[b->sources.n++] = (blvl_symbols_source){
        s->kind, s->index, s->surface_flags, s->contents_flags, s->entity, s->material};
    blvl__ok(err);
    return BLVL_OK;
}

/* A copy of s in the bake's arena (NULL for NULL); *ok false when out of memory. */
static char *arena_str(blvl_bake *b, const char *s, bool *ok) {
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *c = blvl__bake_model_arena(b, n);
    if (c)
        memcpy(c, s, n);
    else
        *ok = false;
    return c;
}

blvl_status blvl_bake_add_entity(blvl_bake *b, const char *classname, const blvl_bake_pair *pairs,
                                 uint32_t pair_count, uint32_t *index, blvl_error *err) {
    if (!b || (pair_count && !pairs))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_entity needs a bake and its pairs");
    blvl_status st = BAKE_RESERVE(b, b->entities, 1, err);
    if (st != BLVL_OK)
        return st;
    /* In the arena, freed with the bake: a map of a million tile entities held 1.2 M strings of
     * a few bytes, each its own allocation of 48 (issue 33 §4). */
    bool ok = true;
    bake_entity e = {0};
    e.classname = arena_str(b, classname, &ok);
    if (pair_count) {
        e.pairs = blvl__bake_model_arena(b, (size_t)pair_count * sizeof *e.pairs);
        ok = ok && e.pairs;
        for (uint32_t k = 0; ok && k < pair_count; k++) {
            e.pairs[k].key = arena_str(b, pairs[k].key, &ok);
            e.pairs[k].value = arena_str(b, pairs[k].value, &ok);
        }
    }
    if (!ok) /* what the arena took goes with the bake */
        return blvl__nomem(err, "bake: copying an entity");
    e.pair_count = pair_count;
    if (index)
        *index = b->entities.n;
    b->entities.p[b->entities.n++] = e;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_add_site(blvl_bake *b, const char *name, uint8_t kind, blvl_Vec3 lo,
                               blvl_Vec3 hi, blvl_error *err) {
    if (!b)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_site needs a bake");
    if (!blvl__bake_model_finite3(lo) || !blvl__bake_model_finite3(hi))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: site bounds are not finite");
    blvl_status st = BAKE_RESERVE(b, b->sites, 1, err);
    if (st != BLVL_OK)
        return st;
    bool ok = true;
    bake_site s = {.kind = kind, .lo = lo, .hi = hi};
    s.name = blvl__bake_model_str(b, name, &ok);
    if (!ok)
        return blvl__nomem(err, "bake: copying a site");
    b->sites.p[b->sites.n++] = s;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_add_camera(blvl_bake *b, const char *name, uint8_t purpose, blvl_Vec3 pos,
                                 float yaw, float pitch, float roll, float fov_x, blvl_error *err) {
    if (!b)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_camera needs a bake");
    if (!blvl__bake_model_finite3(pos) || !isfinite(yaw) || !isfinite(pitch) || !isfinite(roll) ||
        !isfinite(fov_x))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: camera values are not finite");
    blvl_status st = BAKE_RESERVE(b, b->cameras, 1, err);
    if (st != BLVL_OK)
        return st;
    bool ok = true;
    bake_camera c = {.purpose = purpose, .pos = pos, .yaw = yaw, .pitch = pitch, .roll = roll};
    c.fov_x = fov_x == 0.0f ? 90.0f : fov_x;
    c.name = blvl__bake_model_str(b, name, &ok);
    if (!ok)
        return blvl__nomem(err, "bake: copying a camera");
    b->cameras.p[b->cameras.n++] = c;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl_bake_set_ambient(blvl_bake *b, blvl_Vec3 rgb) {
    if (!b)
        return;
    b->has_ambient = true;
    b->ambient = rgb;
}

void blvl_bake_set_sun(blvl_bake *b, blvl_Vec3 direction, blvl_Vec3 color, float intensity) {
    if (!b)
        return;
    b->has_sun = true;
    b->sun_direction = direction;
    b->sun_color = color;
    b->sun_intensity = intensity;
}

void blvl_bake_set_kill_y(blvl_bake *b, float y) {
    if (b)
        b->kill_y = y;
}

blvl_status blvl_bake_add_light(blvl_bake *b, const blvl_bake_light *l, blvl_error *err) {
    if (!b || !l)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_light needs a bake and a light");
    if (!blvl__bake_model_finite3(l->position) || !blvl__bake_model_finite3(l->direction) ||
        !blvl__bake_model_finite3(l->color) || !isfinite(l->intensity) || !isfinite(l->range) ||
        !isfinite(l->inner_cone) || !isfinite(l->outer_cone))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: light values are not finite");
    blvl_status st = BAKE_RESERVE(b, b->lights, 1, err);
    if (st != BLVL_OK)
        return st;
    b->lights.p[b->lights.n++] = *l;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_add_fog_volume(blvl_bake *b, blvl_Vec3 lo, blvl_Vec3 hi, blvl_Vec3 color,
                                     float depth, uint32_t *index, blvl_error *err) {
    if (!b)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_fog_volume needs a bake");
    if (!blvl__bake_model_finite3(lo) || !blvl__bake_model_finite3(hi) ||
        !blvl__bake_model_finite3(color) || !isfinite(depth))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: fog volume values are not finite");
    blvl_status st = BAKE_RESERVE(b, b->fogs, 1, err);
    if (st != BLVL_OK)
        return st;
    if (index)
        *index = b->fogs.n;
    b->fogs.p[b->fogs.n++] = (bake_fog){.lo = lo, .hi = hi, .color = color, .depth = depth};
    blvl__ok(err);
    return BLVL_OK;
}
