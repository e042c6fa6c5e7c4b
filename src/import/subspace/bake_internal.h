/* blvl_subspace_bake's pieces (docs/IMPORT-SUBSPACE.md, "## The level" onwards):
 *   bake.c         the order of the steps, meta, entities, sites
 *   bake_tiles.c   the tile categories and the text rule (ATTR and names into UTF-8)
 *   bake_cover.c   a cell mask covered by few rectangles (walls, sites)
 *   bake_atlas.c   the atlas: the map's tileset with the black key, or the default tileset
 *   bake_collide.c   wall colliders and doors
 *   bake_geometry.c  one quad per drawn tile */
#ifndef BLVL_IMPORT_SUBSPACE_BAKE_INTERNAL_H
#define BLVL_IMPORT_SUBSPACE_BAKE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "blvl/bake.h"
#include "blvl/subspace.h"

/* What a tile id is (the table of docs/IMPORT-SUBSPACE.md). */
typedef enum ssb_cat {
    SSB_EMPTY = 0,
    SSB_WALL,      /* 1..161 (border 20 included): solid, drawn */
    SSB_DOOR,      /* 162..169: a door (closed: solid), drawn, an entity */
    SSB_FLAG,      /* 170 turf flag: drawn, an entity and a flag site */
    SSB_SAFE,      /* 171: drawn, a "safe" site, not solid */
    SSB_GOAL,      /* 172: drawn, a "goal" site, not solid */
    SSB_FLYOVER,   /* 173..175: drawn, not solid */
    SSB_FLYUNDER,  /* 176..190: drawn, not solid */
    SSB_ASTEROID,  /* 216..218: an entity */
    SSB_STATION,   /* 219: an entity, its 6 x 6 footprint solid */
    SSB_WORMHOLE,  /* 220: an entity */
    SSB_INVISIBLE, /* 240..255: solid (clip), never drawn */
    SSB_OTHER,     /* 191..215, 221..239: an entity, nothing else */
    SSB_CAT_COUNT
} ssb_cat;

ssb_cat blvl__import_subspace_bake_category(uint32_t tile);
bool blvl__import_subspace_bake_drawn(ssb_cat c);
/* The entity kind of an entity-backed or unknown tile ("vertical_door", "turf_flag", ...). */
const char *blvl__import_subspace_bake_kind(uint32_t tile);
/* Footprint in cells, anchored at the record's cell as top-left. */
uint32_t blvl__import_subspace_bake_footprint(uint32_t tile);

/* A rectangle of cells. */
typedef struct ssb_rect {
    uint16_t x, y, w, h;
} ssb_rect;

/* Cover every nonzero cell of `mask` (GRID x GRID bytes) by rectangles of nonzero cells
 * (bake_cover.c has the rule). `scratch` holds GRID * GRID bytes. *out is allocated with `al`
 * (*cap entries; free *cap * sizeof(ssb_rect)); NULL with *count 0 for an empty mask. */
blvl_status blvl__import_subspace_bake_cover(const uint8_t *mask, uint8_t *scratch,
                                             const blvl_allocator *al, ssb_rect **out,
                                             uint32_t *count, uint32_t *cap, blvl_error *err);

typedef struct subspace_bake {
    const blvl_subspace *map;
    blvl_bake *b;
    const blvl_allocator *al;
    blvl_error *err;
    uint8_t *grid;                    /* GRID * GRID tile ids */
    uint8_t *mask;                    /* GRID * GRID scratch */
    uint8_t *scratch;                 /* GRID * GRID scratch for the cover */
    uint32_t image;                   /* the atlas */
    uint32_t material[SSB_CAT_COUNT]; /* per drawn category present; BLVL_BAKE_NONE */
    uint32_t door[8];                 /* per door id 162..169 present; BLVL_BAKE_NONE */
} subspace_bake;

/* `s` as UTF-8: kept when it is UTF-8, else each byte read as ISO-8859-1. Allocated with the
 * bake's allocator (blvl__free_sized). NULL when out of memory. */
char *blvl__import_subspace_bake_text(const blvl_allocator *al, const char *s);
blvl_Vec3 blvl__import_subspace_bake_lo(uint32_t x, uint32_t y);
blvl_Vec3 blvl__import_subspace_bake_hi(uint32_t x, uint32_t y, uint32_t w, uint32_t h);

blvl_status blvl__import_subspace_bake_atlas(subspace_bake *c);
blvl_status blvl__import_subspace_bake_sim(subspace_bake *c);
blvl_status blvl__import_subspace_bake_geometry(subspace_bake *c);

#endif
