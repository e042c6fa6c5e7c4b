/* libblvl's FlatBuffers runtime, reading: little-endian scalar loads, strings, vectors, tables
 * and the field accessors the generated readers (include/blvl/sections/<name>.h) are made of.
 *
 * Verify a buffer once (blvl/fb_verifier.h, or the generated blvl_<Root>_verify), then read it
 * with the generated accessors, which do no bounds checks of their own and never assume
 * alignment (every load assembles bytes; floats go through memcpy). An absent table reads as an
 * empty one: every accessor on it returns the field's default.
 *
 * The runtime is split by job, as flatcc's is: fb_reader.h (this), fb_types.h (the type tables
 * fbsgen emits), fb_verifier.h, fb_builder.h, fb_json.h; blvl/fb.h includes them all. A program
 * that only reads includes no builder and no JSON. docs/FLATBUFFERS.md records the decisions. */
#ifndef BLVL_FB_READER_H
#define BLVL_FB_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "blvl/le.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The generated headers assert struct layouts; C++ spells the keywords differently. */
#ifdef __cplusplus
#define BLVL_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#define BLVL_ALIGNOF(type) alignof(type)
#else
#define BLVL_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define BLVL_ALIGNOF(type) _Alignof(type)
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "blvl's typed FlatBuffers structs mirror wire bytes and need a little-endian host"
#endif

/* ---- limits ------------------------------------------------------------------------------ */

#define BLVL_FB_MAX_SIZE 0x7FFFFFFFu /* a buffer, like the reference implementation */

/* ---- little-endian loads: blvl/le.h under the FlatBuffers scalar names -------------------- */

