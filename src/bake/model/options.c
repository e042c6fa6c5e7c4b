/* blvl_bake_options: the options a model was made with, for importers' scratch memory. */
#include "bake/model/model.h"

const blvl_options *blvl_bake_options(const blvl_bake *b) {
    return b ? &b->opt : NULL;
}
