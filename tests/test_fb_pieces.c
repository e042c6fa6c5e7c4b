/* A buffer built in pieces (fb_builder/reserve.h: blvl__fb_builder_forget, _mark_now, _rewind,
 * _held): runs of tables built and dropped, the front built after them, then each run built again
 * from its mark, newest first. The front followed by the runs must be byte for byte the buffer
 * built whole, for run sizes from 1 item to all of them, with what makes a builder's bytes depend
 * on its past: vtables shared across runs (three table shapes), a vector built in one run and named
 * from later ones, and fields and structs of 1, 2, 4, 8 and 16-byte alignment (the padding depends
 * on the distance from the end). Misuse is refused by name. */
#include <stdlib.h>
#include <string.h>

#include "blvl/fb_builder.h"
#include "check.h"
#include "fb_builder/reserve.h"

enum { ITEMS = 301 };

typedef struct shared {
    blvl_fb_ref ref; /* 0 until built */
} shared;

/* Item i: a vector of i % 5 + 1 elements of 12 or 16 bytes (16: 16-aligned), an odd string for
 * some, then a table of one of three shapes; item 3 builds the shared vector, later items of
 * shape 2 name it. */
static blvl_fb_ref item(blvl_fb_builder *fb, unsigned i, shared *sh) {
    uint8_t el[5 * 16];
    for (unsigned k = 0; k < sizeof el; k++)
        el[k] = (uint8_t)(i * 31 + k);
    bool wide = i % 3 == 1;
    blvl_fb_ref v = blvl_fb_create_vector(fb, el, i % 5 + 1, wide ? 16 : 12, wide ? 16 : 4);
    blvl_fb_ref s = 0;
    if (i % 4 == 2) {
        static const char text[] = "pieces of a buffer";
        s = blvl_fb_create_string(fb, text, i % (sizeof text - 1));
    }
    if (i == 3) {
        uint32_t loops[6] = {3, 3, 4, 4, 4, 4};
        sh->ref = blvl_fb_create_vector(fb, loops, 6, 4, 4);
    }
    unsigned shape = i % 3;
    blvl_fb_table_start(fb);
    blvl_fb_add_ref(fb, 0, v);
    uint8_t small = (uint8_t)i;
    uint16_t mid = (uint16_t)(i * 7);
    uint64_t big = 0x1122334455667788ull ^ i;
    if (shape == 0) {
        blvl_fb_add_raw(fb, 1, &small, 1, 1);
        blvl_fb_add_raw(fb, 2, &big, 8, 8);
    } else if (shape == 1) {
        blvl_fb_add_raw(fb, 3, &mid, 2, 2);
        blvl_fb_add_ref(fb, 4, s);
    } else {
        blvl_fb_add_raw(fb, 1, &small, 1, 1);
        blvl_fb_add_raw(fb, 3, &mid, 2, 2);
        blvl_fb_add_ref(fb, 5, i > 3 ? sh->ref : 0);
    }
    return blvl_fb_table_end(fb);
}

static blvl_fb_ref front(blvl_fb_builder *fb, const blvl_fb_ref *refs) {
    blvl_fb_ref all = blvl_fb_create_ref_vector(fb, refs, ITEMS);
    uint32_t count = ITEMS;
    blvl_fb_table_start(fb);
    blvl_fb_add_ref(fb, 0, all);
    blvl_fb_add_raw(fb, 1, &count, 4, 4);
    return blvl_fb_table_end(fb);
}

