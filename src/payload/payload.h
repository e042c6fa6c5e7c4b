/* Section payloads: chunk* | index | u32 n. Each index entry is 12 bytes: u32 packed,
 * u32 raw, u8 codec (0 raw, 1 zstd), 3 zero bytes. Chunks hold at most 4 MiB raw; a writer
 * cuts every chunk but the last at exactly 4 MiB and picks each chunk's codec as codec.h says
 * (level-1 test, then level 19, one frame with the content size, no checksum, no dictionary;
 * raw when that would not shrink the chunk). An empty payload is the 4 bytes 00 00 00 00.
 * The container uses these; nothing here knows about files. */
#ifndef BLVL_PAYLOAD_PAYLOAD_H
#define BLVL_PAYLOAD_PAYLOAD_H
#include "blvl/payload.h"

#define BLVL_CHUNK_INDEX_ENTRY 12u
#define BLVL_CODEC_RAW 0u
#define BLVL_CODEC_ZSTD 1u

typedef struct blvl_chunk {
    uint64_t packed_offset; /* within the payload */
    uint64_t raw_offset;    /* within the inflated section */
    uint32_t packed_size;
    uint32_t raw_size;
    uint8_t codec;
} blvl_chunk;

/* Parse the chunk index at the end of `packed` and check it against the entry's sizes: the
 * count fits, the chunks tile the bytes before the index exactly, raw sizes sum to raw_size,
 * every chunk is at most 4 MiB raw, codec known and reserved bytes zero, a raw chunk's packed
 * size equals its raw size. `*out` is allocated with `a` (free with blvl__dealloc, size
 * n * sizeof(blvl_chunk)); it is NULL when the section is empty. */
blvl_status blvl__payload_chunks_parse(const uint8_t *packed, uint64_t packed_size,
                                       uint64_t raw_size, const blvl_allocator *a, blvl_chunk **out,
                                       uint32_t *n, blvl_error *err);
/* The same from the count `n` (the payload's last 4 bytes) and the 12 x n index bytes before
 * it, for a reader that does not hold the payload whole. The count is checked against the
 * sizes before `index` is read: `index` may be NULL when 12 x n + 4 is over packed_size or n
 * is not the count the raw size gives (the call then fails without reading it). */
blvl_status blvl__payload_chunks_parse_index(const uint8_t *index, uint32_t n, uint64_t packed_size,
                                             uint64_t raw_size, const blvl_allocator *a,
                                             blvl_chunk **out, uint32_t *n_out, blvl_error *err);

/* Raw bytes of the zstd chunks: what the streaming reader charges against its inflation
 * budget for the section (raw chunks are copies of bytes the file holds, so they cannot
 * amplify). */
uint64_t blvl__payload_inflated_size(const blvl_chunk *chunks, uint32_t n);

/* Inflate every chunk into `raw` (raw_size bytes), `threads` workers at most (0 = online CPUs).
 * A zstd chunk must be one frame whose declared content size equals the index's raw size. */
blvl_status blvl__payload_inflate(const uint8_t *packed, const blvl_chunk *chunks, uint32_t n,
                                  uint8_t *raw, unsigned threads, const blvl_allocator *a,
                                  blvl_error *err);

/* Inflate every chunk and discard the output (verification), using per-worker 4 MiB buffers. */
blvl_status blvl__payload_check(const uint8_t *packed, const blvl_chunk *chunks, uint32_t n,
                                unsigned threads, const blvl_allocator *a, blvl_error *err);

/* Build a payload from raw bytes: chunk at 4 MiB, encode chunks in parallel (codec.h). `*out` is
 * allocated with `a` (size *out_size). */
blvl_status blvl__payload_pack(const uint8_t *raw, size_t size, unsigned threads,
                               const blvl_allocator *a,
                               void (*progress)(void *user, uint64_t done, uint64_t total),
                               void *progress_user, uint8_t **out, size_t *out_size,
                               blvl_error *err);
#endif
