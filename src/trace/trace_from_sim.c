/* A trace world from a level's sim section: read through the sections layer (digest-checked,
 * inflated, version-checked, verified with the FlatBuffers verifier), copied out of the buffer
 * into aligned neutral descriptions, expanded. */
#include <stdio.h>
#include <string.h>

#include "blvl/sections.h"
#include "trace/trace_internal.h"

blvl_trace_collider_desc *blvl__trace_descs_from_sim(blvl_Sim sim, const blvl_allocator *al,
                                                     size_t *size) {
    uint32_t n = blvl_Sim_colliders_len(sim);
    /* One block for everything, sized first: the buffer's vectors are unaligned. */
    size_t np = 0, nv = 0, nu = 0;
    for (uint32_t i = 0; i < n; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(sim, i);
        if (blvl_Collider_shape_type(c) == blvl_Shape_Planes) {
            np += blvl_Planes_planes_len(blvl_Collider_shape_as_Planes(c));
        } else if (blvl_Collider_shape_type(c) == blvl_Shape_Hull) {
            blvl_Hull h = blvl_Collider_shape_as_Hull(c);
            nv += blvl_Hull_vertices_len(h);
            nu += (size_t)blvl_Hull_face_sizes_len(h) + blvl_Hull_face_indices_len(h);
        }
    }
    size_t sz_d = (size_t)n * sizeof(blvl_trace_collider_desc), sz_p = np * sizeof(blvl_Plane),
           sz_v = nv * sizeof(blvl_Vec3), sz_u = nu * sizeof(uint32_t),
           total = sz_d + sz_p + sz_v + sz_u;
    unsigned char *block = blvl__alloc(al, total);
    if (!block)
        return NULL;
    *size = total;
    blvl_trace_collider_desc *d = (blvl_trace_collider_desc *)block;
    blvl_Plane *pl = (blvl_Plane *)(block + sz_d);
    blvl_Vec3 *vv = (blvl_Vec3 *)(block + sz_d + sz_p);
    uint32_t *uu = (uint32_t *)(block + sz_d + sz_p + sz_v);
    for (uint32_t i = 0; i < n; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(sim, i);
        blvl_trace_collider_desc *x = &d[i];
        blvl_trace_collider_desc_init(x);
        blvl_Vec3 lo = blvl_Collider_lo(c), hi = blvl_Collider_hi(c);
        x->lo = (blvl_Vec3){lo.x, lo.y, lo.z};
        x->hi = (blvl_Vec3){hi.x, hi.y, hi.z};
        x->flags = blvl_Collider_flags(c);
        x->material = blvl_Collider_material(c);
        x->breakable = blvl_Collider_breakable(c);
        x->door = blvl_Collider_door(c);
        x->source = blvl_Collider_source(c);
        x->gametypes = blvl_Collider_gametypes(c);
        if (blvl_Collider_shape_type(c) == blvl_Shape_Planes) {
            blvl_Planes p = blvl_Collider_shape_as_Planes(c);
            uint32_t k = blvl_Planes_planes_len(p);
            for (uint32_t j = 0; j < k; j++) {
                blvl_Plane q = blvl_Planes_planes_at(p, j);
                pl[j] = (blvl_Plane){{q.normal.x, q.normal.y, q.normal.z}, q.dist};
            }
            x->shape = BLVL_TRACE_SHAPE_PLANES;
            x->planes = pl;
            x->plane_count = k;
            pl += k;
        } else if (blvl_Collider_shape_type(c) == blvl_Shape_Hull) {
            blvl_Hull h = blvl_Collider_shape_as_Hull(c);
            uint32_t k = blvl_Hull_vertices_len(h);
            for (uint32_t j = 0; j < k; j++) {
                blvl_Vec3 q = blvl_Hull_vertices_at(h, j);
                vv[j] = (blvl_Vec3){q.x, q.y, q.z};
            }
            x->shape = BLVL_TRACE_SHAPE_HULL;
            x->vertices = vv;
            x->vertex_count = k;
            vv += k;
            x->face_count = blvl_Hull_face_sizes_len(h);
            blvl_Hull_face_sizes_copy(h, 0, uu, x->face_count);
            x->face_sizes = uu;
            uu += x->face_count;
            x->face_index_count = blvl_Hull_face_indices_len(h);
            blvl_Hull_face_indices_copy(h, 0, uu, x->face_index_count);
            x->face_indices = uu;
            uu += x->face_index_count;
        }
    }
    return d;
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
    blvl_allocator al = {0};
    if (opt)
        al = opt->base.allocator;
    size_t size = 0;
    blvl_trace_collider_desc *d = blvl__trace_descs_from_sim(sim, &al, &size);
    uint32_t n = blvl_Sim_colliders_len(sim);
    blvl_bytes_free(&sec);
    if (!d)
        return blvl__nomem(err, "trace: sim: the collider descriptions");
    st = blvl_trace_world_new(out, d, n, opt, err);
    blvl__dealloc(&al, d, size);
    return st;
}
