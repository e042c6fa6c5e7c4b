/* BC6H blocks (unsigned, UF16) to RGBA8, all 14 modes. The 16-bit results are the half floats
 * the format defines; each is clamped to 0..1 and rounded to the nearest of 0..255 as a linear
 * value (docs/IMAGES.md); alpha is 255. The four reserved mode values decode to black, as D3D11
 * specifies. */
#include "image_internal.h"

enum { R0, G0, B0, R1, G1, B1, R2, G2, B2, R3, G3, B3 };

/* Where the endpoint bits lie: each step moves the next |count| stream bits into `field`, from
 * bit `first` up (count > 0) or down (count < 0). The spec's tables, as runs. */
typedef struct step {
    uint8_t field, first;
    int8_t count;
} step;

typedef struct mode_info {
    uint8_t header_bits, regions, transformed, endpoint_bits, delta_bits[3];
    step layout[21];
} mode_info;

static const mode_info modes[14] = {
    {2,
     2,
     1,
     10,
     {5, 5, 5},
     {{G2, 4, 1},
      {B2, 4, 1},
      {B3, 4, 1},
      {R0, 0, 10},
      {G0, 0, 10},
      {B0, 0, 10},
      {R1, 0, 5},
      {G3, 4, 1},
      {G2, 0, 4},
      {G1, 0, 5},
      {B3, 0, 1},
      {G3, 0, 4},
      {B1, 0, 5},
      {B3, 1, 1},
      {B2, 0, 4},
      {R2, 0, 5},
      {B3, 2, 1},
      {R3, 0, 5},
      {B3, 3, 1}}},
    {2, 2, 1, 7, {6, 6, 6}, {{G2, 5, 1}, {G3, 4, 2},  {R0, 0, 7}, {B3, 0, 2}, {B2, 4, 1},
                             {G0, 0, 7}, {B2, 5, 1},  {B3, 2, 1}, {G2, 4, 1}, {B0, 0, 7},
                             {B3, 3, 1}, {B3, 5, -2}, {R1, 0, 6}, {G2, 0, 4}, {G1, 0, 6},
                             {G3, 0, 4}, {B1, 0, 6},  {B2, 0, 4}, {R2, 0, 6}, {R3, 0, 6}}},
    {5,
     2,
     1,
     11,
     {5, 4, 4},
     {{R0, 0, 10},
      {G0, 0, 10},
      {B0, 0, 10},
      {R1, 0, 5},
      {R0, 10, 1},
      {G2, 0, 4},
      {G1, 0, 4},
      {G0, 10, 1},
      {B3, 0, 1},
      {G3, 0, 4},
      {B1, 0, 4},
      {B0, 10, 1},
      {B3, 1, 1},
      {B2, 0, 4},
      {R2, 0, 5},
      {B3, 2, 1},
      {R3, 0, 5},
      {B3, 3, 1}}},
    {5, 2, 1, 11, {4, 5, 4}, {{R0, 0, 10}, {G0, 0, 10}, {B0, 0, 10}, {R1, 0, 4},  {R0, 10, 1},
                              {G3, 4, 1},  {G2, 0, 4},  {G1, 0, 5},  {G0, 10, 1}, {G3, 0, 4},
                              {B1, 0, 4},  {B0, 10, 1}, {B3, 1, 1},  {B2, 0, 4},  {R2, 0, 4},
                              {B3, 0, 1},  {B3, 2, 1},  {R3, 0, 4},  {G2, 4, 1},  {B3, 3, 1}}},
    {5,
     2,
     1,
     11,
     {4, 4, 5},
     {{R0, 0, 10},
      {G0, 0, 10},
      {B0, 0, 10},
      {R1, 0, 4},
      {R0, 10, 1},
      {B2, 4, 1},
      {G2, 0, 4},
      {G1, 0, 4},
      {G0, 10, 1},
      {B3, 0, 1},
      {G3, 0, 4},
      {B1, 0, 5},
      {B0, 10, 1},
      {B2, 0, 4},
      {R2, 0, 4},
      {B3, 1, 2},
      {R3, 0, 4},
      {B3, 4, -2}}},
    {5,
     2,
     1,
     9,
     {5, 5, 5},
     {{R0, 0, 9},
      {B2, 4, 1},
      {G0, 0, 9},
      {G2, 4, 1},
      {B0, 0, 9},
      {B3, 4, 1},
      {R1, 0, 5},
      {G3, 4, 1},
      {G2, 0, 4},
      {G1, 0, 5},
      {B3, 0, 1},
      {G3, 0, 4},
      {B1, 0, 5},
      {B3, 1, 1},
      {B2, 0, 4},
      {R2, 0, 5},
      {B3, 2, 1},
      {R3, 0, 5},
      {B3, 3, 1}}},
    {5,
     2,
     1,
     8,
     {6, 5, 5},
     {{R0, 0, 8},
      {G3, 4, 1},
      {B2, 4, 1},
      {G0, 0, 8},
      {B3, 2, 1},
      {G2, 4, 1},
      {B0, 0, 8},
      {B3, 3, 2},
      {R1, 0, 6},
      {G2, 0, 4},
      {G1, 0, 5},
      {B3, 0, 1},
      {G3, 0, 4},
      {B1, 0, 5},
      {B3, 1, 1},
      {B2, 0, 4},
      {R2, 0, 6},
      {R3, 0, 6}}},
    {5, 2, 1, 8, {5, 6, 5}, {{R0, 0, 8}, {B3, 0, 1}, {B2, 4, 1}, {G0, 0, 8}, {G2, 5, -2},
                             {B0, 0, 8}, {G3, 5, 1}, {B3, 4, 1}, {R1, 0, 5}, {G3, 4, 1},
                             {G2, 0, 4}, {G1, 0, 6}, {G3, 0, 4}, {B1, 0, 5}, {B3, 1, 1},
                             {B2, 0, 4}, {R2, 0, 5}, {B3, 2, 1}, {R3, 0, 5}, {B3, 3, 1}}},
    {5, 2, 1, 8, {5, 5, 6}, {{R0, 0, 8}, {B3, 1, 1}, {B2, 4, 1},  {G0, 0, 8}, {B2, 5, 1},
                             {G2, 4, 1}, {B0, 0, 8}, {B3, 5, -2}, {R1, 0, 5}, {G3, 4, 1},
                             {G2, 0, 4}, {G1, 0, 5}, {B3, 0, 1},  {G3, 0, 4}, {B1, 0, 6},
                             {B2, 0, 4}, {R2, 0, 5}, {B3, 2, 1},  {R3, 0, 5}, {B3, 3, 1}}},
    {5, 2, 0, 6, {6, 6, 6}, {{R0, 0, 6}, {G3, 4, 1}, {B3, 0, 2},  {B2, 4, 1}, {G0, 0, 6},
                             {G2, 5, 1}, {B2, 5, 1}, {B3, 2, 1},  {G2, 4, 1}, {B0, 0, 6},
                             {G3, 5, 1}, {B3, 3, 1}, {B3, 5, -2}, {R1, 0, 6}, {G2, 0, 4},
                             {G1, 0, 6}, {G3, 0, 4}, {B1, 0, 6},  {B2, 0, 4}, {R2, 0, 6},
                             {R3, 0, 6}}},
    {5,
     1,
     0,
     10,
     {10, 10, 10},
     {{R0, 0, 10}, {G0, 0, 10}, {B0, 0, 10}, {R1, 0, 10}, {G1, 0, 10}, {B1, 0, 10}}},
    {5,
     1,
     1,
     11,
     {9, 9, 9},
     {{R0, 0, 10},
      {G0, 0, 10},
      {B0, 0, 10},
      {R1, 0, 9},
      {R0, 10, 1},
      {G1, 0, 9},
      {G0, 10, 1},
      {B1, 0, 9},
      {B0, 10, 1}}},
    {5,
     1,
     1,
     12,
     {8, 8, 8},
     {{R0, 0, 10},
      {G0, 0, 10},
      {B0, 0, 10},
      {R1, 0, 8},
      {R0, 11, -2},
      {G1, 0, 8},
      {G0, 11, -2},
      {B1, 0, 8},
      {B0, 11, -2}}},
    {5,
     1,
     1,
     16,
     {4, 4, 4},
     {{R0, 0, 10},
      {G0, 0, 10},
      {B0, 0, 10},
      {R1, 0, 4},
      {R0, 15, -6},
      {G1, 0, 4},
      {G0, 15, -6},
      {B1, 0, 4},
      {B0, 15, -6}}},
};

