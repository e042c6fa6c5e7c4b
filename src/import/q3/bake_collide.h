/* The colliders step's pieces (bake_collide.c, bake_collide_patch.c). */
#ifndef BLVL_IMPORT_Q3_BAKE_COLLIDE_H
#define BLVL_IMPORT_Q3_BAKE_COLLIDE_H

#include "bake_internal.h"

#define Q3_PATCH_THICKNESS 4.0f /* qu behind a patch facet when the options say 0 */
#define Q3_MAX_GRID 129u        /* the engine's MAX_GRID_SIZE: columns of a collision grid */

/* Collider flags of a brush or patch from its contents and surface flags; false when it makes
 * no collider (docs/IMPORT-Q3.md, "Collision"). */
bool blvl__import_q3_coll_flags(uint32_t contents, uint32_t surface, uint32_t *flags);

/* The collision hulls of patch surface `surface`, placed at `offset` (blvl axes), each facet
 * extruded `thickness` qu behind its face. `base` carries door, gametypes, source; `grid` is
 * scratch room for Q3_MAX_GRID^2 points. */
blvl_status blvl__import_q3_coll_patch(q3_ctx *c, uint32_t surface, blvl_Vec3 offset,
                                       const blvl_bake_collider *base, float thickness,
                                       float (*grid)[3]);

/* The engine's collision grid of a patch (cm_patch.c): the control points subdivided until
 * every curve is within 16 qu of its chords, degenerate columns removed. `pts` has room for
 * Q3_MAX_GRID^2 points; point (i, j) is pts[i * Q3_MAX_GRID + j]. Returns false when the
 * control grid is not a valid patch. */
bool blvl__import_q3_coll_patch_grid(const float (*ctrl)[3], int width, int height, float (*pts)[3],
                                     int *out_w, int *out_h);

#endif
