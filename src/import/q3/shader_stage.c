/* A stage's keywords: what it draws (map, clampMap, animMap), how it blends, its colour and
 * alpha generators, texture-coordinate generation and modifiers, depth and alpha tests. A
 * keyword not known here, or whose arguments do not read, is kept as "keyword args". */
#include <string.h>

#include "common/error.h"
#include "shader_internal.h"

static blvl_status keep(q3s_parse *p, q3s_line *l) {
    return blvl__import_q3_shader_keep(p, &p->stage_unknown, l,
                                       "a stage with more than 256 unknown keywords");
}

static uint8_t blend_factor(const q3s_tok *t) {
    static const char *const names[] = {"GL_ONE",
                                        "GL_ZERO",
                                        "GL_DST_COLOR",
                                        "GL_ONE_MINUS_DST_COLOR",
                                        "GL_SRC_ALPHA",
                                        "GL_ONE_MINUS_SRC_ALPHA",
                                        "GL_DST_ALPHA",
                                        "GL_ONE_MINUS_DST_ALPHA",
                                        "GL_SRC_COLOR",
                                        "GL_ONE_MINUS_SRC_COLOR",
                                        "GL_SRC_ALPHA_SATURATE"};
    for (uint8_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (blvl__import_q3_shader_is(t, names[i]))
            return (uint8_t)(i + 1); /* BLVL_Q3_GL_ONE is 1, in this order */
    return BLVL_Q3_BLEND_NONE;
}

static bool blend(q3s_line *l, blvl_q3_stage *st) {
    if (l->argc >= 1 && !blend_factor(&l->arg[0])) {
        const q3s_tok *a = &l->arg[0];
        if (blvl__import_q3_shader_is(a, "add")) {
            st->blend_src = BLVL_Q3_GL_ONE;
            st->blend_dst = BLVL_Q3_GL_ONE;
        } else if (blvl__import_q3_shader_is(a, "filter")) {
            st->blend_src = BLVL_Q3_GL_DST_COLOR;
            st->blend_dst = BLVL_Q3_GL_ZERO;
        } else if (blvl__import_q3_shader_is(a, "blend")) {
            st->blend_src = BLVL_Q3_GL_SRC_ALPHA;
            st->blend_dst = BLVL_Q3_GL_ONE_MINUS_SRC_ALPHA;
        } else {
            return false;
        }
        l->used = 1;
        return true;
    }
    if (l->argc < 2)
        return false;
    uint8_t s = blend_factor(&l->arg[0]), d = blend_factor(&l->arg[1]);
    if (!s || !d)
        return false;
    st->blend_src = s;
    st->blend_dst = d;
    l->used = 2;
    return true;
}

typedef struct named {
    const char *name;
    uint8_t v;
} named;

static bool lookup(const q3s_tok *t, const named *n, size_t count, uint8_t *out) {
    for (size_t i = 0; i < count; i++)
        if (blvl__import_q3_shader_is(t, n[i].name)) {
            *out = n[i].v;
            return true;
        }
    return false;
}

static bool rgb_gen(q3s_line *l, blvl_q3_stage *st) {
    static const named plain[] = {{"identity", BLVL_Q3_RGB_IDENTITY},
                                  {"identityLighting", BLVL_Q3_RGB_IDENTITY_LIGHTING},
                                  {"vertex", BLVL_Q3_RGB_VERTEX},
                                  {"exactVertex", BLVL_Q3_RGB_EXACT_VERTEX},
                                  {"oneMinusVertex", BLVL_Q3_RGB_ONE_MINUS_VERTEX},
                                  {"entity", BLVL_Q3_RGB_ENTITY},
                                  {"oneMinusEntity", BLVL_Q3_RGB_ONE_MINUS_ENTITY},
                                  {"lightingDiffuse", BLVL_Q3_RGB_LIGHTING_DIFFUSE}};
    if (!l->argc)
        return false;
    if (blvl__import_q3_shader_is(&l->arg[0], "wave")) {
        if (!blvl__import_q3_shader_wave(l, 1, &st->rgb_wave, &l->used))
            return false;
        st->rgb_gen = BLVL_Q3_RGB_WAVE;
        return true;
    }
    if (blvl__import_q3_shader_is(&l->arg[0], "const")) {
        if (!blvl__import_q3_shader_nums(l, 1, st->rgb_const, 3, &l->used))
            return false;
        st->rgb_gen = BLVL_Q3_RGB_CONST;
        return true;
    }
    l->used = 1;
    return lookup(&l->arg[0], plain, sizeof plain / sizeof plain[0], &st->rgb_gen);
}

static bool alpha_gen(q3s_line *l, blvl_q3_stage *st) {
    static const named plain[] = {{"identity", BLVL_Q3_ALPHA_IDENTITY},
                                  {"vertex", BLVL_Q3_ALPHA_VERTEX},
                                  {"oneMinusVertex", BLVL_Q3_ALPHA_ONE_MINUS_VERTEX},
                                  {"entity", BLVL_Q3_ALPHA_ENTITY},
                                  {"oneMinusEntity", BLVL_Q3_ALPHA_ONE_MINUS_ENTITY},
                                  {"lightingSpecular", BLVL_Q3_ALPHA_LIGHTING_SPECULAR}};
    if (!l->argc)
        return false;
    if (blvl__import_q3_shader_is(&l->arg[0], "wave")) {
        if (!blvl__import_q3_shader_wave(l, 1, &st->alpha_wave, &l->used))
            return false;
        st->alpha_gen = BLVL_Q3_ALPHA_WAVE;
        return true;
    }
    if (blvl__import_q3_shader_is(&l->arg[0], "const") ||
        blvl__import_q3_shader_is(&l->arg[0], "portal")) {
        if (!blvl__import_q3_shader_nums(l, 1, &st->alpha_const, 1, &l->used))
            return false;
        st->alpha_gen = blvl__import_q3_shader_is(&l->arg[0], "const") ? BLVL_Q3_ALPHA_CONST
                                                                       : BLVL_Q3_ALPHA_PORTAL;
        return true;
    }
    l->used = 1;
    return lookup(&l->arg[0], plain, sizeof plain / sizeof plain[0], &st->alpha_gen);
}

static bool tc_gen(q3s_line *l, blvl_q3_stage *st) {
    static const named plain[] = {{"base", BLVL_Q3_TCGEN_BASE},
                                  {"texture", BLVL_Q3_TCGEN_BASE},
                                  {"lightmap", BLVL_Q3_TCGEN_LIGHTMAP},
                                  {"environment", BLVL_Q3_TCGEN_ENVIRONMENT}};
    if (!l->argc)
        return false;
    if (blvl__import_q3_shader_is(&l->arg[0], "vector")) {
        float v[6];
        if (!blvl__import_q3_shader_nums(l, 1, v, 6, &l->used))
            return false;
        memcpy(st->tc_vector, v, sizeof v);
        st->tc_gen = BLVL_Q3_TCGEN_VECTOR;
        return true;
    }
    l->used = 1;
    return lookup(&l->arg[0], plain, sizeof plain / sizeof plain[0], &st->tc_gen);
}

static bool tc_mod(const q3s_line *l, blvl_q3_tcmod *m) {
    static const struct {
        const char *name;
        uint8_t kind, args;
    } k[] = {{"scroll", BLVL_Q3_TCMOD_SCROLL, 2},
             {"scale", BLVL_Q3_TCMOD_SCALE, 2},
             {"rotate", BLVL_Q3_TCMOD_ROTATE, 1},
             {"turb", BLVL_Q3_TCMOD_TURB, 4},
             {"transform", BLVL_Q3_TCMOD_TRANSFORM, 6},
             {"entityTranslate", BLVL_Q3_TCMOD_ENTITY_TRANSLATE, 0}};
    memset(m, 0, sizeof *m);
    if (!l->argc)
        return false;
    if (blvl__import_q3_shader_is(&l->arg[0], "stretch")) {
        if (!blvl__import_q3_shader_wave(l, 1, &m->wave, NULL))
            return false;
        m->kind = BLVL_Q3_TCMOD_STRETCH;
        return true;
    }
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (blvl__import_q3_shader_is(&l->arg[0], k[i].name)) {
            if (k[i].args && !blvl__import_q3_shader_nums(l, 1, m->args, k[i].args, NULL))
                return false;
            m->kind = k[i].kind;
            return true;
        }
    return false;
}

blvl_status blvl__import_q3_shader_stage(q3s_parse *p, blvl_q3_stage *st, q3s_line *l) {
    const q3s_tok *kw = &l->kw;
    const q3s_tok *a0 = l->argc ? &l->arg[0] : NULL;
    if (blvl__import_q3_shader_is(kw, "map") || blvl__import_q3_shader_is(kw, "clampMap")) {
        if (!a0)
            return keep(p, l);
        bool clamp = kw->n == 8;
        if (!clamp && blvl__import_q3_shader_is(a0, "$lightmap")) {
            st->map_kind = BLVL_Q3_MAP_LIGHTMAP;
        } else if (!clamp && blvl__import_q3_shader_is(a0, "$whiteimage")) {
            st->map_kind = BLVL_Q3_MAP_WHITE;
        } else {
            if (!(st->map = blvl__import_q3_shader_arena_str(p->ar, a0->p, a0->n)))
                return blvl__nomem(p->err, "shader script");
            st->map_kind = BLVL_Q3_MAP_IMAGE;
            st->clamp = clamp;
        }
        l->used = 1;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "animMap")) {
        float fps;
        if (l->argc < 2 || !blvl__import_q3_shader_num(a0, &fps))
            return keep(p, l);
        /* The engine keeps the first eight frames. */
        uint32_t n =
            l->argc - 1 < BLVL_Q3_SHADER_MAX_FRAMES ? l->argc - 1 : BLVL_Q3_SHADER_MAX_FRAMES;
        for (uint32_t i = 0; i < n; i++)
            if (!(st->frames[i] =
                      blvl__import_q3_shader_arena_str(p->ar, l->arg[1 + i].p, l->arg[1 + i].n)))
                return blvl__nomem(p->err, "shader script");
        st->frame_count = n;
        st->fps = fps;
        st->map_kind = BLVL_Q3_MAP_ANIM;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "blendFunc"))
        return blend(l, st) ? BLVL_OK : keep(p, l);
    if (blvl__import_q3_shader_is(kw, "rgbGen"))
        return rgb_gen(l, st) ? BLVL_OK : keep(p, l);
    if (blvl__import_q3_shader_is(kw, "alphaGen"))
        return alpha_gen(l, st) ? BLVL_OK : keep(p, l);
    if (blvl__import_q3_shader_is(kw, "tcGen") || blvl__import_q3_shader_is(kw, "texgen"))
        return tc_gen(l, st) ? BLVL_OK : keep(p, l);
    if (blvl__import_q3_shader_is(kw, "tcMod")) {
        blvl_q3_tcmod m;
        if (!tc_mod(l, &m))
            return keep(p, l);
        /* The engine drops the whole map on a fifth tcMod (ERR_DROP). */
        if (st->tcmod_count >= BLVL_Q3_SHADER_MAX_TCMODS)
            return blvl__import_q3_shader_refuse(p, l->offset, "tcmods",
                                                 "a stage with more than 4 tcMods");
        st->tcmods[st->tcmod_count++] = m;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "depthWrite")) {
        st->depth_write = true;
        l->used = 0;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "depthFunc")) {
        if (a0 && blvl__import_q3_shader_is(a0, "equal"))
            st->depth_equal = true;
        else if (a0 && blvl__import_q3_shader_is(a0, "lequal"))
            st->depth_equal = false;
        else
            return keep(p, l);
        l->used = 1;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "alphaFunc")) {
        static const named f[] = {{"GT0", BLVL_Q3_AFUNC_GT0},
                                  {"LT128", BLVL_Q3_AFUNC_LT128},
                                  {"GE128", BLVL_Q3_AFUNC_GE128}};
        if (!a0 || !lookup(a0, f, 3, &st->alpha_func))
            return keep(p, l);
        l->used = 1;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "detail")) {
        st->detail = true;
        l->used = 0;
        return BLVL_OK;
    }
    return keep(p, l);
}
