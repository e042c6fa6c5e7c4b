/* BC7 blocks to RGBA8, all eight modes. A block whose first byte is 0 (no mode bit) is reserved:
 * it decodes to 0 in every channel, as D3D11 specifies. */
#include <string.h>

#include "image_internal.h"

typedef struct mode_info {
    uint8_t subsets, part_bits, rot_bits, sel_bits, color_bits, alpha_bits;
    uint8_t endpoint_pbits, shared_pbits, index_bits, index2_bits;
} mode_info;

static const mode_info modes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

static const uint8_t *weights(uint32_t bits) {
    return bits == 2   ? blvl__image_bptc_weights2
           : bits == 3 ? blvl__image_bptc_weights3
                       : blvl__image_bptc_weights4;
}

/* An n-bit value (n 5..8) widened to 8 bits by repeating its top bits. */
static uint8_t widen(uint32_t v, uint32_t n) {
    return (uint8_t)(v << (8 - n) | v >> (2 * n - 8));
}

static uint8_t lerp(uint32_t e0, uint32_t e1, uint32_t w) {
    return (uint8_t)(((64 - w) * e0 + w * e1 + 32) >> 6);
}

void blvl__image_bc7_block(const uint8_t *src, uint8_t out[64]) {
    if (!src[0]) {
        memset(out, 0, 64);
        return;
    }
    uint32_t mode = 0;
    while (!(src[0] >> mode & 1))
        mode++;
    const mode_info *m = &modes[mode];
    blvl__bits b = {src, mode + 1};
    uint32_t part = blvl__image_bits_get(&b, m->part_bits);
    uint32_t rot = blvl__image_bits_get(&b, m->rot_bits);
    uint32_t sel = blvl__image_bits_get(&b, m->sel_bits);
    uint32_t ends = m->subsets * 2u, e[6][4];
    for (uint32_t c = 0; c < 3; c++)
        for (uint32_t i = 0; i < ends; i++)
            e[i][c] = blvl__image_bits_get(&b, m->color_bits);
    for (uint32_t i = 0; i < ends; i++)
        e[i][3] = m->alpha_bits ? blvl__image_bits_get(&b, m->alpha_bits) : 255;
    uint32_t cbits = m->color_bits, abits = m->alpha_bits;
    if (m->endpoint_pbits || m->shared_pbits) {
        /* one bit per endpoint, or one per subset read at its first endpoint */
        uint32_t pb[6];
        for (uint32_t i = 0; i < ends; i++)
            pb[i] = m->endpoint_pbits || i % 2 == 0 ? blvl__image_bits_get(&b, 1) : pb[i - 1];
        for (uint32_t i = 0; i < ends; i++)
            for (uint32_t c = 0; c < (abits ? 4u : 3u); c++)
                e[i][c] = e[i][c] << 1 | pb[i];
        cbits++;
        if (abits)
            abits++;
    }
    for (uint32_t i = 0; i < ends; i++) {
        for (uint32_t c = 0; c < 3; c++)
            e[i][c] = widen(e[i][c], cbits);
        if (abits)
            e[i][3] = widen(e[i][3], abits);
    }
    /* Indices: the primary set, then (modes 4 and 5) the secondary; each subset's anchor texel
     * stores one bit fewer (its top bit is 0). */
    const char *subset = m->subsets == 2   ? blvl__image_bptc_part2[part]
                         : m->subsets == 3 ? blvl__image_bptc_part3[part]
                                           : NULL;
    uint32_t idx[16], idx2[16];
    for (uint32_t t = 0; t < 16; t++)
        idx[t] =
            blvl__image_bits_get(&b, m->index_bits - blvl__image_bptc_anchor(m->subsets, part, t));
    for (uint32_t t = 0; t < 16 && m->index2_bits; t++)
        idx2[t] = blvl__image_bits_get(&b, t == 0 ? m->index2_bits - 1u : m->index2_bits);
    const uint8_t *w1 = weights(m->index_bits), *w2 = weights(m->index2_bits);
    for (uint32_t t = 0; t < 16; t++) {
        uint32_t s = subset ? (uint32_t)(subset[t] - '0') * 2 : 0;
        uint32_t wc = w1[idx[t]], wa = wc;
        if (m->index2_bits) {
            wc = sel ? w2[idx2[t]] : w1[idx[t]];
            wa = sel ? w1[idx[t]] : w2[idx2[t]];
        }
        uint8_t *px = out + t * 4;
        for (uint32_t c = 0; c < 3; c++)
            px[c] = lerp(e[s][c], e[s + 1][c], wc);
        px[3] = lerp(e[s][3], e[s + 1][3], wa);
        if (rot) {
            uint8_t tmp = px[3];
            px[3] = px[rot - 1];
            px[rot - 1] = tmp;
        }
    }
}
