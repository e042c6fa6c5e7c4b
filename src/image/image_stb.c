/* PNG and JPEG through stb_image (Debian's libstb-dev). The picture's size is read from its own
 * header first (PNG's IHDR, JPEG's first frame header) and must be the described one, so stb
 * never sees a picture past the texel limit. stb allocates through macros that take no
 * context: they reach the caller's allocator through `stb_alloc`, a _Thread_local pointer set
 * only for the duration of one call. stb checks every allocation it makes. */
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "image_internal.h"

static _Thread_local const blvl_allocator *stb_alloc;

static void *stb_malloc(size_t n) {
    return blvl__alloc_sized(stb_alloc, n);
}

static void stb_free(void *p) {
    if (p)
        blvl__free_sized(stb_alloc, p);
}

static void *stb_realloc(void *p, size_t old, size_t n) {
    void *q = blvl__alloc_sized(stb_alloc, n);
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
#define STBI_ONLY_JPEG
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

static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

static blvl_status png_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h, blvl_error *err) {
    if (n < 24 || memcmp(d, png_sig, 8) || memcmp(d + 12, "IHDR", 4))
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: png data is no PNG with its IHDR first");
    *w = (uint32_t)d[16] << 24 | (uint32_t)d[17] << 16 | (uint32_t)d[18] << 8 | d[19];
    *h = (uint32_t)d[20] << 24 | (uint32_t)d[21] << 16 | (uint32_t)d[22] << 8 | d[23];
    return BLVL_OK;
}

/* The size in the first frame header (SOFn) of a JPEG, walking the segments before it. */
static blvl_status jpeg_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h,
                             blvl_error *err) {
    if (n < 4 || d[0] != 0xFF || d[1] != 0xD8)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg data is no JPEG (no FF D8)");
    size_t pos = 2;
    for (;;) {
        if (pos >= n || d[pos] != 0xFF)
            break;
        while (pos < n && d[pos] == 0xFF)
            pos++;
        if (pos >= n)
            break;
        uint8_t m = d[pos++];
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD8))
            continue; /* markers without a length */
        if (m == 0xD9 || m == 0xDA || n - pos < 2)
            break;
        size_t len = (size_t)d[pos] << 8 | d[pos + 1];
        if (len < 2 || n - pos < len)
            break;
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (len < 7)
                break;
            *h = (uint32_t)d[pos + 3] << 8 | d[pos + 4];
            *w = (uint32_t)d[pos + 5] << 8 | d[pos + 6];
            return BLVL_OK;
        }
        pos += len;
    }
    return blvl__fail(err, BLVL_E_ARGUMENT,
                      "image: jpeg data has no frame header before its scan or its end");
}

blvl_status blvl__image_decode_stb(const blvl_image_desc *d, uint32_t height,
                                   const blvl_allocator *a, uint8_t **pixels, blvl_error *err) {
    *pixels = NULL;
    int png = d->encoding == BLVL_IMAGE_PNG;
    const char *name = png ? "png" : "jpeg";
    uint32_t hw = 0, hh = 0;
    blvl_status st = png ? png_size(d->data, d->size, &hw, &hh, err)
                         : jpeg_size(d->data, d->size, &hw, &hh, err);
    if (st)
        return st;
    if (hw != d->width || hh != height)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: %s data is %ux%u, described %ux%u", name,
                          hw, hh, d->width, height);
    if (d->size > (size_t)INT32_MAX)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: %s data over 2 GiB", name);
    stb_alloc = a;
    int x = 0, y = 0, comp = 0;
    uint8_t *px = stbi_load_from_memory(d->data, (int)d->size, &x, &y, &comp, 4);
    if (!px) {
        stb_alloc = NULL;
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: %s data does not decode", name);
    }
    size_t bytes = (size_t)x * (size_t)y * 4;
    int same = (uint32_t)x == hw && (uint32_t)y == hh;
    uint8_t *out = same ? blvl__alloc(a, bytes) : NULL;
    if (out)
        memcpy(out, px, bytes);
    stbi_image_free(px);
    stb_alloc = NULL;
    if (!same)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: %s data decodes to %dx%d, not %ux%u", name,
                          x, y, hw, hh);
    if (!out)
        return blvl__fail(err, BLVL_E_NOMEM, "image: %zu bytes of texels", bytes);
    *pixels = out;
    blvl__ok(err);
    return BLVL_OK;
}
