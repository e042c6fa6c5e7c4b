/* BLAKE3-128: the first 16 bytes of BLAKE3 output, the digest of every entry, the identity
 * and the table digest. Inline wrappers so the library's code names one digest, not BLAKE3's
 * API; this header still includes blake3.h, so it stays private to src/ (the public header
 * has blvl_digest). */
#ifndef BLVL_PAYLOAD_DIGEST_H
#define BLVL_PAYLOAD_DIGEST_H
#include <stddef.h>
#include <stdint.h>

#include "blake3.h"

typedef struct blvl_hasher {
    blake3_hasher h;
} blvl_hasher;

static inline void blvl__payload_hasher_init(blvl_hasher *h) {
    blake3_hasher_init(&h->h);
}
static inline void blvl__payload_hasher_update(blvl_hasher *h, const void *data, size_t len) {
    blake3_hasher_update(&h->h, data, len);
}
static inline void blvl__payload_hasher_final(const blvl_hasher *h, uint8_t out[16]) {
    blake3_hasher_finalize(&h->h, out, 16);
}
#endif
