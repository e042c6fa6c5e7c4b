/* What comes from CMPL (docs/IMPORT-HMAP.md): geometry from its batches whenever it is there;
 * sim from its models' collision brushes when the file has no BRSH, and from its mesh
 * collision when it has no MESH. The BSP is not read: it is an index over the same brushes,
 * and blvl trace builds its own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_internal.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/lighting.h"
#include "blvl/sections/sim.h"
#include "common/alloc.h"
#include "common/error.h"

static blvl_status model_entity(hmap_bake *c, uint32_t i, uint32_t *e) {
    const blvl_hmap_model *mo = &c->map->compiled->models[i];
    /* model 0 is the world whatever entity it names */
    if (i == 0) {
        *e = BLVL_BAKE_NONE;
        return BLVL_OK;
    }
    if (blvl__import_hmap_bake_owner(c, mo->entity_id, e))
        return BLVL_OK;
    char field[48], problem[96];
    snprintf(field, sizeof field, "model[%u].entityId", i);
    snprintf(problem, sizeof problem, "no entity of ENTS has id %u", mo->entity_id);
    return blvl__fail_source(c->err, "CMPL", field,
                             blvl__import_hmap_bake_off_cmpl_model(c->map, i), "owner", "%s",
                             problem);
}

blvl_status blvl__import_hmap_bake_cmpl_prepare(hmap_bake *c) {
    const blvl_hmap_compiled *cm = c->map->compiled;
    for (uint32_t i = 1; i < cm->model_count; i++) {
        uint32_t e;
        blvl_status st = model_entity(c, i, &e);
        if (st != BLVL_OK)
            return st;
        if (e == BLVL_BAKE_NONE) /* entityId 0: the model belongs to the world */
            continue;
        const blvl_hmap_box *bx = &cm->models[i].bounds;
        if (!blvl__import_hmap_bake_finite3(bx->min) || !blvl__import_hmap_bake_finite3(bx->max))
            continue;
        blvl_Vec3 lo = blvl__import_hmap_bake_point(c, bx->min),
                  hi = blvl__import_hmap_bake_point(c, bx->max);
        if (!(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z) ||
            !blvl__import_hmap_bake_finite3(lo) || !blvl__import_hmap_bake_finite3(hi))
            continue;
        blvl_Vec3 *L = &c->ent_lo[e], *H = &c->ent_hi[e];
        L->x = fminf(L->x, lo.x), L->y = fminf(L->y, lo.y), L->z = fminf(L->z, lo.z);
        H->x = fmaxf(H->x, hi.x), H->y = fmaxf(H->y, hi.y), H->z = fmaxf(H->z, hi.z);
    }
    return BLVL_OK;
}

blvl_status blvl__import_hmap_bake_cmpl_models(hmap_bake *c) {
    const blvl_hmap_compiled *cm = c->map->compiled;
    blvl_status st = BLVL_OK;
    uint32_t most = 1;
    for (uint32_t i = 0; i < cm->model_count; i++)
        for (uint32_t j = 0; j < cm->models[i].brush_count; j++)
            if (cm->models[i].brushes[j].plane_count > most)
                most = cm->models[i].brushes[j].plane_count;
    blvl_Plane *planes = blvl__calloc_n(c->al, most, sizeof *planes);
    if (!planes)
        return blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t i = 0; i < cm->model_count && st == BLVL_OK; i++) {
        uint32_t e;
        if ((st = model_entity(c, i, &e)) != BLVL_OK)
            break;
        for (uint32_t j = 0; j < cm->models[i].brush_count && st == BLVL_OK; j++) {
            const blvl_hmap_cbrush *br = &cm->models[i].brushes[j];
            for (uint32_t k = 0; k < br->plane_count; k++)
                if (!blvl__import_hmap_bake_plane(c, br->planes[k], &planes[k])) {
                    char field[64];
                    snprintf(field, sizeof field, "model[%u].brush[%u].plane[%u]", i, j, k);
                    st = blvl__fail_source(c->err, "CMPL", field,
                                           blvl__import_hmap_bake_off_cmpl_plane(c->map, i, j, k),
                                           "plane", "the normal is zero or a number is not finite");
                    break;
                }
            if (st != BLVL_OK)
                break;
            blvl_bake_source src = {blvl_SourceKind_Brush, br->source_id, 0, br->contents, e,
                                    BLVL_BAKE_NONE};
            uint32_t sym;
            if ((st = blvl_bake_add_source(c->b, &src, &sym, c->err)) != BLVL_OK)
                break;
            st = blvl__import_hmap_bake_sim_brush(c, br->contents, e, BLVL_BAKE_NONE, planes,
                                                  br->plane_count, sym);
        }
    }
    blvl__dealloc(c->al, planes, most * sizeof *planes);
    return st;
}

