/* Step 6, geometry: every drawn BSP surface in surface order, planar surfaces and triangle
 * soups as stored, patches tessellated, one bake surface (and one .bsym triangle run) each
 * (docs/IMPORT-Q3.md, "Geometry"). */
#include <math.h>
#include <string.h>

#include "bake_geometry.h"
#include "blvl/sections/bsym.h"
#include "common/alloc.h"
#include "common/error.h"

bool blvl__import_q3_geo_drawn(const q3_geometry *g, uint32_t i) {
    const q3_ctx *c = g->c;
    const blvl_q3_surface *s = &c->bsp->surfaces[i];
    uint32_t m = g->model_of[i];
    if (m == BLVL_BAKE_NONE || c->model[m].skip)
        return false;
    if (s->type != BLVL_Q3_MST_PLANAR && s->type != BLVL_Q3_MST_TRIANGLE_SOUP &&
        s->type != BLVL_Q3_MST_PATCH)
        return false; /* flares are sprites the renderer places, not geometry */
    if (s->type != BLVL_Q3_MST_PATCH && s->num_indexes < 3)
        return false; /* no triangles */
    const blvl_q3_shader_ref *r = &c->bsp->shaders[s->shader];
    const q3_shader_info *si = &c->shader[s->shader];
    if (si->nodraw || (r->surface_flags & BLVL_Q3_SURF_NODRAW))
        return false;
    /* A fog-only shader's surfaces show only fog, which the fog volume carries; a liquid with
     * fogparms (lava, water) draws its own stages and is kept. */
    const uint32_t liquid = BLVL_Q3_CONTENTS_WATER | BLVL_Q3_CONTENTS_SLIME | BLVL_Q3_CONTENTS_LAVA;
    if ((si->fog || (r->contents & BLVL_Q3_CONTENTS_FOG)) && !(r->contents & liquid))
        return false;
    return true;
}

static double finite_or(q3_ctx *c, float v, double def) {
    if (isfinite(v))
        return v;
    c->report->values_replaced++;
    return def;
}

void blvl__import_q3_geo_vert(q3_ctx *c, const blvl_q3_surface *s, const q3_model_place *m,
                              const blvl_q3_draw_vert *d, q3g_vert *o) {
    blvl_Vec3 p = q3_axes(d->xyz);
    o->p[0] = (double)p.x + m->offset.x;
    o->p[1] = (double)p.y + m->offset.y;
    o->p[2] = (double)p.z + m->offset.z;
    /* Normals: blvl axes, unit; a missing one is the surface's plane (planar) or +Y. */
    float nq[3];
    bool bad = false;
    for (int k = 0; k < 3; k++)
        bad |= !isfinite(d->normal[k]);
    if (bad)
        c->report->values_replaced++;
    memcpy(nq, bad ? s->lightmap_vecs[2] : d->normal, sizeof nq);
    blvl_Vec3 n = q3_axes(nq);
    double len = sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
    if (len > 1e-12 && isfinite(len)) {
        o->n[0] = n.x / len, o->n[1] = n.y / len, o->n[2] = n.z / len;
    } else {
        o->n[0] = 0, o->n[1] = 1, o->n[2] = 0;
    }
    o->st[0] = finite_or(c, d->st[0], 0);
    o->st[1] = finite_or(c, d->st[1], 0);
    /* Lightmap UVs: the page's placement in the atlas, clamped to the page. */
    o->lm[0] = o->lm[1] = 0;
    if (c->lightmap_place && s->lightmap >= 0 && (uint32_t)s->lightmap < c->bsp->lightmap_count) {
        const struct q3_lm_place *pl = &c->lightmap_place[s->lightmap];
        double u = finite_or(c, d->lightmap[0], 0), v = finite_or(c, d->lightmap[1], 0);
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        v = v < 0 ? 0 : v > 1 ? 1 : v;
        o->lm[0] = u * pl->scale_u + pl->offset_u;
        o->lm[1] = v * pl->scale_v + pl->offset_v;
    }
    for (int k = 0; k < 4; k++)
        o->rgba[k] = d->color[k];
}

void blvl__import_q3_geo_out(const q3g_vert *v, blvl_bake_vertex *o) {
    for (int k = 0; k < 3; k++)
        o->position[k] = (float)v->p[k];
    double len = sqrt(v->n[0] * v->n[0] + v->n[1] * v->n[1] + v->n[2] * v->n[2]);
    if (len > 1e-12 && isfinite(len)) {
        for (int k = 0; k < 3; k++)
            o->normal[k] = (float)(v->n[k] / len);
    } else {
        o->normal[0] = 0, o->normal[1] = 1, o->normal[2] = 0;
    }
    o->uv[0] = (float)v->st[0], o->uv[1] = (float)v->st[1];
    o->lightmap_uv[0] = (float)v->lm[0], o->lightmap_uv[1] = (float)v->lm[1];
    for (int k = 0; k < 4; k++) {
        double x = floor(v->rgba[k] + 0.5);
        o->color[k] = (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
    }
}

/* Planar surfaces and soups: the stored vertices and triangles, each turned to blvl's
 * counter-clockwise front (Quake 3 winds a front clockwise; the axis change keeps handedness). */
static blvl_status mesh(q3_ctx *c, const blvl_q3_surface *s, const q3_model_place *m,
                        blvl_bake_vertex **verts, uint32_t *vn, uint32_t **idx, uint32_t *tn) {
    const blvl_allocator *a = &c->opt->allocator;
    uint32_t nv = (uint32_t)s->num_verts, ni = (uint32_t)s->num_indexes;
    *verts = blvl__calloc_n(a, nv ? nv : 1, sizeof **verts);
    *idx = blvl__calloc_n(a, ni ? ni : 1, sizeof **idx);
    if (!*verts || !*idx)
        return blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t i = 0; i < nv; i++) {
        q3g_vert v;
        blvl__import_q3_geo_vert(c, s, m, &c->bsp->draw_verts[s->first_vert + i], &v);
        blvl__import_q3_geo_out(&v, &(*verts)[i]);
    }
    const int32_t *src = c->bsp->draw_indexes + s->first_index;
    for (uint32_t t = 0; t + 2 < ni; t += 3) {
        (*idx)[t] = (uint32_t)src[t];
        (*idx)[t + 1] = (uint32_t)src[t + 2];
        (*idx)[t + 2] = (uint32_t)src[t + 1];
    }
    *vn = nv;
    *tn = ni / 3;
    return BLVL_OK;
}

