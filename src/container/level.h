/* The opened level: where its bytes come from and its decoded header and table. Nothing in it
 * changes after open (the inflation budget is checked there, once), so reads share it freely.
 * Private to the container. */
#ifndef BLVL_CONTAINER_LEVEL_H
#define BLVL_CONTAINER_LEVEL_H
#include "blvl/blvl.h"
#include "container/format.h"

struct blvl_level {
    blvl_options opt; /* a copy of the caller's options (so the level outlives their struct) */
    const blvl_allocator *a; /* &opt.allocator */
    unsigned threads;
    /* Bytes of a mapped or in-memory level (NULL for a callback source). */
    const uint8_t *base;
    uint64_t size;
    void *map; /* non-NULL when the level owns an mmap of `size` bytes */
    blvl_source src;
    blvl_header hdr;
    blvl_entry *entries; /* hdr.count entries, table order */
    blvl_info info;
};

/* blvl_open_file on a descriptor the caller already opened (and keeps; the level maps it).
 * `path` is for messages. */
blvl_status blvl__container_open_fd(blvl_level **out, int fd, const char *path,
                                    const blvl_options *opt, blvl_error *err);
/* The packed bytes of entry `e`: a pointer into the level's bytes, or (for a source) a buffer
 * read into *owned (size e->packed_size, free with blvl__dealloc). */
blvl_status blvl__container_level_packed(blvl_level *level, const blvl_entry *e,
                                         const uint8_t **bytes, void **owned, blvl_error *err);
/* A failed read of the level's source: the source's own reason when it gives one (blvl_source
 * .why), else BLVL_E_IO with `what`. */
blvl_status blvl__container_source_failed(const blvl_level *level, blvl_error *err,
                                          const char *what);
/* Asks the kernel for the pages of [offset, offset + size) of a mapped level at once (open
 * advised MADV_RANDOM, so nothing is read around a fault); does nothing otherwise. */
void blvl__container_level_prefetch(const blvl_level *level, uint64_t offset, uint64_t size);
#endif
