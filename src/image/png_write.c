/* RGBA8 as a PNG: 8-bit RGBA, no interlace, one IDAT. Each row takes the filter (none, sub, up,
 * average, Paeth) whose output has the smallest sum of absolute values, the usual heuristic;
 * zlib deflates, its memory through the caller's allocator. */
#include <string.h>
#include <zlib.h>

#include "common/alloc.h"
#include "common/error.h"
#include "image_internal.h"

static void *z_alloc(void *user, uInt items, uInt size) {
    if (size && items > SIZE_MAX / size)
        return Z_NULL;
    return blvl__alloc_sized(user, (size_t)items * size);
}

static void z_free(void *user, void *p) {
    if (p)
        blvl__free_sized(user, p);
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* A chunk at p: length, type, the `n` data bytes already in place at p + 8, CRC. */
static size_t chunk(uint8_t *p, const char *type, uint32_t n) {
    put32(p, n);
    memcpy(p + 4, type, 4);
    put32(p + 8 + n, (uint32_t)crc32(crc32(0L, Z_NULL, 0), p + 4, n + 4));
    return (size_t)n + 12;
}

static uint8_t paeth(int a, int b, int c) {
    int p = a + b - c, pa = p > a ? p - a : a - p, pb = p > b ? p - b : b - p,
        pc = p > c ? p - c : c - p;
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* Row `cur` (prev = the row above, or NULL) filtered into out[0..n] with out[-1] its type. */
static void filter_row(const uint8_t *cur, const uint8_t *prev, size_t n, uint8_t *out,
                       uint8_t *scratch) {
    uint64_t best = UINT64_MAX;
    for (int f = 0; f < 5; f++) {
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            int a = i >= 4 ? cur[i - 4] : 0, b = prev ? prev[i] : 0,
                c = prev && i >= 4 ? prev[i - 4] : 0;
            int pred = f == 0 ? 0 : f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) / 2 : paeth(a, b, c);
            uint8_t v = (uint8_t)(cur[i] - pred);
            scratch[i] = v;
            sum += v < 128 ? v : 256u - v;
        }
        if (sum < best) {
            best = sum;
            out[-1] = (uint8_t)f;
            memcpy(out, scratch, n);
        }
    }
}

blvl_status blvl_image_write_png(void **out, size_t *out_size, const uint8_t *rgba, uint32_t width,
                                 uint32_t height, const blvl_options *opt, blvl_error *err) {
    if (out)
        *out = NULL;
    if (out_size)
        *out_size = 0;
    if (!rgba || !out || !out_size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: NULL texels or output");
    if (!width || !height || (uint64_t)width * height > BLVL_IMAGE_MAX_TEXELS)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "image: a png of %ux%u (each side >= 1, at most 2^28 texels)", width,
                          height);
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    size_t row = (size_t)width * 4, raw_size = (row + 1) * height;
    uint8_t *raw = blvl__alloc(a, raw_size + row);
    if (!raw)
        return blvl__fail(err, BLVL_E_NOMEM, "image: %zu bytes for png rows", raw_size);
    for (uint32_t y = 0; y < height; y++)
        filter_row(rgba + row * y, y ? rgba + row * (y - 1) : NULL, row, raw + (row + 1) * y + 1,
                   raw + raw_size);
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = z_alloc;
    z.zfree = z_free;
    z.opaque = (void *)a;
    blvl_status st = BLVL_OK;
    uint8_t *png = NULL;
    size_t png_cap = 0;
    if (deflateInit(&z, 6) != Z_OK) {
        st = blvl__fail(err, BLVL_E_NOMEM, "image: zlib's deflate state");
        goto done_raw;
    }
    uLong bound = deflateBound(&z, (uLong)raw_size);
    png_cap = 8 + 25 + 12 + (size_t)bound + 12;
    png = blvl__alloc_sized(a, png_cap);
    if (!png) {
        st = blvl__fail(err, BLVL_E_NOMEM, "image: %zu bytes for a png", png_cap);
        goto done_z;
    }
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    memcpy(png, sig, 8);
    size_t at = 8;
    uint8_t *ihdr = png + at + 8;
    put32(ihdr, width);
    put32(ihdr + 4, height);
    ihdr[8] = 8;  /* bits per channel */
    ihdr[9] = 6;  /* RGBA */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filters */
    ihdr[12] = 0; /* no interlace */
    at += chunk(png + at, "IHDR", 13);
    z.next_in = raw;
    z.avail_in = (uInt)raw_size;
    z.next_out = png + at + 8;
    z.avail_out = (uInt)bound;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
        blvl__free_sized(a, png);
        png = NULL;
        st = blvl__fail(err, BLVL_E_NOMEM, "image: zlib did not finish the png's data");
        goto done_z;
    }
    at += chunk(png + at, "IDAT", (uint32_t)z.total_out);
    at += chunk(png + at, "IEND", 0);
    *out = png;
    *out_size = at;
    blvl__ok(err);
done_z:
    deflateEnd(&z);
done_raw:
    blvl__dealloc(a, raw, raw_size + row);
    return st;
}
