/* blvl_image_decode: the description checked (blvl_image_expected_size), the texel limit, the
 * blob's size against the description, then one mip level of every layer to RGBA8. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "image_internal.h"

typedef void (*block_fn)(const uint8_t *src, uint8_t out[64]);

static block_fn block_decoder(uint32_t encoding) {
    switch (encoding) {
    case BLVL_IMAGE_BC1:
        return blvl__image_bc1_block;
    case BLVL_IMAGE_BC3:
        return blvl__image_bc3_block;
    case BLVL_IMAGE_BC4:
        return blvl__image_bc4_block;
    case BLVL_IMAGE_BC5:
        return blvl__image_bc5_block;
    case BLVL_IMAGE_BC6H:
        return blvl__image_bc6h_block;
    case BLVL_IMAGE_BC7:
        return blvl__image_bc7_block;
    default:
        return NULL;
    }
}

/* One layer of a BC level: blocks row by row, the texels past the level's edge dropped. */
static void decode_blocks(block_fn fn, uint32_t block_bytes, const uint8_t *src, uint32_t w,
                          uint32_t h, uint8_t *dst) {
    uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
    uint8_t texels[64];
    for (uint32_t by = 0; by < bh; by++) {
        for (uint32_t bx = 0; bx < bw; bx++, src += block_bytes) {
            fn(src, texels);
            uint32_t cols = w - bx * 4 < 4 ? w - bx * 4 : 4;
            for (uint32_t y = 0; y < 4 && by * 4 + y < h; y++)
                memcpy(dst + ((size_t)(by * 4 + y) * w + bx * 4) * 4, texels + y * 16,
                       (size_t)cols * 4);
        }
    }
}

blvl_status blvl__image_stored_size(uint32_t encoding, const uint8_t *data, size_t size,
                                    uint32_t *w, uint32_t *h, blvl_error *err) {
    *w = *h = 0;
    if (encoding == BLVL_IMAGE_PNG)
        return blvl__image_png_size(data, size, w, h, err);
    if (encoding == BLVL_IMAGE_JPEG)
        return blvl__image_jpeg_size(data, size, w, h, err);
    return blvl__fail(err, BLVL_E_ARGUMENT, "image: encoding %u is neither png nor jpeg", encoding);
}

blvl_status blvl__image_decode_coded(const blvl_image_desc *d, uint32_t height,
                                     const blvl_allocator *a, uint8_t **pixels, blvl_error *err) {
    *pixels = NULL;
    uint32_t w, h;
    blvl_status st = blvl__image_stored_size(d->encoding, d->data, d->size, &w, &h, err);
    if (st)
        return st;
    if (w != d->width || h != height)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: %s data is %ux%u, described %ux%u",
                          blvl__image_encoding_name(d->encoding), w, h, d->width, height);
    if (d->encoding == BLVL_IMAGE_JPEG)
        return blvl__image_decode_jpeg(d, height, a, pixels, err);
    return blvl__image_decode_png(d, height, a, pixels, err);
}

blvl_status blvl_image_decode(blvl_image_rgba *out, const blvl_image_desc *d, uint32_t mip,
                              const blvl_options *opt, blvl_error *err) {
    if (out) {
        memset(out, 0, sizeof *out);
        if (opt)
            out->allocator = opt->allocator;
    }
    if (!d || !out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: NULL description or output");
    uint64_t need;
    blvl_status st = blvl_image_expected_size(&need, d, err);
    if (st)
        return st;
    const char *name = blvl__image_encoding_name(d->encoding);
    if (mip >= d->mips)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: mip %u past the chain of %u level%s", mip,
                          d->mips, d->mips == 1 ? "" : "s");
    if ((uint64_t)d->width * d->height * d->layers > BLVL_IMAGE_MAX_TEXELS)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "image: %ux%u with %u layer%s is over the 2^28 texel limit", d->width,
                          d->height, d->layers, d->layers == 1 ? "" : "s");
    if (!d->data || !d->size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: %s data is empty", name);
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    uint32_t w = blvl__image_mip_side(d->width, mip), h = blvl__image_mip_side(d->height, mip);
    if (d->encoding == BLVL_IMAGE_PNG || d->encoding == BLVL_IMAGE_JPEG) {
        st = blvl__image_decode_coded(d, d->height * d->layers, a, &out->pixels, err);
        if (st)
            return st;
    } else {
        if (d->size != need) {
            char layers[32] = "";
            if (d->layers != 1)
                snprintf(layers, sizeof layers, " and %u layers", d->layers);
            return blvl__fail(err, BLVL_E_ARGUMENT,
                              "image: %s data is %zu bytes, %ux%u with %u mip%s%s needs %llu", name,
                              d->size, d->width, d->height, d->mips, d->mips == 1 ? "" : "s",
                              layers, (unsigned long long)need);
        }
        size_t bytes = (size_t)w * h * d->layers * 4;
        out->pixels = blvl__alloc(a, bytes);
        if (!out->pixels)
            return blvl__nomem(err, "image: %zu bytes of texels", bytes);
        uint64_t at = 0;
        for (uint32_t m = 0; m < mip; m++)
            at += blvl__image_level_bytes(d, m) * d->layers;
        uint64_t layer_bytes = blvl__image_level_bytes(d, mip);
        block_fn fn = block_decoder(d->encoding);
        for (uint32_t l = 0; l < d->layers; l++) {
            const uint8_t *src = d->data + at + layer_bytes * l;
            uint8_t *dst = out->pixels + (size_t)w * h * 4 * l;
            if (fn)
                decode_blocks(fn, blvl__image_block_bytes(d->encoding), src, w, h, dst);
            else
                memcpy(dst, src, (size_t)w * h * 4);
        }
    }
    out->width = w;
    out->height = h;
    out->layers = d->layers;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl_image_rgba_free(blvl_image_rgba *img) {
    if (!img)
        return;
    blvl__dealloc(&img->allocator, img->pixels, (size_t)img->width * img->height * img->layers * 4);
    memset(img, 0, sizeof *img);
}
