/* Step 2 of blvl_q3_bake: a material for every shader the map names (the shaders lump), from
 * its script shader or, without one, the engine's implicit shader (the image named like it,
 * opaque, lightmapped); the images they use; the sky cubemap and the sun. Fills c->shader[].
 * The rules are the engine's (docs/IMPORT-Q3.md "Materials and images"):
 *   - blend, depth write: the first stage's blendFunc and depthWrite (later stages draw over
 *     it); filter (GL_DST_COLOR GL_ZERO) is Multiply.
 *   - sort: an explicit sort (or portal); a sky 2; polygonOffset 4; a blended first stage 5
 *     with depthWrite, else 9; a shader without stages (a fog) 7; else 3.
 *   - texture: the first stage that maps an image and is not an environment map, else the
 *     first that maps one; its tcMods, waves and animMap frames are the Anim. */
#include <stdio.h>
#include <string.h>

#include "bake_materials.h"
#include "blvl/sections/geometry.h"
#include "common/alloc.h"
#include "common/error.h"

static bool has_param(const blvl_q3_shader *sh, const char *name) {
    for (uint32_t i = 0; sh && i < sh->surface_param_count; i++) {
        const char *a = sh->surface_params[i], *b = name;
        for (; *a && *b; a++, b++) {
            char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
            if (x != *b)
                break;
        }
        if (!*a && !*b)
            return true;
    }
    return false;
}

static uint8_t blend_mode(uint8_t src, uint8_t dst) {
    if (!src || (src == BLVL_Q3_GL_ONE && dst == BLVL_Q3_GL_ZERO))
        return blvl_BlendMode_Opaque;
    if (dst == BLVL_Q3_GL_ONE)
        return src == BLVL_Q3_GL_SRC_ALPHA ? blvl_BlendMode_AlphaAdditive : blvl_BlendMode_Additive;
    if ((src == BLVL_Q3_GL_DST_COLOR && (dst == BLVL_Q3_GL_ZERO || dst == BLVL_Q3_GL_SRC_COLOR)) ||
        (src == BLVL_Q3_GL_ZERO && dst == BLVL_Q3_GL_SRC_COLOR))
        return blvl_BlendMode_Multiply;
    if (src == BLVL_Q3_GL_ONE && dst == BLVL_Q3_GL_ONE_MINUS_SRC_ALPHA)
        return blvl_BlendMode_Premultiplied;
    return blvl_BlendMode_Alpha;
}

static const blvl_q3_stage *base_stage(const blvl_q3_shader *sh) {
    const blvl_q3_stage *first = NULL;
    for (uint32_t i = 0; sh && i < sh->stage_count; i++) {
        const blvl_q3_stage *s = &sh->stages[i];
        if (s->map_kind != BLVL_Q3_MAP_IMAGE && s->map_kind != BLVL_Q3_MAP_ANIM)
            continue;
        if (s->tc_gen != BLVL_Q3_TCGEN_ENVIRONMENT)
            return s;
        if (!first)
            first = s;
    }
    return first;
}

static float sort_key(const blvl_q3_shader *sh, bool sky) {
    float sort = 0;
    if (sh->has_sort)
        sort = sh->sort;
    else if (sh->portal)
        sort = 1;
    if (sky)
        return 2;
    if (sh->polygon_offset && sort == 0)
        sort = 4;
    if (sort == 0 && sh->stage_count && sh->stages[0].blend_src) {
        for (uint32_t i = 0; i < sh->stage_count; i++)
            if (sh->stages[i].blend_src && sh->stages[i].depth_write)
                return 5;
        return 9;
    }
    if (sort == 0 && !sh->stage_count)
        return 7;
    return sort == 0 ? 3 : sort;
}

/* The average colour of a light image, normalised to its largest component (q3map2's). */
static blvl_status emit_color(q3_materials *m, const blvl_q3_shader *sh, const char *texture,
                              blvl_Vec3 *out) {
    const char *name = sh->light_image    ? sh->light_image
                       : sh->editor_image ? sh->editor_image
                                          : texture;
    out->x = out->y = out->z = 1;
    uint8_t *px = NULL;
    uint32_t w = 0, h = 0;
    blvl_status st = blvl__import_q3_mat_pixels(m, name, &px, &w, &h);
    if (st || !px)
        return st;
    double sum[3] = {0, 0, 0};
    size_t n = (size_t)w * h;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            sum[k] += px[i * 4 + k];
    blvl__dealloc(&m->c->opt->allocator, px, n * 4);
    double mx = sum[0] > sum[1] ? sum[0] : sum[1];
    mx = mx > sum[2] ? mx : sum[2];
    if (mx > 0) {
        out->x = (float)(sum[0] / mx);
        out->y = (float)(sum[1] / mx);
        out->z = (float)(sum[2] / mx);
    }
    return BLVL_OK;
}

