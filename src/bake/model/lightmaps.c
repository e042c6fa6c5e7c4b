/* The model's baked light: the lightmap atlas, the light grid and the sky of profile 0. Each is
 * encoded when it is set (PNG for the lightmap and the sky, raw Rgba8 for the grid), so the
 * caller's pixels need not outlive the call and a write only copies bytes. */
#include <math.h>
#include <string.h>

#include "bake/model/images.h"
#include "bake/model/model.h"
#include "blvl/sections/common.h"
#include "common/alloc.h"
#include "common/error.h"

/* The most bytes one light grid image may hold (the same bound as a PNG's pixels). */
#define BAKE_GRID_MAX_BYTES BAKE_PNG_MAX_BYTES

static void free_lightmap(blvl_bake *b) {
    if (!b->lightmap)
        return;
    if (b->lightmap->png)
        blvl__free_sized(b->al, b->lightmap->png);
    blvl__dealloc(b->al, b->lightmap, sizeof *b->lightmap);
    b->lightmap = NULL;
}

static void free_grid(const blvl_bake *b, bake_grid *g) {
    if (!g)
        return;
    if (g->ambient)
        blvl__free_sized(b->al, g->ambient);
    if (g->directional)
        blvl__free_sized(b->al, g->directional);
    if (g->direction)
        blvl__free_sized(b->al, g->direction);
    blvl__dealloc(b->al, g, sizeof *g);
}

static void free_sky(blvl_bake *b, bake_sky *s) {
    if (!s)
        return;
    blvl__bake_model_str_free(b, s->name);
    if (s->png)
        blvl__free_sized(b->al, s->png);
    blvl__dealloc(b->al, s, sizeof *s);
}

void blvl__bake_model_free_lighting(blvl_bake *b) {
    free_lightmap(b);
    free_grid(b, b->grid);
    b->grid = NULL;
    free_sky(b, b->sky);
    b->sky = NULL;
}

static blvl_status check_encoding(uint8_t encoding, float gain, const char *what, blvl_error *err) {
    if (encoding > blvl_LightmapEncoding_Gamma8)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: %s encoding %u is not a LightmapEncoding",
                          what, encoding);
    if (!isfinite(gain) || gain <= 0.0f)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: %s gain is not finite and positive", what);
    return BLVL_OK;
}

blvl_status blvl_bake_set_lightmap(blvl_bake *b, uint32_t width, uint32_t height, uint32_t layers,
                                   const uint8_t *rgba, uint8_t encoding, float gain,
                                   blvl_error *err) {
    if (!b || !rgba)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: set_lightmap needs a bake and pixels");
    if (b->lightmap)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: set_lightmap called twice");
    blvl_status st = check_encoding(encoding, gain, "lightmap", err);
    if (st != BLVL_OK)
        return st;
    /* The pages are stacked into one picture (schema/common.fbs, Png): its height must fit
     * the PNG bound, and layers the schema's ushort. */
    if (layers == 0 || layers > 0xFFFFu || (uint64_t)height * layers > BAKE_PNG_MAX_SIDE)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: lightmap of %u pages of %u rows: no pages, past 65535 pages or "
                          "past %u rows stacked",
                          layers, height, BAKE_PNG_MAX_SIDE);
    bake_lightmap *lm = blvl__calloc(b->al, sizeof *lm);
    if (!lm)
        return blvl__nomem(err, "bake: the lightmap");
    st = blvl__bake_model_png(b->al, width, height * layers, rgba, &lm->png, &lm->size, err);
    if (st != BLVL_OK) {
        blvl__dealloc(b->al, lm, sizeof *lm);
        return st;
    }
    lm->width = width;
    lm->height = height;
    lm->layers = layers;
    lm->encoding = encoding;
    lm->gain = gain;
    b->lightmap = lm;
    blvl__ok(err);
    return BLVL_OK;
}

/* floor((v * 0.5 + 0.5) * 255 + 0.5) with v clamped to -1..1, in double so any reader that
 * computes the same formula in double gets the same byte. */
