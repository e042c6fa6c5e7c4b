/* The container's byte layout: header and table entries, decoded and validated as pure
 * functions over bytes, shared by the random-access reader, the streaming reader, the writer
 * and the editor. docs/FORMAT.md is the normative description of every rule checked here. */
#ifndef BLVL_CONTAINER_FORMAT_H
#define BLVL_CONTAINER_FORMAT_H
#include "blvl/blvl.h"

#define BLVL_COMMIT_OFFSET 24u /* the in-place commit rewrites bytes 24..48 */
#define BLVL_COMMIT_SIZE 24u
#define BLVL_IDENTITY_RECORD_SIZE 48u
#define BLVL_ALIGN 64u
#define BLVL_REGION_ROUND 4096u

typedef struct blvl_header {
    uint32_t version;
    uint32_t flags;
    uint64_t floor;
    uint8_t table_digest[BLVL_DIGEST_SIZE];
    uint32_t count;
    uint32_t table_offset;
    uint8_t identity[BLVL_DIGEST_SIZE];
} blvl_header;

/* Decode and check the 64 header bytes: magic, version, flags, floor, count against the
 * capacity, and the table lying inside 64..floor. */
blvl_status blvl__container_header_decode(const uint8_t bytes[BLVL_HEADER_SIZE], blvl_header *out,
                                          blvl_error *err);
void blvl__container_header_encode(const blvl_header *h, uint8_t bytes[BLVL_HEADER_SIZE]);
/* Bytes 24..48 of the header: table digest, count, table offset (the commit record). */
void blvl__container_commit_encode(const uint8_t table_digest[BLVL_DIGEST_SIZE], uint32_t count,
                                   uint32_t table_offset, uint8_t bytes[BLVL_COMMIT_SIZE]);

/* Decode and check one 64-byte entry on its own: tag bytes, flags, core tag in identity,
 * payload alignment, raw size, packed size of at least 4 and at most
 * blvl__container_packed_max(raw) (in that order). `index` is for the message. */
blvl_status blvl__container_entry_decode(const uint8_t bytes[BLVL_ENTRY_SIZE], uint32_t index,
                                         blvl_entry *out, blvl_error *err);
/* The largest packed size a section of `raw` bytes (at most 2 GiB) may have: every chunk
 * stored raw, plus the 12-byte index entries and the count, raw + 12 x ceil(raw / 4 MiB) + 4. */
uint64_t blvl__container_packed_max(uint64_t raw);
void blvl__container_entry_encode(const blvl_entry *e, uint8_t bytes[BLVL_ENTRY_SIZE]);

/* Decode every entry of the table bytes and check the rules that need them all: repeated
 * tags, payloads below the floor, overlaps, and (when file_size is not UINT64_MAX) payloads
 * past the end and the unreferenced-bytes limit. Then check the stored table digest and
 * identity. `entries` has room for h->count. `scratch` has room for h->count entries too (used
 * for sorting); both may be NULL when count is 0. */
blvl_status blvl__container_table_load(const blvl_header *h, const uint8_t *table_bytes,
                                       uint64_t file_size, blvl_entry *entries, blvl_entry *scratch,
                                       blvl_error *err);

/* Placement checks alone (no digests): used by table_load, and by the streaming reader once
 * it learns the file size. */
blvl_status blvl__container_table_check_placement(const blvl_header *h, const blvl_entry *entries,
                                                  blvl_entry *scratch, uint64_t file_size,
                                                  blvl_error *err);
/* covered = floor + sum of packed sizes (saturating). */
uint64_t blvl__container_covered(const blvl_header *h, const blvl_entry *entries);
/* max(1 MiB, covered / 16) */
uint64_t blvl__container_unreferenced_limit(uint64_t covered);
/* The default inflation budget: max(64 MiB, 64 * covered), saturating. */
uint64_t blvl__container_default_budget(uint64_t covered);
/* The inflation-budget rule of a whole level, with no state: the sum of the entries' raw sizes
 * is at most blvl__container_default_budget(covered). Readers check it at open; every writer checks
 * it against what it is about to write. The refusal names the section with the largest raw size and
 * its packed-to-raw ratio. */
blvl_status blvl__container_budget_check(const blvl_entry *entries, uint32_t n, uint64_t covered,
                                         blvl_error *err);
/* The same rule against `limit` instead of the default when `limit` is not 0 (a caller's
 * blvl_options.inflate_budget). */
blvl_status blvl__container_budget_check_limit(const blvl_entry *entries, uint32_t n,
                                               uint64_t covered, uint64_t limit, blvl_error *err);

/* Capacity a writer reserves for `count` sections: floor = round_up(64 + 64 * (2*count+16),
 * 4096), capped at BLVL_FLOOR_MAX; 0 when even the cap cannot hold `count` entries. */
uint64_t blvl__container_floor_for(uint32_t count);

/* Sort entries by payload offset, ties by tag so the order is deterministic (qsort; n may be
 * 0). */
void blvl__container_sort_by_offset(blvl_entry *entries, uint32_t n);
#endif
