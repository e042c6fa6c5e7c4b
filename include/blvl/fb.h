/* libblvl's FlatBuffers runtime: little-endian read helpers, a table-driven verifier, a
 * deterministic back-to-front builder and the type tables that fbsgen emits for every schema.
 *
 * Reading: verify a buffer once (blvl_fb_verify, or the generated blvl_<Root>_verify), then read
 * it with the generated accessors, which do no bounds checks of their own and never assume
 * alignment (every load assembles bytes; floats go through memcpy). An absent table reads as an
 * empty one: every accessor on it returns the field's default.
 *
 * Building: the builder writes back to front. Children (strings, vectors, tables) are created
 * first and referred to by a blvl_fb_ref; a table is built between table_start and table_end.
 * The bytes are a function of the sequence of calls alone; field order inside a table does not
 * depend on the order the fields were added; default scalars are never stored; vtables are
 * shared. Errors are sticky: the first one is kept and returned by blvl_fb_finish.
 *
 * docs/FLATBUFFERS.md records the decisions. */
#ifndef BLVL_FB_H
#define BLVL_FB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "blvl/common.h"
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

#define BLVL_FB_MAX_SIZE 0x7FFFFFFFu        /* a buffer, like the reference implementation */
#define BLVL_FB_MAX_DEPTH_DEFAULT 64u       /* nested tables and vectors of tables */
#define BLVL_FB_MAX_TABLES_DEFAULT 1000000u /* tables visited by one verification */

/* ---- little-endian loads (blvl/le.h under the FlatBuffers scalar names)
 * ------------------------------------------------------------------ */

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

/* ---- type tables (emitted by fbsgen) --------------------------------------------------------- */

typedef enum blvl_fb_kind {
    BLVL_FB_NONE = 0,
    BLVL_FB_BOOL,
    BLVL_FB_I8,
    BLVL_FB_U8,
    BLVL_FB_I16,
    BLVL_FB_U16,
    BLVL_FB_I32,
    BLVL_FB_U32,
    BLVL_FB_I64,
    BLVL_FB_U64,
    BLVL_FB_F32,
    BLVL_FB_F64,
    BLVL_FB_STRING,
    BLVL_FB_STRUCT,
    BLVL_FB_TABLE,
    BLVL_FB_UNION, /* a union's value; its type is the ubyte field one slot before */
    BLVL_FB_VECTOR,
    BLVL_FB_ARRAY /* a fixed-length array inside a struct */
} blvl_fb_kind;

/* Size in bytes of a scalar kind (0 for the others). */
size_t blvl_fb_scalar_size(blvl_fb_kind kind);

struct blvl_fb_type;

typedef struct blvl_fb_enum_val {
    const char *name;
    int64_t value;
    const struct blvl_fb_type *table; /* union member type (NULL for NONE and plain enums) */
} blvl_fb_enum_val;

typedef struct blvl_fb_enum {
    const char *name;
    uint8_t kind; /* underlying scalar (U8 for a union) */
    uint8_t is_union;
    uint8_t bit_flags;
    uint32_t count;
    const blvl_fb_enum_val *values; /* in declaration order */
} blvl_fb_enum;

typedef struct blvl_fb_field {
    const char *name;
    uint16_t id;  /* vtable slot; for a union the value slot (its type is id - 1) */
    uint8_t kind; /* blvl_fb_kind */
    uint8_t elem; /* VECTOR / ARRAY: the element kind */
    uint8_t deprecated;
    uint8_t required;
    uint32_t offset;                   /* struct member: byte offset inside the struct */
    uint32_t array_len;                /* ARRAY: element count; VECTOR: the exact element count
                                          the schema requires (blvl_length), 0 = any */
    const struct blvl_fb_type *type;   /* STRUCT / TABLE field or element */
    const struct blvl_fb_enum *enum_t; /* enum of a scalar or of vector elements; the union */
    uint64_t def_bits;                 /* integer default, two's complement */
    double def_real;                   /* float default */
} blvl_fb_field;

typedef struct blvl_fb_type {
    const char *name;
    uint8_t is_struct;
    uint8_t has_padding; /* struct: bytes no member covers (zeroed by the builder) */
    uint32_t size;       /* struct: byte size */
    uint32_t align;      /* struct: alignment */
    uint32_t field_count;
    const blvl_fb_field *fields; /* in declaration order */
    const char *file_identifier; /* root type of a schema with file_identifier: its 4 chars
                                    (bytes 4..8 of the buffer), else NULL */
} blvl_fb_type;

/* The name of `value` in `e`, or NULL. */
const char *blvl_fb_enum_name(const blvl_fb_enum *e, int64_t value);

/* ---- verifier ---------------------------------------------------------------------------------
 */

/* Checks that every read the type tables allow stays inside `buf`: the file identifier when the
 * root type has one, bounds, alignment (relative to buf), offsets, vtables, string terminators,
 * vector lengths (and the exact length a schema's blvl_length asks), union type/value agreement,
 * nesting depth, table count, and at most size / 4 table and string visits (so shared subtrees
 * cannot multiply the work). Returns BLVL_E_FLATBUFFER with a message naming the field path
 * and the byte offset on failure. The limits are opt->fb_max_depth and fb_max_tables; `opt` may be
 * NULL. */
blvl_status blvl_fb_verify(const void *buf, size_t size, const blvl_fb_type *root,
                           const blvl_options *opt, blvl_error *err);

/* ---- builder ------------------------------------------------------------------------------- */

/* A reference to something already built: its distance from the end of the buffer (0 = none). */
typedef uint32_t blvl_fb_ref;

typedef struct blvl_fb_builder blvl_fb_builder;

