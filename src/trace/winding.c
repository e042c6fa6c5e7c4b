/* Planes to polygons: each plane's face of the convex solid, found by clipping a large square on
 * the plane by every other plane. A door given as Planes needs its faces back so a swung pose
 * can be re-bevelled the way a hull is. */
#include <math.h>
#include <string.h>

#include "trace/trace_internal.h"

#define MAX_POINTS 256 /* a face polygon grows by at most one point per clip */

static void base_square(const double n[3], double d, double half, double out[4][3]) {
    /* Two axes in the plane, built off the normal's smallest component. */
    double up[3] = {0, 0, 0};
    int k = fabs(n[0]) < fabs(n[1]) ? 0 : 1;
    k = fabs(n[2]) < fabs(n[k]) ? 2 : k;
    up[k] = 1;
    double u[3] = {n[1] * up[2] - n[2] * up[1], n[2] * up[0] - n[0] * up[2],
                   n[0] * up[1] - n[1] * up[0]};
    double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; i++)
        u[i] /= l;
    double v[3] = {n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]};
    const double su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 3; i++)
            out[c][i] = n[i] * d + (su[c] * u[i] + sv[c] * v[i]) * half;
}

/* Keep the part of the polygon behind the plane. Returns the new point count. */
static int clip_poly(double (*pts)[3], int n, double (*tmp)[3], const double pn[3], double pd) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double *a = pts[i], *b = pts[(i + 1) % n];
        double da = pn[0] * a[0] + pn[1] * a[1] + pn[2] * a[2] - pd;
        double db = pn[0] * b[0] + pn[1] * b[1] + pn[2] * b[2] - pd;
        if (da <= 0 && m < MAX_POINTS)
            memcpy(tmp[m++], a, sizeof tmp[0]);
        if (((da < 0 && db > 0) || (da > 0 && db < 0)) && m < MAX_POINTS) {
            double t = da / (da - db);
            for (int k = 0; k < 3; k++)
                tmp[m][k] = a[k] + (b[k] - a[k]) * t;
            m++;
        }
    }
    memcpy(pts, tmp, (size_t)m * sizeof pts[0]);
    return m;
}

blvl_status blvl__tw_planes_to_hull(const blvl_allocator *al, const blvl_Plane *planes,
                                    uint32_t count, const float lo[3], const float hi[3],
                                    tw_vec *vertices, tw_vec *sizes, tw_vec *indices) {
    double pts[MAX_POINTS][3], tmp[MAX_POINTS][3];
    double half = 1;
    for (int k = 0; k < 3; k++) {
        half = fabs(lo[k]) > half ? fabs(lo[k]) : half;
        half = fabs(hi[k]) > half ? fabs(hi[k]) : half;
    }
    half *= 4;
    for (uint32_t i = 0; i < count; i++) {
        const double n[3] = {planes[i].normal.x, planes[i].normal.y, planes[i].normal.z};
        base_square(n, planes[i].dist, half, pts);
        int m = 4;
        for (uint32_t j = 0; j < count && m >= 3; j++) {
            if (j == i)
                continue;
            const double pn[3] = {planes[j].normal.x, planes[j].normal.y, planes[j].normal.z};
            /* The same plane twice would cut the face to nothing. */
            if (pn[0] * n[0] + pn[1] * n[1] + pn[2] * n[2] > 1 - 1e-9 &&
                fabs(planes[j].dist - planes[i].dist) < 1e-4)
                continue;
            m = clip_poly(pts, m, tmp, pn, planes[j].dist);
        }
        if (m < 3)
            continue; /* a redundant plane: it has no face */
        uint32_t first = (uint32_t)vertices->len, um = (uint32_t)m;
        if (!blvl__tw_vec_push(al, sizes, &um))
            return BLVL_E_NOMEM;
        for (int c = 0; c < m; c++) {
            blvl_Vec3 v = {(float)pts[c][0], (float)pts[c][1], (float)pts[c][2]};
            uint32_t id = first + (uint32_t)c;
            if (!blvl__tw_vec_push(al, vertices, &v) || !blvl__tw_vec_push(al, indices, &id))
                return BLVL_E_NOMEM;
        }
    }
    return BLVL_OK;
}