typedef struct weld_item {
    blvl_Vec3 p;
    uint32_t i;
} weld_item;

static int weld_cmp(const void *a, const void *b) {
    const weld_item *x = a, *y = b;
    if (x->p.x != y->p.x)
        return x->p.x < y->p.x ? -1 : 1;
    if (x->p.y != y->p.y)
        return x->p.y < y->p.y ? -1 : 1;
    if (x->p.z != y->p.z)
        return x->p.z < y->p.z ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* One object's triangle soup: vertices equal to the bit are welded, so a closed convex soup
 * (a crate) is proved convex and becomes one hull like its MESH source would. */
static blvl_status mesh_coll(hmap_bake *c, uint32_t o, uint32_t sym) {
    const blvl_hmap_mesh_coll *mc = &c->map->compiled->mesh_colls[o];
    uint32_t n = mc->vertex_count;
    if (n < 3)
        return BLVL_OK;
    size_t nn = n;
    weld_item *items = blvl__calloc_n(c->al, nn, sizeof *items);
    blvl_Vec3 *pts = blvl__calloc_n(c->al, nn, sizeof *pts);
    uint32_t *remap = blvl__calloc_n(c->al, nn, sizeof *remap);
    uint32_t *sizes = blvl__calloc_n(c->al, nn / 3, sizeof *sizes);
    blvl_status st = BLVL_OK;
    if (!items || !pts || !remap || !sizes) {
        st = blvl__nomem(c->err, "the bake's scratch memory");
        goto done;
    }
    for (uint32_t k = 0; k < n; k++) {
        blvl_Vec3 q = blvl__import_hmap_bake_point(c, mc->vertices[k]);
        if (!blvl__import_hmap_bake_finite3(mc->vertices[k]) ||
            !blvl__import_hmap_bake_finite3(q)) {
            char field[64];
            snprintf(field, sizeof field, "meshColl[%u].vertex[%u]", o, k);
            st = blvl__fail_source(c->err, "CMPL", field,
                                   blvl__import_hmap_bake_off_cmpl_coll_vertex(c->map, o, k),
                                   "vertex", "a coordinate is not finite");
            goto done;
        }
        items[k].p = q;
        items[k].i = k;
    }
    qsort(items, nn, sizeof *items, weld_cmp);
    uint32_t unique = 0;
    for (uint32_t k = 0; k < n; k++) {
        blvl_Vec3 a = items[k].p, b = k ? items[k - 1].p : a;
        if (k == 0 || a.x != b.x || a.y != b.y || a.z != b.z)
            pts[unique++] = items[k].p;
        remap[items[k].i] = unique - 1;
    }
    for (uint32_t t = 0; t < n / 3; t++)
        sizes[t] = 3;
    blvl_bake_collider col;
    blvl_bake_collider_init(&col);
    col.source_kind = blvl_ColliderSourceKind_Mesh;
    col.symbol = sym;
    st = blvl__import_hmap_bake_sim_polys(c, &col, pts, unique, sizes, n / 3, remap, n / 3 * 3);
done:
    blvl__dealloc(c->al, items, nn * sizeof *items);
    blvl__dealloc(c->al, pts, nn * sizeof *pts);
    blvl__dealloc(c->al, remap, nn * sizeof *remap);
    blvl__dealloc(c->al, sizes, (nn / 3 ? nn / 3 : 1) * sizeof *sizes);
    return st;
}

blvl_status blvl__import_hmap_bake_cmpl_mesh_colls(hmap_bake *c) {
    const blvl_hmap_compiled *cm = c->map->compiled;
    for (uint32_t o = 0; o < cm->mesh_coll_count; o++) {
        blvl_bake_source src = {
            blvl_SourceKind_Prop, cm->mesh_colls[o].object_id, 0, 0, BLVL_BAKE_NONE,
            BLVL_BAKE_NONE};
        uint32_t sym;
        blvl_status st = blvl_bake_add_source(c->b, &src, &sym, c->err);
        if (st != BLVL_OK)
            return st;
        if ((st = mesh_coll(c, o, sym)) != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

static blvl_status batch(hmap_bake *c, uint32_t i, blvl_bake_vertex *v) {
    const blvl_hmap_compiled *cm = c->map->compiled;
    const blvl_hmap_batch *ba = &cm->batches[i];
    uint32_t e = BLVL_BAKE_NONE;
    blvl_status st;
    if (ba->model >= 0 && (uint32_t)ba->model < cm->model_count) {
        if ((st = model_entity(c, (uint32_t)ba->model, &e)) != BLVL_OK)
            return st;
    } else if (ba->model >= 0) {
        char field[48], problem[96];
        snprintf(field, sizeof field, "batch[%u].model", i);
        snprintf(problem, sizeof problem, "%d is past the %u models", ba->model, cm->model_count);
        return blvl__fail_source(c->err, "CMPL", field,
                                 blvl__import_hmap_bake_off_cmpl_batch(c->map, i) + 5,
                                 "model-range", "%s", problem);
    }
    for (uint32_t k = 0; k < ba->vertex_count; k++) {
        const blvl_hmap_cvertex *cv = &ba->vertices[k];
        blvl_Vec3 p = blvl__import_hmap_bake_point(c, cv->pos);
        if (!blvl__import_hmap_bake_finite3(cv->pos) || !blvl__import_hmap_bake_finite3(p) ||
            !blvl__import_hmap_bake_finite3(cv->normal) || !isfinite(cv->uv.x) ||
            !isfinite(cv->uv.y)) {
            char field[64];
            snprintf(field, sizeof field, "batch[%u].vertex[%u]", i, k);
            return blvl__fail_source(c->err, "CMPL", field,
                                     blvl__import_hmap_bake_off_cmpl_batch(c->map, i) + 13 +
                                         36 * (uint64_t)k,
                                     "vertex", "a number is not finite");
        }
        bool ok;
        blvl_Vec3 n = blvl__import_hmap_bake_normalize(cv->normal, &ok);
        memset(&v[k], 0, sizeof v[k]);
        v[k].position[0] = p.x, v[k].position[1] = p.y, v[k].position[2] = p.z;
        v[k].normal[0] = ok ? n.x : 0, v[k].normal[1] = ok ? n.y : 1, v[k].normal[2] = ok ? n.z : 0;
        v[k].uv[0] = cv->uv.x, v[k].uv[1] = cv->uv.y;
        uint32_t rgba = cm->baked ? cv->color : 0xFFFFFFFFu;
        for (int b = 0; b < 4; b++)
            v[k].color[b] = (uint8_t)(rgba >> (8 * b));
    }
    blvl_bake_source src = {ba->source == 1 ? blvl_SourceKind_Prop : blvl_SourceKind_Face,
                            i,
                            0,
                            0,
                            e,
                            blvl__import_hmap_bake_material(c, ba->material)};
    uint32_t sym;
    if ((st = blvl_bake_add_source(c->b, &src, &sym, c->err)) != BLVL_OK)
        return st;
    blvl_bake_surface sf;
    blvl_bake_surface_init(&sf);
    sf.vertices = v;
    sf.vertex_count = ba->vertex_count;
    sf.indices = ba->indices;
    sf.index_count = ba->index_count;
    sf.material = blvl__import_hmap_bake_material(c, ba->material);
    sf.door = e != BLVL_BAKE_NONE && c->cls[e] == HB_DOOR ? c->door[e] : BLVL_BAKE_NONE;
    sf.source = sym;
    st = blvl_bake_add_surface(c->b, &sf, c->err);
    return st;
}

blvl_status blvl__import_hmap_bake_cmpl_batches(hmap_bake *c) {
    const blvl_hmap_compiled *cm = c->map->compiled;
    size_t most = 1;
    for (uint32_t i = 0; i < cm->batch_count; i++)
        most = cm->batches[i].vertex_count > most ? cm->batches[i].vertex_count : most;
    blvl_bake_vertex *v = blvl__calloc_n(c->al, most, sizeof *v);
    if (!v)
        return blvl__nomem(c->err, "the bake's scratch memory");
    blvl_status st = BLVL_OK;
    for (uint32_t i = 0; i < cm->batch_count && st == BLVL_OK; i++)
        if (cm->batches[i].index_count > 0) /* an empty batch draws nothing */
            st = batch(c, i, v);
    blvl__dealloc(c->al, v, most * sizeof *v);
    return st;
}
