/* The writer: every section is chunked and compressed (all chunks of all sections share one
 * worker pool), then laid out by layout.c. The bytes depend on the sections alone. */
#include <string.h>

#include "container/alloc.h"
#include "container/error.h"
#include "container/format.h"
#include "container/layout.h"
#include "payload/pack.h"

typedef struct baked {
    blvl_entry *entries;
    blvl_pack_item *items;
    uint32_t n;
    uint8_t *region;
    uint64_t floor, file_size;
    const blvl_allocator *a;
} baked;

static void baked_free(baked *b) {
    if (b->items)
        for (uint32_t i = 0; i < b->n; i++)
            blvl__dealloc(b->a, b->items[i].out, b->items[i].out_size);
    blvl__dealloc(b->a, b->items, (b->n ? b->n : 1) * sizeof *b->items);
    blvl__dealloc(b->a, b->entries, (b->n ? b->n : 1) * sizeof *b->entries);
    blvl__dealloc(b->a, b->region, (size_t)b->floor);
    memset(b, 0, sizeof *b);
}

static blvl_status bake(const blvl_section_in *sections, size_t count,
                        const blvl_write_options *opt, baked *b, blvl_error *err) {
    memset(b, 0, sizeof *b);
    b->a = opt ? opt->allocator : NULL;
    if (count && !sections)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no sections");
    if (count > (BLVL_FLOOR_MAX - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE)
        return blvl__fail(err, BLVL_E_ARGUMENT, "%zu sections do not fit a reserved region", count);
    b->n = (uint32_t)count;
    b->entries = blvl__calloc(b->a, (count ? count : 1) * sizeof *b->entries);
    b->items = blvl__calloc(b->a, (count ? count : 1) * sizeof *b->items);
    if (!b->entries || !b->items) {
        baked_free(b);
        return blvl__fail(err, BLVL_E_NOMEM, "no memory for %zu sections", count);
    }
    for (size_t i = 0; i < count; i++) {
        const blvl_section_in *s = &sections[i];
        if (!s->tag || strnlen(s->tag, BLVL_TAG_MAX + 1) > BLVL_TAG_MAX ||
            !blvl_tag_valid(s->tag, NULL)) {
            baked_free(b);
            return blvl__fail(err, BLVL_E_WRITE_TAG,
                              "section %zu: tag is not 1..16 bytes of [a-z0-9._-]", i);
        }
        if (s->size && !s->data) {
            baked_free(b);
            return blvl__fail(err, BLVL_E_ARGUMENT, "section '%s': no data", s->tag);
        }
        strcpy(b->entries[i].tag, s->tag);
        b->entries[i].version = s->version;
        b->entries[i].flags = s->flags;
        b->entries[i].raw_size = s->size;
        b->items[i].raw = s->data;
        b->items[i].size = s->size;
    }
    /* Tags, flags and sizes are checked before any compression work is spent. */
    blvl_status st =
        blvl__layout_plan(b->entries, b->n, b->a, &b->region, &b->floor, &b->file_size, err);
    if (st != BLVL_OK) {
        baked_free(b);
        return st;
    }
    blvl__dealloc(b->a, b->region, (size_t)b->floor);
    b->region = NULL;
    st = blvl__pack_many(b->items, b->n, opt ? opt->threads : 0, b->a, opt ? opt->progress : NULL,
                         opt ? opt->progress_user : NULL, err);
    if (st != BLVL_OK) {
        baked_free(b);
        return st;
    }
    for (uint32_t i = 0; i < b->n; i++) {
        b->entries[i].packed_size = b->items[i].out_size;
        blvl_digest(b->items[i].out, b->items[i].out_size, b->entries[i].digest);
    }
    st = blvl__layout_plan(b->entries, b->n, b->a, &b->region, &b->floor, &b->file_size, err);
    if (st != BLVL_OK)
        baked_free(b);
    return st;
}

blvl_status blvl_write_memory(const blvl_section_in *sections, size_t count,
                              const blvl_write_options *opt, uint8_t **out, size_t *out_size,
                              blvl_error *err) {
    if (!out || !out_size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output");
    *out = NULL;
    *out_size = 0;
    baked b;
    blvl_status st = bake(sections, count, opt, &b, err);
    if (st != BLVL_OK)
        return st;
    if (b.file_size > SIZE_MAX) {
        baked_free(&b);
        return blvl__fail(err, BLVL_E_NOMEM, "a level of %llu bytes does not fit in memory",
                          (unsigned long long)b.file_size);
    }
    uint8_t *buf = blvl__calloc(b.a, (size_t)b.file_size);
    if (!buf) {
        baked_free(&b);
        return blvl__fail(err, BLVL_E_NOMEM, "no memory for a level of %llu bytes",
                          (unsigned long long)b.file_size);
    }
    memcpy(buf, b.region, (size_t)b.floor);
    for (uint32_t i = 0; i < b.n; i++)
        memcpy(buf + b.entries[i].offset, b.items[i].out, b.items[i].out_size);
    *out = buf;
    *out_size = (size_t)b.file_size;
    baked_free(&b);
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_write_file(const char *path, const blvl_section_in *sections, size_t count,
                            const blvl_write_options *opt, blvl_error *err) {
    if (!path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no path");
    baked b;
    blvl_status st = bake(sections, count, opt, &b, err);
    if (st != BLVL_OK)
        return st;
    blvl_out_file f;
    st = blvl__out_open(&f, path, err);
    uint64_t at = b.floor;
    if (st == BLVL_OK)
        st = blvl__out_write(&f, b.region, (size_t)b.floor, err);
    for (uint32_t i = 0; i < b.n && st == BLVL_OK; i++) {
        st = blvl__out_pad(&f, &at, b.entries[i].offset, err);
        if (st == BLVL_OK)
            st = blvl__out_write(&f, b.items[i].out, b.items[i].out_size, err);
        at += b.items[i].out_size;
    }
    baked_free(&b);
    if (st == BLVL_OK)
        return blvl__out_commit(&f, err);
    if (f.tmp)
        blvl__out_abort(&f);
    return st;
}
