/* The model's drawable adds: images, materials and surfaces. */
#include <math.h>
#include <string.h>

#include "bake/model/images.h"
#include "bake/model/fast.h"
#include "bake/model/material_ext.h"
#include "bake/model/model.h"
#include "blvl/sections/geometry.h"
#include "common/alloc.h"
#include "common/error.h"

/* Takes `data` (blvl__alloc_sized) whatever happens. */
static blvl_status push_image(blvl_bake *b, const char *name, uint32_t width, uint32_t height,
                              uint8_t encoding, uint8_t color_space, uint8_t *data, size_t size,
                              uint32_t *index, blvl_error *err) {
    bool ok = true;
    bake_image im = {.width = width,
                     .height = height,
                     .encoding = encoding,
                     .color_space = color_space,
                     .data = data,
                     .size = size};
    im.name = blvl__bake_model_str(b, name, &ok);
    blvl_status st =
        ok ? BAKE_RESERVE(b, b->images, 1, err) : blvl__nomem(err, "bake: copying an image");
    if (st != BLVL_OK) {
        blvl__bake_model_str_free(b, im.name);
        if (data)
            blvl__free_sized(b->al, data);
        return st;
    }
    if (index)
        *index = b->images.n;
    b->images.p[b->images.n++] = im;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_add_image_rgba8(blvl_bake *b, const char *name, uint32_t width,
                                      uint32_t height, const uint8_t *rgba, bool srgb,
                                      uint32_t *index, blvl_error *err) {
    if (!b || !rgba)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_image_rgba8 needs a bake and pixels");
    uint8_t *png = NULL;
    size_t size = 0;
    blvl_status st = blvl__bake_model_png(b->al, width, height, rgba, &png, &size, err);
    if (st != BLVL_OK)
        return st;
    return push_image(b, name, width, height, blvl_ImageEncoding_Png,
                      srgb ? blvl_ColorSpace_Srgb : blvl_ColorSpace_Linear, png, size, index, err);
}

blvl_status blvl_bake_add_image_encoded(blvl_bake *b, const char *name, uint32_t width,
                                        uint32_t height, uint8_t encoding, uint8_t color_space,
                                        const void *bytes, size_t size, uint32_t *index,
                                        blvl_error *err) {
    if (!b || (size && !bytes))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_image_encoded needs a bake and bytes");
    if (encoding > blvl_ImageEncoding_Bc7 || color_space > blvl_ColorSpace_Srgb)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: image encoding %u or colour space %u unknown", encoding,
                          color_space);
    if (size > 0x7FFFFFFFu)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: an image of %zu bytes is past 2 GiB", size);
    uint8_t *copy = NULL;
    if (size) {
        copy = blvl__alloc_sized(b->al, size);
        if (!copy)
            return blvl__nomem(err, "bake: copying an image");
        memcpy(copy, bytes, size);
    }
    return push_image(b, name, width, height, encoding, color_space, copy, size, index, err);
}

void blvl_bake_material_init(blvl_bake_material *m) {
    if (!m)
        return;
    memset(m, 0, sizeof *m);
    m->texture = BLVL_BAKE_NONE;
    m->sort = 3.0f;
    m->depth_write = true;
    m->alpha_ref = 0.5f;
}

blvl_status blvl_bake_add_material(blvl_bake *b, const blvl_bake_material *m, uint32_t *index,
                                   blvl_error *err) {
    if (!b || !m)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_material needs a bake and a material");
    blvl_status st = blvl__bake_model_check_index(m->texture, b->images.n, "material texture", err);
    if (st != BLVL_OK)
        return st;
    /* The sort key orders batches: a NaN would make the order depend on the sort's path. */
    if (!isfinite(m->sort) || !isfinite(m->alpha_ref))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material sort or alpha_ref not finite");
    if (m->blend > blvl_BlendMode_Premultiplied || m->alpha_test > blvl_AlphaTest_GreaterEqual)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: material blend %u or alpha test %u unknown",
                          m->blend, m->alpha_test);
    if ((st = blvl__bake_model_material_ext_check(b, m, err)) != BLVL_OK ||
        (st = BAKE_RESERVE(b, b->materials, 1, err)) != BLVL_OK)
        return st;
    bool ok = true;
    blvl_bake_material c = *m;
    c.name = blvl__bake_model_str(b, m->name, &ok);
    c.source_name = blvl__bake_model_str(b, m->source_name, &ok);
    c.source_texture = blvl__bake_model_str(b, m->source_texture, &ok);
    ok = ok && blvl__bake_model_material_ext_copy(b, &c, m);
    if (!ok) {
        blvl__bake_model_str_free(b, (char *)c.name);
        blvl__bake_model_str_free(b, (char *)c.source_name);
        blvl__bake_model_str_free(b, (char *)c.source_texture);
        return blvl__nomem(err, "bake: copying a material");
    }
    if (index)
        *index = b->materials.n;
    b->materials.p[b->materials.n++] = c;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl_bake_surface_init(blvl_bake_surface *s) {
    if (!s)
        return;
    memset(s, 0, sizeof *s);
    s->material = BLVL_BAKE_NONE;
    s->door = BLVL_BAKE_NONE;
    s->breakable = BLVL_BAKE_NONE;
    s->fog = BLVL_BAKE_NONE;
    s->gametypes = BLVL_BAKE_ALL_GAMETYPES;
    s->source = BLVL_BAKE_NONE;
}

