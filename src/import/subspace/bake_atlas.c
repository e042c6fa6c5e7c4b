/* The atlas: one 304 x 160 RGBA8 image, tile n (1..190) at column (n - 1) % 19, row
 * (n - 1) / 19 of 16 x 16 pixels. From the map's tileset, each pixel its palette colour with
 * alpha 0 where that colour is black (0, 0, 0) and 255 elsewhere; a tileset of another size is
 * laid into the 304 x 160 frame from its top-left corner (cut off past it, alpha 0 where it is
 * smaller), and a palette index past the palette is black. Without a tileset: the default one. */
#include <string.h>

#include "bake_internal.h"
#include "common/alloc.h"
#include "common/error.h"

#define W BLVL_SUBSPACE_TILESET_W
#define H BLVL_SUBSPACE_TILESET_H

/* 3 x 5 digits, row after row from the top, bit 2 the left column. */
static const uint16_t digits[10][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
};

static void put(uint8_t *rgba, uint32_t x, uint32_t y, uint8_t r, uint8_t g, uint8_t b) {
    uint8_t *p = rgba + ((size_t)y * W + x) * 4;
    p[0] = r, p[1] = g, p[2] = b, p[3] = 255;
}

/* A colour per category, walls shaded by id so neighbours differ. */
static void colour(uint32_t n, uint8_t c[3]) {
    switch (blvl__import_subspace_bake_category(n)) {
    case SSB_WALL:
        c[0] = (uint8_t)(40 + n * 37 % 80), c[1] = (uint8_t)(60 + n * 53 % 80),
        c[2] = (uint8_t)(120 + n * 29 % 100);
        return;
    case SSB_DOOR:
        c[0] = 200, c[1] = 110, c[2] = (uint8_t)(20 + (n - 162) * 20);
        return;
    case SSB_FLAG:
        c[0] = 220, c[1] = 200, c[2] = 30;
        return;
    case SSB_SAFE:
        c[0] = 40, c[1] = 170, c[2] = 60;
        return;
    case SSB_GOAL:
        c[0] = 190, c[1] = 40, c[2] = 150;
        return;
    case SSB_FLYOVER:
        c[0] = 60, c[1] = 180, c[2] = 190;
        return;
    default: /* fly-under */
        c[0] = 110, c[1] = 70, c[2] = 150;
        return;
    }
}

void blvl_subspace_default_tileset(uint8_t *rgba) {
    if (!rgba)
        return;
    for (uint32_t n = 1; n <= 190; n++) {
        uint32_t x0 = (n - 1) % 19 * 16, y0 = (n - 1) / 19 * 16;
        uint8_t c[3];
        colour(n, c);
        for (uint32_t y = 0; y < 16; y++)
            for (uint32_t x = 0; x < 16; x++) {
                bool edge = x == 0 || y == 0 || x == 15 || y == 15;
                /* fly-over tiles striped, fly-under dotted: the kind shows without the number */
                bool mark =
                    (blvl__import_subspace_bake_category(n) == SSB_FLYOVER && (x + y) % 4 == 0) ||
                    (blvl__import_subspace_bake_category(n) == SSB_FLYUNDER && x % 3 == 1 &&
                     y % 3 == 1);
                uint32_t k = edge ? 2 : mark ? 3 : 4;
                put(rgba, x0 + x, y0 + y, (uint8_t)(c[0] * k / 4), (uint8_t)(c[1] * k / 4),
                    (uint8_t)(c[2] * k / 4));
            }
        /* the id in white digits, centred */
        char s[4];
        uint32_t nd = n >= 100 ? 3 : n >= 10 ? 2 : 1;
        for (uint32_t d = 0, v = n; d < nd; d++, v /= 10)
            s[nd - 1 - d] = (char)('0' + v % 10);
        uint32_t left = x0 + (16 - (4 * nd - 1)) / 2;
        for (uint32_t d = 0; d < nd; d++)
            for (uint32_t y = 0; y < 5; y++)
                for (uint32_t x = 0; x < 3; x++)
                    if (digits[s[d] - '0'][y] >> (2 - x) & 1)
                        put(rgba, left + 4 * d + x, y0 + 5 + y, 255, 255, 255);
    }
}

blvl_status blvl__import_subspace_bake_atlas(subspace_bake *c) {
    size_t size = (size_t)W * H * 4;
    uint8_t *rgba = blvl__calloc(c->al, size);
    if (!rgba)
        return blvl__nomem(c->err, "the bake's scratch memory");
    const blvl_subspace_bmp *bmp = c->map->bmp;
    bool own = bmp && bmp->pixels && bmp->width > 0 && bmp->height != 0;
    if (own) {
        uint32_t bw = (uint32_t)bmp->width;
        uint32_t bh = bmp->height < 0 ? (uint32_t)0 - (uint32_t)bmp->height : (uint32_t)bmp->height;
        for (uint32_t y = 0; y < H && y < bh; y++)
            for (uint32_t x = 0; x < W && x < bw; x++) {
                uint8_t i = bmp->pixels[(size_t)y * bw + x];
                if (!bmp->palette || i >= bmp->palette_count)
                    continue; /* black: alpha 0, as calloc left it */
                const uint8_t *q = bmp->palette[i];
                uint8_t *p = rgba + ((size_t)y * W + x) * 4;
                p[0] = q[2], p[1] = q[1], p[2] = q[0];
                p[3] = (q[0] | q[1] | q[2]) ? 255 : 0;
            }
    } else
        blvl_subspace_default_tileset(rgba);
    blvl_status st = blvl_bake_add_image_rgba8(c->b, own ? "tileset" : "default-tileset", W, H,
                                               rgba, true, &c->image, c->err);
    blvl__dealloc(c->al, rgba, size);
    return st;
}
