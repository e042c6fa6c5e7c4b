/* The geometry section: vertices with their tangents and indices in batch order (surfaces of
 * a batch are contiguous, each surface's vertices follow in its own order), batches with their
 * bounds, and the materials. The vertices are the buffer's first vector, so they are its last
 * bytes: everything else is built first and the vertices are streamed after it, a piece at a
 * time, never the whole array in memory (a level's are hundreds of MiB). */
#include <string.h>

#include "bake/model/material_ext.h"
#include "bake/write/tangents.h"
#include "bake/write/write.h"
#include "blvl/sections/geometry_builder.h"
#include "common/alloc.h"
#include "common/error.h"
#include "fb_builder/reserve.h"

bool blvl__bake_write_has_geometry(const blvl_bake *b) {
    return b->indices.n > 0 || b->materials.n > 0;
}

/* The materials vector into *out; `refs` has one entry per material. */
static blvl_status build_materials(const blvl_bake *b, blvl_fb_builder *fb, blvl_fb_ref *refs,
                                   blvl_fb_ref *out, blvl_error *err) {
    uint32_t most = 0; /* scratch for a material's lists (extensions) */
    for (uint32_t i = 0; i < b->materials.n; i++) {
        uint32_t n = blvl__bake_write_material_ext_refs(&b->materials.p[i]);
        most = n > most ? n : most;
    }
    blvl_fb_ref *list = blvl__bake_write_refs(b, most, err);
    if (most && !list)
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->materials.n; i++) {
        const blvl_bake_material *m = &b->materials.p[i];
        blvl_fb_ref name = blvl__bake_write_fb_str(fb, m->name);
        blvl_fb_ref pbr = blvl__bake_write_pbr(fb, m, list);
        blvl_fb_ref shading = blvl__bake_write_shading(fb, m, list);
        blvl_fb_ref water = 0;
        if (m->water) { /* an empty Water table: "a water surface, the engine said nothing" */
            blvl_Water_start(fb);
            water = blvl_Water_end(fb);
        }
        blvl_Material_start(fb);
        blvl_Material_add_name(fb, name);
        blvl_Material_add_texture(fb, m->texture);
        blvl_Material_add_sort(fb, m->sort);
        blvl_Material_add_blend(fb, m->blend);
        blvl_Material_add_depth_write(fb, m->depth_write);
        blvl_Material_add_alpha_test(fb, m->alpha_test);
        blvl_Material_add_alpha_ref(fb, m->alpha_ref);
        blvl_Material_add_two_sided(fb, m->two_sided);
        blvl_Material_add_polygon_offset(fb, m->polygon_offset);
        blvl_Material_add_env_map(fb, m->env_map);
        blvl_Material_add_sky(fb, m->sky);
        blvl_Material_add_pbr(fb, pbr);
        blvl_Material_add_water(fb, water);
        blvl_Material_add_shading(fb, shading);
        refs[i] = blvl_Material_end(fb);
    }
    blvl__bake_write_refs_free(b, list, most);
    *out = b->materials.n ? blvl_fb_create_ref_vector(fb, refs, b->materials.n) : 0;
    return BLVL_OK;
}

/* A surface's vertices: where the model holds them, or made into `scratch` (room for the
 * largest made surface; bake/model/fast.h). */
static const blvl_bake_vertex *surface_vertices(const blvl_bake *b, const bake_surface *s,
                                                blvl_bake_vertex *scratch) {
    if (!s->make)
        return b->vertices.p + s->first_vertex;
    s->make(s->make_ctx, 0, s->vertex_count, scratch);
    return scratch;
}

static uint32_t most_made(const blvl_bake *b) {
    uint32_t most = 0;
    for (uint32_t i = 0; i < b->surfaces.n; i++)
        if (b->surfaces.p[i].make && b->surfaces.p[i].vertex_count > most)
            most = b->surfaces.p[i].vertex_count;
    return most;
}

/* The vertices stream out in pieces of this many bytes (a whole number of vertices): the
 * section's largest part never needs to be in memory at once. */
#define VERTEX_PIECE (20160u * sizeof(blvl_Vertex))

typedef struct emit_ctx {
    const blvl_bake_vertex *sv; /* the surface's vertices */
    uint8_t *piece;             /* VERTEX_PIECE bytes; `fill` of them written */
    size_t fill;
    const bake_sink *sink;
    blvl_status st;
    blvl_error *err;
} emit_ctx;

static void flush(emit_ctx *e) {
    if (e->st == BLVL_OK && e->fill)
        e->st = e->sink->put(e->sink->ctx, e->piece, e->fill, e->err);
    e->fill = 0;
}

