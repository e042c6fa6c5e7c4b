/* A cell mask covered by few rectangles: the wall colliders, the safe, goal and region sites.
 *
 * Finding the fewest rectangles is a hard problem in general; this greedy sweep is exact for the
 * cases that matter most (a filled rectangle is one, a checkerboard one per cell) and cheap. The
 * cells are visited in row-major order (y, then x). At a nonzero cell no rectangle covers yet,
 * two maximal candidates grow from it over nonzero cells, covered or not (rectangles may
 * overlap, which a union of solids or volumes does not mind, and an L or a plus needs fewer):
 *   A: as far right as the row allows, then down while every cell of the span is nonzero;
 *   B: as far down as the column allows, then right while every cell of the run is nonzero.
 * The one that covers more cells not yet covered is kept (A on a tie). Only the mask and the
 * visiting order decide the result, so it is deterministic. */
#include <string.h>

#include "bake_internal.h"
#include "common/alloc.h"
#include "common/error.h"

#define G BLVL_SUBSPACE_GRID

static bool row_full(const uint8_t *mask, uint32_t y, uint32_t x, uint32_t w) {
    const uint8_t *r = mask + (size_t)y * G + x;
    for (uint32_t k = 0; k < w; k++)
        if (!r[k])
            return false;
    return true;
}

static bool col_full(const uint8_t *mask, uint32_t x, uint32_t y, uint32_t h) {
    const uint8_t *c = mask + (size_t)y * G + x;
    for (uint32_t k = 0; k < h; k++)
        if (!c[(size_t)k * G])
            return false;
    return true;
}

static uint32_t uncovered(const uint8_t *cov, ssb_rect r) {
    uint32_t n = 0;
    for (uint32_t j = 0; j < r.h; j++) {
        const uint8_t *row = cov + (size_t)(r.y + j) * G + r.x;
        for (uint32_t k = 0; k < r.w; k++)
            n += !row[k];
    }
    return n;
}

blvl_status blvl__import_subspace_bake_cover(const uint8_t *mask, uint8_t *cov,
                                             const blvl_allocator *al, ssb_rect **out,
                                             uint32_t *count, uint32_t *cap, blvl_error *err) {
    *out = NULL;
    *count = *cap = 0;
    uint32_t cells = 0;
    for (size_t i = 0; i < (size_t)G * G; i++)
        cells += mask[i] != 0;
    if (cells == 0)
        return BLVL_OK;
    /* every rectangle covers at least one new cell */
    ssb_rect *r = blvl__calloc_n(al, cells, sizeof *r);
    if (!r)
        return blvl__nomem(err, "the cover's rectangles");
    memset(cov, 0, (size_t)G * G);
    uint32_t n = 0;
    for (uint32_t y = 0; y < G; y++) {
        for (uint32_t x = 0; x < G; x++) {
            size_t i = (size_t)y * G + x;
            if (!mask[i] || cov[i])
                continue;
            ssb_rect a = {(uint16_t)x, (uint16_t)y, 1, 1}, b = a;
            uint32_t w = 1, h = 1;
            while (x + w < G && mask[i + w])
                w++;
            while (y + h < G && row_full(mask, y + h, x, w))
                h++;
            a.w = (uint16_t)w, a.h = (uint16_t)h;
            w = 1, h = 1;
            while (y + h < G && mask[i + (size_t)h * G])
                h++;
            while (x + w < G && col_full(mask, x + w, y, h))
                w++;
            b.w = (uint16_t)w, b.h = (uint16_t)h;
            ssb_rect pick = a;
            if ((a.w != b.w || a.h != b.h) && uncovered(cov, b) > uncovered(cov, a))
                pick = b;
            for (uint32_t j = 0; j < pick.h; j++)
                memset(cov + (size_t)(pick.y + j) * G + pick.x, 1, pick.w);
            r[n++] = pick;
        }
    }
    *out = r;
    *count = n;
    *cap = cells;
    return BLVL_OK;
}
