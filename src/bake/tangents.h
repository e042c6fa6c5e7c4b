/* Per-vertex tangent frames from positions, normals and UVs (docs/BAKE.md, "Tangents"). */
#ifndef BLVL_BAKE_TANGENTS_H
#define BLVL_BAKE_TANGENTS_H

#include <stdint.h>

#include "blvl/bake.h"

/* The tangents of one surface: `idx` (ni entries, each < nv) are its triangles. `scratch` holds
 * 6 * nv doubles. out[i] is the snorm16 tangent of vertex i, w = +1 or -1 (32767 or -32767). */
void blvl__bake_tangents(const blvl_bake_vertex *v, uint32_t nv, const uint32_t *idx, uint32_t ni,
                         double *scratch, blvl_Snorm16x4 *out);

/* The two halves of blvl__bake_tangents, for a caller that writes each vertex as its tangent is
 * known: the triangles' sums into scratch (u directions at 3 i, v directions at 3 nv + 3 i), then
 * one vertex's tangent from its two sums. */
void blvl__bake_tangent_sums(const blvl_bake_vertex *v, uint32_t nv, const uint32_t *idx,
                             uint32_t ni, double *scratch);
blvl_Snorm16x4 blvl__bake_tangent_frame(const blvl_bake_vertex *vi, const double s[3],
                                        const double w[3]);

#endif
