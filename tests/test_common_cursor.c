/* The common byte cursor (src/common/cursor.h): every read at the end, past the end and with a
 * size that would wrap the offset is refused with rule field-size, reads nothing and leaves the
 * position; values are little-endian; refusals name the part, the path and the file offset. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "common/alloc.h"
#include "common/cursor.h"

static blvl__cursor at(const uint8_t *b, uint64_t pos, uint64_t end, blvl_error *err) {
    blvl__cursor c = {.base = b,
                      .pos = pos,
                      .end = end,
                      .at = 1000,
                      .part = "chunk TEST",
                      .unit = "chunk",
                      .err = err};
    return c;
}

static void test_values(void) {
    static const uint8_t b[] = {0x01, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xfe, 0xff,
                                0xff, 0xff, 0x00, 0x00, 0x80, 0x3f, 0xaa, 0xbb, 0xcc};
    blvl_error err = {0};
    blvl__cursor c = at(b, 0, sizeof b, &err);
    uint8_t u8 = 0;
    uint16_t u16 = 0;
    uint32_t u32 = 0;
    int32_t i32 = 0;
    float f = 0;
    const uint8_t *p = NULL;
    CHECK_EQ_INT(blvl__cursor_u8(&c, "a", &u8), BLVL_OK);
    CHECK_EQ_INT(u8, 1);
    CHECK_EQ_INT(blvl__cursor_u16(&c, "b", &u16), BLVL_OK);
    CHECK_EQ_INT(u16, 0x1234);
    CHECK_EQ_INT(blvl__cursor_u32(&c, "c", &u32), BLVL_OK);
    CHECK_EQ_INT(u32, 0x12345678);
    CHECK_EQ_INT(blvl__cursor_i32(&c, "d", &i32), BLVL_OK);
    CHECK_EQ_INT(i32, -2);
    CHECK_EQ_INT(blvl__cursor_f32(&c, "e", &f), BLVL_OK);
    CHECK(f == 1.0f);
    CHECK_EQ_INT(blvl__cursor_bytes(&c, "f", 2, &p), BLVL_OK);
    CHECK(p == b + 15);
    CHECK_EQ_INT(blvl__cursor_skip(&c, "g", 1), BLVL_OK);
    CHECK_EQ_INT(blvl__cursor_left(&c), 0);
    CHECK_EQ_INT(blvl__cursor_end(&c), BLVL_OK);
}

/* Each reader at `end` exactly, and one byte short of its size. */
static void test_at_and_past_end(void) {
    uint8_t b[8] = {0};
    for (uint64_t left = 0; left < 4; left++) {
        blvl_error err = {0};
        blvl__cursor c = at(b, 4 - left, 4, &err); /* `left` bytes before end; b has more */
        uint64_t pos = c.pos;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        int32_t i32;
        float f;
        const uint8_t *p = NULL;
        CHECK_EQ_INT(blvl__cursor_u8(&c, "x", &u8), left >= 1 ? BLVL_OK : BLVL_E_SOURCE);
        c.pos = pos;
        CHECK_EQ_INT(blvl__cursor_u16(&c, "x", &u16), left >= 2 ? BLVL_OK : BLVL_E_SOURCE);
        c.pos = pos;
        CHECK_EQ_INT(blvl__cursor_u32(&c, "x", &u32), left >= 4 ? BLVL_OK : BLVL_E_SOURCE);
        CHECK_EQ_INT(blvl__cursor_i32(&c, "x", &i32), BLVL_E_SOURCE);
        CHECK_EQ_INT(blvl__cursor_f32(&c, "x", &f), BLVL_E_SOURCE);
        CHECK_EQ_INT(c.pos, pos); /* a refusal leaves the position */
        CHECK_EQ_INT(blvl__cursor_bytes(&c, "x", left + 1, &p), BLVL_E_SOURCE);
        CHECK(p == NULL);
        CHECK_EQ_INT(blvl__cursor_skip(&c, "x", left + 1), BLVL_E_SOURCE);
        CHECK_EQ_INT(c.pos, pos);
        CHECK_EQ_INT(blvl__cursor_bytes(&c, "x", left, &p), BLVL_OK);
        CHECK_EQ_INT(c.pos, 4);
    }
}

/* Sizes that would wrap pos + n: refused, not read. */
static void test_wrap(void) {
    uint8_t b[16] = {0};
    blvl_error err = {0};
    blvl__cursor c = at(b, 8, 16, &err);
    const uint8_t *p = NULL;
    CHECK_EQ_INT(blvl__cursor_skip(&c, "x", UINT64_MAX), BLVL_E_SOURCE);
    CHECK_EQ_INT(blvl__cursor_skip(&c, "x", UINT64_MAX - 7), BLVL_E_SOURCE);
    CHECK_EQ_INT(blvl__cursor_bytes(&c, "x", (uint64_t)1 << 63, &p), BLVL_E_SOURCE);
    CHECK_EQ_INT(c.pos, 8);
    void *arr = (void *)&c;
    /* n * min wraps to 0 in 64 bits: refused all the same */
    CHECK_EQ_INT(blvl__cursor_array(&c, "n", 8, (uint64_t)1 << 32, (uint64_t)1 << 32, 1, &arr),
                 BLVL_E_SOURCE);
    CHECK(arr == NULL);
    CHECK(strstr(err.message, "count-size") != NULL);
    CHECK_EQ_INT(blvl__cursor_array(&c, "n", 8, 9, 1, 1, &arr), BLVL_E_SOURCE);
    CHECK_EQ_INT(blvl__cursor_array(&c, "n", 8, 8, 1, 4, &arr), BLVL_OK);
    CHECK(arr != NULL);
    blvl__dealloc(NULL, arr, 32);
    CHECK_EQ_INT(blvl__cursor_array(&c, "n", 8, 0, 1, 4, &arr), BLVL_OK);
    CHECK(arr == NULL);
}

static void test_messages(void) {
    uint8_t b[8] = {0};
    blvl_error err = {0};
    blvl__cursor c = at(b, 6, 8, &err);
    uint32_t v;
    blvl__cursor_enter(&c, "brush", 2);
    blvl__cursor_enter(&c, "bsp", BLVL__CURSOR_NO_INDEX);
    CHECK_EQ_INT(blvl__cursor_u32(&c, "root", &v), BLVL_E_SOURCE);
    CHECK(strstr(err.message, "brush[2].bsp.root") != NULL);
    CHECK(strstr(err.message, "offset 1006") != NULL); /* at + pos */
    CHECK(strstr(err.message, "needs 4 bytes, 2 are left in the chunk") != NULL);
    blvl__cursor_leave(&c);
    blvl__cursor_index(&c, 5);
    c.unit = "record";
    CHECK_EQ_INT(blvl__cursor_end(&c), BLVL_E_SOURCE);
    CHECK(strstr(err.message, "leftover") != NULL);
    CHECK(strstr(err.message, "2 bytes are left after the record's last field") != NULL);
    if (check_failed_)
        fprintf(stderr, "last message: %s\n", err.message);
}

int main(void) {
    test_values();
    test_at_and_past_end();
    test_wrap();
    test_messages();
    return check_report("test_common_cursor");
}
