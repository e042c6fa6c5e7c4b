/* Who is moving, reduced to masks (docs/TRACE.md): a player's sweep skips player-through
 * (bit 7); a shot skips shot-through (bit 5, which ladders, player clips and grates set), so a
 * clip brush (bit 4) stops a shot unless it also says shot-through; water (bit 6) is never swept.
 */
#include "trace/trace_internal.h"

static void common(const blvl_trace_filter *f, tw_filter *out) {
    /* 0 = no filtering: every collider is seen, one whose own mask is empty included (a reader
     * that ignores the field sees the whole map). */
    out->gametypes = f ? f->gametypes : 0;
    out->skip = f ? f->skip : NULL;
    out->skip_words = f && f->skip ? f->skip_words : 0;
    out->doors = f ? f->doors : NULL;
}

void blvl__trace_filter_compile(const blvl_trace_filter *f, tw_filter *out) {
    common(f, out);
    out->must_have = 0;
    switch (f ? f->mover : BLVL_TRACE_AS_PLAYER) {
    case BLVL_TRACE_AS_SHOT:
        out->must_not = BLVL_COLLIDER_SHOT_THROUGH;
        break;
    case BLVL_TRACE_AS_CUSTOM:
        out->must_have = f->include;
        out->must_not = f->exclude;
        break;
    case BLVL_TRACE_AS_PLAYER:
    default:
        out->must_not = BLVL_COLLIDER_PLAYER_THROUGH;
        break;
    }
    out->must_not |= BLVL_COLLIDER_WATER;
}

void blvl__trace_filter_compile_water(const blvl_trace_filter *f, tw_filter *out) {
    common(f, out);
    out->must_have = BLVL_COLLIDER_WATER;
    out->must_not = 0;
}
