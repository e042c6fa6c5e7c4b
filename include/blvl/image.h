/* A level's images (schema common.fbs, table Image) decoded to 8-bit RGBA, and RGBA written as
 * PNG: what the software renderer of `blvl probe`, the glTF export and blvl-diag's image checks
 * share. Every input is hostile: sizes are checked against the encoding before a byte is
 * decoded, and the decoded size is limited (BLVL_IMAGE_MAX_TEXELS).
 *
 *   blvl_image_desc d = {w, h, BLVL_IMAGE_BC1, 1, 1, 0, data, size};
 *   blvl_image_rgba px;
 *   if (blvl_image_decode(&px, &d, 0, NULL, &err) == BLVL_OK) { ...; blvl_image_rgba_free(&px); }
 */
#ifndef BLVL_IMAGE_H
#define BLVL_IMAGE_H

#include "blvl/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The schema's ImageEncoding values. */
typedef enum blvl_image_encoding {
    BLVL_IMAGE_PNG = 0,
    BLVL_IMAGE_JPEG = 1,
    BLVL_IMAGE_RGBA8 = 2,
    BLVL_IMAGE_BC1 = 3,
    BLVL_IMAGE_BC3 = 4,
    BLVL_IMAGE_BC4 = 5,
    BLVL_IMAGE_BC5 = 6,
    BLVL_IMAGE_BC6H = 7,
    BLVL_IMAGE_BC7 = 8
} blvl_image_encoding;

/* Decoded texels (width * height * layers) a decode accepts: 2^28 (1 GiB of RGBA). */
#define BLVL_IMAGE_MAX_TEXELS (1u << 28)

/* An image as a level stores it (the fields of table Image). */
typedef struct blvl_image_desc {
    uint32_t width, height; /* mip level 0, one layer */
    uint32_t encoding;      /* blvl_image_encoding */
    uint32_t mips;          /* >= 1 */
    uint32_t layers;        /* >= 1 (6 for a cubemap) */
    uint32_t color_space;   /* schema ColorSpace: 0 linear, 1 sRGB (informational here) */
    const uint8_t *data;
    size_t size;
} blvl_image_desc;

/* The bytes `desc` must hold for its encoding, size, mips and layers (raw and BC: the whole mip
 * chain; BC sizes round each level up to whole 4x4 blocks). PNG and JPEG have no fixed size: 0.
 * Returns BLVL_E_ARGUMENT (message names the field) when the description itself is impossible
 * (unknown encoding, zero size, mips past log2(max(w, h)) + 1, PNG/JPEG with mips != 1, or a
 * size that overflows). blvl-diag compares this with the blob's size. */
BLVL_API blvl_status blvl_image_expected_size(uint64_t *out, const blvl_image_desc *desc,
                                              blvl_error *err);

/* RGBA8 texels of one mip level: `layers` pictures of width x height, one after another, rows
 * top to bottom. Freed with blvl_image_rgba_free (it keeps the allocator that made it). */
typedef struct blvl_image_rgba {
    uint32_t width, height, layers;
    uint8_t *pixels;          /* width * height * layers * 4 bytes */
    blvl_allocator allocator; /* the decode's options' allocator: what the free gives back to */
} blvl_image_rgba;

/* Decode mip level `mip` (PNG/JPEG: only 0) of every layer. PNG and JPEG must decode to the
 * described width and height * layers; BC4 gives r = g = b = the channel, a = 255; BC5 gives r, g,
 * b = 0, a = 255 (as stored, not a reconstructed normal); BC6H (unsigned) is clamped to 0..1 and
 * written as 8-bit linear values. A blob of the wrong size or a damaged PNG/JPEG is
 * BLVL_E_ARGUMENT with a message naming what is wrong ("image: bc1 data is 100 bytes, 4x4 with 1
 * mip needs 8"). */
BLVL_API blvl_status blvl_image_decode(blvl_image_rgba *out, const blvl_image_desc *desc,
                                       uint32_t mip, const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_image_rgba_free(blvl_image_rgba *img);

/* Encode width x height RGBA8 texels (rows top to bottom) as a PNG file, freed with
 * blvl_free(opt, *data). */
BLVL_API blvl_status blvl_image_write_png(void **data, size_t *size, const uint8_t *rgba,
                                          uint32_t width, uint32_t height, const blvl_options *opt,
                                          blvl_error *err);

#ifdef __cplusplus
}
#endif

#endif