static blvl_status add(q3_geometry *g, uint32_t i, const q3g_levels *lv) {
    q3_ctx *c = g->c;
    const blvl_allocator *a = &c->opt->allocator;
    const blvl_q3_bsp *bsp = c->bsp;
    const blvl_q3_surface *s = &bsp->surfaces[i];
    const q3_model_place *m = &c->model[g->model_of[i]];
    const q3_shader_info *si = &c->shader[s->shader];
    bool patch = s->type == BLVL_Q3_MST_PATCH;
    blvl_bake_vertex *verts = NULL;
    uint32_t *idx = NULL, vn = 0, tn = 0;
    blvl_status st;
    if (patch) {
        const uint32_t *lu = lv->level + lv->first[i];
        st = blvl__import_q3_geo_tessellate(c, i, m, lu, lu + (s->patch_width - 1) / 2, &verts, &vn,
                                            &idx, &tn);
    } else {
        st = mesh(c, s, m, &verts, &vn, &idx, &tn);
    }
    if (st == BLVL_OK) {
        blvl_bake_source src = {.kind = patch ? blvl_SourceKind_Patch : blvl_SourceKind_Face,
                                .index = i,
                                .surface_flags = bsp->shaders[s->shader].surface_flags,
                                .contents_flags = bsp->shaders[s->shader].contents,
                                .entity = m->entity,
                                .material = si->source_material};
        blvl_bake_surface bs;
        blvl_bake_surface_init(&bs);
        st = blvl_bake_add_source(c->b, &src, &bs.source, c->err);
        bs.vertices = verts;
        bs.vertex_count = vn;
        bs.indices = idx;
        bs.index_count = tn * 3;
        bs.material = si->material;
        bs.door = m->door;
        bs.fog = s->fog >= 0 ? c->fog_volume[s->fog] : BLVL_BAKE_NONE;
        bs.gametypes = m->gametypes;
        if (c->lightmap_place && s->lightmap >= 0 && (uint32_t)s->lightmap < bsp->lightmap_count)
            bs.lightmap_layer = c->lightmap_place[s->lightmap].layer;
        if (st == BLVL_OK)
            st = blvl_bake_add_surface(c->b, &bs, c->err);
        if (st == BLVL_OK) {
            c->report->surfaces_drawn++;
            c->report->triangles += tn;
            if (patch)
                c->report->patch_triangles += tn;
        }
    }
    if (verts)
        blvl__dealloc(a, verts,
                      (size_t)(patch ? vn : (s->num_verts ? (uint32_t)s->num_verts : 1u)) *
                          sizeof *verts);
    if (idx)
        blvl__dealloc(a, idx,
                      (size_t)(patch ? tn * 3 : (s->num_indexes ? (uint32_t)s->num_indexes : 1u)) *
                          sizeof *idx);
    return st;
}

blvl_status blvl__import_q3_geo_geometry(q3_ctx *c) {
    const blvl_allocator *a = &c->opt->allocator;
    const blvl_q3_bsp *bsp = c->bsp;
    uint32_t n = bsp->surface_count;
    q3_geometry g = {.c = c, .model_of = blvl__calloc_n(a, n ? n : 1, sizeof(uint32_t))};
    if (!g.model_of)
        return blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t i = 0; i < n; i++)
        g.model_of[i] = BLVL_BAKE_NONE;
    for (uint32_t m = bsp->model_count; m-- > 0;) {
        const blvl_q3_model *md = &bsp->models[m];
        for (int32_t k = 0; k < md->num_surfaces; k++)
            g.model_of[md->first_surface + k] = m; /* lowest model wins */
    }
    q3g_levels lv = {0};
    blvl_status st = blvl__import_q3_geo_levels(&g, &lv);
    for (uint32_t i = 0; st == BLVL_OK && i < n; i++)
        if (blvl__import_q3_geo_drawn(&g, i))
            st = add(&g, i, &lv);
    blvl__import_q3_geo_levels_free(c, &lv);
    blvl__dealloc(a, g.model_of, (size_t)(n ? n : 1) * sizeof(uint32_t));
    return st;
}
