/* The streaming writer. Two cursors run through the level:
 *   filling: append copies raw bytes into the current pipe slot; a full slot (4 MiB) is handed
 *     to the workers when the next byte arrives, and end hands over the last one (possibly
 *     empty) marked LAST, so every section ends in exactly one LAST slot;
 *   writing: slots come back from the pipe in the order they were handed over; each chunk is
 *     written at `pos` and hashed, its index entry kept; the LAST slot writes the index and
 *     the count, finishes the digest and the entry, and the next section starts at the next
 *     multiple of 64 (the zero padding is written with its first bytes).
 * The writing side runs on the caller's thread whenever the ring is full and at commit, so
 * the file grows front to back and the bytes never depend on the workers' timing. */
#include <string.h>

#include "common/alloc.h"
#include "blvl/le.h"
#include "common/error.h"
#include "container/format.h"
#include "container/layout.h"
#include "container/out_file.h"
#include "container/target.h"
#include "container/writer_internal.h"
#include "payload/digest.h"
#include "payload/payload.h"
#include "payload/pipe.h"

#define LAST 0x80000000u
#define MAX_CHUNKS ((uint32_t)(BLVL_SECTION_RAW_MAX / BLVL_CHUNK_MAX))

struct blvl_writer {
    blvl_allocator alloc;    /* a copy of the caller's */
    const blvl_allocator *a; /* &alloc */
    blvl_target target;
    blvl_pipe *pipe;
    void (*progress)(void *user, uint64_t done, uint64_t total);
    void *progress_user;
    uint64_t total_raw, done_raw;
    uint32_t max, n; /* declared bound, sections begun */
    uint64_t floor;
    blvl_entry *entries; /* max entries (at least 1) */
    /* filling */
    int open;
    blvl_pipe_slot *cur;
    /* writing */
    uint32_t wsec;
    uint64_t pos, start; /* next byte to write; where the section being written starts */
    blvl_hasher hasher;
    uint32_t nchunks;
    uint8_t index[MAX_CHUNKS * BLVL_CHUNK_INDEX_ENTRY + 4];
    /* a failure is sticky */
    blvl_status failed;
    blvl_error ferr;
};

static blvl_status fail_sticky(blvl_writer *w, blvl_status st, const blvl_error *e,
                               blvl_error *err) {
    w->failed = st;
    if (e)
        w->ferr = *e;
    if (err)
        *err = w->ferr;
    return st;
}

static blvl_status failed(blvl_writer *w, blvl_error *err) {
    if (err)
        *err = w->ferr;
    return w->failed;
}

