/* BC1, BC3, BC4 and BC5 blocks to RGBA8. The rounding follows the common decoders (Pillow's
 * among them, which the tests compare with): 5- and 6-bit endpoints widened by repeating their
 * top bits, the in-between colours and alphas of integer weights rounded down. */
#include "image_internal.h"

static void rgb565(uint16_t c, uint8_t out[4]) {
    uint32_t r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
    out[0] = (uint8_t)(r << 3 | r >> 2);
    out[1] = (uint8_t)(g << 2 | g >> 4);
    out[2] = (uint8_t)(b << 3 | b >> 2);
    out[3] = 255;
}

/* The colour half: `four` forces the four-colour form (BC3's colour block has no transparent
 * index, whatever the order of its endpoints). */
static void color_block(const uint8_t *src, uint8_t out[64], int four) {
    uint16_t c0 = (uint16_t)(src[0] | src[1] << 8), c1 = (uint16_t)(src[2] | src[3] << 8);
    uint8_t p[4][4];
    rgb565(c0, p[0]);
    rgb565(c1, p[1]);
    for (int k = 0; k < 3; k++) {
        if (four || c0 > c1) {
            p[2][k] = (uint8_t)((2 * p[0][k] + p[1][k]) / 3);
            p[3][k] = (uint8_t)((p[0][k] + 2 * p[1][k]) / 3);
        } else {
            p[2][k] = (uint8_t)((p[0][k] + p[1][k]) / 2);
            p[3][k] = 0;
        }
    }
    p[2][3] = 255;
    p[3][3] = four || c0 > c1 ? 255 : 0;
    uint32_t idx =
        (uint32_t)src[4] | (uint32_t)src[5] << 8 | (uint32_t)src[6] << 16 | (uint32_t)src[7] << 24;
    for (int i = 0; i < 16; i++) {
        const uint8_t *c = p[(idx >> (2 * i)) & 3];
        for (int k = 0; k < 4; k++)
            out[i * 4 + k] = c[k];
    }
}

/* An 8-byte alpha-style block (BC3's alpha, BC4, each half of BC5) into channel `ch`. */
static void alpha_block(const uint8_t *src, uint8_t out[64], int ch) {
    uint32_t a0 = src[0], a1 = src[1];
    uint8_t v[8] = {(uint8_t)a0, (uint8_t)a1};
    if (a0 > a1) {
        for (uint32_t i = 1; i < 7; i++)
            v[i + 1] = (uint8_t)(((7 - i) * a0 + i * a1) / 7);
    } else {
        for (uint32_t i = 1; i < 5; i++)
            v[i + 1] = (uint8_t)(((5 - i) * a0 + i * a1) / 5);
        v[6] = 0;
        v[7] = 255;
    }
    uint64_t idx = 0;
    for (int i = 0; i < 6; i++)
        idx |= (uint64_t)src[2 + i] << (8 * i);
    for (int i = 0; i < 16; i++)
        out[i * 4 + ch] = v[(idx >> (3 * i)) & 7];
}

void blvl__image_bc1_block(const uint8_t *src, uint8_t out[64]) {
    color_block(src, out, 0);
}

void blvl__image_bc3_block(const uint8_t *src, uint8_t out[64]) {
    color_block(src + 8, out, 1);
    alpha_block(src, out, 3);
}

void blvl__image_bc4_block(const uint8_t *src, uint8_t out[64]) {
    alpha_block(src, out, 0);
    for (int i = 0; i < 16; i++) {
        out[i * 4 + 1] = out[i * 4 + 2] = out[i * 4];
        out[i * 4 + 3] = 255;
    }
}

void blvl__image_bc5_block(const uint8_t *src, uint8_t out[64]) {
    alpha_block(src, out, 0);
    alpha_block(src + 8, out, 1);
    for (int i = 0; i < 16; i++) {
        out[i * 4 + 2] = 0;
        out[i * 4 + 3] = 255;
    }
}
