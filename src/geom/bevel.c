/* The planes a swept box needs besides a solid's faces: the six axial planes and Quake's edge
 * bevels. Without them a box sliding along a slanted edge or corner would sink into it, because
 * the box's own corners reach past the face planes. */
#include <math.h>
#include <stdlib.h>

#include "geom/geom.h"

static int edge_cmp(const void *p, const void *q) {
    const geom_edge *x = p, *y = q;
    if (x->a != y->a)
        return (x->a > y->a) - (x->a < y->a);
    return (x->b > y->b) - (x->b < y->b);
}

static double dot3(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Plane (n, d) and p differ by at most GEOM_NEAR_PLANE at every vertex of the solid. */
static int near_everywhere(const geom_planes *x, const double n[3], double d, const blvl_Plane *p) {
    double q[3] = {p->normal.x, p->normal.y, p->normal.z};
    for (uint32_t i = 0; i < x->nv; i++) {
        const double *v = x->pts + 3 * (size_t)i;
        if (fabs((dot3(n, v) - d) - (dot3(q, v) - p->dist)) > GEOM_NEAR_PLANE)
            return 0;
    }
    return 1;
}

double blvl__geom_tolerance(double scale) {
    return 1e-3 + scale * 2e-6;
}

int blvl__geom_add_plane(geom_planes *x, const double n[3], double d) {
    for (size_t i = x->first; i < x->planes->len; i++) {
        const blvl_Plane *p = &GEOM_AT(*x->planes, blvl_Plane, i);
        double c = n[0] * p->normal.x + n[1] * p->normal.y + n[2] * p->normal.z;
        if (x->unit)
            c /= sqrt((double)p->normal.x * p->normal.x + (double)p->normal.y * p->normal.y +
                      (double)p->normal.z * p->normal.z);
        if (c > 1.0 - 1e-9 && fabs(d - p->dist) <= x->tol * 0.1)
            return 1;
        if (x->pts && c > 0.999 && near_everywhere(x, n, d, p))
            return 1;
    }
    blvl_Plane p = {{(float)n[0], (float)n[1], (float)n[2]}, (float)d};
    return blvl__geom_vec_push(x->al, x->planes, &p);
}

int blvl__geom_add_axial(geom_planes *x, const double lo[3], const double hi[3]) {
    for (int k = 0; k < 3; k++) {
        double n[3] = {0, 0, 0};
        n[k] = 1;
        if (!blvl__geom_add_plane(x, n, hi[k]))
            return 0;
        n[k] = -1;
        if (!blvl__geom_add_plane(x, n, -lo[k]))
            return 0;
    }
    return 1;
}

int blvl__geom_add_bevels(geom_planes *x, const double *pts, uint32_t nv, geom_vec *edges,
                          double extent) {
    if (edges->len)
        qsort(edges->data, edges->len, sizeof(geom_edge), edge_cmp);
    for (size_t i = 0; i < edges->len; i++) {
        const geom_edge *e = &GEOM_AT(*edges, geom_edge, i);
        if (i && edge_cmp(e, e - 1) == 0)
            continue;
        const double *p = pts + 3 * (size_t)e->a, *q = pts + 3 * (size_t)e->b;
        double dir[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
        double l = sqrt(dot3(dir, dir));
        if (l <= 1e-9 * (extent + 1))
            continue;
        for (int k = 0; k < 3; k++)
            dir[k] /= l;
        for (int k = 0; k < 3; k++) {
            double axis[3] = {0, 0, 0};
            axis[k] = 1;
            double n[3] = {dir[1] * axis[2] - dir[2] * axis[1], dir[2] * axis[0] - dir[0] * axis[2],
                           dir[0] * axis[1] - dir[1] * axis[0]};
            double ln = sqrt(dot3(n, n));
            if (ln < 1e-6)
                continue; /* edge along the axis: the axial and face planes cover it */
            for (int j = 0; j < 3; j++)
                n[j] /= ln;
            for (int s = 0; s < 2; s++) {
                if (s)
                    n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
                double d = dot3(n, p), m = -INFINITY;
                for (uint32_t vi = 0; vi < nv; vi++) {
                    double t = dot3(n, pts + 3 * (size_t)vi);
                    m = t > m ? t : m;
                }
                if (m > d + x->tol)
                    continue; /* some vertex in front: this plane would cut the solid */
                if (!blvl__geom_add_plane(x, n, m > d ? m : d))
                    return 0;
            }
        }
    }
    return 1;
}
