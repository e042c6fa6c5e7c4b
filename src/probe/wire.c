/* Collider outlines: each plane of a collider clipped by the others into its face polygon
 * (the geom winding helpers), each edge clipped to the near plane and the picture, drawn where
 * no surface is nearer. Colours by kind: solid yellow, clip magenta, water cyan. */
#include <math.h>

#include "geom/geom.h"
#include "probe/probe_internal.h"

#define WIRE_CAP 256  /* points a face polygon may keep */
#define WIRE_HALF 1e6 /* half-side of the starting square, qu */

static void put(const probe_vis *vis, uint8_t *rgba, int x, int y, float w, const uint8_t c[3]) {
    if (x < 0 || y < 0 || (uint32_t)x >= vis->width || (uint32_t)y >= vis->height)
        return;
    size_t at = (size_t)y * vis->width + (size_t)x;
    /* drawn unless a surface is clearly nearer (2% of the depth, for the coplanar face) */
    if (w < vis->inv_z[at] * 0.98f)
        return;
    for (int k = 0; k < 3; k++)
        rgba[at * 4 + k] = c[k];
}

static void edge(const probe_view *v, const probe_vis *vis, uint8_t *rgba, const double a[3],
                 const double b[3], const uint8_t c[3]) {
    float q[2][3];
    const double *s[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        float d[3] = {(float)(s[i][0] - v->eye[0]), (float)(s[i][1] - v->eye[1]),
                      (float)(s[i][2] - v->eye[2])};
        q[i][0] = probe_dot(d, v->right);
        q[i][1] = probe_dot(d, v->up);
        q[i][2] = probe_dot(d, v->fwd);
    }
    if (q[0][2] < BLVL_PROBE_NEAR && q[1][2] < BLVL_PROBE_NEAR)
        return;
    for (int i = 0; i < 2; i++)
        if (q[i][2] < BLVL_PROBE_NEAR) {
            float *o = q[1 - i], t = (BLVL_PROBE_NEAR - q[i][2]) / (o[2] - q[i][2]);
            for (int k = 0; k < 3; k++)
                q[i][k] += (o[k] - q[i][k]) * t;
        }
    float X[2], Y[2], W[2];
    for (int i = 0; i < 2; i++) {
        W[i] = 1.0f / q[i][2];
        X[i] = v->cx + v->sx * q[i][0] * W[i];
        Y[i] = v->cy - v->sy * q[i][1] * W[i];
    }
    if (!isfinite(X[0] + X[1] + Y[0] + Y[1] + W[0] + W[1]))
        return;
    /* Liang-Barsky against the picture, so the steps stay bounded by its size */
    float t0 = 0, t1 = 1, dx = X[1] - X[0], dy = Y[1] - Y[0];
    float pp[4] = {-dx, dx, -dy, dy};
    float qq[4] = {X[0], (float)vis->width - 1 - X[0], Y[0], (float)vis->height - 1 - Y[0]};
    for (int i = 0; i < 4; i++) {
        if (pp[i] == 0) {
            if (qq[i] < 0)
                return;
            continue;
        }
        float r = qq[i] / pp[i];
        if (pp[i] < 0 && r > t0)
            t0 = r;
        if (pp[i] > 0 && r < t1)
            t1 = r;
    }
    if (!(t0 <= t1))
        return;
    float len = fmaxf(fabsf(dx), fabsf(dy)) * (t1 - t0);
    int steps = (int)len + 1;
    for (int i = 0; i <= steps; i++) {
        float t = t0 + (t1 - t0) * (float)i / (float)steps;
        put(vis, rgba, (int)(X[0] + dx * t), (int)(Y[0] + dy * t), W[0] + (W[1] - W[0]) * t, c);
    }
}

blvl_status blvl__probe_wire(const blvl_probe *p, const probe_view *v, const probe_vis *vis,
                             uint8_t *rgba, blvl_error *err) {
    (void)err;
    double pts[WIRE_CAP][3], tmp[WIRE_CAP][3];
    uint32_t n = blvl_trace_world_collider_count(p->world);
    for (uint32_t ci = 0; ci < n; ci++) {
        uint32_t np = 0, flags = ci < p->collider_count ? p->collider_flags[ci] : 0;
        const blvl_Plane *pl = blvl_trace_world_planes(p->world, ci, &np);
        const uint8_t solid[3] = {255, 220, 0}, clip[3] = {255, 0, 255}, water[3] = {0, 220, 255};
        const uint8_t *c = flags & BLVL_COLLIDER_WATER  ? water
                           : flags & BLVL_COLLIDER_CLIP ? clip
                                                        : solid;
        for (uint32_t i = 0; i < np; i++) {
            double nrm[3] = {pl[i].normal.x, pl[i].normal.y, pl[i].normal.z};
            double d = pl[i].dist;
            if (!isfinite(nrm[0] + nrm[1] + nrm[2] + d))
                continue;
            double sq[4][3];
            blvl__geom_base_square(nrm, d, WIRE_HALF, sq);
            int k = 4;
            for (int j = 0; j < 4; j++)
                for (int m = 0; m < 3; m++)
                    pts[j][m] = sq[j][m];
            for (uint32_t j = 0; j < np && k >= 3; j++) {
                if (j == i)
                    continue;
                double on[3] = {pl[j].normal.x, pl[j].normal.y, pl[j].normal.z};
                k = blvl__geom_clip(pts, k, tmp, WIRE_CAP, on, pl[j].dist, 1e-3);
            }
            for (int j = 0; k >= 3 && j < k; j++)
                edge(v, vis, rgba, pts[j], pts[(j + 1) % k], c);
        }
    }
    return BLVL_OK;
}
