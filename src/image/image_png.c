/* PNG through stb_image (Debian's libstb-dev). The picture's size is read from its IHDR first
 * and must be the described one, so stb never sees a picture past the texel limit. stb allocates
 * through macros that take no context: they reach the caller's allocator through `stb_alloc`, a
 * _Thread_local pointer set only for the duration of one call. stb checks every allocation it
 * makes. */
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "image_internal.h"

static _Thread_local const blvl_allocator *stb_alloc;
/* The largest single buffer a picture of the described size needs (see stb_cap): a deflate
 * stream that inflates past its picture's rows makes stb grow its buffer without end. */
static _Thread_local size_t stb_max;

static void *stb_malloc(size_t n) {
    return n <= stb_max ? blvl__alloc_sized(stb_alloc, n) : NULL;
}

static void stb_free(void *p) {
    if (p)
        blvl__free_sized(stb_alloc, p);
}

static void *stb_realloc(void *p, size_t old, size_t n) {
    void *q = stb_malloc(n);
    if (q && p)
        memcpy(q, p, old < n ? old : n);
    if (q)
        stb_free(p);
    return q;
}

#define STBI_MALLOC(sz) stb_malloc(sz)
#define STBI_REALLOC_SIZED(p, oldsz, newsz) stb_realloc((p), (oldsz), (newsz))
#define STBI_FREE(p) stb_free(p)
#define STBI_ASSERT(x) ((void)0)
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_NO_THREAD_LOCALS
#define STBI_MAX_DIMENSIONS (1 << 24)
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

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

blvl_status blvl__image_png_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h,
                                 blvl_error *err) {
    if (!blvl__image_png_ihdr(d, n, w, h))
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: png data is no PNG with its IHDR first");
    /* Every chunk's data within the file (stb_image 2.27 allocates an IDAT's length before it
     * reads it); a CRC may be missing at the very end, which stb reads as zeros and ignores. */
    bool idat = false;
    for (size_t pos = 8; n - pos >= 8;) {
        size_t len = be32(d + pos);
        if (len > n - pos - 8)
            return blvl__fail(err, BLVL_E_ARGUMENT,
                              "image: png chunk at offset %zu runs past the end", pos);
        /* an empty IDAT before any data: stb offsets its still-NULL buffer (UB) */
        if (!memcmp(d + pos + 4, "IDAT", 4) && !len && !idat)
            return blvl__fail(err, BLVL_E_ARGUMENT, "image: png has an empty first IDAT");
        idat |= !memcmp(d + pos + 4, "IDAT", 4) && len;
        if (!memcmp(d + pos + 4, "IEND", 4) || n - pos - 8 - len < 4)
            break;
        pos += 12 + len;
    }
    return BLVL_OK;
}

blvl_status blvl__image_decode_png(const blvl_image_desc *d, uint32_t height,
                                   const blvl_allocator *a, uint8_t **pixels, blvl_error *err) {
    *pixels = NULL;
    uint32_t hw = d->width, hh = height;
    if (d->size > (size_t)INT32_MAX)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: png data over 2 GiB");
    /* stb's largest buffers: the compressed data gathered (at most twice the file), the
     * inflated rows and the converted pictures (at most 8 bytes a texel, 16-bit RGBA).
     * Generous; a bomb goes far past it. */
    stb_max = 2 * d->size + 16 * ((size_t)d->width + 64) * ((size_t)height + 64) + 65536;
    stb_alloc = a;
    int x = 0, y = 0, comp = 0;
    uint8_t *px = stbi_load_from_memory(d->data, (int)d->size, &x, &y, &comp, 4);
    if (!px) {
        stb_alloc = NULL;
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: png data does not decode");
    }
    size_t bytes = (size_t)x * (size_t)y * 4;
    int same = (uint32_t)x == hw && (uint32_t)y == hh;
    uint8_t *out = same ? blvl__alloc(a, bytes) : NULL;
    if (out)
        memcpy(out, px, bytes);
    stbi_image_free(px);
    stb_alloc = NULL;
    if (!same)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: png data decodes to %dx%d, not %ux%u", x, y,
                          hw, hh);
    if (!out)
        return blvl__nomem(err, "image: %zu bytes of texels", bytes);
    *pixels = out;
    blvl__ok(err);
    return BLVL_OK;
}
