/* libblvl's FlatBuffers runtime: the table-driven verifier (see blvl/fb_reader.h). */
#ifndef BLVL_FB_VERIFIER_H
#define BLVL_FB_VERIFIER_H

#include <stddef.h>

#include "blvl/api.h"
#include "blvl/common.h"
#include "blvl/fb_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_FB_MAX_DEPTH_DEFAULT 64u       /* nested tables and vectors of tables */
#define BLVL_FB_MAX_TABLES_DEFAULT 1000000u /* tables visited by one verification */

/* Checks that every read the type tables allow stays inside `buf`: the file identifier when the
 * root type has one, bounds, alignment (relative to buf), offsets, vtables, string terminators,
 * vector lengths (and the exact length a schema's blvl_length asks), union type/value agreement,
 * nesting depth, table count, and at most size / 4 table and string visits (so shared subtrees
 * cannot multiply the work). Returns BLVL_E_FLATBUFFER with a message naming the field path
 * and the byte offset on failure. The limits are opt->fb_max_depth and fb_max_tables; `opt` may be
 * NULL. */
BLVL_API blvl_status blvl_fb_verify(const void *buf, size_t size, const blvl_fb_type *root,
                                    const blvl_options *opt, blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
