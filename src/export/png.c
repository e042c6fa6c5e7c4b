/* Raw RGBA8 texels as a PNG (8-bit RGBA, no filter, zlib through the caller's allocator): what
 * glTF takes for an image the level stores uncompressed. */
#include <string.h>
#include <zlib.h>

#include "export/export_internal.h"

static voidpf z_alloc(voidpf user, uInt n, uInt size) {
    return blvl__alloc_sized((const blvl_allocator *)user, (size_t)n * size);
}

static void z_free(voidpf user, voidpf p) {
    blvl__free_sized((const blvl_allocator *)user, p);
}

static void be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8),
    p[3] = (uint8_t)v;
}

/* Writes a chunk's length, type and CRC around `len` bytes already at p + 8. */
static void chunk(uint8_t *p, const char *type, uint32_t len) {
    be32(p, len);
    memcpy(p + 4, type, 4);
    be32(p + 8 + len, (uint32_t)crc32(crc32(0, Z_NULL, 0), p + 4, len + 4));
}

int xp_png_rgba(const blvl_allocator *al, const uint8_t *rgba, uint32_t w, uint32_t h,
                uint8_t **out, size_t *out_size) {
    size_t row = (size_t)w * 4, raw = (row + 1) * h;
    uint8_t *filtered = blvl__alloc(al, raw);
    if (!filtered)
        return 0;
    for (uint32_t y = 0; y < h; y++) {
        filtered[y * (row + 1)] = 0;
        memcpy(filtered + y * (row + 1) + 1, rgba + y * row, row);
    }
    uLong bound = compressBound((uLong)raw) + 64;
    size_t cap = 8 + 25 + 12 + bound + 12;
    uint8_t *p = blvl__alloc_sized(al, cap);
    int ok = 0;
    if (p) {
        static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
        memcpy(p, sig, 8);
        uint8_t *ih = p + 8;
        be32(ih + 8, w);
        be32(ih + 12, h);
        ih[16] = 8, ih[17] = 6, ih[18] = 0, ih[19] = 0, ih[20] = 0; /* 8-bit RGBA */
        chunk(ih, "IHDR", 13);
        uint8_t *id = ih + 25;
        z_stream z;
        memset(&z, 0, sizeof z);
        z.zalloc = z_alloc;
        z.zfree = z_free;
        z.opaque = (voidpf)al;
        if (deflateInit(&z, 6) == Z_OK) {
            z.next_in = filtered;
            z.avail_in = (uInt)raw;
            z.next_out = id + 8;
            z.avail_out = (uInt)bound;
            int r = deflate(&z, Z_FINISH);
            size_t zn = z.total_out;
            deflateEnd(&z);
            if (r == Z_STREAM_END) {
                chunk(id, "IDAT", (uint32_t)zn);
                uint8_t *ie = id + 12 + zn;
                chunk(ie, "IEND", 0);
                *out = p;
                *out_size = (size_t)(ie + 12 - p);
                ok = 1;
            }
        }
        if (!ok)
            blvl__free_sized(al, p);
    }
    blvl__dealloc(al, filtered, raw);
    return ok;
}