/* Vertices come in plan order and, within a surface, in vertex order (tangents.h). */
static void emit(void *ctx, uint32_t i, blvl_Snorm16x4 tangent) {
    emit_ctx *e = ctx;
    if (e->fill == VERTEX_PIECE)
        flush(e);
    const blvl_bake_vertex *v = &e->sv[i];
    blvl_Vertex d;
    d.position = (blvl_Vec3){v->position[0], v->position[1], v->position[2]};
    d.normal = (blvl_Vec3){v->normal[0], v->normal[1], v->normal[2]};
    d.uv = (blvl_Vec2){v->uv[0], v->uv[1]};
    d.lightmap_uv = (blvl_Vec2){v->lightmap_uv[0], v->lightmap_uv[1]};
    d.color = (blvl_Rgba8){v->color[0], v->color[1], v->color[2], v->color[3]};
    d.tangent = tangent;
    memcpy(e->piece + e->fill, &d, sizeof d);
    e->fill += sizeof d;
}

/* The vertices in plan order, each with its tangent, into the sink (the tail of the section's
 * buffer). Tangents through the window (tangents.h); a surface whose triangles name vertices far
 * apart through a scratch of its size, allocated only then. */
static blvl_status put_vertices(const blvl_bake *b, const bake_plan *plan, const bake_sink *sink,
                                blvl_bake_vertex *scratch, blvl_error *err) {
    uint32_t most = 0, most_tri = 0;
    for (uint32_t i = 0; i < b->surfaces.n; i++) {
        const bake_surface *s = &b->surfaces.p[i];
        most = s->vertex_count > most ? s->vertex_count : most;
        most_tri = s->index_count / 3 > most_tri ? s->index_count / 3 : most_tri;
    }
    size_t ring_n = 6 * (size_t)BAKE_TANGENT_WINDOW, full_n = 6 * (size_t)most;
    double *ring = blvl__alloc(b->al, ring_n * sizeof *ring), *full = NULL;
    uint32_t *low = blvl__alloc(b->al, ((size_t)most_tri + 1) * sizeof *low);
    emit_ctx e = {.piece = blvl__alloc(b->al, VERTEX_PIECE), .sink = sink, .err = err};
    blvl_Snorm16x4 *tan = NULL;
    if (!ring || !low || !e.piece) {
        e.st = blvl__nomem(err, "bake: computing tangents");
        goto done;
    }
    memset(ring, 0, ring_n * sizeof *ring);
    for (uint32_t o = 0; o < plan->order_count && e.st == BLVL_OK; o++) {
        const bake_surface *s = &b->surfaces.p[plan->order[o]];
        e.sv = surface_vertices(b, s, scratch);
        const uint32_t *si = b->indices.p + s->first_index;
        uint32_t nv = s->vertex_count;
        if (blvl__bake_write_tangents_window(e.sv, nv, si, s->index_count, ring, low, emit, &e))
            continue;
        if (!full) {
            full = blvl__alloc(b->al, full_n * sizeof *full);
            tan = blvl__alloc(b->al, (size_t)most * sizeof *tan);
            if (!full || !tan) {
                e.st = blvl__nomem(err, "bake: computing tangents");
                goto done;
            }
        }
        blvl__bake_write_tangents(e.sv, nv, si, s->index_count, full, tan);
        for (uint32_t k = 0; k < nv; k++)
            emit(&e, k, tan[k]);
    }
    flush(&e);
done:
    blvl__bake_model_dealloc(b, e.piece, VERTEX_PIECE);
    blvl__bake_model_dealloc(b, ring, ring_n * sizeof *ring);
    blvl__bake_model_dealloc(b, low, ((size_t)most_tri + 1) * sizeof *low);
    blvl__bake_model_dealloc(b, full, full_n * sizeof *full);
    blvl__bake_model_dealloc(b, tan, (size_t)most * sizeof *tan);
    return e.st;
}

static void grow(blvl_Vec3 *lo, blvl_Vec3 *hi, const float p[3]) {
    lo->x = p[0] < lo->x ? p[0] : lo->x, hi->x = p[0] > hi->x ? p[0] : hi->x;
    lo->y = p[1] < lo->y ? p[1] : lo->y, hi->y = p[1] > hi->y ? p[1] : hi->y;
    lo->z = p[2] < lo->z ? p[2] : lo->z, hi->z = p[2] > hi->z ? p[2] : hi->z;
}

/* The indices in plan order, offset to the written vertices, in place at `dst`; each batch's
 * bounds (lo[i], hi[i]): the positions its indices name, in their order (the first sets both).
 * Made surfaces' vertices are made here first, and checked as add_surface checks given ones. */