/* `made`: its vertices come later (the write checks them as it makes them). */
static blvl_status check_surface(const blvl_bake *b, const blvl_bake_surface *s, bool made,
                                 blvl_error *err) {
    blvl_status st;
    if (s->index_count % 3u)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: surface index_count %u is not a multiple of 3", s->index_count);
    if ((s->vertex_count && !s->vertices && !made) || (s->index_count && !s->indices))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: surface vertices or indices NULL");
    if ((st = blvl__bake_model_check_index(s->material, b->materials.n, "surface material", err)) ||
        (st = blvl__bake_model_check_index(s->door, b->doors.n, "surface door", err)) ||
        (st = blvl__bake_model_check_index(s->fog, b->fogs.n, "surface fog", err)) ||
        (st = blvl__bake_model_check_index(s->source, b->sources.n, "surface source", err)))
        return st;
    /* No breakables table in the model yet: only "none" names something. */
    if (s->breakable != BLVL_BAKE_NONE)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: surface breakable %u names nothing",
                          s->breakable);
    for (uint32_t i = 0; i < s->index_count; i++)
        if (s->indices[i] >= s->vertex_count)
            return blvl__fail(err, BLVL_E_ARGUMENT,
                              "bake: surface index %u at %u is past its %u vertices", s->indices[i],
                              i, s->vertex_count);
    for (uint32_t i = 0; i < s->vertex_count && !made; i++)
        if (!blvl__bake_model_vertex_finite(&s->vertices[i]))
            return blvl__fail(err, BLVL_E_ARGUMENT, "bake: surface vertex %u not finite", i);
    return BLVL_OK;
}

bool blvl__bake_model_vertex_finite(const blvl_bake_vertex *v) {
    for (int k = 0; k < 3; k++)
        if (!isfinite(v->position[k]) || !isfinite(v->normal[k]))
            return false;
    for (int k = 0; k < 2; k++)
        if (!isfinite(v->uv[k]) || !isfinite(v->lightmap_uv[k]))
            return false;
    return true;
}

/* make: NULL for a surface whose vertices are given, else a made surface's (fast.h), whose
 * vertices no table holds but the section's indices still number. */
static blvl_status add_surface(blvl_bake *b, const blvl_bake_surface *s, blvl__bake_make_fn make,
                               const void *ctx, blvl_error *err) {
    blvl_status st = check_surface(b, s, make != NULL, err);
    if (st != BLVL_OK)
        return st;
    if (make && (uint64_t)b->vertices.n + b->made_vertices + s->vertex_count > BLVL_BAKE_NONE - 1u)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: more than %u vertices in one level",
                          BLVL_BAKE_NONE - 1u);
    uint32_t held = make ? 0 : s->vertex_count; /* vertices the model's table takes */
    /* Written in place (blvl__bake_model_surface_room): the room is there, nothing to copy. */
    /* (p is NULL before the first reservation: no offset is applied to it then.) */
    bool vin = held && b->vertices.p && s->vertices == b->vertices.p + b->vertices.n &&
               held <= b->vertices.cap - b->vertices.n;
    bool iin = s->index_count && b->indices.p && s->indices == b->indices.p + b->indices.n &&
               s->index_count <= b->indices.cap - b->indices.n;
    if ((st = BAKE_RESERVE(b, b->vertices, held, err)) ||
        (st = BAKE_RESERVE(b, b->indices, s->index_count, err)) ||
        (st = BAKE_RESERVE(b, b->surfaces, 1, err)))
        return st;
    bake_surface r = {.first_vertex = b->vertices.n,
                      .vertex_count = s->vertex_count,
                      .first_index = b->indices.n,
                      .index_count = s->index_count,
                      .material = s->material,
                      .door = s->door,
                      .breakable = s->breakable,
                      .fog = s->fog,
                      .gametypes = s->gametypes,
                      .source = s->source,
                      .first_tri_source = BLVL_BAKE_NONE,
                      .lightmap_layer = s->lightmap_layer,
                      .make = make,
                      .make_ctx = ctx};
    if (held && !vin)
        memcpy(b->vertices.p + b->vertices.n, s->vertices, held * sizeof *s->vertices);
    if (s->index_count && !iin)
        memcpy(b->indices.p + b->indices.n, s->indices, s->index_count * sizeof *s->indices);
    b->vertices.n += held;
    b->made_vertices += s->vertex_count - held;
    b->indices.n += s->index_count;
    b->surfaces.p[b->surfaces.n++] = r;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_add_surface(blvl_bake *b, const blvl_bake_surface *s, blvl_error *err) {
    if (!b || !s)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_surface needs a bake and a surface");
    return add_surface(b, s, NULL, NULL, err);
}

