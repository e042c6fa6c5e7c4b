#include "container/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/le.h"
#include "common/error.h"
#include "payload/digest.h"

static const uint8_t magic[8] = {0x42, 0x4C, 0x56, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A};

blvl_status blvl__container_header_decode(const uint8_t b[BLVL_HEADER_SIZE], blvl_header *h,
                                          blvl_error *err) {
    if (memcmp(b, magic, 8) != 0)
        return blvl__fail(err, BLVL_E_MAGIC, "not a blvl file (magic bytes do not match)");
    h->version = blvl_le32(b + 8);
    if (h->version != BLVL_CONTAINER_VERSION)
        return blvl__fail(err, BLVL_E_VERSION, "container version %u is not 1", h->version);
    h->flags = blvl_le32(b + 12);
    if (h->flags != 0)
        return blvl__fail(err, BLVL_E_HEADER_FLAGS, "header flags 0x%08x are not 0", h->flags);
    h->floor = blvl_le64(b + 16);
    if (h->floor % BLVL_ALIGN != 0 || h->floor < BLVL_FLOOR_MIN || h->floor > BLVL_FLOOR_MAX)
        return blvl__fail(err, BLVL_E_FLOOR,
                          "payload floor %llu is not a multiple of 64 in 128..131072",
                          (unsigned long long)h->floor);
    memcpy(h->table_digest, b + 24, 16);
    h->count = blvl_le32(b + 40);
    h->table_offset = blvl_le32(b + 44);
    memcpy(h->identity, b + 48, 16);
    uint64_t capacity = (h->floor - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE;
    if (h->count > capacity)
        return blvl__fail(err, BLVL_E_COUNT, "count %u is past the reserved capacity %llu",
                          h->count, (unsigned long long)capacity);
    if (h->table_offset % BLVL_ALIGN != 0 || h->table_offset < BLVL_HEADER_SIZE ||
        (uint64_t)h->table_offset + (uint64_t)h->count * BLVL_ENTRY_SIZE > h->floor)
        return blvl__fail(err, BLVL_E_TABLE_OFFSET,
                          "table at %u with %u entries is not inside the reserved region "
                          "64..%llu on a 64-byte boundary",
                          h->table_offset, h->count, (unsigned long long)h->floor);
    return BLVL_OK;
}

void blvl__container_commit_encode(const uint8_t table_digest[BLVL_DIGEST_SIZE], uint32_t count,
                                   uint32_t table_offset, uint8_t b[BLVL_COMMIT_SIZE]) {
    memcpy(b, table_digest, 16);
    blvl_le_put32(b + 16, count);
    blvl_le_put32(b + 20, table_offset);
}

void blvl__container_header_encode(const blvl_header *h, uint8_t b[BLVL_HEADER_SIZE]) {
    memcpy(b, magic, 8);
    blvl_le_put32(b + 8, h->version);
    blvl_le_put32(b + 12, h->flags);
    blvl_le_put64(b + 16, h->floor);
    blvl__container_commit_encode(h->table_digest, h->count, h->table_offset, b + 24);
    memcpy(b + 48, h->identity, 16);
}

static int tag_char_ok(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

bool blvl_tag_valid(const char *tag, bool *core) {
    if (!tag)
        return 0;
    size_t n = 0;
    int dot = 0;
    for (; tag[n]; n++) {
        if (n >= BLVL_TAG_MAX || !tag_char_ok((unsigned char)tag[n]))
            return 0;
        dot |= tag[n] == '.';
    }
    if (n == 0)
        return 0;
    if (core)
        *core = !dot;
    return 1;
}

blvl_status blvl__container_entry_decode(const uint8_t b[BLVL_ENTRY_SIZE], uint32_t index,
                                         blvl_entry *e, blvl_error *err) {
    memset(e, 0, sizeof *e);
    size_t n = 0;
    while (n < BLVL_TAG_MAX && b[n] != 0)
        n++;
    for (size_t i = n; i < BLVL_TAG_MAX; i++)
        if (b[i] != 0)
            return blvl__fail(err, BLVL_E_TAG, "entry %u: tag has bytes after its first NUL",
                              index);
    memcpy(e->tag, b, n);
    bool core = false;
    if (!blvl_tag_valid(e->tag, &core))
        return blvl__fail(err, BLVL_E_TAG, "entry %u: tag is not 1..16 bytes of [a-z0-9._-]",
                          index);
    e->offset = blvl_le64(b + 16);
    e->packed_size = blvl_le64(b + 24);
    e->raw_size = blvl_le64(b + 32);
    e->version = blvl_le32(b + 40);
    e->flags = blvl_le32(b + 44);
    memcpy(e->digest, b + 48, 16);
    if (e->flags & ~BLVL_ENTRY_FLAG_IDENTITY)
        return blvl__fail(err, BLVL_E_ENTRY_FLAGS, "entry %u (%s): unknown flag bits 0x%08x", index,
                          e->tag, e->flags);
    if (core && !(e->flags & BLVL_ENTRY_FLAG_IDENTITY))
        return blvl__fail(err, BLVL_E_CORE_NOT_IDENTITY,
                          "entry %u: core section '%s' lacks the identity flag", index, e->tag);
    if (e->offset % BLVL_ALIGN != 0)
        return blvl__fail(err, BLVL_E_ENTRY_ALIGN,
                          "entry %u (%s): payload offset %llu is not a multiple of 64", index,
                          e->tag, (unsigned long long)e->offset);
    if (e->raw_size > BLVL_SECTION_RAW_MAX)
        return blvl__fail(err, BLVL_E_RAW_SIZE, "entry %u (%s): raw size %llu is over 2 GiB", index,
                          e->tag, (unsigned long long)e->raw_size);
    /* A payload ends in its u32 chunk count: nothing shorter is a payload. An entry rule, so
     * the verdict follows table order, not the order placement sorts entries in. */
    if (e->packed_size < 4)
        return blvl__fail(err, BLVL_E_ENTRY_EMPTY,
                          "entry %u (%s): packed size %llu is under the 4 bytes of a chunk count",
                          index, e->tag, (unsigned long long)e->packed_size);
    /* No section needs more bytes than its raw bytes stored raw plus its index: a larger claim
     * is refused here, before a reader sizes any buffer or request by it. */
    uint64_t most = blvl__container_packed_max(e->raw_size);
    if (e->packed_size > most)
        return blvl__fail(err, BLVL_E_PACKED_SIZE,
                          "entry %u (%s): packed size %llu is over the %llu bytes a raw size of "
                          "%llu can need (raw + 12 x chunks + 4)",
                          index, e->tag, (unsigned long long)e->packed_size,
                          (unsigned long long)most, (unsigned long long)e->raw_size);
    return BLVL_OK;
}

uint64_t blvl__container_packed_max(uint64_t raw) {
    /* raw is at most 2 GiB here (the raw-size rule comes first), so nothing overflows */
    uint64_t chunks = (raw + BLVL_CHUNK_MAX - 1) / BLVL_CHUNK_MAX;
    return raw + 12 * chunks + 4;
}

void blvl__container_entry_encode(const blvl_entry *e, uint8_t b[BLVL_ENTRY_SIZE]) {
    memset(b, 0, BLVL_ENTRY_SIZE);
    memcpy(b, e->tag, strnlen(e->tag, BLVL_TAG_MAX));
    blvl_le_put64(b + 16, e->offset);
    blvl_le_put64(b + 24, e->packed_size);
    blvl_le_put64(b + 32, e->raw_size);
    blvl_le_put32(b + 40, e->version);
    blvl_le_put32(b + 44, e->flags);
    memcpy(b + 48, e->digest, 16);
}

static void padded_tag(const blvl_entry *e, uint8_t out[BLVL_TAG_MAX]) {
    memset(out, 0, BLVL_TAG_MAX);
    memcpy(out, e->tag, strnlen(e->tag, BLVL_TAG_MAX));
}

static int cmp_tag(const void *a, const void *b) {
    uint8_t ta[BLVL_TAG_MAX], tb[BLVL_TAG_MAX];
    padded_tag(a, ta);
    padded_tag(b, tb);
    return memcmp(ta, tb, BLVL_TAG_MAX);
}

static int cmp_offset(const void *a, const void *b) {
    const blvl_entry *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return cmp_tag(a, b); /* deterministic order for equal offsets (overlaps anyway) */
}

void blvl__container_sort_by_offset(blvl_entry *entries, uint32_t n) {
    if (n > 1)
        qsort(entries, n, sizeof *entries, cmp_offset);
}

uint64_t blvl__container_covered(const blvl_header *h, const blvl_entry *entries) {
    uint64_t covered = h->floor;
    for (uint32_t i = 0; i < h->count; i++) {
        if (entries[i].packed_size > UINT64_MAX - covered)
            return UINT64_MAX;
        covered += entries[i].packed_size;
    }
    return covered;
}

uint64_t blvl__container_unreferenced_limit(uint64_t covered) {
    uint64_t l = covered / 16;
    return l > (1u << 20) ? l : (1u << 20);
}

uint64_t blvl__container_default_budget(uint64_t covered) {
    uint64_t b = covered > UINT64_MAX / 64 ? UINT64_MAX : covered * 64;
    return b > (64ull << 20) ? b : (64ull << 20);
}

blvl_status blvl__container_budget_check(const blvl_entry *entries, uint32_t n, uint64_t covered,
                                         blvl_error *err) {
    return blvl__container_budget_check_limit(entries, n, covered, 0, err);
}

blvl_status blvl__container_budget_check_limit(const blvl_entry *entries, uint32_t n,
                                               uint64_t covered, uint64_t limit, blvl_error *err) {
    uint64_t raw = 0, lim = limit ? limit : blvl__container_default_budget(covered);
    uint32_t big = 0;
    for (uint32_t i = 0; i < n; i++) {
        raw = entries[i].raw_size > UINT64_MAX - raw ? UINT64_MAX : raw + entries[i].raw_size;
        if (entries[i].raw_size > entries[big].raw_size)
            big = i;
    }
    if (raw <= lim)
        return BLVL_OK;
    const blvl_entry *e = &entries[big];
    uint64_t packed = e->packed_size ? e->packed_size : 1;
    char what[96];
    if (limit)
        snprintf(what, sizeof what, "the caller's inflation budget %llu", (unsigned long long)lim);
    else
        snprintf(what, sizeof what, "max(64 MiB, 64 x covered %llu) = %llu",
                 (unsigned long long)covered, (unsigned long long)lim);
    return blvl__fail(err, BLVL_E_BUDGET,
                      "sections inflate to %llu bytes, over %s; largest is '%s': %llu raw from "
                      "%llu packed (ratio %llu:1)",
                      (unsigned long long)raw, what, e->tag, (unsigned long long)e->raw_size,
                      (unsigned long long)e->packed_size,
                      (unsigned long long)(e->raw_size / packed));
}

uint64_t blvl__container_floor_for(uint32_t count) {
    uint64_t slots = 2ull * count + 16;
    uint64_t need = BLVL_HEADER_SIZE + BLVL_ENTRY_SIZE * slots;
    uint64_t floor = (need + BLVL_REGION_ROUND - 1) / BLVL_REGION_ROUND * BLVL_REGION_ROUND;
    if (floor > BLVL_FLOOR_MAX) {
        if (count > (BLVL_FLOOR_MAX - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE)
            return 0;
        floor = BLVL_FLOOR_MAX;
    }
    return floor;
}

blvl_status blvl__container_table_check_placement(const blvl_header *h, const blvl_entry *entries,
                                                  blvl_entry *scratch, uint64_t file_size,
                                                  blvl_error *err) {
    uint32_t n = h->count;
    if (n == 0)
        goto sizes;
    memcpy(scratch, entries, (size_t)n * sizeof *scratch);
    qsort(scratch, n, sizeof *scratch, cmp_tag);
    for (uint32_t i = 1; i < n; i++)
        if (cmp_tag(&scratch[i - 1], &scratch[i]) == 0)
            return blvl__fail(err, BLVL_E_TAG_REPEATED, "tag '%s' appears twice", scratch[i].tag);
    for (uint32_t i = 0; i < n; i++) {
        const blvl_entry *e = &entries[i];
        if (e->offset < h->floor)
            return blvl__fail(err, BLVL_E_ENTRY_BELOW_FLOOR,
                              "section '%s' starts at %llu, below the payload floor %llu", e->tag,
                              (unsigned long long)e->offset, (unsigned long long)h->floor);
        if (e->packed_size > UINT64_MAX - e->offset ||
            (file_size != UINT64_MAX && e->offset + e->packed_size > file_size))
            return blvl__fail(err, BLVL_E_ENTRY_PAST_EOF,
                              "section '%s' (%llu bytes at %llu) runs past the end of the file",
                              e->tag, (unsigned long long)e->packed_size,
                              (unsigned long long)e->offset);
    }
    blvl__container_sort_by_offset(scratch, n);
    for (uint32_t i = 1; i < n; i++)
        if (scratch[i - 1].offset + scratch[i - 1].packed_size > scratch[i].offset)
            return blvl__fail(err, BLVL_E_ENTRY_OVERLAP, "sections '%s' and '%s' overlap",
                              scratch[i - 1].tag, scratch[i].tag);
sizes:
    if (file_size != UINT64_MAX) {
        if (file_size < h->floor)
            return blvl__fail(err, BLVL_E_TRUNCATED,
                              "file of %llu bytes ends inside the reserved region (floor %llu)",
                              (unsigned long long)file_size, (unsigned long long)h->floor);
        uint64_t covered = blvl__container_covered(h, entries);
        uint64_t unref = file_size - covered; /* covered <= file_size: no overlap, in file */
        if (unref > blvl__container_unreferenced_limit(covered))
            return blvl__fail(err, BLVL_E_UNREFERENCED,
                              "%llu unreferenced bytes, over the limit max(1 MiB, covered/16) = "
                              "%llu",
                              (unsigned long long)unref,
                              (unsigned long long)blvl__container_unreferenced_limit(covered));
    }
    return BLVL_OK;
}

static void identity_start(blvl_hasher *h, uint32_t records) {
    uint8_t head[16];
    memcpy(head, magic, 8);
    blvl_le_put32(head + 8, BLVL_CONTAINER_VERSION);
    blvl_le_put32(head + 12, records);
    blvl__payload_hasher_init(h);
    blvl__payload_hasher_update(h, head, sizeof head);
}

static void identity_record(blvl_hasher *h, const blvl_entry *e) {
    uint8_t r[BLVL_IDENTITY_RECORD_SIZE];
    padded_tag(e, r);
    blvl_le_put32(r + 16, e->version);
    blvl_le_put32(r + 20, 0);
    blvl_le_put64(r + 24, e->raw_size);
    memcpy(r + 32, e->digest, 16);
    blvl__payload_hasher_update(h, r, sizeof r);
}

static uint32_t identity_records(const blvl_entry *e, uint32_t n) {
    uint32_t records = 0;
    for (uint32_t i = 0; i < n; i++)
        records += (e[i].flags & BLVL_ENTRY_FLAG_IDENTITY) != 0;
    return records;
}

/* Identity over the identity-flagged entries, which `sorted` holds sorted by tag. */
static void identity_of_sorted(const blvl_entry *sorted, uint32_t n, uint8_t out[16]) {
    blvl_hasher h;
    identity_start(&h, identity_records(sorted, n));
    for (uint32_t i = 0; i < n; i++)
        if (sorted[i].flags & BLVL_ENTRY_FLAG_IDENTITY)
            identity_record(&h, &sorted[i]);
    blvl__payload_hasher_final(&h, out);
}

/* (tag, index) order, so equal tags (which no valid table has) still give one order. */
static int before(const blvl_entry *e, uint32_t i, uint32_t j) {
    int c = cmp_tag(&e[i], &e[j]);
    return c < 0 || (c == 0 && i < j);
}

void blvl_compute_identity(const blvl_entry *entries, uint32_t count,
                           uint8_t out[BLVL_DIGEST_SIZE]) {
    /* Records in tag order by repeated selection: no allocation, and a level holds at most
     * 2047 entries (open and edits sort a scratch copy instead). */
    uint32_t records = identity_records(entries, count);
    blvl_hasher h;
    identity_start(&h, records);
    uint32_t last = UINT32_MAX;
    for (uint32_t k = 0; k < records; k++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < count; i++) {
            if (!(entries[i].flags & BLVL_ENTRY_FLAG_IDENTITY))
                continue;
            if (last != UINT32_MAX && !before(entries, last, i))
                continue;
            if (best == UINT32_MAX || before(entries, i, best))
                best = i;
        }
        identity_record(&h, &entries[best]);
        last = best;
    }
    blvl__payload_hasher_final(&h, out);
}

void blvl_compute_table_digest(const uint8_t *table_bytes, uint32_t count, uint64_t floor,
                               uint32_t table_offset, uint8_t out[BLVL_DIGEST_SIZE]) {
    /* Every header byte a reader uses is pinned: magic, version, count, floor and table
     * offset here, the identity by its own digest, the flags by the rule that they are 0. */
    uint8_t head[32];
    memcpy(head, magic, 8);
    blvl_le_put32(head + 8, BLVL_CONTAINER_VERSION);
    blvl_le_put32(head + 12, count);
    blvl_le_put64(head + 16, floor);
    blvl_le_put32(head + 24, table_offset);
    blvl_le_put32(head + 28, 0);
    blvl_hasher h;
    blvl__payload_hasher_init(&h);
    blvl__payload_hasher_update(&h, head, sizeof head);
    if (count)
        blvl__payload_hasher_update(&h, table_bytes, (size_t)count * BLVL_ENTRY_SIZE);
    blvl__payload_hasher_final(&h, out);
}

blvl_status blvl__container_table_load(const blvl_header *h, const uint8_t *table_bytes,
                                       uint64_t file_size, blvl_entry *entries, blvl_entry *scratch,
                                       blvl_error *err) {
    blvl_status st;
    for (uint32_t i = 0; i < h->count; i++)
        if ((st = blvl__container_entry_decode(table_bytes + (size_t)i * BLVL_ENTRY_SIZE, i,
                                               &entries[i], err)) != BLVL_OK)
            return st;
    if ((st = blvl__container_table_check_placement(h, entries, scratch, file_size, err)) !=
        BLVL_OK)
        return st;
    uint8_t d[16];
    blvl_compute_table_digest(table_bytes, h->count, h->floor, h->table_offset, d);
    if (memcmp(d, h->table_digest, 16) != 0)
        return blvl__fail(err, BLVL_E_TABLE_DIGEST, "stored table digest does not match the table");
    if (h->count) {
        memcpy(scratch, entries, (size_t)h->count * sizeof *scratch);
        qsort(scratch, h->count, sizeof *scratch, cmp_tag);
    }
    identity_of_sorted(scratch, h->count, d);
    if (memcmp(d, h->identity, 16) != 0)
        return blvl__fail(err, BLVL_E_IDENTITY,
                          "stored identity does not match the identity records");
    return BLVL_OK;
}