/* The unknown keywords of the shader and its stages, and what Anim could not carry. */
static blvl_status unknowns(q3_materials *m, const blvl_q3_shader *sh, const q3m_anim *an,
                            const char ***out, uint32_t *count) {
    uint32_t n = sh->unknown_count + an->extra_count;
    for (uint32_t i = 0; i < sh->stage_count; i++)
        n += sh->stages[i].unknown_count;
    *out = NULL;
    *count = 0;
    if (!n)
        return BLVL_OK;
    const char **list = blvl__calloc_n(&m->c->opt->allocator, n, sizeof *list);
    if (!list)
        return blvl__nomem(m->c->err, "the bake's scratch memory");
    uint32_t k = 0;
    for (uint32_t i = 0; i < sh->unknown_count; i++)
        list[k++] = sh->unknown[i];
    for (uint32_t s = 0; s < sh->stage_count; s++)
        for (uint32_t i = 0; i < sh->stages[s].unknown_count; i++)
            list[k++] = sh->stages[s].unknown[i];
    for (uint32_t i = 0; i < an->extra_count; i++)
        list[k++] = an->extra[i];
    /* The report counts keywords the bake does not read; what Anim cannot carry was read. */
    for (uint32_t i = 0; i < n - an->extra_count; i++) {
        blvl_status st = blvl__import_q3_mat_keyword(m, list[i]);
        if (st) {
            blvl__dealloc(&m->c->opt->allocator, list, n * sizeof *list);
            return st;
        }
    }
    *out = list;
    *count = n;
    return BLVL_OK;
}

static blvl_status one(q3_materials *m, uint32_t i, q3m_anim *an, bool drawn) {
    q3_ctx *c = m->c;
    const blvl_q3_shader_ref *ref = &c->bsp->shaders[i];
    const blvl_q3_shader *sh = m->shaders ? blvl_q3_shaders_find(m->shaders, ref->name) : NULL;
    q3_shader_info *info = &c->shader[i];
    uint32_t sf = ref->surface_flags, ct = ref->contents;
    info->nodraw = (sf & (BLVL_Q3_SURF_NODRAW | BLVL_Q3_SURF_SKIP | BLVL_Q3_SURF_HINT)) ||
                   has_param(sh, "nodraw") || has_param(sh, "skip") || has_param(sh, "hint");
    info->sky = (sf & BLVL_Q3_SURF_SKY) || has_param(sh, "sky") || (sh && sh->has_sky);
    info->fog = (ct & BLVL_Q3_CONTENTS_FOG) || has_param(sh, "fog") || (sh && sh->has_fog);
    if (sh && sh->has_fog) {
        memcpy(info->fog_color, sh->fog_color, sizeof info->fog_color);
        info->fog_depth = sh->fog_depth;
    }
    info->two_sided = sh && sh->cull == BLVL_Q3_CULL_NONE;
    info->tess_size = sh ? sh->tess_size : 0;
    bool lightmap_stage = false;
    for (uint32_t s = 0; sh && s < sh->stage_count; s++)
        lightmap_stage |= sh->stages[s].map_kind == BLVL_Q3_MAP_LIGHTMAP;
    info->vertex_lit =
        (sf & BLVL_Q3_SURF_NOLIGHTMAP) || (sh && sh->stage_count && !lightmap_stage && !info->sky);

    blvl_bake_material mat;
    blvl_bake_material_init(&mat);
    mat.name = ref->name;
    mat.source_name = ref->name;
    mat.sky = info->sky;
    mat.two_sided = info->two_sided;
    mat.vertex_lit = info->vertex_lit;
    mat.water = (ct & BLVL_Q3_CONTENTS_WATER) || has_param(sh, "water");
    const blvl_q3_stage *base = base_stage(sh);
    const char *texture = sh ? NULL : ref->name; /* the implicit shader's image */
    if (base)
        texture = base->map_kind == BLVL_Q3_MAP_ANIM ? base->frames[0] : base->map;
    mat.source_texture = info->nodraw ? NULL : texture;
    blvl_status st = BLVL_OK;
    /* A shader never drawn uses no image: looking one up would only report it missing (q3map2
     * names brush sides and flares "noshader" or "textures/NULL", which no surface draws). */
    drawn = drawn && !info->nodraw;
    if (texture && drawn && (st = blvl__import_q3_mat_image(m, texture, &mat.texture)))
        return st;
    bool has_anim = false;
    memset(an, 0, sizeof *an);
    const char **unknown = NULL;
    uint32_t unknown_count = 0;
    if (sh) {
        mat.source_shader = sh->script;
        const blvl_q3_stage *s0 = sh->stage_count ? &sh->stages[0] : NULL;
        mat.sort = sort_key(sh, info->sky);
        if (s0) {
            mat.blend = blend_mode(s0->blend_src, s0->blend_dst);
            mat.depth_write = !s0->blend_src || s0->depth_write;
        }
        for (uint32_t s = 0; s < sh->stage_count; s++) {
            uint8_t f = sh->stages[s].alpha_func;
            if (!f || mat.alpha_test)
                continue;
            mat.alpha_test = f == BLVL_Q3_AFUNC_GT0     ? blvl_AlphaTest_Greater
                             : f == BLVL_Q3_AFUNC_LT128 ? blvl_AlphaTest_Less
                                                        : blvl_AlphaTest_GreaterEqual;
            mat.alpha_ref = f == BLVL_Q3_AFUNC_GT0 ? 0.0f : 0.5f;
        }
        for (uint32_t s = 0; s < sh->stage_count; s++)
            mat.env_map |= sh->stages[s].tc_gen == BLVL_Q3_TCGEN_ENVIRONMENT;
        mat.polygon_offset = sh->polygon_offset;
        mat.surface_params = sh->surface_params;
        mat.surface_param_count = sh->surface_param_count;
        if (sh->has_surface_light && sh->surface_light > 0) {
            mat.emits = true;
            mat.emit_intensity = sh->surface_light;
            if ((st = emit_color(m, sh, texture, &mat.emit_color)))
                return st;
        }
        if (drawn && (st = blvl__import_q3_mat_anim(m, sh, base, an, &has_anim)))
            return st;
        if ((st = unknowns(m, sh, an, &unknown, &unknown_count)))
            return st;
        mat.unknown_keywords = unknown;
        mat.unknown_keyword_count = unknown_count;
        if (info->sky && drawn && (st = blvl__import_q3_mat_sky(m, sh)) == BLVL_OK)
            blvl__import_q3_mat_sun(m, sh);
    }
    mat.anim = has_anim ? &an->anim : NULL;
    if (st == BLVL_OK)
        st = blvl_bake_add_material(c->b, &mat, &info->material, c->err);
    info->source_material = info->material;
    if (unknown)
        blvl__dealloc(&c->opt->allocator, unknown, unknown_count * sizeof *unknown);
    return st;
}

