/* The eLVL section (docs/IMPORT-SUBSPACE.md, "The file"): its 12-byte header, the chunks with
 * their 4-byte alignment, ATTR split at its first '=', and REGN walked into its sub-chunks
 * (rTIL checked by decoding it once). Every chunk and sub-chunk is copied whole, known or not,
 * with its alignment bytes, so the writer can give the section back byte for byte. */
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/subspace/subspace_internal.h"

void blvl__import_subspace_tag_text(const uint8_t *t, char out[17]) {
    static const char hex[] = "0123456789abcdef";
    char *o = out;
    for (int i = 0; i < 4; i++) {
        if (t[i] >= 0x20 && t[i] < 0x7f && t[i] != '\\') {
            *o++ = (char)t[i];
        } else {
            *o++ = '\\';
            *o++ = 'x';
            *o++ = hex[t[i] >> 4];
            *o++ = hex[t[i] & 15];
        }
    }
    *o = 0;
}

/* Counts the chunks framed in [pos, end), refusing a cut header or a size past `end`. `part`
 * and the rule prefix differ between the section ("eLVL") and a REGN's sub-chunks. */
static blvl_status frame(const uint8_t *b, uint64_t pos, uint64_t end, const char *part,
                         const char *what, uint32_t *count, blvl_error *err) {
    uint32_t n = 0;
    while (pos < end) {
        if (end - pos < SS_CHUNK_HEADER)
            return blvl__fail_source(err, part, "chunk header", pos, "chunk-header",
                                     "%llu bytes are left in the %s, a chunk header takes 8",
                                     (unsigned long long)(end - pos), what);
        uint32_t size = blvl_le32(b + pos + 4);
        if (size > end - pos - SS_CHUNK_HEADER) {
            char tag[17];
            blvl__import_subspace_tag_text(b + pos, tag);
            return blvl__fail_source(err, part, "chunk size", pos + 4, "chunk-size",
                                     "a %s chunk of %u bytes, %llu are left in the %s", tag, size,
                                     (unsigned long long)(end - pos - SS_CHUNK_HEADER), what);
        }
        pos += SS_CHUNK_HEADER + (uint64_t)size;
        uint32_t pad = ss_pad(size);
        pos += pad < end - pos ? pad : end - pos;
        n++;
    }
    *count = n;
    return BLVL_OK;
}

/* Copies the `n` chunks framed from `pos` (frame() has checked them). */
static blvl_status chunks(const uint8_t *b, uint64_t pos, uint64_t end, const blvl_allocator *a,
                          blvl_subspace_chunk *c, uint32_t n, blvl_error *err) {
    for (uint32_t i = 0; i < n; i++) {
        memcpy(c[i].type, b + pos, 4);
        c[i].size = blvl_le32(b + pos + 4);
        c[i].offset = pos;
        pos += SS_CHUNK_HEADER;
        if (c[i].size) {
            if (!(c[i].bytes = blvl__alloc(a, c[i].size)))
                return blvl__nomem(err, "the eLVL's arrays");
            memcpy(c[i].bytes, b + pos, c[i].size);
        }
        pos += c[i].size;
        uint32_t pad = ss_pad(c[i].size);
        c[i].pad_size = (uint8_t)(pad < end - pos ? pad : end - pos);
        memcpy(c[i].pad, b + pos, c[i].pad_size);
        pos += c[i].pad_size;
    }
    return BLVL_OK;
}

/* A NUL-terminated copy of n bytes (stopping at an embedded NUL), freed with free_sized. */
static char *text(const blvl_allocator *a, const uint8_t *p, uint32_t n) {
    const uint8_t *z = memchr(p, 0, n);
    size_t len = z ? (size_t)(z - p) : n;
    char *s = blvl__alloc_sized(a, len + 1);
    if (s) {
        memcpy(s, p, len);
        s[len] = 0;
    }
    return s;
}

