#include "payload/zmem.h"
#include "payload/inflate.h"

#include <string.h>
#include <zstd.h>

#include "common/alloc.h"
#include "blvl/le.h"
#include "common/error.h"
#include "common/pool.h"

#define ZSTD_FRAME_MAGIC 0xFD2FB528u

blvl_status blvl__payload_chunk_inflate(blvl_inflater *w, const uint8_t *packed,
                                        const blvl_chunk *c, uint32_t index, uint8_t *dst,
                                        blvl_error *err) {
    const uint8_t *src = packed + c->packed_offset;
    if (c->codec == BLVL_CODEC_RAW) {
        if (dst) /* verification of a raw chunk has nothing to do */
            memcpy(dst, src, c->raw_size);
        return BLVL_OK;
    }
    if (!dst) {
        if (!w->scratch && !(w->scratch = blvl__alloc(w->a, BLVL_CHUNK_MAX)))
            return blvl__nomem(err, "a 4 MiB inflation buffer");
        dst = w->scratch;
    }
    /* One frame, the content size set and equal to the index's raw size, no checksum, no
     * dictionary, the reserved bit clear: the frame header descriptor (byte 4) has its low
     * four bits clear (RFC 8878: dictionary ID flag 0..1, checksum 2, reserved 3). */
    if (c->packed_size < 6 || blvl_le32(src) != ZSTD_FRAME_MAGIC || (src[4] & 0x0F) != 0)
        return blvl__fail(err, BLVL_E_ZSTD,
                          "chunk %u is not a zstd frame without checksum, dictionary and "
                          "reserved bit",
                          index);
    /* The window a frame asks for: the content size of a single-segment frame, else what its
     * Window_Descriptor (byte 5) says. One-shot decoding never allocates it (the output is the
     * window), but a streaming decoder would; a chunk holds at most 4 MiB, so no honest frame
     * needs more, and a second reader may rely on that. */
    if (!(src[4] & 0x20)) {
        unsigned exponent = src[5] >> 3, mantissa = src[5] & 7u;
        uint64_t base = 1ull << (10 + exponent);
        if (base + base / 8 * mantissa > BLVL_CHUNK_MAX)
            return blvl__fail(err, BLVL_E_ZSTD,
                              "chunk %u: the zstd frame asks for a window over 4 MiB", index);
    }
    unsigned long long fcs = ZSTD_getFrameContentSize(src, c->packed_size);
    if (fcs != c->raw_size)
        return blvl__fail(err, BLVL_E_ZSTD,
                          "chunk %u: the zstd frame does not declare the index's %u raw bytes",
                          index, c->raw_size);
    size_t fsz = ZSTD_findFrameCompressedSize(src, c->packed_size);
    if (ZSTD_isError(fsz) || fsz != c->packed_size)
        return blvl__fail(err, BLVL_E_ZSTD,
                          "chunk %u: %u packed bytes are not exactly one zstd frame", index,
                          c->packed_size);
    if (!w->dctx) {
        if (!(w->dctx = ZSTD_createDCtx_advanced(blvl__payload_zstd_mem(w->a))))
            return blvl__nomem(err, "a zstd decoder");
        /* belt and braces: the same 4 MiB cap, should decoding ever become streaming */
        (void)ZSTD_DCtx_setParameter(w->dctx, ZSTD_d_windowLogMax, 22);
    }
    size_t got = ZSTD_decompressDCtx(w->dctx, dst, c->raw_size, src, c->packed_size);
    if (ZSTD_isError(got) || got != c->raw_size)
        return blvl__fail(err, BLVL_E_ZSTD, "chunk %u: zstd frame does not decode (%s)", index,
                          ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short output");
    return BLVL_OK;
}

void blvl__payload_inflater_free(blvl_inflater *w) {
    if (w->dctx)
        ZSTD_freeDCtx(w->dctx);
    blvl__dealloc(w->a, w->scratch, BLVL_CHUNK_MAX);
    w->dctx = NULL;
    w->scratch = NULL;
}

typedef struct inflate_job {
    const uint8_t *packed;
    const blvl_chunk *chunks;
    uint8_t *raw; /* NULL: verification */
    blvl_inflater *workers;
} inflate_job;

static blvl_status run_chunk(void *ctx, unsigned worker, size_t j, blvl_error *err) {
    inflate_job *job = ctx;
    const blvl_chunk *c = &job->chunks[j];
    return blvl__payload_chunk_inflate(&job->workers[worker], job->packed, c, (uint32_t)j,
                                       job->raw ? job->raw + c->raw_offset : NULL, err);
}

static blvl_status inflate_all(const uint8_t *packed, const blvl_chunk *chunks, uint32_t n,
                               uint8_t *raw, unsigned threads, const blvl_allocator *a,
                               blvl_error *err) {
    if (n == 0)
        return BLVL_OK;
    unsigned nw = blvl__threads(threads);
    if (nw > n)
        nw = n;
    blvl_inflater *ws = blvl__calloc(a, nw * sizeof *ws);
    if (!ws)
        return blvl__nomem(err, "%u inflation workers", nw);
    for (unsigned i = 0; i < nw; i++)
        ws[i].a = a;
    inflate_job job = {packed, chunks, raw, ws};
    blvl_status st = blvl__pool_run(nw, n, run_chunk, &job, 1, err);
    for (unsigned i = 0; i < nw; i++)
        blvl__payload_inflater_free(&ws[i]);
    blvl__dealloc(a, ws, nw * sizeof *ws);
    return st;
}

blvl_status blvl__payload_inflate(const uint8_t *packed, const blvl_chunk *chunks, uint32_t n,
                                  uint8_t *raw, unsigned threads, const blvl_allocator *a,
                                  blvl_error *err) {
    if (n > 0 && !raw)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output buffer for inflation");
    return inflate_all(packed, chunks, n, raw, threads, a, err);
}

blvl_status blvl__payload_check(const uint8_t *packed, const blvl_chunk *chunks, uint32_t n,
                                unsigned threads, const blvl_allocator *a, blvl_error *err) {
    return inflate_all(packed, chunks, n, NULL, threads, a, err);
}
