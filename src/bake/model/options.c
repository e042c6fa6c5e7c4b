/* blvl_bake_options: the options a model was made with, for importers' scratch memory. */
#include "bake/model/fast.h"
#include "bake/model/model.h"
#include "common/error.h"

const blvl_options *blvl_bake_options(const blvl_bake *b) {
    return b ? &b->opt : NULL;
}

blvl_status blvl_bake_set_acoustics(blvl_bake *b, bool enabled, float spacing, blvl_error *err) {
    if (!b)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: set_acoustics needs a bake");
    if (spacing == 0)
        spacing = BLVL_BAKE_ACOUSTICS_SPACING;
    if (!(spacing >= 16.0f && spacing <= 1024.0f))
        return blvl__fail(err, BLVL_E_ARGUMENT, "acoustics spacing %g qu is not within 16..1024",
                          (double)spacing);
    b->acoustics = enabled;
    b->acoustics_spacing = spacing;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_set_draft(blvl_bake *b, bool draft, blvl_error *err) {
    if (!b)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: set_draft needs a bake");
    b->draft = draft;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl__bake_model_spend(blvl_bake *b) {
    if (b)
        b->spend = true;
}
