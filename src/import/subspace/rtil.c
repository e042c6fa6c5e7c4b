/* rTIL, a region's tiles in the public eLVL run-length code, read row by row from (0, 0):
 *   000nnnnn             n+1 (1..32) empty tiles       001000nn nnnnnnnn  n+1 (1..1024) empty
 *   010nnnnn             n+1 present tiles             011000nn nnnnnnnn  n+1 present
 *   100nnnnn             n+1 empty rows                101000nn nnnnnnnn  n+1 empty rows
 *   110nnnnn             the previous row n+1 times    111000nn nnnnnnnn  the same, long
 * Tile runs stay inside their row; row codes come only where a row starts; the code describes
 * exactly the grid's 1024 rows (docs/IMPORT-SUBSPACE.md, rules rtil-*). */
#include <string.h>

#include "import/subspace/subspace_internal.h"

#define G BLVL_SUBSPACE_GRID
#define ROW_BYTES (G / 8u)

static void set_run(uint8_t *bits, uint32_t x, uint32_t y, uint32_t n) {
    uint32_t i = x + y * G, end = i + n;
    for (; i < end && (i & 7u); i++)
        bits[i >> 3] |= (uint8_t)(1u << (i & 7u));
    for (; i + 8u <= end; i += 8u)
        bits[i >> 3] = 0xFF;
    for (; i < end; i++)
        bits[i >> 3] |= (uint8_t)(1u << (i & 7u));
}

blvl_status blvl__import_subspace_rtil(const uint8_t *p, uint32_t size, uint64_t at, uint8_t *bits,
                                       blvl_error *err) {
    static const char *const names[4] = {"empty tiles", "present tiles", "empty rows",
                                         "previous-row repeats"};
    uint32_t i = 0, x = 0, y = 0;
    while (i < size) {
        uint32_t start = i, c = p[i], kind = c >> 6, n;
        uint64_t o = at + start;
        if (c & 0x20u) { /* the long form: 3 bits that must be zero, 10 bits of count */
            if (c & 0x1Cu)
                return blvl__fail_source(err, "REGN", "rTIL", o, "rtil-code",
                                         "0x%02x: a long code's bits 4..2 must be 0", c);
            if (size - i < 2)
                return blvl__fail_source(err, "REGN", "rTIL", o, "rtil-end",
                                         "a long code (0x%02x) without its second byte", c);
            n = ((c & 3u) << 8 | p[i + 1]) + 1u;
            i += 2;
        } else {
            n = (c & 0x1Fu) + 1u;
            i += 1;
        }
        if (kind < 2) {
            if (y >= G)
                return blvl__fail_source(err, "REGN", "rTIL", o, "rtil-grid",
                                         "%u %s after the grid's last row", n, names[kind]);
            if (n > G - x)
                return blvl__fail_source(err, "REGN", "rTIL", o, "rtil-row",
                                         "%u %s at column %u pass the row's end (%u)", n,
                                         names[kind], x, G);
            if (kind == 1 && bits)
                set_run(bits, x, y, n);
            x += n;
            if (x == G) {
                x = 0;
                y++;
            }
            continue;
        }
        if (x != 0)
            return blvl__fail_source(err, "REGN", "rTIL", o, "rtil-row",
                                     "%u %s at column %u of row %u: a row code must start a "
                                     "row",
                                     n, names[kind], x, y);
        if (n > G - y)
            return blvl__fail_source(err, "REGN", "rTIL", o, "rtil-grid",
                                     "%u %s from row %u pass the grid's %u rows", n, names[kind], y,
                                     G);
        if (kind == 3) {
            if (y == 0)
                return blvl__fail_source(err, "REGN", "rTIL", o, "rtil-first",
                                         "a repeat of the previous row at row 0");
            for (uint32_t r = 0; bits && r < n; r++)
                memcpy(bits + (size_t)(y + r) * ROW_BYTES, bits + (size_t)(y - 1u) * ROW_BYTES,
                       ROW_BYTES);
        }
        y += n;
    }
    if (x != 0 || y != G)
        return blvl__fail_source(err, "REGN", "rTIL", at + size, "rtil-end",
                                 "the code ends at column %u of row %u; it must describe all "
                                 "%u rows",
                                 x, y, G);
    return BLVL_OK;
}

blvl_status blvl_subspace_region_tiles(const blvl_subspace_region *r, uint8_t *bits,
                                       blvl_error *err) {
    if (!r || !bits)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "blvl_subspace_region_tiles: r and bits must be set");
    memset(bits, 0, BLVL_SUBSPACE_BITMAP_BYTES);
    if (r->tiles_sub == SS_NONE || !r->subs || r->tiles_sub >= r->sub_count) {
        blvl__ok(err);
        return BLVL_OK;
    }
    const blvl_subspace_chunk *s = &r->subs[r->tiles_sub];
    blvl_status st =
        blvl__import_subspace_rtil(s->bytes, s->size, s->offset ? s->offset + 8u : 0, bits, err);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
