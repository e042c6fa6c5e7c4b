/* Hand-built container files for the container and edit tests. The layout is written here
 * from docs/FORMAT.md, byte by byte, and the table digest and identity are computed with
 * BLAKE3 directly (not through the library), so a test can break exactly one rule of an
 * otherwise valid file and the library is checked against an independent construction. */
#ifndef BLVL_TEST_CONTAINER_FIXTURE_H
#define BLVL_TEST_CONTAINER_FIXTURE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blake3.h"

#define FX_MAX 8

typedef struct fx_entry {
    uint8_t tag[16];
    uint64_t offset, packed, raw;
    uint32_t version, flags;
    uint8_t digest[16];
    int digest_set; /* 1: keep `digest` as given instead of hashing the payload */
} fx_entry;

typedef struct fx_file {
    uint8_t magic[8];
    uint32_t version, hflags;
    uint64_t floor;
    uint32_t count, table_offset;
    uint32_t nentries; /* entries written at table_offset (count may claim another number) */
    fx_entry e[FX_MAX];
    const uint8_t *payload[FX_MAX]; /* placed at e[i].offset, e[i].packed bytes */
    uint64_t size;                  /* file length */
    int table_digest_set, identity_set;
    uint8_t table_digest[16], identity[16];
} fx_file;

static inline void fx_le32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void fx_le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint32_t fx_get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t fx_get64(const uint8_t *p) {
    return (uint64_t)fx_get32(p) | (uint64_t)fx_get32(p + 4) << 32;
}

static inline void fx_b3(const void *d, size_t n, uint8_t out[16]) {
    blake3_hasher h;
    blake3_hasher_init(&h);
    blake3_hasher_update(&h, d, n);
    blake3_hasher_finalize(&h, out, 16);
}

static inline void fx_tag(fx_entry *e, const char *tag) {
    memset(e->tag, 0, 16);
    memcpy(e->tag, tag, strlen(tag) > 16 ? 16 : strlen(tag));
}

/* A payload of one raw chunk holding `raw` (n bytes); returns its length (n + 16). */
static inline size_t fx_raw_payload(uint8_t *out, const void *raw, uint32_t n) {
    memcpy(out, raw, n);
    fx_le32(out + n, n);
    fx_le32(out + n + 4, n);
    memset(out + n + 8, 0, 4);
    fx_le32(out + n + 12, 1);
    return (size_t)n + 16;
}

static inline void fx_encode_entry(const fx_entry *e, uint8_t b[64]) {
    memcpy(b, e->tag, 16);
    fx_le64(b + 16, e->offset);
    fx_le64(b + 24, e->packed);
    fx_le64(b + 32, e->raw);
    fx_le32(b + 40, e->version);
    fx_le32(b + 44, e->flags);
    memcpy(b + 48, e->digest, 16);
}

static int fx_cmp_tag(const void *a, const void *b) {
    return memcmp(((const fx_entry *)a)->tag, ((const fx_entry *)b)->tag, 16);
}

/* Identity: magic, u32 version 1, u32 records, then 48-byte records sorted by tag bytes. */
static inline void fx_identity(const fx_entry *entries, uint32_t n, uint8_t out[16]) {
    fx_entry sorted[FX_MAX];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && i < FX_MAX; i++)
        if (entries[i].flags & 1)
            sorted[k++] = entries[i];
    qsort(sorted, k, sizeof *sorted, fx_cmp_tag);
    blake3_hasher h;
    blake3_hasher_init(&h);
    uint8_t head[16];
    memcpy(head, "BLVL\r\n\x1a\n", 8);
    fx_le32(head + 8, 1);
    fx_le32(head + 12, k);
    blake3_hasher_update(&h, head, 16);
    for (uint32_t i = 0; i < k; i++) {
        uint8_t r[48];
        memcpy(r, sorted[i].tag, 16);
        fx_le32(r + 16, sorted[i].version);
        fx_le32(r + 20, 0);
        fx_le64(r + 24, sorted[i].raw);
        memcpy(r + 32, sorted[i].digest, 16);
        blake3_hasher_update(&h, r, 48);
    }
    blake3_hasher_finalize(&h, out, 16);
}

/* The file's bytes (malloc). Section digests, table digest and identity are computed unless
 * the test set them. */
