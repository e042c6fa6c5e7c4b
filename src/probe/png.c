/* RGBA8 as a PNG: filter 0 rows in stored (uncompressed) deflate blocks. Big, but exact and
 * small code; the picture is a debugging aid read once by a person or a test. */
#include <string.h>

#include "probe/probe_internal.h"

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n) {
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint8_t *be32(uint8_t *o, uint32_t v) {
    o[0] = (uint8_t)(v >> 24);
    o[1] = (uint8_t)(v >> 16);
    o[2] = (uint8_t)(v >> 8);
    o[3] = (uint8_t)v;
    return o + 4;
}

/* A chunk whose data (n bytes) is already at o + 8; writes length, type and CRC around it. */
static uint8_t *chunk(uint8_t *o, const char type[4], size_t n) {
    be32(o, (uint32_t)n);
    memcpy(o + 4, type, 4);
    uint32_t crc = crc32_update(0, o + 4, n + 4);
    return be32(o + 8 + n, crc);
}

blvl_status blvl_probe_write_png(const uint8_t *rgba, uint32_t width, uint32_t height,
                                 uint8_t **out, size_t *out_size, const blvl_options *opt,
                                 blvl_error *err) {
    if (!rgba || !out || !out_size || width == 0 || height == 0 || width > BLVL_PROBE_MAX_SIZE ||
        height > BLVL_PROBE_MAX_SIZE)
        return blvl__fail(err, BLVL_E_ARGUMENT, "probe: png: no pixels or size past %u",
                          BLVL_PROBE_MAX_SIZE);
    size_t row = (size_t)width * 4 + 1, raw = row * height;
    size_t blocks = raw / 65535 + 1;
    size_t idat = 2 + raw + blocks * 5 + 4;
    size_t total = 8 + (12 + 13) + (12 + idat) + 12;
    blvl_allocator al = {0};
    if (opt)
        al = opt->allocator;
    uint8_t *buf = blvl__alloc_sized(&al, total);
    if (!buf)
        return blvl__fail(err, BLVL_E_NOMEM, "probe: png: out of memory");
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    memcpy(buf, sig, 8);
    uint8_t *o = buf + 8, *d = o + 8;
    d = be32(d, width);
    d = be32(d, height);
    d[0] = 8; /* bit depth */
    d[1] = 6; /* RGBA */
    d[2] = d[3] = d[4] = 0;
    o = chunk(o, "IHDR", 13);
    d = o + 8;
    *d++ = 0x78; /* zlib header: deflate, 32K window, no dictionary */
    *d++ = 0x01;
    uint32_t s1 = 1, s2 = 0; /* adler-32 of the raw stream */
    size_t left = raw, y = 0, in_row = 0;
    while (left > 0) {
        size_t n = left < 65535 ? left : 65535;
        left -= n;
        *d++ = left == 0 ? 1 : 0;
        *d++ = (uint8_t)n;
        *d++ = (uint8_t)(n >> 8);
        *d++ = (uint8_t)~n;
        *d++ = (uint8_t)(~n >> 8);
        for (size_t i = 0; i < n; i++) {
            uint8_t b = in_row == 0 ? 0 : rgba[y * (row - 1) + in_row - 1];
            if (++in_row == row) {
                in_row = 0;
                y++;
            }
            *d++ = b;
            s1 = (s1 + b) % 65521u;
            s2 = (s2 + s1) % 65521u;
        }
    }
    d = be32(d, (s2 << 16) | s1);
    size_t idat_len = (size_t)(d - (o + 8));
    o = chunk(o, "IDAT", idat_len);
    o = chunk(o, "IEND", 0);
    *out = buf;
    *out_size = (size_t)(o - buf);
    return BLVL_OK;
}
