/* blvl_riot_srsc_read, in the order its refusals come (docs/IMPORT-RIOT.md, "Rules"):
 *   1. the header: the size limit, 12 bytes, the magic;
 *   2. the directory inside the file, after the header;
 *   3. each entry in directory order: its body after the header and inside the file, no known
 *      type twice;
 *   4. no two of the bodies and the directory overlapping (an empty body may sit at the edge of
 *      another, not inside it).
 * Then every byte after the header that no body or the directory covers becomes a fill, cut at
 * every item's offset, so the writer lays the items out again in offset order and gets the
 * same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/riot/riot_internal.h"

/* A body (index < count) or the directory (index == count), for the overlap scan. */
typedef struct item {
    uint64_t start, end;
    uint32_t index;
} item;

static int by_offset(const void *x, const void *y) {
    const item *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    /* an empty item first: it sits at the edge of the one starting there */
    bool ea = a->end == a->start, eb = b->end == b->start;
    if (ea != eb)
        return ea ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static bool known(uint16_t type) {
    return type == BLVL_RIOT_LEVEL || type == BLVL_RIOT_LAYERS || type == BLVL_RIOT_GROUPS ||
           type == BLVL_RIOT_OBJECTS;
}

static blvl_status header(const uint8_t *b, size_t size, blvl_error *err) {
    if (size > BLVL_RIOT_MAX_FILE)
        return blvl__fail_source(err, "SRSC", "file", BLVL_RIOT_MAX_FILE, "file-size",
                                 "%zu bytes, over the limit of %u", size, BLVL_RIOT_MAX_FILE);
    if (size < RT_HEADER_SIZE) {
        const char *field = size < 4    ? "magic"
                            : size < 6  ? "version"
                            : size < 10 ? "dirOffset"
                                        : "recordCount";
        uint64_t at = size < 4 ? 0 : size < 6 ? 4 : size < 10 ? 6 : 10;
        return blvl__fail_source(err, "SRSC", field, at, "header-size",
                                 "the file has %zu bytes, the header needs 12", size);
    }
    if (memcmp(b, "SRSC", 4) != 0)
        return blvl__fail_source(err, "SRSC", "magic", 0, "magic",
                                 "bytes %02x %02x %02x %02x are not \"SRSC\"", b[0], b[1], b[2],
                                 b[3]);
    return BLVL_OK;
}

static void entry_name(const uint8_t *e, uint32_t i, char *buf, size_t n) {
    snprintf(buf, n, "the body of entry %u (record 0x%04x)", i, blvl_le16(e));
}

static blvl_status entries(const uint8_t *b, size_t size, item *items, blvl_error *err) {
    uint32_t dir = blvl_le32(b + 6);
    uint16_t count = blvl_le16(b + 10);
    int64_t seen[4] = {-1, -1, -1, -1};
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = b + dir + (uint64_t)i * RT_ENTRY_SIZE;
        uint64_t at = dir + (uint64_t)i * RT_ENTRY_SIZE;
        char field[32];
        uint16_t type = blvl_le16(e);
        uint32_t off = blvl_le32(e + 6), len = blvl_le32(e + 10);
        if (off < RT_HEADER_SIZE) {
            snprintf(field, sizeof field, "entry[%u].offset", i);
            return blvl__fail_source(err, "directory", field, at + 6, "record-range",
                                     "body offset %u is inside the 12-byte header", off);
        }
        if ((uint64_t)off + len > size) {
            snprintf(field, sizeof field, "entry[%u].size", i);
            return blvl__fail_source(err, "directory", field, at + 10, "record-range",
                                     "the body %u..%llu runs past the file's %zu bytes", off,
                                     (unsigned long long)off + len, size);
        }
        if (known(type)) {
            int k = type == BLVL_RIOT_OBJECTS ? 3 : type;
            if (seen[k] >= 0) {
                snprintf(field, sizeof field, "entry[%u].type", i);
                return blvl__fail_source(err, "directory", field, at, "record-repeated",
                                         "a second record 0x%04x (the first is entry %lld)", type,
                                         (long long)seen[k]);
            }
            seen[k] = i;
        }
        items[i] = (item){off, (uint64_t)off + len, i};
    }
    items[count] = (item){dir, dir + (uint64_t)count * RT_ENTRY_SIZE, count};
    return BLVL_OK;
}

