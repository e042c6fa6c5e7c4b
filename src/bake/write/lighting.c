/* The lighting section: profile 0 ("authored") with the ambient, the sun, the lightmap and the
 * sky (each the first and only entry of its section), the punctual lights, the light grid and
 * the fog volumes. */
#include "bake/write/write.h"
#include "blvl/sections/lighting_builder.h"
#include "common/error.h"

bool blvl__bake_write_has_lighting(const blvl_bake *b) {
    return b->has_ambient || b->has_sun || b->lights.n > 0 || b->fogs.n > 0 || b->lightmap ||
           b->grid || b->sky;
}

blvl_status blvl__bake_write_lighting(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                      blvl_error *err) {
    uint32_t nr = b->lights.n > b->fogs.n ? b->lights.n : b->fogs.n;
    blvl_fb_ref *refs = blvl__bake_write_refs(b, nr, err);
    if (nr && !refs)
        return blvl__nomem(err, "bake: writing lighting");
    blvl_fb_builder_reset(fb);
    blvl_fb_ref name = blvl__bake_write_fb_str(fb, "authored");
    blvl_LightingProfile_start(fb);
    blvl_LightingProfile_add_name(fb, name);
    blvl_LightingProfile_add_lightmap(fb, b->lightmap ? 0u : BLVL_BAKE_NONE);
    blvl_LightingProfile_add_sky(fb, b->sky ? 0u : BLVL_BAKE_NONE);
    if (b->has_ambient)
        blvl_LightingProfile_add_ambient(fb, &b->ambient);
    if (b->has_sun) {
        blvl_Sun sun = {b->sun_direction, b->sun_color, b->sun_intensity};
        blvl_LightingProfile_add_sun(fb, &sun);
    }
    blvl_fb_ref profile = blvl_LightingProfile_end(fb);
    blvl_fb_ref profiles = blvl_fb_create_ref_vector(fb, &profile, 1);
    for (uint32_t i = 0; i < b->lights.n; i++) {
        const blvl_bake_light *l = &b->lights.p[i];
        blvl_PunctualLight_start(fb);
        blvl_PunctualLight_add_kind(fb, l->kind);
        blvl_PunctualLight_add_position(fb, &l->position);
        blvl_PunctualLight_add_direction(fb, &l->direction);
        blvl_PunctualLight_add_color(fb, &l->color);
        blvl_PunctualLight_add_intensity(fb, l->intensity);
        blvl_PunctualLight_add_range(fb, l->range);
        blvl_PunctualLight_add_inner_cone(fb, l->inner_cone);
        blvl_PunctualLight_add_outer_cone(fb, l->outer_cone);
        blvl_PunctualLight_add_baked_diffuse(fb, l->baked_diffuse);
        refs[i] = blvl_PunctualLight_end(fb);
    }
    blvl_fb_ref lights = b->lights.n ? blvl_fb_create_ref_vector(fb, refs, b->lights.n) : 0;
    for (uint32_t i = 0; i < b->fogs.n; i++) {
        const bake_fog *f = &b->fogs.p[i];
        blvl_FogVolume_start(fb);
        blvl_FogVolume_add_lo(fb, &f->lo);
        blvl_FogVolume_add_hi(fb, &f->hi);
        blvl_FogVolume_add_color(fb, &f->color);
        blvl_FogVolume_add_depth(fb, f->depth);
        refs[i] = blvl_FogVolume_end(fb);
    }
    blvl_fb_ref fogs = b->fogs.n ? blvl_fb_create_ref_vector(fb, refs, b->fogs.n) : 0;
    blvl_fb_ref grid = blvl__bake_write_light_grid(b, fb);
    blvl_Lighting_start(fb);
    blvl_Lighting_add_profiles(fb, profiles);
    blvl_Lighting_add_light_grid(fb, grid);
    blvl_Lighting_add_punctual_lights(fb, lights);
    blvl_Lighting_add_fog_volumes(fb, fogs);
    blvl_status st = blvl_Lighting_finish(fb, blvl_Lighting_end(fb), &out->data, &out->size, err);
    blvl__bake_write_refs_free(b, refs, nr);
    return st;
}
