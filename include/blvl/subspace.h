/* Subspace / Continuum .lvl: reader, writer and bake.
 *
 * References: the Subspace .lvl description (tileset BMP, eLVL metadata, tile records) and the
 * public eLVL specification (REGN sub-chunks, the rTIL run-length code); docs/IMPORT-SUBSPACE.md
 * restates every field and the choices made where they are silent.
 *
 * A file is, in order: an optional 8-bit BMP tileset (304 x 160, 190 tiles of 16 x 16, RLE-8 or
 * uncompressed), optional eLVL metadata (ATTR key=value pairs, REGN regions, other chunks), then
 * 4-byte tile records up to the end. Three starts: "BM" (a tileset; the eLVL follows at the
 * offset the BMP's reserved field names, 49720 in practice), "elvl" (metadata, no tileset), or
 * bare tile records.
 *
 * blvl_subspace_read parses and checks everything (the BMP decoded, every chunk walked, every
 * REGN's rTIL decoded once to check it) before it returns. Everything read is kept, unknown
 * chunks and padding included, so blvl_subspace_write gives back the bytes read. A refusal is
 * BLVL_E_SOURCE with "<part>: <field> at offset N: <rule>: <problem>" (offset from the file's
 * start; parts "BMP", "eLVL", "ATTR", "REGN", "tiles").
 *
 * blvl_subspace_bake converts a read map into a level one tile thick (docs/IMPORT-SUBSPACE.md):
 * tile (x, y) is the cell X in [16x, 16x+16], Y in [0, 16], Z in [16y, 16y+16] qu. */
#ifndef BLVL_SUBSPACE_H
#define BLVL_SUBSPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/bake.h"
#include "blvl/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_SUBSPACE_GRID 1024u     /* the map is GRID x GRID cells */
#define BLVL_SUBSPACE_TILE_PX 16u    /* a tile is 16 x 16 pixels and 16 x 16 qu */
#define BLVL_SUBSPACE_TILESET_W 304u /* 19 tiles across */
#define BLVL_SUBSPACE_TILESET_H 160u /* 10 tiles down: tiles 1..190 */
#define BLVL_SUBSPACE_ELVL_AT 49720u /* the usual eLVL offset after a tileset */
/* Bytes of a region's tile bitmap: bit (x + y * GRID) is byte >> 3, bit & 7 (LSB first). */
#define BLVL_SUBSPACE_BITMAP_BYTES (BLVL_SUBSPACE_GRID * BLVL_SUBSPACE_GRID / 8u)
/* Hostile-input limit: the file at most 64 MiB (public maps are under 1 MiB). */
#define BLVL_SUBSPACE_MAX_FILE (64u << 20)

/* The tileset BMP. The header fields are as read; the pixel stream (from data_offset to where
 * the next part starts, padding included) is kept verbatim and also decoded into `pixels`. */
typedef struct blvl_subspace_bmp {
    uint32_t file_size;    /* bfSize: where the tile records start when no eLVL follows */
    uint32_t reserved;     /* bfReserved1 | bfReserved2 << 16: the eLVL offset when nonzero */
    uint32_t data_offset;  /* bfOffBits */
    uint32_t header_size;  /* biSize (40 or more; bytes past the 40 kept in `header_extra`) */
    int32_t width, height; /* height < 0: rows top to bottom (refused with RLE-8, as BMP says) */
    uint16_t planes, bits; /* 1, 8 */
    uint32_t compression;  /* 0 BI_RGB, 1 BI_RLE8 */
    uint32_t image_size, x_ppm, y_ppm, colors_used, colors_important;
    uint8_t *header_extra;  /* header_size - 40 bytes */
    uint32_t palette_count; /* colors_used, or 256 when 0 */
    uint8_t (*palette)[4];  /* B, G, R, reserved as in the file */
    uint8_t *gap;           /* bytes between the palette's end and data_offset */
    uint32_t gap_size;
    uint8_t *data; /* the pixel stream as read, padding after the image included */
    uint32_t data_size;
    /* Decoded: width * |height| palette indices, row 0 = the top row of the image. */
    uint8_t *pixels;
} blvl_subspace_bmp;

/* An eLVL chunk or REGN sub-chunk as read: its type, its bytes, and the 0..3 alignment bytes
 * after it (kept as read; the writer emits zeros for a chunk built by hand). */
typedef struct blvl_subspace_chunk {
    char type[4];
    uint32_t size;
    uint8_t *bytes;
    uint8_t pad[3];
    uint8_t pad_size;
    uint64_t offset; /* file offset of the type, for refusals (0 for a chunk built by hand) */
} blvl_subspace_chunk;

/* An ATTR chunk: its text split at the first '=' (a chunk without '=' is kept with value NULL). */
typedef struct blvl_subspace_attr {
    char *key, *value; /* NUL-terminated copies; the chunk's bytes stay in `chunk` */
    uint32_t chunk;    /* index in blvl_subspace_elvl.chunks */
} blvl_subspace_attr;

/* A REGN chunk. Its sub-chunks are kept in `subs` in file order; the known ones are also
 * parsed here. rTIL is kept encoded: blvl_subspace_region_tiles decodes it. */
