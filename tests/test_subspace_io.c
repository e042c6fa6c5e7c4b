/* The .lvl reader and writer (src/import/subspace/) on maps from the generator
 * (tests/support/subspace_gen.c), whose truth comes from its own encoders:
 *   - every case: write -> read -> write gives the same bytes (the full 1024 x 1024 map too);
 *     the parts found where they were written; the records as built, the skip counts;
 *   - the tileset decodes to the generator's pixels, uncompressed and RLE-8 (encoded, absolute
 *     with odd lengths, deltas within and across rows, end-of-line after the last row);
 *   - each region's rTIL (all eight codes used) decodes to the generator's tile set; the known
 *     sub-chunks parsed (name, flags, auto-warp, rPYC), unknown ones kept;
 *   - blvl_subspace_grid equals the generator's grid;
 *   - hand-made RLE-8 streams: a delta's skipped pixels are 0, absolute runs and their padding;
 *   - a counting allocator: every allocation failure in turn, and every truncation of a file,
 *     leave nothing allocated, and each free names the size allocated. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/le.h"
#include "blvl/subspace.h"
#include "check.h"
#include "support/subspace_gen.h"
#include "support/counting_alloc.h"

#define W BLVL_SUBSPACE_TILESET_W
#define H BLVL_SUBSPACE_TILESET_H
#define G BLVL_SUBSPACE_GRID

/* ---- round trips ---------------------------------------------------------------------------- */

static void round_trip(ssg_case k) {
    test_counter cnt;
    blvl_options opt = test_counting(&cnt);
    void *bytes = NULL;
    size_t size = 0;
    CHECK_EQ_INT(ssg_write(k, &opt, &bytes, &size), BLVL_OK);
    blvl_subspace *m = NULL;
    blvl_error err = {0};
    blvl_status st = blvl_subspace_read(&m, bytes, size, &opt, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "%s: %s\n", ssg_case_name(k), err.message);
    CHECK_EQ_INT(st, BLVL_OK);
    if (!m) {
        blvl_free(&opt, bytes);
        return;
    }
    void *again = NULL;
    size_t again_size = 0;
    CHECK_EQ_INT(blvl_subspace_write(&again, &again_size, m, &opt, &err), BLVL_OK);
    CHECK_EQ_INT(again_size, size);
    CHECK(again && memcmp(again, bytes, size) == 0);
    blvl_free(&opt, again);

    blvl_subspace *b = ssg_build(k);
    CHECK_EQ_INT(m->record_count, b->record_count);
    CHECK(m->record_count == 0 || memcmp(m->records, b->records, 4u * m->record_count) == 0);
    CHECK_EQ_INT(m->tail_size, b->tail_size);
    CHECK_MEM(m->tail, b->tail, b->tail_size);
    uint32_t range = 0, empty = 0;
    for (uint32_t i = 0; i < b->record_count; i++) {
        uint32_t r = b->records[i];
        if (BLVL_SUBSPACE_X(r) > 1023 || BLVL_SUBSPACE_Y(r) > 1023)
            range++;
        else if (!BLVL_SUBSPACE_TILE(r))
            empty++;
    }
    CHECK_EQ_INT(m->skipped_range, range);
    CHECK_EQ_INT(m->skipped_empty, empty);
    CHECK_EQ_INT(!!m->bmp, !!b->bmp);
    CHECK_EQ_INT(!!m->elvl, !!b->elvl);
    /* where the parts are */
    const uint8_t *p = bytes;
    if (b->bmp) {
        CHECK_MEM(p, "BM", 2);
        CHECK_EQ_INT(m->tiles_offset, blvl_le32(p + 2));
        uint8_t *px = malloc((size_t)W * H);
        ssg_tileset(px);
        CHECK(m->bmp && memcmp(m->bmp->pixels, px, (size_t)W * H) == 0);
        free(px);
        if (k == SSG_BMP_RAW)
            CHECK_EQ_INT(m->tiles_offset, 49718);
    }
    if (k == SSG_BMP_RLE_ELVL) {
        CHECK_EQ_INT(m->elvl->offset, BLVL_SUBSPACE_ELVL_AT);
        CHECK_EQ_INT(m->tiles_offset, BLVL_SUBSPACE_ELVL_AT + m->elvl->total_size);
    }
    if (k == SSG_ELVL) {
        CHECK_EQ_INT(m->elvl->offset, 0);
        CHECK_EQ_INT(m->tiles_offset, m->elvl->total_size);
    }
    if (!b->bmp && !b->elvl)
        CHECK_EQ_INT(m->tiles_offset, 0);
    /* the grid */
    uint8_t *grid = malloc((size_t)G * G), *want = malloc((size_t)G * G);
    blvl_subspace_grid(m, grid);
    ssg_grid(k, want);
    CHECK(memcmp(grid, want, (size_t)G * G) == 0);
    free(grid);
    free(want);
    ssg_free(b);
    blvl_subspace_free(m);
    blvl_free(&opt, bytes);
    CHECK_EQ_INT(cnt.live, 0);
    CHECK_EQ_INT(cnt.bad_free, 0);
}

