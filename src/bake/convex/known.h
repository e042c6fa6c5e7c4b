/* Hull colliders whose corners and face loops the caller already knows to be convex (known.c
 * checks them cheaply and refuses what the general hull would build differently; the model,
 * bake/model/fast.h, then falls back to the general hull), and the prisms' templates and checks
 * (known_prism.c). Pure geometry, no model. */
#ifndef BLVL_BAKE_CONVEX_KNOWN_H
#define BLVL_BAKE_CONVEX_KNOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bake/convex/shapes.h"
#include "blvl/bake.h"

#define BAKE_KNOWN_MAX 16u /* corners and faces of one known hull */

/* The shape of points[point_count] with face_count faces: face f is face_sizes[f] corner
 * indices in face_indices, in order, counter-clockwise seen from outside. *known false (and
 * *out zeroed, BLVL_OK) when a check fails; BLVL_E_NOMEM only when allocating fails. */
blvl_status blvl__bake_convex_shape_known(const blvl_allocator *al, const blvl_Vec3 *points,
                                          uint32_t point_count, const uint8_t *face_sizes,
                                          uint32_t face_count, const uint8_t *face_indices,
                                          bake_shape *out, bool *known);

/* The checks alone, and the layout of a checked hull in one block of
 * blvl__bake_convex_known_size bytes (*out points into it; neither packed nor owning). */
bool blvl__bake_convex_known_ok(const blvl_Vec3 *points, uint32_t point_count,
                                const uint8_t *face_sizes, uint32_t face_count,
                                const uint8_t *face_indices);
size_t blvl__bake_convex_known_size(uint32_t point_count, const uint8_t *face_sizes,
                                    uint32_t face_count);
void blvl__bake_convex_known_fill(void *block, const blvl_Vec3 *points, uint32_t point_count,
                                  const uint8_t *face_sizes, uint32_t face_count,
                                  const uint8_t *face_indices, bake_shape *out);

/* Vertical prisms over a convex outline (known_prism.c; docs/BAKE.md, "Prisms"): corners 0..n-1
 * the surface (a triangle counter-clockwise seen from +Y, or a cell's a b c d, a north-west),
 * n..2n-1 the same corners moved straight up (`up`) or down. The surface is one face (split -1)
 * or two triangles along a diagonal of the quad (split 0: c-b, 1: a-d); the far side then
 * follows the other diagonal. */
/* The prism's face loops, counter-clockwise seen from outside (at most BAKE_KNOWN_MAX faces and
 * 4 * BAKE_KNOWN_MAX indices). */
void blvl__bake_convex_prism_faces(uint32_t n, int split, bool up, uint8_t *sizes, uint8_t *idx,
                                   uint32_t *face_count, uint32_t *index_count);
/* The cheap checks of a triangle prism or a split quad prism; true implies that
 * blvl__bake_convex_known_ok accepts the prism with its template faces. */
bool blvl__bake_convex_prism_ok(const blvl_Vec3 *points, uint32_t n, int split, bool up);
/* The template's number (0 .. BAKE_PRISM_TEMPLATES - 1, bake/model/model.h): 0..1 triangle
 * (down, up); 2..7 quad, split -1, 0, 1 (down, up). */
int blvl__bake_convex_prism_variant(uint32_t n, int split, bool up);

#endif
