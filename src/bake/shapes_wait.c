/* TEMPORARY, removed when src/bake/shapes.c (the geom engineer's) lands on i9-base: weak
 * stand-ins so the bake layer links before then. Only the box is real. */
#include <string.h>

#include "bake/shapes.h"
#include "common/alloc.h"
#include "common/error.h"

__attribute__((weak)) blvl_status blvl__bake_shape_box(const blvl_allocator *al, blvl_Vec3 lo,
                                                       blvl_Vec3 hi, bake_shape *out, bool *empty,
                                                       blvl_error *err) {
    memset(out, 0, sizeof *out);
    *empty = !(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z);
    if (*empty)
        return BLVL_OK;
    out->planes = blvl__alloc(al, 6 * sizeof *out->planes);
    if (!out->planes)
        return blvl__fail(err, BLVL_E_NOMEM, "no memory");
    out->kind = blvl_Shape_Planes;
    out->lo = lo, out->hi = hi;
    out->plane_count = 6;
    blvl_Plane p[6] = {{{1, 0, 0}, hi.x},   {{-1, 0, 0}, -lo.x}, {{0, 1, 0}, hi.y},
                       {{0, -1, 0}, -lo.y}, {{0, 0, 1}, hi.z},   {{0, 0, -1}, -lo.z}};
    memcpy(out->planes, p, sizeof p);
    return BLVL_OK;
}
__attribute__((weak)) blvl_status blvl__bake_shape_brush(const blvl_allocator *al,
                                                         const blvl_Plane *planes, uint32_t n,
                                                         bake_shape *out, bool *empty,
                                                         blvl_error *err) {
    (void)al, (void)planes, (void)n, (void)err;
    memset(out, 0, sizeof *out);
    *empty = true;
    return BLVL_OK;
}
__attribute__((weak)) blvl_status blvl__bake_shape_hull(const blvl_allocator *al,
                                                        const blvl_Vec3 *points, uint32_t n,
                                                        bake_shape *out, bool *empty,
                                                        blvl_error *err) {
    (void)al, (void)points, (void)n, (void)err;
    memset(out, 0, sizeof *out);
    *empty = true;
    return BLVL_OK;
}
__attribute__((weak)) blvl_status blvl__bake_shape_triangle(const blvl_allocator *al,
                                                            const blvl_Vec3 tri[3], float t,
                                                            bake_shape *out, bool *empty,
                                                            blvl_error *err) {
    (void)al, (void)tri, (void)t, (void)err;
    memset(out, 0, sizeof *out);
    *empty = true;
    return BLVL_OK;
}
__attribute__((weak)) void blvl__bake_shape_free(const blvl_allocator *al, bake_shape *s) {
    if (s->planes)
        blvl__dealloc(al, s->planes, s->plane_count * sizeof *s->planes);
    memset(s, 0, sizeof *s);
}
