/* One worker's inflation state: a zstd decoding context reused for every chunk the worker
 * takes, and (for verification) a 4 MiB scratch buffer the output is thrown into. */
#ifndef BLVL_PAYLOAD_INFLATE_H
#define BLVL_PAYLOAD_INFLATE_H
#include "payload/payload.h"

typedef struct blvl_inflater {
    void *dctx;       /* ZSTD_DCtx, created on first use */
    uint8_t *scratch; /* BLVL_CHUNK_MAX bytes, created on first use when dst is NULL */
    const blvl_allocator *a;
} blvl_inflater;

/* Inflate chunk `index` (`c`) of `packed` into dst (c->raw_size bytes), or into the scratch
 * buffer when dst is NULL. */
blvl_status blvl__payload_chunk_inflate(blvl_inflater *w, const uint8_t *packed,
                                        const blvl_chunk *c, uint32_t index, uint8_t *dst,
                                        blvl_error *err);
void blvl__payload_inflater_free(blvl_inflater *w);
#endif
