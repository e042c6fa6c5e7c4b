/* Pixels of any image the bake reads (the sky's faces, a light image's average colour): TGA
 * by image_tga.c, JPEG and PNG by stb_image (Debian's libstb-dev). stb allocates through
 * macros that take no context: they reach the caller's allocator through `dec_current`, a
 * _Thread_local pointer set only for the duration of one call. stb_image checks every
 * allocation it makes, so a failure returns NULL. */
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "image_internal.h"

static _Thread_local const blvl_allocator *dec_current;

static void *dec_malloc(size_t n) {
    return blvl__alloc_sized(dec_current, n);
}

static void dec_free(void *p) {
    if (p)
        blvl__free_sized(dec_current, p);
}

static void *dec_realloc(void *p, size_t old, size_t n) {
    void *q = blvl__alloc_sized(dec_current, n);
    if (q && p)
        memcpy(q, p, old < n ? old : n);
    if (q)
        dec_free(p);
    return q;
}

#define STBI_MALLOC(sz) dec_malloc(sz)
#define STBI_REALLOC_SIZED(p, oldsz, newsz) dec_realloc((p), (oldsz), (newsz))
#define STBI_FREE(p) dec_free(p)
#define STBI_ASSERT(x) ((void)0)
#define STBI_ONLY_JPEG
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_NO_THREAD_LOCALS
#define STBI_MAX_DIMENSIONS 8192
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
/* stb declares functions this file neither uses nor (with the ONLY/NO options) defines; the
 * compiler warns about those at the end of the file, so this one stays off for all of it. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wtype-limits"
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

blvl_status blvl__q3i_decode(const uint8_t *data, size_t size, const char *name,
                             const blvl_allocator *a, uint8_t **rgba, uint32_t *w, uint32_t *h,
                             blvl_error *err) {
    *rgba = NULL;
    *w = *h = 0;
    int kind = blvl__q3i_kind(data, size);
    if (kind == Q3I_TGA)
        return blvl__q3i_tga(data, size, name, a, rgba, w, h, err);
    /* The size from the headers first, so stb never sees an image past the limits. */
    uint32_t hw, hh;
    blvl_status st = kind == Q3I_JPEG ? blvl__q3i_jpeg_size(data, size, name, &hw, &hh, err)
                                      : blvl__q3i_png_size(data, size, name, &hw, &hh, err);
    if (st)
        return st;
    if (size > (size_t)INT32_MAX)
        return blvl__fail_source(err, name, "file", 0, "size", "an image file over 2 GiB");
    dec_current = a;
    int x = 0, y = 0, comp = 0;
    uint8_t *px = stbi_load_from_memory(data, (int)size, &x, &y, &comp, 4);
    if (!px) {
        dec_current = NULL;
        return blvl__fail_source(err, name, "data", 0, "decode", "the image does not decode");
    }
    size_t bytes = (size_t)x * (size_t)y * 4;
    uint8_t *out = (uint32_t)x == hw && (uint32_t)y == hh ? blvl__alloc(a, bytes) : NULL;
    if (out)
        memcpy(out, px, bytes);
    stbi_image_free(px);
    dec_current = NULL;
    if (!out) {
        if ((uint32_t)x != hw || (uint32_t)y != hh)
            return blvl__fail_source(err, name, "data", 0, "decode",
                                     "the decoded size differs from the header's");
        return blvl__fail(err, BLVL_E_NOMEM, "nomem: image %s", name);
    }
    *rgba = out;
    *w = hw;
    *h = hh;
    blvl__ok(err);
    return BLVL_OK;
}
