/* The size of a JPEG or PNG the bake carries as it is, read from its headers, and what kind
 * of file the bytes are. */
#include <string.h>

#include "common/error.h"
#include "image_internal.h"

static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

int blvl__q3i_kind(const uint8_t *data, size_t size) {
    if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF)
        return Q3I_JPEG;
    if (size >= 8 && !memcmp(data, png_sig, 8))
        return Q3I_PNG;
    return Q3I_TGA;
}

static blvl_status check_size(const char *name, const char *field, size_t at, uint32_t w,
                              uint32_t h, blvl_error *err) {
    if (!w || !h || w > Q3I_MAX_SIDE || h > Q3I_MAX_SIDE || (uint64_t)w * h > Q3I_MAX_PIXELS)
        return blvl__fail_source(err, name, field, at, "size",
                                 "an image side of 0 or over 8192, or over 16 Mi pixels");
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl__q3i_jpeg_size(const uint8_t *d, size_t n, const char *name, uint32_t *w,
                                uint32_t *h, blvl_error *err) {
    *w = *h = 0;
    if (n < 4 || d[0] != 0xFF || d[1] != 0xD8)
        return blvl__fail_source(err, name, "SOI", 0, "signature", "not a JPEG (no FF D8)");
    size_t pos = 2;
    for (;;) {
        /* A marker: one or more FF fill bytes, then its code. */
        if (pos >= n || d[pos] != 0xFF)
            return blvl__fail_source(err, name, "marker", pos, "marker",
                                     "no marker where one belongs, or no frame header");
        while (pos < n && d[pos] == 0xFF)
            pos++;
        if (pos >= n)
            return blvl__fail_source(err, name, "marker", pos, "truncated", "ends in a marker");
        uint8_t m = d[pos++];
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD8))
            continue; /* markers without a length */
        if (m == 0xD9 || m == 0xDA)
            return blvl__fail_source(err, name, "marker", pos - 1, "frame",
                                     "scan data or the end before any frame header");
        if (n - pos < 2)
            return blvl__fail_source(err, name, "segment", pos, "truncated",
                                     "a segment length past the end");
        size_t len = (size_t)d[pos] << 8 | d[pos + 1];
        if (len < 2 || n - pos < len)
            return blvl__fail_source(err, name, "segment", pos, "truncated",
                                     "a segment shorter than its length field or past the end");
        bool sof = m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
        if (sof) {
            if (len < 7)
                return blvl__fail_source(err, name, "SOF", pos, "frame",
                                         "a frame header under 7 bytes");
            *h = (uint32_t)d[pos + 3] << 8 | d[pos + 4];
            *w = (uint32_t)d[pos + 5] << 8 | d[pos + 6];
            return check_size(name, "SOF", pos + 3, *w, *h, err);
        }
        pos += len;
    }
}

blvl_status blvl__q3i_png_size(const uint8_t *d, size_t n, const char *name, uint32_t *w,
                               uint32_t *h, blvl_error *err) {
    *w = *h = 0;
    if (n < 24 || memcmp(d, png_sig, 8) || memcmp(d + 12, "IHDR", 4))
        return blvl__fail_source(err, name, "IHDR", 8, "signature",
                                 "not a PNG with its IHDR first");
    *w = (uint32_t)d[16] << 24 | (uint32_t)d[17] << 16 | (uint32_t)d[18] << 8 | d[19];
    *h = (uint32_t)d[20] << 24 | (uint32_t)d[21] << 16 | (uint32_t)d[22] << 8 | d[23];
    return check_size(name, "IHDR", 16, *w, *h, err);
}

bool blvl__q3i_find(const blvl_q3_fs *fs, const char *name, char *out, size_t cap) {
    static const char *const exts[] = {".tga", ".jpg", ".jpeg", ".png"};
    size_t n = name ? strlen(name) : 0;
    if (!fs || !n || n > Q3I_MAX_NAME || cap < n + 6)
        return false;
    if (blvl_q3_fs_exists(fs, name)) {
        memcpy(out, name, n + 1);
        return true;
    }
    /* The stem: the name without an image extension (a name may have none). */
    size_t stem = n;
    for (size_t i = 0; i < 4; i++) {
        size_t k = strlen(exts[i]);
        if (n > k) {
            bool same = true;
            for (size_t j = 0; j < k && same; j++) {
                char c = name[n - k + j];
                if (c >= 'A' && c <= 'Z')
                    c = (char)(c + 32);
                same = c == exts[i][j];
            }
            if (same)
                stem = n - k;
        }
    }
    for (size_t i = 0; i < 4; i++) {
        memcpy(out, name, stem);
        memcpy(out + stem, exts[i], strlen(exts[i]) + 1);
        if (blvl_q3_fs_exists(fs, out))
            return true;
    }
    return false;
}
