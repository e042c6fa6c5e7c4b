/* Fuzz target: open a container and read and verify every section. Byte 0 of the input picks
 * the mode: bit 0 set recomputes every section digest, the table digest and the identity
 * before opening, so that mutations of a payload reach the chunk index and the zstd decoder
 * instead of stopping at the digest; bits 1..2 give the worker count (1..4). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"
#include "blvl/le.h"
#include "container/format.h"

static void fixup(uint8_t *b, size_t size) {
    if (size < BLVL_HEADER_SIZE)
        return;
    uint32_t count = blvl_le32(b + 40), toff = blvl_le32(b + 44);
    if (count > 2048 || (uint64_t)toff + (uint64_t)count * BLVL_ENTRY_SIZE > size)
        return;
    blvl_entry *es = malloc((count + 1) * sizeof *es);
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *eb = b + toff + (size_t)i * BLVL_ENTRY_SIZE;
        uint64_t off = blvl_le64(eb + 16), packed = blvl_le64(eb + 24);
        if (off <= size && packed <= size - off)
            blvl_digest(b + off, (size_t)packed, eb + 48);
        if (blvl__container_entry_decode(eb, i, &es[n], NULL) == BLVL_OK)
            n++;
    }
    uint8_t d[BLVL_DIGEST_SIZE];
    blvl_compute_table_digest(b + toff, count, blvl_le64(b + 16), toff, d);
    memcpy(b + 24, d, sizeof d);
    blvl_compute_identity(es, n, d);
    memcpy(b + 48, d, sizeof d);
    free(es);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1)
        return 0;
    uint8_t mode = data[0];
    size--;
    uint8_t *b = malloc(size ? size : 1);
    memcpy(b, data + 1, size);
    if (mode & 1)
        fixup(b, size);
    blvl_options opt = {0};
    opt.threads = 1u + ((mode >> 1) & 3u);
    opt.inflate_budget = 32u << 20; /* keeps the fuzzer's memory bounded */
    blvl_level *lv = NULL;
    blvl_error e;
    if (blvl_open_memory(&lv, b, size, &opt, &e) == BLVL_OK) {
        for (uint32_t i = 0; i < blvl_count(lv); i++) {
            const blvl_entry *en = blvl_entry_at(lv, i);
            blvl_bytes s;
            blvl_status st = blvl_read(lv, en->tag, &s, &e);
            if (st == BLVL_OK) {
                if (s.size != en->raw_size)
                    abort();
                volatile uint8_t sink = 0;
                for (size_t k = 0; k < s.size; k += 4096)
                    sink ^= s.data[k];
                (void)sink;
                blvl_bytes_free(&s);
            } else if (e.code != st || s.data != NULL) {
                abort();
            }
            if (blvl_read_packed(lv, en->tag, &s, &e) == BLVL_OK) {
                if (s.size != en->packed_size)
                    abort();
                blvl_bytes_free(&s);
            }
        }
        blvl_close(lv);
        /* verify on a fresh level, so it has the whole budget */
        if (blvl_open_memory(&lv, b, size, &opt, &e) == BLVL_OK) {
            blvl_status st = blvl_verify(lv, &e);
            if (st != BLVL_OK && e.code != st)
                abort();
            blvl_close(lv);
        }
    }
    free(b);
    return 0;
}