blvl_status blvl__bake_model_surface_room(blvl_bake *b, uint32_t vertex_count, uint32_t index_count,
                                          blvl_bake_vertex **vertices, uint32_t **indices,
                                          blvl_error *err) {
    if (!b || !vertices || !indices)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: surface_room needs a bake and outputs");
    blvl_status st;
    if ((st = BAKE_RESERVE(b, b->vertices, vertex_count, err)) ||
        (st = BAKE_RESERVE(b, b->indices, index_count, err)) ||
        (st = BAKE_RESERVE(b, b->surfaces, 1, err)))
        return st;
    *vertices = b->vertices.p ? b->vertices.p + b->vertices.n : NULL; /* NULL: nothing asked */
    *indices = b->indices.p ? b->indices.p + b->indices.n : NULL;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl__bake_model_tri_source_room(blvl_bake *b, uint32_t count, uint32_t **tri_sources,
                                             blvl_error *err) {
    if (!b || !tri_sources)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: tri_source_room needs a bake and an output");
    blvl_status st = BAKE_RESERVE(b, b->tri_sources, count, err);
    if (st != BLVL_OK)
        return st;
    *tri_sources = b->tri_sources.p ? b->tri_sources.p + b->tri_sources.n : NULL;
    blvl__ok(err);
    return BLVL_OK;
}

/* A surface with one source per triangle (make: NULL, or a made surface's). */
static blvl_status add_surface_tris(blvl_bake *b, const blvl_bake_surface *s,
                                    const uint32_t *tri_sources, blvl__bake_make_fn make,
                                    const void *ctx, blvl_error *err) {
    uint32_t nt = s->index_count / 3u;
    for (uint32_t t = 0; t < nt; t++) {
        blvl_status st =
            blvl__bake_model_check_index(tri_sources[t], b->sources.n, "triangle source", err);
        if (st != BLVL_OK)
            return st;
    }
    /* Written in place (blvl__bake_model_tri_source_room): nothing to copy. */
    bool in = nt && b->tri_sources.p && tri_sources == b->tri_sources.p + b->tri_sources.n &&
              nt <= b->tri_sources.cap - b->tri_sources.n;
    blvl_status st = BAKE_RESERVE(b, b->tri_sources, nt, err);
    if (st != BLVL_OK)
        return st;
    blvl_bake_surface one = *s;
    one.source = BLVL_BAKE_NONE;
    if ((st = add_surface(b, &one, make, ctx, err)) != BLVL_OK)
        return st;
    if (nt && !in)
        memcpy(b->tri_sources.p + b->tri_sources.n, tri_sources, nt * sizeof *tri_sources);
    b->surfaces.p[b->surfaces.n - 1].first_tri_source = b->tri_sources.n;
    b->tri_sources.n += nt;
    return BLVL_OK;
}

blvl_status blvl__bake_model_add_surface_tris(blvl_bake *b, const blvl_bake_surface *s,
                                              const uint32_t *tri_sources, blvl_error *err) {
    if (!b || !s || (s->index_count >= 3 && !tri_sources))
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: add_surface_tris needs a bake, a surface and its sources");
    return add_surface_tris(b, s, tri_sources, NULL, NULL, err);
}

blvl_status blvl__bake_model_add_surface_made(blvl_bake *b, const blvl_bake_surface *s,
                                              const uint32_t *tri_sources, blvl__bake_make_fn make,
                                              const void *ctx, blvl_error *err) {
    if (!b || !s || !make)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: add_surface_made needs a bake, a surface and a maker");
    if (s->vertices)
        return blvl__fail(
            err, BLVL_E_ARGUMENT,
            "bake: a made surface's vertices are made, not given (vertices not NULL)");
    if (s->door != BLVL_BAKE_NONE)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: a made surface cannot move with a door (door %u)", s->door);
    if (!tri_sources)
        return add_surface(b, s, make, ctx, err);
    return add_surface_tris(b, s, tri_sources, make, ctx, err);
}
