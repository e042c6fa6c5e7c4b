/* blvl_subspace_read: which of the three starts the file has, then its parts in file order
 * (docs/IMPORT-SUBSPACE.md, "The file"):
 *   "BM"    a tileset BMP; the eLVL at the offset its reserved field names (none when 0); the
 *           tile records from bfSize on;
 *   "elvl"  an eLVL section at offset 0, the tile records right after it;
 *   else    tile records from offset 0.
 * A valid record never starts with "BM" or "elvl": both would put an x over 1023 in it. */
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/subspace/subspace_internal.h"

static blvl_status records(const uint8_t *b, size_t size, const blvl_allocator *a, blvl_subspace *m,
                           blvl_error *err) {
    uint64_t left = size - m->tiles_offset;
    if (left == 0) /* an empty file may come as (NULL, 0): no pointer arithmetic on it */
        return BLVL_OK;
    m->record_count = (uint32_t)(left / 4u); /* size <= 64 MiB: fits */
    m->tail_size = (uint8_t)(left & 3u);
    memcpy(m->tail, b + size - m->tail_size, m->tail_size);
    if (m->record_count && !(m->records = blvl__alloc(a, (size_t)m->record_count * 4u)))
        return blvl__nomem(err, "%u tile records", m->record_count);
    const uint8_t *p = b + m->tiles_offset;
    for (uint32_t i = 0; i < m->record_count; i++) {
        uint32_t r = blvl_le32(p + 4u * i);
        m->records[i] = r;
        if (BLVL_SUBSPACE_X(r) >= BLVL_SUBSPACE_GRID || BLVL_SUBSPACE_Y(r) >= BLVL_SUBSPACE_GRID)
            m->skipped_range++;
        else if (BLVL_SUBSPACE_TILE(r) == 0)
            m->skipped_empty++;
    }
    return BLVL_OK;
}

blvl_status blvl_subspace_read(blvl_subspace **out, const void *data, size_t size,
                               const blvl_options *opt, blvl_error *err) {
    if (!out || (!data && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_subspace_read: out and data must be set");
    *out = NULL;
    if (size > BLVL_SUBSPACE_MAX_FILE)
        return blvl__fail_source(err, "file", "size", BLVL_SUBSPACE_MAX_FILE, "file-size",
                                 "%zu bytes, over the limit of %u", size, BLVL_SUBSPACE_MAX_FILE);
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    const uint8_t *b = data;
    blvl_subspace *m = blvl__calloc(a, sizeof *m);
    if (!m)
        return blvl__nomem(err, "the map");
    m->allocator = a ? *a : (blvl_allocator){0};
    blvl_status st = BLVL_OK;
    if (size >= 2 && memcmp(b, "BM", 2) == 0) {
        uint64_t elvl_at, tiles_at;
        if ((st = blvl__import_subspace_read_bmp(b, size, a, &m->bmp, &elvl_at, &tiles_at, err)) !=
            BLVL_OK)
            goto fail;
        m->tiles_offset = tiles_at;
        if (elvl_at) {
            if ((st = blvl__import_subspace_read_elvl(b, elvl_at, tiles_at, a, &m->elvl, err)) !=
                BLVL_OK)
                goto fail;
            uint64_t end = elvl_at + m->elvl->total_size;
            m->gap_size = (uint32_t)(tiles_at - end);
            if (m->gap_size) {
                if (!(m->gap = blvl__alloc(a, m->gap_size))) {
                    st = blvl__nomem(err, "the bytes before the tile records");
                    goto fail;
                }
                memcpy(m->gap, b + end, m->gap_size);
            }
        }
    } else if (size >= 4 && memcmp(b, "elvl", 4) == 0) {
        if ((st = blvl__import_subspace_read_elvl(b, 0, size, a, &m->elvl, err)) != BLVL_OK)
            goto fail;
        m->tiles_offset = m->elvl->total_size;
    }
    if ((st = records(b, size, a, m, err)) != BLVL_OK)
        goto fail;
    blvl__ok(err);
    *out = m;
    return BLVL_OK;
fail:
    blvl_subspace_free(m);
    return st;
}
