/* A verified FlatBuffer as JSON, walking the type tables: the JSON flatc --json --strict-json
 * prints (field names, enums by name, unions as x_type + x, absent fields left out). Floats are
 * printed with enough digits to read back bit for bit; NaN and infinities as the strings "nan",
 * "inf", "-inf" (valid JSON, read back by flatc and by blvl_fb_from_json). */
#include "blvl/fb.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "json/json_string.h"

typedef struct out {
    const blvl_allocator *a;
    char *buf;
    size_t len, cap;
    int oom;
    unsigned indent, level;
} out;

static void put(out *o, const char *s, size_t n) {
    if (o->oom)
        return;
    if (o->cap - o->len < n + 1) {
        void *p = o->buf;
        if (n >= SIZE_MAX - o->len ||
            !blvl__array_grow(o->a, &p, &o->cap, o->len, o->len + n + 1, 1, 4096)) {
            o->oom = 1;
            return;
        }
        o->buf = p;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}
static void puts_(out *o, const char *s) {
    put(o, s, strlen(s));
}
static void newline(out *o) {
    if (!o->indent)
        return;
    put(o, "\n", 1);
    for (unsigned i = 0; i < o->level * o->indent; i++)
        put(o, " ", 1);
}

static void put_piece(void *o, const char *s, size_t n) {
    put(o, s, n);
}

/* Strings through the one JSON string escaper (docs/FLATBUFFERS.md). */
static void put_string(out *o, const uint8_t *s, size_t n) {
    blvl__json_string((const char *)s, n, put_piece, o);
}

/* NaN and the infinities have no JSON number: they print as the strings "nan", "inf" and "-inf",
 * which stay valid JSON and which both flatc's parser and ours read back into float fields
 * (flatc itself prints them bare, which is not JSON). */
static void put_real(out *o, double v, int is_f32) {
    char b[40];
    if (isnan(v))
        puts_(o, "\"nan\"");
    else if (isinf(v))
        puts_(o, v < 0 ? "\"-inf\"" : "\"inf\"");
    else {
        snprintf(b, sizeof b, is_f32 ? "%.9g" : "%.17g", v);
        puts_(o, b);
    }
}

/* Enum value by name, bit_flags as space-separated names, else the number. */
static void put_enum_or_int(out *o, const blvl_fb_enum *e, int64_t sv, uint64_t uv, int is_signed) {
    char b[32];
    if (e) {
        const char *n = blvl_fb_enum_name(e, sv);
        if (n) {
            put(o, "\"", 1);
            puts_(o, n);
            put(o, "\"", 1);
            return;
        }
        if (e->bit_flags && uv) {
            uint64_t covered = 0;
            for (uint32_t i = 0; i < e->count; i++)
                if (e->values[i].value &&
                    ((uint64_t)e->values[i].value & uv) == (uint64_t)e->values[i].value)
                    covered |= (uint64_t)e->values[i].value;
            if (covered == uv) {
                int first = 1;
                put(o, "\"", 1);
                for (uint32_t i = 0; i < e->count; i++)
                    if (e->values[i].value &&
                        ((uint64_t)e->values[i].value & uv) == (uint64_t)e->values[i].value) {
                        if (!first)
                            put(o, " ", 1);
                        first = 0;
                        puts_(o, e->values[i].name);
                    }
                put(o, "\"", 1);
                return;
            }
        }
    }
    if (is_signed)
        snprintf(b, sizeof b, "%" PRId64, sv);
    else
        snprintf(b, sizeof b, "%" PRIu64, uv);
    puts_(o, b);
}

static void put_scalar(out *o, uint8_t kind, const uint8_t *p, const blvl_fb_enum *e) {
    switch (kind) {
    case BLVL_FB_BOOL:
        puts_(o, p[0] ? "true" : "false");
        return;
    case BLVL_FB_I8:
        put_enum_or_int(o, e, blvl_fb_i8(p), (uint64_t)(int64_t)blvl_fb_i8(p), 1);
        return;
    case BLVL_FB_U8:
        put_enum_or_int(o, e, blvl_fb_u8(p), blvl_fb_u8(p), 0);
        return;
    case BLVL_FB_I16:
        put_enum_or_int(o, e, blvl_fb_i16(p), (uint64_t)(int64_t)blvl_fb_i16(p), 1);
        return;
    case BLVL_FB_U16:
        put_enum_or_int(o, e, blvl_fb_u16(p), blvl_fb_u16(p), 0);
        return;
    case BLVL_FB_I32:
        put_enum_or_int(o, e, blvl_fb_i32(p), (uint64_t)(int64_t)blvl_fb_i32(p), 1);
        return;
    case BLVL_FB_U32:
        put_enum_or_int(o, e, blvl_fb_u32(p), blvl_fb_u32(p), 0);
        return;
    case BLVL_FB_I64:
        put_enum_or_int(o, e, blvl_fb_i64(p), blvl_fb_u64(p), 1);
        return;
    case BLVL_FB_U64:
        put_enum_or_int(o, e, (int64_t)blvl_fb_u64(p), blvl_fb_u64(p), 0);
        return;
    case BLVL_FB_F32:
        put_real(o, blvl_fb_f32(p), 1);
        return;
    case BLVL_FB_F64:
        put_real(o, blvl_fb_f64(p), 0);
        return;
    default:
        puts_(o, "null");
    }
}

static void put_key(out *o, int *first, const char *name, const char *suffix) {
    if (!*first)
        put(o, ",", 1);
    *first = 0;
    newline(o);
    put(o, "\"", 1);
    puts_(o, name);
    puts_(o, suffix);
    puts_(o, o->indent ? "\": " : "\":");
}

static void put_struct(out *o, const blvl_fb_type *t, const uint8_t *p) {
    int first = 1;
    put(o, "{", 1);
    o->level++;
    for (uint32_t i = 0; i < t->field_count; i++) {
        const blvl_fb_field *f = &t->fields[i];
        put_key(o, &first, f->name, "");
        const uint8_t *q = p + f->offset;
        if (f->kind == BLVL_FB_STRUCT) {
            put_struct(o, f->type, q);
        } else if (f->kind == BLVL_FB_ARRAY) {
            size_t es = f->elem == BLVL_FB_STRUCT ? f->type->size
                                                  : blvl_fb_scalar_size((blvl_fb_kind)f->elem);
            put(o, "[", 1);
            for (uint32_t j = 0; j < f->array_len; j++) {
                if (j)
                    put(o, o->indent ? ", " : ",", o->indent ? 2 : 1);
                if (f->elem == BLVL_FB_STRUCT)
                    put_struct(o, f->type, q + j * es);
                else
                    put_scalar(o, f->elem, q + j * es, f->enum_t);
            }
            put(o, "]", 1);
        } else {
            put_scalar(o, f->kind, q, f->enum_t);
        }
    }
    o->level--;
    newline(o);
    put(o, "}", 1);
}

static void put_table(out *o, const blvl_fb_type *t, const uint8_t *tp);

static void put_vector(out *o, const blvl_fb_field *f, blvl_fb_vec v) {
    size_t es = f->elem == BLVL_FB_STRUCT ? f->type->size
                : (f->elem == BLVL_FB_TABLE || f->elem == BLVL_FB_STRING)
                    ? 4
                    : blvl_fb_scalar_size((blvl_fb_kind)f->elem);
    int compound = f->elem == BLVL_FB_STRUCT || f->elem == BLVL_FB_TABLE;
    put(o, "[", 1);
    o->level++;
    for (uint32_t i = 0; i < v.len && !o->oom; i++) {
        const uint8_t *p = v.data + (size_t)i * es;
        if (i)
            put(o, ",", 1);
        if (compound)
            newline(o);
        else if (i && o->indent)
            put(o, " ", 1);
        if (f->elem == BLVL_FB_STRUCT)
            put_struct(o, f->type, p);
        else if (f->elem == BLVL_FB_TABLE)
            put_table(o, f->type, blvl_fb_deref(p));
        else if (f->elem == BLVL_FB_STRING) {
            const uint8_t *s = blvl_fb_deref(p);
            put_string(o, s + 4, blvl_fb_u32(s));
        } else
            put_scalar(o, f->elem, p, f->enum_t);
    }
    o->level--;
    if (compound && v.len)
        newline(o);
    put(o, "]", 1);
}

static void put_table(out *o, const blvl_fb_type *t, const uint8_t *tp) {
    int first = 1;
    put(o, "{", 1);
    o->level++;
    for (uint32_t i = 0; i < t->field_count && !o->oom; i++) {
        const blvl_fb_field *f = &t->fields[i];
        if (f->deprecated)
            continue;
        uint32_t fo = blvl_fb_field_offset(tp, f->id);
        if (f->kind == BLVL_FB_UNION) {
            uint32_t to = blvl_fb_field_offset(tp, f->id - 1u);
            if (to) {
                put_key(o, &first, f->name, "_type");
                put_enum_or_int(o, f->enum_t, tp[to], tp[to], 0);
            }
            if (!fo)
                continue;
            const blvl_fb_type *member = NULL;
            for (uint32_t j = 0; to && j < f->enum_t->count; j++)
                if (f->enum_t->values[j].value == tp[to])
                    member = f->enum_t->values[j].table;
            put_key(o, &first, f->name, "");
            if (member)
                put_table(o, member, blvl_fb_deref(tp + fo));
            else
                puts_(o, "null");
            continue;
        }
        if (!fo)
            continue;
        put_key(o, &first, f->name, "");
        const uint8_t *p = tp + fo;
        switch (f->kind) {
        case BLVL_FB_STRUCT:
            put_struct(o, f->type, p);
            break;
        case BLVL_FB_TABLE:
            put_table(o, f->type, blvl_fb_deref(p));
            break;
        case BLVL_FB_STRING: {
            const uint8_t *s = blvl_fb_deref(p);
            put_string(o, s + 4, blvl_fb_u32(s));
            break;
        }
        case BLVL_FB_VECTOR: {
            const uint8_t *v = blvl_fb_deref(p);
            blvl_fb_vec vec = {v + 4, blvl_fb_u32(v)};
            put_vector(o, f, vec);
            break;
        }
        default:
            put_scalar(o, f->kind, p, f->enum_t);
        }
    }
    o->level--;
    if (!first)
        newline(o);
    put(o, "}", 1);
}

blvl_status blvl_fb_to_json(char **out_json, size_t *out_len, const void *buf, size_t size,
                            const blvl_fb_type *root, unsigned indent, const blvl_options *opt,
                            blvl_error *err) {
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    if (!out_json || !out_len)
        return blvl__fail(err, BLVL_E_ARGUMENT, "flatbuffer json: no output");
    blvl_status st = blvl_fb_verify(buf, size, root, opt, err);
    if (st)
        return st;
    out o;
    memset(&o, 0, sizeof o);
    o.a = a;
    o.indent = indent > 16 ? 16 : indent;
    put_table(&o, root, blvl_fb_root(buf));
    if (o.indent)
        put(&o, "\n", 1);
    if (o.oom) {
        if (o.buf)
            blvl__dealloc(a, o.buf, o.cap);
        return blvl__nomem(err, "flatbuffer json: the text");
    }
    /* Hand back exactly len + 1 bytes, freed by blvl_free. */
    char *res = blvl__alloc_sized(a, o.len + 1);
    if (!res) {
        blvl__dealloc(a, o.buf, o.cap);
        return blvl__nomem(err, "flatbuffer json: the text");
    }
    memcpy(res, o.buf, o.len + 1);
    blvl__dealloc(a, o.buf, o.cap);
    *out_json = res;
    *out_len = o.len;
    blvl__ok(err);
    return BLVL_OK;
}
