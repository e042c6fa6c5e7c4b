/* Internal to the library (not public): size a FlatBuffers builder's buffer once for what the
 * caller is about to build, so a buffer of hundreds of MiB is not grown by doubling (each
 * doubling copies everything built so far into fresh memory). */
#ifndef BLVL_FB_RESERVE_H
#define BLVL_FB_RESERVE_H

#include <stddef.h>

#include "blvl/fb_builder.h"

/* Capacity for `bytes` in all (kept across blvl_fb_builder_reset); 0 when the allocator said
 * no, which also sets the builder's error as any other failed build step does. */
int blvl__fb_builder_reserve(blvl_fb_builder *b, size_t bytes);

/* A vector the caller writes in place, without a staging copy: room for count elements of
 * elem_size bytes (aligned to align), returned uninitialised (the caller writes every byte,
 * through memcpy: the start is aligned only relative to the buffer's end) and valid until the
 * next call on the builder, which must be blvl__fb_builder_vector_end(b, count). NULL on failure
 * (the builder's error is set). The bytes are those blvl_fb_create_vector would make. */
void *blvl__fb_builder_vector_start(blvl_fb_builder *b, size_t count, size_t elem_size,
                                    size_t align);
blvl_fb_ref blvl__fb_builder_vector_end(blvl_fb_builder *b, size_t count);

/* The first vector of a buffer left out of the builder's memory (a section's vertices are
 * hundreds of MiB): only on an empty builder; then blvl__fb_builder_vector_end(b, count) as for any
 * vector. The finished buffer is what blvl_fb_finish returns followed by the vector's
 * count * elem_size bytes, which the caller produces itself (blvl__fb_builder_tail_size of them),
 * so they never need to be in memory at once. 0 on failure (the builder's error set), and when the
 * bytes are not a multiple of align. */
int blvl__fb_builder_tail_start(blvl_fb_builder *b, size_t count, size_t elem_size, size_t align);
size_t blvl__fb_builder_tail_size(const blvl_fb_builder *b);

/* A buffer built in pieces, never whole in memory (a section of hundreds of MiB): every
 * distance inside a FlatBuffer is a difference of two end distances, so bytes built and
 * dropped still count, and building again from a mark gives the same bytes as before (the
 * builder's state is its end distance, its alignment and its vtables, whose copies it keeps).
 * The caller builds a run, drops it (forget), goes on; then, to emit the buffer front to back,
 * takes what the builder holds after finish, and builds each dropped run again from its mark
 * (rewind), newest first, taking what is held after each. Outside a table only. */
typedef struct blvl__fb_mark {
    size_t used, minalign, nvt;
} blvl__fb_mark;
blvl__fb_mark blvl__fb_builder_mark_now(const blvl_fb_builder *b);
/* Drops every byte held; what follows is built as if they were there. */
void blvl__fb_builder_forget(blvl_fb_builder *b);
/* Back to a mark taken earlier in this build, holding nothing; 0 (the builder's error set) for
 * a mark past what is built. */
int blvl__fb_builder_rewind(blvl_fb_builder *b, const blvl__fb_mark *m);
/* The bytes held: those built since the last forget or rewind (after finish: the buffer's
 * front, as blvl_fb_finish returns it). */
const uint8_t *blvl__fb_builder_held(const blvl_fb_builder *b, size_t *size);

#endif
