/* The lightmap atlas: the BSP's 128 x 128 RGB pages packed into atlas pages of up to 8 x 8
 * slots, each slot the lightmap with a 1-texel border copied from its edge so bilinear
 * filtering at a lightmap's edge never reads its neighbour; placements for the UV rewrite
 * (docs/IMPORT-Q3.md, "Lighting, fog and lightmaps"). */
#include <math.h>
#include <string.h>

#include "bake_lighting.h"
#include "blvl/sections/common.h"
#include "common/alloc.h"
#include "common/error.h"

#define LM BLVL_Q3_LIGHTMAP_SIZE

static void copy_page(const uint8_t *src, uint8_t *dst, uint32_t stride) {
    for (int32_t y = -1; y <= (int32_t)LM; y++) {
        int32_t sy = y < 0 ? 0 : y >= (int32_t)LM ? (int32_t)LM - 1 : y;
        uint8_t *row = dst + (size_t)(y + 1) * stride;
        for (int32_t x = -1; x <= (int32_t)LM; x++) {
            int32_t sx = x < 0 ? 0 : x >= (int32_t)LM ? (int32_t)LM - 1 : x;
            const uint8_t *s = src + ((size_t)sy * LM + (size_t)sx) * 3;
            uint8_t *d = row + (size_t)(x + 1) * 4;
            d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = 255;
        }
    }
}

blvl_status blvl__import_q3_light_lightmaps(q3_ctx *c, float gain) {
    const blvl_q3_bsp *bsp = c->bsp;
    const blvl_allocator *a = &c->opt->allocator;
    uint32_t n = bsp->lightmap_count;
    if (!n)
        return BLVL_OK; /* vertex lit: no lightmaps section */
    const uint32_t per_max = BLVL_Q3L_SLOTS * BLVL_Q3L_SLOTS;
    if (n > per_max * BLVL_Q3L_PAGES_MAX)
        return blvl__fail_source(c->err, "lump lightmaps", "length",
                                 bsp->offset[BLVL_Q3_LUMP_LIGHTMAPS], "lightmap-pages",
                                 "%u lightmaps, more than the %u the atlas holds", n,
                                 per_max * BLVL_Q3L_PAGES_MAX);
    /* A few lightmaps get a page just big enough: the smallest square of slots, then rows. */
    uint32_t cols = BLVL_Q3L_SLOTS, rows = BLVL_Q3L_SLOTS;
    if (n < per_max) {
        cols = (uint32_t)ceil(sqrt((double)n));
        while (cols * cols < n)
            cols++;
        rows = (n + cols - 1) / cols;
    }
    uint32_t per = cols * rows, pages = (n + per - 1) / per;
    uint32_t w = cols * BLVL_Q3L_SLOT, h = rows * BLVL_Q3L_SLOT;
    size_t page_bytes = (size_t)w * h * 4;
    uint8_t *rgba = blvl__calloc_n(a, (size_t)pages, page_bytes);
    c->lightmap_place = blvl__calloc_n(a, n, sizeof *c->lightmap_place);
    if (!rgba || !c->lightmap_place) {
        if (rgba)
            blvl__dealloc(a, rgba, (size_t)pages * page_bytes);
        return blvl__nomem(c->err, "the bake's scratch memory");
    }
    for (size_t i = 3; i < (size_t)pages * page_bytes; i += 4)
        rgba[i] = 255; /* unused slots: opaque black */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t page = i / per, slot = i % per, sx = slot % cols, sy = slot / cols;
        uint32_t x0 = sx * BLVL_Q3L_SLOT, y0 = sy * BLVL_Q3L_SLOT;
        copy_page(bsp->lightmaps + (size_t)i * LM * LM * 3,
                  rgba + (size_t)page * page_bytes + ((size_t)y0 * w + x0) * 4, w * 4);
        struct q3_lm_place *p = &c->lightmap_place[i];
        p->layer = (uint16_t)page;
        p->scale_u = (float)LM / (float)w;
        p->scale_v = (float)LM / (float)h;
        p->offset_u = (float)(x0 + 1) / (float)w;
        p->offset_v = (float)(y0 + 1) / (float)h;
    }
    c->lightmap_pages = pages;
    blvl_status st =
        blvl_bake_set_lightmap(c->b, w, h, pages, rgba, blvl_LightmapEncoding_Gamma8, gain, c->err);
    blvl__dealloc(a, rgba, (size_t)pages * page_bytes);
    return st;
}