typedef struct blvl_subspace_region {
    uint32_t chunk; /* index in blvl_subspace_elvl.chunks */
    uint32_t sub_count;
    blvl_subspace_chunk *subs;
    char *name;         /* rNAM (NUL-terminated copy); NULL when absent */
    uint32_t tiles_sub; /* index of rTIL in subs; UINT32_MAX when absent */
    bool base, no_antiwarp, no_weapons, no_flag_drops; /* rBSE, rNAW, rNWP, rNFL present */
    bool has_autowarp;                                 /* rAWP present: */
    int16_t warp_x, warp_y;                            /* destination tile; -1 = random */
    char *warp_arena;                                  /* NULL when the rAWP names no arena */
    uint32_t code_sub; /* index of rPYC in subs (kept, never run); UINT32_MAX when absent */
} blvl_subspace_region;

typedef struct blvl_subspace_elvl {
    uint64_t offset;     /* file offset of "elvl" */
    uint32_t total_size; /* as read: the whole section, its 12-byte header included */
    uint32_t reserved;   /* as read */
    uint32_t chunk_count;
    blvl_subspace_chunk *chunks; /* every chunk in file order, ATTR and REGN included */
    uint32_t attr_count;
    blvl_subspace_attr *attrs;
    uint32_t region_count;
    blvl_subspace_region *regions;
} blvl_subspace_elvl;

/* The tile id of a record and its coordinates. */
#define BLVL_SUBSPACE_TILE(r) ((uint32_t)(r) >> 24)
#define BLVL_SUBSPACE_Y(r) (((uint32_t)(r) >> 12) & 0xFFFu)
#define BLVL_SUBSPACE_X(r) ((uint32_t)(r)&0xFFFu)
#define BLVL_SUBSPACE_RECORD(tile, x, y)                                                           \
    ((uint32_t)(tile) << 24 | ((uint32_t)(y)&0xFFFu) << 12 | ((uint32_t)(x)&0xFFFu))

typedef struct blvl_subspace {
    blvl_subspace_bmp *bmp;   /* NULL: no tileset */
    blvl_subspace_elvl *elvl; /* NULL: no metadata */
    uint8_t *gap;             /* bytes between the end of the eLVL and the tile records */
    uint32_t gap_size;
    uint64_t tiles_offset; /* file offset of the first tile record */
    uint32_t record_count;
    uint32_t *records; /* every record as read, in file order, skipped ones included */
    uint8_t tail[3];   /* a trailing partial record, ignored (kept for the writer) */
    uint8_t tail_size;
    /* What the reader saw: records skipped for a coordinate over 1023, for tile id 0. */
    uint32_t skipped_range, skipped_empty;
    /* What blvl_subspace_free gives every array back to: the reader sets it to its options'
     * allocator; a map built by hand sets the one its arrays came from (zero: malloc). */
    blvl_allocator allocator;
} blvl_subspace;

/* The bake's options; zeroed = the defaults. blvl_subspace_read and _write take &opt.base. */
typedef struct blvl_subspace_options {
    blvl_options base; /* not read by the bake: the bake allocates with its own options */
    /* The level's name when the map's ATTR has no NAME (the CLI gives the file name); NULL =
     * none. */
    const char *name;
} blvl_subspace_options;

BLVL_API blvl_status blvl_subspace_read(blvl_subspace **out, const void *data, size_t size,
                                        const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_subspace_free(blvl_subspace *map);
/* The file bytes of `map` (free with blvl_free(opt, ptr)): a map from blvl_subspace_read gives
 * back the bytes it was read from. A map built by hand may leave offsets, sizes and pads zero:
 * the writer lays the parts out in order (the eLVL right after the BMP's pixel stream when the
 * BMP's reserved field is 0, else at that offset) and computes the sizes it must. It checks
 * nothing a reader would refuse: tests build malformed files with it. */
BLVL_API blvl_status blvl_subspace_write(void **out, size_t *size, const blvl_subspace *map,
                                         const blvl_options *opt, blvl_error *err);

/* The cell grid after the records: grid[x + y * GRID] = tile id, later records over earlier
 * ones, skipped records left out. `grid` holds GRID * GRID bytes. */
BLVL_API void blvl_subspace_grid(const blvl_subspace *map, uint8_t *grid);
/* Decode a region's rTIL into `bits` (BLVL_SUBSPACE_BITMAP_BYTES, cleared first); a region
 * without rTIL has no tiles. The reader has already checked the code. */
BLVL_API blvl_status blvl_subspace_region_tiles(const blvl_subspace_region *r, uint8_t *bits,
                                                blvl_error *err);

/* The tileset the bake uses when a map has none: 304 x 160 RGBA8, rows top to bottom, drawn by
 * the project (no third-party art). `rgba` holds TILESET_W * TILESET_H * 4 bytes. */
BLVL_API void blvl_subspace_default_tileset(uint8_t *rgba);

/* Fill a bake model from a read map; `opt` may be NULL (no fallback name). */
BLVL_API blvl_status blvl_subspace_bake(const blvl_subspace *map, blvl_bake *bake,
                                        const blvl_subspace_options *opt, blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
