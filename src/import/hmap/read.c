/* blvl_hmap_read, in the order its refusals come (docs/IMPORT-HMAP.md, "Reading"):
 *   1. the header: size limit, 12 bytes, magic, version;
 *   2. the chunk framing, all of it: each chunk header whole, each payload inside the file, no
 *      known chunk twice;
 *   3. each chunk's payload in file order: fields inside the chunk, counts that fit, strings,
 *      the checks within the chunk, no bytes left over; unknown chunks copied;
 *   4. the checks across chunks (check.c).
 * Nothing is allocated for a count before the bytes it needs are known to be there. */
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

static blvl_status header(const uint8_t *b, size_t size, blvl_error *err) {
    if (size > BLVL_HMAP_MAX_FILE)
        return blvl__fail_source(err, "header", "file", BLVL_HMAP_MAX_FILE, "file-size",
                                 "%zu bytes, over the limit of %u", size, BLVL_HMAP_MAX_FILE);
    if (size < HM_HEADER_SIZE)
        return blvl__fail_source(err, "header",
                                 size < 4   ? "magic"
                                 : size < 8 ? "version"
                                            : "flags",
                                 size < 4   ? 0
                                 : size < 8 ? 4
                                            : 8,
                                 "header-size", "the file has %zu bytes, the header needs 12",
                                 size);
    if (memcmp(b, "HMAP", 4) != 0) {
        char t[17];
        blvl__import_hmap_tag_text(b, t);
        return blvl__fail_source(err, "header", "magic", 0, "magic", "\"%s\" is not \"HMAP\"", t);
    }
    uint32_t version = blvl_le32(b + 4);
    if (version != BLVL_HMAP_VERSION)
        return blvl__fail_source(err, "header", "version", 4, "version",
                                 "%u, but this reader knows only version %u", version,
                                 BLVL_HMAP_VERSION);
    return BLVL_OK;
}

/* Step 2: counts the chunks, refusing a bad frame or a repeated known chunk. */
static blvl_status frame(const uint8_t *b, size_t size, uint32_t *count, blvl_error *err) {
    uint64_t first[HM_KINDS] = {0};
    uint64_t pos = HM_HEADER_SIZE;
    uint32_t n = 0;
    while (pos < size) {
        if (size - pos < HM_CHUNK_HEADER)
            return blvl__fail_source(err, "file", "chunk header", pos, "chunk-header",
                                     "%llu bytes are left, a chunk header takes 8",
                                     (unsigned long long)(size - pos));
        char tag[17];
        blvl__import_hmap_tag_text(b + pos, tag);
        uint32_t psize = blvl_le32(b + pos + 4);
        if (psize > size - pos - HM_CHUNK_HEADER)
            return blvl__fail_source(err, tag, "payloadSize", pos + 4, "chunk-size",
                                     "%u bytes, %llu are left in the file", psize,
                                     (unsigned long long)(size - pos - HM_CHUNK_HEADER));
        hm_kind kind = blvl__import_hmap_kind_of((const char *)b + pos);
        if (kind != HM_KINDS) {
            if (first[kind])
                return blvl__fail_source(err, tag, "tag", pos, "chunk-repeated",
                                         "a second %s chunk (the first is at offset %llu)", tag,
                                         (unsigned long long)first[kind]);
            first[kind] = pos;
        }
        n++;
        pos += HM_CHUNK_HEADER + (uint64_t)psize;
    }
    *count = n;
    return BLVL_OK;
}

typedef blvl_status (*chunk_reader)(blvl__cursor *c, blvl_hmap *map);
static const chunk_reader readers[HM_KINDS] = {
    blvl__import_hmap_read_meta, blvl__import_hmap_read_mats, blvl__import_hmap_read_brsh,
    blvl__import_hmap_read_mesh, blvl__import_hmap_read_ents, blvl__import_hmap_read_cmpl};

static blvl_status chunks(const uint8_t *b, const blvl_allocator *a, blvl_hmap *map,
                          blvl_error *err) {
    uint64_t pos = HM_HEADER_SIZE;
    for (uint32_t i = 0; i < map->chunk_count; i++) {
        blvl_hmap_chunk *ch = &map->chunks[i];
        memcpy(ch->tag, b + pos, 4);
        ch->size = blvl_le32(b + pos + 4);
        ch->offset = pos;
        hm_kind kind = blvl__import_hmap_kind_of(ch->tag);
        ch->known = kind != HM_KINDS;
        uint64_t start = pos + HM_CHUNK_HEADER;
        pos = start + ch->size;
        if (!ch->known) {
            if (ch->size) {
                ch->bytes = blvl__alloc(a, ch->size);
                if (!ch->bytes)
                    return blvl__nomem(err, "a %u-byte chunk", ch->size);
                memcpy(ch->bytes, b + start, ch->size);
            }
            continue;
        }
        char part[5] = {ch->tag[0], ch->tag[1], ch->tag[2], ch->tag[3], 0};
        blvl__cursor c = {
            .base = b, .pos = start, .end = pos, .part = part, .unit = "chunk", .a = a, .err = err};
        blvl_status st = readers[kind](&c, map);
        if (st)
            return st;
    }
    return BLVL_OK;
}

blvl_status blvl_hmap_read(blvl_hmap **out, const void *data, size_t size, const blvl_options *opt,
                           blvl_error *err) {
    blvl__ok(err);
    if (!out || (!data && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_hmap_read: NULL data or out");
    *out = NULL;
    const uint8_t *b = data;
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    blvl_status st = header(b, size, err);
    uint32_t count = 0;
    if (!st)
        st = frame(b, size, &count, err);
    if (st)
        return st;
    blvl_hmap *map = blvl__calloc(a, sizeof *map);
    if (!map)
        return blvl__nomem(err, "the map");
    if (a)
        map->allocator = *a;
    map->version = blvl_le32(b + 4);
    map->flags = blvl_le32(b + 8);
    if (count) {
        map->chunks = blvl__calloc_n(a, count, sizeof *map->chunks);
        if (!map->chunks)
            st = blvl__nomem(err, "%u chunks", count);
        else
            map->chunk_count = count;
    }
    if (!st)
        st = chunks(b, a, map, err);
    if (!st)
        st = blvl__import_hmap_check_map(map, err);
    if (st) {
        blvl_hmap_free(map);
        return st;
    }
    *out = map;
    return BLVL_OK;
}
