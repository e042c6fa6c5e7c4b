/* Fog volumes: one per BSP fog, the bounds of its brush in blvl axes, the colour and the
 * distance to opaque from its shader's fogparms (docs/IMPORT-Q3.md, "Lighting, fog and
 * lightmaps"). A fog whose brush bounds no volume, or whose shader carries no fogparms (not
 * found, not a fog shader, or no shader scripts given), is dropped and counted: its surfaces
 * are drawn unfogged. */
#include <math.h>
#include <string.h>

#include "bake_lighting.h"
#include "common/alloc.h"
#include "common/error.h"

static bool same_name(const char *a, const char *b) {
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y - 'A' + 'a');
        if (x == '\\')
            x = '/';
        if (y == '\\')
            y = '/';
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

/* The shaders-lump entry of a fog: its brush's shader when the names agree (the compiler
 * writes both), else the first entry of that name, else -1. */
static int64_t fog_shader(const q3_ctx *c, const blvl_q3_fog *f) {
    const blvl_q3_bsp *bsp = c->bsp;
    int32_t s = bsp->brushes[f->brush].shader;
    if (s >= 0 && (uint32_t)s < bsp->shader_count && same_name(bsp->shaders[s].name, f->shader))
        return s;
    for (uint32_t i = 0; i < bsp->shader_count; i++)
        if (same_name(bsp->shaders[i].name, f->shader))
            return i;
    return -1;
}

/* The brush's bounds from its faces; false when it bounds no volume. */
static blvl_status brush_bounds(q3_ctx *c, const blvl_q3_brush *br, blvl_Vec3 *lo, blvl_Vec3 *hi,
                                bool *ok) {
    const blvl_q3_bsp *bsp = c->bsp;
    const blvl_allocator *a = &c->opt->allocator;
    uint32_t n = (uint32_t)br->num_sides;
    *ok = false;
    if (!n)
        return BLVL_OK;
    blvl_Plane *pl = blvl__calloc_n(a, n, sizeof *pl);
    if (!pl)
        return blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t i = 0; i < n; i++) {
        const blvl_q3_plane *p = &bsp->planes[bsp->brush_sides[br->first_side + i].plane];
        pl[i].normal = q3_axes(p->normal);
        pl[i].dist = p->dist;
    }
    bool any;
    blvl_status st = blvl__import_q3_brush_bounds(c, pl, n, lo, hi, &any);
    blvl__dealloc(a, pl, (size_t)n * sizeof *pl);
    if (st)
        return st;
    *ok = any && lo->x < hi->x && lo->y < hi->y && lo->z < hi->z;
    return BLVL_OK;
}

blvl_status blvl__import_q3_light_fogs(q3_ctx *c) {
    const blvl_q3_bsp *bsp = c->bsp;
    for (uint32_t i = 0; i < bsp->fog_count; i++) {
        const blvl_q3_fog *f = &bsp->fogs[i];
        int64_t s = fog_shader(c, f);
        const q3_shader_info *si = s >= 0 ? &c->shader[s] : NULL;
        bool parms = si && si->fog && isfinite(si->fog_depth) && si->fog_depth > 0 &&
                     isfinite(si->fog_color[0]) && isfinite(si->fog_color[1]) &&
                     isfinite(si->fog_color[2]);
        blvl_Vec3 lo = {0, 0, 0}, hi = {0, 0, 0};
        bool ok = false;
        blvl_status st = brush_bounds(c, &bsp->brushes[f->brush], &lo, &hi, &ok);
        if (st)
            return st;
        if (!parms || !ok) {
            c->report->fogs_dropped++;
            continue;
        }
        blvl_Vec3 col = {si->fog_color[0], si->fog_color[1], si->fog_color[2]};
        st = blvl_bake_add_fog_volume(c->b, lo, hi, col, si->fog_depth, &c->fog_volume[i], c->err);
        if (st)
            return st;
    }
    return BLVL_OK;
}
