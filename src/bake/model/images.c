/* The bake's pictures (material atlases, lightmaps, sky faces) as PNG through the one PNG
 * writer (image/png_write.h), inside the bake's own size limits. */
#include "bake/model/images.h"

#include "common/error.h"
#include "image/png_write.h"

blvl_status blvl__bake_model_png(const blvl_allocator *al, uint32_t width, uint32_t height,
                                 const uint8_t *rgba, uint8_t **png, size_t *size,
                                 blvl_error *err) {
    *png = NULL;
    *size = 0;
    if (width == 0 || height == 0 || width > BAKE_PNG_MAX_SIDE || height > BAKE_PNG_MAX_SIDE ||
        (uint64_t)width * height * 4u > BAKE_PNG_MAX_BYTES)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: image %ux%u is empty or past %u texels a side or %u MiB", width,
                          height, BAKE_PNG_MAX_SIDE, BAKE_PNG_MAX_BYTES >> 20);
    if (blvl__image_png_encode(al, rgba, width, height, png, size))
        return blvl__nomem(err, "bake: encoding a %ux%u PNG", width, height);
    blvl__ok(err);
    return BLVL_OK;
}
