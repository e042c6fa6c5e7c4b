/* A builder's tail vector (fb_builder/reserve.h): the buffer's first vector kept out of the builder
 * and appended by the caller. The bytes must be exactly those of the same buffer built whole, for
 * every alignment the rest of the buffer asks for, and misuse must be refused by name. */
#include <stdlib.h>
#include <string.h>

#include "blvl/fb_builder.h"
#include "check.h"
#include "fb_builder/reserve.h"

enum { N = 777 }; /* elements of 12 bytes: 9,324 bytes, 4-aligned, not 8-aligned */

/* Everything a table might hold after the first vector: a string (odd length), an 8-byte field
 * (padding decided by the distance from the end, tail included), a vector of 2-byte values. */
static blvl_fb_ref rest(blvl_fb_builder *fb, blvl_fb_ref first, unsigned odd) {
    static const char name[] = "tail test string";
    blvl_fb_ref s = blvl_fb_create_string(fb, name, odd % sizeof name);
    uint16_t shorts[5] = {1, 2, 3, 4, (uint16_t)odd};
    blvl_fb_ref v = blvl_fb_create_vector(fb, shorts, 1 + odd % 5, 2, 2);
    uint64_t wide = 0x0102030405060708ull + odd;
    blvl_fb_table_start(fb);
    blvl_fb_add_ref(fb, 0, first);
    blvl_fb_add_ref(fb, 1, s);
    blvl_fb_add_raw(fb, 2, &wide, 8, 8);
    blvl_fb_add_ref(fb, 3, v);
    return blvl_fb_table_end(fb);
}

int main(void) {
    blvl_error err;
    blvl_fb_builder *whole = NULL, *split = NULL;
    CHECK_EQ_INT(blvl_fb_builder_new(&whole, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_fb_builder_new(&split, NULL, &err), BLVL_OK);
    uint8_t *elems = malloc((size_t)N * 12);
    for (size_t i = 0; i < (size_t)N * 12; i++)
        elems[i] = (uint8_t)(i * 7 + 3);
    for (unsigned odd = 0; odd < 24; odd++) {
        size_t n = N - odd; /* 12-byte elements: the tail is 4-aligned whatever n is */
        blvl_fb_builder_reset(whole);
        blvl_fb_ref first = blvl_fb_create_vector(whole, elems, n, 12, 4);
        const uint8_t *a = NULL, *b = NULL;
        size_t an = 0, bn = 0;
        CHECK_EQ_INT(blvl_fb_finish(whole, rest(whole, first, odd), &a, &an, &err), BLVL_OK);

        blvl_fb_builder_reset(split);
        CHECK(blvl__fb_builder_tail_start(split, n, 12, 4));
        blvl_fb_ref tfirst = blvl__fb_builder_vector_end(split, n);
        CHECK_EQ_INT(blvl_fb_finish(split, rest(split, tfirst, odd), &b, &bn, &err), BLVL_OK);
        CHECK_EQ_INT(blvl__fb_builder_tail_size(split), n * 12);
        CHECK_EQ_INT(bn + n * 12, an);
        if (bn + n * 12 == an) {
            CHECK_MEM(b, a, bn);              /* the builder's part */
            CHECK_MEM(a + bn, elems, n * 12); /* what the caller appends */
        }
    }
    /* misuse: not first, a size that would need padding after it; reset clears the tail */
    blvl_fb_builder_reset(split);
    blvl_fb_create_string(split, "x", 1);
    CHECK(!blvl__fb_builder_tail_start(split, 4, 12, 4));
    CHECK_EQ_INT(blvl_fb_builder_status(split, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "first thing built") != NULL);
    blvl_fb_builder_reset(split);
    CHECK(!blvl__fb_builder_tail_start(split, 3, 2, 4));
    CHECK(strstr(blvl_fb_builder_status(split, &err) ? err.message : "", "multiple") != NULL);
    blvl_fb_builder_reset(split);
    CHECK_EQ_INT(blvl__fb_builder_tail_size(split), 0);
    blvl_fb_builder_free(whole);
    blvl_fb_builder_free(split);
    free(elems);
    return check_report("test_fb_tail");
}