static inline uint8_t *fx_emit(fx_file *f) {
    size_t size = (size_t)f->size;
    uint8_t *b = calloc(1, size ? size : 1);
    if (!b)
        return NULL;
    for (uint32_t i = 0; i < f->nentries; i++) {
        fx_entry *e = &f->e[i];
        if (f->payload[i] && e->offset < size) {
            size_t n = (size_t)e->packed;
            if (n > size - e->offset)
                n = size - (size_t)e->offset;
            memcpy(b + e->offset, f->payload[i], n);
        }
        if (!e->digest_set && f->payload[i])
            fx_b3(f->payload[i], (size_t)e->packed, e->digest);
    }
    uint8_t table[FX_MAX * 64];
    for (uint32_t i = 0; i < f->nentries; i++)
        fx_encode_entry(&f->e[i], table + 64 * i);
    if (f->table_offset + 64ull * f->nentries <= size)
        memcpy(b + f->table_offset, table, 64 * f->nentries);
    if (!f->table_digest_set) {
        blake3_hasher h;
        blake3_hasher_init(&h);
        /* magic | u32 1 | u32 count | u64 floor | u32 table offset | u32 0 | entries */
        uint8_t head[32];
        memcpy(head, "BLVL\r\n\x1a\n", 8);
        fx_le32(head + 8, 1);
        fx_le32(head + 12, f->count);
        fx_le64(head + 16, f->floor);
        fx_le32(head + 24, f->table_offset);
        fx_le32(head + 28, 0);
        blake3_hasher_update(&h, head, 32);
        uint32_t n = f->count < f->nentries ? f->count : f->nentries;
        blake3_hasher_update(&h, table, 64 * n);
        blake3_hasher_finalize(&h, f->table_digest, 16);
    }
    if (!f->identity_set)
        fx_identity(f->e, f->count < f->nentries ? f->count : f->nentries, f->identity);
    if (size >= 64) {
        memcpy(b, f->magic, 8);
        fx_le32(b + 8, f->version);
        fx_le32(b + 12, f->hflags);
        fx_le64(b + 16, f->floor);
        memcpy(b + 24, f->table_digest, 16);
        fx_le32(b + 40, f->count);
        fx_le32(b + 44, f->table_offset);
        memcpy(b + 48, f->identity, 16);
    } else {
        uint8_t head[64];
        memcpy(head, f->magic, 8);
        memset(head + 8, 0, 56);
        memcpy(b, head, size);
    }
    return b;
}

/* The baseline: floor 4096, table at 64, two sections: "meta" (identity) holding "hello" and
 * "x.blob" (outside identity) holding 100 bytes, each one raw chunk. */
static uint8_t fx_meta_payload[64], fx_blob_payload[128];

static inline void fx_base(fx_file *f) {
    memset(f, 0, sizeof *f);
    memcpy(f->magic, "BLVL\r\n\x1a\n", 8);
    f->version = 1;
    f->floor = 4096;
    f->count = 2;
    f->nentries = 2;
    f->table_offset = 64;
    uint8_t blob[100];
    for (int i = 0; i < 100; i++)
        blob[i] = (uint8_t)(i * 7 + 3);
    size_t mp = fx_raw_payload(fx_meta_payload, "hello", 5);
    size_t bp = fx_raw_payload(fx_blob_payload, blob, 100);
    fx_tag(&f->e[0], "meta");
    f->e[0].offset = 4096;
    f->e[0].packed = mp;
    f->e[0].raw = 5;
    f->e[0].flags = 1;
    fx_tag(&f->e[1], "x.blob");
    f->e[1].offset = 4096 + 64;
    f->e[1].packed = bp;
    f->e[1].raw = 100;
    f->e[1].version = 3;
    f->payload[0] = fx_meta_payload;
    f->payload[1] = fx_blob_payload;
    f->size = 4096 + 64 + bp;
}

/* Writes bytes to a fresh temporary file; returns its malloc'd path. */
static inline char *fx_temp_file(const void *data, size_t size) {
    char *path = strdup("/tmp/blvl-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        free(path);
        return NULL;
    }
    const uint8_t *p = data;
    while (size) {
        ssize_t w = write(fd, p, size);
        if (w <= 0)
            break;
        p += w;
        size -= (size_t)w;
    }
    close(fd);
    return path;
}

static inline uint8_t *fx_read_file(const char *path, size_t *size) {
    *size = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && n > 0 && fread(b, 1, (size_t)n, fp) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(fp);
    *size = (size_t)n;
    return b;
}
#endif
