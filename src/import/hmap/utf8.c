/* Strict UTF-8 (RFC 3629): no overlong forms, no surrogates (U+D800..U+DFFF), nothing past
 * U+10FFFF, no truncated sequence. */
#include "import/hmap/hmap_internal.h"

const char *blvl__import_hmap_utf8_error(const uint8_t *s, uint32_t n, uint32_t *at) {
    uint32_t i = 0;
    while (i < n) {
        uint8_t b = s[i];
        *at = i;
        if (b < 0x80) {
            i++;
            continue;
        }
        uint32_t len, cp, lo;
        if (b >= 0xC2 && b <= 0xDF)
            len = 2, cp = b & 0x1Fu, lo = 0x80;
        else if (b >= 0xE0 && b <= 0xEF)
            len = 3, cp = b & 0x0Fu, lo = 0x800;
        else if (b >= 0xF0 && b <= 0xF4)
            len = 4, cp = b & 0x07u, lo = 0x10000;
        else if (b == 0xC0 || b == 0xC1)
            return "an overlong encoding";
        else if (b >= 0x80 && b <= 0xBF)
            return "a continuation byte with no lead byte";
        else
            return "a lead byte of a code point past U+10FFFF";
        if (n - i < len)
            return "a sequence cut short by the string's end";
        for (uint32_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0u) != 0x80u)
                return "a sequence cut short by a byte that is no continuation";
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        if (cp < lo)
            return "an overlong encoding";
        if (cp >= 0xD800 && cp <= 0xDFFF)
            return "a UTF-16 surrogate";
        if (cp > 0x10FFFF)
            return "a code point past U+10FFFF";
        i += len;
    }
    return 0;
}
