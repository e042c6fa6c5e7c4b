/* The text convention of the Riot bake's entity values (docs/IMPORT-RIOT.md, "Entities"):
 * decimal integers, floats in the shortest form that reads back as the same float, lists
 * separated by one space, strings escaped, raw bytes as lowercase hex in file order. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_internal.h"
#include "common/alloc.h"
#include "common/array.h"

void blvl__import_riot_bake_text_reset(rb_text *t) {
    t->n = 0;
    if (t->p)
        t->p[0] = 0;
}

void blvl__import_riot_bake_text_free(rb_text *t) {
    if (t->p)
        blvl__dealloc(t->al, t->p, t->cap);
    t->p = NULL;
    t->n = t->cap = 0;
}

static bool reserve(rb_text *t, size_t more) {
    if (t->bad)
        return false;
    if (t->n + more + 1 <= t->cap)
        return true;
    void *p = t->p; /* the text and its NUL are kept; a new one starts as "" (zeroed) */
    if (more >= SIZE_MAX - t->n ||
        !blvl__array_grow(t->al, &p, &t->cap, t->p ? t->n + 1 : 0, t->n + more + 1, 1, 64)) {
        t->bad = true;
        return false;
    }
    t->p = p;
    return true;
}

void blvl__import_riot_bake_text_add(rb_text *t, const char *fmt, ...) {
    char small[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(t, (size_t)n))
        return;
    if ((size_t)n < sizeof small)
        memcpy(t->p + t->n, small, (size_t)n + 1);
    else {
        va_start(ap, fmt);
        vsnprintf(t->p + t->n, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    t->n += (size_t)n;
}

void blvl__import_riot_bake_text_escaped(rb_text *t, const char *s) {
    static const char hexd[] = "0123456789abcdef";
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (!reserve(t, 4))
            return;
        if (ch == '\\') {
            t->p[t->n++] = '\\';
            t->p[t->n++] = '\\';
        } else if (ch >= 0x20 && ch <= 0x7E)
            t->p[t->n++] = (char)ch;
        else {
            t->p[t->n++] = '\\';
            t->p[t->n++] = 'x';
            t->p[t->n++] = hexd[ch >> 4];
            t->p[t->n++] = hexd[ch & 15];
        }
        t->p[t->n] = 0;
    }
}

void blvl__import_riot_bake_text_hex(rb_text *t, const uint8_t *bytes, size_t n) {
    static const char hexd[] = "0123456789abcdef";
    if (n > (SIZE_MAX - 1) / 2 || !reserve(t, 2 * n))
        return;
    for (size_t i = 0; i < n; i++) {
        t->p[t->n++] = hexd[bytes[i] >> 4];
        t->p[t->n++] = hexd[bytes[i] & 15];
    }
    t->p[t->n] = 0;
}

void blvl__import_riot_bake_text_float(rb_text *t, float v) {
    char buf[48];
    if (!isfinite(v)) { /* an infinity or NaN (payload included) as its bits */
        uint32_t bits;
        memcpy(&bits, &v, 4);
        blvl__import_riot_bake_text_add(t, "0x%08x", (unsigned)bits);
        return;
    }
    if (v == 0.0f)
        v = 0.0f;
    for (int prec = 6; prec <= 9; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, (double)v);
        if (strtof(buf, NULL) == v)
            break;
    }
    blvl__import_riot_bake_text_add(t, "%s", buf);
}

const char *blvl__import_riot_bake_text_str(const rb_text *t) {
    return t->p ? t->p : "";
}
