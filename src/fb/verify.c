/* The FlatBuffers verifier, driven by the type tables fbsgen emits. Every position is an offset
 * from the start of the buffer held in 64-bit arithmetic, so no check can overflow, and nothing
 * is dereferenced before its bounds are known. */
#include "blvl/fb.h"

#include <inttypes.h>
#include <stdio.h>

#include "common/error.h"

#define PATH_MAX_DEPTH 80

typedef struct path_seg {
    const char *name;
    int64_t index; /* -1: none */
} path_seg;

typedef struct verifier {
    const uint8_t *buf;
    uint64_t size;
    uint32_t max_depth;
    uint32_t max_tables;
    uint32_t depth;
    uint32_t tables;
    uint64_t visits;     /* tables and strings visited, against max_visits */
    uint64_t max_visits; /* size / 4: what a buffer without shared subtrees can need */
    uint32_t path_len;
    path_seg path[PATH_MAX_DEPTH];
    blvl_error *err;
} verifier;

size_t blvl_fb_scalar_size(blvl_fb_kind kind) {
    switch (kind) {
    case BLVL_FB_BOOL:
    case BLVL_FB_I8:
    case BLVL_FB_U8:
        return 1;
    case BLVL_FB_I16:
    case BLVL_FB_U16:
        return 2;
    case BLVL_FB_I32:
    case BLVL_FB_U32:
    case BLVL_FB_F32:
        return 4;
    case BLVL_FB_I64:
    case BLVL_FB_U64:
    case BLVL_FB_F64:
        return 8;
    default:
        return 0;
    }
}

const char *blvl_fb_enum_name(const blvl_fb_enum *e, int64_t value) {
    for (uint32_t i = 0; e && i < e->count; i++)
        if (e->values[i].value == value)
            return e->values[i].name;
    return NULL;
}

static void path_push(verifier *v, const char *name, int64_t index) {
    if (v->path_len < PATH_MAX_DEPTH)
        v->path[v->path_len] = (path_seg){name, index};
    v->path_len++;
}
static void path_pop(verifier *v) {
    v->path_len--;
}

/* Refuse with "<path>: <what> at <offset>". */
static blvl_status fail(verifier *v, uint64_t at, const char *what) {
    if (!v->err)
        return BLVL_E_FLATBUFFER;
    char path[160];
    size_t n = 0;
    path[0] = '\0';
    uint32_t len = v->path_len < PATH_MAX_DEPTH ? v->path_len : PATH_MAX_DEPTH;
    for (uint32_t i = 0; i < len && n < sizeof path; i++) {
        int w;
        if (v->path[i].index >= 0)
            w = snprintf(path + n, sizeof path - n, "%s%s[%" PRId64 "]", i ? "." : "",
                         v->path[i].name, v->path[i].index);
        else
            w = snprintf(path + n, sizeof path - n, "%s%s", i ? "." : "", v->path[i].name);
        if (w < 0)
            break;
        n += (size_t)w;
    }
    return blvl__fail(v->err, BLVL_E_FLATBUFFER, "%s: %s at byte %" PRIu64, path, what, at);
}

static int in_bounds(const verifier *v, uint64_t pos, uint64_t len) {
    return pos <= v->size && len <= v->size - pos;
}

/* An offset field at `pos`: aligned, non-zero, positive as a signed value, target inside. */
static blvl_status follow(verifier *v, uint64_t pos, uint64_t *target) {
    if (pos & 3)
        return fail(v, pos, "misaligned offset");
    if (!in_bounds(v, pos, 4))
        return fail(v, pos, "offset outside the buffer");
    uint32_t o = blvl_fb_u32(v->buf + pos);
    if (o == 0 || o > 0x7FFFFFFFu)
        return fail(v, pos, "offset zero or negative");
    if (!in_bounds(v, pos + o, 1))
        return fail(v, pos, "offset points outside the buffer");
    *target = pos + o;
    return BLVL_OK;
}

/* A vector header at `pos`: aligned length, elements inside the buffer and aligned. */
static blvl_status vector_at(verifier *v, uint64_t pos, uint64_t elem_size, uint64_t elem_align,
                             uint32_t *len) {
    if (pos & 3)
        return fail(v, pos, "misaligned vector length");
    if (!in_bounds(v, pos, 4))
        return fail(v, pos, "vector length outside the buffer");
    *len = blvl_fb_u32(v->buf + pos);
    if (elem_align > 4 && ((pos + 4) & (elem_align - 1)))
        return fail(v, pos, "misaligned vector elements");
    if (!in_bounds(v, pos + 4, (uint64_t)*len * elem_size))
        return fail(v, pos, "vector runs past the end of the buffer");
    return BLVL_OK;
}

