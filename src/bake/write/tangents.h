/* Per-vertex tangent frames from positions, normals and UVs (docs/BAKE.md, "Tangents"). */
#ifndef BLVL_BAKE_TANGENTS_H
#define BLVL_BAKE_TANGENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "blvl/bake.h"

/* The tangents of one surface: `idx` (ni entries, each < nv) are its triangles. `scratch` holds
 * 6 * nv doubles. out[i] is the snorm16 tangent of vertex i, w = +1 or -1 (32767 or -32767). */
void blvl__bake_write_tangents(const blvl_bake_vertex *v, uint32_t nv, const uint32_t *idx,
                               uint32_t ni, double *scratch, blvl_Snorm16x4 *out);

/* The same tangents without a scratch of the surface's size, for surfaces whose triangles name
 * vertices close together (most do): sums are kept for a window of BAKE_TANGENT_WINDOW vertices,
 * and each vertex is handed to emit, in vertex order, as soon as no later triangle names it.
 * Every sum is added in the same order as blvl__bake_write_tangents adds it, so the values are the
 * same. `ring` holds 6 * BAKE_TANGENT_WINDOW doubles, zero on entry and left zero; `low` holds
 * ni / 3 entries. False, before any vertex is emitted, when a triangle names a vertex past the
 * window: the caller then uses blvl__bake_write_tangents for the whole surface. */
#define BAKE_TANGENT_WINDOW 4096u
typedef void (*blvl__bake_tangent_emit)(void *ctx, uint32_t vertex, blvl_Snorm16x4 tangent);
bool blvl__bake_write_tangents_window(const blvl_bake_vertex *v, uint32_t nv, const uint32_t *idx,
                                      uint32_t ni, double *ring, uint32_t *low,
                                      blvl__bake_tangent_emit emit, void *ctx);

#endif
