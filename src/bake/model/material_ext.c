/* A material's extensions (bake.h): the script it came from and the keywords the bake did not
 * read (.bsym), its Shading (vertex lighting, idTech3 animation) and Pbr (surface parameters,
 * emitted light). Checked before the add changes anything; copied into the bake's arena, so
 * they live exactly as long as the bake and a material without them allocates nothing. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bake/model/material_ext.h"
#include "blvl/sections/geometry.h"
#include "common/error.h"

static bool finite_wave(const blvl_bake_wave *w) {
    return isfinite(w->base) && isfinite(w->amp) && isfinite(w->phase) && isfinite(w->freq);
}

static blvl_status check_wave(const blvl_bake_wave *w, const char *what, blvl_error *err) {
    if (w->func > blvl_WaveFunc_Noise)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material %s func %u is not a WaveFunc", what,
                          w->func);
    if (!finite_wave(w))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material %s values are not finite", what);
    return BLVL_OK;
}

static blvl_status check_strings(const char *const *s, uint32_t n, const char *what,
                                 blvl_error *err) {
    if (n && !s)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material %s: %u given, array NULL", what, n);
    for (uint32_t i = 0; i < n; i++)
        if (!s[i])
            return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material %s %u is NULL", what, i);
    return BLVL_OK;
}

static blvl_status check_anim(const blvl_bake *b, const blvl_bake_anim *a, blvl_error *err) {
    blvl_status st;
    if ((a->tcmod_count && !a->tcmods) || (a->frame_count && !a->frames))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material anim tcmods or frames NULL");
    for (uint32_t i = 0; i < a->tcmod_count; i++) {
        const blvl_bake_tcmod *t = &a->tcmods[i];
        /* TcModKind has no 1 (transform) and nothing past Rotate (schema/geometry.fbs). */
        if (t->kind == 1 || t->kind > blvl_TcModKind_Rotate)
            return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material tcmod %u kind %u unknown", i,
                              t->kind);
        for (int k = 0; k < 4; k++)
            if (!isfinite(t->args[k]))
                return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material tcmod %u not finite", i);
        if (t->has_wave && (st = check_wave(&t->wave, "tcmod wave", err)) != BLVL_OK)
            return st;
    }
    if (a->has_rgb_wave && (st = check_wave(&a->rgb_wave, "rgb wave", err)) != BLVL_OK)
        return st;
    if (a->has_alpha_wave && (st = check_wave(&a->alpha_wave, "alpha wave", err)) != BLVL_OK)
        return st;
    for (uint32_t i = 0; i < a->frame_count; i++)
        if ((st = blvl__bake_model_check_index(a->frames[i], b->images.n, "material anim frame",
                                               err)) != BLVL_OK)
            return st;
    if (!isfinite(a->fps))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material anim fps not finite");
    if (a->has_deform) {
        const blvl_bake_deform *d = &a->deform;
        if (d->kind > blvl_DeformKind_Text7)
            return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material deform kind %u unknown",
                              d->kind);
        if (!isfinite(d->spread) || !blvl__bake_model_finite3(d->vector) ||
            (d->has_bulge && (!isfinite(d->bulge_width) || !isfinite(d->bulge_height) ||
                              !isfinite(d->bulge_speed))))
            return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material deform values not finite");
        if (d->has_wave && (st = check_wave(&d->wave, "deform wave", err)) != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

blvl_status blvl__bake_model_material_ext_check(const blvl_bake *b, const blvl_bake_material *m,
                                                blvl_error *err) {
    blvl_status st;
    if ((st = check_strings(m->unknown_keywords, m->unknown_keyword_count, "unknown keyword",
                            err)) != BLVL_OK ||
        (st = check_strings(m->surface_params, m->surface_param_count, "surface param", err)) !=
            BLVL_OK)
        return st;
    if (m->emits && (!blvl__bake_model_finite3(m->emit_color) || !isfinite(m->emit_intensity)))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material emitted light not finite");
    if (m->anim && (st = check_anim(b, m->anim, err)) != BLVL_OK)
        return st;
    return BLVL_OK;
}

/* n elements of `elem` bytes from the arena (NULL for n == 0; *ok false when it failed). */
static void *arena_copy(blvl_bake *b, const void *p, size_t n, size_t elem, bool *ok) {
    if (n == 0 || !*ok)
        return NULL;
    if (n > SIZE_MAX / elem) {
        *ok = false;
        return NULL;
    }
    void *c = blvl__bake_model_arena(b, n * elem);
    if (!c) {
        *ok = false;
        return NULL;
    }
    memcpy(c, p, n * elem);
    return c;
}

static const char *arena_str(blvl_bake *b, const char *s, bool *ok) {
    return s ? arena_copy(b, s, strlen(s) + 1, 1, ok) : NULL;
}

static const char *const *arena_strings(blvl_bake *b, const char *const *s, uint32_t n, bool *ok) {
    const char **c = arena_copy(b, s, n, sizeof *s, ok);
    for (uint32_t i = 0; c && *ok && i < n; i++)
        c[i] = arena_str(b, s[i], ok);
    return *ok ? c : NULL;
}

bool blvl__bake_model_material_ext_copy(blvl_bake *b, blvl_bake_material *c,
                                        const blvl_bake_material *m) {
    bool ok = true;
    c->source_shader = arena_str(b, m->source_shader, &ok);
    c->unknown_keywords = arena_strings(b, m->unknown_keywords, m->unknown_keyword_count, &ok);
    c->surface_params = arena_strings(b, m->surface_params, m->surface_param_count, &ok);
    if (m->anim) {
        blvl_bake_anim *a = arena_copy(b, m->anim, 1, sizeof *a, &ok);
        if (a) {
            a->tcmods =
                arena_copy(b, m->anim->tcmods, m->anim->tcmod_count, sizeof *a->tcmods, &ok);
            a->frames =
                arena_copy(b, m->anim->frames, m->anim->frame_count, sizeof *a->frames, &ok);
        }
        c->anim = a;
    }
    return ok;
}
