/* A material's Anim from its shader: the base stage's tcMods, rgbGen / alphaGen waves and
 * animMap frames, and the shader's first deformVertexes. Anim carries one deform and the
 * tcMods turb, scroll, scale, stretch and rotate; the rest is written back as text into the
 * material's unknown keywords, so the .bsym still holds it. */
#include <stdio.h>
#include <string.h>

#include "bake_materials.h"

static blvl_bake_wave wave(const blvl_q3_wave *w) {
    blvl_bake_wave r = {w->func, w->base, w->amp, w->phase, w->freq};
    return r;
}

static const char *wave_name(uint32_t f) {
    static const char *const n[] = {
        "none", "sin", "square", "triangle", "sawtooth", "inversesawtooth", "noise"};
    return f < 7 ? n[f] : "none";
}

static void extra(q3m_anim *a, const char *fmt, double v0, double v1, double v2, double v3,
                  double v4, double v5) {
    if (a->extra_count >= 8)
        return;
    snprintf(a->extra[a->extra_count++], sizeof a->extra[0], fmt, v0, v1, v2, v3, v4, v5);
}

/* A deform Anim cannot carry, as the script would write it. */
static void deform_text(q3m_anim *a, const blvl_q3_deform *d) {
    char w[96];
    snprintf(w, sizeof w, "%s %g %g %g %g", wave_name(d->wave.func), d->wave.base, d->wave.amp,
             d->wave.phase, d->wave.freq);
    if (a->extra_count >= 8)
        return;
    char *s = a->extra[a->extra_count++];
    size_t n = sizeof a->extra[0];
    switch (d->kind) {
    case BLVL_Q3_DEFORM_WAVE:
        snprintf(s, n, "deformVertexes wave %g %s", d->spread ? 1.0 / d->spread : 0.0, w);
        break;
    case BLVL_Q3_DEFORM_NORMAL:
        snprintf(s, n, "deformVertexes normal %g %g", d->wave.amp, d->wave.freq);
        break;
    case BLVL_Q3_DEFORM_BULGE:
        snprintf(s, n, "deformVertexes bulge %g %g %g", d->bulge_width, d->bulge_height,
                 d->bulge_speed);
        break;
    case BLVL_Q3_DEFORM_MOVE:
        snprintf(s, n, "deformVertexes move %g %g %g %s", d->vector[0], d->vector[1], d->vector[2],
                 w);
        break;
    case BLVL_Q3_DEFORM_PROJECTION_SHADOW:
        snprintf(s, n, "deformVertexes projectionShadow");
        break;
    case BLVL_Q3_DEFORM_AUTOSPRITE:
        snprintf(s, n, "deformVertexes autosprite");
        break;
    case BLVL_Q3_DEFORM_AUTOSPRITE2:
        snprintf(s, n, "deformVertexes autosprite2");
        break;
    default:
        snprintf(s, n, "deformVertexes text%d", d->kind - BLVL_Q3_DEFORM_TEXT0);
        break;
    }
}

blvl_status blvl__import_q3_mat_anim(q3_materials *m, const blvl_q3_shader *sh,
                                     const blvl_q3_stage *base, q3m_anim *out, bool *has) {
    memset(out, 0, sizeof *out);
    *has = false;
    blvl_bake_anim *a = &out->anim;
    if (base) {
        for (uint32_t i = 0; i < base->tcmod_count; i++) {
            const blvl_q3_tcmod *t = &base->tcmods[i];
            if (t->kind == BLVL_Q3_TCMOD_TRANSFORM) {
                extra(out, "tcMod transform %g %g %g %g %g %g", t->args[0], t->args[1], t->args[2],
                      t->args[3], t->args[4], t->args[5]);
                continue;
            }
            if (t->kind == BLVL_Q3_TCMOD_ENTITY_TRANSLATE) {
                extra(out, "tcMod entityTranslate", 0, 0, 0, 0, 0, 0);
                continue;
            }
            blvl_bake_tcmod *o = &out->tcmods[a->tcmod_count++];
            o->kind = t->kind; /* the engine's texMod_t numbers, as TcModKind keeps them */
            memcpy(o->args, t->args, sizeof o->args);
            if (t->kind == BLVL_Q3_TCMOD_STRETCH) {
                o->has_wave = true;
                o->wave = wave(&t->wave);
            }
        }
        if (base->rgb_gen == BLVL_Q3_RGB_WAVE) {
            a->has_rgb_wave = true;
            a->rgb_wave = wave(&base->rgb_wave);
        }
        if (base->alpha_gen == BLVL_Q3_ALPHA_WAVE) {
            a->has_alpha_wave = true;
            a->alpha_wave = wave(&base->alpha_wave);
        }
        if (base->map_kind == BLVL_Q3_MAP_ANIM && base->frame_count > 1) {
            /* Every frame or none: a missing frame would change the timing of the others. */
            uint32_t n = 0;
            for (uint32_t i = 0; i < base->frame_count; i++) {
                blvl_status st = blvl__import_q3_mat_image(m, base->frames[i], &out->frames[n]);
                if (st)
                    return st;
                if (out->frames[n] != BLVL_BAKE_NONE)
                    n++;
            }
            if (n == base->frame_count) {
                a->frame_count = n;
                a->fps = base->fps;
            }
        }
    }
    for (uint32_t i = 0; i < sh->deform_count; i++) {
        const blvl_q3_deform *d = &sh->deforms[i];
        if (i > 0) {
            deform_text(out, d);
            continue;
        }
        a->has_deform = true;
        a->deform.kind = d->kind;
        a->deform.spread = d->spread;
        if (d->kind == BLVL_Q3_DEFORM_WAVE || d->kind == BLVL_Q3_DEFORM_NORMAL ||
            d->kind == BLVL_Q3_DEFORM_MOVE) {
            a->deform.has_wave = true;
            a->deform.wave = wave(&d->wave);
        }
        if (d->kind == BLVL_Q3_DEFORM_MOVE) {
            /* A motion vector is a direction in the map: blvl axes. */
            a->deform.vector = q3_axes(d->vector);
        }
        if (d->kind == BLVL_Q3_DEFORM_BULGE) {
            a->deform.has_bulge = true;
            a->deform.bulge_width = d->bulge_width;
            a->deform.bulge_height = d->bulge_height;
            a->deform.bulge_speed = d->bulge_speed;
        }
    }
    a->tcmods = a->tcmod_count ? out->tcmods : NULL;
    a->frames = a->frame_count ? out->frames : NULL;
    *has =
        a->tcmod_count || a->has_rgb_wave || a->has_alpha_wave || a->frame_count || a->has_deform;
    return BLVL_OK;
}
