/* RGBA8 pixels to PNG bytes (the one PNG writer, image/png_write.h), every byte from the
 * caller's allocator. */
#ifndef BLVL_BAKE_IMAGES_H
#define BLVL_BAKE_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/common.h"

/* The largest image the bake encodes: 16384 texels a side and 256 MiB of pixels, so every size
 * the encoder computes stays far from overflow. */
#define BAKE_PNG_MAX_SIDE 16384u
#define BAKE_PNG_MAX_BYTES (256u << 20)

/* *png is from blvl__alloc_sized (free with blvl__free_sized); deterministic: the same pixels
 * give the same bytes. */
blvl_status blvl__bake_model_png(const blvl_allocator *al, uint32_t width, uint32_t height,
                                 const uint8_t *rgba, uint8_t **png, size_t *size, blvl_error *err);

#endif
