/* Fuzz target: blvl_image_decode over every encoding (src/image/). The first 8 bytes make the
 * description (width, height, encoding, mips, layers, the level asked for, and whether the blob
 * takes exactly the size the description needs), the rest is the blob. A decode that succeeds
 * must give the level's size; its first layer is then written as a PNG and read back, texel for
 * texel. Seeds: fuzz/corpus/image/ (a PNG, a JPEG, blocks of each BC encoding). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 8)
        return 0;
    blvl_image_desc d = {0};
    d.width = 1u + (data[0] | (uint32_t)(data[1] & 3) << 8);
    d.height = 1u + (data[2] | (uint32_t)(data[3] & 3) << 8);
    d.encoding = data[4] % 10u; /* 9: unknown */
    d.mips = 1u + (data[5] & 15u);
    d.layers = 1u + (data[5] >> 4) % 7u;
    uint32_t mip = data[6] % 12u;
    d.data = data + 8;
    d.size = size - 8;
    uint64_t need = 0;
    blvl_error err;
    if ((data[7] & 1) && blvl_image_expected_size(&need, &d, &err) == BLVL_OK && need &&
        need <= d.size)
        d.size = (size_t)need;
    blvl_image_rgba px;
    blvl_status st = blvl_image_decode(&px, &d, mip, NULL, &err);
    if (st != BLVL_OK) {
        if (px.pixels || !err.message[0])
            abort();
        return 0;
    }
    uint32_t w = d.width >> mip ? d.width >> mip : 1, h = d.height >> mip ? d.height >> mip : 1;
    if (!px.pixels || px.width != w || px.height != h || px.layers != d.layers)
        abort();
    void *png;
    size_t n;
    if (blvl_image_write_png(&png, &n, px.pixels, w, h, NULL, &err) != BLVL_OK)
        abort();
    blvl_image_desc back = {w, h, BLVL_IMAGE_PNG, 1, 1, 0, png, n};
    blvl_image_rgba again;
    if (blvl_image_decode(&again, &back, 0, NULL, &err) != BLVL_OK ||
        memcmp(again.pixels, px.pixels, (size_t)w * h * 4) != 0)
        abort();
    blvl_image_rgba_free(&again);
    blvl_free(NULL, png);
    blvl_image_rgba_free(&px);
    return 0;
}
