/* The compacting copy: every kept section's packed bytes are copied verbatim, after their
 * digest and chunk index are checked, into a freshly laid out level. Nothing is decoded, so a
 * section this library does not understand survives with its tag, flags and version, and the
 * identity is the same whenever every identity section is kept. */
#include <string.h>

#include "container/alloc.h"
#include "container/error.h"
#include "container/layout.h"
#include "container/level.h"
#include "payload/payload.h"

blvl_status blvl_rewrite_file(const char *in_path, const char *out_path, blvl_keep_fn keep,
                              void *keep_user, const blvl_options *opt, blvl_error *err) {
    if (!in_path || !out_path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no input or no output path");
    blvl_level *lv;
    blvl_status st = blvl_open_file(&lv, in_path, opt, err);
    if (st != BLVL_OK)
        return st;
    const blvl_allocator *a = opt ? opt->allocator : NULL;
    uint32_t count = blvl_count(lv), n = 0;
    blvl_entry *entries = blvl__alloc(a, (count ? count : 1) * sizeof *entries);
    const uint8_t **bytes = blvl__alloc(a, (count ? count : 1) * sizeof *bytes);
    uint8_t *region = NULL;
    uint64_t floor = 0, file_size = 0;
    if (!entries || !bytes) {
        st = blvl__fail(err, BLVL_E_NOMEM, "no memory for %u entries", count);
        goto out;
    }
    for (uint32_t i = 0; i < count; i++) {
        const blvl_entry *e = blvl_entry_at(lv, i);
        if (keep && !keep(keep_user, e))
            continue;
        blvl_section packed;
        if ((st = blvl_read_packed(lv, e->tag, &packed, err)) != BLVL_OK)
            goto out;
        /* A mapped level hands out its own bytes: nothing to free, valid until close. */
        blvl_chunk *chunks = NULL;
        uint32_t nch = 0;
        st = blvl__chunks_parse(packed.data, packed.size, e->raw_size, a, &chunks, &nch, err);
        blvl__dealloc(a, chunks, (size_t)nch * sizeof *chunks);
        if (st != BLVL_OK) {
            char msg[sizeof err->message];
            if (err) {
                memcpy(msg, err->message, sizeof msg);
                blvl__fail(err, st, "section '%s': %s", e->tag, msg);
            }
            goto out;
        }
        entries[n] = *e;
        bytes[n] = packed.data;
        n++;
    }
    st = blvl__layout_plan(entries, n, a, &region, &floor, &file_size, err);
    if (st != BLVL_OK)
        goto out;
    blvl_out_file f;
    if ((st = blvl__out_open(&f, out_path, err)) != BLVL_OK)
        goto out;
    uint64_t at = floor;
    st = blvl__out_write(&f, region, (size_t)floor, err);
    for (uint32_t i = 0; i < n && st == BLVL_OK; i++) {
        st = blvl__out_pad(&f, &at, entries[i].offset, err);
        if (st == BLVL_OK)
            st = blvl__out_write(&f, bytes[i], (size_t)entries[i].packed_size, err);
        at += entries[i].packed_size;
    }
    if (st == BLVL_OK)
        st = blvl__out_commit(&f, err);
    else
        blvl__out_abort(&f);
out:
    blvl__dealloc(a, region, (size_t)floor);
    blvl__dealloc(a, entries, (count ? count : 1) * sizeof *entries);
    blvl__dealloc(a, bytes, (count ? count : 1) * sizeof *bytes);
    blvl_close(lv);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
