/* A PNG's and a JPEG's size read from their headers, with no decoding: the one reader that the
 * image layer's decoders (image_png.c, image_jpeg.c) and the Quake 3 importer
 * (src/import/q3/image_size.c) share. Each caller words its own refusals from the fault and offset.
 */
#include <string.h>

#include "image_internal.h"

static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

bool blvl__image_png_ihdr(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h) {
    if (n < 24 || memcmp(d, png_sig, 8) || memcmp(d + 12, "IHDR", 4))
        return false;
    *w = (uint32_t)d[16] << 24 | (uint32_t)d[17] << 16 | (uint32_t)d[18] << 8 | d[19];
    *h = (uint32_t)d[20] << 24 | (uint32_t)d[21] << 16 | (uint32_t)d[22] << 8 | d[23];
    return true;
}

/* A Huffman table's 16 counts may sum past the 256 symbols a table holds (stb_image 2.27, which
 * decoded JPEG here before, wrote past its table): every table of a DHT segment's data checked,
 * a refusal that names the offset before any decoder reads the data. */
static bool dht_ok(const uint8_t *p, size_t len) {
    while (len) {
        if (len < 17 || (p[0] >> 4) > 1 || (p[0] & 15) > 3)
            return false;
        size_t n = 0;
        for (int i = 1; i <= 16; i++)
            n += p[i];
        if (n > 256 || len - 17 < n)
            return false;
        p += 17 + n;
        len -= 17 + n;
    }
    return true;
}

blvl__jpeg_fault blvl__image_jpeg_walk(const uint8_t *d, size_t n, bool whole, uint32_t *w,
                                       uint32_t *h, size_t *at) {
    *at = 0;
    if (n < 4 || d[0] != 0xFF || d[1] != 0xD8)
        return BLVL__JPEG_NO_SOI;
    size_t pos = 2;
    int frames = 0;
    for (;;) {
        /* A marker: one or more FF fill bytes, then its code. */
        *at = pos;
        if (pos >= n || d[pos] != 0xFF)
            return BLVL__JPEG_NO_MARKER;
        while (pos < n && d[pos] == 0xFF)
            pos++;
        *at = pos;
        if (pos >= n)
            return BLVL__JPEG_ENDS_IN_MARKER;
        uint8_t m = d[pos++];
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD8))
            continue; /* markers without a length */
        if ((m == 0xD9 || m == 0xDA) && !frames) {
            *at = pos - 1;
            return m == 0xD9 ? BLVL__JPEG_END_FIRST : BLVL__JPEG_SCAN_FIRST;
        }
        if (m == 0xD9)
            return BLVL__JPEG_OK;
        *at = pos;
        if (n - pos < 2)
            return BLVL__JPEG_NO_LENGTH;
        size_t len = (size_t)d[pos] << 8 | d[pos + 1];
        if (len < 2 || n - pos < len)
            return BLVL__JPEG_LENGTH;
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (len < 7)
                return BLVL__JPEG_SHORT_FRAME;
            if (frames++)
                return BLVL__JPEG_SECOND_FRAME;
            *h = (uint32_t)d[pos + 3] << 8 | d[pos + 4];
            *w = (uint32_t)d[pos + 5] << 8 | d[pos + 6];
            if (!whole)
                return BLVL__JPEG_OK;
        }
        if (whole && m == 0xC4 && !dht_ok(d + pos + 2, len - 2))
            return BLVL__JPEG_HUFFMAN;
        pos += len;
        if (m == 0xDA) {
            /* entropy-coded data: skipped to the next marker (FF followed by neither 00 nor a
             * restart marker) */
            while (pos + 1 < n &&
                   !(d[pos] == 0xFF && d[pos + 1] && (d[pos + 1] < 0xD0 || d[pos + 1] > 0xD7)))
                pos++;
            if (pos + 1 >= n)
                return BLVL__JPEG_OK; /* the data ends without EOI: the decoder refuses that */
        }
    }
}
