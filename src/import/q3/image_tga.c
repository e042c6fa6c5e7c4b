/* TGA decode to RGBA8, the types the engine's loader reads and the colour-mapped ones besides:
 * 2 (true colour, 24 or 32 bits, BGR(A)), 3 (grey, 8 bits), 1 (8-bit indices into a 24- or
 * 32-bit colour map) and their run-length forms 10, 3 + 8 = 11, 9. A run may cross rows, as
 * the format allows; a run past the last pixel is cut there. Descriptor bit 5 set: rows are
 * stored top to bottom (else bottom to top); bit 4: right to left. */
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "image_internal.h"

typedef struct tga {
    const uint8_t *d;
    size_t n, pos;
    unsigned bpp;           /* bytes per stored pixel (or index) */
    const uint8_t *palette; /* colour-mapped: entries of pal_bpp bytes */
    unsigned pal_bpp, pal_len, pal_first;
    int type; /* 1, 2, 3 without the RLE bit */
} tga;

/* One stored pixel at t->d[at] to RGBA; false for an index past the colour map. */
static bool pixel(const tga *t, size_t at, uint8_t out[4]) {
    const uint8_t *p = t->d + at;
    if (t->type == 3) {
        out[0] = out[1] = out[2] = p[0];
        out[3] = 255;
        return true;
    }
    if (t->type == 1) {
        unsigned i = p[0];
        if (i < t->pal_first || i - t->pal_first >= t->pal_len)
            return false;
        p = t->palette + (size_t)(i - t->pal_first) * t->pal_bpp;
        out[3] = t->pal_bpp == 4 ? p[3] : 255;
    } else {
        out[3] = t->bpp == 4 ? p[3] : 255;
    }
    out[0] = p[2];
    out[1] = p[1];
    out[2] = p[0];
    return true;
}

/* The pixels in stored order into out (count RGBA texels), plain or run-length; `pos` is where
 * they start. */
static blvl_status decode_pixels(const tga *t, size_t pos, bool rle, uint8_t *out, size_t count,
                                 const char *name, blvl_error *err) {
    const uint8_t *data = t->d;
    size_t size = t->n;
    size_t done = 0;
    blvl_status st = BLVL_OK;
    while (done < count) {
        size_t run = 1;
        bool repeat = false;
        if (rle) {
            if (pos >= size) {
                st = blvl__fail_source(err, name, "pixels", pos, "truncated",
                                       "the pixel data ends early");
                break;
            }
            uint8_t hd = data[pos++];
            run = (hd & 0x7Fu) + 1u;
            repeat = hd & 0x80u;
        } else {
            run = count;
        }
        if (run > count - done)
            run = count - done;
        size_t need = repeat ? t->bpp : run * t->bpp;
        if (size - pos < need) {
            st = blvl__fail_source(err, name, "pixels", pos, "truncated",
                                   "the pixel data ends early");
            break;
        }
        for (size_t i = 0; i < run; i++) {
            size_t at = repeat ? pos : pos + i * t->bpp;
            if (!pixel(t, at, out + (done + i) * 4)) {
                st = blvl__fail_source(err, name, "pixels", at, "index",
                                       "a colour index past the colour map");
                break;
            }
        }
        if (st)
            break;
        pos += need;
        done += run;
    }
    return st;
}

/* The rows top to bottom, left to right, as the descriptor says they were stored. */
static void orient(uint8_t *out, uint32_t width, uint32_t height, unsigned desc) {
    size_t row = (size_t)width * 4;
    if (!(desc & 0x20u)) /* stored bottom to top */
        for (uint32_t y = 0; y < height / 2; y++) {
            uint8_t *r0 = out + y * row, *r1 = out + (height - 1 - y) * row;
            for (size_t i = 0; i < row; i++) {
                uint8_t c = r0[i];
                r0[i] = r1[i];
                r1[i] = c;
            }
        }
    if (desc & 0x10u) /* stored right to left */
        for (uint32_t y = 0; y < height; y++)
            for (uint32_t x = 0; x < width / 2; x++) {
                uint8_t *p0 = out + y * row + x * 4, *p1 = out + y * row + (width - 1 - x) * 4;
                uint8_t c[4];
                memcpy(c, p0, 4);
                memcpy(p0, p1, 4);
                memcpy(p1, c, 4);
            }
}