/* ---- eLVL contents -------------------------------------------------------------------------- */

static void elvl_contents(ssg_case k) {
    void *bytes = NULL;
    size_t size = 0;
    CHECK_EQ_INT(ssg_write(k, NULL, &bytes, &size), BLVL_OK);
    blvl_subspace *m = NULL;
    blvl_error err = {0};
    CHECK_EQ_INT(blvl_subspace_read(&m, bytes, size, NULL, &err), BLVL_OK);
    if (!m || !m->elvl) {
        CHECK(0);
        blvl_free(NULL, bytes);
        return;
    }
    const blvl_subspace_elvl *e = m->elvl;
    CHECK_EQ_INT(e->chunk_count, 9);
    CHECK_EQ_INT(e->attr_count, 3);
    CHECK(e->attr_count == 3 && strcmp(e->attrs[0].key, "NAME") == 0 &&
          strcmp(e->attrs[0].value, "Generated Map") == 0);
    CHECK(e->attr_count == 3 && strcmp(e->attrs[1].key, "FLAG") == 0 && !e->attrs[1].value);
    CHECK(e->attr_count == 3 && strcmp(e->attrs[2].key, "VERSION") == 0 &&
          strcmp(e->attrs[2].value, "1.2=x") == 0 && e->attrs[2].chunk == 7);
    CHECK(memcmp(e->chunks[2].type, "DCME", 4) == 0 && e->chunks[2].size == 7 &&
          e->chunks[2].pad_size == 1);
    CHECK(memcmp(e->chunks[8].type, "ZZZZ", 4) == 0 && e->chunks[8].size == 0);
    CHECK_EQ_INT(e->region_count, ssg_region_count());
    uint8_t *bits = malloc(BLVL_SUBSPACE_BITMAP_BYTES), *want = malloc(BLVL_SUBSPACE_BITMAP_BYTES);
    unsigned all = 0;
    for (uint32_t r = 0; r < e->region_count && r < ssg_region_count(); r++) {
        const blvl_subspace_region *g = &e->regions[r];
        char name[32];
        snprintf(name, sizeof name, "Region %u", r);
        CHECK(g->name && strcmp(g->name, name) == 0);
        CHECK_EQ_INT(blvl_subspace_region_tiles(g, bits, &err), BLVL_OK);
        ssg_region_bits(r, want);
        CHECK(memcmp(bits, want, BLVL_SUBSPACE_BITMAP_BYTES) == 0);
        unsigned f = 0;
        ssg_rtil(want, NULL, &f);
        if (r != 3)
            all |= f;
        CHECK_EQ_INT(g->tiles_sub == UINT32_MAX, r == 3);
        CHECK_EQ_INT(g->base, r == 0);
        CHECK_EQ_INT(g->no_antiwarp, r == 0);
        CHECK_EQ_INT(g->no_weapons, r == 0);
        CHECK_EQ_INT(g->no_flag_drops, r == 0);
        CHECK_EQ_INT(g->has_autowarp, r <= 1);
    }
    CHECK_EQ_INT(all, 0xFF); /* all eight rTIL codes */
    const blvl_subspace_region *g0 = &e->regions[0], *g1 = &e->regions[1];
    CHECK_EQ_INT(g0->warp_x, 512);
    CHECK_EQ_INT(g0->warp_y, -1);
    CHECK(g0->warp_arena && strcmp(g0->warp_arena, "duel") == 0);
    CHECK(g0->code_sub != UINT32_MAX && g0->subs[g0->code_sub].size == 5 &&
          g0->subs[g0->code_sub].pad_size == 3);
    CHECK(memcmp(g0->subs[g0->sub_count - 1].type, "rZZZ", 4) == 0);
    CHECK_EQ_INT(g1->warp_x, 10);
    CHECK_EQ_INT(g1->warp_y, 20);
    CHECK(!g1->warp_arena);
    free(bits);
    free(want);
    blvl_subspace_free(m);
    blvl_free(NULL, bytes);
}

