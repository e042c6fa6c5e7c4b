/* Splitting surfaces into batches and ordering them (docs/BAKE.md, "Batches"). */
#ifndef BLVL_BAKE_BATCHES_H
#define BLVL_BAKE_BATCHES_H

#include <stdint.h>

#include "bake/model/model.h"

typedef struct bake_batch {
    uint32_t first, count; /* its surfaces: plan.order[first .. first + count) */
    uint32_t material, door, breakable, fog, gametypes;
    uint16_t lightmap_layer;
    uint32_t first_index, index_count; /* in the written geometry.indices */
} bake_batch;

typedef struct bake_plan {
    uint32_t *order; /* surfaces with triangles in written order, then those without */
    uint32_t order_count;
    bake_batch *batches;
    uint32_t batch_count;
} bake_plan;

/* A surface is translucent when its material's blend is not Opaque (no material: opaque). */
bool blvl__bake_write_translucent(const blvl_bake *b, uint32_t material);
blvl_status blvl__bake_write_plan(const blvl_bake *b, bake_plan *plan, blvl_error *err);
void blvl__bake_write_plan_free(const blvl_bake *b, bake_plan *plan);

#endif
