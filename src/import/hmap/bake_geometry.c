/* geometry from the sources (docs/IMPORT-HMAP.md, "Geometry"): each drawn brush face clipped
 * by its brush's other planes into a polygon, each mesh polygon, fan-triangulated, one surface
 * (and so one .bsym triangle run) per face or polygon. */
#include <math.h>
#include <string.h>

#include "bake_internal.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/lighting.h"
#include "blvl/sections/sim.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/array.h"

/* Scratch vertices and indices for one polygon, grown as needed. */
typedef struct scratch {
    blvl_bake_vertex *v;
    uint32_t *idx;
    uint32_t cap;
} scratch;

static bool reserve(hmap_bake *c, scratch *s, uint32_t n) {
    if (n <= s->cap)
        return true;
    /* the common growth rule; a capacity past a uint32 is clamped to n */
    size_t grown = blvl__array_grown(s->cap, n, 16, 3 * sizeof *s->idx);
    uint32_t cap = grown && grown <= UINT32_MAX ? (uint32_t)grown : n;
    blvl_bake_vertex *v = blvl__calloc_n(c->al, cap, sizeof *v);
    uint32_t *idx = blvl__calloc_n(c->al, (size_t)cap * 3, sizeof *idx);
    if (!v || !idx) {
        blvl__dealloc(c->al, v, (size_t)cap * sizeof *v);
        blvl__dealloc(c->al, idx, (size_t)cap * 3 * sizeof *idx);
        return false;
    }
    blvl__dealloc(c->al, s->v, (size_t)s->cap * sizeof *s->v);
    blvl__dealloc(c->al, s->idx, (size_t)s->cap * 3 * sizeof *s->idx);
    s->v = v, s->idx = idx, s->cap = cap;
    return true;
}

static void release(hmap_bake *c, scratch *s) {
    blvl__dealloc(c->al, s->v, (size_t)s->cap * sizeof *s->v);
    blvl__dealloc(c->al, s->idx, (size_t)s->cap * 3 * sizeof *s->idx);
    s->cap = 0;
}

static float finite_or(float v, float def) {
    return isfinite(v) && v != 0.0f ? v : def;
}

void blvl__import_hmap_bake_project_uv(blvl_Vec3 p, blvl_Vec3 n, const blvl_hmap_uv *uv,
                                       blvl_Vec2 tile, float out[2]) {
    double ax = fabs(n.x), ay = fabs(n.y), az = fabs(n.z), u, v;
    /* Seen from the front, u runs right and v down, so no face shows its texture mirrored. */
    if (ay >= ax && ay >= az) {
        u = (n.y >= 0 ? 1 : -1) * (double)p.x;
        v = p.z;
    } else if (ax >= az) {
        u = (n.x >= 0 ? -1 : 1) * (double)p.z;
        v = -(double)p.y;
    } else {
        u = (n.z >= 0 ? 1 : -1) * (double)p.x;
        v = -(double)p.y;
    }
    double r = finite_or(uv->rotation, 0.0f) * (3.14159265358979323846 / 180.0);
    double ru = u * cos(r) - v * sin(r), rv = u * sin(r) + v * cos(r);
    ru = ru / finite_or(uv->scale.x, 1.0f) + finite_or(uv->offset.x, 0.0f);
    rv = rv / finite_or(uv->scale.y, 1.0f) + finite_or(uv->offset.y, 0.0f);
    tile.x = tile.x > 0 && isfinite(tile.x) ? tile.x : 1.0f;
    tile.y = tile.y > 0 && isfinite(tile.y) ? tile.y : 1.0f;
    out[0] = (float)(ru / tile.x);
    out[1] = (float)(rv / tile.y);
}

static blvl_Vec2 tile_of(const hmap_bake *c, int32_t material) {
    blvl_Vec2 one = {1, 1};
    return material >= 0 && (uint32_t)material < c->map->material_count
               ? c->map->materials[material].tile_size
               : one;
}

