/* Little-endian loads and stores that never assume alignment: the one set every layer uses
 * (the container's header and table, chunk indexes, the FlatBuffers reader). Part of the common
 * base: it includes nothing of blvl. */
#ifndef BLVL_LE_H
#define BLVL_LE_H

#include <stdint.h>

static inline uint16_t blvl_le16(const uint8_t *p) {
    return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}
static inline uint32_t blvl_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t blvl_le64(const uint8_t *p) {
    return (uint64_t)blvl_le32(p) | (uint64_t)blvl_le32(p + 4) << 32;
}
static inline void blvl_le_put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void blvl_le_put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void blvl_le_put64(uint8_t *p, uint64_t v) {
    blvl_le_put32(p, (uint32_t)v);
    blvl_le_put32(p + 4, (uint32_t)(v >> 32));
}
#endif
