/* A trace world from a level's sim section: read through the sections layer (digest-checked,
 * inflated, version-checked, verified with the FlatBuffers verifier), described in place (a
 * collider's planes, vertices and face lists are read where the buffer holds them, copied out
 * only when a vector is not aligned for its type), expanded. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "blvl/sections.h"
#include "trace/trace_internal.h"

/* A vector's elements in place when its start is aligned for them (the library reads
 * FlatBuffers as little-endian memory, blvl_fb_vec_copy's rule), else NULL: copy it. */
static const void *in_place(blvl_fb_vec v, size_t align) {
    return v.len && (uintptr_t)v.data % align == 0 ? v.data : NULL;
}

/* The vector's elements in place, or NULL and their bytes added to *copy (a later pass copies
 * them); an empty vector is NULL. */
static const void *place(blvl_fb_vec v, size_t elem, size_t align, size_t *copy) {
    const void *p = in_place(v, align);
    if (!p)
        *copy += (size_t)v.len * elem;
    return p;
}

/* Every field written once (no zeroing first): the schema's defaults come from the reader.
 * Returns the bytes of the vectors it could not point to. */
static size_t describe(blvl_Collider c, blvl_trace_collider_desc *x) {
    size_t copy = 0;
    *x = (blvl_trace_collider_desc){.lo = blvl_Collider_lo(c),
                                    .hi = blvl_Collider_hi(c),
                                    .flags = blvl_Collider_flags(c),
                                    .material = blvl_Collider_material(c),
                                    .breakable = blvl_Collider_breakable(c),
                                    .door = blvl_Collider_door(c),
                                    .source = blvl_Collider_source(c),
                                    .gametypes = blvl_Collider_gametypes(c),
                                    .shape = BLVL_TRACE_SHAPE_NONE};
    if (blvl_Collider_shape_type(c) == blvl_Shape_Planes) {
        blvl_fb_vec v = blvl_Planes_planes_vec(blvl_Collider_shape_as_Planes(c));
        x->shape = BLVL_TRACE_SHAPE_PLANES;
        x->planes = place(v, sizeof(blvl_Plane), _Alignof(blvl_Plane), &copy);
        x->plane_count = v.len;
    } else if (blvl_Collider_shape_type(c) == blvl_Shape_Hull) {
        blvl_Hull h = blvl_Collider_shape_as_Hull(c);
        blvl_fb_vec v = blvl_Hull_vertices_vec(h), s = blvl_Hull_face_sizes_vec(h),
                    f = blvl_Hull_face_indices_vec(h);
        x->shape = BLVL_TRACE_SHAPE_HULL;
        x->vertices = place(v, sizeof(blvl_Vec3), _Alignof(blvl_Vec3), &copy);
        x->vertex_count = v.len;
        x->face_sizes = place(s, sizeof(uint32_t), _Alignof(uint32_t), &copy);
        x->face_count = s.len;
        x->face_indices = place(f, sizeof(uint32_t), _Alignof(uint32_t), &copy);
        x->face_index_count = f.len;
    }
    return copy;
}

/* The vector copied to *room (advanced past it) when the description could not point to it. */
static const void *copy_to(const void *have, blvl_fb_vec v, size_t elem, unsigned char **room) {
    if (have || !v.len)
        return have;
    memcpy(*room, v.data, (size_t)v.len * elem);
    *room += (size_t)v.len * elem;
    return *room - (size_t)v.len * elem;
}

/* Collider c's vectors that x could not point to, copied to room. */
static void copy_unaligned(blvl_Collider c, blvl_trace_collider_desc *x, unsigned char *room) {
    if (x->shape == BLVL_TRACE_SHAPE_PLANES) {
        blvl_fb_vec v = blvl_Planes_planes_vec(blvl_Collider_shape_as_Planes(c));
        x->planes = copy_to(x->planes, v, sizeof(blvl_Plane), &room);
    } else if (x->shape == BLVL_TRACE_SHAPE_HULL) {
        blvl_Hull h = blvl_Collider_shape_as_Hull(c);
        x->vertices = copy_to(x->vertices, blvl_Hull_vertices_vec(h), sizeof(blvl_Vec3), &room);
        x->face_sizes =
            copy_to(x->face_sizes, blvl_Hull_face_sizes_vec(h), sizeof(uint32_t), &room);
        x->face_indices =
            copy_to(x->face_indices, blvl_Hull_face_indices_vec(h), sizeof(uint32_t), &room);
    }
}

