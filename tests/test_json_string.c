/* The one JSON string escaper (src/json/json_string.c): well-formed UTF-8 kept as it is,
 * every ill-formed form replaced by \ufffd (one per maximal ill-formed subpart, as Python's
 * errors="replace"), controls and 0x7f escaped with the short forms where JSON has them, quote
 * and backslash escaped; pieces never cut a UTF-8 sequence. */
#include <string.h>

#include "check.h"
#include "json/json_string.h"

typedef struct buf {
    char b[512];
    size_t n;
    int cut; /* a piece that is a run ended inside a UTF-8 sequence */
} buf;

static void put(void *user, const char *s, size_t n) {
    buf *o = user;
    if (n && ((unsigned char)s[n - 1] & 0xC0) == 0xC0)
        o->cut = 1; /* a lead byte last: its sequence continues in the next piece */
    if (o->n + n < sizeof o->b) {
        memcpy(o->b + o->n, s, n);
        o->n += n;
    }
    o->b[o->n] = 0;
}

/* `in` (n bytes) escapes to exactly `want`. */
static int is(const char *in, size_t n, const char *want) {
    buf o = {{0}, 0, 0};
    blvl__json_string(in, n, put, &o);
    if (o.cut || strcmp(o.b, want) != 0) {
        fprintf(stderr, "  got %s, want %s\n", o.b, want);
        return 0;
    }
    return 1;
}
#define IS(lit, want) is(lit, sizeof lit - 1, want)

int main(void) {
    /* kept as it is */
    CHECK(IS("", "\"\""));
    CHECK(IS("plain ASCII ~", "\"plain ASCII ~\""));
    CHECK(IS("caf\xc3\xa9", "\"caf\xc3\xa9\""));                           /* é, 2 bytes */
    CHECK(IS("\xe4\xb8\xad\xe6\x96\x87", "\"\xe4\xb8\xad\xe6\x96\x87\"")); /* 中文, 3 bytes */
    CHECK(IS("\xf0\x9f\x98\x80!", "\"\xf0\x9f\x98\x80!\""));               /* 😀, 4 bytes */
    CHECK(IS("\xc2\x80\xdf\xbf", "\"\xc2\x80\xdf\xbf\""));                 /* U+0080, U+07FF */
    CHECK(IS("\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf",           /* U+0800, U+D7FF, */
             "\"\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\""));     /* U+E000, U+FFFF */
    CHECK(IS("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
             "\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"")); /* U+10000, U+10FFFF */
    CHECK(IS("\xef\xbf\xbd", "\"\xef\xbf\xbd\""));     /* U+FFFD itself is kept, not escaped */

    /* escaped */
    CHECK(IS("a\"b\\c/", "\"a\\\"b\\\\c/\""));
    CHECK(IS("\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\""));
    CHECK(IS("\x01\x1f\x7f\x0b", "\"\\u0001\\u001f\\u007f\\u000b\""));
    CHECK(IS("a\0b", "\"a\\u0000b\""));

    /* ill-formed: replaced */
    CHECK(IS("\x80", "\"\\ufffd\""));                       /* a lone continuation byte */
    CHECK(IS("a\xbf\x80z", "\"a\\ufffd\\ufffdz\""));        /* two of them */
    CHECK(IS("\xc0\xaf", "\"\\ufffd\\ufffd\""));            /* overlong '/', 2 bytes */
    CHECK(IS("\xc1\xbf", "\"\\ufffd\\ufffd\""));            /* overlong, 2 bytes */
    CHECK(IS("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"")); /* overlong, 3 bytes */
    CHECK(IS("\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"")); /* overlong, 4 bytes */
    CHECK(IS("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""));            /* surrogate U+D800 */
    CHECK(IS("\xed\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\""));            /* surrogate U+DFFF */
    CHECK(IS("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"")); /* U+110000 */
    CHECK(IS("\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"")); /* lead 0xF5 */
    CHECK(IS("\xff\xfe", "\"\\ufffd\\ufffd\""));
    /* cut short: the whole valid prefix is one replacement */
    CHECK(IS("\xc3", "\"\\ufffd\""));
    CHECK(IS("\xe4\xb8", "\"\\ufffd\""));
    CHECK(IS("\xf0\x9f\x98", "\"\\ufffd\""));
    CHECK(IS("\xe4\xb8z", "\"\\ufffdz\""));
    CHECK(IS("\xf0\x9f\x98\xc3\xa9", "\"\\ufffd\xc3\xa9\"")); /* a new sequence ends it */
    CHECK(IS("\xe4\xb8\"", "\"\\ufffd\\\"\""));
    CHECK(IS("\xc3\xa9\xc3", "\"\xc3\xa9\\ufffd\""));
    return check_report("test_json_string");
}
