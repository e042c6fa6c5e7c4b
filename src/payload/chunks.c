/* The chunk index: the last 4 bytes of a payload are the chunk count n, the 12*n bytes before
 * them the index, and the chunks tile everything before the index, in order. */
#include <string.h>

#include "common/alloc.h"
#include "blvl/le.h"
#include "common/error.h"
#include "payload/payload.h"

blvl_status blvl__payload_chunks_parse(const uint8_t *packed, uint64_t packed_size,
                                       uint64_t raw_size, const blvl_allocator *a, blvl_chunk **out,
                                       uint32_t *n_out, blvl_error *err) {
    *out = NULL;
    *n_out = 0;
    if (packed_size < 4)
        return blvl__fail(err, BLVL_E_CHUNK_INDEX,
                          "payload of %llu bytes is too short for a chunk count",
                          (unsigned long long)packed_size);
    uint32_t n = blvl_le32(packed + packed_size - 4);
    uint64_t index_size = (uint64_t)n * BLVL_CHUNK_INDEX_ENTRY;
    return blvl__payload_chunks_parse_index(
        index_size <= packed_size - 4 ? packed + (packed_size - 4 - index_size) : NULL, n,
        packed_size, raw_size, a, out, n_out, err);
}

blvl_status blvl__payload_chunks_parse_index(const uint8_t *index, uint32_t n, uint64_t packed_size,
                                             uint64_t raw_size, const blvl_allocator *a,
                                             blvl_chunk **out, uint32_t *n_out, blvl_error *err) {
    *out = NULL;
    *n_out = 0;
    if (packed_size < 4)
        return blvl__fail(err, BLVL_E_CHUNK_INDEX,
                          "payload of %llu bytes is too short for a chunk count",
                          (unsigned long long)packed_size);
    uint64_t index_size = (uint64_t)n * BLVL_CHUNK_INDEX_ENTRY;
    if (index_size > packed_size - 4)
        return blvl__fail(err, BLVL_E_CHUNK_INDEX,
                          "chunk count %u does not fit a payload of %llu bytes", n,
                          (unsigned long long)packed_size);
    /* Every chunk but the last holds exactly 4 MiB, so the count follows from the raw size. */
    uint64_t want = (raw_size + BLVL_CHUNK_MAX - 1) / BLVL_CHUNK_MAX;
    if (n != want)
        return blvl__fail(err, BLVL_E_CHUNK_INDEX,
                          "%u chunks for %llu raw bytes; the 4 MiB cut gives %llu", n,
                          (unsigned long long)raw_size, (unsigned long long)want);
    uint64_t data_end = packed_size - 4 - index_size;
    if (n == 0) {
        if (data_end != 0)
            return blvl__fail(err, BLVL_E_CHUNK_INDEX,
                              "an empty section carries %llu bytes before its chunk count",
                              (unsigned long long)data_end);
        return BLVL_OK;
    }
    blvl_chunk *c = blvl__alloc(a, (size_t)n * sizeof *c);
    if (!c)
        return blvl__nomem(err, "a chunk index of %u entries", n);
    const uint8_t *ix = index;
    uint64_t poff = 0, roff = 0;
    blvl_status st = BLVL_OK;
    for (uint32_t i = 0; i < n; i++, ix += BLVL_CHUNK_INDEX_ENTRY) {
        uint32_t psz = blvl_le32(ix), rsz = blvl_le32(ix + 4);
        uint8_t codec = ix[8];
        if (rsz > BLVL_CHUNK_MAX) {
            st = blvl__fail(err, BLVL_E_CHUNK_SIZE, "chunk %u holds %u raw bytes, over 4 MiB", i,
                            rsz);
            goto fail;
        }
        if (codec > BLVL_CODEC_ZSTD || ix[9] || ix[10] || ix[11]) {
            st = blvl__fail(err, BLVL_E_CODEC,
                            "chunk %u: codec %u or its reserved bytes are not known", i, codec);
            goto fail;
        }
        uint64_t want_raw = i + 1 < n ? BLVL_CHUNK_MAX : raw_size - roff;
        if (rsz != want_raw) {
            st = blvl__fail(err, BLVL_E_CHUNK_INDEX,
                            "chunk %u holds %u raw bytes; the 4 MiB cut of %llu raw bytes "
                            "gives %llu",
                            i, rsz, (unsigned long long)raw_size, (unsigned long long)want_raw);
            goto fail;
        }
        if (psz == 0 || (codec == BLVL_CODEC_RAW && psz != rsz)) {
            st = blvl__fail(err, BLVL_E_CHUNK_INDEX,
                            "chunk %u: packed size %u is impossible for codec %u and %u raw "
                            "bytes",
                            i, psz, codec, rsz);
            goto fail;
        }
        if (psz > data_end - poff) {
            st = blvl__fail(err, BLVL_E_CHUNK_INDEX,
                            "chunk %u (%u bytes at %llu) runs into the chunk index at %llu", i, psz,
                            (unsigned long long)poff, (unsigned long long)data_end);
            goto fail;
        }
        c[i].packed_offset = poff;
        c[i].raw_offset = roff;
        c[i].packed_size = psz;
        c[i].raw_size = rsz;
        c[i].codec = codec;
        poff += psz;
        roff += rsz;
    }
    if (poff != data_end) {
        st = blvl__fail(err, BLVL_E_CHUNK_INDEX,
                        "chunks cover %llu bytes but the index starts at %llu",
                        (unsigned long long)poff, (unsigned long long)data_end);
        goto fail;
    }
    *out = c;
    *n_out = n;
    return BLVL_OK;
fail:
    blvl__dealloc(a, c, (size_t)n * sizeof *c);
    return st;
}

uint64_t blvl__payload_inflated_size(const blvl_chunk *chunks, uint32_t n) {
    uint64_t t = 0;
    for (uint32_t i = 0; i < n; i++)
        if (chunks[i].codec == BLVL_CODEC_ZSTD)
            t += chunks[i].raw_size;
    return t;
}
