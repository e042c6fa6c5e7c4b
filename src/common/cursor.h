/* A bounds-checked little-endian byte cursor, shared by the importers' readers (hmap chunks,
 * Riot records, Quake 3 lumps). Every read checks the bytes left first (rule field-size), loads
 * bytes one at a time (no unaligned access; floats bit for bit through memcpy) and advances;
 * nothing reads past `end`. A refusal names the part, the field's path ("brush[2].face[0].uv")
 * and the file offset of the field (`at` + position). */
#ifndef BLVL_COMMON_CURSOR_H
#define BLVL_COMMON_CURSOR_H

#include <stdint.h>

#include "common/error.h"

#define BLVL__CURSOR_DEPTH 4
#define BLVL__CURSOR_NO_INDEX UINT32_MAX /* a level named without an index: "bsp.root" */

/* Where a field is: up to four levels of name[index], then a leaf name. The levels are plain
 * assignments while reading; the text is built only when a refusal needs it. */
typedef struct blvl__cursor_path {
    const char *name[BLVL__CURSOR_DEPTH];
    uint32_t index[BLVL__CURSOR_DEPTH];
    int depth;
} blvl__cursor_path;

typedef struct blvl__cursor {
    const uint8_t *base;     /* the bytes read */
    uint64_t pos, end;       /* positions in base; pos <= end always */
    uint64_t at;             /* the file offset of base[0], for messages only */
    const char *part;        /* names what is read in refusals ("MESH", "record 0x0001") */
    const char *unit;        /* "chunk", "record": "... bytes are left in the <unit>" */
    const blvl_allocator *a; /* for the readers' copies */
    blvl_error *err;
    blvl__cursor_path path;
} blvl__cursor;

/* Push a level ("brush", i) / replace its index / pop it. */
static inline void blvl__cursor_enter(blvl__cursor *c, const char *name, uint32_t index) {
    c->path.name[c->path.depth] = name;
    c->path.index[c->path.depth] = index;
    c->path.depth++;
}
static inline void blvl__cursor_leave(blvl__cursor *c) {
    c->path.depth--;
}
static inline void blvl__cursor_index(blvl__cursor *c, uint32_t index) {
    c->path.index[c->path.depth - 1] = index;
}
static inline uint64_t blvl__cursor_left(const blvl__cursor *c) {
    return c->end - c->pos;
}

/* "brush[2].face[0].material" into buf (truncated to `size`). */
void blvl__cursor_path_text(const blvl__cursor_path *p, const char *leaf, char *buf, size_t size);
/* A refusal of field `leaf` under the cursor's path, at position `pos` (reported as at + pos). */
blvl_status blvl__cursor_fail(const blvl__cursor *c, const char *leaf, uint64_t pos,
                              const char *rule, const char *fmt, ...) BLVL_PRINTF(5, 6);

/* Readers: each refuses when fewer than its size are left (rule field-size, nothing read, pos
 * unchanged) and otherwise reads and advances. */
blvl_status blvl__cursor_need(const blvl__cursor *c, const char *leaf, uint64_t n);
blvl_status blvl__cursor_u8(blvl__cursor *c, const char *leaf, uint8_t *v);
blvl_status blvl__cursor_u16(blvl__cursor *c, const char *leaf, uint16_t *v);
blvl_status blvl__cursor_u32(blvl__cursor *c, const char *leaf, uint32_t *v);
blvl_status blvl__cursor_i32(blvl__cursor *c, const char *leaf, int32_t *v);
blvl_status blvl__cursor_f32(blvl__cursor *c, const char *leaf, float *v);
/* `n` bytes in place: *p points into base (valid while base is). */
blvl_status blvl__cursor_bytes(blvl__cursor *c, const char *leaf, uint64_t n, const uint8_t **p);
blvl_status blvl__cursor_skip(blvl__cursor *c, const char *leaf, uint64_t n);

/* Loads from bytes already known to be there (after blvl__cursor_need or a bounded lump). */
float blvl__le_f32(const uint8_t *p);

/* `n` records of at least `min` bytes each must fit in the bytes left (rule count-size; `at` is
 * the count's position, for the message), then *arr gets n zeroed elements of `elem` bytes
 * (NULL for n = 0), freed with blvl__dealloc(a, *arr, n * elem). */
blvl_status blvl__cursor_array(blvl__cursor *c, const char *leaf, uint64_t at, uint64_t n,
                               uint64_t min, size_t elem, void **arr);
/* Nothing is left (rule leftover). */
blvl_status blvl__cursor_end(blvl__cursor *c);

#endif
