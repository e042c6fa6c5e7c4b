/* Colliders as solids: Planes whose intersection is empty, a solid reaching outside its stored
 * bounds, and what the trace's expansion could not use (its reports, blvl_trace_world_reports). */
#include <math.h>

#include "diag/diag_internal.h"
#include "geom/geom.h"

#define MAX_PLANES 128 /* the polytope test is quadratic; larger sets are the trace's to report */
#define MAX_POINTS (MAX_PLANES + 8)

/* Outside the bounds by more than this (qu, plus a relative part for large coordinates). */
static double bounds_tol(double scale) {
    return 0.25 + scale * 1e-5;
}

static double maxabs3(blvl_Vec3 a, blvl_Vec3 b) {
    double m = 1;
    const float v[6] = {a.x, a.y, a.z, b.x, b.y, b.z};
    for (int k = 0; k < 6; k++)
        m = fabs(v[k]) > m ? fabs(v[k]) : m;
    return m;
}

/* The bounds of the solid the planes enclose: false when it is empty. */
static bool planes_extent(blvl_Planes p, uint32_t n, double half, double lo[3], double hi[3]) {
    static const double big = 1e300;
    double pts[MAX_POINTS][3], tmp[MAX_POINTS][3];
    bool any = false;
    for (int k = 0; k < 3; k++) {
        lo[k] = big;
        hi[k] = -big;
    }
    for (uint32_t i = 0; i < n; i++) {
        blvl_Plane a = blvl_Planes_planes_at(p, i);
        double len = sqrt((double)a.normal.x * a.normal.x + (double)a.normal.y * a.normal.y +
                          (double)a.normal.z * a.normal.z);
        if (!(len > 0.5)) /* not a plane: the trace reports it */
            continue;
        const double nn[3] = {a.normal.x / len, a.normal.y / len, a.normal.z / len};
        blvl__geom_base_square(nn, a.dist / len, half, pts);
        int m = 4;
        for (uint32_t j = 0; j < n && m >= 3; j++) {
            if (j == i)
                continue;
            blvl_Plane b = blvl_Planes_planes_at(p, j);
            double lb = sqrt((double)b.normal.x * b.normal.x + (double)b.normal.y * b.normal.y +
                             (double)b.normal.z * b.normal.z);
            if (!(lb > 0.5))
                continue;
            const double pn[3] = {b.normal.x / lb, b.normal.y / lb, b.normal.z / lb};
            double pd = b.dist / lb;
            /* the same plane twice would cut the face to nothing */
            if (pn[0] * nn[0] + pn[1] * nn[1] + pn[2] * nn[2] > 1 - 1e-9 &&
                fabs(pd - a.dist / len) < 1e-4)
                continue;
            m = blvl__geom_clip(pts, m, tmp, MAX_POINTS, pn, pd, 1e-6);
        }
        if (m < 3)
            continue;
        any = true;
        for (int c = 0; c < m; c++)
            for (int k = 0; k < 3; k++) {
                lo[k] = pts[c][k] < lo[k] ? pts[c][k] : lo[k];
                hi[k] = pts[c][k] > hi[k] ? pts[c][k] : hi[k];
            }
    }
    return any;
}

static void check_extent(diag_run *d, uint32_t i, blvl_Vec3 slo, blvl_Vec3 shi, const double lo[3],
                         const double hi[3], double tol) {
    const double s_lo[3] = {slo.x, slo.y, slo.z}, s_hi[3] = {shi.x, shi.y, shi.z};
    static const char axis[3] = {'x', 'y', 'z'};
    for (int k = 0; k < 3; k++)
        if (lo[k] < s_lo[k] - tol || hi[k] > s_hi[k] + tol) {
            blvl__diag_emit(d, DG_COLLIDER_BOUNDS, "sim.colliders", i, DG_SRC_COLLIDER, i,
                            "solid spans %c %g..%g, its bounds %g..%g", axis[k], lo[k], hi[k],
                            s_lo[k], s_hi[k]);
            return;
        }
}

static void solids(diag_run *d) {
    uint32_t n = blvl_Sim_colliders_len(d->sim);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(d->sim, i);
        blvl_Vec3 slo = blvl_Collider_lo(c), shi = blvl_Collider_hi(c);
        if (!blvl__diag_finite3(slo) || !blvl__diag_finite3(shi))
            continue; /* D0017 */
        double scale = maxabs3(slo, shi), tol = bounds_tol(scale);
        double lo[3], hi[3];
        if (blvl_Collider_shape_type(c) == blvl_Shape_Planes) {
            blvl_Planes p = blvl_Collider_shape_as_Planes(c);
            uint32_t np = blvl_Planes_planes_len(p);
            if (np == 0 || np > MAX_PLANES)
                continue; /* the trace reports an empty set; a huge one is not walked */
            double half = 4 * scale > 131072 ? 4 * scale : 131072;
            if (!planes_extent(p, np, half, lo, hi))
                blvl__diag_emit(d, DG_COLLIDER_EMPTY, "sim.colliders", i, DG_SRC_COLLIDER, i,
                                "its %u planes enclose no point", np);
            else
                check_extent(d, i, slo, shi, lo, hi, tol);
        } else if (blvl_Collider_shape_type(c) == blvl_Shape_Hull) {
            blvl_Hull h = blvl_Collider_shape_as_Hull(c);
            uint32_t nv = blvl_Hull_vertices_len(h);
            if (nv == 0)
                continue;
            for (int k = 0; k < 3; k++) {
                lo[k] = INFINITY;
                hi[k] = -INFINITY;
            }
            for (uint32_t v = 0; v < nv; v++) {
                blvl_Vec3 p = blvl_Hull_vertices_at(h, v);
                const double q[3] = {p.x, p.y, p.z};
                for (int k = 0; k < 3; k++) {
                    lo[k] = q[k] < lo[k] ? q[k] : lo[k];
                    hi[k] = q[k] > hi[k] ? q[k] : hi[k];
                }
            }
            if (isfinite(lo[0] + lo[1] + lo[2] + hi[0] + hi[1] + hi[2]))
                check_extent(d, i, slo, shi, lo, hi, tol);
        }
    }
}

static void reports(diag_run *d) {
    const blvl_trace_world *w = blvl__diag_world(d);
    if (!w)
        return;
    uint32_t n = 0;
    const blvl_trace_report *r = blvl_trace_world_reports(w, &n);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        if (r[i].face == BLVL_TRACE_NONE)
            blvl__diag_emit(d, DG_TRACE_DROPPED, "sim.colliders", r[i].collider, DG_SRC_COLLIDER,
                            r[i].collider, "dropped: %s", r[i].reason);
        else
            blvl__diag_emit(d, DG_TRACE_FACE, "sim.colliders", r[i].collider, DG_SRC_COLLIDER,
                            r[i].collider, "face or plane %u: %s", r[i].face, r[i].reason);
    }
}

void blvl__diag_check_colliders(diag_run *d) {
    if (blvl__diag_any(d, DG_COLLIDER_EMPTY, DG_COLLIDER_BOUNDS))
        solids(d);
    if (blvl__diag_any(d, DG_TRACE_FACE, DG_TRACE_DROPPED))
        reports(d);
}
