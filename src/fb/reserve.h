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

#endif