/* The mode of a block from its first five bits; -1 for the reserved values. */
static int mode_of(uint8_t first) {
    static const int8_t five[32] = {
        [0x02] = 2,  [0x06] = 3,  [0x0A] = 4,  [0x0E] = 5,  [0x12] = 6,  [0x16] = 7,
        [0x1A] = 8,  [0x1E] = 9,  [0x03] = 10, [0x07] = 11, [0x0B] = 12, [0x0F] = 13,
        [0x13] = -1, [0x17] = -1, [0x1B] = -1, [0x1F] = -1};
    if ((first & 3) < 2)
        return first & 3;
    return five[first & 31];
}

static int32_t sign_extend(uint32_t v, uint32_t bits) {
    uint32_t m = 1u << (bits - 1);
    return (int32_t)((v ^ m) - m);
}

/* An endpoint of `bits` bits to the 16-bit scale the interpolation works in. */
static uint32_t unquantize(uint32_t v, uint32_t bits) {
    if (bits >= 15 || v == 0)
        return v;
    if (v == (1u << bits) - 1)
        return 0xFFFF;
    return ((v << 15) + 0x4000) >> (bits - 1);
}

/* An interpolated 16-bit value as the UF16 half it stands for, then that half clamped to 0..1
 * and rounded to 8 bits: halves at or over 1.0 (0x3C00) give 255; below, the value is
 * significand * 2^(exponent - 25) exactly, so the rounding is done in integers. */
