/* Reading record fields through a cursor: every read checks the bytes left in its record first,
 * loads bytes one at a time (no unaligned access; floats through memcpy, bit for bit), and a
 * refusal names the record, the field's path and its file offset. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/riot/riot_internal.h"

static void path_text(const rt_path *p, const char *leaf, char *buf, size_t size) {
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->depth && n < size; i++) {
        int k = snprintf(buf + n, size - n, "%s%s[%u]", i ? "." : "", p->name[i], p->index[i]);
        if (k < 0)
            return;
        n += (size_t)k;
    }
    if (leaf && n < size)
        snprintf(buf + n, size - n, "%s%s", p->depth ? "." : "", leaf);
}

blvl_status blvl__rt_fail(const rt_cur *c, const char *leaf, uint64_t pos, const char *rule,
                          const char *fmt, ...) {
    char field[96], problem[160];
    path_text(&c->path, leaf, field, sizeof field);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    return blvl__fail_source(c->err, c->part, field, c->at + pos, rule, "%s", problem);
}

blvl_status blvl__rt_need(rt_cur *c, const char *leaf, uint64_t n) {
    if (rt_left(c) < n)
        return blvl__rt_fail(c, leaf, c->pos, "field-size",
                             "needs %llu bytes, %llu are left in the record", (unsigned long long)n,
                             (unsigned long long)rt_left(c));
    return BLVL_OK;
}

blvl_status blvl__rt_u8(rt_cur *c, const char *leaf, uint8_t *v) {
    blvl_status st = blvl__rt_need(c, leaf, 1);
    if (!st)
        *v = c->base[c->pos++];
    return st;
}

blvl_status blvl__rt_u16(rt_cur *c, const char *leaf, uint16_t *v) {
    blvl_status st = blvl__rt_need(c, leaf, 2);
    if (!st) {
        *v = blvl_le16(c->base + c->pos);
        c->pos += 2;
    }
    return st;
}

blvl_status blvl__rt_u32(rt_cur *c, const char *leaf, uint32_t *v) {
    blvl_status st = blvl__rt_need(c, leaf, 4);
    if (!st) {
        *v = blvl_le32(c->base + c->pos);
        c->pos += 4;
    }
    return st;
}

blvl_status blvl__rt_f32(rt_cur *c, const char *leaf, float *v) {
    uint32_t u;
    blvl_status st = blvl__rt_u32(c, leaf, &u);
    if (!st)
        memcpy(v, &u, sizeof *v);
    return st;
}

blvl_status blvl__rt_color(rt_cur *c, const char *leaf, blvl_riot_color *v) {
    blvl_status st = blvl__rt_need(c, leaf, 4);
    if (!st) {
        const uint8_t *p = c->base + c->pos;
        v->r = p[0], v->g = p[1], v->b = p[2], v->pad = p[3];
        c->pos += 4;
    }
    return st;
}

blvl_status blvl__rt_str(rt_cur *c, const char *leaf, blvl_riot_str *s) {
    uint64_t at = c->pos;
    uint16_t n;
    blvl_status st = blvl__rt_u16(c, leaf, &n);
    if (st)
        return st;
    if (n % 2)
        return blvl__rt_fail(c, leaf, at, "string-odd",
                             "a length of %u; lengths are even (an odd text has one zero after it)",
                             n);
    if (n > rt_left(c))
        return blvl__rt_fail(c, leaf, at, "field-size",
                             "a %u-byte string, %llu bytes are left in the record", n,
                             (unsigned long long)rt_left(c));
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

blvl_status blvl__rt_array(rt_cur *c, const char *leaf, uint64_t at, uint64_t n, uint64_t min,
                           size_t elem, void **arr) {
    *arr = NULL;
    /* n < 2^32 and min < 2^32: the product fits */
    uint64_t need = n * min;
    if (need > rt_left(c))
        return blvl__rt_fail(
            c, leaf, at, "count-size",
            "%llu records of at least %llu bytes need %llu, %llu are left in the record",
            (unsigned long long)n, (unsigned long long)min, (unsigned long long)need,
            (unsigned long long)rt_left(c));
    if (n) {
        *arr = blvl__calloc_n(c->a, (size_t)n, elem);
        if (!*arr)
            return blvl__nomem(c->err, "%llu records of %zu bytes", (unsigned long long)n, elem);
    }
    return BLVL_OK;
}

blvl_status blvl__rt_end(rt_cur *c) {
    if (c->pos != c->end) {
        c->path.depth = 0;
        return blvl__rt_fail(c, "end", c->pos, "leftover",
                             "%llu bytes are left after the record's last field",
                             (unsigned long long)rt_left(c));
    }
    return BLVL_OK;
}

void blvl__rt_str_free(blvl_riot_str *s, const blvl_allocator *a) {
    blvl__dealloc(a, s->text, (size_t)s->size + 1);
    blvl__dealloc(a, s->bytes, s->size);
    s->text = NULL;
    s->bytes = NULL;
}
