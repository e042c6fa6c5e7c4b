/* An ordered compression pipeline for the streaming writer: a ring of chunk slots that the
 * caller fills, workers encode (codec.h), and the caller takes back in the order it submitted
 * them. Memory is fixed at creation: slots x (4 MiB raw + 4 MiB encoded) plus one codec per
 * worker, whatever the amount of data that flows through. With one thread there are no
 * workers: a slot is encoded on the caller's thread when it is submitted. */
#ifndef BLVL_PAYLOAD_PIPE_H
#define BLVL_PAYLOAD_PIPE_H
#include "blvl/payload.h"

typedef struct blvl_pipe blvl_pipe;

typedef struct blvl_pipe_slot {
    uint8_t *raw;      /* BLVL_CHUNK_MAX bytes, filled by the caller */
    uint32_t raw_size; /* 0 is allowed: a slot that carries only `tag` */
    uint32_t tag;      /* the caller's own bookkeeping, carried through untouched */
    /* set by the encoder */
    uint8_t codec;
    uint32_t packed_size;
    const uint8_t *packed; /* the stored bytes: the frame, or `raw` itself */
    blvl_status status;
    blvl_error err;
} blvl_pipe_slot;

blvl_status blvl__payload_pipe_new(blvl_pipe **out, unsigned threads, const blvl_allocator *a,
                                   blvl_error *err);
/* Stops and joins the workers (after their current chunk) and frees everything. */
void blvl__payload_pipe_free(blvl_pipe *p);
/* True when every slot is submitted and not yet released: take the oldest first. */
int blvl__payload_pipe_full(const blvl_pipe *p);
/* The next slot to fill (raw_size 0). Only when !blvl__payload_pipe_full. */
blvl_status blvl__payload_pipe_slot(blvl_pipe *p, blvl_pipe_slot **out, blvl_error *err);
/* Hand the slot from blvl__payload_pipe_slot to the encoders. */
void blvl__payload_pipe_submit(blvl_pipe *p);
/* The oldest submitted slot once it is encoded (waits for it); NULL when none is in flight. */
blvl_pipe_slot *blvl__payload_pipe_oldest(blvl_pipe *p);
/* Give the oldest slot back to the ring. */
void blvl__payload_pipe_release(blvl_pipe *p);
/* Bytes held: slot buffers and encoders (benchmarks). Only when no slot is in flight. */
size_t blvl__payload_pipe_footprint(blvl_pipe *p, size_t *codec_bytes);
/* Benchmarks only: level 19 on every chunk, without the level-1 probe (codec.h). */
void blvl__payload_pipe_legacy_codec(blvl_pipe *p);
/* Every worker's codec stores level-1 frames (a draft bake). Before the first chunk. */
void blvl__payload_pipe_draft_codec(blvl_pipe *p);
#endif
