/* The bytes of an image as glTF carries them: PNG and JPEG as stored (after a look at their
 * headers, so a blob that is not what its encoding says is refused rather than embedded for a
 * viewer to choke on), everything else refused until a decoder is linked in. */
#include <stdio.h>
#include <string.h>

#include "blvl/image.h"

#include "export/export_internal.h"

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* PNG: the signature, then IHDR first with a non-zero size. */
static int png_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (n < 33 || memcmp(d, sig, 8) != 0 || be32(d + 8) != 13 || memcmp(d + 12, "IHDR", 4) != 0)
        return 0;
    *w = be32(d + 16);
    *h = be32(d + 20);
    return *w && *h && *w <= 0x7FFFFFFFu && *h <= 0x7FFFFFFFu;
}

/* JPEG: SOI, then marker segments up to the first frame header (SOFn), which gives the size. */
static int jpeg_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h) {
    if (n < 4 || d[0] != 0xFF || d[1] != 0xD8 || d[2] != 0xFF)
        return 0;
    size_t i = 2;
    while (i + 4 <= n) {
        if (d[i] != 0xFF)
            return 0;
        while (i < n && d[i] == 0xFF)
            i++;
        if (i >= n)
            return 0;
        uint8_t m = d[i++];
        if (m == 0xD8 || (m >= 0xD0 && m <= 0xD7) || m == 0x01)
            continue; /* no length */
        if (m == 0xD9 || m == 0xDA || i + 2 > n)
            return 0; /* end of image or scan before any frame header */
        size_t len = (size_t)d[i] << 8 | d[i + 1];
        if (len < 2 || i + len > n)
            return 0;
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (len < 8)
                return 0;
            *h = (uint32_t)d[i + 3] << 8 | d[i + 4];
            *w = (uint32_t)d[i + 5] << 8 | d[i + 6];
            return *w && *h;
        }
        i += len;
    }
    return 0;
}

static const char *const encoding_names[] = {"png", "jpeg", "rgba8", "bc1", "bc3",
                                             "bc4", "bc5",  "bc6h",  "bc7"};

blvl_status xp_image_bytes(xp *x, const char *where, uint32_t encoding, uint32_t width,
                           uint32_t height, uint32_t mips, uint32_t layers, const uint8_t *data,
                           size_t size, const uint8_t **bytes, size_t *nbytes, uint8_t **owned,
                           const char **mime) {
    *owned = NULL;
    uint32_t w = 0, h = 0;
    if (encoding == 0 || encoding == 1) {
        int ok = encoding == 0 ? png_size(data, size, &w, &h) : jpeg_size(data, size, &w, &h);
        if (!ok)
            return xp_fail(x, BLVL_E_ARGUMENT, "image-data: %s: the %s bytes have no %s header",
                           where, encoding_names[encoding], encoding == 0 ? "PNG" : "JPEG frame");
        (void)width, (void)height, (void)layers;
        *bytes = data;
        *nbytes = size;
        *mime = encoding == 0 ? "image/png" : "image/jpeg";
        return BLVL_OK;
    }
    if (encoding < sizeof encoding_names / sizeof encoding_names[0]) {
        /* Raw and block-compressed: mip 0 of every layer, decoded and stacked top to bottom
         * as the schema stacks a PNG's layers. */
        blvl_image_desc d = {width, height, encoding, mips, layers, 0, data, size};
        blvl_image_rgba px;
        blvl_error e;
        const blvl_options *opt = x->xo->base;
        blvl_status st = blvl_image_decode(&d, 0, &px, opt, &e);
        if (st == BLVL_E_NOMEM)
            return xp_fail(x, BLVL_E_NOMEM, "out of memory");
        if (st != BLVL_OK)
            return xp_fail(x, BLVL_E_ARGUMENT, "image-data: %s: %s", where, e.message);
        uint64_t rows = (uint64_t)px.height * (px.layers ? px.layers : 1);
        if (rows > 0x7FFFFFFFu)
            st = BLVL_E_ARGUMENT, snprintf(e.message, sizeof e.message, "too many rows");
        else
            st = blvl_image_write_png(px.pixels, px.width, (uint32_t)rows, owned, nbytes, opt, &e);
        blvl_image_rgba_free(&px, opt);
        if (st == BLVL_E_NOMEM)
            return xp_fail(x, BLVL_E_NOMEM, "out of memory");
        if (st != BLVL_OK)
            return xp_fail(x, BLVL_E_ARGUMENT, "image-data: %s: %s", where, e.message);
        *bytes = *owned;
        *mime = "image/png";
        return BLVL_OK;
    }
    return xp_fail(x, BLVL_E_ARGUMENT, "image-encoding: %s: unknown encoding %u", where,
                   (unsigned)encoding);
}
