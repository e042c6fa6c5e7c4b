#include "payload/zmem.h"
#include "payload/codec.h"

#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "payload/payload.h"

static ZSTD_CCtx *make_cctx(const blvl_allocator *a, int level) {
    ZSTD_CCtx *c = ZSTD_createCCtx_advanced(blvl__payload_zstd_mem(a));
    if (!c)
        return NULL;
    if (ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0))) {
        ZSTD_freeCCtx(c);
        return NULL;
    }
    return c;
}

void blvl__payload_codec_init(blvl_codec *c, const blvl_allocator *a) {
    memset(c, 0, sizeof *c);
    c->a = a;
}

void blvl__payload_codec_free(blvl_codec *c) {
    ZSTD_freeCCtx(c->test);
    ZSTD_freeCCtx(c->best);
    blvl__dealloc(c->a, c->scratch, c->scratch_size);
    c->test = c->best = NULL;
    c->scratch = NULL;
    c->scratch_size = 0;
}

int blvl__payload_codec_store_raw(uint64_t level1_size, uint64_t raw_size) {
    return level1_size * 32 >= raw_size * 31;
}

size_t blvl__payload_codec_footprint(const blvl_codec *c) {
    return ZSTD_sizeof_CCtx(c->test) + ZSTD_sizeof_CCtx(c->best) + c->scratch_size;
}

static blvl_status zfail(blvl_error *err, size_t r) {
    return blvl__fail(err, BLVL_E_ZSTD, "zstd could not compress a chunk: %s",
                      ZSTD_getErrorName(r));
}

/* The scratch buffer, ZSTD_compressBound(4 MiB) bytes: room for any frame of any chunk. */
static blvl_status scratch(blvl_codec *c, blvl_error *err) {
    if (c->scratch)
        return BLVL_OK;
    size_t bound = ZSTD_compressBound(BLVL_CHUNK_MAX);
    if (!(c->scratch = blvl__alloc(c->a, bound)))
        return blvl__nomem(err, "a compressed chunk");
    c->scratch_size = bound;
    return BLVL_OK;
}

blvl_status blvl__payload_codec_chunk(blvl_codec *c, const uint8_t *src, uint32_t raw_size,
                                      uint8_t *dst, uint8_t *codec, uint32_t *packed_size,
                                      blvl_error *err) {
    *codec = BLVL_CODEC_RAW;
    *packed_size = raw_size;
    blvl_status st = scratch(c, err);
    if (st != BLVL_OK)
        return st;
    if (!c->legacy) {
        if (!c->test && !(c->test = make_cctx(c->a, BLVL_ZSTD_TEST_LEVEL)))
            return blvl__nomem(err, "a zstd encoder");
        size_t r = ZSTD_compress2(c->test, c->scratch, c->scratch_size, src, raw_size);
        if (ZSTD_isError(r))
            return zfail(err, r);
        if (blvl__payload_codec_store_raw(r, raw_size))
            return BLVL_OK;
        if (c->draft) { /* r < raw_size: the test above */
            memcpy(dst, c->scratch, r);
            *codec = BLVL_CODEC_ZSTD;
            *packed_size = (uint32_t)r;
            return BLVL_OK;
        }
    }
    if (!c->best && !(c->best = make_cctx(c->a, BLVL_ZSTD_LEVEL)))
        return blvl__nomem(err, "a zstd encoder");
    /* Into the bound-sized scratch, never into raw_size - 1 bytes: libzstd refuses a buffer
     * that its worst case does not fit (dstSize_tooSmall) even when the frame it would make is
     * a few bytes smaller than the chunk, and such a chunk must be stored as that frame
     * (FORMAT.md §7). The frame is copied out only when it is kept. */
    size_t r = ZSTD_compress2(c->best, c->scratch, c->scratch_size, src, raw_size);
    if (ZSTD_isError(r))
        return zfail(err, r);
    if (r >= raw_size)
        return BLVL_OK; /* not smaller than the chunk: stored raw */
    memcpy(dst, c->scratch, r);
    *codec = BLVL_CODEC_ZSTD;
    *packed_size = (uint32_t)r;
    return BLVL_OK;
}
