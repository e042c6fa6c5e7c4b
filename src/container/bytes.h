/* Little-endian loads and stores that never assume alignment. */
#ifndef BLVL_CONTAINER_BYTES_H
#define BLVL_CONTAINER_BYTES_H
#include <stdint.h>

static inline uint32_t blvl__le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t blvl__le64(const uint8_t *p) {
    return (uint64_t)blvl__le32(p) | (uint64_t)blvl__le32(p + 4) << 32;
}
static inline void blvl__put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void blvl__put64(uint8_t *p, uint64_t v) {
    blvl__put32(p, (uint32_t)v);
    blvl__put32(p + 4, (uint32_t)(v >> 32));
}
#endif
