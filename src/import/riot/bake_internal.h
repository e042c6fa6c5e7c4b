/* blvl_riot_bake's pieces (docs/IMPORT-RIOT.md, "## The level" onwards): one context shared by
 *   bake.c           the order of the steps, checks, meta, materials
 *   bake_text.c      the text convention of entity values (numbers, escapes, hex)
 *   bake_offsets.c   file offsets of the fields a bake refusal names
 *   bake_entities.c  level, databases, layers, groups and objects as entities
 *   bake_geometry.c  per-layer vertex grid (position, normal, colour), sources, surfaces
 *   bake_collide.c   colliders: merged planar rectangles and per-triangle prisms */
#ifndef BLVL_IMPORT_RIOT_BAKE_INTERNAL_H
#define BLVL_IMPORT_RIOT_BAKE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bake/model/fast.h"
#include "blvl/bake.h"
#include "blvl/riot.h"

/* Thickness (qu) of the solid a terrain triangle stands for, measured vertically: below a floor,
 * above a ceiling, below a between layer's surface (a thin slab, solid from both sides). */
#define RB_FLOOR_THICKNESS 32.0
#define RB_CEILING_THICKNESS 32.0
#define RB_BETWEEN_THICKNESS 4.0

/* Scale: a cell is 2048 world units = 128 qu; 1 world unit = 1/16 qu. */
#define RB_CELL_QU 128.0
#define RB_QU_PER_UNIT (1.0 / 16.0)

/* Bake limits (refused with the rules "layer-extent" and "layer-height"). */
#define RB_MAX_EXTENT 65536u       /* origin + size, in cells, on each axis */
#define RB_MAX_HEIGHT 1073741824.0 /* |world_height| in world units */

/* Corners of a cell: a b / c d, a top-left (north-west). */
enum { RB_A = 0, RB_B = 1, RB_C = 2, RB_D = 3 };

typedef struct riot_bake {
    const blvl_riot_level *lv;
    blvl_bake *b;
    const blvl_allocator *al;
    blvl_error *err;
    uint32_t *layer_entity; /* per layer: its entity index */
    /* texture reference -> material index: open addressing, keys 0 = empty slot (ref + 1 kept) */
    uint32_t *mat_keys, *mat_vals;
    uint32_t mat_cap, mat_count;
    /* bake_geometry.c: one entry per material (and one for none), made once for the bake and left
     * empty after each layer, so a layer costs its cells, not the level's materials */
    struct mat_run *runs;
} riot_bake;

/* bake.c */
/* The material of a drawn texture reference (BLVL_BAKE_NONE for a hole or invisible one). */
uint32_t blvl__import_riot_bake_material(const riot_bake *c, uint32_t ref);
bool blvl__import_riot_bake_drawn(uint32_t ref);

/* bake_text.c: a growable text buffer; on allocation failure `bad` is set and appends stop. */
typedef struct rb_text {
    const blvl_allocator *al;
    char *p;
    size_t n, cap;
    bool bad;
} rb_text;
void blvl__import_riot_bake_text_reset(rb_text *t);
void blvl__import_riot_bake_text_free(rb_text *t);
void blvl__import_riot_bake_text_add(rb_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Printable ASCII as is, a backslash as "\\", every other byte as "\xHH". */
void blvl__import_riot_bake_text_escaped(rb_text *t, const char *s);
void blvl__import_riot_bake_text_hex(rb_text *t, const uint8_t *bytes, size_t n);
/* The shortest of %.6g .. %.9g that reads back as the same float; -0 as 0; an infinity or a NaN
 * as its bits, "0x%08x". */
void blvl__import_riot_bake_text_float(rb_text *t, float v);
/* A finished string: the buffer's text, or "" when it is empty. */
const char *blvl__import_riot_bake_text_str(const rb_text *t);

/* bake_offsets.c: file offsets (record body offset + position in the body; the body offset is 0
 * for a level built by hand). */
uint64_t blvl__import_riot_bake_layer_offset(const blvl_riot_level *lv, uint32_t layer);
uint64_t blvl__import_riot_bake_object_offset(const blvl_riot_level *lv, uint32_t object);
uint64_t blvl__import_riot_bake_name_size(const blvl_riot_str *s);

/* bake_entities.c */
blvl_status blvl__import_riot_bake_entities(riot_bake *c);

/* bake_geometry.c: one layer's sources (returned through *first_source) and surfaces. */
typedef struct rb_grid {
    uint32_t w, h;       /* cells */
    int32_t *hraw;       /* (w+1)(h+1) heights in world units above world_height: 2*(raw-0x8000) */
    blvl_Vec3 *pos;      /* qu */
    blvl_Vec3 *normal;   /* the side the layer faces */
    uint8_t (*color)[4]; /* Lambert */
} rb_grid;
blvl_status blvl__import_riot_bake_grid_make(riot_bake *c, uint32_t layer, rb_grid *g);
void blvl__import_riot_bake_grid_free(riot_bake *c, rb_grid *g);
/* Adds to *n the sources, vertices, indices and surfaces blvl__import_riot_bake_terrain adds for
 * the layer, and an estimate of its colliders, so the model's tables are sized once
 * (bake_geometry.c). */
void blvl__import_riot_bake_counts(const riot_bake *c, uint32_t layer, bake_counts *n);
blvl_status blvl__import_riot_bake_terrain(riot_bake *c, uint32_t layer, const rb_grid *g,
                                           uint32_t *first_source);
void blvl__import_riot_bake_terrain_free(riot_bake *c);

/* bake_collide.c */
blvl_status blvl__import_riot_bake_colliders(riot_bake *c, uint32_t layer, const rb_grid *g,
                                             uint32_t first_source);

#endif
