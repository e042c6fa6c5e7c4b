/* The Riot record fields read through the common cursor (common/cursor.h): colours and
 * length-prefixed strings, each bounds-checked before it is read. */
#include <stdio.h>
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/riot/riot_internal.h"

blvl_status blvl__import_riot_color(blvl__cursor *c, const char *leaf, blvl_riot_color *v) {
    blvl_status st = blvl__cursor_need(c, leaf, 4);
    if (!st) {
        const uint8_t *p = c->base + c->pos;
        v->r = p[0], v->g = p[1], v->b = p[2], v->pad = p[3];
        c->pos += 4;
    }
    return st;
}

blvl_status blvl__import_riot_str(blvl__cursor *c, const char *leaf, blvl_riot_str *s) {
    uint64_t at = c->pos;
    uint16_t n;
    blvl_status st = blvl__cursor_u16(c, leaf, &n);
    if (st)
        return st;
    if (n % 2)
        return blvl__cursor_fail(
            c, leaf, at, "string-odd",
            "a length of %u; lengths are even (an odd text has one zero after it)", n);
    if (n > blvl__cursor_left(c))
        return blvl__cursor_fail(c, leaf, at, "field-size",
                                 "a %u-byte string, %llu bytes are left in the record", n,
                                 (unsigned long long)blvl__cursor_left(c));
    const uint8_t *b = c->base + c->pos;
    s->text = blvl__alloc(c->a, (size_t)n + 1);
    if (!s->text)
        return blvl__nomem(c->err, "a %u-byte string", n);
    if (n) {
        s->bytes = blvl__alloc(c->a, n);
        if (!s->bytes) {
            blvl__dealloc(c->a, s->text, (size_t)n + 1);
            s->text = NULL;
            return blvl__nomem(c->err, "a %u-byte string", n);
        }
        memcpy(s->bytes, b, n);
    }
    s->size = n;
    /* the text is the bytes without the one padding zero an odd text carries */
    uint16_t t = n && b[n - 1] == 0 ? (uint16_t)(n - 1) : n;
    memcpy(s->text, b, t);
    s->text[t] = '\0';
    c->pos += n;
    return BLVL_OK;
}

void blvl__import_riot_str_free(blvl_riot_str *s, const blvl_allocator *a) {
    blvl__dealloc(a, s->text, (size_t)s->size + 1);
    blvl__dealloc(a, s->bytes, s->size);
    s->text = NULL;
    s->bytes = NULL;
}
