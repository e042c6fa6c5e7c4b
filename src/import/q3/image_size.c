/* The size of a JPEG or PNG the bake carries as it is, read from its headers, and what kind
 * of file the bytes are. */
#include <string.h>

#include "common/error.h"
#include "image/image_internal.h"
#include "image_internal.h"

static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

int blvl__import_q3_img_kind(const uint8_t *data, size_t size) {
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

/* The walk stops at the first frame header: the bytes after it are carried as they are. */
blvl_status blvl__import_q3_img_jpeg_size(const uint8_t *d, size_t n, const char *name, uint32_t *w,
                                          uint32_t *h, blvl_error *err) {
    *w = *h = 0;
    size_t at;
    switch (blvl__image_jpeg_walk(d, n, false, w, h, &at)) {
    case BLVL__JPEG_OK:
        return check_size(name, "SOF", at + 3, *w, *h, err);
    case BLVL__JPEG_NO_SOI:
        return blvl__fail_source(err, name, "SOI", 0, "signature", "not a JPEG (no FF D8)");
    case BLVL__JPEG_NO_MARKER:
        return blvl__fail_source(err, name, "marker", at, "marker",
                                 "no marker where one belongs, or no frame header");
    case BLVL__JPEG_ENDS_IN_MARKER:
        return blvl__fail_source(err, name, "marker", at, "truncated", "ends in a marker");
    case BLVL__JPEG_SCAN_FIRST:
    case BLVL__JPEG_END_FIRST:
        return blvl__fail_source(err, name, "marker", at, "frame",
                                 "scan data or the end before any frame header");
    case BLVL__JPEG_NO_LENGTH:
        return blvl__fail_source(err, name, "segment", at, "truncated",
                                 "a segment length past the end");
    case BLVL__JPEG_LENGTH:
        return blvl__fail_source(err, name, "segment", at, "truncated",
                                 "a segment shorter than its length field or past the end");
    default: /* a short frame header: a walk that stops there meets no other fault */
        return blvl__fail_source(err, name, "SOF", at, "frame", "a frame header under 7 bytes");
    }
}

blvl_status blvl__import_q3_img_png_size(const uint8_t *d, size_t n, const char *name, uint32_t *w,
                                         uint32_t *h, blvl_error *err) {
    *w = *h = 0;
    if (!blvl__image_png_ihdr(d, n, w, h))
        return blvl__fail_source(err, name, "IHDR", 8, "signature",
                                 "not a PNG with its IHDR first");
    return check_size(name, "IHDR", 16, *w, *h, err);
}

bool blvl__import_q3_img_find(const blvl_q3_fs *fs, const char *name, char *out, size_t cap) {
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
