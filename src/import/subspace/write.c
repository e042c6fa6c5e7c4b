/* blvl_subspace_write: the parts in file order, each field as the map holds it. A read map
 * gives back its bytes (every chunk, pad and gap was kept). A hand-built map may leave sizes and
 * offsets zero: the writer then computes bfSize (where the records start), bfOffBits (after the
 * palette and gap), biSize (40), the eLVL total size, a chunk's alignment (zeros), an ATTR
 * chunk's bytes from its attr ("key=value") and a REGN chunk's bytes from its region's
 * sub-chunks. Nothing is checked beyond what laying the bytes out needs: tests write malformed
 * files with it. Two passes over the same code: the first (out == NULL) only counts. */
#include <stdio.h>
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/subspace/subspace_internal.h"

typedef struct wr {
    uint8_t *out; /* NULL: count only */
    uint64_t pos;
} wr;

static void put(wr *w, const void *p, uint64_t n) {
    if (w->out && n && p)
        memcpy(w->out + w->pos, p, (size_t)n);
    else if (w->out && n)
        memset(w->out + w->pos, 0, (size_t)n);
    w->pos += n;
}
static void zeros(wr *w, uint64_t n) {
    put(w, NULL, n);
}
static void u16(wr *w, uint16_t v) {
    uint8_t b[2];
    blvl_le_put16(b, v);
    put(w, b, 2);
}
static void u32(wr *w, uint32_t v) {
    uint8_t b[4];
    blvl_le_put32(b, v);
    put(w, b, 4);
}
static void patch32(wr *w, uint64_t at, uint32_t v) {
    if (w->out)
        blvl_le_put32(w->out + at, v);
}

/* A chunk: its bytes, or (when it has none) what `body` writes; then its alignment. */
typedef void (*body_fn)(wr *w, const void *ctx);

static void chunk(wr *w, const blvl_subspace_chunk *c, body_fn body, const void *ctx) {
    put(w, c->type, 4);
    uint64_t size_at = w->pos;
    u32(w, c->size);
    uint64_t start = w->pos;
    uint32_t size = c->size;
    if (!c->bytes && body) {
        body(w, ctx);
        size = (uint32_t)(w->pos - start);
        patch32(w, size_at, size);
    } else {
        put(w, c->bytes, c->size);
    }
    if (c->offset || c->pad_size)
        put(w, c->pad, c->pad_size);
    else
        zeros(w, ss_pad(size));
}

static void attr_body(wr *w, const void *ctx) {
    const blvl_subspace_attr *t = ctx;
    if (t->key)
        put(w, t->key, strlen(t->key));
    if (t->value) {
        put(w, "=", 1);
        put(w, t->value, strlen(t->value));
    }
}

static void region_body(wr *w, const void *ctx) {
    const blvl_subspace_region *r = ctx;
    for (uint32_t i = 0; r->subs && i < r->sub_count; i++)
        chunk(w, &r->subs[i], NULL, NULL);
}

static void elvl(wr *w, const blvl_subspace_elvl *e) {
    uint64_t at = w->pos;
    put(w, "elvl", 4);
    u32(w, e->total_size);
    u32(w, e->reserved);
    for (uint32_t i = 0; e->chunks && i < e->chunk_count; i++) {
        const blvl_subspace_chunk *c = &e->chunks[i];
        body_fn fn = NULL;
        const void *ctx = NULL;
        for (uint32_t k = 0; !fn && e->attrs && k < e->attr_count; k++)
            if (e->attrs[k].chunk == i)
                fn = attr_body, ctx = &e->attrs[k];
        for (uint32_t k = 0; !fn && e->regions && k < e->region_count; k++)
            if (e->regions[k].chunk == i)
                fn = region_body, ctx = &e->regions[k];
        chunk(w, c, fn, ctx);
    }
    if (!e->total_size)
        patch32(w, at + 4, (uint32_t)(w->pos - at));
}

static void bmp(wr *w, const blvl_subspace_bmp *m, uint64_t *file_size_at) {
    uint32_t hs = m->header_size ? m->header_size : SS_BMP_INFO_MIN;
    uint32_t extra = hs > SS_BMP_INFO_MIN ? hs - SS_BMP_INFO_MIN : 0;
    uint64_t pal = 4u * (uint64_t)m->palette_count;
    uint32_t off =
        m->data_offset ? m->data_offset : (uint32_t)(SS_BMP_FILE_HEADER + hs + pal + m->gap_size);
    put(w, "BM", 2);
    *file_size_at = w->pos;
    u32(w, m->file_size);
    u32(w, m->reserved);
    u32(w, off);
    u32(w, hs);
    u32(w, (uint32_t)m->width);
    u32(w, (uint32_t)m->height);
    u16(w, m->planes);
    u16(w, m->bits);
    u32(w, m->compression);
    u32(w, m->image_size);
    u32(w, m->x_ppm);
    u32(w, m->y_ppm);
    u32(w, m->colors_used);
    u32(w, m->colors_important);
    put(w, m->header_extra, extra);
    put(w, m->palette, pal);
    put(w, m->gap, m->gap_size);
    if (w->pos < off)
        zeros(w, off - w->pos);
    put(w, m->data, m->data_size);
}

static void lay(wr *w, const blvl_subspace *map) {
    uint64_t file_size_at = 0;
    if (map->bmp) {
        bmp(w, map->bmp, &file_size_at);
        if (map->elvl && map->bmp->reserved > w->pos)
            zeros(w, map->bmp->reserved - w->pos);
    }
    if (map->elvl)
        elvl(w, map->elvl);
    put(w, map->gap, map->gap_size);
    if (map->tiles_offset > w->pos)
        zeros(w, map->tiles_offset - w->pos);
    if (map->bmp && !map->bmp->file_size)
        patch32(w, file_size_at, (uint32_t)w->pos);
    for (uint32_t i = 0; map->records && i < map->record_count; i++)
        u32(w, map->records[i]);
    put(w, map->tail, map->tail_size);
}

blvl_status blvl_subspace_write(void **out, size_t *size, const blvl_subspace *map,
                                const blvl_options *opt, blvl_error *err) {
    if (!map || !out || !size)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "blvl_subspace_write: map, out and size must be set");
    *out = NULL;
    *size = 0;
    wr w = {0};
    lay(&w, map);
    if (w.pos > SIZE_MAX / 2)
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_subspace_write: %llu bytes",
                          (unsigned long long)w.pos);
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    w.out = blvl__alloc_sized(a, (size_t)w.pos);
    if (!w.out)
        return blvl__nomem(err, "a %llu-byte .lvl", (unsigned long long)w.pos);
    uint64_t n = w.pos;
    w.pos = 0;
    lay(&w, map);
    *out = w.out;
    *size = (size_t)n;
    blvl__ok(err);
    return BLVL_OK;
}
