/* Prism face loops by hand (prism_loops.h). */
#include "support/prism_loops.h"

static void add(faces *f, const uint8_t *loop, uint32_t n, int shift, int reverse) {
    f->sizes[f->n++] = (uint8_t)n;
    for (uint32_t k = 0; k < n; k++)
        f->idx[f->total++] = (uint8_t)(loop[reverse ? n - 1 - k : k] + shift);
}

void prism_loops(faces *f, int n, int split, int up) {
    static const uint8_t quad[4] = {0, 2, 3, 1}, tri[3] = {0, 1, 2};
    static const uint8_t diag[2][2][3] = {{{0, 2, 1}, {1, 2, 3}}, {{0, 2, 3}, {0, 3, 1}}};
    const uint8_t *o = n == 4 ? quad : tri;
    f->n = f->total = 0;
    if (split < 0) {
        add(f, o, (uint32_t)n, 0, up);
        add(f, o, (uint32_t)n, n, !up);
    } else {
        add(f, diag[split][0], 3, 0, up);
        add(f, diag[split][1], 3, 0, up);
        add(f, diag[!split][0], 3, n, !up);
        add(f, diag[!split][1], 3, n, !up);
    }
    for (int k = 0; k < n; k++) {
        uint8_t i = o[k], j = o[(k + 1) % n];
        const uint8_t side[4] = {j, i, (uint8_t)(i + n), (uint8_t)(j + n)};
        add(f, side, 4, 0, up);
    }
}