/* MATS colour tints the vertices (white without a material). */
static void color_of(const hmap_bake *c, int32_t material, uint8_t out[4]) {
    out[0] = out[1] = out[2] = out[3] = 255;
    if (material < 0 || (uint32_t)material >= c->map->material_count)
        return;
    const float *rgb = &c->map->materials[material].color.x;
    for (int k = 0; k < 3; k++) {
        float v = isfinite(rgb[k]) ? fminf(fmaxf(rgb[k], 0.0f), 1.0f) : 1.0f;
        out[k] = (uint8_t)lrintf(v * 255.0f);
    }
}

static blvl_status add_fan(hmap_bake *c, scratch *s, uint32_t n, int32_t material, uint32_t door,
                           uint32_t source) {
    uint32_t k = 0;
    for (uint32_t i = 2; i < n; i++) {
        s->idx[k++] = 0;
        s->idx[k++] = i - 1;
        s->idx[k++] = i;
    }
    blvl_bake_surface sf;
    blvl_bake_surface_init(&sf);
    sf.vertices = s->v;
    sf.vertex_count = n;
    sf.indices = s->idx;
    sf.index_count = k;
    sf.material = blvl__import_hmap_bake_material(c, material);
    sf.door = door;
    sf.source = source;
    blvl_status st = blvl_bake_add_surface(c->b, &sf, c->err);
    return st;
}

static uint32_t door_of(const hmap_bake *c, uint32_t e) {
    return e != BLVL_BAKE_NONE && c->cls[e] == HB_DOOR ? c->door[e] : BLVL_BAKE_NONE;
}

static blvl_status brush_faces(hmap_bake *c, scratch *s, uint32_t i, const blvl_Plane *planes,
                               const uint32_t *face_source) {
    const blvl_hmap_brush *br = &c->map->brushes[i];
    uint32_t e;
    blvl__import_hmap_bake_owner(c, br->owner, &e);
    blvl_bake_polygons poly;
    blvl_status st = blvl_bake_brush_polygons(&poly, planes, br->face_count, c->opt, c->err);
    if (st != BLVL_OK)
        return st;
    uint32_t at = 0;
    for (uint32_t j = 0; j < poly.count && st == BLVL_OK; j++) {
        uint32_t n = poly.sizes[j];
        const blvl_hmap_face *f = &br->faces[j];
        if (n >= 3) {
            if (!reserve(c, s, n)) {
                st = blvl__nomem(c->err, "the bake's scratch memory");
                break;
            }
            uint8_t rgba[4];
            color_of(c, f->material, rgba);
            blvl_Vec2 tile = tile_of(c, f->material);
            for (uint32_t k = 0; k < n; k++) {
                blvl_bake_vertex *v = &s->v[k];
                memset(v, 0, sizeof *v);
                blvl_Vec3 p = poly.points[at + k];
                v->position[0] = p.x, v->position[1] = p.y, v->position[2] = p.z;
                v->normal[0] = planes[j].normal.x, v->normal[1] = planes[j].normal.y,
                v->normal[2] = planes[j].normal.z;
                blvl_Vec3 pm = {(float)(p.x / c->s), (float)(p.y / c->s), (float)(p.z / c->s)};
                blvl__import_hmap_bake_project_uv(pm, planes[j].normal, &f->uv, tile, v->uv);
                memcpy(v->color, rgba, 4);
            }
            st = add_fan(c, s, n, f->material, door_of(c, e), face_source[j]);
        }
        at += n;
    }
    blvl_bake_polygons_free(&poly);
    return st;
}

blvl_status blvl__import_hmap_bake_geom_brushes(hmap_bake *c, const uint32_t *face_source) {
    const blvl_hmap *m = c->map;
    uint32_t most = 1;
    for (uint32_t i = 0; i < m->brush_count; i++)
        most = m->brushes[i].face_count > most ? m->brushes[i].face_count : most;
    blvl_Plane *planes = blvl__calloc_n(c->al, most, sizeof *planes);
    if (!planes)
        return blvl__nomem(c->err, "the bake's scratch memory");
    scratch s = {0};
    blvl_status st = BLVL_OK;
    uint32_t face = 0;
    for (uint32_t i = 0; i < m->brush_count && st == BLVL_OK; i++) {
        const blvl_hmap_brush *br = &m->brushes[i];
        uint32_t e;
        blvl__import_hmap_bake_owner(c, br->owner, &e);
        hb_class cls = e == BLVL_BAKE_NONE ? HB_WORLD : c->cls[e];
        if (blvl__import_hmap_bake_is_drawn(br->contents, cls) &&
            (st = blvl__import_hmap_bake_brush_planes(c, i, planes)) == BLVL_OK)
            st = brush_faces(c, &s, i, planes, face_source + face);
        face += br->face_count;
    }
    release(c, &s);
    blvl__dealloc(c->al, planes, most * sizeof *planes);
    return st;
}

