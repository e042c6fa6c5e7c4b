/* blvl_subspace_grid: the records laid on the 1024 x 1024 grid in file order. */
#include <string.h>

#include "import/subspace/subspace_internal.h"

void blvl_subspace_grid(const blvl_subspace *m, uint8_t *grid) {
    memset(grid, 0, (size_t)BLVL_SUBSPACE_GRID * BLVL_SUBSPACE_GRID);
    for (uint32_t i = 0; m && m->records && i < m->record_count; i++) {
        uint32_t r = m->records[i], x = BLVL_SUBSPACE_X(r), y = BLVL_SUBSPACE_Y(r);
        if (x < BLVL_SUBSPACE_GRID && y < BLVL_SUBSPACE_GRID && BLVL_SUBSPACE_TILE(r))
            grid[x + (size_t)y * BLVL_SUBSPACE_GRID] = (uint8_t)BLVL_SUBSPACE_TILE(r);
    }
}
