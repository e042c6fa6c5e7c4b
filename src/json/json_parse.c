/* JSON to FlatBuffer: the text is parsed into a small DOM first (json_dom.c), then built with the
 * builder bottom-up, children in schema field order, so the bytes do not depend on the JSON's key
 * order. Accepts what blvl_fb_to_json and flatc --strict-json print, plus nan/inf spellings (bare
 * or as strings). Every refusal names where: the line and column of a syntax error, the path of a
 * value the schema refuses ("Sim.colliders[7].flags: integer out of range ..."). */
#include "blvl/fb.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/alloc.h"
#include "common/error.h"
#include "json/json_dom.h"

/* The build's view of the parsed text (json_dom.h) and where in it the build is. */
typedef struct jp {
    const blvl_allocator *a;
    const char *s; /* the text: J_NUM nodes point into it */
    const json_node *nodes;
    const char *arena;
    blvl_error *err;
    blvl_status st;
    blvl_fb_builder *b;
    char path[256]; /* of the value being built; cut short (with "...") when deeper */
    size_t plen;
} jp;

/* Refuse a value the schema does not allow: "json: <path>: <what>". */
static blvl_status bfail(jp *p, const char *fmt, ...) BLVL_PRINTF(2, 3);
static blvl_status bfail(jp *p, const char *fmt, ...) {
    if (!p->st) {
        char what[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        p->st = blvl__fail(p->err, BLVL_E_FLATBUFFER, "json: %s: %s", p->path, what);
    }
    return p->st;
}

/* Append `sep` then `text` to the path; returns the length to go back to. */
static size_t path_add(jp *p, const char *sep, const char *text) {
    size_t old = p->plen, room = sizeof p->path - p->plen;
    int w = snprintf(p->path + p->plen, room, "%s%s", sep, text);
    if (w < 0 || (size_t)w >= room) {
        memcpy(p->path + sizeof p->path - 4, "...", 4);
        p->plen = sizeof p->path - 1;
    } else {
        p->plen += (size_t)w;
    }
    return old;
}
/* Enter field or member `name` / element `index`; path_back(p, the result) leaves it. */
static size_t path_name(jp *p, const char *name) {
    return path_add(p, p->plen ? "." : "", name);
}
static size_t path_index(jp *p, size_t index) {
    char b[32];
    snprintf(b, sizeof b, "[%zu]", index);
    return path_add(p, "", b);
}
static void path_back(jp *p, size_t old) {
    p->plen = old;
    p->path[old] = '\0';
}

/* ---- building ------------------------------------------------------------------------------- */

static const json_node *member(const jp *p, const json_node *obj, const char *name,
                               const char *suffix) {
    size_t nl = strlen(name), sl = strlen(suffix);
    for (uint32_t c = obj->child; c; c = p->nodes[c].next) {
        const json_node *m = &p->nodes[c];
        if (m->key_len == nl + sl && memcmp(p->arena + m->key, name, nl) == 0 &&
            memcmp(p->arena + m->key + nl, suffix, sl) == 0)
            return m->type == J_NULL ? NULL : m;
    }
    return NULL;
}

static int is_signed_kind(uint8_t k) {
    return k == BLVL_FB_I8 || k == BLVL_FB_I16 || k == BLVL_FB_I32 || k == BLVL_FB_I64;
}

/* The schema's name of a scalar kind, for messages. */
static const char *kind_name(uint8_t k) {
    static const char *const names[] = {
        [BLVL_FB_BOOL] = "bool", [BLVL_FB_I8] = "byte",    [BLVL_FB_U8] = "ubyte",
        [BLVL_FB_I16] = "short", [BLVL_FB_U16] = "ushort", [BLVL_FB_I32] = "int",
        [BLVL_FB_U32] = "uint",  [BLVL_FB_I64] = "long",   [BLVL_FB_U64] = "ulong",
        [BLVL_FB_F32] = "float", [BLVL_FB_F64] = "double"};
    return k < sizeof names / sizeof names[0] && names[k] ? names[k] : "scalar";
}

/* NaN or an infinity spelt the way flatc reads it (bare or as a JSON string); 0 if not. */
static int non_finite(const char *t, double *d) {
    int neg = t[0] == '-';
    t += neg || t[0] == '+';
    if (strcmp(t, "nan") == 0 || strcmp(t, "NaN") == 0)
        *d = NAN;
    else if (strcmp(t, "inf") == 0 || strcmp(t, "Infinity") == 0 || strcmp(t, "infinity") == 0)
        *d = neg ? -HUGE_VAL : HUGE_VAL;
    else
        return 0;
    return 1;
}

/* A scalar value into `out` (little-endian, blvl_fb_scalar_size bytes). Refusals name p->path. */
static int scalar(jp *p, uint8_t kind, const blvl_fb_enum *e, const json_node *v, uint8_t *out) {
    size_t size = blvl_fb_scalar_size((blvl_fb_kind)kind);
    uint64_t bits = 0;
    if (kind == BLVL_FB_F32 || kind == BLVL_FB_F64) {
        double d;
        if (v->type == J_STR) {
            /* how blvl_fb_to_json prints NaN and the infinities */
            if (v->len > 16 || !non_finite(p->arena + v->str, &d))
                return bfail(p,
                             "expected a number (a string only as \"nan\", \"inf\" or \"-inf\")"),
                       0;
        } else if (v->type != J_NUM) {
            return bfail(p, "expected a number"), 0;
        } else {
            char buf[48];
            memcpy(buf, p->s + v->str, v->len);
            buf[v->len] = '\0';
            if (!non_finite(buf, &d)) {
                char *end;
                d = strtod(buf, &end);
                if (*end || end == buf)
                    return bfail(p, "bad number '%s'", buf), 0;
                /* a finite number past the type's range is an error, not an infinity (underflow
                 * to zero or a subnormal is rounding, and accepted) */
                if (isinf(d) || (kind == BLVL_FB_F32 && fabs(d) >= 0x1.ffffffp+127))
                    return bfail(p, "number %s out of range for a %s", buf, kind_name(kind)), 0;
            }
        }
        if (kind == BLVL_FB_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            bits = u;
        } else {
            memcpy(&bits, &d, 8);
        }
    } else if (v->type == J_BOOL) {
        bits = v->truth;
    } else if (v->type == J_STR) {
        /* enum names; bit_flags may list several separated by spaces */
        if (!e)
            return bfail(p, "a string where a number belongs (type %s)", kind_name(kind)), 0;
        const char *s = p->arena + v->str;
        size_t i = 0;
        int any = 0;
        while (i < v->len) {
            while (i < v->len && s[i] == ' ')
                i++;
            size_t j = i;
            while (j < v->len && s[j] != ' ')
                j++;
            if (j == i)
                break;
            uint32_t k;
            for (k = 0; k < e->count; k++)
                if (strlen(e->values[k].name) == j - i &&
                    memcmp(e->values[k].name, s + i, j - i) == 0)
                    break;
            if (k == e->count)
                return bfail(p, "unknown value '%.*s' of enum %s", (int)(j - i < 64 ? j - i : 64),
                             s + i, e->name),
                       0;
            if (any && !e->bit_flags)
                return bfail(p, "several values of enum %s, which is not bit_flags", e->name), 0;
            bits |= (uint64_t)e->values[k].value;
            any = 1;
            i = j;
        }
        if (!any)
            return bfail(p, "empty value of enum %s", e->name), 0;
    } else if (v->type == J_NUM) {
        char buf[48];
        memcpy(buf, p->s + v->str, v->len);
        buf[v->len] = '\0';
        char *end;
        errno = 0;
        int neg = buf[0] == '-';
        const char *digits = buf + (neg || buf[0] == '+');
        int base = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10;
        if (digits[0] == '-' || digits[0] == '+')
            return bfail(p, "bad integer '%s'", buf), 0;
        unsigned long long u = strtoull(digits, &end, base);
        if (*end || end == digits)
            return bfail(p, "bad integer '%s' for a %s", buf, kind_name(kind)), 0;
        unsigned nbits = (unsigned)size * 8;
        int out_of_range = errno != 0;
        if (kind == BLVL_FB_BOOL)
            out_of_range |= neg || u > 1;
        else if (is_signed_kind(kind)) {
            unsigned long long lim = 1ull << (nbits - 1);
            out_of_range |= neg ? u > lim : u >= lim;
        } else
            out_of_range |= neg || (nbits < 64 && (u >> nbits));
        if (out_of_range)
            return bfail(p, "integer out of range: %s does not fit a %s", buf, kind_name(kind)), 0;
        bits = neg ? (uint64_t)0 - (uint64_t)u : (uint64_t)u;
    } else {
        return bfail(p, "expected a %s", kind_name(kind)), 0;
    }
    for (size_t i = 0; i < size; i++)
        out[i] = (uint8_t)(bits >> (8 * i));
    return 1;
}

static int key_is(const jp *p, const json_node *m, const char *name, const char *suffix) {
    size_t nl = strlen(name), sl = strlen(suffix);
    return m->key_len == nl + sl && memcmp(p->arena + m->key, name, nl) == 0 &&
           memcmp(p->arena + m->key + nl, suffix, sl) == 0;
}

static int key_len_shown(const json_node *m) {
    return (int)(m->key_len < 60 ? m->key_len : 60);
}

/* A struct: like flatc, every member must be given (flatc: "wrong number of initializers"), so
 * a struct with a forgotten member is an error, not a silent zero. */
static int fill_struct(jp *p, const blvl_fb_type *t, const json_node *obj, uint8_t *dst,
                       unsigned depth) {
    if (obj->type != J_OBJ)
        return bfail(p, "expected an object (struct %s)", t->name), 0;
    if (depth > JSON_MAX_DEPTH)
        return bfail(p, "nested too deeply"), 0;
    uint8_t seen[256] = {0};
    if (t->field_count > sizeof seen)
        return bfail(p, "struct %s has more than 256 members", t->name), 0;
    for (uint32_t c = obj->child; c; c = p->nodes[c].next) {
        const json_node *m = &p->nodes[c];
        uint32_t i = 0;
        while (i < t->field_count && !key_is(p, m, t->fields[i].name, ""))
            i++;
        if (i == t->field_count)
            return bfail(p, "unknown member '%.*s' of struct %s", key_len_shown(m),
                         p->arena + m->key, t->name),
                   0;
        if (seen[i]++) /* flatc refuses it too; taking the first would hide a typo */
            return bfail(p, "member '%s' given twice", t->fields[i].name), 0;
    }
    for (uint32_t i = 0; i < t->field_count; i++) {
        const blvl_fb_field *f = &t->fields[i];
        const json_node *v = member(p, obj, f->name, "");
        if (!v)
            return bfail(p, "struct %s without its member '%s' (a struct needs every member)",
                         t->name, f->name),
                   0;
        size_t back = path_name(p, f->name);
        uint8_t *q = dst + f->offset;
        int ok = 1;
        if (f->kind == BLVL_FB_STRUCT) {
            ok = fill_struct(p, f->type, v, q, depth + 1);
        } else if (f->kind == BLVL_FB_ARRAY) {
            if (v->type != J_ARR || v->count != f->array_len) {
                bfail(p, "a fixed array of %" PRIu32 " elements", f->array_len);
                return 0;
            }
            size_t es = f->elem == BLVL_FB_STRUCT ? f->type->size
                                                  : blvl_fb_scalar_size((blvl_fb_kind)f->elem);
            uint32_t j = 0;
            for (uint32_t c = v->child; c && ok; c = p->nodes[c].next, j++) {
                size_t eb = path_index(p, j);
                ok = f->elem == BLVL_FB_STRUCT
                         ? fill_struct(p, f->type, &p->nodes[c], q + j * es, depth + 1)
                         : scalar(p, f->elem, f->enum_t, &p->nodes[c], q + j * es);
                path_back(p, eb);
            }
        } else {
            ok = scalar(p, f->kind, f->enum_t, v, q);
        }
        if (!ok)
            return 0;
        path_back(p, back);
    }
    return 1;
}

static blvl_fb_ref build_table(jp *p, const blvl_fb_type *t, const json_node *obj, unsigned depth);

static blvl_fb_ref build_vector(jp *p, const blvl_fb_field *f, const json_node *v, unsigned depth) {
    if (v->type != J_ARR)
        return bfail(p, "expected an array"), 0;
    size_t n = v->count;
    if (f->array_len && n != f->array_len)
        return bfail(p, "%zu elements where the schema wants exactly %" PRIu32, n, f->array_len), 0;
    if (f->elem == BLVL_FB_TABLE || f->elem == BLVL_FB_STRING) {
        blvl_fb_ref *refs = n ? blvl__alloc(p->a, n * sizeof *refs) : NULL;
        if (n && !refs) {
            if (!p->st)
                p->st = blvl__nomem(p->err, "json: %s: %zu references", p->path, n);
            return 0;
        }
        size_t i = 0;
        for (uint32_t c = v->child; c; c = p->nodes[c].next, i++) {
            const json_node *e = &p->nodes[c];
            size_t back = path_index(p, i);
            if (f->elem == BLVL_FB_STRING) {
                if (e->type != J_STR) {
                    bfail(p, "expected a string");
                    break;
                }
                refs[i] = blvl_fb_create_string(p->b, p->arena + e->str, e->len);
            } else {
                refs[i] = build_table(p, f->type, e, depth + 1);
            }
            if (!refs[i])
                break;
            path_back(p, back);
        }
        blvl_fb_ref r = i == n ? blvl_fb_create_ref_vector(p->b, refs, n) : 0;
        if (refs)
            blvl__dealloc(p->a, refs, n * sizeof *refs);
        return r;
    }
    size_t es =
        f->elem == BLVL_FB_STRUCT ? f->type->size : blvl_fb_scalar_size((blvl_fb_kind)f->elem);
    if (!es || (n && n > BLVL_FB_MAX_SIZE / es))
        return bfail(p, "vector too large"), 0;
    uint8_t *tmp = n ? blvl__calloc(p->a, n * es) : NULL;
    if (n && !tmp) {
        if (!p->st)
            p->st = blvl__nomem(p->err, "json: %s: %zu elements", p->path, n);
        return 0;
    }
    size_t i = 0;
    for (uint32_t c = v->child; c; c = p->nodes[c].next, i++) {
        size_t back = path_index(p, i);
        int ok = f->elem == BLVL_FB_STRUCT
                     ? fill_struct(p, f->type, &p->nodes[c], tmp + i * es, depth + 1)
                     : scalar(p, f->elem, f->enum_t, &p->nodes[c], tmp + i * es);
        if (!ok)
            break;
        path_back(p, back);
    }
    blvl_fb_ref r = 0;
    if (i == n)
        r = f->elem == BLVL_FB_STRUCT ? blvl_fb_create_struct_vector(p->b, f->type, tmp, n)
                                      : blvl_fb_create_vector(p->b, tmp, n, es, es);
    if (tmp)
        blvl__dealloc(p->a, tmp, n * es);
    return r;
}

/* Field i's children (strings, vectors, tables, union values) built first; 0 with p->st set on
 * failure, 0 with p->st clear when there is nothing to refer to. */
static blvl_fb_ref build_child(jp *p, const blvl_fb_field *f, const json_node *obj, uint8_t *utype,
                               unsigned depth) {
    const json_node *v = member(p, obj, f->name, "");
    if (f->kind == BLVL_FB_UNION) {
        const json_node *ty = member(p, obj, f->name, "_type");
        uint8_t u = 0;
        if (ty) {
            size_t back = path_add(p, "", "_type"); /* the x_type key itself */
            if (!scalar(p, BLVL_FB_U8, f->enum_t, ty, &u))
                return 0;
            path_back(p, back);
        }
        const blvl_fb_type *mt = NULL;
        for (uint32_t j = 0; j < f->enum_t->count; j++)
            if (f->enum_t->values[j].value == u)
                mt = f->enum_t->values[j].table;
        if (u && !mt)
            return bfail(p, "unknown type %u of union %s", u, f->enum_t->name), 0;
        if (!u && v)
            return bfail(p, "union value without its %s_type", f->name), 0;
        if (u && !v)
            return bfail(p, "union %s_type without its value", f->name), 0;
        *utype = u;
        return u ? build_table(p, mt, v, depth + 1) : 0;
    }
    if (!v)
        return 0;
    switch (f->kind) {
    case BLVL_FB_STRING:
        if (v->type != J_STR)
            return bfail(p, "expected a string"), 0;
        return blvl_fb_create_string(p->b, p->arena + v->str, v->len);
    case BLVL_FB_TABLE:
        return build_table(p, f->type, v, depth + 1);
    case BLVL_FB_VECTOR:
        return build_vector(p, f, v, depth);
    default:
        return 0;
    }
}

/* A scalar or struct field into the table being built. */
static int add_inline(jp *p, const blvl_fb_field *f, const json_node *v, unsigned depth) {
    if (f->kind == BLVL_FB_STRUCT) {
        uint8_t tmp[1024];
        if (f->type->size > sizeof tmp)
            return bfail(p, "struct too large"), 0;
        memset(tmp, 0, f->type->size);
        if (!fill_struct(p, f->type, v, tmp, depth + 1))
            return 0;
        blvl_fb_add_struct(p->b, f->id, f->type, tmp);
        return 1;
    }
    size_t size = blvl_fb_scalar_size((blvl_fb_kind)f->kind);
    if (!size)
        return 1;
    uint8_t bytes[8];
    if (!scalar(p, f->kind, f->enum_t, v, bytes))
        return 0;
    uint64_t bits = 0, def = f->def_bits;
    for (size_t k = 0; k < size; k++)
        bits |= (uint64_t)bytes[k] << (8 * k);
    if (f->kind == BLVL_FB_F32) {
        float d = (float)f->def_real;
        uint32_t u;
        memcpy(&u, &d, 4);
        def = u;
    } else if (f->kind == BLVL_FB_F64) {
        memcpy(&def, &f->def_real, 8);
    } else if (size < 8) {
        def &= (UINT64_C(1) << (8 * size)) - 1;
    }
    if (bits != def)
        blvl_fb_add_raw(p->b, f->id, bytes, size, size);
    return 1;
}

static blvl_fb_ref build_table(jp *p, const blvl_fb_type *t, const json_node *obj, unsigned depth) {
    if (obj->type != J_OBJ)
        return bfail(p, "expected an object (table %s)", t->name), 0;
    if (depth > BLVL_FB_MAX_DEPTH_DEFAULT)
        return bfail(p, "tables nested too deeply"), 0;
    if (t->field_count > 256)
        return bfail(p, "table %s has more than 256 fields", t->name), 0;
    uint8_t seen[512] = {0}; /* [2 * field + is_type] */
    for (uint32_t c = obj->child; c; c = p->nodes[c].next) {
        const json_node *m = &p->nodes[c];
        int known = 0;
        uint32_t i;
        for (i = 0; i < t->field_count && !known; i++) {
            if (t->fields[i].deprecated)
                continue;
            if (key_is(p, m, t->fields[i].name, ""))
                known = 1;
            else if (t->fields[i].kind == BLVL_FB_UNION && key_is(p, m, t->fields[i].name, "_type"))
                known = 2;
        }
        if (known && seen[2 * (i - 1) + (uint32_t)(known - 1)]++)
            return bfail(p, "field '%.*s' given twice", key_len_shown(m), p->arena + m->key), 0;
        if (!known)
            return bfail(p, "unknown field '%.*s' of table %s", key_len_shown(m), p->arena + m->key,
                         t->name),
                   0;
    }
    /* Children first (back to front), in field order. */
    blvl_fb_ref refs[256];
    uint8_t utypes[256];
    for (uint32_t i = 0; i < t->field_count; i++) {
        const blvl_fb_field *f = &t->fields[i];
        refs[i] = 0;
        utypes[i] = 0;
        if (f->deprecated)
            continue;
        size_t back = path_name(p, f->name);
        refs[i] = build_child(p, f, obj, &utypes[i], depth);
        if (p->st)
            return 0;
        int wanted =
            f->kind == BLVL_FB_UNION ? utypes[i] != 0
            : f->kind == BLVL_FB_STRING || f->kind == BLVL_FB_TABLE || f->kind == BLVL_FB_VECTOR
                ? member(p, obj, f->name, "") != NULL
                : 0;
        if (!refs[i] && wanted) {
            if (!(p->st = blvl_fb_builder_status(p->b, p->err)))
                bfail(p, "could not be built");
            return 0;
        }
        path_back(p, back);
    }
    blvl_fb_table_start(p->b);
    for (uint32_t i = 0; i < t->field_count; i++) {
        const blvl_fb_field *f = &t->fields[i];
        if (f->deprecated)
            continue;
        if (f->kind == BLVL_FB_UNION) {
            blvl_fb_add_union(p->b, f->id, utypes[i], refs[i]);
            continue;
        }
        if (refs[i]) {
            blvl_fb_add_ref(p->b, f->id, refs[i]);
            continue;
        }
        const json_node *v = member(p, obj, f->name, "");
        if (!v)
            continue;
        size_t back = path_name(p, f->name);
        if (!add_inline(p, f, v, depth))
            return 0;
        path_back(p, back);
    }
    blvl_fb_ref r = blvl_fb_table_end(p->b);
    if (!r && !p->st)
        p->st = blvl_fb_builder_status(p->b, p->err);
    return r;
}

blvl_status blvl_fb_from_json(void **out, size_t *out_size, const char *json, size_t len,
                              const blvl_fb_type *root, const blvl_options *opt, blvl_error *err) {
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    if (!json || !root || root->is_struct || !out || !out_size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "flatbuffer json: bad arguments");
    /* Positions in the text are held as 32-bit offsets. */
    if (len > 0xFFFFFFF0u)
        return blvl__fail(err, BLVL_E_FLATBUFFER, "json: a text of %zu bytes; 4 GiB at most", len);
    json_dom dom;
    uint32_t rootn = blvl__json_dom_parse(&dom, json, len, a, err);
    jp p;
    memset(&p, 0, sizeof p);
    p.a = a;
    p.s = json;
    p.nodes = dom.nodes;
    p.arena = dom.arena;
    p.err = err;
    p.st = dom.st;
    path_name(&p, root->name);
    if (!p.st && blvl_fb_builder_new(&p.b, opt, err) == BLVL_OK) {
        blvl_fb_ref r = build_table(&p, root, &p.nodes[rootn], 0);
        const uint8_t *data;
        size_t size;
        if (r && !p.st) {
            blvl_status st = blvl_fb_finish_id(p.b, r, root->file_identifier, &data, &size, err);
            if (st)
                p.st = st;
            else if (!(*out = blvl__alloc_sized(a, size))) /* the caller's, for blvl_free */
                p.st = blvl__nomem(err, "json: the flatbuffer");
            else {
                memcpy(*out, data, size);
                *out_size = size;
            }
        } else if (!p.st) {
            p.st = blvl_fb_builder_status(p.b, err);
        }
    } else if (!p.st) {
        p.st = BLVL_E_NOMEM;
    }
    if (p.b)
        blvl_fb_builder_free(p.b);
    blvl__json_dom_free(&dom);
    if (!p.st)
        blvl__ok(err);
    return p.st;
}
