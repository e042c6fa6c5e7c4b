/* The Riot .lvl reader's and writer's shared parts: the record fields read through the common
 * cursor, the wire sizes the writer sizes its
 * output with, the container's layout, zlib through the caller's allocator. */
#ifndef BLVL_IMPORT_RIOT_INTERNAL_H
#define BLVL_IMPORT_RIOT_INTERNAL_H

#include <stdint.h>

#include "blvl/riot.h"
#include "common/cursor.h"
#include "common/error.h"

#define RT_HEADER_SIZE 12u /* "SRSC", u16 version, u32 directory offset, u16 record count */
#define RT_ENTRY_SIZE 14u  /* u16 type, id, group; u32 offset, size */

/* Smallest wire size of each record element (every string empty, every array empty): a count
 * is refused when count * this exceeds the bytes left, before anything is allocated. */
#define RT_DBREF_MIN 6u      /* index, unknown, string */
#define RT_LAYER_DEF_MIN 58u /* 7 u32/f32, string, flags, 2 f32, 2 colours, dropoff, count */
#define RT_DATA_BLOCK_MIN 4u /* compressed_size */
#define RT_GROUP_MIN 6u      /* string, layer_count */
#define RT_OBJECT_MIN 46u    /* id, class, layer, position, flags, 2 u16, rotation, 2 counts */
#define RT_PARAM_DEF_MIN 6u  /* type, string */
#define RT_VERTEX_SIZE 4u
#define RT_CELL_SIZE 26u

/* Every record field is read through the common cursor (common/cursor.h; its unit is "record",
 * its positions are body offsets, `at` the body's file offset). Riot's own fields: */
blvl_status blvl__import_riot_color(blvl__cursor *c, const char *leaf, blvl_riot_color *v);
/* A string: u16 even length (rule string-odd), bytes inside the record, copied. */
blvl_status blvl__import_riot_str(blvl__cursor *c, const char *leaf, blvl_riot_str *s);
/* `n` records of at least `min` bytes each (blvl__cursor_array) into the array lvalue `arr`,
 * returning from the calling function on a refusal. */
#define RT_ARRAY(c, leaf, at, n, min, arr)                                                         \
    do {                                                                                           \
        void *p_ = NULL;                                                                           \
        blvl_status s_ = blvl__cursor_array((c), (leaf), (at), (n), (min), sizeof *(arr), &p_);    \
        (arr) = p_;                                                                                \
        if (s_)                                                                                    \
            return s_;                                                                             \
    } while (0)

/* Record body readers (parse_*.c): each fills its part of `level`. */
blvl_status blvl__import_riot_parse_level(blvl__cursor *c, blvl_riot_level *level);
blvl_status blvl__import_riot_parse_layers(blvl__cursor *c, blvl_riot_level *level);
blvl_status blvl__import_riot_parse_groups(blvl__cursor *c, blvl_riot_level *level);
blvl_status blvl__import_riot_parse_objects(blvl__cursor *c, blvl_riot_level *level);

/* The inflated size of a width x height layer, or 0 when it is over BLVL_RIOT_MAX_LAYER_DATA
 * (computed without overflow). */
uint64_t blvl__import_riot_layer_data_size(uint32_t width, uint32_t height);
/* zlib streams whose memory comes from `a` (layer.c). */
struct z_stream_s;
void blvl__import_riot_zlib_alloc(struct z_stream_s *z, const blvl_allocator *a);

/* Record body sizes and encoders (write_records.c). `deflated[i]` / `deflated_size[i]`: the
 * zlib stream for a layer whose `compressed` is NULL (made by the caller beforehand). */
typedef struct rt_deflated {
    uint8_t **bytes;
    uint32_t *size;
} rt_deflated;
uint64_t blvl__import_riot_size_record(const blvl_riot_level *level, uint16_t type,
                                       const rt_deflated *d);
void blvl__import_riot_encode_record(const blvl_riot_level *level, uint16_t type,
                                     const rt_deflated *d, uint8_t *out);

/* Frees the parts of a container (its records, their bodies, its fills) but not `c` itself. */
void blvl__import_riot_srsc_clear(blvl_riot_srsc *c, const blvl_allocator *a);
/* Frees the strings and arrays a string holds. */
void blvl__import_riot_str_free(blvl_riot_str *s, const blvl_allocator *a);

#endif
