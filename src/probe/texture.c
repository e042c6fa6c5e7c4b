/* Pictures for the renderer. Until images decode here every surface is drawn by its normal. */
#include "probe/probe_internal.h"

blvl_status blvl__probe_load_pictures(blvl_probe *p, blvl_level *level, blvl_error *err) {
    (void)level;
    (void)err;
    p->texture_count = 0;
    p->lightmap_gain = 1;
    return BLVL_OK;
}

void blvl__probe_free_pictures(blvl_probe *p) {
    (void)p;
}