/* A search path that holds no file at all (the command line makes one when no archive is
 * given) reads as none: no shader script is loaded, and every image is missing. */
static blvl_status empty_fs(q3_ctx *c, bool *empty) {
    char **names = NULL;
    size_t count = 0;
    *empty = false;
    blvl_status st = blvl_q3_fs_list(&names, &count, c->o->fs, "", "", c->err);
    if (st)
        return st;
    blvl_free(blvl_q3_fs_options(c->o->fs), names);
    *empty = count == 0;
    return BLVL_OK;
}

blvl_status blvl__import_q3_mat_materials(q3_ctx *c) {
    q3_materials m = {.c = c};
    blvl_status st = BLVL_OK;
    bool empty = false;
    if (c->o->fs && (st = empty_fs(c, &empty)))
        return st;
    /* An empty search path: the same context (it shares every pointer) without it. */
    q3_ctx quiet;
    blvl_q3_bake_options no_fs;
    if (empty) {
        no_fs = *c->o;
        no_fs.fs = NULL;
        quiet = *c;
        quiet.o = &no_fs;
        c = m.c = &quiet;
    }
    if (c->o->fs) {
        if ((st = blvl_q3_shaders_new(&m.shaders, c->opt, c->err)))
            return st;
        st = blvl_q3_shaders_load(m.shaders, c->o->fs, c->err);
    }
    q3m_anim *an = blvl__alloc(&c->opt->allocator, sizeof *an);
    if (!an && st == BLVL_OK)
        st = blvl__nomem(c->err, "the bake's scratch memory");
    /* Which shaders a drawn surface (planar, triangle soup, patch) uses. */
    const blvl_q3_bsp *bsp = c->bsp;
    bool *drawn = blvl__calloc_n(&c->opt->allocator, bsp->shader_count + 1u, sizeof *drawn);
    if (!drawn && st == BLVL_OK)
        st = blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t k = 0; drawn && k < bsp->surface_count; k++) {
        const blvl_q3_surface *sf = &bsp->surfaces[k];
        if (sf->type >= BLVL_Q3_MST_PLANAR && sf->type <= BLVL_Q3_MST_TRIANGLE_SOUP &&
            sf->shader >= 0 && (uint32_t)sf->shader < bsp->shader_count)
            drawn[sf->shader] = true;
    }
    for (uint32_t i = 0; st == BLVL_OK && i < bsp->shader_count; i++)
        st = one(&m, i, an, drawn[i]);
    if (drawn)
        blvl__dealloc(&c->opt->allocator, drawn, (bsp->shader_count + 1u) * sizeof *drawn);
    /* A map whose sky shader has no sun may name one in another shader (q3map2 reads any). */
    for (uint32_t i = 0; st == BLVL_OK && !m.sun_done && m.shaders && i < bsp->shader_count; i++) {
        const blvl_q3_shader *sh = blvl_q3_shaders_find(m.shaders, bsp->shaders[i].name);
        if (sh)
            blvl__import_q3_mat_sun(&m, sh);
    }
    if (an)
        blvl__dealloc(&c->opt->allocator, an, sizeof *an);
    blvl__import_q3_mat_images_free(&m);
    blvl_q3_shaders_free(m.shaders);
    return st;
}
