/* The face loops of a prism over a terrain cell, written out by hand for the bake tests
 * (test_bake_known, test_bake_prism): an independent statement of docs/BAKE.md, "Prisms", to
 * hold the library's known hulls and prism templates against. */
#ifndef BLVL_TEST_PRISM_LOOPS_H
#define BLVL_TEST_PRISM_LOOPS_H
#include <stdint.h>

typedef struct faces {
    uint8_t sizes[16], idx[64];
    uint32_t n, total;
} faces;

/* Corners a b / c d (0..3) then their copies (4..7), or a triangle (0..2, counter-clockwise seen
 * from above: +y up, x right, z toward the viewer's bottom) and copies (3..5). split -1: one top
 * face; 0: triangles a-c-b, b-c-d; 1: a-c-d, a-d-b. up: the copies lie above. */
void prism_loops(faces *f, int n, int split, int up);
#endif
