/* Planes to polygons: each plane's face of the convex solid, found by clipping a large square on
 * the plane by every other plane. A door given as Planes needs its faces back so a swung pose
 * can be re-bevelled the way a hull is. */
#include <math.h>

#include "trace/trace_internal.h"

#define MAX_POINTS 256 /* a face polygon grows by at most one point per clip */

blvl_status blvl__trace_planes_to_hull(const blvl_allocator *al, const blvl_Plane *planes,
                                       uint32_t count, const float lo[3], const float hi[3],
                                       geom_vec *vertices, geom_vec *sizes, geom_vec *indices) {
    double pts[MAX_POINTS][3], tmp[MAX_POINTS][3];
    double half = 1;
    for (int k = 0; k < 3; k++) {
        half = fabs(lo[k]) > half ? fabs(lo[k]) : half;
        half = fabs(hi[k]) > half ? fabs(hi[k]) : half;
    }
    half *= 4;
    for (uint32_t i = 0; i < count; i++) {
        const double n[3] = {planes[i].normal.x, planes[i].normal.y, planes[i].normal.z};
        blvl__geom_base_square(n, planes[i].dist, half, pts);
        int m = 4;
        for (uint32_t j = 0; j < count && m >= 3; j++) {
            if (j == i)
                continue;
            const double pn[3] = {planes[j].normal.x, planes[j].normal.y, planes[j].normal.z};
            /* The same plane twice would cut the face to nothing. */
            if (pn[0] * n[0] + pn[1] * n[1] + pn[2] * n[2] > 1 - 1e-9 &&
                fabs(planes[j].dist - planes[i].dist) < 1e-4)
                continue;
            m = blvl__geom_clip(pts, m, tmp, MAX_POINTS, pn, planes[j].dist, 0);
        }
        if (m < 3)
            continue; /* a redundant plane: it has no face */
        uint32_t first = (uint32_t)vertices->len, um = (uint32_t)m;
        if (!blvl__geom_vec_push(al, sizes, &um))
            return BLVL_E_NOMEM;
        for (int c = 0; c < m; c++) {
            blvl_Vec3 v = {(float)pts[c][0], (float)pts[c][1], (float)pts[c][2]};
            uint32_t id = first + (uint32_t)c;
            if (!blvl__geom_vec_push(al, vertices, &v) || !blvl__geom_vec_push(al, indices, &id))
                return BLVL_E_NOMEM;
        }
    }
    return BLVL_OK;
}
