/* The codec choice for one chunk, part of the format because it decides the stored bytes
 * (and so the identity): compress at zstd level 1 first; when that frame is not smaller than
 * 31/32 of the raw size (level1_size * 32 >= raw_size * 31) store the chunk raw; otherwise
 * compress at level 19 and store that frame when it is smaller than the raw chunk, the raw
 * chunk when not. Each frame is one ZSTD_compress2 call (the content size known and written)
 * with the level set and every other parameter at libzstd's default: no checksum, no
 * dictionary ID, zstd's own threading off; the `zstd -N --no-check FILE` tool makes the same
 * bytes. The level-1 pass keeps level 19 (about 5 MB/s) off
 * data it cannot shrink (JPEG, PNG, already-compressed bytes). */
#ifndef BLVL_PAYLOAD_CODEC_H
#define BLVL_PAYLOAD_CODEC_H
#include <zstd.h>

#include "blvl/payload.h"

#define BLVL_ZSTD_TEST_LEVEL 1

/* One worker's encoders and scratch, created on first use with the caller's allocator. */
typedef struct blvl_codec {
    const blvl_allocator *a;
    ZSTD_CCtx *test;  /* level 1: the test */
    ZSTD_CCtx *best;  /* level 19: the stored frame */
    uint8_t *scratch; /* ZSTD_compressBound(4 MiB): every frame is made here */
    size_t scratch_size;
    int legacy; /* benchmarks only: level 19 on every chunk, no level-1 probe */
    /* A draft bake (docs/BAKE.md): the same raw test, then the level-1 frame is stored and level
     * 19 never runs; level 1 because that frame is already made (no second pass), and level 3
     * was measured only 2 % smaller for 30 % more time. */
    int draft;
} blvl_codec;

void blvl__payload_codec_init(blvl_codec *c, const blvl_allocator *a);
void blvl__payload_codec_free(blvl_codec *c);

/* Encode one chunk of 1..4 MiB. Both levels compress into the codec's scratch of
 * ZSTD_compressBound(4 MiB) bytes; a level-19 frame that is kept is smaller than the chunk and is
 * copied to `dst`, which has room for raw_size - 1 bytes. Sets *codec and *packed_size; a raw
 * chunk's bytes are `src` itself (nothing is copied to dst). */
blvl_status blvl__payload_codec_chunk(blvl_codec *c, const uint8_t *src, uint32_t raw_size,
                                      uint8_t *dst, uint8_t *codec, uint32_t *packed_size,
                                      blvl_error *err);

/* The raw/level-19 decision on the level-1 size alone (exposed for tests). */
int blvl__payload_codec_store_raw(uint64_t level1_size, uint64_t raw_size);

/* Bytes the codec holds (encoders and scratch), for the benchmarks. */
size_t blvl__payload_codec_footprint(const blvl_codec *c);
#endif
