/* A shader's general keywords (outside its stages): each reads its arguments as the engine
 * does; a keyword not known here, or whose arguments do not read, is kept as "keyword args". */
#include <string.h>

#include "common/error.h"
#include "shader_internal.h"

static blvl_status keep(q3s_parse *p, q3s_line *l) {
    return blvl__import_q3_shader_keep(p, &p->unknown, l,
                                       "a shader with more than 256 unknown keywords");
}

static char *arg_str(q3s_parse *p, const q3s_tok *t) {
    return blvl__import_q3_shader_arena_str(p->ar, t->p, t->n);
}

/* sort: the engine's named values (shaderSort_t) or a number. */
static bool sort_value(const q3s_tok *t, float *out) {
    static const struct {
        const char *name;
        float v;
    } names[] = {{"portal", 1},    {"sky", 2},        {"opaque", 3},
                 {"decal", 4},     {"seeThrough", 5}, {"banner", 6},
                 {"additive", 10}, {"nearest", 16},   {"underwater", 8}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (blvl__import_q3_shader_is(t, names[i].name)) {
            *out = names[i].v;
            return true;
        }
    return blvl__import_q3_shader_num(t, out);
}

static bool deform(const q3s_line *l, blvl_q3_deform *d, uint32_t *used) {
    if (!l->argc)
        return false;
    const q3s_tok *k = &l->arg[0];
    memset(d, 0, sizeof *d);
    if (blvl__import_q3_shader_is(k, "wave")) {
        float div;
        if (l->argc < 2 || !blvl__import_q3_shader_num(&l->arg[1], &div) ||
            !blvl__import_q3_shader_wave(l, 2, &d->wave, used))
            return false;
        d->kind = BLVL_Q3_DEFORM_WAVE;
        d->spread = div != 0 ? 1.0f / div : 100.0f; /* the engine's reading of div 0 */
        return true;
    }
    if (blvl__import_q3_shader_is(k, "normal")) {
        float v[2];
        if (!blvl__import_q3_shader_nums(l, 1, v, 2, used))
            return false;
        d->kind = BLVL_Q3_DEFORM_NORMAL;
        d->wave.amp = v[0];
        d->wave.freq = v[1];
        return true;
    }
    if (blvl__import_q3_shader_is(k, "bulge")) {
        float v[3];
        if (!blvl__import_q3_shader_nums(l, 1, v, 3, used))
            return false;
        d->kind = BLVL_Q3_DEFORM_BULGE;
        d->bulge_width = v[0];
        d->bulge_height = v[1];
        d->bulge_speed = v[2];
        return true;
    }
    if (blvl__import_q3_shader_is(k, "move")) {
        uint32_t at;
        if (!blvl__import_q3_shader_nums(l, 1, d->vector, 3, &at) ||
            !blvl__import_q3_shader_wave(l, at, &d->wave, used))
            return false;
        d->kind = BLVL_Q3_DEFORM_MOVE;
        return true;
    }
    static const struct {
        const char *name;
        uint8_t kind;
    } plain[] = {{"projectionShadow", BLVL_Q3_DEFORM_PROJECTION_SHADOW},
                 {"autosprite", BLVL_Q3_DEFORM_AUTOSPRITE},
                 {"autosprite2", BLVL_Q3_DEFORM_AUTOSPRITE2}};
    for (size_t i = 0; i < 3; i++)
        if (blvl__import_q3_shader_is(k, plain[i].name)) {
            d->kind = plain[i].kind;
            *used = 1;
            return true;
        }
    if (k->n == 5 && (k->p[0] | 32) == 't' && (k->p[1] | 32) == 'e' && (k->p[2] | 32) == 'x' &&
        (k->p[3] | 32) == 't' && k->p[4] >= '0' && k->p[4] <= '7') {
        d->kind = (uint8_t)(BLVL_Q3_DEFORM_TEXT0 + (k->p[4] - '0'));
        *used = 1;
        return true;
    }
    return false;
}

/* cull front | none, twosided, disable | back, backside, backsided (none given: front). */
static blvl_status cull_mode(q3s_parse *p, blvl_q3_shader *sh, q3s_line *l) {
    const q3s_tok *a0 = l->argc ? &l->arg[0] : NULL;
    if (!a0 || blvl__import_q3_shader_is(a0, "front"))
        sh->cull = BLVL_Q3_CULL_FRONT;
    else if (blvl__import_q3_shader_is(a0, "none") || blvl__import_q3_shader_is(a0, "twosided") ||
             blvl__import_q3_shader_is(a0, "disable"))
        sh->cull = BLVL_Q3_CULL_NONE;
    else if (blvl__import_q3_shader_is(a0, "back") || blvl__import_q3_shader_is(a0, "backside") ||
             blvl__import_q3_shader_is(a0, "backsided"))
        sh->cull = BLVL_Q3_CULL_BACK;
    else
        return keep(p, l);
    l->used = a0 ? 1 : 0;
    return BLVL_OK;
}

/* skyParms farbox cloudheight nearbox ("-" for no box). */
static blvl_status sky_parms(q3s_parse *p, blvl_q3_shader *sh, q3s_line *l) {
    const q3s_tok *a0 = l->argc ? &l->arg[0] : NULL;
    float v[1];
    if (l->argc < 1)
        return keep(p, l);
    sh->has_sky = true;
    sh->sky_farbox = NULL;
    sh->sky_nearbox = NULL;
    if (!(a0->n == 1 && a0->p[0] == '-') && !(sh->sky_farbox = arg_str(p, a0)))
        return blvl__nomem(p->err, "shader script");
    /* The engine reads a cloud height of 0 (or "-") as 512. */
    sh->sky_cloud_height = 512;
    if (l->argc > 1 && blvl__import_q3_shader_num(&l->arg[1], &v[0]) && v[0] != 0)
        sh->sky_cloud_height = v[0];
    if (l->argc > 2 && !(l->arg[2].n == 1 && l->arg[2].p[0] == '-') &&
        !(sh->sky_nearbox = arg_str(p, &l->arg[2])))
        return blvl__nomem(p->err, "shader script");
    l->used = l->argc < 3 ? l->argc : 3;
    return BLVL_OK;
}

blvl_status blvl__import_q3_shader_general(q3s_parse *p, blvl_q3_shader *sh, q3s_line *l) {
    const q3s_tok *kw = &l->kw;
    const q3s_tok *a0 = l->argc ? &l->arg[0] : NULL;
    float v[6];
    if (blvl__import_q3_shader_is(kw, "surfaceparm")) {
        if (!a0)
            return keep(p, l);
        if (p->params.count >= BLVL_Q3_SHADER_MAX_LIST)
            return blvl__import_q3_shader_refuse(p, l->offset, "list",
                                                 "a shader with over 256 surfaceparms");
        char *s = arg_str(p, a0);
        if (!s)
            return blvl__nomem(p->err, "shader script");
        p->params.item[p->params.count++] = s;
        l->used = 1;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "cull"))
        return cull_mode(p, sh, l);
    if (blvl__import_q3_shader_is(kw, "sort")) {
        if (!a0 || !sort_value(a0, &sh->sort))
            return keep(p, l);
        sh->has_sort = true;
        l->used = 1;
        return BLVL_OK;
    }
    static const struct {
        const char *name;
        size_t field;
    } flags[] = {{"polygonOffset", offsetof(blvl_q3_shader, polygon_offset)},
                 {"nopicmip", offsetof(blvl_q3_shader, nopicmip)},
                 {"nomipmaps", offsetof(blvl_q3_shader, nomipmaps)},
                 {"entityMergable", offsetof(blvl_q3_shader, entity_mergable)},
                 {"portal", offsetof(blvl_q3_shader, portal)}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (blvl__import_q3_shader_is(kw, flags[i].name)) {
            *(bool *)((char *)sh + flags[i].field) = true;
            l->used = 0;
            return BLVL_OK;
        }
    if (blvl__import_q3_shader_is(kw, "deformVertexes")) {
        blvl_q3_deform d;
        uint32_t used = l->argc;
        /* The engine ignores deforms past its third, and those it cannot read. */
        if (sh->deform_count >= BLVL_Q3_SHADER_MAX_DEFORMS || !deform(l, &d, &used))
            return keep(p, l);
        sh->deforms[sh->deform_count++] = d;
        l->used = used;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "fogParms")) {
        if (!blvl__import_q3_shader_nums(l, 0, v, 4, NULL))
            return keep(p, l);
        memcpy(sh->fog_color, v, sizeof sh->fog_color);
        sh->fog_depth = v[3];
        sh->has_fog = true;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "skyParms"))
        return sky_parms(p, sh, l);
    if (blvl__import_q3_shader_is(kw, "q3map_sun") ||
        blvl__import_q3_shader_is(kw, "q3map_sunExt")) {
        if (!blvl__import_q3_shader_nums(l, 0, v, 6, NULL))
            return keep(p, l);
        memcpy(sh->sun_color, v, sizeof sh->sun_color);
        sh->sun_intensity = v[3];
        sh->sun_degrees = v[4];
        sh->sun_elevation = v[5];
        sh->has_sun = true;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "q3map_surfacelight")) {
        if (!a0 || !blvl__import_q3_shader_num(a0, &v[0]))
            return keep(p, l);
        sh->surface_light = v[0];
        sh->has_surface_light = true;
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "q3map_tessSize") ||
        blvl__import_q3_shader_is(kw, "tessSize")) {
        if (!a0 || !blvl__import_q3_shader_num(a0, &v[0]) || v[0] < 0 || v[0] > 65536)
            return keep(p, l);
        sh->tess_size = (int32_t)v[0];
        return BLVL_OK;
    }
    if (blvl__import_q3_shader_is(kw, "q3map_lightimage") ||
        blvl__import_q3_shader_is(kw, "qer_editorimage")) {
        if (!a0)
            return keep(p, l);
        char *s = arg_str(p, a0);
        if (!s)
            return blvl__nomem(p->err, "shader script");
        if (kw->n == 16)
            sh->light_image = s;
        else
            sh->editor_image = s;
        return BLVL_OK;
    }
    return keep(p, l);
}