static blvl_status attr(const blvl_allocator *a, const blvl_subspace_chunk *c, uint32_t index,
                        blvl_subspace_attr *out, blvl_error *err) {
    static const uint8_t none[1] = {0};
    const uint8_t *p = c->bytes ? c->bytes : none;
    const uint8_t *eq = c->size ? memchr(p, '=', c->size) : NULL;
    uint32_t klen = eq ? (uint32_t)(eq - p) : c->size;
    out->chunk = index;
    if (!(out->key = text(a, p, klen)))
        return blvl__nomem(err, "the eLVL's arrays");
    if (eq && !(out->value = text(a, eq + 1, c->size - klen - 1)))
        return blvl__nomem(err, "the eLVL's arrays");
    return BLVL_OK;
}

static bool is(const blvl_subspace_chunk *c, const char *t) {
    return memcmp(c->type, t, 4) == 0;
}

/* A region's known sub-chunks. rNAM, rTIL and rAWP may come once; rPYC is indexed at its first
 * appearance (others are kept as read). */
static blvl_status region(const uint8_t *b, const blvl_allocator *a, const blvl_subspace_chunk *c,
                          uint32_t index, blvl_subspace_region *r, blvl_error *err) {
    uint64_t at = c->offset + SS_CHUNK_HEADER, end = at + c->size;
    r->chunk = index;
    r->tiles_sub = r->code_sub = SS_NONE;
    uint32_t n;
    blvl_status st = frame(b, at, end, "REGN", "REGN chunk", &n, err);
    if (st != BLVL_OK)
        return st;
    if (n && !(r->subs = blvl__calloc_n(a, n, sizeof *r->subs)))
        return blvl__nomem(err, "the eLVL's arrays");
    r->sub_count = n;
    if ((st = chunks(b, at, end, a, r->subs, n, err)) != BLVL_OK)
        return st;
    bool named = false;
    for (uint32_t i = 0; i < n; i++) {
        const blvl_subspace_chunk *s = &r->subs[i];
        uint64_t data = s->offset + SS_CHUNK_HEADER;
        char tag[17];
        blvl__import_subspace_tag_text((const uint8_t *)s->type, tag);
        bool once = is(s, "rNAM") || is(s, "rTIL") || is(s, "rAWP");
        bool seen = (is(s, "rNAM") && named) || (is(s, "rTIL") && r->tiles_sub != SS_NONE) ||
                    (is(s, "rAWP") && r->has_autowarp);
        if (once && seen)
            return blvl__fail_source(err, "REGN", tag, s->offset, "regn-repeated",
                                     "a second %s in one region", tag);
        if (is(s, "rNAM")) {
            named = true;
            if (!(r->name = text(a, s->bytes ? s->bytes : (const uint8_t *)"", s->size)))
                return blvl__nomem(err, "the eLVL's arrays");
        } else if (is(s, "rTIL")) {
            r->tiles_sub = i;
            if ((st = blvl__import_subspace_rtil(s->bytes, s->size, data, NULL, err)) != BLVL_OK)
                return st;
        } else if (is(s, "rBSE")) {
            r->base = true;
        } else if (is(s, "rNAW")) {
            r->no_antiwarp = true;
        } else if (is(s, "rNWP")) {
            r->no_weapons = true;
        } else if (is(s, "rNFL")) {
            r->no_flag_drops = true;
        } else if (is(s, "rAWP")) {
            if (s->size != 4 && (s->size < 5 || s->size > 20))
                return blvl__fail_source(err, "REGN", "rAWP", s->offset + 4, "rawp-size",
                                         "%u bytes; an auto-warp is 4 (x, y) or 5 to 20 (an "
                                         "arena name of up to 16 bytes after them)",
                                         s->size);
            r->has_autowarp = true;
            r->warp_x = (int16_t)blvl_le16(s->bytes);
            r->warp_y = (int16_t)blvl_le16(s->bytes + 2);
            if (s->size > 4 && s->bytes[4] != 0 &&
                !(r->warp_arena = text(a, s->bytes + 4, s->size - 4)))
                return blvl__nomem(err, "the eLVL's arrays");
        } else if (is(s, "rPYC")) {
            if (r->code_sub == SS_NONE)
                r->code_sub = i;
        }
    }
    return BLVL_OK;
}

