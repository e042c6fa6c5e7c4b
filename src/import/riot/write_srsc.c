/* blvl_riot_srsc_write: the header, then every body, fill and the directory laid end to end in
 * the order of their offsets as the container holds them (ties: an empty item first, then
 * bodies in directory order, fills, the directory). A container read back has no gap after its
 * header (the reader made fills of the gaps), so this gives its bytes again; one built by hand
 * (every offset 0) gets its bodies after the header in directory order and the directory after
 * them. The offsets written are the ones this layout gives. It checks nothing a reader refuses;
 * it refuses only a file past the format's 32-bit offsets. */
#include <stdlib.h>
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/riot/riot_internal.h"

enum { BODY, FILL, DIR };

typedef struct slot {
    uint64_t key, size;
    int kind;
    uint32_t index;
} slot;

static int by_key(const void *x, const void *y) {
    const slot *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    bool ea = a->size == 0, eb = b->size == 0;
    if (ea != eb)
        return ea ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

blvl_status blvl_riot_srsc_write(void **outp, size_t *size, const blvl_riot_srsc *c,
                                 const blvl_options *opt, blvl_error *err) {
    blvl__ok(err);
    if (!c || !outp || !size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_riot_srsc_write: NULL argument");
    *outp = NULL;
    *size = 0;
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    uint32_t nrec = c->records ? c->record_count : 0;
    uint32_t nfill = c->fills ? c->fill_count : 0;
    size_t n = (size_t)nrec + nfill + 1;
    slot *s = blvl__alloc(a, n * sizeof *s);
    if (!s)
        return blvl__nomem(err, "%zu layout slots", n);
    uint64_t total = RT_HEADER_SIZE;
    size_t k = 0;
    for (uint32_t i = 0; i < nrec; i++, k++) {
        s[k] = (slot){c->records[i].offset, c->records[i].size, BODY, i};
        total += c->records[i].size;
    }
    for (uint32_t i = 0; i < nfill; i++, k++) {
        s[k] = (slot){c->fills[i].offset, c->fills[i].size, FILL, i};
        total += c->fills[i].size;
    }
    s[k] = (slot){c->dir_offset, (uint64_t)nrec * RT_ENTRY_SIZE, DIR, 0};
    total += s[k].size;
    if (total > UINT32_MAX) {
        blvl__dealloc(a, s, n * sizeof *s);
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "blvl_riot_srsc_write: %llu bytes, past the format's 32-bit offsets",
                          (unsigned long long)total);
    }
    qsort(s, n, sizeof *s, by_key);
    uint8_t *buf = blvl__alloc_sized(a, (size_t)total);
    if (!buf) {
        blvl__dealloc(a, s, n * sizeof *s);
        return blvl__nomem(err, "%llu bytes", (unsigned long long)total);
    }
    /* first pass: where each body and the directory go */
    uint64_t pos = RT_HEADER_SIZE, dir = 0;
    for (size_t i = 0; i < n; i++) {
        s[i].key = pos;
        if (s[i].kind == DIR)
            dir = pos;
        pos += s[i].size;
    }
    memcpy(buf, "SRSC", 4);
    blvl_le_put16(buf + 4, c->version);
    blvl_le_put32(buf + 6, (uint32_t)dir);
    blvl_le_put16(buf + 10, (uint16_t)nrec);
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = buf + s[i].key;
        const uint8_t *src = NULL;
        if (s[i].kind == BODY) {
            const blvl_riot_record *r = &c->records[s[i].index];
            src = r->bytes;
            uint8_t *e = buf + dir + (uint64_t)s[i].index * RT_ENTRY_SIZE;
            blvl_le_put16(e, r->type);
            blvl_le_put16(e + 2, r->id);
            blvl_le_put16(e + 4, r->group);
            blvl_le_put32(e + 6, (uint32_t)s[i].key);
            blvl_le_put32(e + 10, r->size);
        } else if (s[i].kind == FILL) {
            src = c->fills[s[i].index].bytes;
        } else {
            continue; /* the directory: written with its bodies */
        }
        if (src && s[i].size)
            memcpy(p, src, (size_t)s[i].size);
        else if (s[i].size)
            memset(p, 0, (size_t)s[i].size);
    }
    blvl__dealloc(a, s, n * sizeof *s);
    *outp = buf;
    *size = (size_t)total;
    return BLVL_OK;
}
