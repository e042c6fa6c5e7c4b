/* The JSON string escaper (json/json_string.h). */
#include "json/json_string.h"

#include <stdint.h>

/* The length of the well-formed UTF-8 sequence at s (n bytes left, s[0] >= 0x80), or 0 with
 * *bad set to the length of its maximal ill-formed subpart (at least 1), following the
 * well-formed byte sequences of the Unicode Standard, table 3-7. */
static size_t utf8_seq(const uint8_t *s, size_t n, size_t *bad) {
    uint8_t c = s[0], lo = 0x80, hi = 0xBF;
    size_t len;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* below: overlong */
        else if (c == 0xED)
            hi = 0x9F; /* above: a surrogate */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90; /* below: overlong */
        else if (c == 0xF4)
            hi = 0x8F; /* above: past U+10FFFF */
    } else {
        *bad = 1; /* a continuation byte, 0xC0/0xC1 (always overlong), 0xF5..0xFF */
        return 0;
    }
    for (size_t k = 1; k < len; k++) {
        if (k == n || s[k] < lo || s[k] > hi) {
            *bad = k;
            return 0;
        }
        lo = 0x80, hi = 0xBF;
    }
    return len;
}

void blvl__json_string(const char *s, size_t n, blvl__json_put *put, void *user) {
    static const char hex[] = "0123456789abcdef";
    const uint8_t *u = (const uint8_t *)s;
    size_t i = 0, run = 0; /* u[run..i) is kept as it is, not yet written */
    put(user, "\"", 1);
    while (i < n) {
        uint8_t c = u[i];
        size_t len = 1, bad = 0;
        if (c >= 0x80)
            len = utf8_seq(u + i, n - i, &bad);
        else if (c < 0x20 || c == 0x7F || c == '"' || c == '\\')
            len = 0, bad = 1;
        if (len) {
            i += len;
            continue;
        }
        if (i > run)
            put(user, s + run, i - run);
        char e[6] = {'\\', 0, 0, 0, 0, 0};
        size_t el = 2;
        switch (c) {
        case '"':
        case '\\':
            e[1] = (char)c;
            break;
        case '\n':
            e[1] = 'n';
            break;
        case '\t':
            e[1] = 't';
            break;
        case '\r':
            e[1] = 'r';
            break;
        case '\b':
            e[1] = 'b';
            break;
        case '\f':
            e[1] = 'f';
            break;
        default:
            e[1] = 'u', el = 6;
            if (c >= 0x80)
                e[2] = 'f', e[3] = 'f', e[4] = 'f', e[5] = 'd'; /* U+FFFD */
            else
                e[2] = '0', e[3] = '0', e[4] = hex[c >> 4], e[5] = hex[c & 15];
        }
        put(user, e, el);
        i += bad;
        run = i;
    }
    if (i > run)
        put(user, s + run, i - run);
    put(user, "\"", 1);
}
