/* The payload layer's public part: the constants a section's bytes are cut, compressed
 * and digested by (docs/FORMAT.md), and the digest itself. The container's header
 * (blvl/blvl.h) builds on these; the payload code needs nothing else of the container. */
#ifndef BLVL_PAYLOAD_H
#define BLVL_PAYLOAD_H

#include "blvl/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_DIGEST_SIZE 16u
#define BLVL_CHUNK_MAX (4u << 20)         /* raw bytes in one chunk */
#define BLVL_ZSTD_LEVEL 19                /* part of the format: changing it renames maps */
#define BLVL_SECTION_RAW_MAX (2ull << 30) /* raw bytes in one section */

/* BLAKE3-128 of a buffer, the digest every entry carries. */
BLVL_API void blvl_digest(const void *data, size_t size, uint8_t out[BLVL_DIGEST_SIZE]);
/* 32 lowercase hex digits and a NUL. */
BLVL_API void blvl_hex(const uint8_t digest[BLVL_DIGEST_SIZE], char out[33]);

#ifdef __cplusplus
}
#endif
#endif