static inline uint8_t blvl_fb_u8(const uint8_t *p) {
    return p[0];
}
static inline uint16_t blvl_fb_u16(const uint8_t *p) {
    return blvl_le16(p);
}
static inline uint32_t blvl_fb_u32(const uint8_t *p) {
    return blvl_le32(p);
}
static inline uint64_t blvl_fb_u64(const uint8_t *p) {
    return blvl_le64(p);
}
static inline int8_t blvl_fb_i8(const uint8_t *p) {
    return (int8_t)p[0];
}
static inline int16_t blvl_fb_i16(const uint8_t *p) {
    return (int16_t)blvl_fb_u16(p);
}
static inline int32_t blvl_fb_i32(const uint8_t *p) {
    return (int32_t)blvl_fb_u32(p);
}
static inline int64_t blvl_fb_i64(const uint8_t *p) {
    return (int64_t)blvl_fb_u64(p);
}
static inline float blvl_fb_f32(const uint8_t *p) {
    uint32_t u = blvl_fb_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline double blvl_fb_f64(const uint8_t *p) {
    uint64_t u = blvl_fb_u64(p);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static inline bool blvl_fb_bool(const uint8_t *p) {
    return p[0] != 0;
}

/* ---- tables of a verified buffer ------------------------------------------------------------ */

/* A string: `ptr` is NUL-terminated ("" when the field is absent), `len` excludes the NUL. */
typedef struct blvl_fb_str {
    const char *ptr;
    uint32_t len;
} blvl_fb_str;

/* A vector: `data` points at the first element (NULL and 0 when absent). */
typedef struct blvl_fb_vec {
    const uint8_t *data;
    uint32_t len;
} blvl_fb_vec;

/* The root table of a verified buffer. */
static inline const uint8_t *blvl_fb_root(const void *buf) {
    const uint8_t *b = (const uint8_t *)buf;
    return b ? b + blvl_fb_u32(b) : NULL;
}

/* Byte offset of field `id` inside table `t`, 0 when absent (or when t is NULL). */
static inline uint32_t blvl_fb_field_offset(const uint8_t *t, unsigned id) {
    if (!t)
        return 0;
    const uint8_t *vt = t - (ptrdiff_t)blvl_fb_i32(t);
    uint32_t slot = 4u + 2u * id;
    return slot + 2u <= blvl_fb_u16(vt) ? blvl_fb_u16(vt + slot) : 0u;
}
static inline bool blvl_fb_has(const uint8_t *t, unsigned id) {
    return blvl_fb_field_offset(t, id) != 0;
}
static inline const uint8_t *blvl_fb_deref(const uint8_t *p) {
    return p + blvl_fb_u32(p);
}
/* The table a field refers to; NULL (the empty table) when absent. */
static inline const uint8_t *blvl_fb_get_table(const uint8_t *t, unsigned id) {
    uint32_t o = blvl_fb_field_offset(t, id);
    return o ? blvl_fb_deref(t + o) : NULL;
}
static inline blvl_fb_vec blvl_fb_get_vec(const uint8_t *t, unsigned id) {
    blvl_fb_vec v = {NULL, 0};
    uint32_t o = blvl_fb_field_offset(t, id);
    if (o) {
        const uint8_t *p = blvl_fb_deref(t + o);
        v.len = blvl_fb_u32(p);
        v.data = p + 4;
    }
    return v;
}
static inline blvl_fb_str blvl_fb_get_str(const uint8_t *t, unsigned id) {
    blvl_fb_str s = {"", 0};
    uint32_t o = blvl_fb_field_offset(t, id);
    if (o) {
        const uint8_t *p = blvl_fb_deref(t + o);
        s.len = blvl_fb_u32(p);
        s.ptr = (const char *)(p + 4);
    }
    return s;
}
/* Element i of a vector of tables / strings (NULL or "" past the end). */
static inline const uint8_t *blvl_fb_vec_table(blvl_fb_vec v, uint32_t i) {
    return i < v.len ? blvl_fb_deref(v.data + 4u * (size_t)i) : NULL;
}
static inline blvl_fb_str blvl_fb_vec_str(blvl_fb_vec v, uint32_t i) {
    blvl_fb_str s = {"", 0};
    if (i < v.len) {
        const uint8_t *p = blvl_fb_deref(v.data + 4u * (size_t)i);
        s.len = blvl_fb_u32(p);
        s.ptr = (const char *)(p + 4);
    }
    return s;
}
/* Copy a struct field (zeroes when absent: an absent struct reads as all-zero). */
static inline void blvl_fb_get_struct(const uint8_t *t, unsigned id, void *out, size_t size) {
    uint32_t o = blvl_fb_field_offset(t, id);
    if (o)
        memcpy(out, t + o, size);
    else
        memset(out, 0, size);
}
/* Copy elements [first, first+count) of a vector of fixed-size elements; returns how many. */
static inline size_t blvl_fb_vec_copy(blvl_fb_vec v, size_t elem_size, size_t first, void *dst,
                                      size_t count) {
    if (first >= v.len)
        return 0;
    if (count > v.len - first)
        count = v.len - first;
    if (count)
        memcpy(dst, v.data + first * elem_size, count * elem_size);
    return count;
}

#define BLVL_FB_SCALAR_GETTER(name, type, load)                                                    \
    static inline type blvl_fb_get_##name(const uint8_t *t, unsigned id, type def) {               \
        uint32_t o = blvl_fb_field_offset(t, id);                                                  \
        return o ? load(t + o) : def;                                                              \
    }                                                                                              \
    static inline type blvl_fb_vec_##name(blvl_fb_vec v, uint32_t i) {                             \
        return i < v.len ? load(v.data + sizeof(type) * (size_t)i) : (type)0;                      \
    }
BLVL_FB_SCALAR_GETTER(bool, bool, blvl_fb_bool)
BLVL_FB_SCALAR_GETTER(i8, int8_t, blvl_fb_i8)
BLVL_FB_SCALAR_GETTER(u8, uint8_t, blvl_fb_u8)
BLVL_FB_SCALAR_GETTER(i16, int16_t, blvl_fb_i16)
BLVL_FB_SCALAR_GETTER(u16, uint16_t, blvl_fb_u16)
BLVL_FB_SCALAR_GETTER(i32, int32_t, blvl_fb_i32)
BLVL_FB_SCALAR_GETTER(u32, uint32_t, blvl_fb_u32)
BLVL_FB_SCALAR_GETTER(i64, int64_t, blvl_fb_i64)
BLVL_FB_SCALAR_GETTER(u64, uint64_t, blvl_fb_u64)
BLVL_FB_SCALAR_GETTER(f32, float, blvl_fb_f32)
BLVL_FB_SCALAR_GETTER(f64, double, blvl_fb_f64)
#undef BLVL_FB_SCALAR_GETTER

#ifdef __cplusplus
}
#endif
#endif
