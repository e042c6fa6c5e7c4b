/* Collider shapes from source solids (shapes.c, hull.c, boxes.c): pure geometry, no model.
 * The model (bake/model/) stores what these return; bake/write/sim.c turns them into sim.Collider.
 */
#ifndef BLVL_BAKE_SHAPES_H
#define BLVL_BAKE_SHAPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/bake.h"
#include "blvl/sections/sim.h"

/* One collider's shape: Planes (kind blvl_Shape_Planes) or Hull (blvl_Shape_Hull). Pointers,
 * then the rest, so a level's hundreds of thousands carry no padding (80 bytes on 64 bits). */
typedef struct bake_shape {
    /* Planes: outward planes, the brush's own faces first, then the axial planes it lacks,
     * then the edge bevels; each unit length. */
    blvl_Plane *planes;
    /* Hull */
    blvl_Vec3 *vertices;
    uint32_t *face_sizes;
    uint32_t *face_indices;
    blvl_Vec3 lo, hi; /* bounds, qu */
    uint32_t plane_count;
    uint32_t vertex_count;
    uint32_t face_count;
    uint32_t face_index_count;
    uint8_t kind;
    /* Hull: vertices, face_sizes and face_indices are one allocation at vertices (known.c:
     * one allocation per collider, not three); blvl__bake_convex_shape_free frees it whole. */
    bool packed;
    /* Hull: the same one block, in the bake's arena (model.h); a box: its planes there. The bake
     * frees it, never this. */
    bool arena;
} bake_shape;

/* Each sets *empty (and leaves *out zeroed) when the solid encloses no volume or is
 * unbounded; BLVL_E_NOMEM and BLVL_E_ARGUMENT (non-finite input) are the only failures.
 * (BLVL_E_ARGUMENT also for a brush over 1024 planes or a hull over 4096 points; the rules
 * are docs/BAKE.md, "Colliders".) */
blvl_status blvl__bake_convex_shape_brush(const blvl_allocator *al, const blvl_Plane *planes,
                                          uint32_t plane_count, bake_shape *out, bool *empty,
                                          blvl_error *err);
blvl_status blvl__bake_convex_shape_hull(const blvl_allocator *al, const blvl_Vec3 *points,
                                         uint32_t point_count, bake_shape *out, bool *empty,
                                         blvl_error *err);
blvl_status blvl__bake_convex_shape_triangle(const blvl_allocator *al, const blvl_Vec3 tri[3],
                                             float thickness, bake_shape *out, bool *empty,
                                             blvl_error *err);
blvl_status blvl__bake_convex_shape_box(const blvl_allocator *al, blvl_Vec3 lo, blvl_Vec3 hi,
                                        bake_shape *out, bool *empty, blvl_error *err);
/* The same box with its six planes at `planes` (the caller's memory, e.g. the bake's arena; the
 * shape is then marked arena by the caller). */
blvl_status blvl__bake_convex_shape_box_at(blvl_Vec3 lo, blvl_Vec3 hi, blvl_Plane *planes,
                                           bake_shape *out, bool *empty, blvl_error *err);
void blvl__bake_convex_shape_free(const blvl_allocator *al, bake_shape *s);
/* The bytes of a packed Hull's one allocation. */
size_t blvl__bake_convex_shape_packed_size(uint32_t vertex_count, uint32_t face_count,
                                           uint32_t face_index_count);

#endif
