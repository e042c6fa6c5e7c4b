/* blvl_bake_mesh_is_convex with the memory for its edge list from an allocator: a bake calls
 * this one with the bake's (blvl_bake_options), so no byte of it bypasses the caller's
 * allocator; the public call, which takes no options, passes NULL (the default). */
#ifndef BLVL_BAKE_CONVEX_H
#define BLVL_BAKE_CONVEX_H

#include <stdbool.h>
#include <stdint.h>

#include "blvl/bake.h"

bool blvl__bake_convex_mesh_is_convex(const blvl_allocator *al, const blvl_Vec3 *vertices,
                                      uint32_t vertex_count, const uint32_t *sizes,
                                      uint32_t poly_count, const uint32_t *indices,
                                      uint32_t index_count);

#endif