/* The encoders' forms: the generated tileset uses every RLE-8 form. */
static void forms(void) {
    uint8_t *px = malloc((size_t)W * H);
    ssg_tileset(px);
    unsigned f = 0;
    ssg_rle8(px, true, NULL, &f);
    CHECK_EQ_INT(f, SSG_RLE_RUN | SSG_RLE_ABSOLUTE | SSG_RLE_ABSOLUTE_ODD | SSG_RLE_DELTA_ROW |
                        SSG_RLE_DELTA_DOWN | SSG_RLE_EOL);
    ssg_rle8(px, false, NULL, &f);
    CHECK_EQ_INT(f, SSG_RLE_RUN | SSG_RLE_ABSOLUTE | SSG_RLE_ABSOLUTE_ODD | SSG_RLE_EOL);
    free(px);
}

/* ---- hand-made RLE-8 streams ---------------------------------------------------------------- */

/* A BI_RLE8 tileset whose pixel stream is `data`, read back; NULL when refused (message in err). */
static blvl_subspace *rle_map(const uint8_t *data, uint32_t n, blvl_error *err) {
    blvl_subspace map = {0};
    blvl_subspace_bmp bmp = {0};
    uint8_t pal[256][4];
    ssg_palette(pal);
    bmp.width = W;
    bmp.height = H;
    bmp.planes = 1;
    bmp.bits = 8;
    bmp.compression = 1;
    bmp.palette_count = 256;
    bmp.palette = pal;
    bmp.data = (uint8_t *)data;
    bmp.data_size = n;
    map.bmp = &bmp;
    void *bytes = NULL;
    size_t size = 0;
    blvl_subspace *m = NULL;
    if (blvl_subspace_write(&bytes, &size, &map, NULL, err) == BLVL_OK)
        blvl_subspace_read(&m, bytes, size, NULL, err);
    blvl_free(NULL, bytes);
    return m;
}

static uint8_t px_at(const blvl_subspace *m, uint32_t x, uint32_t file_row) {
    return m->bmp->pixels[x + (size_t)(H - 1u - file_row) * W];
}