static blvl_status overlaps(const uint8_t *b, item *items, uint32_t n, blvl_error *err) {
    qsort(items, n, sizeof *items, by_offset);
    uint32_t dir = blvl_le32(b + 6), count = n - 1;
    uint64_t reach = RT_HEADER_SIZE;
    const item *owner = NULL;
    for (uint32_t k = 0; k < n; k++) {
        const item *it = &items[k];
        if (it->start < reach && owner) {
            char mine[64], theirs[64], field[32];
            uint64_t at;
            if (it->index == count) {
                snprintf(mine, sizeof mine, "the directory");
                snprintf(field, sizeof field, "dirOffset");
                at = 6;
            } else {
                entry_name(b + dir + (uint64_t)it->index * RT_ENTRY_SIZE, it->index, mine,
                           sizeof mine);
                snprintf(field, sizeof field, "entry[%u].offset", it->index);
                at = dir + (uint64_t)it->index * RT_ENTRY_SIZE + 6;
            }
            if (owner->index == count)
                snprintf(theirs, sizeof theirs, "the directory");
            else
                entry_name(b + dir + (uint64_t)owner->index * RT_ENTRY_SIZE, owner->index, theirs,
                           sizeof theirs);
            return blvl__fail_source(
                err, it->index == count ? "SRSC" : "directory", field, at, "record-overlap",
                "%s (%llu..%llu) overlaps %s (%llu..%llu)", mine, (unsigned long long)it->start,
                (unsigned long long)it->end, theirs, (unsigned long long)owner->start,
                (unsigned long long)owner->end);
        }
        if (it->end > reach || !owner) {
            reach = it->end > reach ? it->end : reach;
            owner = it;
        }
    }
    return BLVL_OK;
}

/* The gaps between the items sorted by offset (and after the last one), cut at every item's
 * offset; `fills` NULL counts them. */
static uint32_t gaps(const item *items, uint32_t n, size_t size, struct blvl_riot_fill *fills) {
    uint32_t count = 0;
    uint64_t pos = RT_HEADER_SIZE;
    for (uint32_t k = 0; k <= n; k++) {
        uint64_t start = k < n ? items[k].start : size;
        if (start > pos) {
            if (fills)
                fills[count] = (struct blvl_riot_fill){(uint32_t)pos, (uint32_t)(start - pos), 0};
            count++;
        }
        if (k < n && items[k].end > pos)
            pos = items[k].end;
    }
    return count;
}

static blvl_status copy_out(const uint8_t *b, size_t size, const item *items, uint32_t n,
                            const blvl_allocator *a, blvl_riot_srsc *c, blvl_error *err) {
    c->version = blvl_le16(b + 4);
    c->dir_offset = blvl_le32(b + 6);
    uint16_t count = blvl_le16(b + 10);
    if (count) {
        c->records = blvl__calloc_n(a, count, sizeof *c->records);
        if (!c->records)
            return blvl__nomem(err, "%u records", count);
        c->record_count = count;
    }
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = b + c->dir_offset + (uint64_t)i * RT_ENTRY_SIZE;
        blvl_riot_record *r = &c->records[i];
        r->type = blvl_le16(e), r->id = blvl_le16(e + 2), r->group = blvl_le16(e + 4);
        r->offset = blvl_le32(e + 6), r->size = blvl_le32(e + 10);
        if (r->size) {
            r->bytes = blvl__alloc(a, r->size);
            if (!r->bytes)
                return blvl__nomem(err, "a %u-byte record", r->size);
            memcpy(r->bytes, b + r->offset, r->size);
        }
    }
    uint32_t fc = gaps(items, n, size, NULL);
    if (fc) {
        c->fills = blvl__calloc_n(a, fc, sizeof *c->fills);
        if (!c->fills)
            return blvl__nomem(err, "%u fills", fc);
        c->fill_count = fc;
        gaps(items, n, size, c->fills);
    }
    for (uint32_t i = 0; i < fc; i++) {
        struct blvl_riot_fill *f = &c->fills[i];
        f->bytes = blvl__alloc(a, f->size);
        if (!f->bytes)
            return blvl__nomem(err, "a %u-byte fill", f->size);
        memcpy(f->bytes, b + f->offset, f->size);
    }
    return BLVL_OK;
}

