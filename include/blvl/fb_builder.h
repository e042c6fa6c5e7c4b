/* libblvl's FlatBuffers runtime: the deterministic back-to-front builder (see
 * blvl/fb_reader.h for the split).
 *
 * Children (strings, vectors, tables) are created first and referred to by a blvl_fb_ref; a
 * table is built between table_start and table_end. The bytes are a function of the sequence of
 * calls alone; field order inside a table does not depend on the order the fields were added;
 * default scalars are never stored; vtables are shared. Errors are sticky: the first one is
 * kept and returned by blvl_fb_finish. */
#ifndef BLVL_FB_BUILDER_H
#define BLVL_FB_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "blvl/api.h"
#include "blvl/common.h"
#include "blvl/fb_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reference to something already built: its distance from the end of the buffer (0 = none). */
typedef uint32_t blvl_fb_ref;

typedef struct blvl_fb_builder blvl_fb_builder;

/* Memory from opt->allocator (`opt` may be NULL: malloc/free). */
BLVL_API blvl_status blvl_fb_builder_new(blvl_fb_builder **out, const blvl_options *opt,
                                         blvl_error *err);
BLVL_API void blvl_fb_builder_free(blvl_fb_builder *b);
/* Start over, keeping the memory. */
BLVL_API void blvl_fb_builder_reset(blvl_fb_builder *b);
/* The first error so far (BLVL_OK when none). */
BLVL_API blvl_status blvl_fb_builder_status(const blvl_fb_builder *b, blvl_error *err);

BLVL_API blvl_fb_ref blvl_fb_create_string(blvl_fb_builder *b, const char *s, size_t len);
/* A vector of scalars or structs given as little-endian (host) bytes. */
BLVL_API blvl_fb_ref blvl_fb_create_vector(blvl_fb_builder *b, const void *elems, size_t count,
                                           size_t elem_size, size_t align);
/* A vector of structs of type `t`; padding bytes are written as zero. */
BLVL_API blvl_fb_ref blvl_fb_create_struct_vector(blvl_fb_builder *b, const blvl_fb_type *t,
                                                  const void *elems, size_t count);
/* A vector of tables or strings. */
BLVL_API blvl_fb_ref blvl_fb_create_ref_vector(blvl_fb_builder *b, const blvl_fb_ref *refs,
                                               size_t count);

BLVL_API void blvl_fb_table_start(blvl_fb_builder *b);
/* Store `size` raw bytes for field `id` (a scalar or a struct without padding). */
BLVL_API void blvl_fb_add_raw(blvl_fb_builder *b, unsigned id, const void *bytes, size_t size,
                              size_t align);
/* A struct field; padding bytes are written as zero. NULL adds nothing. */
BLVL_API void blvl_fb_add_struct(blvl_fb_builder *b, unsigned id, const blvl_fb_type *t,
                                 const void *v);
/* An offset field (string, vector, table, union value). 0 adds nothing. */
BLVL_API void blvl_fb_add_ref(blvl_fb_builder *b, unsigned id, blvl_fb_ref ref);
BLVL_API blvl_fb_ref blvl_fb_table_end(blvl_fb_builder *b);

/* Write the root offset. `*data` points into the builder and stays valid until the builder is
 * reset or freed; it is aligned as the buffer's largest member requires. */
BLVL_API blvl_status blvl_fb_finish(blvl_fb_builder *b, blvl_fb_ref root, const uint8_t **data,
                                    size_t *size, blvl_error *err);

/* blvl_fb_finish with a file identifier: `file_identifier` (4 chars, or NULL for none) goes in
 * bytes 4..8, after the root offset, as flatc and the other FlatBuffers builders put it. */
BLVL_API blvl_status blvl_fb_finish_id(blvl_fb_builder *b, blvl_fb_ref root,
                                       const char *file_identifier, const uint8_t **data,
                                       size_t *size, blvl_error *err);

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

#ifdef __cplusplus
}
#endif
#endif
