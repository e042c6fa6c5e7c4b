/* The JSON text of a glTF document, built in memory. Numbers are written with 9 significant
 * digits, or 17 when needed to read back the same double, integers exactly; a NaN or infinity has
 * no JSON spelling, so it marks the text unusable (the callers check their numbers first and name
 * the field). Strings from the level are arbitrary bytes: the glTF JSON must be UTF-8, so malformed
 * sequences are replaced, never copied. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_string.h"
#include "common/array.h"
#include "export/export_internal.h"

void blvl__export_json_init(json_text *j, const blvl_allocator *al) {
    memset(j, 0, sizeof *j);
    j->al = al;
}

void blvl__export_json_free(json_text *j) {
    if (j->p)
        blvl__dealloc(j->al, j->p, j->cap);
    j->p = NULL;
    j->len = j->cap = 0;
}

static int grow(json_text *j, size_t n) {
    if (j->nomem)
        return 0;
    if (j->len + n + 1 <= j->cap)
        return 1;
    void *p = j->p;
    if (n >= SIZE_MAX - j->len ||
        !blvl__array_grow(j->al, &p, &j->cap, j->len, j->len + n + 1, 1, 256)) {
        j->nomem = 1;
        return 0;
    }
    j->p = p;
    return 1;
}

void blvl__export_json_raw(json_text *j, const char *s, size_t n) {
    if (!grow(j, n))
        return;
    memcpy(j->p + j->len, s, n);
    j->len += n;
    j->p[j->len] = 0;
}

static void lit(json_text *j, const char *s) {
    blvl__export_json_raw(j, s, strlen(s));
}

/* The comma before a value and its key, if any. */
static void lead(json_text *j, const char *key) {
    if (j->depth > 0 && j->depth <= XJ_DEPTH) {
        if (!j->first[j->depth - 1])
            lit(j, ",");
        j->first[j->depth - 1] = 0;
    }
    if (key) {
        lit(j, "\"");
        lit(j, key);
        lit(j, "\":");
    }
}

void blvl__export_json_item(json_text *j) {
    if (j->items++)
        lit(j, ",");
}

static void open(json_text *j, const char *key, const char *c) {
    lead(j, key);
    lit(j, c);
    if (j->depth < XJ_DEPTH) {
        j->first[j->depth] = 1;
        j->closer[j->depth] = c[0] == '{' ? '}' : ']';
    }
    j->depth++;
}

void blvl__export_json_obj(json_text *j, const char *key) {
    open(j, key, "{");
}

void blvl__export_json_arr(json_text *j, const char *key) {
    open(j, key, "[");
}

void blvl__export_json_end(json_text *j) {
    char c = '}';
    if (j->depth > 0) {
        j->depth--;
        if (j->depth < XJ_DEPTH)
            c = j->closer[j->depth];
    }
    blvl__export_json_raw(j, &c, 1);
}

void blvl__export_json_num(json_text *j, const char *key, double v) {
    if (!isfinite(v)) {
        j->nonfinite = 1;
        v = 0;
    }
    char b[40];
    /* Integers exactly (counts, indices given as doubles); else 9 significant digits. */
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(b, sizeof b, "%.0f", v);
    else {
        /* Nine digits when they read back as the same double (a float's value always does
         * with 17): accessor bounds must equal the buffer's floats exactly. */
        snprintf(b, sizeof b, "%.9g", v);
        if (strtod(b, NULL) != v)
            snprintf(b, sizeof b, "%.17g", v);
    }
    if (strcmp(b, "-0") == 0)
        strcpy(b, "0");
    lead(j, key);
    lit(j, b);
}

void blvl__export_json_u64(json_text *j, const char *key, uint64_t v) {
    char b[24];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    lead(j, key);
    lit(j, b);
}

void blvl__export_json_bool(json_text *j, const char *key, int v) {
    lead(j, key);
    lit(j, v ? "true" : "false");
}

static void put_piece(void *j, const char *s, size_t n) {
    blvl__export_json_raw(j, s, n);
}

void blvl__export_json_strn(json_text *j, const char *key, const char *s, size_t n) {
    lead(j, key);
    blvl__json_string(s, n, put_piece, j);
}

void blvl__export_json_str(json_text *j, const char *key, const char *s) {
    blvl__export_json_strn(j, key, s ? s : "", s ? strlen(s) : 0);
}

void blvl__export_json_vec(json_text *j, const char *key, const double *v, int n) {
    blvl__export_json_arr(j, key);
    for (int i = 0; i < n; i++)
        blvl__export_json_num(j, NULL, v[i]);
    blvl__export_json_end(j);
}
