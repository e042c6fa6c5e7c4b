/* The bytes of an image as glTF carries them: PNG and JPEG as stored (after the image layer's
 * header walk, so a blob that is not what its encoding says is refused rather than embedded for
 * a viewer to choke on), raw and block-compressed decoded and written as PNG. */
#include <stdio.h>

#include "blvl/image.h"

#include "export/export_internal.h"
#include "image/image_internal.h"

blvl_status blvl__export_image_bytes(gltf_export *x, const char *where, uint32_t encoding,
                                     uint32_t width, uint32_t height, uint32_t mips,
                                     uint32_t layers, const uint8_t *data, size_t size,
                                     const uint8_t **bytes, size_t *nbytes, uint8_t **owned,
                                     const char **mime) {
    *owned = NULL;
    uint32_t w = 0, h = 0;
    if (encoding == BLVL_IMAGE_PNG || encoding == BLVL_IMAGE_JPEG) {
        blvl_error e;
        if (blvl__image_stored_size(encoding, data, size, &w, &h, &e) != BLVL_OK || !w || !h ||
            w > 0x7FFFFFFFu || h > 0x7FFFFFFFu)
            return blvl__export_fail(x, BLVL_E_ARGUMENT,
                                     "image-data: %s: the %s bytes have no %s header", where,
                                     blvl__image_encoding_name(encoding),
                                     encoding == BLVL_IMAGE_PNG ? "PNG" : "JPEG frame");
        (void)width, (void)height, (void)layers;
        *bytes = data;
        *nbytes = size;
        *mime = encoding == BLVL_IMAGE_PNG ? "image/png" : "image/jpeg";
        return BLVL_OK;
    }
    if (encoding <= BLVL_IMAGE_BC7) {
        /* Raw and block-compressed: mip 0 of every layer, decoded and stacked top to bottom
         * as the schema stacks a PNG's layers. */
        blvl_image_desc d = {width, height, encoding, mips, layers, 0, data, size};
        blvl_image_rgba px;
        blvl_error e;
        const blvl_options *opt = &x->xo->base;
        blvl_status st = blvl_image_decode(&px, &d, 0, opt, &e);
        if (st == BLVL_E_NOMEM)
            return blvl__export_fail(x, BLVL_E_NOMEM, "%s: %s", where, blvl__error_text(&e));
        if (st != BLVL_OK)
            return blvl__export_fail(x, BLVL_E_ARGUMENT, "image-data: %s: %s", where,
                                     blvl__error_text(&e));
        uint64_t rows = (uint64_t)px.height * (px.layers ? px.layers : 1);
        if (rows > 0x7FFFFFFFu)
            st = BLVL_E_ARGUMENT, snprintf(e.message, sizeof e.message, "too many rows");
        else {
            void *png = NULL;
            st = blvl_image_write_png(&png, nbytes, px.pixels, px.width, (uint32_t)rows, opt, &e);
            *owned = png;
        }
        blvl_image_rgba_free(&px);
        if (st == BLVL_E_NOMEM)
            return blvl__export_fail(x, BLVL_E_NOMEM, "%s: %s", where, blvl__error_text(&e));
        if (st != BLVL_OK)
            return blvl__export_fail(x, BLVL_E_ARGUMENT, "image-data: %s: %s", where,
                                     blvl__error_text(&e));
        *bytes = *owned;
        *mime = "image/png";
        return BLVL_OK;
    }
    return blvl__export_fail(x, BLVL_E_ARGUMENT, "image-encoding: %s: unknown encoding %u", where,
                             (unsigned)encoding);
}