static uint8_t quantize(float v) {
    double d = v < -1.0f ? -1.0 : v > 1.0f ? 1.0 : (double)v;
    return (uint8_t)floor((d * 0.5 + 0.5) * 255.0 + 0.5);
}

blvl_status blvl_bake_set_light_grid(blvl_bake *b, const blvl_bake_light_grid *g, blvl_error *err) {
    if (!b || !g || !g->ambient || !g->directional || !g->direction)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: set_light_grid needs a bake, a grid and its three images");
    if (b->grid)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: set_light_grid called twice");
    blvl_status st = check_encoding(g->encoding, g->gain, "light grid", err);
    if (st != BLVL_OK)
        return st;
    if (!blvl__bake_model_finite3(g->origin) || !blvl__bake_model_finite3(g->cell_size) ||
        !(g->cell_size.x > 0.0f) || !(g->cell_size.y > 0.0f) || !(g->cell_size.z > 0.0f))
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: light grid origin not finite or cell size not positive");
    uint64_t cells = (uint64_t)g->width * g->height * g->layers;
    if (cells == 0 || g->layers > 0xFFFFu || cells * 4u > BAKE_GRID_MAX_BYTES)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: light grid %ux%ux%u: empty, past 65535 layers or past %u MiB "
                          "an image",
                          g->width, g->height, g->layers, BAKE_GRID_MAX_BYTES >> 20);
    size_t n = (size_t)cells;
    for (size_t i = 0; i < n; i++)
        if (!blvl__bake_model_finite3(g->direction[i]))
            return blvl__fail(err, BLVL_E_ARGUMENT, "bake: light grid direction %zu not finite", i);
    bake_grid *c = blvl__calloc(b->al, sizeof *c);
    if (c) {
        c->ambient = blvl__alloc_sized(b->al, n * 4u);
        c->directional = blvl__alloc_sized(b->al, n * 4u);
        c->direction = blvl__alloc_sized(b->al, n * 4u);
    }
    if (!c || !c->ambient || !c->directional || !c->direction) {
        free_grid(b, c);
        return blvl__nomem(err, "bake: the light grid");
    }
    /* RGB8 to Rgba8 (alpha 255): the schema has no three-byte encoding. */
    for (size_t i = 0; i < n; i++) {
        memcpy(c->ambient + 4 * i, g->ambient + 3 * i, 3);
        c->ambient[4 * i + 3] = 255;
        memcpy(c->directional + 4 * i, g->directional + 3 * i, 3);
        c->directional[4 * i + 3] = 255;
        c->direction[4 * i + 0] = quantize(g->direction[i].x);
        c->direction[4 * i + 1] = quantize(g->direction[i].y);
        c->direction[4 * i + 2] = quantize(g->direction[i].z);
        c->direction[4 * i + 3] = 255;
    }
    c->origin = g->origin;
    c->cell_size = g->cell_size;
    c->width = g->width;
    c->height = g->height;
    c->layers = g->layers;
    c->encoding = g->encoding;
    c->gain = g->gain;
    b->grid = c;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_set_sky(blvl_bake *b, const char *name, uint32_t size, const uint8_t *rgba,
                              blvl_error *err) {
    if (!b || !rgba)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: set_sky needs a bake and pixels");
    if (b->sky)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: set_sky called twice");
    if (size == 0 || size > BAKE_PNG_MAX_SIDE / 6u)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: sky faces of %u texels: empty or six stacked past %u rows", size,
                          BAKE_PNG_MAX_SIDE);
    bool ok = true;
    bake_sky *s = blvl__calloc(b->al, sizeof *s);
    if (s)
        s->name = blvl__bake_model_str(b, name, &ok);
    if (!s || !ok) {
        free_sky(b, s);
        return blvl__nomem(err, "bake: the sky");
    }
    blvl_status st = blvl__bake_model_png(b->al, size, size * 6u, rgba, &s->png, &s->png_size, err);
    if (st != BLVL_OK) {
        free_sky(b, s);
        return st;
    }
    s->size = size;
    b->sky = s;
    blvl__ok(err);
    return BLVL_OK;
}
