/* Pixels of any image the bake reads (the sky's faces, a light image's average colour): TGA
 * by image_tga.c, JPEG and PNG by the image layer (src/image/), which checks a JPEG's markers
 * and tables and a PNG's chunks before its decoders see them and caps their memory, so a
 * hostile .pk3 image gets a refusal, never a decoder's own faults. */
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "image/image_internal.h"
#include "image_internal.h"

blvl_status blvl__import_q3_img_decode(const uint8_t *data, size_t size, const char *name,
                                       const blvl_allocator *a, uint8_t **rgba, uint32_t *w,
                                       uint32_t *h, blvl_error *err) {
    *rgba = NULL;
    *w = *h = 0;
    int kind = blvl__import_q3_img_kind(data, size);
    if (kind == Q3I_TGA)
        return blvl__import_q3_img_tga(data, size, name, a, rgba, w, h, err);
    /* The size from the headers first, so no decoder sees an image past the limits. */
    uint32_t hw, hh;
    blvl_status st = kind == Q3I_JPEG
                         ? blvl__import_q3_img_jpeg_size(data, size, name, &hw, &hh, err)
                         : blvl__import_q3_img_png_size(data, size, name, &hw, &hh, err);
    if (st)
        return st;
    blvl_image_desc d = {hw,   hh,  kind == Q3I_JPEG ? BLVL_IMAGE_JPEG : BLVL_IMAGE_PNG, 1, 1, 0,
                         data, size};
    uint8_t *out = NULL;
    blvl_error ierr;
    st = blvl__image_decode_coded(&d, hh, a, &out, &ierr);
    if (st == BLVL_E_NOMEM)
        return blvl__nomem(err, "image %s", name);
    if (st) /* "image: jpeg data does not decode" and the like, under this map's rule */
        return blvl__fail_source(err, name, "data", 0, "decode", "%s", blvl__error_text(&ierr));
    *rgba = out;
    *w = hw;
    *h = hh;
    blvl__ok(err);
    return BLVL_OK;
}
