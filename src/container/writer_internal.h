/* Hooks of the streaming writer for the benchmarks and the bake (not part of the API). */
#ifndef BLVL_CONTAINER_WRITER_INTERNAL_H
#define BLVL_CONTAINER_WRITER_INTERNAL_H
#include "blvl/blvl.h"

/* Level 19 on every chunk, without the level-1 probe (benchmarks). Call before the first append. */
void blvl__container_writer_legacy_codec(blvl_writer *w);
/* Store each compressed chunk as its level-1 frame instead of level 19 (a draft bake, docs/BAKE.md:
 * the raw test is the same). Call before the first append. */
void blvl__container_writer_draft_codec(blvl_writer *w);
/* Bytes the writer's buffers and encoders hold now (*codec_bytes: the encoders' share). Only
 * between sections (after end, before the next begin) or before commit. */
size_t blvl__container_writer_footprint(blvl_writer *w, size_t *codec_bytes);
#endif
