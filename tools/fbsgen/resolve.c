/* Type resolution, field ids, struct layout and default values. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fbsgen.h"

static const struct {
    const char *name;
    int kind;
} scalars[] = {{"bool", K_BOOL},   {"byte", K_I8},      {"int8", K_I8},     {"ubyte", K_U8},
               {"uint8", K_U8},    {"short", K_I16},    {"int16", K_I16},   {"ushort", K_U16},
               {"uint16", K_U16},  {"int", K_I32},      {"int32", K_I32},   {"uint", K_U32},
               {"uint32", K_U32},  {"long", K_I64},     {"int64", K_I64},   {"ulong", K_U64},
               {"uint64", K_U64},  {"float", K_F32},    {"float32", K_F32}, {"double", K_F64},
               {"float64", K_F64}, {"string", K_STRING}};

unsigned kind_size(int kind) {
    switch (kind) {
    case K_BOOL:
    case K_I8:
    case K_U8:
        return 1;
    case K_I16:
    case K_U16:
        return 2;
    case K_I32:
    case K_U32:
    case K_F32:
        return 4;
    case K_I64:
    case K_U64:
    case K_F64:
        return 8;
    default:
        return 4;
    }
}

const char *kind_ctype(int kind) {
    static const char *n[] = {"",        "bool",     "int8_t",  "uint8_t",  "int16_t", "uint16_t",
                              "int32_t", "uint32_t", "int64_t", "uint64_t", "float",   "double"};
    return kind >= K_BOOL && kind <= K_F64 ? n[kind] : "?";
}
const char *kind_suffix(int kind) {
    static const char *n[] = {"",    "bool", "i8",  "u8",  "i16", "u16",
                              "i32", "u32",  "i64", "u64", "f32", "f64"};
    return kind >= K_BOOL && kind <= K_F64 ? n[kind] : "?";
}
const char *kind_enum(int kind) {
    static const char *n[] = {"BLVL_FB_NONE",   "BLVL_FB_BOOL",   "BLVL_FB_I8",    "BLVL_FB_U8",
                              "BLVL_FB_I16",    "BLVL_FB_U16",    "BLVL_FB_I32",   "BLVL_FB_U32",
                              "BLVL_FB_I64",    "BLVL_FB_U64",    "BLVL_FB_F32",   "BLVL_FB_F64",
                              "BLVL_FB_STRING", "BLVL_FB_STRUCT", "BLVL_FB_TABLE", "BLVL_FB_UNION",
                              "BLVL_FB_VECTOR", "BLVL_FB_ARRAY"};
    return kind >= 0 && kind <= K_ARRAY ? n[kind] : "?";
}

def *fbs_find(const schema *s, const char *name) {
    const char *dot = strrchr(name, '.');
    if (dot)
        name = dot + 1; /* one namespace: qualified names are the plain name */
    for (size_t i = 0; i < s->ndefs; i++)
        if (strcmp(s->defs[i]->name, name) == 0)
            return s->defs[i];
    return NULL;
}

static int fail(const def *d, const field *f, const char *what) {
    fprintf(stderr, "fbsgen: %s.%s (%s.fbs line %d): %s\n", d->name, f ? f->name : "", d->file,
            f ? f->line : 0, what);
    return -1;
}

/* Kind of a named type; sets *ref / *enm. */
static int type_kind(const schema *s, const char *name, def **ref, def **enm) {
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (strcmp(scalars[i].name, name) == 0)
            return scalars[i].kind;
    def *d = fbs_find(s, name);
    if (!d)
        return -1;
    switch (d->what) {
    case D_ENUM:
        *enm = d;
        return d->underlying;
    case D_UNION:
        *ref = d;
        return K_UNION;
    case D_STRUCT:
        *ref = d;
        return K_STRUCT;
    default:
        *ref = d;
        return K_TABLE;
    }
}

static int eval_default(const schema *s, def *d, field *f) {
    f->def_bits = 0;
    f->def_real = 0;
    if (!f->default_text)
        return 0;
    if (f->is_vector || f->array_len || f->kind > K_F64)
        return fail(d, f, "only scalars take a default");
    const char *t = f->default_text;
    if (f->kind == K_F32 || f->kind == K_F64) {
        const char *u = t + (t[0] == '-' || t[0] == '+');
        if (strcmp(u, "inf") == 0 || strcmp(u, "infinity") == 0)
            f->def_real = t[0] == '-' ? -HUGE_VAL : HUGE_VAL;
        else if (strcmp(u, "nan") == 0)
            f->def_real = NAN;
        else {
            char *end;
            errno = 0;
            f->def_real = strtod(t, &end);
            if (*end || errno)
                return fail(d, f, "bad float default");
        }
        if (f->kind == K_F32)
            f->def_real = (double)(float)f->def_real;
        return 0;
    }
    if (strcmp(t, "true") == 0 || strcmp(t, "false") == 0) {
        if (f->kind != K_BOOL)
            return fail(d, f, "true/false default on a non-bool");
        f->def_bits = t[0] == 't';
        return 0;
    }
    if (f->enm && fbs_find(s, f->enm->name)) {
        for (size_t i = 0; i < f->enm->nvals; i++)
            if (strcmp(f->enm->vals[i].name, t) == 0) {
                f->def_bits = (uint64_t)f->enm->vals[i].value;
                return 0;
            }
    }
    int neg = t[0] == '-';
    const char *digits = t + (neg || t[0] == '+');
    int base = (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) ? 16 : 10;
    char *end;
    errno = 0;
    unsigned long long u = strtoull(digits, &end, base);
    if (*end || errno || digits[0] == '-')
        return fail(d, f, "bad integer default");
    unsigned bits = kind_size(f->kind) * 8;
    int is_signed = f->kind == K_I8 || f->kind == K_I16 || f->kind == K_I32 || f->kind == K_I64;
    if (is_signed) {
        unsigned long long lim = 1ull << (bits - 1);
        if (neg ? u > lim : u >= lim)
            return fail(d, f, "default out of range");
        f->def_bits = neg ? (uint64_t)0 - (uint64_t)u : (uint64_t)u;
    } else {
        if (neg || (bits < 64 && u >> bits))
            return fail(d, f, "default out of range");
        f->def_bits = u;
    }
    if (f->kind == K_BOOL && u > 1)
        return fail(d, f, "bool default out of range");
    return 0;
}