/* Every table or string is reached through its own 4-byte offset unless subtrees are shared,
 * so a buffer of `size` bytes needs at most size / 4 visits. Shared subtrees (legal, but no
 * writer of ours makes them) multiply: a vector of n offsets to one table holding a vector of
 * m offsets to one string costs n * m visits from 4 * (n + m) bytes. Refusing past size / 4
 * keeps the work linear in the buffer. */
static blvl_status visit(verifier *v, uint64_t pos) {
    if (++v->visits > v->max_visits)
        return fail(v, pos,
                    "more tables and strings than the buffer holds offsets (shared subtrees)");
    return BLVL_OK;
}

static blvl_status string_at(verifier *v, uint64_t pos) {
    uint32_t len = 0;
    blvl_status st = visit(v, pos);
    if (st)
        return st;
    st = vector_at(v, pos, 1, 1, &len);
    if (st)
        return st;
    if (!in_bounds(v, pos + 4, (uint64_t)len + 1))
        return fail(v, pos, "string terminator outside the buffer");
    if (v->buf[pos + 4 + len] != 0)
        return fail(v, pos, "string without its NUL terminator");
    return BLVL_OK;
}

static blvl_status table_at(verifier *v, uint64_t pos, const blvl_fb_type *t);

static blvl_status vector_field(verifier *v, uint64_t pos, const blvl_fb_field *f) {
    uint32_t len = 0;
    blvl_status st;
    switch (f->elem) {
    case BLVL_FB_STRUCT:
        return vector_at(v, pos, f->type->size, f->type->align, &len);
    case BLVL_FB_STRING:
    case BLVL_FB_TABLE:
        if ((st = vector_at(v, pos, 4, 4, &len)))
            return st;
        for (uint32_t i = 0; i < len; i++) {
            uint64_t target, at = pos + 4 + 4 * (uint64_t)i;
            if (v->path_len - 1 < PATH_MAX_DEPTH)
                v->path[v->path_len - 1].index = i;
            if ((st = follow(v, at, &target)))
                return st;
            st = f->elem == BLVL_FB_STRING ? string_at(v, target) : table_at(v, target, f->type);
            if (st)
                return st;
        }
        return BLVL_OK;
    default: {
        size_t s = blvl_fb_scalar_size((blvl_fb_kind)f->elem);
        if (!s)
            return fail(v, pos, "vector of an unsupported element kind");
        return vector_at(v, pos, s, s, &len);
    }
    }
}

static blvl_status field_at(verifier *v, uint64_t tpos, uint32_t objsize, const uint8_t *vt,
                            uint32_t vtsize, const blvl_fb_field *f) {
    uint32_t slot = 4u + 2u * f->id;
    uint32_t fo = slot + 2u <= vtsize ? blvl_fb_u16(vt + slot) : 0u;
    uint64_t fsize, falign;
    switch (f->kind) {
    case BLVL_FB_STRUCT:
        fsize = f->type->size;
        falign = f->type->align;
        break;
    case BLVL_FB_STRING:
    case BLVL_FB_TABLE:
    case BLVL_FB_UNION:
    case BLVL_FB_VECTOR:
        fsize = falign = 4;
        break;
    default:
        fsize = falign = blvl_fb_scalar_size((blvl_fb_kind)f->kind);
        if (!fsize)
            return fail(v, tpos, "field of an unsupported kind");
    }
    uint8_t utype = 0;
    if (f->kind == BLVL_FB_UNION) {
        uint32_t tslot = slot - 2u;
        uint32_t to = tslot + 2u <= vtsize ? blvl_fb_u16(vt + tslot) : 0u;
        if (to) {
            if (to < 4 || to + 1u > objsize)
                return fail(v, tpos + to, "union type outside its table");
            utype = v->buf[tpos + to];
        }
        if (utype != 0 && !blvl_fb_enum_name(f->enum_t, utype))
            return fail(v, tpos + to, "unknown union type");
        if ((utype == 0) != (fo == 0))
            return fail(v, tpos,
                        utype ? "union type without a value" : "union value without a type");
    }
    if (!fo) {
        if (f->required)
            return fail(v, tpos, "required field missing");
        return BLVL_OK;
    }
    if (fo < 4 || (uint64_t)fo + fsize > objsize)
        return fail(v, tpos + fo, "field outside its table");
    uint64_t pos = tpos + fo;
    if (pos & (falign - 1))
        return fail(v, pos, "misaligned field");
    uint64_t target;
    blvl_status st;
    switch (f->kind) {
    case BLVL_FB_STRING:
        if ((st = follow(v, pos, &target)))
            return st;
        return string_at(v, target);
    case BLVL_FB_TABLE:
        if ((st = follow(v, pos, &target)))
            return st;
        return table_at(v, target, f->type);
    case BLVL_FB_UNION: {
        if ((st = follow(v, pos, &target)))
            return st;
        const blvl_fb_type *member = NULL;
        for (uint32_t i = 0; i < f->enum_t->count; i++)
            if (f->enum_t->values[i].value == utype)
                member = f->enum_t->values[i].table;
        if (!member)
            return fail(v, pos, "union member without a table type");
        return table_at(v, target, member);
    }
    case BLVL_FB_VECTOR:
        if ((st = follow(v, pos, &target)))
            return st;
        if ((st = vector_field(v, target, f)))
            return st;
        if (f->array_len && blvl_fb_u32(v->buf + target) != f->array_len) {
            char what[96];
            snprintf(what, sizeof what,
                     "%" PRIu32 " elements where the schema wants exactly %" PRIu32,
                     blvl_fb_u32(v->buf + target), f->array_len);
            return fail(v, target, what);
        }
        return BLVL_OK;
    default:
        return BLVL_OK;
    }
}

