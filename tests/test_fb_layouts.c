/* The builder keeps the layouts of the table kinds it made recently (fb_builder/builder.c): a table
 * of a kept kind skips the sort, the layout and the vtable search. Every table must still read back
 * through its vtable, whatever the kinds' order: more kinds than the builder keeps, so they
 * evict each other; kinds that differ only in a field's size or in whether it is a reference;
 * kinds of more fields than a layout holds; a rewind or a reset that drops the vtable a kept
 * layout named, after which another vtable takes its place. Fields added in another order give
 * the same bytes, and tables of one kind share one vtable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/fb_builder.h"
#include "blvl/fb_reader.h"
#include "check.h"
#include "fb_builder/reserve.h"

enum { KINDS = 23, TABLES = 3000, WIDE = 20 };

/* Kind k below 20: ids 0..5 present by the bits of k + 1 (id 0 a u8, 1 a u16, 2 a u32, 3 a u64,
 * 4 a string reference, 5 a 12-byte struct). Kind 20: WIDE u32 fields, more than a layout
 * keeps. Kinds 21 and 22: id 2 alone, a u32 or a string reference (the same size and
 * alignment). */
static unsigned bits_of(unsigned k) {
    return k == 21 || k == 22 ? 0 : (k + 1) & 63u;
}

static uint64_t value(unsigned t, unsigned id) {
    return 0x9E3779B97F4A7C15ull * (t * 64u + id + 1u);
}

static blvl_fb_ref table(blvl_fb_builder *fb, unsigned t, unsigned k, bool reversed) {
    blvl_fb_ref s = 0;
    unsigned bits = bits_of(k);
    if (bits & 16u || k == 22) {
        char text[32];
        int n = snprintf(text, sizeof text, "table %u", t);
        s = blvl_fb_create_string(fb, text, (size_t)n);
    }
    blvl_fb_table_start(fb);
    if (k == 20) {
        for (unsigned j = 0; j < WIDE; j++) {
            unsigned id = reversed ? WIDE - 1 - j : j;
            uint32_t v = (uint32_t)value(t, id);
            blvl_fb_add_raw(fb, id, &v, 4, 4);
        }
        return blvl_fb_table_end(fb);
    }
    if (k == 21) {
        uint32_t v = (uint32_t)value(t, 2);
        blvl_fb_add_raw(fb, 2, &v, 4, 4);
        return blvl_fb_table_end(fb);
    }
    if (k == 22) {
        blvl_fb_add_ref(fb, 2, s);
        return blvl_fb_table_end(fb);
    }
    for (unsigned j = 0; j < 6; j++) {
        unsigned id = reversed ? 5 - j : j;
        if (!(bits >> id & 1u))
            continue;
        uint64_t v = value(t, id);
        static const size_t size[] = {1, 2, 4, 8, 0, 12};
        if (id == 4)
            blvl_fb_add_ref(fb, 4, s);
        else if (id == 5) {
            uint32_t st[3] = {(uint32_t)v, (uint32_t)(v >> 32), (uint32_t)t};
            blvl_fb_add_raw(fb, 5, st, 12, 4);
        } else
            blvl_fb_add_raw(fb, id, &v, size[id], size[id]);
    }
    return blvl_fb_table_end(fb);
}

/* Table t of kind k read back through its vtable. */
static void check_table(const uint8_t *p, unsigned t, unsigned k) {
    char text[32];
    int n = snprintf(text, sizeof text, "table %u", t);
    if (k == 20) {
        for (unsigned id = 0; id < WIDE; id++)
            CHECK_EQ_INT(blvl_fb_get_u32(p, id, 0), (uint32_t)value(t, id));
        return;
    }
    if (k == 21 || k == 22) {
        for (unsigned id = 0; id < 6; id++)
            CHECK_EQ_INT(blvl_fb_has(p, id), id == 2);
        if (k == 21)
            CHECK_EQ_INT(blvl_fb_get_u32(p, 2, 0), (uint32_t)value(t, 2));
        else
            CHECK(blvl_fb_get_str(p, 2).len == (uint32_t)n &&
                  memcmp(blvl_fb_get_str(p, 2).ptr, text, (size_t)n) == 0);
        return;
    }
    unsigned bits = bits_of(k);
    for (unsigned id = 0; id < 6; id++)
        CHECK_EQ_INT(blvl_fb_has(p, id), (bits >> id & 1u) != 0);
    uint64_t v[6];
    for (unsigned id = 0; id < 6; id++)
        v[id] = value(t, id);
    if (bits & 1u)
        CHECK_EQ_INT(blvl_fb_get_u8(p, 0, 0), (uint8_t)v[0]);
    if (bits & 2u)
        CHECK_EQ_INT(blvl_fb_get_u16(p, 1, 0), (uint16_t)v[1]);
    if (bits & 4u)
        CHECK_EQ_INT(blvl_fb_get_u32(p, 2, 0), (uint32_t)v[2]);
    if (bits & 8u)
        CHECK(blvl_fb_get_u64(p, 3, 0) == v[3]);
    if (bits & 16u)
        CHECK(blvl_fb_get_str(p, 4).len == (uint32_t)n &&
              memcmp(blvl_fb_get_str(p, 4).ptr, text, (size_t)n) == 0);
    if (bits & 32u) {
        uint32_t st[3];
        blvl_fb_get_struct(p, 5, st, sizeof st);
        CHECK(st[0] == (uint32_t)v[5] && st[1] == (uint32_t)(v[5] >> 32) && st[2] == t);
    }
}

