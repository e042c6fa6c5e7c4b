/* Laying out a fresh level: header, table at 64, a reserved region of 2*count+16 slots
 * rounded up to 4 KiB, then every payload on a 64-byte boundary with zero padding, in table
 * order. Shared by the writer and the compacting rewrite. */
#ifndef BLVL_CONTAINER_LAYOUT_H
#define BLVL_CONTAINER_LAYOUT_H
#include "blvl/blvl.h"

/* `entries` carry tag, version, flags, packed_size, raw_size and digest; the plan sets every
 * offset and returns the first `*floor` bytes of the file (header, table, zero slack) in
 * *region (allocated with `a`, size *floor), and the file's length in *file_size. Checks the
 * tags (valid, not repeated), the flags and the count against what a region can hold. */
blvl_status blvl__container_layout_plan(blvl_entry *entries, uint32_t n, const blvl_allocator *a,
                                        uint8_t **region, uint64_t *floor, uint64_t *file_size,
                                        blvl_error *err);

/* The checks of entry i against entries 0..i-1: tag valid and not repeated, flags known, raw
 * size at most 2 GiB; sets the identity flag of a core tag. */
blvl_status blvl__container_layout_check_entry(blvl_entry *entries, uint32_t i, blvl_error *err);
/* The first `floor` bytes of a level whose entries carry their offsets: header, table at 64,
 * zero slack. Allocated with `a`. */
blvl_status blvl__container_layout_region(const blvl_entry *entries, uint32_t n, uint64_t floor,
                                          const blvl_allocator *a, uint8_t **region,
                                          blvl_error *err);
/* Where the payload after one that ends at `end` starts: the next multiple of 64. */
uint64_t blvl__container_layout_next(uint64_t end);
#endif