static blvl_status table_at(verifier *v, uint64_t pos, const blvl_fb_type *t) {
    if (++v->tables > v->max_tables)
        return fail(v, pos, "too many tables");
    blvl_status vst = visit(v, pos);
    if (vst)
        return vst;
    if (v->depth >= v->max_depth)
        return fail(v, pos, "tables nested too deeply");
    if (pos & 3)
        return fail(v, pos, "misaligned table");
    if (!in_bounds(v, pos, 4))
        return fail(v, pos, "table outside the buffer");
    int64_t vtpos = (int64_t)pos - (int64_t)blvl_fb_i32(v->buf + pos);
    if (vtpos < 0 || (vtpos & 1) || !in_bounds(v, (uint64_t)vtpos, 4))
        return fail(v, pos, "vtable outside the buffer or misaligned");
    const uint8_t *vt = v->buf + vtpos;
    uint32_t vtsize = blvl_fb_u16(vt), objsize = blvl_fb_u16(vt + 2);
    if (vtsize < 4 || (vtsize & 1) || !in_bounds(v, (uint64_t)vtpos, vtsize))
        return fail(v, (uint64_t)vtpos, "bad vtable size");
    /* The object size counts the table's own 4-byte vtable offset, so under 4 is no table. */
    if (objsize < 4)
        return fail(v, pos, "table size under 4 (its vtable offset alone is 4 bytes)");
    if (!in_bounds(v, pos, objsize))
        return fail(v, pos, "table size runs past the end of the buffer");
    v->depth++;
    for (uint32_t i = 0; i < t->field_count; i++) {
        const blvl_fb_field *f = &t->fields[i];
        path_push(v, f->name, -1);
        blvl_status st = field_at(v, pos, objsize, vt, vtsize, f);
        path_pop(v);
        if (st)
            return st;
    }
    v->depth--;
    return BLVL_OK;
}

blvl_status blvl_fb_verify(const void *buf, size_t size, const blvl_fb_type *root,
                           const blvl_options *opt, blvl_error *err) {
    verifier v;
    memset(&v, 0, sizeof v);
    v.buf = (const uint8_t *)buf;
    v.size = size;
    v.err = err;
    v.max_depth = opt && opt->fb_max_depth ? opt->fb_max_depth : BLVL_FB_MAX_DEPTH_DEFAULT;
    v.max_tables = opt && opt->fb_max_tables ? opt->fb_max_tables : BLVL_FB_MAX_TABLES_DEFAULT;
    v.max_visits = size / 4;
    if (!root || root->is_struct || (!buf && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "flatbuffer: no root table type");
    path_push(&v, root->name, -1);
    if (size > BLVL_FB_MAX_SIZE)
        return fail(&v, 0, "buffer over 2 GiB");
    if (size < 8)
        return fail(&v, 0, "buffer too small for a root table");
    if (root->file_identifier && memcmp(v.buf + 4, root->file_identifier, 4) != 0) {
        char what[96];
        snprintf(what, sizeof what, "file identifier is not \"%.4s\" (not a %s buffer)",
                 root->file_identifier, root->name);
        return fail(&v, 4, what);
    }
    uint64_t target;
    blvl_status st = follow(&v, 0, &target);
    if (!st)
        st = table_at(&v, target, root);
    if (!st)
        blvl__ok(err);
    return st;
}