static const uint8_t *vtable_of(const uint8_t *p) {
    return p - (ptrdiff_t)blvl_fb_i32(p);
}

/* TABLES tables, table t of kind kinds[t], under one root vector. */
static blvl_status build(blvl_fb_builder *fb, const unsigned *kinds, bool reversed,
                         const uint8_t **out, size_t *size, blvl_error *err) {
    static blvl_fb_ref refs[TABLES];
    blvl_fb_builder_reset(fb);
    for (unsigned t = 0; t < TABLES; t++)
        refs[t] = table(fb, t, kinds[t], reversed);
    blvl_fb_ref all = blvl_fb_create_ref_vector(fb, refs, TABLES);
    blvl_fb_table_start(fb);
    blvl_fb_add_ref(fb, 0, all);
    return blvl_fb_finish(fb, blvl_fb_table_end(fb), out, size, err);
}

int main(void) {
    blvl_error err;
    blvl_fb_builder *a = NULL, *b = NULL;
    CHECK_EQ_INT(blvl_fb_builder_new(&a, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_fb_builder_new(&b, NULL, &err), BLVL_OK);
    static unsigned kinds[TABLES];
    uint64_t rng = 2026;
    for (unsigned t = 0; t < TABLES; t++) { /* runs of one kind, and kinds in turn */
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)(rng >> 33);
        kinds[t] = t > 0 && r % 3 == 0 ? kinds[t - 1] : r % KINDS;
    }
    const uint8_t *fa = NULL, *fbuf = NULL;
    size_t na = 0, nb = 0;
    CHECK_EQ_INT(build(a, kinds, false, &fa, &na, &err), BLVL_OK);
    CHECK_EQ_INT(build(b, kinds, true, &fbuf, &nb, &err), BLVL_OK);
    CHECK(na == nb && memcmp(fa, fbuf, na) == 0); /* the order fields came in does not show */
    blvl_fb_vec v = blvl_fb_get_vec(blvl_fb_root(fa), 0);
    CHECK_EQ_INT(v.len, TABLES);
    const uint8_t *vt_of_kind[KINDS] = {NULL};
    for (unsigned t = 0; t < TABLES && t < v.len; t++) {
        const uint8_t *p = blvl_fb_vec_table(v, t);
        check_table(p, t, kinds[t]);
        if (!vt_of_kind[kinds[t]])
            vt_of_kind[kinds[t]] = vtable_of(p);
        CHECK(vtable_of(p) == vt_of_kind[kinds[t]]);
    }

    /* A kept layout names a vtable that a rewind drops; another vtable takes its index. */
    blvl_fb_builder_reset(a);
    blvl__fb_mark m = blvl__fb_builder_mark_now(a);
    table(a, 0, 2, false); /* kind 2: u8 and u16; its vtable is the builder's first */
    CHECK(blvl__fb_builder_rewind(a, &m));
    blvl_fb_ref r1 = table(a, 1, 21, false); /* now the first vtable is kind 21's */
    blvl_fb_ref r2 = table(a, 2, 2, false);
    blvl_fb_ref two[2] = {r1, r2};
    blvl_fb_ref all = blvl_fb_create_ref_vector(a, two, 2);
    blvl_fb_table_start(a);
    blvl_fb_add_ref(a, 0, all);
    CHECK_EQ_INT(blvl_fb_finish(a, blvl_fb_table_end(a), &fa, &na, &err), BLVL_OK);
    v = blvl_fb_get_vec(blvl_fb_root(fa), 0);
    CHECK_EQ_INT(v.len, 2);
    check_table(blvl_fb_vec_table(v, 0), 1, 21);
    check_table(blvl_fb_vec_table(v, 1), 2, 2);

    /* The same after a reset. */
    blvl_fb_builder_reset(a);
    table(a, 0, 2, false);
    blvl_fb_builder_reset(a);
    r1 = table(a, 1, 22, false);
    r2 = table(a, 2, 2, false);
    two[0] = r1, two[1] = r2;
    all = blvl_fb_create_ref_vector(a, two, 2);
    blvl_fb_table_start(a);
    blvl_fb_add_ref(a, 0, all);
    CHECK_EQ_INT(blvl_fb_finish(a, blvl_fb_table_end(a), &fa, &na, &err), BLVL_OK);
    v = blvl_fb_get_vec(blvl_fb_root(fa), 0);
    check_table(blvl_fb_vec_table(v, 0), 1, 22);
    check_table(blvl_fb_vec_table(v, 1), 2, 2);

    /* A field added twice is refused, below id 64 (a bit mask) and above. */
    static const unsigned ids[2][3] = {{2, 2, 0}, {70, 3, 70}};
    for (int k = 0; k < 2; k++) {
        blvl_fb_builder_reset(a);
        uint32_t x = 7;
        blvl_fb_table_start(a);
        for (int j = 0; j < 2 + k; j++)
            blvl_fb_add_raw(a, ids[k][j], &x, 4, 4);
        CHECK_EQ_INT(blvl_fb_builder_status(a, &err), BLVL_E_ARGUMENT);
        CHECK(strstr(err.message, "field added twice") != NULL);
    }

    blvl_fb_builder_free(a);
    blvl_fb_builder_free(b);
    return check_report("test_fb_layouts");
}