static unsigned field_align(const field *f) {
    int k = f->array_len ? f->elem : f->kind;
    return k == K_STRUCT ? f->ref->align : kind_size(k);
}
static unsigned field_size(const field *f) {
    int k = f->array_len ? f->elem : f->kind;
    unsigned one = k == K_STRUCT ? f->ref->size : kind_size(k);
    return f->array_len ? one * (unsigned)f->array_len : one;
}

/* Lay out a struct once its member structs are laid out. */
static int layout(def *d, int depth) {
    if (d->align)
        return 0;
    if (depth > 64)
        return fail(d, NULL, "structs nest in a cycle");
    unsigned off = 0, align = 1;
    for (size_t i = 0; i < d->nfields; i++) {
        field *f = &d->fields[i];
        if (f->ref && f->ref->what == D_STRUCT && layout(f->ref, depth + 1))
            return -1;
        unsigned a = field_align(f);
        unsigned o = (off + a - 1) & ~(a - 1);
        if (o != off)
            d->has_padding = 1;
        f->offset = o;
        off = o + field_size(f);
        if (a > align)
            align = a;
    }
    if (d->force_align > align)
        align = d->force_align;
    unsigned size = (off + align - 1) & ~(align - 1);
    if (size != off)
        d->has_padding = 1;
    if (size == 0)
        return fail(d, NULL, "empty struct");
    d->size = size;
    d->align = align;
    return 0;
}

int fbs_resolve(schema *s) {
    for (size_t i = 0; i < s->ndefs; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->defs[i]->name, s->defs[j]->name) == 0) {
                fprintf(stderr, "fbsgen: %s declared in both %s.fbs and %s.fbs\n", s->defs[i]->name,
                        s->defs[j]->file, s->defs[i]->file);
                return -1;
            }
    for (size_t i = 0; i < s->ndefs; i++) {
        def *d = s->defs[i];
        if (d->what == D_UNION) {
            for (size_t j = 1; j < d->nvals; j++) {
                def *m = fbs_find(s, d->vals[j].name);
                if (!m || m->what != D_TABLE)
                    return fail(d, NULL, "union members must be tables");
                d->vals[j].table = m;
                d->vals[j].value = (int64_t)j;
            }
        }
        if (d->what != D_STRUCT && d->what != D_TABLE)
            continue;
        for (size_t j = 0; j < d->nfields; j++) {
            field *f = &d->fields[j];
            int k = type_kind(s, f->type_name, &f->ref, &f->enm);
            if (k < 0)
                return fail(d, f, "unknown type");
            if (f->is_vector || f->array_len) {
                if (k == K_UNION)
                    return fail(d, f, "vectors of unions are not supported");
                f->elem = k;
                f->kind = f->is_vector ? K_VECTOR : K_ARRAY;
                if (f->array_len && (k > K_F64 && k != K_STRUCT))
                    return fail(d, f, "struct arrays hold scalars or structs");
            } else {
                f->kind = k;
            }
            if (f->exact_len && f->kind != K_VECTOR)
                return fail(d, f, "blvl_length applies to vectors only");
            if (d->what == D_STRUCT && (f->kind == K_STRING || f->kind == K_TABLE ||
                                        f->kind == K_UNION || f->kind == K_VECTOR))
                return fail(d, f, "a struct holds scalars, structs and arrays only");
            if (eval_default(s, d, f))
                return -1;
        }
        if (d->what == D_TABLE) {
            int explicit_ids = d->nfields && d->fields[0].explicit_id;
            int next_id = 0;
            for (size_t j = 0; j < d->nfields; j++) {
                field *f = &d->fields[j];
                if (f->explicit_id != explicit_ids)
                    return fail(d, f, "either every field has an id or none");
                if (!explicit_ids)
                    f->id = next_id + (f->kind == K_UNION);
                next_id = f->id + 1;
                if (f->id < (f->kind == K_UNION) || f->id > 32000)
                    return fail(d, f, "bad field id");
            }
            for (size_t j = 0; j < d->nfields; j++)
                for (size_t k2 = 0; k2 < d->nfields; k2++) {
                    const field *a = &d->fields[j], *b = &d->fields[k2];
                    if (j != k2 && (a->id == b->id || (b->kind == K_UNION && a->id == b->id - 1)))
                        return fail(d, a, "two fields share an id");
                }
        }
    }
    for (size_t i = 0; i < s->ndefs; i++)
        if (s->defs[i]->what == D_STRUCT && layout(s->defs[i], 0))
            return -1;
    return 0;
}
