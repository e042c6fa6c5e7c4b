/* The .bsym writer's entry for the bake (the writer is in libblvl-tools: it needs the
 * FlatBuffers builder; the reader, src/symbols/, is in the runtime). */
#ifndef BLVL_SYMBOLS_WRITE_H
#define BLVL_SYMBOLS_WRITE_H

#include "blvl/fb_builder.h"
#include "blvl/symbols.h"

/* blvl_symbols_write into the caller's builder (reset first): *bytes stays valid until the
 * builder is reset or freed; scratch comes from `al` (NULL: malloc). The bake builds its .bsym
 * here, in its own builder. */
blvl_status blvl__symbols_write_build(const blvl_symbols_data *d, const blvl_allocator *al,
                                      blvl_fb_builder *fb, const uint8_t **bytes, size_t *size,
                                      blvl_error *err);
#endif
