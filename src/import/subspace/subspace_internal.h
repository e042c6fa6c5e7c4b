/* The .lvl reader's and writer's shared parts: the fixed offsets of the BMP headers, the eLVL
 * framing sizes, and the rTIL decoder the reader's check and blvl_subspace_region_tiles share. */
#ifndef BLVL_IMPORT_SUBSPACE_INTERNAL_H
#define BLVL_IMPORT_SUBSPACE_INTERNAL_H

#include <stdint.h>

#include "blvl/subspace.h"
#include "common/error.h"

#define SS_BMP_FILE_HEADER 14u /* "BM", bfSize, bfReserved1, bfReserved2, bfOffBits */
#define SS_BMP_INFO_MIN 40u    /* BITMAPINFOHEADER */
#define SS_ELVL_HEADER 12u     /* "elvl", total size, reserved */
#define SS_CHUNK_HEADER 8u     /* type, size */
#define SS_NONE UINT32_MAX

/* Alignment bytes after a chunk of `size` bytes. */
static inline uint32_t ss_pad(uint32_t size) {
    return (4u - (size & 3u)) & 3u;
}

/* A chunk type as text for messages: printable ASCII as is, other bytes as \xNN. */
void blvl__import_subspace_tag_text(const uint8_t *tag, char out[17]);

/* Decodes an rTIL payload of `size` bytes (file offset `at` of its first byte, for refusals)
 * into `bits` (BLVL_SUBSPACE_BITMAP_BYTES, already cleared), or only checks it when `bits` is
 * NULL. Refusals name the part "REGN", the field "rTIL". */
blvl_status blvl__import_subspace_rtil(const uint8_t *p, uint32_t size, uint64_t at, uint8_t *bits,
                                       blvl_error *err);

/* Reads the BMP at the file's start (it begins with "BM"): headers, palette, pixel stream
 * decoded. On success *bmp is set and *elvl_at / *tiles_at say where the eLVL (0: none) and
 * the tile records start. */
blvl_status blvl__import_subspace_read_bmp(const uint8_t *b, size_t size, const blvl_allocator *a,
                                           blvl_subspace_bmp **bmp, uint64_t *elvl_at,
                                           uint64_t *tiles_at, blvl_error *err);
void blvl__import_subspace_free_bmp(const blvl_allocator *a, blvl_subspace_bmp *bmp);

/* Reads the eLVL section at `at`, which must end at or before `limit`. */
blvl_status blvl__import_subspace_read_elvl(const uint8_t *b, uint64_t at, uint64_t limit,
                                            const blvl_allocator *a, blvl_subspace_elvl **out,
                                            blvl_error *err);
void blvl__import_subspace_free_elvl(const blvl_allocator *a, blvl_subspace_elvl *e);

#endif
