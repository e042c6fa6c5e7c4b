/* The byte cursor (cursor.h): bounds first, then little-endian loads. */
#include "common/cursor.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"

void blvl__cursor_path_text(const blvl__cursor_path *p, const char *leaf, char *buf, size_t size) {
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->depth && n < size; i++) {
        int k =
            p->index[i] == BLVL__CURSOR_NO_INDEX
                ? snprintf(buf + n, size - n, "%s%s", i ? "." : "", p->name[i])
                : snprintf(buf + n, size - n, "%s%s[%u]", i ? "." : "", p->name[i], p->index[i]);
        if (k < 0)
            return;
        n += (size_t)k;
    }
    if (leaf && n < size)
        snprintf(buf + n, size - n, "%s%s", p->depth ? "." : "", leaf);
}

blvl_status blvl__cursor_fail(const blvl__cursor *c, const char *leaf, uint64_t pos,
                              const char *rule, const char *fmt, ...) {
    char field[96], problem[160];
    blvl__cursor_path_text(&c->path, leaf, field, sizeof field);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    return blvl__fail_source(c->err, c->part, field, c->at + pos, rule, "%s", problem);
}

blvl_status blvl__cursor_need(const blvl__cursor *c, const char *leaf, uint64_t n) {
    /* end - pos cannot wrap (pos <= end), and n is never added to pos before this check */
    if (n > blvl__cursor_left(c))
        return blvl__cursor_fail(c, leaf, c->pos, "field-size",
                                 "needs %llu bytes, %llu are left in the %s", (unsigned long long)n,
                                 (unsigned long long)blvl__cursor_left(c), c->unit);
    return BLVL_OK;
}

float blvl__le_f32(const uint8_t *p) {
    uint32_t u = blvl_le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

blvl_status blvl__cursor_u8(blvl__cursor *c, const char *leaf, uint8_t *v) {
    blvl_status st = blvl__cursor_need(c, leaf, 1);
    if (!st)
        *v = c->base[c->pos++];
    return st;
}

blvl_status blvl__cursor_u16(blvl__cursor *c, const char *leaf, uint16_t *v) {
    blvl_status st = blvl__cursor_need(c, leaf, 2);
    if (!st) {
        *v = blvl_le16(c->base + c->pos);
        c->pos += 2;
    }
    return st;
}

blvl_status blvl__cursor_u32(blvl__cursor *c, const char *leaf, uint32_t *v) {
    blvl_status st = blvl__cursor_need(c, leaf, 4);
    if (!st) {
        *v = blvl_le32(c->base + c->pos);
        c->pos += 4;
    }
    return st;
}

blvl_status blvl__cursor_i32(blvl__cursor *c, const char *leaf, int32_t *v) {
    uint32_t u;
    blvl_status st = blvl__cursor_u32(c, leaf, &u);
    if (!st)
        memcpy(v, &u, sizeof *v); /* two's complement, without an out-of-range conversion */
    return st;
}

blvl_status blvl__cursor_f32(blvl__cursor *c, const char *leaf, float *v) {
    uint32_t u;
    blvl_status st = blvl__cursor_u32(c, leaf, &u);
    if (!st)
        memcpy(v, &u, sizeof *v);
    return st;
}

blvl_status blvl__cursor_bytes(blvl__cursor *c, const char *leaf, uint64_t n, const uint8_t **p) {
    blvl_status st = blvl__cursor_need(c, leaf, n);
    if (!st) {
        *p = c->base + c->pos;
        c->pos += n;
    }
    return st;
}

blvl_status blvl__cursor_skip(blvl__cursor *c, const char *leaf, uint64_t n) {
    blvl_status st = blvl__cursor_need(c, leaf, n);
    if (!st)
        c->pos += n;
    return st;
}

blvl_status blvl__cursor_array(blvl__cursor *c, const char *leaf, uint64_t at, uint64_t n,
                               uint64_t min, size_t elem, void **arr) {
    *arr = NULL;
    /* n * min without wrapping: refused when n > left / min */
    uint64_t left = blvl__cursor_left(c);
    if (min && n > left / min)
        return blvl__cursor_fail(
            c, leaf, at, "count-size",
            "%llu records of at least %llu bytes need %llu, %llu are left in the %s",
            (unsigned long long)n, (unsigned long long)min,
            (unsigned long long)(n <= UINT64_MAX / min ? n * min : UINT64_MAX),
            (unsigned long long)left, c->unit);
    if (n) {
        if (n > SIZE_MAX || !(*arr = blvl__calloc_n(c->a, (size_t)n, elem)))
            return blvl__nomem(c->err, "%llu records of %zu bytes", (unsigned long long)n, elem);
    }
    return BLVL_OK;
}

blvl_status blvl__cursor_end(blvl__cursor *c) {
    if (c->pos != c->end) {
        c->path.depth = 0;
        return blvl__cursor_fail(c, "end", c->pos, "leftover",
                                 "%llu bytes are left after the %s's last field",
                                 (unsigned long long)blvl__cursor_left(c), c->unit);
    }
    return BLVL_OK;
}