static void rle_streams(void) {
    blvl_error err = {0};
    /* 5 x 7, delta (10, 2), absolute 5 (odd: one pad byte), absolute 4 (no pad), 3 x 9, EOB */
    static const uint8_t a[] = {5, 7, 0, 2, 10, 2, 0, 5, 1, 2, 3, 4,
                                5, 0, 0, 4, 6,  7, 8, 9, 3, 9, 0, 1};
    blvl_subspace *m = rle_map(a, sizeof a, &err);
    CHECK(m != NULL);
    if (m) {
        uint32_t nonzero = 0;
        for (size_t i = 0; i < (size_t)W * H; i++)
            nonzero += m->bmp->pixels[i] != 0;
        CHECK_EQ_INT(nonzero, 5 + 5 + 4 + 3);
        for (uint32_t x = 0; x < 5; x++)
            CHECK_EQ_INT(px_at(m, x, 0), 7);
        /* the delta skipped the rest of rows 0 and 1 and columns 0..14 of row 2: all 0 */
        CHECK_EQ_INT(px_at(m, 5, 0), 0);
        CHECK_EQ_INT(px_at(m, 14, 2), 0);
        for (uint32_t x = 0; x < 5; x++)
            CHECK_EQ_INT(px_at(m, 15 + x, 2), x + 1);
        for (uint32_t x = 0; x < 4; x++)
            CHECK_EQ_INT(px_at(m, 20 + x, 2), x + 6);
        for (uint32_t x = 0; x < 3; x++)
            CHECK_EQ_INT(px_at(m, 24 + x, 2), 9);
        CHECK_EQ_INT(px_at(m, 27, 2), 0);
        blvl_subspace_free(m);
    }
    /* end-of-line after the last row is legal; a second one is not */
    uint8_t *s = malloc(4u * H + 8u);
    size_t n = 0;
    for (uint32_t r = 0; r < H; r++) {
        s[n++] = 1;
        s[n++] = (uint8_t)r;
        s[n++] = 0;
        s[n++] = 0;
    }
    s[n++] = 0;
    s[n++] = 1;
    m = rle_map(s, (uint32_t)n, &err);
    CHECK(m != NULL);
    if (m) {
        CHECK_EQ_INT(px_at(m, 0, H - 1), H - 1);
        blvl_subspace_free(m);
    }
    s[n - 2] = 0;
    s[n - 1] = 0;
    s[n++] = 0;
    s[n++] = 1;
    m = rle_map(s, (uint32_t)n, &err);
    CHECK(m == NULL);
    CHECK(strcmp(err.message, "BMP: pixels at offset 1718: rle-image: an end-of-line after the "
                              "image's last row ended") == 0);
    free(s);
    /* a run past the row; a stream without end-of-bitmap */
    static const uint8_t b[] = {255, 1, 50, 1, 0, 1};
    m = rle_map(b, sizeof b, &err);
    CHECK(m == NULL);
    CHECK(strcmp(err.message, "BMP: pixels at offset 1080: rle-row: a run of 50 pixels at "
                              "column 255 passes the row's end (304)") == 0);
    static const uint8_t c[] = {4, 1, 0, 0};
    m = rle_map(c, sizeof c, &err);
    CHECK(m == NULL);
    CHECK(strcmp(err.message, "BMP: pixels at offset 1082: rle-end: the pixel stream ends "
                              "without an end-of-bitmap code") == 0);
}

/* ---- allocation failures and truncations ---------------------------------------------------- */

static void failures(ssg_case k) {
    void *bytes = NULL;
    size_t size = 0;
    CHECK_EQ_INT(ssg_write(k, NULL, &bytes, &size), BLVL_OK);
    test_counter cnt;
    blvl_options opt = test_counting(&cnt);
    blvl_subspace *m = NULL;
    CHECK_EQ_INT(blvl_subspace_read(&m, bytes, size, &opt, NULL), BLVL_OK);
    blvl_subspace_free(m);
    long calls = cnt.calls;
    int wrong = 0;
    for (long i = 1; i <= calls; i++) {
        opt = test_counting(&cnt);
        cnt.fail_at = i;
        blvl_error err = {0};
        m = NULL;
        if (blvl_subspace_read(&m, bytes, size, &opt, &err) != BLVL_E_NOMEM || m || cnt.live)
            wrong++;
    }
    CHECK_EQ_INT(wrong, 0);
    /* every prefix: read or refused as a source error, nothing left allocated; what is read
     * writes back to the same bytes */
    size_t step = size > 4096 ? size / 1500 : 1;
    int bad = 0;
    for (size_t len = 0; len <= size; len += (len < 64 || size - len < 64) ? 1 : step) {
        opt = test_counting(&cnt);
        blvl_error err = {0};
        m = NULL;
        blvl_status st = blvl_subspace_read(&m, bytes, len, &opt, &err);
        if (st == BLVL_OK) {
            void *w = NULL;
            size_t wn = 0;
            if (blvl_subspace_write(&w, &wn, m, &opt, &err) != BLVL_OK || wn != len ||
                memcmp(w, bytes, len) != 0)
                bad++;
            blvl_free(&opt, w);
            blvl_subspace_free(m);
        } else if (st != BLVL_E_SOURCE) {
            bad++;
        }
        if (cnt.live || cnt.bad_free)
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
    blvl_free(NULL, bytes);
}

int main(void) {
    for (int k = 0; k < SSG_CASES; k++)
        round_trip((ssg_case)k);
    elvl_contents(SSG_ELVL);
    elvl_contents(SSG_BMP_RLE_ELVL);
    forms();
    rle_streams();
    failures(SSG_ELVL);
    failures(SSG_BMP_RLE_ELVL);
    failures(SSG_BARE_TAIL);
    return check_report("test_subspace_io");
}
