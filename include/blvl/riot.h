/* Riot engine (Drakan) .lvl: the SRSC container, the level records, and the bake.
 *
 * References: the Drakan level record description (records 0x0000 level name and database
 * references, 0x0001 layers, 0x0002 layer groups, 0x0020 objects); public facts about the SRSC
 * container and the engine's scale (OpenDrakan). docs/IMPORT-RIOT.md restates every field and
 * the choices made where they are silent.
 *
 * Two levels, each with a reader and a writer:
 *   - blvl_riot_srsc: the container. Header "SRSC", u16 version, u32 directory offset, u16 record
 *     count; a directory of 14-byte entries (type, id, group, body offset, body size). Records are
 *     found through the directory, never by position; bytes between bodies are kept.
 *   - blvl_riot_level: the four records of a level parsed field by field, every unknown field
 *     kept verbatim; layer data inflated with zlib (the compressed bytes are kept too).
 * Read -> write is byte-identical at both levels. A refusal is BLVL_E_SOURCE with
 * "<part>: <field> at offset N: <rule>: <problem>", part "SRSC", "directory" or the record
 * ("record 0x0001"), offset from the file's start. All integers little-endian. */
#ifndef BLVL_RIOT_H
#define BLVL_RIOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/bake.h"
#include "blvl/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_RIOT_LEVEL 0x0000u  /* level name and database references (required) */
#define BLVL_RIOT_LAYERS 0x0001u /* layers (required) */
#define BLVL_RIOT_GROUPS 0x0002u /* layer groups */
#define BLVL_RIOT_OBJECTS 0x0020u

#define BLVL_RIOT_HOLE 0xFFFFFFFFu      /* texture reference: neither drawn nor solid */
#define BLVL_RIOT_INVISIBLE 0xFFFFFFFEu /* texture reference: solid, not drawn */
#define BLVL_RIOT_SCALED 0x100u         /* object flag: scaling follows the rotation */

/* Hostile-input limits: the file at most 1 GiB; one layer's inflated data at most 256 MiB. */
#define BLVL_RIOT_MAX_FILE (1u << 30)
#define BLVL_RIOT_MAX_LAYER_DATA (256u << 20)

/* ---- the SRSC container ----------------------------------------------------------------- */

typedef struct blvl_riot_record {
    uint16_t type, id, group;
    uint32_t offset; /* body offset as read; 0 in a record built by hand */
    uint32_t size;
    uint8_t *bytes; /* the body */
} blvl_riot_record;

typedef struct blvl_riot_srsc {
    uint16_t version;      /* 0x0100 seen */
    uint32_t dir_offset;   /* as read; 0 in a container built by hand */
    uint16_t record_count; /* directory entries, in directory order */
    blvl_riot_record *records;
    /* Every run of bytes after the 12-byte header that is neither a body nor the directory, at
     * its file offset, kept so a rewrite puts it back. */
    uint32_t fill_count;
    struct blvl_riot_fill {
        uint32_t offset, size;
        uint8_t *bytes;
    } * fills;
    /* What blvl_riot_srsc_free gives every array back to: the reader sets it to its options'
     * allocator; one built by hand sets the one its arrays came from (zero: malloc). */
    blvl_allocator allocator;
} blvl_riot_srsc;

