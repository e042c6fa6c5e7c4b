/* blvl_bake_brush_polygons: a brush's face polygons for drawing it (faces.c does the work). */
#include <string.h>

#include "bake/convex/faces.h"
#include "common/alloc.h"
#include "common/error.h"

static const blvl_allocator *alloc_of(const blvl_options *opt) {
    return opt ? &opt->allocator : NULL;
}

blvl_status blvl_bake_brush_polygons(blvl_bake_polygons *out, const blvl_Plane *planes,
                                     uint32_t plane_count, const blvl_options *opt,
                                     blvl_error *err) {
    if (!out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "brush polygons: no output");
    memset(out, 0, sizeof *out);
    const blvl_allocator *al = alloc_of(opt);
    if (al)
        out->allocator = *al;
    bake_faces f;
    blvl_status st = blvl__bake_convex_brush_faces(al, planes, plane_count, &f, err);
    if (st != BLVL_OK)
        return st;
    out->count = plane_count;
    if (plane_count) {
        out->sizes = blvl__calloc_n(al, plane_count, sizeof out->sizes[0]);
        if (!out->sizes)
            goto nomem;
        memcpy(out->sizes, f.sizes, (size_t)plane_count * sizeof out->sizes[0]);
    }
    if (f.point_count) {
        out->points = blvl__calloc_n(al, f.point_count, sizeof out->points[0]);
        if (!out->points)
            goto nomem;
        for (uint32_t i = 0; i < f.point_count; i++)
            out->points[i] =
                (blvl_Vec3){(float)f.pts[i][0], (float)f.pts[i][1], (float)f.pts[i][2]};
        out->point_count = f.point_count;
    }
    blvl__bake_convex_brush_faces_free(al, &f);
    blvl__ok(err);
    return BLVL_OK;
nomem:
    blvl__bake_convex_brush_faces_free(al, &f);
    blvl_bake_polygons_free(out);
    return blvl__nomem(err, "brush polygons");
}

void blvl_bake_polygons_free(blvl_bake_polygons *p) {
    if (!p)
        return;
    const blvl_allocator *al = &p->allocator;
    blvl__dealloc(al, p->sizes, (size_t)p->count * sizeof p->sizes[0]);
    blvl__dealloc(al, p->points, (size_t)p->point_count * sizeof p->points[0]);
    memset(p, 0, sizeof *p);
}
