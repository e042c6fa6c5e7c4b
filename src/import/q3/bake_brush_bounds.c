/* The bounds of a brush from its planes: the corners of its faces (blvl_bake_brush_polygons),
 * their minimum and maximum. Colliders, entity bounds and fog volumes all measure brushes so. */
#include <math.h>

#include "bake_internal.h"

blvl_status blvl__import_q3_brush_bounds(const q3_ctx *c, const blvl_Plane *planes, uint32_t count,
                                         blvl_Vec3 *lo, blvl_Vec3 *hi, bool *any) {
    blvl_bake_polygons poly;
    *any = false;
    blvl_status st = blvl_bake_brush_polygons(&poly, planes, count, c->opt, c->err);
    if (st != BLVL_OK)
        return st;
    *any = poly.point_count > 0;
    if (*any) {
        *lo = *hi = poly.points[0];
        for (uint32_t i = 1; i < poly.point_count; i++) {
            blvl_Vec3 p = poly.points[i];
            lo->x = fminf(lo->x, p.x), lo->y = fminf(lo->y, p.y), lo->z = fminf(lo->z, p.z);
            hi->x = fmaxf(hi->x, p.x), hi->y = fmaxf(hi->y, p.y), hi->z = fmaxf(hi->z, p.z);
        }
    }
    blvl_bake_polygons_free(&poly);
    return BLVL_OK;
}
