#include "payload/digest.h"

#include "blvl/payload.h"

void blvl_digest(const void *data, size_t size, uint8_t out[BLVL_DIGEST_SIZE]) {
    blvl_hasher h;
    blvl__payload_hasher_init(&h);
    blvl__payload_hasher_update(&h, data, size);
    blvl__payload_hasher_final(&h, out);
}

void blvl_hex(const uint8_t digest[BLVL_DIGEST_SIZE], char out[33]) {
    static const char hex[] = "0123456789abcdef";
    for (unsigned i = 0; i < BLVL_DIGEST_SIZE; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    out[32] = '\0';
}