blvl_status blvl__import_subspace_read_elvl(const uint8_t *b, uint64_t at, uint64_t limit,
                                            const blvl_allocator *a, blvl_subspace_elvl **out,
                                            blvl_error *err) {
    if (limit < at || limit - at < SS_ELVL_HEADER)
        return blvl__fail_source(err, "eLVL", "header", at, "elvl-header",
                                 "%llu bytes are left for it, the header takes 12",
                                 (unsigned long long)(limit < at ? 0 : limit - at));
    if (memcmp(b + at, "elvl", 4) != 0) {
        char tag[17];
        blvl__import_subspace_tag_text(b + at, tag);
        return blvl__fail_source(err, "eLVL", "magic", at, "elvl-header", "\"%s\" is not \"elvl\"",
                                 tag);
    }
    uint32_t total = blvl_le32(b + at + 4);
    if (total < SS_ELVL_HEADER || total > limit - at)
        return blvl__fail_source(err, "eLVL", "total size", at + 4, "elvl-size",
                                 "%u bytes; it must be at least 12 and at most the %llu left "
                                 "before %s",
                                 total, (unsigned long long)(limit - at),
                                 at ? "the tile records" : "the end of the file");
    uint64_t end = at + total, first = at + SS_ELVL_HEADER;
    uint32_t n;
    blvl_status st = frame(b, first, end, "eLVL", "section", &n, err);
    if (st != BLVL_OK)
        return st;
    blvl_subspace_elvl *e = blvl__calloc(a, sizeof *e);
    if (!e)
        return blvl__nomem(err, "the eLVL's arrays");
    e->offset = at;
    e->total_size = total;
    e->reserved = blvl_le32(b + at + 8);
    uint32_t attrs = 0, regions = 0;
    if (n && !(e->chunks = blvl__calloc_n(a, n, sizeof *e->chunks))) {
        st = blvl__nomem(err, "the eLVL's arrays");
        goto fail;
    }
    e->chunk_count = n;
    if ((st = chunks(b, first, end, a, e->chunks, n, err)) != BLVL_OK)
        goto fail;
    for (uint32_t i = 0; i < n; i++) {
        attrs += is(&e->chunks[i], "ATTR");
        regions += is(&e->chunks[i], "REGN");
    }
    /* each count is set with its array (zeroed): a failure frees only what was filled */
    if (attrs && !(e->attrs = blvl__calloc_n(a, attrs, sizeof *e->attrs))) {
        st = blvl__nomem(err, "the eLVL's arrays");
        goto fail;
    }
    e->attr_count = attrs;
    if (regions && !(e->regions = blvl__calloc_n(a, regions, sizeof *e->regions))) {
        st = blvl__nomem(err, "the eLVL's arrays");
        goto fail;
    }
    e->region_count = regions;
    uint32_t ai = 0, ri = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (is(&e->chunks[i], "ATTR")) {
            st = attr(a, &e->chunks[i], i, &e->attrs[ai++], err);
        } else if (is(&e->chunks[i], "REGN")) {
            st = region(b, a, &e->chunks[i], i, &e->regions[ri++], err);
        }
        if (st != BLVL_OK)
            goto fail;
    }
    *out = e;
    return BLVL_OK;
fail:
    blvl__import_subspace_free_elvl(a, e);
    return st;
}

static void free_chunks(const blvl_allocator *a, blvl_subspace_chunk *c, uint32_t n) {
    for (uint32_t i = 0; c && i < n; i++)
        blvl__dealloc(a, c[i].bytes, c[i].size);
    blvl__dealloc(a, c, (size_t)n * sizeof *c);
}

void blvl__import_subspace_free_elvl(const blvl_allocator *a, blvl_subspace_elvl *e) {
    if (!e)
        return;
    for (uint32_t i = 0; e->attrs && i < e->attr_count; i++) {
        blvl__free_sized(a, e->attrs[i].key);
        blvl__free_sized(a, e->attrs[i].value);
    }
    for (uint32_t i = 0; e->regions && i < e->region_count; i++) {
        blvl_subspace_region *r = &e->regions[i];
        free_chunks(a, r->subs, r->sub_count);
        blvl__free_sized(a, r->name);
        blvl__free_sized(a, r->warp_arena);
    }
    free_chunks(a, e->chunks, e->chunk_count);
    blvl__dealloc(a, e->attrs, (size_t)e->attr_count * sizeof *e->attrs);
    blvl__dealloc(a, e->regions, (size_t)e->region_count * sizeof *e->regions);
    blvl__dealloc(a, e, sizeof *e);
}
