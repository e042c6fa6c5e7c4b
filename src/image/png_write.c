/* RGBA8 as a PNG: the one PNG writer (the bake's atlases and lightmaps, export, probe).
 *
 * The bytes are those stb_image_write 1.16 (public domain, Sean Barrett) writes with its
 * defaults, which every baked level so far holds: 8-bit RGBA, no interlace, one IDAT; each row
 * takes the filter (none, sub, up, average, Paeth) whose bytes, read as signed, have the
 * smallest sum of absolute values (the first such); on the first row up is none, average and
 * Paeth see a zero row above. Deflate is stb's: one block of fixed Huffman codes, matches found
 * through 16384 hash buckets of at most 16 earlier positions (the oldest 8 dropped when full),
 * the longest match taken (the newest on a tie) unless the next byte starts a longer one, and
 * stored blocks instead when that comes out larger. Unlike stb, every allocation is checked and
 * returned from, so the caller's allocator may fail at any point (no longjmp). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "image/png_write.h"
#include "image_internal.h"

#define ZHASH 16384u
#define BUCKET 16u /* stb: 2 * quality, quality 8 */

/* The compressed stream: bytes through the common array, bits gathered LSB first. */
typedef struct zout {
    const blvl_allocator *a;
    blvl__array bytes;
    uint32_t bitbuf;
    int bitcount;
    int nomem;
} zout;

static void put_byte(zout *z, uint8_t b) {
    if (!z->nomem && !blvl__array_push(z->a, &z->bytes, &b))
        z->nomem = 1;
}

static void add_bits(zout *z, uint32_t code, int bits) {
    z->bitbuf |= code << z->bitcount;
    z->bitcount += bits;
    while (z->bitcount >= 8) {
        put_byte(z, (uint8_t)z->bitbuf);
        z->bitbuf >>= 8;
        z->bitcount -= 8;
    }
}

static uint32_t bitrev(uint32_t code, int bits) {
    uint32_t r = 0;
    while (bits--) {
        r = (r << 1) | (code & 1);
        code >>= 1;
    }
    return r;
}

/* A literal/length symbol in the fixed code. */
static void huff(zout *z, uint32_t n) {
    if (n <= 143)
        add_bits(z, bitrev(0x30 + n, 8), 8);
    else if (n <= 255)
        add_bits(z, bitrev(0x190 + n - 144, 9), 9);
    else if (n <= 279)
        add_bits(z, bitrev(n - 256, 7), 7);
    else
        add_bits(z, bitrev(0xc0 + n - 280, 8), 8);
}

static uint32_t zhash(const uint8_t *d) {
    uint32_t h = (uint32_t)d[0] + ((uint32_t)d[1] << 8) + ((uint32_t)d[2] << 16);
    h ^= h << 3;
    h += h >> 5;
    h ^= h << 4;
    h += h >> 17;
    h ^= h << 25;
    h += h >> 6;
    return h & (ZHASH - 1);
}

static uint32_t match_len(const uint8_t *a, const uint8_t *b, size_t limit) {
    uint32_t i = 0;
    while (i < limit && i < 258 && a[i] == b[i])
        i++;
    return i;
}

