/* Convex-solid geometry shared by the trace (a level's hulls and doors, expanded when read) and
 * the bake (brushes, hulls, triangles, boxes, expanded when written): growable arrays, a plane's
 * face polygon clipped by the other planes, and the planes a swept box needs (face planes, the
 * axial planes, the edge bevels). Computed in double; planes leave as blvl_Plane (float). */
#ifndef BLVL_GEOM_H
#define BLVL_GEOM_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/sections/common.h"
#include "common/alloc.h"
#include "common/array.h"

/* ---- a growable array of fixed-size elements: the common one (common/array.h) ---- */
typedef blvl__array geom_vec;

static inline void blvl__geom_vec_init(geom_vec *v, size_t elem) {
    blvl__array_init(v, elem);
}
static inline int blvl__geom_vec_reserve(const blvl_allocator *al, geom_vec *v, size_t want) {
    return blvl__array_reserve(al, v, want); /* 0 = no memory */
}
static inline int blvl__geom_vec_push(const blvl_allocator *al, geom_vec *v, const void *item) {
    return blvl__array_push(al, v, item);
}
static inline void blvl__geom_vec_free(const blvl_allocator *al, geom_vec *v) {
    blvl__array_free(al, v);
}
#define GEOM_AT(v, T, i) (((T *)(v).data)[i])

/* ---- face polygons (winding.c) ---- */

/* The square of half-side `half` on the plane dot(n, p) = d (n unit), centred on the point of
 * the plane nearest the origin, wound counter-clockwise seen from the side n points to. */
void blvl__geom_base_square(const double n[3], double d, double half, double out[4][3]);

/* Keep the part of the convex polygon pts[0..n) behind the plane dot(pn, p) = pd; a point within
 * `eps` of the plane counts as on it (kept, never split at). `tmp` is scratch of `cap` points,
 * and the result never grows past `cap` points. Returns the new point count. */
int blvl__geom_clip(double (*pts)[3], int n, double (*tmp)[3], int cap, const double pn[3],
                    double pd, double eps);

/* ---- the planes a swept box needs (bevel.c) ---- */

/* An edge between two vertices, low index first. */
typedef struct geom_edge {
    uint32_t a, b;
} geom_edge;

/* A list of planes being built for one solid: `planes` (blvl_Plane) from index `first` on.
 * Two planes are the same when their normals agree within 1e-9 (cosine) and their distances
 * within tol / 10. With `unit` set, a stored (float) normal is renormalised before the cosine;
 * without it the float normal is taken as it is, so a plane whose float normal rounds short of
 * unit length (like (1, 1, 0) / sqrt 2) is not found again. The bake sets `unit`; the trace
 * keeps the comparison it has always made, so a level traces exactly as before. */
typedef struct geom_planes {
    const blvl_allocator *al;
    geom_vec *planes;
    size_t first;
    double tol; /* distance tolerance, qu: blvl__geom_tolerance */
    int unit;
    /* The bake only (NULL for the trace): the solid's nv vertices (x, y, z). A plane whose
     * normal is within 0.999 of a listed one and that lies within GEOM_NEAR_PLANE of it at every
     * vertex is that plane again: two compiled sides a hair apart, or an axial or bevel plane
     * a hair off a side, would otherwise both be kept. */
    const double *pts;
    uint32_t nv;
} geom_planes;

#define GEOM_NEAR_PLANE 0.03125 /* qu: the trace's DIST_EPSILON, closer than a trace can tell */

/* The tolerance for a solid whose coordinates reach `scale` qu: 1e-3 + scale * 2e-6. */
double blvl__geom_tolerance(double scale);
/* Append the plane unless the list has it. Returns 0 only when out of memory. */
int blvl__geom_add_plane(geom_planes *p, const double n[3], double d);
/* The six axial planes on the bounds, +x -x +y -y +z -z, each unless the list has it. */
int blvl__geom_add_axial(geom_planes *p, const double lo[3], const double hi[3]);
/* Quake's edge bevels: each edge (sorted here, duplicates skipped) not along an axis, crossed
 * with each axis, both ways; a plane is kept when no vertex is more than tol in front of it
 * (then moved out to the farthest vertex). `pts` holds nv points (x, y, z); `extent` is the
 * widest side of the solid's bounds. Returns 0 only when out of memory. */
int blvl__geom_add_bevels(geom_planes *p, const double *pts, uint32_t nv, geom_vec *edges,
                          double extent);

#endif
