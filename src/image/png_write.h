/* The one PNG writer, for the layers that write pictures (the bake, export, probe). */
#ifndef BLVL_IMAGE_PNG_WRITE_H
#define BLVL_IMAGE_PNG_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/common.h"

/* width x height RGBA8 texels (each side >= 1, width * height * 4 < 2^31) as PNG bytes, the
 * same for the same texels; *png from blvl__alloc_sized (blvl__free_sized / blvl_free). Fails
 * only with BLVL_E_NOMEM, leaving nothing allocated; `err` is the caller's to fill. */
blvl_status blvl__image_png_encode(const blvl_allocator *a, const uint8_t *rgba, uint32_t width,
                                   uint32_t height, uint8_t **png, size_t *size);

#endif
