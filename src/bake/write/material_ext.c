/* A material's Shading and Pbr tables (geometry) and its unknown keywords (.bsym), each written
 * only when it holds something other than the schema's defaults, so a material without
 * extensions gives the same bytes it always did. */
#include "bake/model/material_ext.h"
#include "bake/write/write.h"
#include "blvl/sections/geometry_builder.h"

uint32_t blvl__bake_write_material_ext_refs(const blvl_bake_material *m) {
    uint32_t n = m->unknown_keyword_count;
    n = m->surface_param_count > n ? m->surface_param_count : n;
    if (m->anim && m->anim->tcmod_count > n)
        n = m->anim->tcmod_count;
    return n;
}

static blvl_Wave wave(const blvl_bake_wave *w) {
    return (blvl_Wave){(blvl_WaveFunc)w->func, w->base, w->amp, w->phase, w->freq};
}

static blvl_fb_ref strings(blvl_fb_builder *fb, const char *const *s, uint32_t n,
                           blvl_fb_ref *refs) {
    if (n == 0)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        refs[i] = blvl__bake_write_fb_str(fb, s[i]);
    return blvl_fb_create_ref_vector(fb, refs, n);
}

static blvl_fb_ref deform(blvl_fb_builder *fb, const blvl_bake_deform *d) {
    blvl_Deform_start(fb);
    blvl_Deform_add_kind(fb, (blvl_DeformKind)d->kind);
    blvl_Deform_add_spread(fb, d->spread);
    if (d->has_wave) {
        blvl_Wave w = wave(&d->wave);
        blvl_Deform_add_wave(fb, &w);
    }
    if (d->kind == blvl_DeformKind_Move)
        blvl_Deform_add_vector(fb, &d->vector);
    if (d->has_bulge) {
        blvl_Bulge bu = {d->bulge_width, d->bulge_height, d->bulge_speed};
        blvl_Deform_add_bulge(fb, &bu);
    }
    return blvl_Deform_end(fb);
}

static blvl_fb_ref anim(blvl_fb_builder *fb, const blvl_bake_anim *a, blvl_fb_ref *refs) {
    for (uint32_t i = 0; i < a->tcmod_count; i++) {
        const blvl_bake_tcmod *t = &a->tcmods[i];
        blvl_Vec4 args = {t->args[0], t->args[1], t->args[2], t->args[3]};
        blvl_TcMod_start(fb);
        blvl_TcMod_add_kind(fb, (blvl_TcModKind)t->kind);
        blvl_TcMod_add_args(fb, &args);
        if (t->has_wave) {
            blvl_Wave w = wave(&t->wave);
            blvl_TcMod_add_wave(fb, &w);
        }
        refs[i] = blvl_TcMod_end(fb);
    }
    blvl_fb_ref tcmods = a->tcmod_count ? blvl_fb_create_ref_vector(fb, refs, a->tcmod_count) : 0;
    blvl_fb_ref frames =
        a->frame_count ? blvl_Anim_frames_create(fb, a->frames, a->frame_count) : 0;
    blvl_fb_ref def = a->has_deform ? deform(fb, &a->deform) : 0;
    blvl_Anim_start(fb);
    blvl_Anim_add_tcmods(fb, tcmods);
    if (a->has_rgb_wave) {
        blvl_Wave w = wave(&a->rgb_wave);
        blvl_Anim_add_rgb_wave(fb, &w);
    }
    if (a->has_alpha_wave) {
        blvl_Wave w = wave(&a->alpha_wave);
        blvl_Anim_add_alpha_wave(fb, &w);
    }
    blvl_Anim_add_frames(fb, frames);
    blvl_Anim_add_fps(fb, a->fps);
    blvl_Anim_add_deform(fb, def);
    return blvl_Anim_end(fb);
}

blvl_fb_ref blvl__bake_write_shading(blvl_fb_builder *fb, const blvl_bake_material *m,
                                     blvl_fb_ref *refs) {
    if (!m->vertex_lit && !m->anim)
        return 0;
    blvl_fb_ref an = m->anim ? anim(fb, m->anim, refs) : 0;
    blvl_Shading_start(fb);
    blvl_Shading_add_lightmapped(fb, !m->vertex_lit);
    blvl_Shading_add_anim(fb, an);
    return blvl_Shading_end(fb);
}

blvl_fb_ref blvl__bake_write_pbr(blvl_fb_builder *fb, const blvl_bake_material *m,
                                 blvl_fb_ref *refs) {
    if (!m->surface_param_count && !m->emits)
        return 0;
    blvl_fb_ref params = strings(fb, m->surface_params, m->surface_param_count, refs);
    blvl_Pbr_start(fb);
    blvl_Pbr_add_surface_params(fb, params);
    if (m->emits) {
        blvl_Pbr_add_emit_color(fb, &m->emit_color);
        blvl_Pbr_add_emit_intensity(fb, m->emit_intensity);
    }
    return blvl_Pbr_end(fb);
}

blvl_fb_ref blvl__bake_write_unknown(blvl_fb_builder *fb, const blvl_bake_material *m,
                                     blvl_fb_ref *refs) {
    return strings(fb, m->unknown_keywords, m->unknown_keyword_count, refs);
}
