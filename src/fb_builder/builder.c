/* The FlatBuffers builder. The buffer grows back to front inside one block, so a reference is a
 * stable distance from the end. A table's fields are collected while it is open and laid out at
 * table_end in a canonical order (largest alignment first, then field id), which makes the
 * bytes independent of the order the caller added the fields in. */
#include "blvl/fb.h"

#include "fb_builder/reserve.h"
#include "common/advise.h"
#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "fb_builder/struct_copy.h"

typedef struct pending {
    uint16_t id;
    uint16_t seq; /* the order it was added in */
    uint8_t is_ref;
    uint8_t align;
    uint16_t size; /* add_field refuses more */
    uint32_t data; /* scratch offset, or the ref */
    uint32_t pos;  /* position inside the table object, set at table_end */
} pending;

/* A table's layout (where each field goes, its size, its vtable) depends only on its fields'
 * ids, sizes, alignments and kinds in the order they were added, and a builder makes the same
 * few kinds of table again and again (a million colliders): the layouts of recent kinds are
 * kept, with the vtable each found, and a table of a kept kind skips the sort, the layout and
 * the vtable search. The vtable found stays the first equal one until a rewind or reset drops
 * vtables, which forgets every layout. */
#define LAYOUT_FIELDS 16
#define LAYOUT_SLOTS 8
typedef struct layout {
    uint64_t gen; /* valid while it equals the builder's */
    uint32_t n;
    uint32_t objsize, maxalign;
    uint32_t vtable;             /* index in vtables */
    uint64_t key[LAYOUT_FIELDS]; /* field_key of each, in the order added */
    uint16_t pos[LAYOUT_FIELDS]; /* position in the object, in the order added */
} layout;

typedef struct vtable_rec {
    uint32_t end;  /* end distance */
    uint32_t copy; /* offset of its copy in vtbytes */
} vtable_rec;

struct blvl_fb_builder {
    blvl_allocator alloc;    /* a copy of the caller's */
    const blvl_allocator *a; /* &alloc */
    uint8_t *buf;
    size_t cap, used; /* end distance of the front: bytes live at buf[cap - (used - gone), cap) */
    size_t gone;      /* bytes built and dropped (blvl__fb_builder_forget), still counted in used */
    size_t tail;      /* bytes of a first vector kept out of buf (blvl__fb_builder_tail_start) */
    size_t minalign;
    int in_table;
    pending *fields;
    size_t nfields, capfields;
    uint8_t *scratch;
    size_t scratch_used, scratch_cap;
    vtable_rec *vtables; /* the vtables written so far */
    size_t nvt, capvt;
    uint8_t *vtbytes; /* their copies: dropped bytes are never read back */
    size_t vtbytes_used, vtbytes_cap;
    uint8_t *vt; /* vtable image being assembled */
    size_t vtcap;
    uint64_t seen; /* ids below 64 added to the open table */
    uint64_t gen;  /* layouts of another generation are stale */
    layout layouts[LAYOUT_SLOTS];
    blvl_status status;
    blvl_error err;
};

/* What of a field decides its table's layout: id, size, alignment, whether it is a reference. */
static uint64_t field_key(const pending *f) {
    return f->id | (uint64_t)f->size << 16 | (uint64_t)f->align << 32 | (uint64_t)f->is_ref << 40;
}

static void set_error(blvl_fb_builder *b, blvl_status code, const char *what) {
    if (b->status == BLVL_OK) {
        b->status = code;
        blvl__fail(&b->err, code, "flatbuffer builder: %s", what);
    }
}

/* Grow an array of `elem` bytes per item to hold at least `need` items. */
static int reserve(blvl_fb_builder *b, void **arr, size_t *cap, size_t need, size_t elem) {
    if (!blvl__array_grow(b->a, arr, cap, *cap, need, elem, 16)) {
        set_error(b, BLVL_E_NOMEM, "a working table");
        return 0;
    }
    return 1;
}

/* Where the byte at end distance d lies (d within what is held). */
static uint8_t *addr(const blvl_fb_builder *b, size_t d) {
    return b->buf + b->cap - (d - b->gone);
}

