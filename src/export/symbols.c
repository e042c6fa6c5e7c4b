/* Where a batch or a collider came from, from the level's .bsym when the caller gave one. */
#include "export/export_internal.h"

void xp_batch_source(xp *x, xj *j, uint32_t batch) {
    (void)x, (void)j, (void)batch;
}

void xp_collider_source(xp *x, xj *j, uint32_t collider) {
    (void)x, (void)j, (void)collider;
}
