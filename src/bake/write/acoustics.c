/* The acoustics section from the acoustics step's result (bake/acoustics/). */
#include "bake/acoustics/acoustics.h"
#include "bake/write/write.h"
#include "blvl/sections/acoustics_builder.h"
#include "common/error.h"

blvl_status blvl__bake_write_acoustics(const blvl_bake *b, const bake_ac *ac, blvl_fb_builder *fb,
                                       bake_buf *out, blvl_error *err) {
    blvl_fb_ref *refs = blvl__bake_write_refs(b, ac->room_count, err);
    if (ac->room_count && !refs)
        return BLVL_E_NOMEM;
    blvl_fb_builder_reset(fb);
    for (uint32_t i = 0; i < ac->room_count; i++) {
        blvl_AcousticRoom_start(fb);
        blvl_AcousticRoom_add_rt60_s(fb, ac->rooms[i].rt60_s);
        blvl_AcousticRoom_add_damping(fb, ac->rooms[i].damping);
        blvl_AcousticRoom_add_outdoor(fb, ac->rooms[i].outdoor);
        refs[i] = blvl_AcousticRoom_end(fb);
    }
    blvl_fb_ref rooms = ac->room_count ? blvl_fb_create_ref_vector(fb, refs, ac->room_count) : 0;
    blvl_fb_ref probes = blvl_Acoustics_probes_create(fb, ac->probes, ac->probe_count);
    blvl_fb_ref edges = blvl_Acoustics_edges_create(fb, ac->edges, ac->edge_count);
    blvl_Acoustics_start(fb);
    blvl_Acoustics_add_probes(fb, probes);
    blvl_Acoustics_add_edges(fb, edges);
    blvl_Acoustics_add_rooms(fb, rooms);
    blvl_status st = blvl_Acoustics_finish(fb, blvl_Acoustics_end(fb), &out->data, &out->size, err);
    blvl__bake_write_refs_free(b, refs, ac->room_count);
    return st;
}
