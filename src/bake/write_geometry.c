/* The geometry section: vertices with their tangents and indices in batch order (surfaces of
 * a batch are contiguous, each surface's vertices follow in its own order), batches with their
 * bounds, and the materials. */
#include <string.h>

#include "bake/material_ext.h"
#include "bake/tangents.h"
#include "bake/write.h"
#include "blvl/sections/geometry_builder.h"
#include "common/alloc.h"
#include "common/error.h"

bool blvl__bake_has_geometry(const blvl_bake *b) {
    return b->indices.n > 0 || b->materials.n > 0;
}

/* The materials vector into *out; `refs` has one entry per material. */
static blvl_status build_materials(const blvl_bake *b, blvl_fb_builder *fb, blvl_fb_ref *refs,
                                   blvl_fb_ref *out, blvl_error *err) {
    uint32_t most = 0; /* scratch for a material's lists (extensions) */
    for (uint32_t i = 0; i < b->materials.n; i++) {
        uint32_t n = blvl__bake_material_ext_refs(&b->materials.p[i]);
        most = n > most ? n : most;
    }
    blvl_fb_ref *list = blvl__bake_refs(b, most, err);
    if (most && !list)
        return BLVL_E_NOMEM;
    for (uint32_t i = 0; i < b->materials.n; i++) {
        const blvl_bake_material *m = &b->materials.p[i];
        blvl_fb_ref name = blvl__bake_fb_str(fb, m->name);
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
    blvl__bake_refs_free(b, list, most);
    *out = b->materials.n ? blvl_fb_create_ref_vector(fb, refs, b->materials.n) : 0;
    return BLVL_OK;
}

/* Vertices and indices in plan order; tangents per surface. */
static blvl_status lay_out(const blvl_bake *b, const bake_plan *plan, blvl_Vertex *verts,
                           uint32_t *idx, blvl_error *err) {
    uint32_t most = 0;
    for (uint32_t i = 0; i < b->surfaces.n; i++)
        most = b->surfaces.p[i].vertex_count > most ? b->surfaces.p[i].vertex_count : most;
    double *scratch = most ? blvl__alloc(b->al, (size_t)most * 6 * sizeof *scratch) : NULL;
    blvl_Snorm16x4 *tan = most ? blvl__alloc(b->al, (size_t)most * sizeof *tan) : NULL;
    if (most && (!scratch || !tan)) {
        blvl__bake_dealloc(b, scratch, (size_t)most * 6 * sizeof *scratch);
        blvl__bake_dealloc(b, tan, (size_t)most * sizeof *tan);
        return blvl__fail(err, BLVL_E_NOMEM, "bake: out of memory computing tangents");
    }
    uint32_t vc = 0, ic = 0;
    for (uint32_t o = 0; o < plan->order_count; o++) {
        const bake_surface *s = &b->surfaces.p[plan->order[o]];
        const blvl_bake_vertex *sv = b->vertices.p + s->first_vertex;
        const uint32_t *si = b->indices.p + s->first_index;
        blvl__bake_tangents(sv, s->vertex_count, si, s->index_count, scratch, tan);
        for (uint32_t k = 0; k < s->vertex_count; k++) {
            blvl_Vertex *d = &verts[vc + k];
            d->position = (blvl_Vec3){sv[k].position[0], sv[k].position[1], sv[k].position[2]};
            d->normal = (blvl_Vec3){sv[k].normal[0], sv[k].normal[1], sv[k].normal[2]};
            d->uv = (blvl_Vec2){sv[k].uv[0], sv[k].uv[1]};
            d->lightmap_uv = (blvl_Vec2){sv[k].lightmap_uv[0], sv[k].lightmap_uv[1]};
            d->color = (blvl_Rgba8){sv[k].color[0], sv[k].color[1], sv[k].color[2], sv[k].color[3]};
            d->tangent = tan[k];
        }
        for (uint32_t k = 0; k < s->index_count; k++)
            idx[ic++] = vc + si[k];
        vc += s->vertex_count;
    }
    blvl__bake_dealloc(b, scratch, (size_t)most * 6 * sizeof *scratch);
    blvl__bake_dealloc(b, tan, (size_t)most * sizeof *tan);
    return BLVL_OK;
}

static void batch_bounds(const blvl_Vertex *verts, const uint32_t *idx, const bake_batch *bt,
                         blvl_Vec3 *lo, blvl_Vec3 *hi) {
    *lo = *hi = verts[idx[bt->first_index]].position;
    for (uint32_t k = 1; k < bt->index_count; k++) {
        blvl_Vec3 p = verts[idx[bt->first_index + k]].position;
        lo->x = p.x < lo->x ? p.x : lo->x, hi->x = p.x > hi->x ? p.x : hi->x;
        lo->y = p.y < lo->y ? p.y : lo->y, hi->y = p.y > hi->y ? p.y : hi->y;
        lo->z = p.z < lo->z ? p.z : lo->z, hi->z = p.z > hi->z ? p.z : hi->z;
    }
}

blvl_status blvl__bake_write_geometry(const blvl_bake *b, const bake_plan *plan,
                                      blvl_fb_builder *fb, bake_buf *out, blvl_error *err) {
    uint32_t nv = b->vertices.n, ni = b->indices.n;
    uint32_t nr = plan->batch_count > b->materials.n ? plan->batch_count : b->materials.n;
    blvl_Vertex *verts = nv ? blvl__alloc(b->al, (size_t)nv * sizeof *verts) : NULL;
    uint32_t *idx = ni ? blvl__alloc(b->al, (size_t)ni * sizeof *idx) : NULL;
    blvl_fb_ref *refs = blvl__bake_refs(b, nr, err);
    blvl_status st = BLVL_OK;
    if ((nv && !verts) || (ni && !idx) || (nr && !refs)) {
        st = blvl__fail(err, BLVL_E_NOMEM, "bake: out of memory writing geometry");
        goto done;
    }
    if ((st = lay_out(b, plan, verts, idx, err)) != BLVL_OK)
        goto done;
    blvl_fb_builder_reset(fb);
    blvl_fb_ref vref = nv ? blvl_Geometry_vertices_create(fb, verts, nv) : 0;
    blvl_fb_ref iref = ni ? blvl_Geometry_indices_create(fb, idx, ni) : 0;
    for (uint32_t i = 0; i < plan->batch_count; i++) {
        const bake_batch *bt = &plan->batches[i];
        blvl_Vec3 lo, hi;
        batch_bounds(verts, idx, bt, &lo, &hi);
        blvl_Batch_start(fb);
        blvl_Batch_add_first_index(fb, bt->first_index);
        blvl_Batch_add_index_count(fb, bt->index_count);
        blvl_Batch_add_material(fb, bt->material);
        blvl_Batch_add_lo(fb, &lo);
        blvl_Batch_add_hi(fb, &hi);
        blvl_Batch_add_breakable(fb, bt->breakable);
        blvl_Batch_add_door(fb, bt->door);
        blvl_Batch_add_fog(fb, bt->fog);
        blvl_Batch_add_gametypes(fb, bt->gametypes);
        blvl_Batch_add_lightmap_layer(fb, bt->lightmap_layer);
        refs[i] = blvl_Batch_end(fb);
    }
    blvl_fb_ref bref =
        plan->batch_count ? blvl_fb_create_ref_vector(fb, refs, plan->batch_count) : 0;
    blvl_fb_ref mref = 0;
    if ((st = build_materials(b, fb, refs, &mref, err)) != BLVL_OK)
        goto done;
    blvl_Geometry_start(fb);
    blvl_Geometry_add_vertices(fb, vref);
    blvl_Geometry_add_indices(fb, iref);
    blvl_Geometry_add_batches(fb, bref);
    blvl_Geometry_add_materials(fb, mref);
    st = blvl_Geometry_finish(fb, blvl_Geometry_end(fb), &out->data, &out->size, err);
done:
    blvl__bake_dealloc(b, verts, (size_t)nv * sizeof *verts);
    blvl__bake_dealloc(b, idx, (size_t)ni * sizeof *idx);
    blvl__bake_refs_free(b, refs, nr);
    return st;
}