/* Memory from opt->allocator (`opt` may be NULL: malloc/free). */
blvl_status blvl_fb_builder_new(blvl_fb_builder **out, const blvl_options *opt, blvl_error *err);
void blvl_fb_builder_free(blvl_fb_builder *b);
/* Start over, keeping the memory. */
void blvl_fb_builder_reset(blvl_fb_builder *b);
/* The first error so far (BLVL_OK when none). */
blvl_status blvl_fb_builder_status(const blvl_fb_builder *b, blvl_error *err);

blvl_fb_ref blvl_fb_create_string(blvl_fb_builder *b, const char *s, size_t len);
/* A vector of scalars or structs given as little-endian (host) bytes. */
blvl_fb_ref blvl_fb_create_vector(blvl_fb_builder *b, const void *elems, size_t count,
                                  size_t elem_size, size_t align);
/* A vector of structs of type `t`; padding bytes are written as zero. */
blvl_fb_ref blvl_fb_create_struct_vector(blvl_fb_builder *b, const blvl_fb_type *t,
                                         const void *elems, size_t count);
/* A vector of tables or strings. */
blvl_fb_ref blvl_fb_create_ref_vector(blvl_fb_builder *b, const blvl_fb_ref *refs, size_t count);

void blvl_fb_table_start(blvl_fb_builder *b);
/* Store `size` raw bytes for field `id` (a scalar or a struct without padding). */
void blvl_fb_add_raw(blvl_fb_builder *b, unsigned id, const void *bytes, size_t size, size_t align);
/* A struct field; padding bytes are written as zero. NULL adds nothing. */
void blvl_fb_add_struct(blvl_fb_builder *b, unsigned id, const blvl_fb_type *t, const void *v);
/* An offset field (string, vector, table, union value). 0 adds nothing. */
void blvl_fb_add_ref(blvl_fb_builder *b, unsigned id, blvl_fb_ref ref);
blvl_fb_ref blvl_fb_table_end(blvl_fb_builder *b);

/* Write the root offset. `*data` points into the builder and stays valid until the builder is
 * reset or freed; it is aligned as the buffer's largest member requires. */
blvl_status blvl_fb_finish(blvl_fb_builder *b, blvl_fb_ref root, const uint8_t **data, size_t *size,
                           blvl_error *err);

/* blvl_fb_finish with a file identifier: `file_identifier` (4 chars, or NULL for none) goes in
 * bytes 4..8, after the root offset, as flatc and the other FlatBuffers builders put it. */
blvl_status blvl_fb_finish_id(blvl_fb_builder *b, blvl_fb_ref root, const char *file_identifier,
                              const uint8_t **data, size_t *size, blvl_error *err);

/* Scalar adds that leave a value equal to the default out (floats compared bit for bit, so -0.0
 * and NaN payloads survive). */
#define BLVL_FB_SCALAR_ADDER(name, type, utype)                                                    \
    static inline void blvl_fb_add_##name(blvl_fb_builder *b, unsigned id, type v, type def) {     \
        utype uv, ud;                                                                              \
        memcpy(&uv, &v, sizeof uv);                                                                \
        memcpy(&ud, &def, sizeof ud);                                                              \
        if (uv != ud)                                                                              \
            blvl_fb_add_raw(b, id, &uv, sizeof uv, sizeof uv);                                     \
    }
BLVL_FB_SCALAR_ADDER(i8, int8_t, uint8_t)
BLVL_FB_SCALAR_ADDER(u8, uint8_t, uint8_t)
BLVL_FB_SCALAR_ADDER(i16, int16_t, uint16_t)
BLVL_FB_SCALAR_ADDER(u16, uint16_t, uint16_t)
BLVL_FB_SCALAR_ADDER(i32, int32_t, uint32_t)
BLVL_FB_SCALAR_ADDER(u32, uint32_t, uint32_t)
BLVL_FB_SCALAR_ADDER(i64, int64_t, uint64_t)
BLVL_FB_SCALAR_ADDER(u64, uint64_t, uint64_t)
BLVL_FB_SCALAR_ADDER(f32, float, uint32_t)
BLVL_FB_SCALAR_ADDER(f64, double, uint64_t)
#undef BLVL_FB_SCALAR_ADDER
static inline void blvl_fb_add_bool(blvl_fb_builder *b, unsigned id, bool v, bool def) {
    uint8_t u = v ? 1 : 0;
    if (v != def)
        blvl_fb_add_raw(b, id, &u, 1, 1);
}
/* A union: type then value; NONE (0) or a 0 ref adds nothing. */
static inline void blvl_fb_add_union(blvl_fb_builder *b, unsigned value_id, uint8_t type,
                                     blvl_fb_ref ref) {
    if (type != 0 && ref != 0) {
        blvl_fb_add_raw(b, value_id - 1u, &type, 1, 1);
        blvl_fb_add_ref(b, value_id, ref);
    }
}

/* ---- JSON ------------------------------------------------------------------------------------ */

/* Verify `buf` and print it as JSON the way `flatc --json --strict-json` does: schema field
 * names, enums by name, unions as x_type + x, fields the buffer leaves out are left out.
 * `*out` (NUL-terminated, `*out_len` bytes before the NUL) is the caller's: blvl_free(opt, *out).
 * `indent` 0 prints on one line. */
blvl_status blvl_fb_to_json(const void *buf, size_t size, const blvl_fb_type *root, unsigned indent,
                            const blvl_options *opt, char **out, size_t *out_len, blvl_error *err);

/* Parse JSON of the shape blvl_fb_to_json prints (and flatc reads) and build the buffer with
 * blvl's builder: the same values give the same bytes whatever the key order. `*out` is the
 * caller's: blvl_free(opt, *out). */
blvl_status blvl_fb_from_json(const char *json, size_t len, const blvl_fb_type *root,
                              const blvl_options *opt, uint8_t **out, size_t *out_size,
                              blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