blvl_status blvl_riot_srsc_read(blvl_riot_srsc **out, const void *data, size_t size,
                                const blvl_options *opt, blvl_error *err) {
    blvl__ok(err);
    if (!out || (!data && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_riot_srsc_read: NULL data or out");
    *out = NULL;
    const uint8_t *b = data;
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    blvl_status st = header(b, size, err);
    if (st)
        return st;
    uint32_t dir = blvl_le32(b + 6);
    uint16_t count = blvl_le16(b + 10);
    if (dir < RT_HEADER_SIZE)
        return blvl__fail_source(err, "SRSC", "dirOffset", 6, "directory-range",
                                 "directory offset %u is inside the 12-byte header", dir);
    uint64_t dir_end = dir + (uint64_t)count * RT_ENTRY_SIZE;
    if (dir_end > size)
        return blvl__fail_source(err, "SRSC", "dirOffset", 6, "directory-range",
                                 "the directory of %u entries (%u..%llu) runs past the file's "
                                 "%zu bytes",
                                 count, dir, (unsigned long long)dir_end, size);
    /* count + 1 items: bounded by the u16 count, and the directory is in the file */
    item *items = blvl__alloc(a, ((size_t)count + 1) * sizeof *items);
    if (!items)
        return blvl__nomem(err, "%u directory entries", count);
    st = entries(b, size, items, err);
    if (!st)
        st = overlaps(b, items, (uint32_t)count + 1, err);
    blvl_riot_srsc *c = NULL;
    if (!st) {
        c = blvl__calloc(a, sizeof *c);
        if (!c)
            st = blvl__nomem(err, "the container");
        else {
            c->allocator = a ? *a : (blvl_allocator){0};
            st = copy_out(b, size, items, (uint32_t)count + 1, a, c, err);
        }
    }
    blvl__dealloc(a, items, ((size_t)count + 1) * sizeof *items);
    if (st) {
        blvl_riot_srsc_free(c);
        return st;
    }
    *out = c;
    return BLVL_OK;
}

int32_t blvl_riot_srsc_find(const blvl_riot_srsc *c, uint16_t type) {
    for (uint32_t i = 0; c && c->records && i < c->record_count; i++)
        if (c->records[i].type == type)
            return (int32_t)i;
    return -1;
}

void blvl__import_riot_srsc_clear(blvl_riot_srsc *c, const blvl_allocator *a) {
    for (uint32_t i = 0; c->records && i < c->record_count; i++)
        blvl__dealloc(a, c->records[i].bytes, c->records[i].size);
    blvl__dealloc(a, c->records, (size_t)c->record_count * sizeof *c->records);
    for (uint32_t i = 0; c->fills && i < c->fill_count; i++)
        blvl__dealloc(a, c->fills[i].bytes, c->fills[i].size);
    blvl__dealloc(a, c->fills, (size_t)c->fill_count * sizeof *c->fills);
    c->records = NULL;
    c->fills = NULL;
    c->record_count = 0;
    c->fill_count = 0;
}

void blvl_riot_srsc_free(blvl_riot_srsc *c) {
    if (!c)
        return;
    blvl_allocator al = c->allocator; /* c itself goes last */
    const blvl_allocator *a = &al;
    blvl__import_riot_srsc_clear(c, a);
    blvl__dealloc(a, c, sizeof *c);
}
