/* The Riot .lvl reader's and writer's shared parts: the cursor every record field is read
 * through (bounds and refusal messages in one place), the wire sizes the writer sizes its
 * output with, the container's layout, zlib through the caller's allocator. */
#ifndef BLVL_IMPORT_RIOT_INTERNAL_H
#define BLVL_IMPORT_RIOT_INTERNAL_H

#include <stdint.h>

#include "blvl/riot.h"
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

/* Where a field is, for refusals: up to three levels of name[index], then a leaf name. */
typedef struct rt_path {
    const char *name[3];
    uint32_t index[3];
    int depth;
} rt_path;

typedef struct rt_cur {
    const uint8_t *base; /* the record body */
    uint64_t pos, end;   /* offsets in the body */
    uint64_t at;         /* the body's file offset */
    const char *part;    /* "record 0x0001" */
    const blvl_allocator *a;
    blvl_error *err;
    rt_path path;
} rt_cur;

static inline void rt_enter(rt_cur *c, const char *name, uint32_t index) {
    c->path.name[c->path.depth] = name;
    c->path.index[c->path.depth] = index;
    c->path.depth++;
}
static inline void rt_leave(rt_cur *c) {
    c->path.depth--;
}
static inline uint64_t rt_left(const rt_cur *c) {
    return c->end - c->pos;
}

/* A refusal of field `leaf` under the cursor's path at body position `pos`. */
blvl_status blvl__rt_fail(const rt_cur *c, const char *leaf, uint64_t pos, const char *rule,
                          const char *fmt, ...) BLVL_PRINTF(5, 6);
/* Readers: each checks the bytes left in the record (rule field-size) and advances. */
blvl_status blvl__rt_need(rt_cur *c, const char *leaf, uint64_t n);
blvl_status blvl__rt_u8(rt_cur *c, const char *leaf, uint8_t *v);
blvl_status blvl__rt_u16(rt_cur *c, const char *leaf, uint16_t *v);
blvl_status blvl__rt_u32(rt_cur *c, const char *leaf, uint32_t *v);
blvl_status blvl__rt_f32(rt_cur *c, const char *leaf, float *v);
blvl_status blvl__rt_color(rt_cur *c, const char *leaf, blvl_riot_color *v);
/* A string: u16 even length (rule string-odd), bytes inside the record, copied. */
blvl_status blvl__rt_str(rt_cur *c, const char *leaf, blvl_riot_str *s);
/* `n` records of at least `min` bytes each must fit in the bytes left (rule count-size);
 * `at` is the count's position, for the message. Then `*arr` gets n zeroed elements (NULL for
 * n = 0). */
blvl_status blvl__rt_array(rt_cur *c, const char *leaf, uint64_t at, uint64_t n, uint64_t min,
                           size_t elem, void **arr);
#define RT_ARRAY(c, leaf, at, n, min, arr)                                                         \
    do {                                                                                           \
        void *p_ = NULL;                                                                           \
        blvl_status s_ = blvl__rt_array((c), (leaf), (at), (n), (min), sizeof *(arr), &p_);        \
        (arr) = p_;                                                                                \
        if (s_)                                                                                    \
            return s_;                                                                             \
    } while (0)
/* The record ends here (rule leftover). */
blvl_status blvl__rt_end(rt_cur *c);

/* Record body readers (parse_*.c): each fills its part of `level`. */
blvl_status blvl__rt_parse_level(rt_cur *c, blvl_riot_level *level);
blvl_status blvl__rt_parse_layers(rt_cur *c, blvl_riot_level *level);
blvl_status blvl__rt_parse_groups(rt_cur *c, blvl_riot_level *level);
blvl_status blvl__rt_parse_objects(rt_cur *c, blvl_riot_level *level);

/* The inflated size of a width x height layer, or 0 when it is over BLVL_RIOT_MAX_LAYER_DATA
 * (computed without overflow). */
uint64_t blvl__rt_layer_data_size(uint32_t width, uint32_t height);
/* zlib streams whose memory comes from `a` (layer.c). */
struct z_stream_s;
void blvl__rt_zlib_alloc(struct z_stream_s *z, const blvl_allocator *a);

/* Record body sizes and encoders (write_records.c). `deflated[i]` / `deflated_size[i]`: the
 * zlib stream for a layer whose `compressed` is NULL (made by the caller beforehand). */
typedef struct rt_deflated {
    uint8_t **bytes;
    uint32_t *size;
} rt_deflated;
uint64_t blvl__rt_size_record(const blvl_riot_level *level, uint16_t type, const rt_deflated *d);
void blvl__rt_encode_record(const blvl_riot_level *level, uint16_t type, const rt_deflated *d,
                            uint8_t *out);

/* Frees the parts of a container (its records, their bodies, its fills) but not `c` itself. */
void blvl__rt_srsc_clear(blvl_riot_srsc *c, const blvl_allocator *a);
/* Frees the strings and arrays a string holds. */
void blvl__rt_str_free(blvl_riot_str *s, const blvl_allocator *a);

#endif