static uint8_t to_byte(uint32_t v) {
    uint32_t h = (v * 31) >> 6;
    if (h >= 0x3C00)
        return 255;
    uint32_t e = h >> 10, m = h & 1023;
    uint64_t scaled = e ? (uint64_t)(1024 + m) << (e - 1) : m; /* value * 2^24 */
    return (uint8_t)((scaled * 255 + (1u << 23)) >> 24);
}

void blvl__image_bc6h_block(const uint8_t *src, uint8_t out[64]) {
    int mi = mode_of(src[0]);
    if (mi < 0) {
        for (int t = 0; t < 16; t++) {
            out[t * 4] = out[t * 4 + 1] = out[t * 4 + 2] = 0;
            out[t * 4 + 3] = 255;
        }
        return;
    }
    const mode_info *m = &modes[mi];
    blvl__bits b = {src, m->header_bits};
    uint32_t f[12] = {0};
    for (size_t s = 0; s < sizeof m->layout / sizeof m->layout[0] && m->layout[s].count; s++) {
        const step *st = &m->layout[s];
        int n = st->count < 0 ? -st->count : st->count, dir = st->count < 0 ? -1 : 1;
        for (int k = 0; k < n; k++)
            f[st->field] |= blvl__image_bits_get(&b, 1) << (st->first + dir * k);
    }
    uint32_t part = m->regions == 2 ? blvl__image_bits_get(&b, 5) : 0;
    uint32_t ends = m->regions * 2u, eb = m->endpoint_bits, mask = (1u << eb) - 1;
    if (m->transformed)
        for (uint32_t i = 1; i < ends; i++)
            for (uint32_t c = 0; c < 3; c++)
                f[i * 3 + c] =
                    (uint32_t)(sign_extend(f[i * 3 + c], m->delta_bits[c]) + (int32_t)f[c]) & mask;
    uint32_t e[12];
    for (uint32_t i = 0; i < ends * 3; i++)
        e[i] = unquantize(f[i], eb);
    uint32_t ib = m->regions == 2 ? 3 : 4;
    const uint8_t *w = ib == 3 ? blvl__image_bptc_weights3 : blvl__image_bptc_weights4;
    for (uint32_t t = 0; t < 16; t++) {
        uint32_t wt =
            w[blvl__image_bits_get(&b, ib - blvl__image_bptc_anchor(m->regions, part, t))];
        uint32_t s = m->regions == 2 ? (uint32_t)(blvl__image_bptc_part2[part][t] - '0') * 6 : 0;
        for (uint32_t c = 0; c < 3; c++)
            out[t * 4 + c] = to_byte(((64 - wt) * e[s + c] + wt * e[s + 3 + c] + 32) >> 6);
        out[t * 4 + 3] = 255;
    }
}