static blvl_status put_indices(const blvl_bake *b, const bake_plan *plan, uint8_t *dst,
                               blvl_Vec3 *lo, blvl_Vec3 *hi, blvl_bake_vertex *scratch,
                               blvl_error *err) {
    uint32_t vc = 0, r = 0, left = 0; /* r: the batch of order[o]; left: its surfaces to come */
    bool any = false;
    for (uint32_t o = 0; o < plan->order_count; o++) {
        const bake_surface *s = &b->surfaces.p[plan->order[o]];
        const blvl_bake_vertex *sv = surface_vertices(b, s, scratch);
        for (uint32_t k = 0; s->make && k < s->vertex_count; k++)
            if (!blvl__bake_model_vertex_finite(&sv[k]))
                return blvl__fail(err, BLVL_E_ARGUMENT,
                                  "bake: made surface %u: vertex %u not finite", plan->order[o], k);
        const uint32_t *si = b->indices.p + s->first_index;
        if (r < plan->batch_count && left == 0 && o == plan->batches[r].first)
            left = plan->batches[r].count, any = false;
        for (uint32_t k = 0; k < s->index_count; k++, dst += 4) {
            uint32_t i = vc + si[k];
            memcpy(dst, &i, 4);
            const float *p = sv[si[k]].position;
            if (!any) {
                lo[r] = hi[r] = (blvl_Vec3){p[0], p[1], p[2]};
                any = true;
            } else {
                grow(&lo[r], &hi[r], p);
            }
        }
        vc += s->vertex_count;
        if (left && --left == 0)
            r++;
    }
    return BLVL_OK;
}

blvl_status blvl__bake_write_geometry(const blvl_bake *b, const bake_plan *plan,
                                      blvl_fb_builder *fb, const bake_sink *sink, blvl_error *err) {
    uint32_t nv = b->vertices.n + b->made_vertices, ni = b->indices.n, nb = plan->batch_count;
    uint32_t nr = nb > b->materials.n ? nb : b->materials.n, nm = most_made(b);
    blvl_Vec3 *bounds = nb ? blvl__alloc(b->al, (size_t)nb * 2 * sizeof *bounds) : NULL;
    blvl_bake_vertex *scratch = nm ? blvl__alloc(b->al, (size_t)nm * sizeof *scratch) : NULL;
    blvl_fb_ref *refs = blvl__bake_write_refs(b, nr, err);
    blvl_status st = BLVL_OK;
    if ((nb && !bounds) || (nr && !refs) || (nm && !scratch)) {
        st = blvl__nomem(err, "bake: writing geometry");
        goto done;
    }
    blvl_fb_builder_reset(fb);
    blvl_fb_ref vref = 0, iref = 0;
    if (nv) { /* the vertices follow the buffer: put_vertices streams them after it */
        if (!blvl__fb_builder_tail_start(fb, nv, sizeof(blvl_Vertex), 4)) {
            st = blvl_fb_builder_status(fb, err);
            goto done;
        }
        vref = blvl__fb_builder_vector_end(fb, nv);
    }
    if (ni) {
        uint8_t *p = blvl__fb_builder_vector_start(fb, ni, 4, 4);
        if (!p) {
            st = blvl_fb_builder_status(fb, err);
            goto done;
        }
        if ((st = put_indices(b, plan, p, bounds, bounds + nb, scratch, err)) != BLVL_OK)
            goto done;
        iref = blvl__fb_builder_vector_end(fb, ni);
    }
    for (uint32_t i = 0; i < nb; i++) {
        const bake_batch *bt = &plan->batches[i];
        blvl_Batch_start(fb);
        blvl_Batch_add_first_index(fb, bt->first_index);
        blvl_Batch_add_index_count(fb, bt->index_count);
        blvl_Batch_add_material(fb, bt->material);
        blvl_Batch_add_lo(fb, &bounds[i]);
        blvl_Batch_add_hi(fb, &bounds[nb + i]);
        blvl_Batch_add_breakable(fb, bt->breakable);
        blvl_Batch_add_door(fb, bt->door);
        blvl_Batch_add_fog(fb, bt->fog);
        blvl_Batch_add_gametypes(fb, bt->gametypes);
        blvl_Batch_add_lightmap_layer(fb, bt->lightmap_layer);
        refs[i] = blvl_Batch_end(fb);
    }
    blvl_fb_ref bref = nb ? blvl_fb_create_ref_vector(fb, refs, nb) : 0;
    blvl_fb_ref mref = 0;
    if ((st = build_materials(b, fb, refs, &mref, err)) != BLVL_OK)
        goto done;
    blvl_Geometry_start(fb);
    blvl_Geometry_add_vertices(fb, vref);
    blvl_Geometry_add_indices(fb, iref);
    blvl_Geometry_add_batches(fb, bref);
    blvl_Geometry_add_materials(fb, mref);
    const uint8_t *front = NULL;
    size_t front_size = 0;
    st = blvl_Geometry_finish(fb, blvl_Geometry_end(fb), &front, &front_size, err);
    if (st == BLVL_OK)
        st = sink->put(sink->ctx, front, front_size, err);
    if (st == BLVL_OK && nv)
        st = put_vertices(b, plan, sink, scratch, err);
done:
    blvl__bake_model_dealloc(b, bounds, (size_t)nb * 2 * sizeof *bounds);
    blvl__bake_model_dealloc(b, scratch, (size_t)nm * sizeof *scratch);
    blvl__bake_write_refs_free(b, refs, nr);
    return st;
}
