/* The layout of a fresh level (layout.h); writing it to a file atomically is out_file.c. */
#include "container/layout.h"

#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "container/format.h"

blvl_status blvl__container_layout_check_entry(blvl_entry *entries, uint32_t i, blvl_error *err) {
    blvl_entry *e = &entries[i];
    bool core = false;
    if (!blvl_tag_valid(e->tag, &core))
        return blvl__fail(err, BLVL_E_WRITE_TAG,
                          "section %u: tag '%.16s' is not 1..16 bytes of [a-z0-9._-]", i, e->tag);
    for (uint32_t k = 0; k < i; k++)
        if (strcmp(entries[k].tag, e->tag) == 0)
            return blvl__fail(err, BLVL_E_WRITE_TAG, "tag '%s' given twice", e->tag);
    if (e->flags & ~BLVL_ENTRY_FLAG_IDENTITY)
        return blvl__fail(err, BLVL_E_ARGUMENT, "section '%s': unknown flag bits 0x%08x", e->tag,
                          e->flags);
    if (core) /* a core section is always part of the level's name */
        e->flags |= BLVL_ENTRY_FLAG_IDENTITY;
    if (e->raw_size > BLVL_SECTION_RAW_MAX)
        return blvl__fail(err, BLVL_E_RAW_SIZE, "section '%s': raw size over 2 GiB", e->tag);
    return BLVL_OK;
}

blvl_status blvl__container_layout_region(const blvl_entry *entries, uint32_t n, uint64_t floor,
                                          const blvl_allocator *a, uint8_t **region,
                                          blvl_error *err) {
    *region = NULL;
    uint8_t *r = blvl__calloc(a, (size_t)floor);
    if (!r)
        return blvl__nomem(err, "the reserved region");
    for (uint32_t i = 0; i < n; i++)
        blvl__container_entry_encode(&entries[i],
                                     r + BLVL_HEADER_SIZE + (size_t)i * BLVL_ENTRY_SIZE);
    blvl_header h;
    memset(&h, 0, sizeof h);
    h.version = BLVL_CONTAINER_VERSION;
    h.floor = floor;
    h.count = n;
    h.table_offset = BLVL_HEADER_SIZE;
    /* The one call of the table digest on the writing side. */
    blvl_compute_table_digest(r + BLVL_HEADER_SIZE, n, floor, BLVL_HEADER_SIZE, h.table_digest);
    blvl_compute_identity(entries, n, h.identity);
    blvl__container_header_encode(&h, r);
    *region = r;
    return BLVL_OK;
}

uint64_t blvl__container_layout_next(uint64_t end) {
    return (end + BLVL_ALIGN - 1) / BLVL_ALIGN * BLVL_ALIGN;
}

blvl_status blvl__container_layout_plan(blvl_entry *entries, uint32_t n, const blvl_allocator *a,
                                        uint8_t **region, uint64_t *floor_out, uint64_t *file_size,
                                        blvl_error *err) {
    *region = NULL;
    uint64_t floor = blvl__container_floor_for(n);
    if (floor == 0)
        return blvl__fail(err, BLVL_E_ARGUMENT, "%u sections do not fit a reserved region", n);
    for (uint32_t i = 0; i < n; i++) {
        blvl_status st = blvl__container_layout_check_entry(entries, i, err);
        if (st != BLVL_OK)
            return st;
    }
    uint64_t at = floor;
    for (uint32_t i = 0; i < n; i++) {
        at = blvl__container_layout_next(at);
        entries[i].offset = at;
        at += entries[i].packed_size;
    }
    blvl_status st = blvl__container_layout_region(entries, n, floor, a, region, err);
    if (st != BLVL_OK)
        return st;
    *floor_out = floor;
    *file_size = at;
    return BLVL_OK;
}
