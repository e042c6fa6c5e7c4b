/* The view ray against the drawn triangles: every batch's triangles, both sides, Moller-Trumbore
 * in double so a ray grazing an edge of a large level still answers consistently. */
#include <math.h>

#include "probe/probe_internal.h"

void blvl_probe_ray_triangles(const blvl_probe *p, const float start[3], const float dir[3],
                              float range, blvl_probe_tri_hit *out) {
    *out = (blvl_probe_tri_hit){0};
    out->triangle = out->batch = out->material = BLVL_TRACE_NONE;
    double best = range, o[3] = {start[0], start[1], start[2]}, d[3] = {dir[0], dir[1], dir[2]};
    for (uint32_t t = 0; t < p->tri_count; t++) {
        if (p->tri_batch[t] == BLVL_TRACE_NONE)
            continue;
        const uint32_t *ix = &p->indices[3 * t];
        const blvl_Vec3 *a = &p->vertices[ix[0]].position, *b = &p->vertices[ix[1]].position,
                        *c = &p->vertices[ix[2]].position;
        double e1[3] = {b->x - a->x, b->y - a->y, b->z - a->z};
        double e2[3] = {c->x - a->x, c->y - a->y, c->z - a->z};
        double pv[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2],
                        d[0] * e2[1] - d[1] * e2[0]};
        double det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
        if (!(fabs(det) > 1e-12))
            continue; /* parallel, degenerate or not finite */
        double inv = 1.0 / det;
        double tv[3] = {o[0] - a->x, o[1] - a->y, o[2] - a->z};
        double u = (tv[0] * pv[0] + tv[1] * pv[1] + tv[2] * pv[2]) * inv;
        if (u < 0 || u > 1)
            continue;
        double q[3] = {tv[1] * e1[2] - tv[2] * e1[1], tv[2] * e1[0] - tv[0] * e1[2],
                       tv[0] * e1[1] - tv[1] * e1[0]};
        double v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
        if (v < 0 || u + v > 1)
            continue;
        double dist = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
        if (!(dist >= 0 && dist < best))
            continue;
        best = dist;
        double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                       e1[0] * e2[1] - e1[1] * e2[0]};
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        out->hit = true;
        out->distance = (float)dist;
        for (int k = 0; k < 3; k++) {
            out->point[k] = (float)(o[k] + d[k] * dist);
            out->normal[k] = (float)(n[k] / len);
        }
        /* the ray runs against the normal: it met the front */
        out->front = (n[0] * d[0] + n[1] * d[1] + n[2] * d[2]) < 0;
        out->triangle = t;
        out->batch = p->tri_batch[t];
        out->material = p->batches[out->batch].material;
    }
}