/* Make room for `n` more bytes in front of what is built. */
static int room(blvl_fb_builder *b, size_t n) {
    if (b->status)
        return 0;
    if (n > BLVL_FB_MAX_SIZE || b->tail + b->used + n > BLVL_FB_MAX_SIZE) {
        set_error(b, BLVL_E_ARGUMENT, "buffer would exceed 2 GiB");
        return 0;
    }
    size_t held = b->used - b->gone;
    if (b->buf && b->cap - held >= n)
        return 1; /* the first call allocates, so even an empty push has a real pointer */
    /* the bytes are kept at the end of the block, so this grows by hand, by the common rule */
    size_t ncap = blvl__array_grown(b->cap, held + n, 1024, 1);
    uint8_t *p = ncap ? blvl__alloc(b->a, ncap) : NULL;
    if (!p) {
        set_error(b, BLVL_E_NOMEM, "the buffer");
        return 0;
    }
    if (b->buf) {
        memcpy(p + ncap - held, b->buf + b->cap - held, held);
        blvl__dealloc(b->a, b->buf, b->cap);
    }
    b->buf = p;
    b->cap = ncap;
    return 1;
}

/* Push `n` zeroed bytes; returns their start or NULL. */
static uint8_t *push(blvl_fb_builder *b, size_t n) {
    if (!room(b, n))
        return NULL;
    b->used += n;
    uint8_t *p = addr(b, b->used);
    memset(p, 0, n);
    return p;
}

