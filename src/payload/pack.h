/* Packing several sections at once: every chunk of every section is one job for the pool, so
 * a level of many small sections keeps every worker as busy as one large section does. */
#ifndef BLVL_PAYLOAD_PACK_H
#define BLVL_PAYLOAD_PACK_H
#include "payload/payload.h"

typedef struct blvl_pack_item {
    const uint8_t *raw; /* in */
    size_t size;        /* in */
    uint8_t *out;       /* out: the payload, allocated with the allocator */
    size_t out_size;    /* out */
} blvl_pack_item;

/* On failure every `out` is NULL. */
blvl_status blvl__payload_pack_many(blvl_pack_item *items, size_t n, unsigned threads,
                                    const blvl_allocator *a, blvl_progress_fn progress,
                                    void *progress_user, blvl_error *err);
#endif