int main(void) {
    blvl_error err;
    blvl_fb_builder *whole = NULL, *pieces = NULL;
    CHECK_EQ_INT(blvl_fb_builder_new(&whole, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_fb_builder_new(&pieces, NULL, &err), BLVL_OK);
    blvl_fb_ref refs[ITEMS], refs2[ITEMS];
    shared sh = {0};
    for (unsigned i = 0; i < ITEMS; i++)
        refs[i] = item(whole, i, &sh);
    const uint8_t *a = NULL;
    size_t an = 0;
    CHECK_EQ_INT(blvl_fb_finish(whole, front(whole, refs), &a, &an, &err), BLVL_OK);

    static const unsigned run_sizes[] = {1, 2, 7, 64, 150, ITEMS};
    for (size_t t = 0; t < sizeof run_sizes / sizeof run_sizes[0]; t++) {
        unsigned per = run_sizes[t], nruns = (ITEMS + per - 1) / per;
        blvl__fb_mark *marks = malloc((nruns + 1) * sizeof *marks);
        shared *snap = malloc(nruns * sizeof *snap);
        uint8_t *out = malloc(an);
        size_t got = 0;
        blvl_fb_builder_reset(pieces);
        shared sp = {0};
        for (unsigned r = 0; r < nruns; r++) {
            marks[r] = blvl__fb_builder_mark_now(pieces);
            snap[r] = sp;
            for (unsigned i = r * per; i < ITEMS && i < (r + 1) * per; i++)
                refs2[i] = item(pieces, i, &sp);
            blvl__fb_builder_forget(pieces);
            size_t held = 1;
            blvl__fb_builder_held(pieces, &held);
            CHECK_EQ_INT(held, 0);
        }
        marks[nruns] = blvl__fb_builder_mark_now(pieces);
        CHECK_MEM(refs, refs2, sizeof refs);
        const uint8_t *f = NULL;
        size_t fn = 0, hn = 0;
        CHECK_EQ_INT(blvl_fb_finish(pieces, front(pieces, refs2), &f, &fn, &err), BLVL_OK);
        const uint8_t *h = blvl__fb_builder_held(pieces, &hn);
        CHECK(h == f && hn == fn && fn < an / 2);
        if (fn <= an) {
            memcpy(out, f, fn);
            got = fn;
        }
        for (unsigned r = nruns; r-- > 0;) {
            CHECK(blvl__fb_builder_rewind(pieces, &marks[r]));
            sp = snap[r];
            for (unsigned i = r * per; i < ITEMS && i < (r + 1) * per; i++)
                refs2[i] = item(pieces, i, &sp);
            blvl__fb_mark m = blvl__fb_builder_mark_now(pieces);
            CHECK(m.used == marks[r + 1].used && m.nvt == marks[r + 1].nvt &&
                  m.minalign == marks[r + 1].minalign);
            h = blvl__fb_builder_held(pieces, &hn);
            if (got + hn <= an) {
                memcpy(out + got, h, hn);
                got += hn;
            } else {
                got = an + 1;
            }
        }
        CHECK_EQ_INT(got, an);
        if (got == an)
            CHECK_MEM(out, a, an);
        CHECK_EQ_INT(blvl_fb_builder_status(pieces, &err), BLVL_OK);
        free(marks);
        free(snap);
        free(out);
    }

    /* misuse: a mark past what is built; dropping or rewinding inside a table */
    blvl_fb_builder_reset(pieces);
    shared sp = {0};
    blvl__fb_mark early = blvl__fb_builder_mark_now(pieces);
    item(pieces, 0, &sp);
    blvl__fb_mark late = blvl__fb_builder_mark_now(pieces);
    CHECK(blvl__fb_builder_rewind(pieces, &early));
    CHECK(!blvl__fb_builder_rewind(pieces, &late));
    CHECK_EQ_INT(blvl_fb_builder_status(pieces, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "rewound to a mark not of this build") != NULL);
    blvl_fb_builder_reset(pieces);
    blvl_fb_table_start(pieces);
    blvl__fb_builder_forget(pieces);
    CHECK_EQ_INT(blvl_fb_builder_status(pieces, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "bytes dropped inside a table") != NULL);

    blvl_fb_builder_free(whole);
    blvl_fb_builder_free(pieces);
    return check_report("test_fb_pieces");
}
