/* A Subspace .lvl generator for the reader's and the bake's tests, the fuzz seeds and the
 * benchmark (tests/support/subspace_gen.c).
 *
 * It builds a blvl_subspace by hand (the public structs of blvl/subspace.h) and writes it with
 * blvl_subspace_write; the truth the tests check against (the tileset's pixels, each region's
 * tiles, the grid) comes from the generator's own functions, never from the reader. Each case
 * covers part of the format:
 *   SSG_BARE       bare tile records: every tile id 1..255 (every category), cells written
 *                  twice (the later record wins);
 *   SSG_BARE_TAIL  the same with records the reader skips (x over 1023, y over 1023, tile 0)
 *                  and a 3-byte trailing partial record;
 *   SSG_ELVL       "elvl" first: ATTR (key=value, no '=', built from attrs), REGN regions whose
 *                  rTIL uses all eight codes, every region sub-chunk, unknown chunks and
 *                  sub-chunks of odd sizes; then records;
 *   SSG_BMP_RAW    an uncompressed (BI_RGB) tileset, no eLVL (bfSize 49718), then records;
 *   SSG_BMP_RLE    an RLE-8 tileset using encoded runs, absolute runs (odd lengths: word
 *                  padding), deltas within a row and across rows, end-of-line after the last
 *                  row, and padding after end-of-bitmap up to bfSize;
 *   SSG_BMP_RLE_ELVL  the RLE-8 tileset, the eLVL of SSG_ELVL at 49720, then records;
 *   SSG_FULL       every cell of the 1024 x 1024 map. */
#ifndef BLVL_TEST_SUBSPACE_GEN_H
#define BLVL_TEST_SUBSPACE_GEN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/subspace.h"

typedef enum ssg_case {
    SSG_BARE,
    SSG_BARE_TAIL,
    SSG_ELVL,
    SSG_BMP_RAW,
    SSG_BMP_RLE,
    SSG_BMP_RLE_ELVL,
    SSG_FULL,
    SSG_CASES
} ssg_case;

const char *ssg_case_name(ssg_case c);

/* The map of a case, built with malloc; free it with ssg_free (not blvl_subspace_free). */
blvl_subspace *ssg_build(ssg_case c);
void ssg_free(blvl_subspace *m);
/* ssg_build + blvl_subspace_write (free *out with blvl_free(opt, *out)). */
blvl_status ssg_write(ssg_case c, const blvl_options *opt, void **out, size_t *size);

/* The truth. The tileset: 304 x 160 palette indices, row 0 the top row; the palette (B, G, R,
 * 0; index 0 black). */
void ssg_tileset(uint8_t *pixels);
void ssg_palette(uint8_t pal[256][4]);
/* The expected grid of a case (what blvl_subspace_grid must give), GRID * GRID bytes. */
void ssg_grid(ssg_case c, uint8_t *grid);
/* Regions of the eLVL cases: their count, and region r's tiles (BITMAP_BYTES, the layout of
 * blvl_subspace_region_tiles); a region without rTIL has none. */
uint32_t ssg_region_count(void);
void ssg_region_bits(uint32_t r, uint8_t *bits);

/* The encoders, for tests that build their own files. `forms` gets a bit per form used:
 * RLE-8: SSG_RLE_* ; rTIL: bit k for the code whose top three bits are k. */
#define SSG_RLE_RUN 1u
#define SSG_RLE_ABSOLUTE 2u
#define SSG_RLE_ABSOLUTE_ODD 4u
#define SSG_RLE_DELTA_ROW 8u   /* a delta within a row (dy = 0) */
#define SSG_RLE_DELTA_DOWN 16u /* a delta to a later row */
#define SSG_RLE_EOL 32u
/* The bottom-up RLE-8 stream of a 304 x 160 image (row 0 the top), ending in end-of-line and
 * end-of-bitmap; `out` may be NULL to size it. Without `deltas`, zeros are encoded runs too. */
size_t ssg_rle8(const uint8_t *pixels, bool deltas, uint8_t *out, unsigned *forms);
size_t ssg_rtil(const uint8_t *bits, uint8_t *out, unsigned *forms);

#endif