/* One pass when the vectors are aligned (a section's bytes are: the reader's blocks and a
 * mapped file's chunks start aligned); a block grown and a second pass otherwise. */
blvl_trace_collider_desc *blvl__trace_descs_from_sim(blvl_Sim sim, const blvl_allocator *al,
                                                     size_t *size) {
    uint32_t n = blvl_Sim_colliders_len(sim);
    size_t sz_d = (size_t)n * sizeof(blvl_trace_collider_desc), copy = 0;
    blvl_trace_collider_desc *d = blvl__alloc(al, sz_d);
    if (!d)
        return NULL;
    for (uint32_t i = 0; i < n; i++)
        copy += describe(blvl_Sim_colliders_at(sim, i), &d[i]);
    *size = sz_d;
    if (!copy)
        return d;
    unsigned char *block = blvl__alloc(al, sz_d + copy);
    if (block) {
        blvl_trace_collider_desc *x = (blvl_trace_collider_desc *)block;
        memcpy(block, d, sz_d);
        unsigned char *room = block + sz_d;
        for (uint32_t i = 0; i < n; i++) {
            size_t need = describe(blvl_Sim_colliders_at(sim, i), &x[i]);
            copy_unaligned(blvl_Sim_colliders_at(sim, i), &x[i], room);
            room += need;
        }
        *size = sz_d + copy;
    }
    blvl__dealloc(al, d, sz_d);
    return (blvl_trace_collider_desc *)block;
}

/* The world build's source: each collider described when the build asks (no block of
 * descriptions: for a large map it would be fresh memory the kernel clears page by page), a
 * vector that is not aligned copied to a scratch block reused from collider to collider. */
typedef struct sim_source {
    blvl_Sim sim;
    const blvl_allocator *al;
    unsigned char *scratch;
    size_t cap;
} sim_source;

static const blvl_trace_collider_desc *sim_get(void *user, uint32_t i,
                                               blvl_trace_collider_desc *tmp) {
    sim_source *s = user;
    blvl_Collider c = blvl_Sim_colliders_at(s->sim, i);
    size_t need = describe(c, tmp);
    if (!need)
        return tmp;
    if (need > s->cap) {
        blvl__dealloc(s->al, s->scratch, s->cap);
        s->cap = 0;
        if (!(s->scratch = blvl__alloc(s->al, need)))
            return NULL;
        s->cap = need;
    }
    copy_unaligned(c, tmp, s->scratch);
    return tmp;
}

blvl_status blvl__trace_world_from_sim(blvl_trace_world **out, blvl_Sim sim,
                                       const blvl_trace_options *opt, blvl_error *err) {
    *out = NULL;
    blvl_allocator al = {0};
    if (opt)
        al = opt->base.allocator;
    uint32_t n = blvl_Sim_colliders_len(sim);
    if (n > (1u << 28))
        return blvl__fail(err, BLVL_E_ARGUMENT, "trace: sim: too many colliders");
    sim_source ss = {sim, &al, NULL, 0};
    tw_source src = {NULL, sim_get, &ss};
    blvl_status st = blvl__trace_world_build(out, &src, n, opt, err);
    blvl__dealloc(&al, ss.scratch, ss.cap);
    return st;
}

blvl_status blvl_trace_world_from_level(blvl_trace_world **out, blvl_level *level,
                                        const blvl_trace_options *opt, blvl_error *err) {
    if (!out || !level)
        return blvl__fail(err, BLVL_E_ARGUMENT, "trace: sim: no level");
    *out = NULL;
    /* The sections layer's one reading of sim: present, at a known version, verified. */
    blvl_bytes sec;
    blvl_Sim sim;
    blvl_status st = blvl_level_sim(level, &sec, &sim, err);
    if (st != BLVL_OK)
        return st;
    /* the descriptions point into sec: it lives until the world has taken what it keeps */
    st = blvl__trace_world_from_sim(out, sim, opt, err);
    blvl_bytes_free(&sec);
    return st;
}