/* Newell's normal of a polygon: twice its area along its unit normal. */
static blvl_Vec3 newell(const blvl_hmap_mesh *me, const blvl_hmap_poly *p) {
    double x = 0, y = 0, z = 0;
    for (uint32_t k = 0; k < p->index_count; k++) {
        blvl_Vec3 a = me->vertices[p->indices[k]];
        blvl_Vec3 b = me->vertices[p->indices[(k + 1) % p->index_count]];
        x += ((double)a.y - b.y) * ((double)a.z + b.z);
        y += ((double)a.z - b.z) * ((double)a.x + b.x);
        z += ((double)a.x - b.x) * ((double)a.y + b.y);
    }
    blvl_Vec3 r = {(float)x, (float)y, (float)z};
    return r;
}

typedef struct mesh_normals {
    blvl_Vec3 *pn;   /* per polygon: Newell vector */
    uint32_t *first; /* per vertex + 1: start of its polygon list in `polys` */
    uint32_t *polys; /* polygons using each vertex, vertex after vertex */
    size_t np, nv, nc;
} mesh_normals;

static void normals_free(hmap_bake *c, mesh_normals *mn) {
    blvl__dealloc(c->al, mn->pn, mn->np * sizeof *mn->pn);
    blvl__dealloc(c->al, mn->first, mn->nv * sizeof *mn->first);
    blvl__dealloc(c->al, mn->polys, mn->nc * sizeof *mn->polys);
}

static bool normals_build(hmap_bake *c, const blvl_hmap_mesh *me, mesh_normals *mn) {
    size_t corners = 0;
    for (uint32_t p = 0; p < me->poly_count; p++)
        corners += me->polys[p].index_count;
    mn->np = me->poly_count ? me->poly_count : 1;
    mn->nv = (size_t)me->vertex_count + 1;
    mn->nc = corners ? corners : 1;
    mn->pn = blvl__calloc_n(c->al, mn->np, sizeof *mn->pn);
    mn->first = blvl__calloc_n(c->al, mn->nv, sizeof *mn->first);
    mn->polys = blvl__calloc_n(c->al, mn->nc, sizeof *mn->polys);
    if (!mn->pn || !mn->first || !mn->polys)
        return false;
    for (uint32_t p = 0; p < me->poly_count; p++) {
        mn->pn[p] = newell(me, &me->polys[p]);
        for (uint32_t k = 0; k < me->polys[p].index_count; k++)
            mn->first[me->polys[p].indices[k] + 1]++;
    }
    for (uint32_t v = 0; v < me->vertex_count; v++)
        mn->first[v + 1] += mn->first[v];
    /* fill with a cursor per vertex: `first` shifts by one and is restored after */
    for (uint32_t p = 0; p < me->poly_count; p++)
        for (uint32_t k = 0; k < me->polys[p].index_count; k++)
            mn->polys[mn->first[me->polys[p].indices[k]]++] = p;
    for (uint32_t v = me->vertex_count; v > 0; v--)
        mn->first[v] = mn->first[v - 1];
    mn->first[0] = 0;
    return true;
}

/* A corner's normal: the polygon's own when its smooth group is 0, else the area-weighted sum
 * of every polygon at that vertex sharing a smooth-group bit with it. */