/* zlib stream of data[0..n) into z (n < 2^31: the callers' size limits). */
static void deflate_stb(zout *z, const uint8_t *data, size_t n, uint32_t *pos, uint8_t *count) {
    static const uint16_t lengthc[] = {3,  4,  5,  6,   7,   8,   9,   10,  11,  13,
                                       15, 17, 19, 23,  27,  31,  35,  43,  51,  59,
                                       67, 83, 99, 115, 131, 163, 195, 227, 258, 259};
    static const uint8_t lengtheb[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                       2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    static const uint16_t distc[] = {1,    2,    3,    4,     5,     7,     9,    13,
                                     17,   25,   33,   49,    65,    97,    129,  193,
                                     257,  385,  513,  769,   1025,  1537,  2049, 3073,
                                     4097, 6145, 8193, 12289, 16385, 24577, 32768};
    static const uint8_t disteb[] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                     6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
    put_byte(z, 0x78); /* deflate, 32K window */
    put_byte(z, 0x5e); /* FLEVEL 1 */
    add_bits(z, 1, 1); /* BFINAL */
    add_bits(z, 1, 2); /* fixed Huffman */
    size_t i = 0;
    while (n > 3 && i < n - 3 && !z->nomem) {
        uint32_t h = zhash(data + i), best = 3;
        const uint8_t *bestloc = NULL;
        for (uint32_t j = 0; j < count[h]; j++) {
            uint32_t p = pos[h * BUCKET + j];
            if ((int64_t)p > (int64_t)i - 32768) { /* inside the window */
                uint32_t d = match_len(data + p, data + i, n - i);
                if (d >= best)
                    best = d, bestloc = data + p;
            }
        }
        if (count[h] == BUCKET) { /* full: keep the newest half */
            memmove(&pos[h * BUCKET], &pos[h * BUCKET + BUCKET / 2], BUCKET / 2 * sizeof *pos);
            count[h] = BUCKET / 2;
        }
        pos[h * BUCKET + count[h]++] = (uint32_t)i;
        if (bestloc) { /* lazy: a longer match from the next byte makes this one a literal */
            uint32_t h1 = zhash(data + i + 1);
            for (uint32_t j = 0; j < count[h1]; j++) {
                uint32_t p = pos[h1 * BUCKET + j];
                if ((int64_t)p > (int64_t)i - 32767 &&
                    match_len(data + p, data + i + 1, n - i - 1) > best) {
                    bestloc = NULL;
                    break;
                }
            }
        }
        if (bestloc) {
            uint32_t d = (uint32_t)(data + i - bestloc), j;
            for (j = 0; best > lengthc[j + 1] - 1u; j++)
                ;
            huff(z, j + 257);
            if (lengtheb[j])
                add_bits(z, best - lengthc[j], lengtheb[j]);
            for (j = 0; d > distc[j + 1] - 1u; j++)
                ;
            add_bits(z, bitrev(j, 5), 5);
            if (disteb[j])
                add_bits(z, d - distc[j], disteb[j]);
            i += best;
        } else {
            huff(z, data[i]);
            i++;
        }
    }
    for (; i < n; i++)
        huff(z, data[i]);
    huff(z, 256); /* end of block */
    while (z->bitcount)
        add_bits(z, 0, 1);
    if (z->nomem)
        return;
    /* stored blocks when the code came out larger */
    if (z->bytes.len > n + 2 + ((n + 32766) / 32767) * 5) {
        z->bytes.len = 2;
        for (size_t j = 0; j < n;) {
            size_t len = n - j > 32767 ? 32767 : n - j;
            put_byte(z, n - j == len);
            put_byte(z, (uint8_t)len);
            put_byte(z, (uint8_t)(len >> 8));
            put_byte(z, (uint8_t)~len);
            put_byte(z, (uint8_t)(~len >> 8));
            uint8_t *at = z->nomem ? NULL : blvl__array_add(z->a, &z->bytes, len);
            if (!at) {
                z->nomem = 1;
                return;
            }
            memcpy(at, data + j, len);
            j += len;
        }
    }
    uint32_t s1 = 1, s2 = 0; /* Adler-32 */
    for (size_t j = 0, block = n % 5552; j < n; j += block, block = 5552) {
        for (size_t k = 0; k < block; k++)
            s1 += data[j + k], s2 += s1;
        s1 %= 65521, s2 %= 65521;
    }
    put_byte(z, (uint8_t)(s2 >> 8));
    put_byte(z, (uint8_t)s2);
    put_byte(z, (uint8_t)(s1 >> 8));
    put_byte(z, (uint8_t)s1);
}

static uint8_t paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* Row y filtered with `filter` (0..4) into out[0..w*4). */
static void filter_row(const uint8_t *rgba, size_t stride, uint32_t y, int filter, uint8_t *out) {
    static const int mapping[] = {0, 1, 2, 3, 4}, firstmap[] = {0, 1, 0, 5, 6};
    int type = (y ? mapping : firstmap)[filter];
    const uint8_t *z = rgba + stride * y, *up = y ? z - stride : NULL;
    if (type == 0) {
        memcpy(out, z, stride);
        return;
    }
    for (size_t i = 0; i < 4; i++)
        out[i] = type == 2   ? (uint8_t)(z[i] - up[i])
                 : type == 3 ? (uint8_t)(z[i] - (up[i] >> 1))
                 : type == 4 ? (uint8_t)(z[i] - paeth(0, up[i], 0))
                             : z[i];
    for (size_t i = 4; i < stride; i++)
        switch (type) {
        case 1:
            out[i] = (uint8_t)(z[i] - z[i - 4]);
            break;
        case 2:
            out[i] = (uint8_t)(z[i] - up[i]);
            break;
        case 3:
            out[i] = (uint8_t)(z[i] - ((z[i - 4] + up[i]) >> 1));
            break;
        case 4:
            out[i] = (uint8_t)(z[i] - paeth(z[i - 4], up[i], up[i - 4]));
            break;
        case 5:
            out[i] = (uint8_t)(z[i] - (z[i - 4] >> 1));
            break;
        default: /* 6: Paeth with a zero row above */
            out[i] = (uint8_t)(z[i] - paeth(z[i - 4], 0, 0));
            break;
        }
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

blvl_status blvl__image_png_encode(const blvl_allocator *a, const uint8_t *rgba, uint32_t width,
                                   uint32_t height, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    size_t row = (size_t)width * 4, raw_size = (row + 1) * height;
    uint8_t *raw = blvl__alloc(a, raw_size + row);
    uint32_t *pos = blvl__alloc(a, (size_t)ZHASH * BUCKET * sizeof *pos);
    uint8_t *count = blvl__calloc(a, ZHASH);
    zout z = {.a = a};
    blvl__array_init(&z.bytes, 1);
    blvl_status st = BLVL_E_NOMEM;
    if (!raw || !pos || !count)
        goto done;
    uint8_t *line = raw + raw_size;
    for (uint32_t y = 0; y < height; y++) {
        int best = 0;
        uint64_t best_sum = UINT64_MAX;
        for (int f = 0; f < 5; f++) {
            filter_row(rgba, row, y, f, line);
            uint64_t sum = 0;
            for (size_t i = 0; i < row; i++)
                sum += (uint64_t)abs((int8_t)line[i]);
            if (sum < best_sum)
                best_sum = sum, best = f;
        }
        uint8_t *dst = raw + (row + 1) * y;
        dst[0] = (uint8_t)best;
        filter_row(rgba, row, y, best, dst + 1);
    }
    deflate_stb(&z, raw, raw_size, pos, count);
    if (z.nomem || z.bytes.len > UINT32_MAX - 64)
        goto done;
    size_t total = 8 + 12 + 13 + 12 + z.bytes.len + 12;
    uint8_t *png = blvl__alloc_sized(a, total);
    if (!png)
        goto done;
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
    memcpy(png + at + 8, z.bytes.data, z.bytes.len);
    at += chunk(png + at, "IDAT", (uint32_t)z.bytes.len);
    at += chunk(png + at, "IEND", 0);
    *out = png;
    *out_size = at;
    st = BLVL_OK;
done:
    blvl__array_free(a, &z.bytes);
    if (count)
        blvl__dealloc(a, count, ZHASH);
    if (pos)
        blvl__dealloc(a, pos, (size_t)ZHASH * BUCKET * sizeof *pos);
    if (raw)
        blvl__dealloc(a, raw, raw_size + row);
    return st;
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
    uint8_t *png = NULL;
    if (blvl__image_png_encode(opt ? &opt->allocator : NULL, rgba, width, height, &png, out_size))
        return blvl__nomem(err, "image: encoding a %ux%u png", width, height);
    *out = png;
    blvl__ok(err);
    return BLVL_OK;
}