blvl_status blvl__import_q3_img_tga(const uint8_t *data, size_t size, const char *name,
                                    const blvl_allocator *a, uint8_t **rgba, uint32_t *w,
                                    uint32_t *h, blvl_error *err) {
    *rgba = NULL;
    *w = *h = 0;
    if (size < 18)
        return blvl__fail_source(err, name, "header", 0, "truncated",
                                 "shorter than the 18-byte header");
    unsigned idlen = data[0], cmap = data[1], type = data[2];
    unsigned pal_first = data[3] | data[4] << 8, pal_len = data[5] | data[6] << 8;
    unsigned pal_bits = data[7];
    uint32_t width = data[12] | (uint32_t)data[13] << 8,
             height = data[14] | (uint32_t)data[15] << 8;
    unsigned bits = data[16], desc = data[17];
    tga t = {.d = data, .n = size, .type = (int)(type & 7u)};
    bool rle = type & 8u;
    if (t.type < 1 || t.type > 3 || (type & ~11u))
        return blvl__fail_source(
            err, name, "header.type", 2, "type",
            "not a colour-mapped, true-colour or grey TGA (1, 2, 3, 9, 10, 11)");
    if (cmap > 1 || (t.type == 1 && cmap != 1))
        return blvl__fail_source(err, name, "header.colormap_type", 1, "colormap",
                                 "a colour map type other than 0 or 1");
    if (!width || !height || width > Q3I_MAX_SIDE || height > Q3I_MAX_SIDE ||
        (uint64_t)width * height > Q3I_MAX_PIXELS)
        return blvl__fail_source(err, name, "header.width", 12, "size",
                                 "an image side of 0 or over 8192, or over 16 Mi pixels");
    if ((t.type == 2 && bits != 24 && bits != 32) || (t.type != 2 && bits != 8))
        return blvl__fail_source(err, name, "header.pixel_depth", 16, "depth",
                                 "not 24/32-bit colour, 8-bit grey or 8-bit indices");
    t.bpp = bits / 8;
    size_t pos = 18 + (size_t)idlen;
    if (cmap == 1) {
        if (pal_bits != 24 && pal_bits != 32 && t.type == 1)
            return blvl__fail_source(err, name, "header.colormap_entry", 7, "depth",
                                     "a colour map of other than 24- or 32-bit entries");
        size_t pal_bytes = (size_t)pal_len * ((pal_bits + 7) / 8);
        if (pos > size || size - pos < pal_bytes)
            return blvl__fail_source(err, name, "colormap", pos, "truncated",
                                     "the colour map runs past the end");
        t.palette = data + pos;
        t.pal_bpp = pal_bits / 8;
        t.pal_len = pal_len;
        t.pal_first = pal_first;
        pos += pal_bytes;
    }
    if (pos > size)
        return blvl__fail_source(err, name, "id", 18, "truncated",
                                 "the image id runs past the end");
    size_t count = (size_t)width * height;
    uint8_t *out = blvl__alloc(a, count * 4);
    if (!out)
        return blvl__nomem(err, "image %s", name);
    /* Decode in stored order into out, then put the rows top to bottom, left to right. */
    blvl_status st = decode_pixels(&t, pos, rle, out, count, name, err);
    if (st) {
        blvl__dealloc(a, out, count * 4);
        return st;
    }
    orient(out, width, height, desc);
    *rgba = out;
    *w = width;
    *h = height;
    blvl__ok(err);
    return BLVL_OK;
}
