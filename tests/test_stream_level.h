/* A level assembled byte by byte from the layout in docs/FORMAT.md, with BLAKE3 and libzstd
 * called directly: an independent writer to check the readers against, and a way to build the
 * broken files a real writer never makes. Header-only, for the stream tests. */
#ifndef BLVL_TEST_HANDLEVEL_H
#define BLVL_TEST_HANDLEVEL_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "blake3.h"

#define HL_RAW 0
#define HL_ZSTD 1
#define HL_CUSTOM 2 /* `packed` given as is */

typedef struct hl_section {
    const char *tag;
    uint32_t flags, version;
    const uint8_t *raw;
    size_t raw_size;
    int mode;
    /* HL_CUSTOM: the packed bytes, stored verbatim */
    const uint8_t *packed;
    size_t packed_size;
    /* filled by hl_build */
    uint64_t offset, size;
    uint8_t digest[16];
} hl_section;

typedef struct hl_level {
    uint8_t *bytes;
    size_t size;
    uint64_t floor;
    uint8_t identity[16], table_digest[16];
} hl_level;

static void hl_le32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void hl_le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void hl_b3(const void *a, size_t na, const void *b, size_t nb, uint8_t out[16]) {
    blake3_hasher h;
    blake3_hasher_init(&h);
    blake3_hasher_update(&h, a, na);
    if (nb)
        blake3_hasher_update(&h, b, nb);
    blake3_hasher_finalize(&h, out, 16);
}

/* Packed payload of one section (raw sections must be at most 4 MiB: one chunk). */
static uint8_t *hl_pack(const hl_section *s, size_t *out) {
    if (s->mode == HL_CUSTOM) {
        uint8_t *p = malloc(s->packed_size ? s->packed_size : 1);
        memcpy(p, s->packed, s->packed_size);
        *out = s->packed_size;
        return p;
    }
    if (s->raw_size == 0) {
        uint8_t *p = calloc(1, 4);
        *out = 4;
        return p;
    }
    size_t cap = ZSTD_compressBound(s->raw_size) + s->raw_size + 16;
    uint8_t *p = malloc(cap);
    size_t n = s->raw_size;
    uint8_t codec = 0;
    if (s->mode == HL_ZSTD) {
        n = ZSTD_compress(p, cap, s->raw, s->raw_size, 19);
        codec = 1;
    } else {
        memcpy(p, s->raw, n);
    }
    memset(p + n, 0, 12);
    hl_le32(p + n, (uint32_t)n);
    hl_le32(p + n + 4, (uint32_t)s->raw_size);
    p[n + 8] = codec;
    hl_le32(p + n + 12, 1);
    *out = n + 16;
    return p;
}

static int hl_tagcmp(const void *a, const void *b) {
    return memcmp(a, b, 16); /* records start with the padded tag */
}

/* Lays payloads out in the order of `file_order` (indices into s; NULL = table order), each
 * on a 64-byte boundary from a 4096-byte floor, then `trailing` zero bytes. */
static hl_level hl_build(hl_section *s, size_t n, const size_t *file_order, size_t trailing) {
    hl_level L = {0};
    L.floor = 4096;
    uint8_t *packed[64];
    size_t psz[64];
    uint64_t off = L.floor, end = L.floor;
    for (size_t k = 0; k < n; k++) {
        size_t i = file_order ? file_order[k] : k;
        packed[i] = hl_pack(&s[i], &psz[i]);
        s[i].offset = off;
        s[i].size = psz[i];
        hl_b3(packed[i], psz[i], NULL, 0, s[i].digest);
        end = off + psz[i];
        off += (psz[i] + 63) / 64 * 64;
    }
    L.size = (size_t)end + trailing;
    L.bytes = calloc(1, L.size);
    uint8_t *b = L.bytes;
    memcpy(b, "BLVL\r\n\x1a\n", 8);
    hl_le32(b + 8, 1);
    hl_le64(b + 16, L.floor);
    hl_le32(b + 40, (uint32_t)n);
    hl_le32(b + 44, 64);
    uint8_t recs[64 * 48];
    uint32_t nrec = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t *e = b + 64 + 64 * i;
        memcpy(e, s[i].tag, strlen(s[i].tag));
        hl_le64(e + 16, s[i].offset);
        hl_le64(e + 24, s[i].size);
        hl_le64(e + 32, s[i].raw_size);
        hl_le32(e + 40, s[i].version);
        hl_le32(e + 44, s[i].flags);
        memcpy(e + 48, s[i].digest, 16);
        memcpy(b + s[i].offset, packed[i], psz[i]);
        free(packed[i]);
        if (s[i].flags & 1) {
            uint8_t *r = recs + 48 * nrec++;
            memset(r, 0, 48);
            memcpy(r, s[i].tag, strlen(s[i].tag));
            hl_le32(r + 16, s[i].version);
            hl_le64(r + 24, s[i].raw_size);
            memcpy(r + 32, s[i].digest, 16);
        }
    }
    qsort(recs, nrec, 48, hl_tagcmp);
    uint8_t head[32] = {0}; /* magic | 1 | count | floor | table offset | 0 */
    memcpy(head, "BLVL\r\n\x1a\n", 8);
    hl_le32(head + 8, 1);
    hl_le32(head + 12, (uint32_t)n);
    hl_le64(head + 16, L.floor);
    hl_le32(head + 24, 64);
    hl_b3(head, 32, b + 64, 64 * n, L.table_digest);
    hl_le32(head + 12, nrec);
    hl_b3(head, 16, recs, 48 * (size_t)nrec, L.identity);
    memcpy(b + 24, L.table_digest, 16);
    memcpy(b + 48, L.identity, 16);
    return L;
}

/* After editing the table bytes by hand: store a matching table digest again. */
static void hl_reseal_table(hl_level *L) {
    uint32_t n =
        L->bytes[40] | L->bytes[41] << 8 | L->bytes[42] << 16 | (uint32_t)L->bytes[43] << 24;
    uint32_t at =
        L->bytes[44] | L->bytes[45] << 8 | L->bytes[46] << 16 | (uint32_t)L->bytes[47] << 24;
    if ((uint64_t)at + 64ull * n > L->size)
        return; /* a header broken on purpose: nothing to reseal */
    uint8_t head[32] = {0};
    memcpy(head, "BLVL\r\n\x1a\n", 8);
    hl_le32(head + 8, 1);
    hl_le32(head + 12, n);
    memcpy(head + 16, L->bytes + 16, 8); /* the floor, as stored */
    hl_le32(head + 24, at);
    hl_b3(head, 32, L->bytes + at, 64 * (size_t)n, L->table_digest);
    memcpy(L->bytes + 24, L->table_digest, 16);
}
#endif