static blvl_status open_common(blvl_writer **out, uint32_t max_sections, const blvl_options *opt,
                               blvl_error *err) {
    if (!out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no writer to return");
    *out = NULL;
    uint64_t floor = blvl__container_floor_for(max_sections);
    if (floor == 0)
        return blvl__fail(err, BLVL_E_ARGUMENT, "%u sections do not fit a reserved region",
                          max_sections);
    blvl_writer *w = blvl__calloc(opt ? &opt->allocator : NULL, sizeof *w);
    if (!w)
        return blvl__nomem(err, "a writer");
    if (opt)
        w->alloc = opt->allocator;
    w->a = &w->alloc;
    const blvl_allocator *a = w->a;
    w->max = max_sections;
    w->floor = floor;
    w->pos = w->start = floor;
    if (opt) {
        w->progress = opt->progress;
        w->progress_user = opt->progress_user;
        w->total_raw = opt->progress_total;
    }
    blvl__payload_hasher_init(&w->hasher);
    w->entries = blvl__calloc(a, (max_sections ? max_sections : 1) * sizeof *w->entries);
    if (!w->entries) {
        blvl__dealloc(a, w, sizeof *w);
        return blvl__nomem(err, "%u entries", max_sections);
    }
    blvl_status st = blvl__payload_pipe_new(&w->pipe, opt ? opt->threads : 0, a, err);
    if (st != BLVL_OK) {
        blvl__dealloc(a, w->entries, (max_sections ? max_sections : 1) * sizeof *w->entries);
        blvl__dealloc(a, w, sizeof *w);
        return st;
    }
    *out = w;
    return BLVL_OK;
}

static void writer_free(blvl_writer *w) {
    blvl__payload_pipe_free(w->pipe);
    blvl__dealloc(w->a, w->entries, (w->max ? w->max : 1) * sizeof *w->entries);
    blvl__dealloc(w->a, w, sizeof *w);
}

blvl_status blvl_writer_open_file(blvl_writer **out, const char *path, uint32_t max_sections,
                                  const blvl_options *opt, blvl_error *err) {
    if (out)
        *out = NULL;
    if (!path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no path");
    /* Refused before any work is spent. */
    blvl_status st = blvl__container_out_replaceable(path, err);
    if (st != BLVL_OK)
        return st;
    blvl_writer *w;
    if ((st = open_common(&w, max_sections, opt, err)) != BLVL_OK)
        return st;
    if ((st = blvl__container_target_file(&w->target, path, w->a, opt, err)) != BLVL_OK) {
        writer_free(w);
        return st;
    }
    *out = w;
    return BLVL_OK;
}

blvl_status blvl_writer_open_memory(blvl_writer **out, uint32_t max_sections,
                                    const blvl_options *opt, blvl_error *err) {
    blvl_status st = open_common(out, max_sections, opt, err);
    if (st == BLVL_OK)
        blvl__container_target_memory(&(*out)->target, (*out)->a);
    return st;
}

blvl_status blvl_writer_open_sink(blvl_writer **out, const blvl_sink *sink, uint32_t max_sections,
                                  const blvl_options *opt, blvl_error *err) {
    if (out)
        *out = NULL;
    if (!sink || !sink->write)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no sink");
    blvl_status st = open_common(out, max_sections, opt, err);
    if (st == BLVL_OK)
        blvl__container_target_sink(&(*out)->target, sink, (*out)->a);
    return st;
}

static blvl_status put(blvl_writer *w, const void *data, size_t len, blvl_error *err) {
    static const uint8_t zeros[BLVL_ALIGN];
    blvl_status st = BLVL_OK;
    if (w->pos < w->start) { /* the padding before this section */
        st = blvl__container_target_write(&w->target, w->pos, zeros, (size_t)(w->start - w->pos),
                                          err);
        w->pos = w->start;
    }
    if (st == BLVL_OK)
        st = blvl__container_target_write(&w->target, w->pos, data, len, err);
    blvl__payload_hasher_update(&w->hasher, data, len);
    w->pos += len;
    return st;
}

/* Write the oldest slot (waiting for its encoder). */
static blvl_status drain_one(blvl_writer *w, blvl_error *err) {
    blvl_pipe_slot *s = blvl__payload_pipe_oldest(w->pipe);
    if (!s)
        return BLVL_OK;
    blvl_error e;
    blvl_status st = s->status;
    if (st != BLVL_OK) {
        e = s->err;
        blvl__payload_pipe_release(w->pipe);
        return fail_sticky(w, st, &e, err);
    }
    if (s->raw_size) {
        uint8_t *ix = w->index + (size_t)w->nchunks * BLVL_CHUNK_INDEX_ENTRY;
        blvl_le_put32(ix, s->packed_size);
        blvl_le_put32(ix + 4, s->raw_size);
        ix[8] = s->codec;
        ix[9] = ix[10] = ix[11] = 0;
        w->nchunks++;
        st = put(w, s->packed, s->packed_size, &e);
        w->done_raw += s->raw_size;
    }
    int last = (s->tag & LAST) != 0;
    uint32_t raw_size = s->raw_size;
    blvl__payload_pipe_release(w->pipe);
    if (st == BLVL_OK && last) {
        blvl_entry *en = &w->entries[w->wsec++];
        uint8_t *count = w->index + (size_t)w->nchunks * BLVL_CHUNK_INDEX_ENTRY;
        blvl_le_put32(count, w->nchunks);
        st = put(w, w->index, (size_t)w->nchunks * BLVL_CHUNK_INDEX_ENTRY + 4, &e);
        en->offset = w->start;
        en->packed_size = w->pos - w->start;
        blvl__payload_hasher_final(&w->hasher, en->digest);
        blvl__payload_hasher_init(&w->hasher);
        w->nchunks = 0;
        w->start = blvl__container_layout_next(w->pos);
    }
    if (st != BLVL_OK)
        return fail_sticky(w, st, &e, err);
    /* The total is the one given at open or none (0): the bytes appended so far grow after a
     * line is shown, so a percentage of them went back and forth (issue 28). Past a total
     * that was too small, done stays at it. */
    if (w->progress && raw_size) {
        uint64_t done = w->total_raw && w->done_raw > w->total_raw ? w->total_raw : w->done_raw;
        w->progress(w->progress_user, done, w->total_raw);
    }
    return BLVL_OK;
}

/* A fresh slot to fill, writing out the oldest when every slot is in flight. */
static blvl_status next_slot(blvl_writer *w, blvl_error *err) {
    blvl_status st;
    while (blvl__payload_pipe_full(w->pipe))
        if ((st = drain_one(w, err)) != BLVL_OK)
            return st;
    blvl_error e;
    if ((st = blvl__payload_pipe_slot(w->pipe, &w->cur, &e)) != BLVL_OK)
        return fail_sticky(w, st, &e, err);
    w->cur->tag = w->n - 1;
    return BLVL_OK;
}

blvl_status blvl_writer_begin(blvl_writer *w, const char *tag, uint32_t version, uint32_t flags,
                              blvl_error *err) {
    if (!w)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no writer");
    if (w->failed)
        return failed(w, err);
    blvl_error e;
    blvl_status st;
    if (w->open)
        st = blvl__fail(&e, BLVL_E_ARGUMENT, "section '%s' is not ended", w->entries[w->n - 1].tag);
    else if (w->n == w->max)
        st = blvl__fail(&e, BLVL_E_ARGUMENT, "a section more than the %u declared", w->max);
    else if (!tag || strnlen(tag, BLVL_TAG_MAX + 1) > BLVL_TAG_MAX)
        st = blvl__fail(&e, BLVL_E_WRITE_TAG, "section %u: tag is not 1..16 bytes of [a-z0-9._-]",
                        w->n);
    else {
        blvl_entry *en = &w->entries[w->n];
        memset(en, 0, sizeof *en);
        strcpy(en->tag, tag);
        en->version = version;
        en->flags = flags;
        st = blvl__container_layout_check_entry(w->entries, w->n, &e);
    }
    if (st != BLVL_OK)
        return fail_sticky(w, st, &e, err);
    w->n++;
    w->open = 1;
    w->cur = NULL;
    blvl__ok(err);
    return BLVL_OK;
}

/* What append and end check first: a writer that has not failed, inside a section. */
static blvl_status in_section(blvl_writer *w, const char *what, blvl_error *err) {
    if (!w)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no writer");
    if (w->failed)
        return failed(w, err);
    blvl_error e;
    if (!w->open)
        return fail_sticky(w, blvl__fail(&e, BLVL_E_ARGUMENT, "%s outside a section", what), &e,
                           err);
    return BLVL_OK;
}

blvl_status blvl_writer_append(blvl_writer *w, const void *data, size_t size, blvl_error *err) {
    blvl_status st0 = in_section(w, "append", err);
    if (st0 != BLVL_OK)
        return st0;
    blvl_error e;
    if (size && !data)
        return fail_sticky(w, blvl__fail(&e, BLVL_E_ARGUMENT, "no data"), &e, err);
    blvl_entry *en = &w->entries[w->n - 1];
    if (size > BLVL_SECTION_RAW_MAX - en->raw_size)
        return fail_sticky(
            w, blvl__fail(&e, BLVL_E_RAW_SIZE, "section '%s': raw size over 2 GiB", en->tag), &e,
            err);
    const uint8_t *p = data;
    while (size) {
        if (w->cur && w->cur->raw_size == BLVL_CHUNK_MAX) {
            blvl__payload_pipe_submit(w->pipe); /* full, and not the last: more bytes came */
            w->cur = NULL;
        }
        blvl_status st;
        if (!w->cur && (st = next_slot(w, err)) != BLVL_OK)
            return st;
        size_t k = BLVL_CHUNK_MAX - w->cur->raw_size;
        if (k > size)
            k = size;
        memcpy(w->cur->raw + w->cur->raw_size, p, k);
        w->cur->raw_size += (uint32_t)k;
        en->raw_size += k;
        p += k;
        size -= k;
    }
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_writer_end(blvl_writer *w, blvl_error *err) {
    blvl_status st = in_section(w, "end", err);
    if (st != BLVL_OK)
        return st;
    if (!w->cur && (st = next_slot(w, err)) != BLVL_OK) /* an empty section: a bare LAST */
        return st;
    w->cur->tag |= LAST;
    blvl__payload_pipe_submit(w->pipe);
    w->cur = NULL;
    w->open = 0;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_writer_add(blvl_writer *w, const char *tag, uint32_t version, uint32_t flags,
                            const void *data, size_t size, blvl_error *err) {
    blvl_status st = blvl_writer_begin(w, tag, version, flags, err);
    if (st == BLVL_OK)
        st = blvl_writer_append(w, data, size, err);
    if (st == BLVL_OK)
        st = blvl_writer_end(w, err);
    return st;
}

static blvl_status finish(blvl_writer *w, uint8_t **out, uint64_t *file_size, blvl_error *err) {
    if (w->failed)
        return failed(w, err);
    blvl_error e;
    if (w->open)
        return blvl__fail(err, BLVL_E_ARGUMENT, "section '%s' is not ended",
                          w->entries[w->n - 1].tag);
    blvl_status st;
    while (blvl__payload_pipe_oldest(w->pipe))
        if ((st = drain_one(w, err)) != BLVL_OK)
            return st;
    uint64_t covered = w->floor;
    for (uint32_t i = 0; i < w->n; i++)
        covered += w->entries[i].packed_size;
    /* Never write what a reader would refuse (docs/FORMAT.md, the inflation budget). */
    if ((st = blvl__container_budget_check(w->entries, w->n, covered, err)) != BLVL_OK)
        return st;
    uint8_t *region;
    if ((st = blvl__container_layout_region(w->entries, w->n, w->floor, w->a, &region, &e)) !=
        BLVL_OK) {
        if (err)
            *err = e;
        return st;
    }
    *file_size = w->pos; /* no padding after the last payload */
    st = blvl__container_target_commit(&w->target, region, w->floor, w->pos, out, err);
    blvl__dealloc(w->a, region, (size_t)w->floor);
    return st;
}

blvl_status blvl_writer_commit(blvl_writer *w, blvl_error *err) {
    if (!w)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no writer");
    blvl_status st;
    if (w->target.kind == BLVL_TARGET_MEMORY)
        st = blvl__fail(err, BLVL_E_ARGUMENT, "a memory writer commits with commit_memory");
    else {
        uint64_t size;
        st = finish(w, NULL, &size, err);
    }
    if (st != BLVL_OK)
        blvl__container_target_abort(&w->target);
    else
        blvl__ok(err);
    writer_free(w);
    return st;
}

blvl_status blvl_writer_commit_memory(blvl_writer *w, void **data, size_t *size, blvl_error *err) {
    if (data)
        *data = NULL;
    if (size)
        *size = 0;
    if (!w)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no writer");
    blvl_status st;
    uint64_t len = 0;
    uint8_t *buf = NULL;
    if (w->target.kind != BLVL_TARGET_MEMORY)
        st = blvl__fail(err, BLVL_E_ARGUMENT, "only a memory writer commits with commit_memory");
    else if (!data || !size)
        st = blvl__fail(err, BLVL_E_ARGUMENT, "no output");
    else
        st = finish(w, &buf, &len, err);
    if (st != BLVL_OK)
        blvl__container_target_abort(&w->target);
    else {
        *data = buf;
        *size = (size_t)len;
        blvl__ok(err);
    }
    writer_free(w);
    return st;
}

void blvl_writer_abort(blvl_writer *w) {
    if (!w)
        return;
    blvl__container_target_abort(&w->target);
    writer_free(w);
}

void blvl__container_writer_legacy_codec(blvl_writer *w) {
    blvl__payload_pipe_legacy_codec(w->pipe);
}

void blvl__container_writer_draft_codec(blvl_writer *w) {
    blvl__payload_pipe_draft_codec(w->pipe);
}

size_t blvl__container_writer_footprint(blvl_writer *w, size_t *codec_bytes) {
    while (!w->failed && !w->open && blvl__payload_pipe_oldest(w->pipe))
        if (drain_one(w, NULL) != BLVL_OK)
            break;
    return blvl__payload_pipe_footprint(w->pipe, codec_bytes);
}
