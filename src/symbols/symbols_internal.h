/* The symbols object and the checks the reader and the writer (src/symbols_write/) share (one
 * truth per invariant). */
#ifndef BLVL_SYMBOLS_INTERNAL_H
#define BLVL_SYMBOLS_INTERNAL_H

#include "blvl/symbols.h"

/* Everything lives in one allocation (`mem`, the object first), so freeing is one call. */
struct blvl_symbols {
    blvl_allocator al;
    size_t mem_size;
    blvl_symbols_info info;
    uint32_t *colliders;
    blvl_symbols_run *runs;
    blvl_symbols_source *sources;
    blvl_symbols_material *materials;
    uint32_t *batch_first; /* per level batch: its first run, and how many runs cover it */
    uint32_t *batch_runs;
};

/* What the level-bound invariants compare with (read from the level's sim, geometry and
 * entities sections). */
typedef struct blvl__symbols_level {
    uint32_t colliders; /* sim.colliders */
    uint32_t triangles; /* geometry.indices / 3 */
    uint32_t materials; /* geometry.materials */
    uint32_t entities;  /* entities.entities */
} blvl__symbols_level;

/* The data's own invariants (runs start at 0 and rise, ids in range or NONE) and, when `lv` is
 * not NULL, those against the level. BLVL_E_SYMBOLS naming the invariant. */
blvl_status blvl__symbols_check(const blvl_symbols_data *d, const blvl__symbols_level *lv,
                                blvl_error *err);

/* The run holding triangle t: the last run whose first_tri <= t (runs sorted, count > 0, and
 * runs[0].first_tri == 0 <= t). */
uint32_t blvl__symbols_run_of(const blvl_symbols_run *runs, uint32_t count, uint32_t t);

#endif
