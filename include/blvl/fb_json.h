/* libblvl's FlatBuffers runtime: JSON in and out, as flatc --json --strict-json reads and
 * writes it (see blvl/fb_reader.h for the split). */
#ifndef BLVL_FB_JSON_H
#define BLVL_FB_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/common.h"
#include "blvl/fb_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Verify `buf` and print it as JSON the way `flatc --json --strict-json` does: schema field
 * names, enums by name, unions as x_type + x, fields the buffer leaves out are left out.
 * `*text` (NUL-terminated, `*len` bytes before the NUL) is the caller's: blvl_free(opt, *text).
 * `indent` 0 prints on one line. */
BLVL_API blvl_status blvl_fb_to_json(char **text, size_t *len, const void *buf, size_t size,
                                     const blvl_fb_type *root, unsigned indent,
                                     const blvl_options *opt, blvl_error *err);

/* Parse JSON of the shape blvl_fb_to_json prints (and flatc reads) and build the buffer with
 * blvl's builder: the same values give the same bytes whatever the key order. `*data` is the
 * caller's: blvl_free(opt, *data). */
BLVL_API blvl_status blvl_fb_from_json(void **data, size_t *size, const char *json, size_t json_len,
                                       const blvl_fb_type *root, const blvl_options *opt,
                                       blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