BLVL_API blvl_status blvl_riot_srsc_read(blvl_riot_srsc **out, const void *data, size_t size,
                                         const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_riot_srsc_free(blvl_riot_srsc *c);
/* A container read back gives its bytes. Built by hand (offsets 0): the bodies follow the
 * header in directory order, the directory after them. Checks nothing a reader would refuse. */
BLVL_API blvl_status blvl_riot_srsc_write(void **out, size_t *size, const blvl_riot_srsc *c,
                                          const blvl_options *opt, blvl_error *err);
/* The directory index of the record of `type`, or -1; the reader refuses a type given twice
 * among 0x0000, 0x0001, 0x0002 and 0x0020. */
BLVL_API int32_t blvl_riot_srsc_find(const blvl_riot_srsc *c, uint16_t type);

/* ---- the level records ------------------------------------------------------------------ */

/* A string: u16 length (always even: an odd text is padded with one zero byte that the length
 * counts), then the bytes. `size` is the length as stored; `text` is a NUL-terminated copy of the
 * bytes with the one padding zero dropped. */
typedef struct blvl_riot_str {
    uint16_t size;
    char *text;
    uint8_t *bytes; /* the `size` bytes as stored */
} blvl_riot_str;

typedef struct blvl_riot_dbref {
    uint16_t index;
    uint16_t unknown; /* kept verbatim */
    blvl_riot_str path;
} blvl_riot_dbref;

typedef struct blvl_riot_color {
    uint8_t r, g, b, pad; /* red, green, blue, 0: the record's byte order */
} blvl_riot_color;

/* 4 bytes per vertex: type (0 normal, 1..75 "water etc."), a constant byte (1 seen), and the
 * height offset / 2 biased by 0x8000 (offset = 2 * (raw - 0x8000) world units). */
typedef struct blvl_riot_vertex {
    uint8_t type, constant;
    uint16_t raw_height;
} blvl_riot_vertex;

/* 26 bytes per cell. Bit 0 of flags: the division (0 = '/', diagonal c-b; 1 = '\', diagonal
 * a-d; corners a b / c d, a top-left). uv in file order: Uc Ud Ub Ua Vc Vd Vb Va
 * (0 = 0.0, 0xFFFF = 1.0). */
typedef struct blvl_riot_cell {
    uint16_t flags;
    uint32_t texture[2]; /* left, right triangle: u16 id | u16 database << 16 */
    uint16_t uv[8];
} blvl_riot_cell;

typedef struct blvl_riot_layer {
    uint32_t id, width, height; /* width, height: cells (vertices - 1) */
    uint32_t type;              /* 0 floor, 1 ceiling, 2 between */
    uint32_t origin_x, origin_z;
    float world_height;
    blvl_riot_str name;
    uint32_t flags;        /* 2 = member of the alternate blending group */
    float light_direction; /* radians: east to west 0, north to south pi/2 */
    float light_ascension; /* radians: horizontal 0, straight down pi/2 */
    blvl_riot_color light_color, ambient_color;
    uint32_t light_dropoff; /* 0 none, 1 N->S, 2 E->W, 3 S->N, 4 W->E */
    uint32_t visible_count;
    uint32_t *visible; /* layer indices (definition order), not ids */
    uint32_t compressed_size;
    uint8_t *compressed;        /* the zlib stream as stored */
    blvl_riot_vertex *vertices; /* (width + 1) * (height + 1), row by row from the top left */
    blvl_riot_cell *cells;      /* width * height */
} blvl_riot_layer;

typedef struct blvl_riot_group {
    blvl_riot_str name;
    uint32_t layer_count;
    uint32_t *layers; /* layer ids */
} blvl_riot_group;

/* A parameter definition of an object: read as u32 type then a string (docs/IMPORT-RIOT.md). */
typedef struct blvl_riot_param_def {
    uint32_t type;
    blvl_riot_str name;
} blvl_riot_param_def;

typedef struct blvl_riot_object {
    uint32_t id;
    uint16_t class_id, class_db;
    uint32_t lighting_layer;
    float position[3]; /* world units; y is the elevation */
    uint32_t flags;    /* 0x01 visible in game, 0x100 scaled */
    uint16_t initial_event_count;
    uint16_t link_count;
    uint16_t *links;      /* indices in the object table, not ids */
    uint16_t rotation[3]; /* degrees */
    float scale[3];       /* present when flags & BLVL_RIOT_SCALED; else 1, 1, 1 */
    uint32_t data_size;   /* dwords of parameter data */
    uint32_t param_count;
    uint32_t *param_data;            /* data_size */
    uint16_t *param_indices;         /* param_count */
    blvl_riot_param_def *param_defs; /* param_count */
} blvl_riot_object;

typedef struct blvl_riot_level {
    blvl_riot_srsc *srsc; /* the container; records other than the four are kept there */
    /* 0x0000 */
    blvl_riot_str name;
    uint32_t max_width, max_height;
    uint32_t dbref_count;
    blvl_riot_dbref *dbrefs;
    /* 0x0001 */
    uint32_t layer_count;
    blvl_riot_layer *layers;
    uint32_t layers_unknown; /* the u32 between the definitions and the data (1 seen) */
    /* 0x0002; has_groups false when the record is absent */
    bool has_groups;
    uint32_t group_count;
    blvl_riot_group *groups;
    /* 0x0020; has_objects false when the record is absent */
    bool has_objects;
    uint16_t object_count;
    blvl_riot_object *objects;
    /* What blvl_riot_free gives every array back to: the reader sets it to its options'
     * allocator; one built by hand sets the one its arrays came from (zero: malloc). */
    blvl_allocator allocator;
} blvl_riot_level;

/* The whole file: the container, then the records through its directory. */
BLVL_API blvl_status blvl_riot_read(blvl_riot_level **out, const void *data, size_t size,
                                    const blvl_options *opt, blvl_error *err);
/* The records of a container already read (the level keeps a copy of `c`). Offsets in refusals
 * are file offsets (record body offset + position in the body). */
BLVL_API blvl_status blvl_riot_parse(blvl_riot_level **out, const blvl_riot_srsc *c,
                                     const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_riot_free(blvl_riot_level *level);
/* The file bytes: each of the four records re-encoded from its fields (a layer's `compressed`
 * bytes as they are; a layer built by hand with compressed NULL is deflated from its vertices
 * and cells), put into the container in place of the old bodies (a level without `srsc` gets a
 * new container, version 0x0100, records in type order). Read -> write gives the same bytes. */
BLVL_API blvl_status blvl_riot_write(void **out, size_t *size, const blvl_riot_level *level,
                                     const blvl_options *opt, blvl_error *err);

/* Fill a bake model from a read level (docs/IMPORT-RIOT.md). */
BLVL_API blvl_status blvl_riot_bake(const blvl_riot_level *level, blvl_bake *bake, blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