static blvl_Vec3 corner_normal(const blvl_hmap_mesh *me, const mesh_normals *mn, uint32_t p,
                               uint32_t v) {
    bool ok;
    uint32_t g = me->polys[p].smooth;
    if (g != 0) {
        double x = 0, y = 0, z = 0;
        for (uint32_t k = mn->first[v]; k < mn->first[v + 1]; k++) {
            uint32_t q = mn->polys[k];
            if (me->polys[q].smooth & g) {
                x += mn->pn[q].x, y += mn->pn[q].y, z += mn->pn[q].z;
            }
        }
        blvl_Vec3 n =
            blvl__import_hmap_bake_normalize((blvl_Vec3){(float)x, (float)y, (float)z}, &ok);
        if (ok)
            return n;
    }
    return blvl__import_hmap_bake_normalize(mn->pn[p], &ok);
}

static blvl_status mesh_polys(hmap_bake *c, scratch *s, uint32_t i, const blvl_Vec3 *pts,
                              const uint32_t *poly_source) {
    const blvl_hmap_mesh *me = &c->map->meshes[i];
    uint32_t e;
    blvl__import_hmap_bake_owner(c, me->owner, &e);
    mesh_normals mn = {0};
    blvl_status st = BLVL_OK;
    if (!normals_build(c, me, &mn)) {
        normals_free(c, &mn);
        return blvl__nomem(c->err, "the bake's scratch memory");
    }
    for (uint32_t p = 0; p < me->poly_count && st == BLVL_OK; p++) {
        const blvl_hmap_poly *po = &me->polys[p];
        bool ok;
        blvl_Vec3 flat = blvl__import_hmap_bake_normalize(mn.pn[p], &ok);
        if (!ok || po->index_count < 3)
            continue; /* no area: nothing to draw */
        if (!reserve(c, s, po->index_count)) {
            st = blvl__nomem(c->err, "the bake's scratch memory");
            break;
        }
        uint8_t rgba[4];
        color_of(c, po->material, rgba);
        blvl_Vec2 tile = tile_of(c, po->material);
        for (uint32_t k = 0; k < po->index_count; k++) {
            uint32_t vi = po->indices[k];
            blvl_bake_vertex *v = &s->v[k];
            memset(v, 0, sizeof *v);
            v->position[0] = pts[vi].x, v->position[1] = pts[vi].y, v->position[2] = pts[vi].z;
            blvl_Vec3 n = corner_normal(me, &mn, p, vi);
            v->normal[0] = n.x, v->normal[1] = n.y, v->normal[2] = n.z;
            if (po->uv_count == po->index_count && isfinite(po->uvs[k].x) &&
                isfinite(po->uvs[k].y)) {
                v->uv[0] = po->uvs[k].x;
                v->uv[1] = po->uvs[k].y;
            } else if (po->uv_count != po->index_count)
                blvl__import_hmap_bake_project_uv(me->vertices[vi], flat, &po->proj, tile, v->uv);
            memcpy(v->color, rgba, 4);
        }
        st = add_fan(c, s, po->index_count, po->material, door_of(c, e), poly_source[p]);
    }
    normals_free(c, &mn);
    return st;
}

blvl_status blvl__import_hmap_bake_geom_meshes(hmap_bake *c, const uint32_t *poly_source) {
    const blvl_hmap *m = c->map;
    scratch s = {0};
    blvl_status st = BLVL_OK;
    uint32_t poly = 0;
    for (uint32_t i = 0; i < m->mesh_count && st == BLVL_OK; i++) {
        const blvl_hmap_mesh *me = &m->meshes[i];
        uint32_t e;
        blvl__import_hmap_bake_owner(c, me->owner, &e);
        hb_class cls = e == BLVL_BAKE_NONE ? HB_WORLD : c->cls[e];
        if (!blvl__import_hmap_bake_is_volume(cls) && cls != HB_TRIGGER_OTHER) {
            size_t np = me->vertex_count ? me->vertex_count : 1;
            blvl_Vec3 *pts = blvl__calloc_n(c->al, np, sizeof *pts);
            if (!pts)
                st = blvl__nomem(c->err, "the bake's scratch memory");
            else if ((st = blvl__import_hmap_bake_mesh_points(c, i, pts)) == BLVL_OK)
                st = mesh_polys(c, &s, i, pts, poly_source + poly);
            blvl__dealloc(c->al, pts, np * sizeof *pts);
        }
        poly += me->poly_count;
    }
    release(c, &s);
    return st;
}
