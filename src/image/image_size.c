/* The bytes a description needs: the whole mip chain, level-major (every layer of level 0,
 * then every layer of level 1, ...), BC levels rounded up to whole 4x4 blocks. */
#include "common/error.h"
#include "image_internal.h"

uint32_t blvl__image_block_bytes(uint32_t encoding) {
    switch (encoding) {
    case BLVL_IMAGE_BC1:
    case BLVL_IMAGE_BC4:
        return 8;
    case BLVL_IMAGE_BC3:
    case BLVL_IMAGE_BC5:
    case BLVL_IMAGE_BC6H:
    case BLVL_IMAGE_BC7:
        return 16;
    default:
        return 0;
    }
}

const char *blvl__image_encoding_name(uint32_t encoding) {
    static const char *const names[] = {"png", "jpeg", "rgba8", "bc1", "bc3",
                                        "bc4", "bc5",  "bc6h",  "bc7"};
    return encoding < sizeof names / sizeof names[0] ? names[encoding] : "unknown";
}

uint32_t blvl__image_mip_side(uint32_t side, uint32_t mip) {
    uint32_t s = mip >= 32 ? 0 : side >> mip;
    return s ? s : 1;
}

uint64_t blvl__image_level_bytes(const blvl_image_desc *d, uint32_t mip) {
    uint64_t w = blvl__image_mip_side(d->width, mip), h = blvl__image_mip_side(d->height, mip);
    uint32_t block = blvl__image_block_bytes(d->encoding);
    if (block)
        return ((w + 3) / 4) * ((h + 3) / 4) * block;
    return w * h * 4;
}

blvl_status blvl_image_expected_size(uint64_t *out, const blvl_image_desc *d, blvl_error *err) {
    if (out)
        *out = 0;
    if (!d || !out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: NULL description or output");
    if (d->encoding > BLVL_IMAGE_BC7)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: encoding %u is none of png..bc7",
                          d->encoding);
    if (!d->width || !d->height)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: width or height is 0 (%ux%u)", d->width,
                          d->height);
    if (!d->layers)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: layers is 0");
    uint32_t side = d->width > d->height ? d->width : d->height, chain = 1;
    while (side >>= 1)
        chain++;
    if (d->mips < 1 || d->mips > chain)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: mips is %u, a %ux%u chain has 1..%u levels",
                          d->mips, d->width, d->height, chain);
    const char *name = blvl__image_encoding_name(d->encoding);
    if (d->encoding == BLVL_IMAGE_PNG || d->encoding == BLVL_IMAGE_JPEG) {
        if (d->mips != 1)
            return blvl__fail(err, BLVL_E_ARGUMENT, "image: %s with mips %u (only 1)", name,
                              d->mips);
        blvl__ok(err);
        return BLVL_OK;
    }
    /* Up to 2^60 texels a level is under 2^63 bytes, so only the layers and the sum can
     * overflow from there, and each step checks. */
    if ((uint64_t)d->width * d->height > (1ull << 60))
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: the %s size overflows 64 bits", name);
    uint64_t total = 0;
    for (uint32_t m = 0; m < d->mips; m++) {
        uint64_t lvl = blvl__image_level_bytes(d, m);
        if (lvl && d->layers > UINT64_MAX / lvl)
            return blvl__fail(err, BLVL_E_ARGUMENT, "image: the %s size overflows 64 bits", name);
        lvl *= d->layers;
        if (total > UINT64_MAX - lvl)
            return blvl__fail(err, BLVL_E_ARGUMENT, "image: the %s size overflows 64 bits", name);
        total += lvl;
    }
    *out = total;
    blvl__ok(err);
    return BLVL_OK;
}
