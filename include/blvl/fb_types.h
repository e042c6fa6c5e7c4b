/* libblvl's FlatBuffers runtime: the type tables fbsgen emits for every schema (fields, enums,
 * struct layouts), walked by the verifier, the builder's struct vectors and the JSON printer and
 * parser. Part of the runtime split described in blvl/fb_reader.h. */
#ifndef BLVL_FB_TYPES_H
#define BLVL_FB_TYPES_H

#include "blvl/api.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
BLVL_API size_t blvl_fb_scalar_size(blvl_fb_kind kind);

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
BLVL_API const char *blvl_fb_enum_name(const blvl_fb_enum *e, int64_t value);

#ifdef __cplusplus
}
#endif
#endif