/* Pad so that after `len` more bytes the front is aligned to `align` (a power of two). */
static int align_for(blvl_fb_builder *b, size_t len, size_t align) {
    if (align > b->minalign)
        b->minalign = align;
    size_t pad = (align - ((b->tail + b->used + len) & (align - 1))) & (align - 1);
    return pad == 0 || push(b, pad) != NULL;
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static int not_in_table(blvl_fb_builder *b, const char *what) {
    if (b->in_table) {
        set_error(b, BLVL_E_ARGUMENT, what);
        return 0;
    }
    return b->status == BLVL_OK;
}

int blvl__fb_builder_reserve(blvl_fb_builder *b, size_t bytes) {
    if (!b || b->status || bytes <= b->cap)
        return b && !b->status;
    if (bytes > BLVL_FB_MAX_SIZE)
        bytes = BLVL_FB_MAX_SIZE; /* room() refuses what goes past it later */
    uint8_t *p = blvl__alloc(b->a, bytes);
    if (!p) {
        set_error(b, BLVL_E_NOMEM, "the buffer");
        return 0;
    }
    blvl__advise_large(p, bytes);
    if (b->buf) {
        size_t held = b->used - b->gone;
        memcpy(p + bytes - held, b->buf + b->cap - held, held);
        blvl__dealloc(b->a, b->buf, b->cap);
    }
    b->buf = p;
    b->cap = bytes;
    return 1;
}

blvl_status blvl_fb_builder_new(blvl_fb_builder **out, const blvl_options *opt, blvl_error *err) {
    if (!out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "flatbuffer builder: no output");
    blvl_fb_builder *b = blvl__calloc(opt ? &opt->allocator : NULL, sizeof *b);
    if (!b)
        return blvl__nomem(err, "flatbuffer builder: the builder");
    if (opt)
        b->alloc = opt->allocator;
    b->a = &b->alloc;
    b->minalign = 4;
    b->gen = 1; /* the zeroed layouts are stale */
    *out = b;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl_fb_builder_free(blvl_fb_builder *b) {
    if (!b)
        return;
    blvl_allocator al = b->alloc; /* b itself is freed with it */
    const blvl_allocator *a = &al;
    if (b->buf)
        blvl__dealloc(a, b->buf, b->cap);
    if (b->fields)
        blvl__dealloc(a, b->fields, b->capfields * sizeof *b->fields);
    if (b->scratch)
        blvl__dealloc(a, b->scratch, b->scratch_cap);
    if (b->vtables)
        blvl__dealloc(a, b->vtables, b->capvt * sizeof *b->vtables);
    if (b->vt)
        blvl__dealloc(a, b->vt, b->vtcap);
    if (b->vtbytes)
        blvl__dealloc(a, b->vtbytes, b->vtbytes_cap);
    blvl__dealloc(a, b, sizeof *b);
}

void blvl_fb_builder_reset(blvl_fb_builder *b) {
    b->used = 0;
    b->gone = 0;
    b->tail = 0;
    b->minalign = 4;
    b->in_table = 0;
    b->nfields = 0;
    b->scratch_used = 0;
    b->nvt = 0;
    b->vtbytes_used = 0;
    b->gen++;
    b->status = BLVL_OK;
    blvl__ok(&b->err);
}

blvl_status blvl_fb_builder_status(const blvl_fb_builder *b, blvl_error *err) {
    if (err)
        *err = b->err;
    return b->status;
}

blvl_fb_ref blvl_fb_create_string(blvl_fb_builder *b, const char *s, size_t len) {
    if (!not_in_table(b, "string created inside a table"))
        return 0;
    if (len > BLVL_FB_MAX_SIZE) {
        set_error(b, BLVL_E_ARGUMENT, "string over 2 GiB");
        return 0;
    }
    if (!align_for(b, len + 1, 4))
        return 0;
    uint8_t *p = push(b, len + 1);
    if (!p)
        return 0;
    if (len)
        memcpy(p, s, len);
    if (!(p = push(b, 4)))
        return 0;
    put32(p, (uint32_t)len);
    return (blvl_fb_ref)b->used;
}

/* `zero`: clear the elements' bytes; a caller that writes every byte of them passes false and
 * saves a pass over vectors of hundreds of MiB. */
static uint8_t *vector_start(blvl_fb_builder *b, size_t count, size_t elem_size, size_t align,
                             bool zero) {
    if (!not_in_table(b, "vector created inside a table"))
        return NULL;
    if (elem_size && count > BLVL_FB_MAX_SIZE / elem_size) {
        set_error(b, BLVL_E_ARGUMENT, "vector over 2 GiB");
        return NULL;
    }
    if (align < 4)
        align = 4;
    if (!align_for(b, count * elem_size, align))
        return NULL;
    if (zero)
        return push(b, count * elem_size);
    if (!room(b, count * elem_size))
        return NULL;
    b->used += count * elem_size;
    return addr(b, b->used);
}

static blvl_fb_ref vector_end(blvl_fb_builder *b, size_t count) {
    uint8_t *p = push(b, 4);
    if (!p)
        return 0;
    put32(p, (uint32_t)count);
    return (blvl_fb_ref)b->used;
}

blvl_fb_ref blvl_fb_create_vector(blvl_fb_builder *b, const void *elems, size_t count,
                                  size_t elem_size, size_t align) {
    uint8_t *p = vector_start(b, count, elem_size, align, false);
    if (!p)
        return 0;
    if (count && elem_size)
        memcpy(p, elems, count * elem_size);
    return vector_end(b, count);
}

void *blvl__fb_builder_vector_start(blvl_fb_builder *b, size_t count, size_t elem_size,
                                    size_t align) {
    return vector_start(b, count, elem_size, align, false);
}

blvl_fb_ref blvl__fb_builder_vector_end(blvl_fb_builder *b, size_t count) {
    return vector_end(b, count);
}

/* Every distance inside the buffer is a difference of two end distances, so the tail's bytes
 * need not be in buf: only the alignment (align_for) and the size limit (room) count them. */
int blvl__fb_builder_tail_start(blvl_fb_builder *b, size_t count, size_t elem_size, size_t align) {
    if (!not_in_table(b, "vector created inside a table"))
        return 0;
    if (b->used || b->tail) {
        set_error(b, BLVL_E_ARGUMENT, "a tail vector is the first thing built");
        return 0;
    }
    if (elem_size && count > BLVL_FB_MAX_SIZE / elem_size) {
        set_error(b, BLVL_E_ARGUMENT, "vector over 2 GiB");
        return 0;
    }
    if (align < 4)
        align = 4;
    if ((count * elem_size) & (align - 1)) { /* the padding would follow it: not worth a case */
        set_error(b, BLVL_E_ARGUMENT, "a tail vector's bytes are a multiple of its alignment");
        return 0;
    }
    if (align > b->minalign)
        b->minalign = align;
    b->tail = count * elem_size;
    return 1;
}

size_t blvl__fb_builder_tail_size(const blvl_fb_builder *b) {
    return b->tail;
}

blvl_fb_ref blvl_fb_create_struct_vector(blvl_fb_builder *b, const blvl_fb_type *t,
                                         const void *elems, size_t count) {
    uint8_t *p = vector_start(b, count, t->size, t->align, t->has_padding);
    if (!p)
        return 0;
    if (!t->has_padding) {
        if (count)
            memcpy(p, elems, count * t->size);
    } else {
        for (size_t i = 0; i < count; i++)
            blvl_fb__struct_copy(t, p + i * t->size, (const uint8_t *)elems + i * t->size);
    }
    return vector_end(b, count);
}

blvl_fb_ref blvl_fb_create_ref_vector(blvl_fb_builder *b, const blvl_fb_ref *refs, size_t count) {
    uint8_t *p = vector_start(b, count, 4, 4, false);
    if (!p)
        return 0;
    size_t e0 = b->used; /* end distance of element 0 */
    for (size_t i = 0; i < count; i++) {
        size_t at = e0 - 4 * i;
        if (refs[i] == 0 || refs[i] >= at) {
            set_error(b, BLVL_E_ARGUMENT, "vector element refers to nothing built before it");
            return 0;
        }
        put32(p + 4 * i, (uint32_t)(at - refs[i]));
    }
    return vector_end(b, count);
}

void blvl_fb_table_start(blvl_fb_builder *b) {
    if (!not_in_table(b, "table started inside a table"))
        return;
    b->in_table = 1;
    b->nfields = 0;
    b->scratch_used = 0;
    b->seen = 0;
}

static pending *add_field(blvl_fb_builder *b, unsigned id, size_t size, size_t align) {
    if (b->status)
        return NULL;
    if (!b->in_table) {
        set_error(b, BLVL_E_ARGUMENT, "field added outside a table");
        return NULL;
    }
    if (id > 0x7FF0u || size > 0xFFFFu) {
        set_error(b, BLVL_E_ARGUMENT, "field id or size out of range");
        return NULL;
    }
    bool twice = false;
    if (id < 64) {
        twice = b->seen >> id & 1u;
        b->seen |= (uint64_t)1 << id;
    } else {
        for (size_t i = 0; i < b->nfields && !twice; i++)
            twice = b->fields[i].id == id;
    }
    if (twice) {
        set_error(b, BLVL_E_ARGUMENT, "field added twice");
        return NULL;
    }
    if (!reserve(b, (void **)&b->fields, &b->capfields, b->nfields + 1, sizeof *b->fields))
        return NULL;
    pending *f = &b->fields[b->nfields];
    f->id = (uint16_t)id;
    f->seq = (uint16_t)b->nfields++;
    f->is_ref = 0;
    f->align = (uint8_t)(align ? align : 1);
    f->size = (uint16_t)size;
    f->data = 0;
    f->pos = 0;
    return f;
}

static uint8_t *scratch(blvl_fb_builder *b, pending *f) {
    if (!reserve(b, (void **)&b->scratch, &b->scratch_cap, b->scratch_used + f->size, 1))
        return NULL;
    f->data = (uint32_t)b->scratch_used;
    b->scratch_used += f->size;
    return b->scratch + f->data;
}

void blvl_fb_add_raw(blvl_fb_builder *b, unsigned id, const void *bytes, size_t size,
                     size_t align) {
    if (align == 0 || (align & (align - 1)) || align > 16) {
        set_error(b, BLVL_E_ARGUMENT, "bad field alignment");
        return;
    }
    pending *f = add_field(b, id, size, align);
    uint8_t *p = f ? scratch(b, f) : NULL;
    if (p && size)
        memcpy(p, bytes, size);
}

void blvl_fb_add_struct(blvl_fb_builder *b, unsigned id, const blvl_fb_type *t, const void *v) {
    if (!v)
        return;
    pending *f = add_field(b, id, t->size, t->align);
    uint8_t *p = f ? scratch(b, f) : NULL;
    if (p)
        blvl_fb__struct_copy(t, p, v);
}

void blvl_fb_add_ref(blvl_fb_builder *b, unsigned id, blvl_fb_ref ref) {
    if (ref == 0)
        return;
    if (ref > b->used) {
        set_error(b, BLVL_E_ARGUMENT, "field refers to nothing built");
        return;
    }
    pending *f = add_field(b, id, 4, 4);
    if (f) {
        f->is_ref = 1;
        f->data = ref;
    }
}

static int field_order(const pending *x, const pending *y) {
    if (x->align != y->align)
        return x->align > y->align ? -1 : 1;
    return x->id < y->id ? -1 : (x->id > y->id);
}

/* The open table's slot among the kept layouts, and whether the layout kept there is its own. */
static layout *layout_slot(blvl_fb_builder *b, bool *same) {
    uint64_t h = b->nfields;
    for (size_t i = 0; i < b->nfields; i++)
        h = (h ^ field_key(&b->fields[i])) * 0x100000001B3ull;
    layout *L = &b->layouts[(h ^ h >> 32) & (LAYOUT_SLOTS - 1)];
    *same = L->gen == b->gen && L->n == b->nfields && b->nfields <= LAYOUT_FIELDS;
    for (size_t i = 0; *same && i < b->nfields; i++)
        *same = L->key[i] == field_key(&b->fields[i]);
    return L;
}

/* Sort the fields into the canonical order and place them; the object's size and alignment. */
static void lay_out(blvl_fb_builder *b, size_t *objsize, size_t *maxalign, unsigned *maxid) {
    /* Insertion sort: tables have few fields, and the order must be total. */
    for (size_t i = 1; i < b->nfields; i++) {
        pending t = b->fields[i];
        size_t j = i;
        while (j > 0 && field_order(&t, &b->fields[j - 1]) < 0) {
            b->fields[j] = b->fields[j - 1];
            j--;
        }
        b->fields[j] = t;
    }
    size_t off = 4;
    *maxalign = 4;
    *maxid = 0;
    for (size_t i = 0; i < b->nfields; i++) {
        pending *f = &b->fields[i];
        off = (off + f->align - 1) & ~(size_t)(f->align - 1);
        f->pos = (uint32_t)off;
        off += f->size;
        if (f->align > *maxalign)
            *maxalign = f->align;
        if (f->id + 1u > *maxid)
            *maxid = f->id + 1u;
    }
    *objsize = off;
}

/* The index in vtables of the first vtable equal to the one of the laid-out fields, written
 * first when there is none; SIZE_MAX on failure (the error set). */
static size_t find_vtable(blvl_fb_builder *b, size_t objsize, unsigned maxid) {
    size_t vtsize = 4 + 2 * (size_t)maxid;
    if (!reserve(b, (void **)&b->vt, &b->vtcap, vtsize, 1))
        return SIZE_MAX;
    memset(b->vt, 0, vtsize);
    b->vt[0] = (uint8_t)vtsize;
    b->vt[1] = (uint8_t)(vtsize >> 8);
    b->vt[2] = (uint8_t)objsize;
    b->vt[3] = (uint8_t)(objsize >> 8);
    for (size_t i = 0; i < b->nfields; i++) {
        pending *f = &b->fields[i];
        b->vt[4 + 2 * f->id] = (uint8_t)f->pos;
        b->vt[5 + 2 * f->id] = (uint8_t)(f->pos >> 8);
    }
    for (size_t i = 0; i < b->nvt; i++) {
        const uint8_t *old = b->vtbytes + b->vtables[i].copy;
        if (blvl_fb_u16(old) == vtsize && memcmp(old, b->vt, vtsize) == 0)
            return i;
    }
    uint8_t *p = push(b, vtsize);
    if (!p || !reserve(b, (void **)&b->vtables, &b->capvt, b->nvt + 1, sizeof *b->vtables) ||
        !reserve(b, (void **)&b->vtbytes, &b->vtbytes_cap, b->vtbytes_used + vtsize, 1))
        return SIZE_MAX;
    memcpy(p, b->vt, vtsize);
    memcpy(b->vtbytes + b->vtbytes_used, b->vt, vtsize);
    b->vtables[b->nvt] = (vtable_rec){(uint32_t)b->used, (uint32_t)b->vtbytes_used};
    b->vtbytes_used += vtsize;
    return b->nvt++;
}

blvl_fb_ref blvl_fb_table_end(blvl_fb_builder *b) {
    if (b->status)
        return 0;
    if (!b->in_table) {
        set_error(b, BLVL_E_ARGUMENT, "table_end without table_start");
        return 0;
    }
    b->in_table = 0;
    bool same;
    layout *L = layout_slot(b, &same);
    size_t objsize, maxalign;
    unsigned maxid = 0;
    if (same) {
        objsize = L->objsize, maxalign = L->maxalign;
        for (size_t i = 0; i < b->nfields; i++)
            b->fields[i].pos = L->pos[i];
    } else {
        lay_out(b, &objsize, &maxalign, &maxid);
        if (objsize > 0xFFFF || 4 + 2 * (size_t)maxid > 0xFFFF) {
            set_error(b, BLVL_E_ARGUMENT, "table too large for a vtable");
            return 0;
        }
    }
    if (!align_for(b, objsize, maxalign) || !push(b, objsize))
        return 0;
    size_t d = b->used;
    uint8_t *obj = addr(b, d);
    for (size_t i = 0; i < b->nfields; i++) {
        pending *f = &b->fields[i];
        if (f->is_ref) {
            size_t at = d - f->pos;
            if (f->data >= at) {
                set_error(b, BLVL_E_ARGUMENT, "field refers to nothing built before it");
                return 0;
            }
            put32(obj + f->pos, (uint32_t)(at - f->data));
        } else if (f->size) {
            memcpy(obj + f->pos, b->scratch + f->data, f->size);
        }
    }
    size_t vi = same ? L->vtable : find_vtable(b, objsize, maxid);
    if (vi == SIZE_MAX)
        return 0;
    if (!same && b->nfields <= LAYOUT_FIELDS) { /* keep it, each field at the place it was added */
        *L = (layout){.gen = b->gen,
                      .n = (uint32_t)b->nfields,
                      .objsize = (uint32_t)objsize,
                      .maxalign = (uint32_t)maxalign,
                      .vtable = (uint32_t)vi};
        for (size_t i = 0; i < b->nfields; i++) {
            L->key[b->fields[i].seq] = field_key(&b->fields[i]);
            L->pos[b->fields[i].seq] = (uint16_t)b->fields[i].pos;
        }
    }
    /* soffset = table address - vtable address = vd - d in end distances. */
    size_t vd = b->vtables[vi].end;
    put32(addr(b, d), (uint32_t)(int32_t)((int64_t)vd - (int64_t)d));
    return (blvl_fb_ref)d;
}

blvl_status blvl_fb_finish_id(blvl_fb_builder *b, blvl_fb_ref root, const char *file_identifier,
                              const uint8_t **data, size_t *size, blvl_error *err) {
    if (b->in_table)
        set_error(b, BLVL_E_ARGUMENT, "finish inside a table");
    if (!b->status && (root == 0 || root > b->used))
        set_error(b, BLVL_E_ARGUMENT, "root refers to nothing built");
    if (!b->status && file_identifier && strlen(file_identifier) != 4)
        set_error(b, BLVL_E_ARGUMENT, "a file identifier is 4 characters");
    size_t head = file_identifier ? 8 : 4;
    if (!b->status && align_for(b, head, b->minalign)) {
        if (file_identifier) {
            uint8_t *id = push(b, 4);
            if (id)
                memcpy(id, file_identifier, 4);
        }
        uint8_t *p = b->status ? NULL : push(b, 4);
        if (p)
            put32(p, (uint32_t)(b->used - root));
    }
    if (b->status) {
        if (err)
            *err = b->err;
        return b->status;
    }
    *data = addr(b, b->used);
    *size = b->used - b->gone;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_fb_finish(blvl_fb_builder *b, blvl_fb_ref root, const uint8_t **data, size_t *size,
                           blvl_error *err) {
    return blvl_fb_finish_id(b, root, NULL, data, size, err);
}

blvl__fb_mark blvl__fb_builder_mark_now(const blvl_fb_builder *b) {
    return (blvl__fb_mark){b->used, b->minalign, b->nvt};
}

void blvl__fb_builder_forget(blvl_fb_builder *b) {
    if (not_in_table(b, "bytes dropped inside a table"))
        b->gone = b->used;
}

int blvl__fb_builder_rewind(blvl_fb_builder *b, const blvl__fb_mark *m) {
    if (!not_in_table(b, "rewound inside a table"))
        return 0;
    if (m->used > b->used || m->nvt > b->nvt) {
        set_error(b, BLVL_E_ARGUMENT, "rewound to a mark not of this build");
        return 0;
    }
    b->used = b->gone = m->used;
    b->minalign = m->minalign;
    b->gen++; /* the kept layouts may name vtables dropped here */
    if (m->nvt < b->nvt)
        b->vtbytes_used = b->vtables[m->nvt].copy;
    b->nvt = m->nvt;
    return 1;
}

const uint8_t *blvl__fb_builder_held(const blvl_fb_builder *b, size_t *size) {
    *size = b->used - b->gone;
    return b->buf ? addr(b, b->used) : NULL;
}
