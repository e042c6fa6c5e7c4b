/* Shared by the image layer's files: the block decoders (each writes the 16 texels of one 4x4
 * block as RGBA8, row by row) and the layout of a mip chain. */
#ifndef BLVL_IMAGE_INTERNAL_H
#define BLVL_IMAGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/image.h"

/* Bytes of one 4x4 block of a BC encoding; 0 for the others. */
uint32_t blvl__image_block_bytes(uint32_t encoding);
/* The name an error message gives the encoding ("bc1", "png"; "encoding 9" when unknown is
 * never printed: the description is refused first). */
const char *blvl__image_encoding_name(uint32_t encoding);
/* Side of mip level `mip` of a side of `side` texels: max(1, side >> mip). */
uint32_t blvl__image_mip_side(uint32_t side, uint32_t mip);
/* Bytes of mip level `mip` for one layer (RGBA8 and BC only). The description must have passed
 * blvl_image_expected_size, so nothing here overflows. */
uint64_t blvl__image_level_bytes(const blvl_image_desc *d, uint32_t mip);

void blvl__image_bc1_block(const uint8_t *src, uint8_t out[64]);
void blvl__image_bc3_block(const uint8_t *src, uint8_t out[64]);
void blvl__image_bc4_block(const uint8_t *src, uint8_t out[64]);
void blvl__image_bc5_block(const uint8_t *src, uint8_t out[64]);
void blvl__image_bc6h_block(const uint8_t *src, uint8_t out[64]);
void blvl__image_bc7_block(const uint8_t *src, uint8_t out[64]);

/* BPTC (BC6H, BC7) tables: partitions as one digit per texel, anchors, weights of 64. */
extern const char blvl__image_bptc_part2[64][17];
extern const char blvl__image_bptc_part3[64][17];
extern const uint8_t blvl__image_bptc_anchor2[64];
extern const uint8_t blvl__image_bptc_anchor3[2][64];
extern const uint8_t blvl__image_bptc_weights2[4];
extern const uint8_t blvl__image_bptc_weights3[8];
extern const uint8_t blvl__image_bptc_weights4[16];

/* Whether texel t holds a subset's anchor index (texel 0 always; the others by partition), which
 * a BPTC block stores with one bit fewer, its top bit being 0. */
static inline bool blvl__image_bptc_anchor(uint32_t subsets, uint32_t part, uint32_t t) {
    return t == 0 || (subsets == 2 && t == blvl__image_bptc_anchor2[part]) ||
           (subsets == 3 &&
            (t == blvl__image_bptc_anchor3[0][part] || t == blvl__image_bptc_anchor3[1][part]));
}

/* A 128-bit block read from its least significant bit up. */
typedef struct blvl__bits {
    const uint8_t *src;
    uint32_t pos;
} blvl__bits;
/* The next n (0..16) bits; past bit 128 reads zeros (a mode's layout never goes there). */
static inline uint32_t blvl__image_bits_get(blvl__bits *b, uint32_t n) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < n; i++, b->pos++)
        if (b->pos < 128)
            v |= (uint32_t)((b->src[b->pos >> 3] >> (b->pos & 7)) & 1) << i;
    return v;
}

/* The size a PNG's IHDR or a JPEG's one frame header gives, after the walk the decoder makes
 * before it reads the bytes (every PNG chunk within the data; JPEG segments, Huffman tables and
 * a single frame header checked). Also the export's check of the bytes it embeds as they are. */
blvl_status blvl__image_stored_size(uint32_t encoding, const uint8_t *data, size_t size,
                                    uint32_t *w, uint32_t *h, blvl_error *err);
/* The size of a PNG from its IHDR (which must come first, after the signature); false when the
 * bytes are no such PNG. The chunks after it are not read. */
bool blvl__image_png_ihdr(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h);

/* What a walk of a JPEG's markers found wrong; *at is the offset it names. */
typedef enum blvl__jpeg_fault {
    BLVL__JPEG_OK,
    BLVL__JPEG_NO_SOI,         /* no FF D8 first (at 0) */
    BLVL__JPEG_NO_MARKER,      /* no FF where a marker belongs */
    BLVL__JPEG_ENDS_IN_MARKER, /* the data ends in fill bytes */
    BLVL__JPEG_SCAN_FIRST,     /* a scan (SOS) before any frame header (at its code) */
    BLVL__JPEG_END_FIRST,      /* EOI before any frame header (at its code) */
    BLVL__JPEG_NO_LENGTH,      /* under 2 bytes left for a segment's length */
    BLVL__JPEG_LENGTH,         /* a segment length under 2 or past the end */
    BLVL__JPEG_SHORT_FRAME,    /* a frame header under 7 bytes */
    BLVL__JPEG_SECOND_FRAME,   /* a second frame header (whole walks only) */
    BLVL__JPEG_HUFFMAN,        /* a DHT over 256 symbols or past its segment (whole walks) */
} blvl__jpeg_fault;

/* A JPEG's markers walked from its SOI; the first frame header's (SOFn's) size into *w, *h.
 * whole false: stops at that frame header, the bytes past it unread. whole true: on to EOI or
 * the data's end, every Huffman table checked and entropy-coded data skipped; one frame header
 * only. A segment's fault names its length field. */
blvl__jpeg_fault blvl__image_jpeg_walk(const uint8_t *d, size_t n, bool whole, uint32_t *w,
                                       uint32_t *h, size_t *at);

/* The size a PNG's IHDR or a JPEG's frame header gives, the whole file checked as each decoder
 * below needs (PNG: every chunk within the file; JPEG: blvl__image_jpeg_walk, whole). */
blvl_status blvl__image_png_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h,
                                 blvl_error *err);
blvl_status blvl__image_jpeg_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h,
                                  blvl_error *err);

/* PNG or JPEG by its encoding (image_decode.c): the file checked (blvl__image_stored_size) and
 * its picture must be width x height (the caller checked the texel limit); then PNG through
 * stb_image (image_png.c), JPEG through libjpeg-turbo (image_jpeg.c), which take the checked
 * file only. Pixels from `a`, sized width * height * 4. */
blvl_status blvl__image_decode_png(const blvl_image_desc *d, uint32_t height,
                                   const blvl_allocator *a, uint8_t **pixels, blvl_error *err);
blvl_status blvl__image_decode_jpeg(const blvl_image_desc *d, uint32_t height,
                                    const blvl_allocator *a, uint8_t **pixels, blvl_error *err);
blvl_status blvl__image_decode_coded(const blvl_image_desc *d, uint32_t height,
                                     const blvl_allocator *a, uint8_t **pixels, blvl_error *err);

#endif
