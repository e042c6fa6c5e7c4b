/* Reading sections: digest first, then the chunk index, then inflation, each chunk to exactly
 * its declared size. Nothing of a section is interpreted before its digest has matched. The
 * inflation budget was checked at open, over the whole table, so reads carry no state. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "container/level.h"
#include "payload/digest.h"
#include "blvl/le.h"
#include "payload/inflate.h"
#include "payload/payload.h"
#include "common/pool.h"

void blvl__container_level_prefetch(const blvl_level *lv, uint64_t offset, uint64_t size) {
    if (!lv->map || !size)
        return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)(lv->base + offset) & ~(page - 1);
    uintptr_t hi = (uintptr_t)(lv->base + offset) + (uintptr_t)size;
    (void)madvise((void *)lo, hi - lo, MADV_WILLNEED); /* advice: errors are harmless */
}

blvl_status blvl__container_level_packed(blvl_level *lv, const blvl_entry *e, const uint8_t **bytes,
                                         void **owned, blvl_error *err) {
    *owned = NULL;
    if (lv->base) {
        *bytes = lv->base + e->offset;
        blvl__container_level_prefetch(lv, e->offset, e->packed_size);
        return BLVL_OK;
    }
    if (e->packed_size > SIZE_MAX)
        return blvl__nomem(err, "section '%s' is too large to hold", e->tag);
    uint8_t *buf = blvl__alloc(lv->a, (size_t)e->packed_size);
    if (!buf)
        return blvl__nomem(err, "the %llu packed bytes of '%s'", (unsigned long long)e->packed_size,
                           e->tag);
    if (lv->src.read(lv->src.user, e->offset, buf, (size_t)e->packed_size) != 0) {
        blvl__dealloc(lv->a, buf, (size_t)e->packed_size);
        char what[64];
        snprintf(what, sizeof what, "could not read section '%s'", e->tag);
        return blvl__container_source_failed(lv, err, what);
    }
    *bytes = buf;
    *owned = buf;
    return BLVL_OK;
}

static blvl_status check_digest(const blvl_entry *e, const uint8_t *bytes, blvl_error *err) {
    uint8_t d[BLVL_DIGEST_SIZE];
    blvl_digest(bytes, (size_t)e->packed_size, d);
    if (memcmp(d, e->digest, BLVL_DIGEST_SIZE) != 0)
        return blvl__fail(err, BLVL_E_SECTION_DIGEST,
                          "section '%s': packed bytes do not match the entry's digest", e->tag);
    return BLVL_OK;
}

/* "<rule>: <what>" becomes "<rule>: section '<tag>': <what>". */
static blvl_status name_section(blvl_error *err, blvl_status st, const char *tag) {
    if (!err || st == BLVL_OK)
        return st;
    const char *name = blvl_status_name(st);
    size_t nl = strlen(name);
    const char *rest = err->message;
    if (strncmp(rest, name, nl) == 0 && rest[nl] == ':' && rest[nl + 1] == ' ')
        rest += nl + 2;
    char msg[sizeof err->message];
    memcpy(msg, rest, strlen(rest) + 1);
    return blvl__fail(err, st, "section '%s': %s", tag, msg);
}

/* ---- chunk by chunk ------------------------------------------------------------------------
 *
 * A section of a callback source larger than WALK_MIN is never held packed: its index is read
 * from its tail, then each chunk's packed bytes in turn, hashed as they pass and inflated into
 * place. The digest is decided when the last byte has passed, and a failed digest is reported
 * before any failure of the chunks (§8: nothing of a payload is trusted before its digest), so
 * the verdict is the one a reader holding the whole payload gives. The same walk hands each
 * chunk to a sink (blvl_read_sink), for mapped levels too. */
#define WALK_MIN (8u << 20)
#define WALK_PIECE (4u << 20)

/* `len` bytes of entry e's payload at `off`: a pointer into a mapped level, else read through
 * the source into `buf`. */
static blvl_status payload_bytes(blvl_level *lv, const blvl_entry *e, uint64_t off, size_t len,
                                 uint8_t *buf, const uint8_t **out, blvl_error *err) {
    if (lv->base) {
        *out = lv->base + e->offset + off;
        return BLVL_OK;
    }
    *out = buf; /* set before the read: never left unset on a failed read */
    if (len && lv->src.read(lv->src.user, e->offset + off, buf, len) != 0) {
        char what[64];
        snprintf(what, sizeof what, "could not read section '%s'", e->tag);
        return blvl__container_source_failed(lv, err, what);
    }
    return BLVL_OK;
}

/* Hashes [from, to) of e's payload in pieces into h. */
static blvl_status hash_range(blvl_level *lv, const blvl_entry *e, uint64_t from, uint64_t to,
                              blvl_hasher *h, blvl_error *err) {
    uint8_t *buf = lv->base ? NULL : blvl__alloc(lv->a, WALK_PIECE);
    if (!lv->base && !buf)
        return blvl__nomem(err, "reading section '%s'", e->tag);
    blvl_status st = BLVL_OK;
    for (uint64_t at = from; at < to && st == BLVL_OK;) {
        size_t n = to - at > WALK_PIECE ? WALK_PIECE : (size_t)(to - at);
        const uint8_t *p = NULL;
        st = payload_bytes(lv, e, at, n, buf, &p, err);
        if (st == BLVL_OK)
            blvl__payload_hasher_update(h, p, n);
        at += n;
    }
    blvl__dealloc(lv->a, buf, WALK_PIECE);
    return st;
}

static blvl_status digest_verdict(const blvl_entry *e, const blvl_hasher *h, blvl_error *err) {
    uint8_t d[BLVL_DIGEST_SIZE];
    blvl__payload_hasher_final(h, d);
    if (memcmp(d, e->digest, BLVL_DIGEST_SIZE) != 0)
        return blvl__fail(err, BLVL_E_SECTION_DIGEST,
                          "section '%s': packed bytes do not match the entry's digest", e->tag);
    return BLVL_OK;
}

static blvl_status name_section(blvl_error *err, blvl_status st, const char *tag);

/* Walks entry e chunk by chunk: every packed byte hashed, every chunk inflated (into `raw` at
 * its offset when raw is not NULL, else into a scratch chunk) and, when `sink` is not NULL,
 * handed to it. Memory: the index, one chunk packed and one inflated. */
static blvl_status walk(blvl_level *lv, const blvl_entry *e, uint8_t *raw, const blvl_sink *sink,
                        blvl_error *err) {
    uint64_t size = e->packed_size; /* at least 4 (§4 rule 6) */
    blvl_hasher h;
    blvl__payload_hasher_init(&h);
    uint8_t count_bytes[4];
    const uint8_t *cp;
    blvl_status st = payload_bytes(lv, e, size - 4, 4, count_bytes, &cp, err);
    if (st != BLVL_OK)
        return st;
    uint32_t n = blvl_le32(cp);
    uint64_t want = (e->raw_size + BLVL_CHUNK_MAX - 1) / BLVL_CHUNK_MAX;
    uint64_t index_size = (uint64_t)n * BLVL_CHUNK_INDEX_ENTRY;
    bool sane = n == want && index_size <= size - 4;
    uint64_t data_end = sane ? size - 4 - index_size : 0;
    uint8_t *index = sane ? blvl__alloc(lv->a, index_size ? (size_t)index_size : 1) : NULL;
    if (sane && !index)
        return blvl__nomem(err, "the chunk index of '%s'", e->tag);
    const uint8_t *ip = NULL;
    if (sane && index_size)
        st = payload_bytes(lv, e, data_end, (size_t)index_size, index, &ip, err);
    blvl_chunk *chunks = NULL;
    uint32_t nc = 0;
    blvl_error bad = {0}; /* the first failure of the payload, decided after the digest */
    blvl_status bad_st = BLVL_OK;
    if (st == BLVL_OK)
        bad_st = name_section(
            &bad,
            blvl__payload_chunks_parse_index(ip, n, size, e->raw_size, lv->a, &chunks, &nc, &bad),
            e->tag);
    if (st == BLVL_OK && bad_st == BLVL_E_NOMEM) {
        st = bad_st;
        if (err)
            *err = bad;
    }
    uint32_t biggest = 0;
    for (uint32_t i = 0; i < nc; i++)
        if (chunks[i].packed_size > biggest)
            biggest = chunks[i].packed_size;
    uint8_t *buf = NULL, *out = NULL;
    blvl_inflater w = {.a = lv->a};
    if (st == BLVL_OK && bad_st == BLVL_OK && nc) {
        buf = lv->base ? NULL : blvl__alloc(lv->a, biggest);
        out = raw ? NULL : blvl__alloc(lv->a, BLVL_CHUNK_MAX);
        if ((!lv->base && !buf) || (!raw && !out))
            st = blvl__nomem(err, "reading section '%s' chunk by chunk", e->tag);
    }
    /* The digest decides which failure is reported: without a sane count, every byte before
     * the count is hashed here; with one, the chunks' bytes here and the index below. */
    if (st == BLVL_OK && bad_st != BLVL_OK)
        st = hash_range(lv, e, 0, sane ? data_end : size - 4, &h, err);
    for (uint32_t i = 0; st == BLVL_OK && bad_st == BLVL_OK && i < nc; i++) {
        blvl_chunk c = chunks[i];
        const uint8_t *p = NULL;
        st = payload_bytes(lv, e, c.packed_offset, c.packed_size, buf, &p, err);
        if (st != BLVL_OK)
            break;
        blvl__payload_hasher_update(&h, p, c.packed_size);
        uint8_t *dst = raw ? raw + c.raw_offset : out;
        c.packed_offset = 0;
        bad_st = name_section(&bad, blvl__payload_chunk_inflate(&w, p, &c, i, dst, &bad), e->tag);
        if (bad_st != BLVL_OK) { /* the rest only for the digest */
            st = hash_range(lv, e, chunks[i].packed_offset + chunks[i].packed_size, data_end, &h,
                            err);
            break;
        }
        if (sink && sink->write(sink->user, c.raw_offset, dst, c.raw_size) != 0)
            st = blvl__fail(err, BLVL_E_IO, "section '%s': the sink refused chunk %u", e->tag, i);
    }
    if (st == BLVL_OK && ip)
        blvl__payload_hasher_update(&h, ip, (size_t)index_size);
    if (st == BLVL_OK) {
        blvl__payload_hasher_update(&h, cp, 4);
        st = digest_verdict(e, &h, err);
    }
    if (st == BLVL_OK && bad_st != BLVL_OK) {
        st = bad_st;
        if (err)
            *err = bad;
    }
    blvl__payload_inflater_free(&w);
    blvl__dealloc(lv->a, out, BLVL_CHUNK_MAX);
    blvl__dealloc(lv->a, buf, biggest);
    blvl__dealloc(lv->a, chunks, (size_t)nc * sizeof *chunks);
    blvl__dealloc(lv->a, index, sane ? (index_size ? (size_t)index_size : 1) : 1);
    return st;
}

static void section_clear(blvl_bytes *s) {
    s->data = NULL;
    s->size = 0;
    s->owned_ = NULL;
    s->owned_size_ = 0;
    memset(&s->alloc_, 0, sizeof s->alloc_);
}

blvl_status blvl_read_packed(blvl_level *lv, const char *tag, blvl_bytes *out, blvl_error *err) {
    if (!lv || !out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no level or no output");
    section_clear(out);
    const blvl_entry *e = blvl_find(lv, tag);
    if (!e)
        return blvl__fail(err, BLVL_E_NOT_FOUND, "no section '%s'", tag ? tag : "(null)");
    const uint8_t *bytes;
    void *owned;
    blvl_status st = blvl__container_level_packed(lv, e, &bytes, &owned, err);
    if (st == BLVL_OK)
        st = check_digest(e, bytes, err);
    if (st != BLVL_OK) {
        blvl__dealloc(lv->a, owned, (size_t)e->packed_size);
        return st;
    }
    out->data = bytes;
    out->size = (size_t)e->packed_size;
    out->owned_ = owned;
    out->owned_size_ = owned ? (size_t)e->packed_size : 0;
    out->alloc_ = *lv->a;
    blvl__ok(err);
    return BLVL_OK;
}

/* blvl_read of a large section of a callback source: into its raw buffer chunk by chunk, never
 * holding the packed section. */
static blvl_status read_walked(blvl_level *lv, const blvl_entry *e, blvl_bytes *out,
                               blvl_error *err) {
    if (e->raw_size > SIZE_MAX)
        return blvl__nomem(err, "section '%s' is too large to hold", e->tag);
    uint8_t *raw = blvl__alloc(lv->a, e->raw_size ? (size_t)e->raw_size : 1);
    if (!raw)
        return blvl__nomem(err, "the %llu raw bytes of '%s'", (unsigned long long)e->raw_size,
                           e->tag);
    blvl_status st = walk(lv, e, raw, NULL, err);
    if (st != BLVL_OK) {
        blvl__dealloc(lv->a, raw, e->raw_size ? (size_t)e->raw_size : 1);
        return st;
    }
    out->data = raw;
    out->size = (size_t)e->raw_size;
    out->owned_ = raw;
    out->owned_size_ = e->raw_size ? (size_t)e->raw_size : 1;
    out->alloc_ = *lv->a;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_read_sink(blvl_level *lv, const char *tag, const blvl_sink *sink,
                           blvl_error *err) {
    if (!lv || !sink || !sink->write)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no level or no sink");
    const blvl_entry *e = blvl_find(lv, tag);
    if (!e)
        return blvl__fail(err, BLVL_E_NOT_FOUND, "no section '%s'", tag ? tag : "(null)");
    /* Everything checked (digest, index, every chunk inflated) before the first byte reaches
     * the sink; then the same walk again, handing the chunks out. */
    blvl_status st = walk(lv, e, NULL, NULL, err);
    if (st == BLVL_OK)
        st = walk(lv, e, NULL, sink, err);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}

blvl_status blvl_read(blvl_level *lv, const char *tag, blvl_bytes *out, blvl_error *err) {
    if (!lv || !out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no level or no output");
    section_clear(out);
    const blvl_entry *e = blvl_find(lv, tag);
    if (!e)
        return blvl__fail(err, BLVL_E_NOT_FOUND, "no section '%s'", tag ? tag : "(null)");
    if (!lv->base && e->packed_size > WALK_MIN)
        return read_walked(lv, e, out, err);
    const uint8_t *bytes;
    void *owned;
    blvl_chunk *chunks = NULL;
    uint32_t n = 0;
    uint8_t *raw = NULL;
    blvl_status st = blvl__container_level_packed(lv, e, &bytes, &owned, err);
    if (st == BLVL_OK)
        st = check_digest(e, bytes, err);
    if (st == BLVL_OK)
        st = name_section(
            err,
            blvl__payload_chunks_parse(bytes, e->packed_size, e->raw_size, lv->a, &chunks, &n, err),
            e->tag);
    if (st != BLVL_OK)
        goto done;
    if (n == 0) { /* empty section: a valid pointer to no bytes */
        static const uint8_t empty[1];
        out->data = empty;
        goto done;
    }
    if (n == 1 && chunks[0].codec == BLVL_CODEC_RAW) {
        /* One raw chunk at the start of the payload: the section is its own raw bytes. */
        out->data = bytes;
        out->size = (size_t)e->raw_size;
        out->owned_ = owned;
        out->owned_size_ = owned ? (size_t)e->packed_size : 0;
        out->alloc_ = *lv->a;
        owned = NULL;
        goto done;
    }
    raw = blvl__alloc(lv->a, (size_t)e->raw_size);
    if (!raw) {
        st =
            blvl__nomem(err, "the %llu raw bytes of '%s'", (unsigned long long)e->raw_size, e->tag);
        goto done;
    }
    st = name_section(err, blvl__payload_inflate(bytes, chunks, n, raw, lv->threads, lv->a, err),
                      e->tag);
    if (st != BLVL_OK) {
        blvl__dealloc(lv->a, raw, (size_t)e->raw_size);
        goto done;
    }
    out->data = raw;
    out->size = (size_t)e->raw_size;
    out->owned_ = raw;
    out->owned_size_ = (size_t)e->raw_size;
    out->alloc_ = *lv->a;
done:
    blvl__dealloc(lv->a, chunks, (size_t)n * sizeof *chunks);
    blvl__dealloc(lv->a, owned, (size_t)e->packed_size);
    if (st == BLVL_OK)
        blvl__ok(err);
    else
        section_clear(out);
    return st;
}

void blvl_bytes_free(blvl_bytes *s) {
    if (!s)
        return;
    blvl__dealloc(&s->alloc_, s->owned_, s->owned_size_);
    section_clear(s);
}

/* ---- verify ------------------------------------------------------------------------------ */

/* One job list for the whole level, in priority order: for each section in table order, its
 * digest, then each of its chunks. Workers take jobs in that order, so the first failure in
 * job order (what the pool reports) is the first bad section, its digest before its chunks,
 * whatever the timing. */
typedef struct vjob {
    uint32_t section;
    uint32_t chunk; /* UINT32_MAX: the digest job */
} vjob;

typedef struct vsection {
    const uint8_t *bytes;
    blvl_chunk *chunks;
    uint32_t n;
} vsection;

typedef struct verify_ctx {
    blvl_level *lv;
    vsection *secs;
    vjob *jobs;
    blvl_inflater *workers;
    uint64_t work;             /* for progress: packed bytes hashed + raw bytes inflated */
    atomic_uint_fast64_t done; /* of `work` */
    uint64_t reported;         /* the last `done` progress was given (the calling thread's) */
} verify_ctx;

static blvl_status verify_job(void *vctx, unsigned worker, size_t j, blvl_error *err) {
    verify_ctx *v = vctx;
    const vjob *job = &v->jobs[j];
    const blvl_entry *e = &v->lv->entries[job->section];
    const vsection *s = &v->secs[job->section];
    blvl_status st;
    uint64_t did;
    if (job->chunk == UINT32_MAX) {
        st = check_digest(e, s->bytes, err);
        did = e->packed_size;
    } else {
        st =
            name_section(err,
                         blvl__payload_chunk_inflate(&v->workers[worker], s->bytes,
                                                     &s->chunks[job->chunk], job->chunk, NULL, err),
                         e->tag);
        did = s->chunks[job->chunk].raw_size;
    }
    uint64_t done = atomic_fetch_add(&v->done, did) + did;
    if (worker == 0 && v->lv->opt.progress) { /* worker 0 is the calling thread */
        v->lv->opt.progress(v->lv->opt.progress_user, done, v->work);
        v->reported = done;
    }
    return st;
}

static blvl_status verify_mapped(blvl_level *lv, blvl_error *err) {
    uint32_t count = lv->hdr.count;
    vsection *secs = blvl__calloc(lv->a, (count ? count : 1) * sizeof *secs);
    if (!secs)
        return blvl__nomem(err, "verifying %u sections", count);
    blvl_status st = BLVL_OK;
    size_t njobs = 0;
    vjob *jobs = NULL;
    blvl_inflater *ws = NULL;
    unsigned nw = lv->threads;
    /* Chunk indices are parsed from unverified bytes, bounds-checked; a section whose index
     * does not parse still gets its digest job, so a damaged section reports its digest. */
    blvl_status parse_st = BLVL_OK;
    blvl_error parse_err;
    uint32_t parse_bad = UINT32_MAX;
    for (uint32_t i = 0; i < count; i++) {
        const blvl_entry *e = &lv->entries[i];
        secs[i].bytes = lv->base + e->offset;
        blvl_error pe;
        blvl_status ps = blvl__payload_chunks_parse(secs[i].bytes, e->packed_size, e->raw_size,
                                                    lv->a, &secs[i].chunks, &secs[i].n, &pe);
        if (ps != BLVL_OK && parse_bad == UINT32_MAX) {
            parse_bad = i;
            parse_st = name_section(&pe, ps, e->tag);
            parse_err = pe;
        }
        njobs += 1 + secs[i].n;
    }
    jobs = blvl__alloc(lv->a, (njobs ? njobs : 1) * sizeof *jobs);
    if (nw > njobs)
        nw = njobs ? (unsigned)njobs : 1;
    ws = blvl__calloc(lv->a, nw * sizeof *ws);
    if (!jobs || !ws) {
        st = blvl__nomem(err, "%zu verification jobs", njobs);
        goto out;
    }
    for (unsigned w = 0; w < nw; w++)
        ws[w].a = lv->a;
    size_t j = 0;
    uint32_t limit = parse_bad == UINT32_MAX ? count : parse_bad + 1;
    for (uint32_t i = 0; i < limit; i++) {
        jobs[j++] = (vjob){i, UINT32_MAX};
        for (uint32_t c = 0; c < secs[i].n; c++)
            jobs[j++] = (vjob){i, c};
    }
    for (uint32_t i = 0; i < limit; i++)
        blvl__container_level_prefetch(lv, lv->entries[i].offset, lv->entries[i].packed_size);
    uint64_t work = 0;
    for (uint32_t i = 0; i < limit; i++)
        work += lv->entries[i].packed_size + lv->entries[i].raw_size;
    verify_ctx v = {.lv = lv, .secs = secs, .jobs = jobs, .workers = ws, .work = work};
    atomic_init(&v.done, 0);
    st = blvl__pool_run(nw, j, verify_job, &v, 1, err);
    /* the other workers may have taken the last jobs, or all of them: the end is reported here */
    uint64_t done = atomic_load(&v.done);
    if (st == BLVL_OK && lv->opt.progress && v.reported != done)
        lv->opt.progress(lv->opt.progress_user, done, work);
    if (st == BLVL_OK && parse_bad != UINT32_MAX) {
        st = parse_st;
        if (err)
            *err = parse_err;
    }
out:
    if (ws)
        for (unsigned w = 0; w < nw; w++)
            blvl__payload_inflater_free(&ws[w]);
    blvl__dealloc(lv->a, ws, nw * sizeof *ws);
    blvl__dealloc(lv->a, jobs, (njobs ? njobs : 1) * sizeof *jobs);
    for (uint32_t i = 0; i < count; i++)
        blvl__dealloc(lv->a, secs[i].chunks, (size_t)secs[i].n * sizeof *secs[i].chunks);
    blvl__dealloc(lv->a, secs, (count ? count : 1) * sizeof *secs);
    return st;
}

/* A callback source: one section at a time, a large one chunk by chunk, so memory stays at one
 * small packed section or a few chunks. */
static blvl_status verify_source(blvl_level *lv, blvl_error *err) {
    uint64_t work = 0, done = 0;
    for (uint32_t i = 0; i < lv->hdr.count; i++)
        work += lv->entries[i].packed_size + lv->entries[i].raw_size;
    for (uint32_t i = 0; i < lv->hdr.count; i++) {
        const blvl_entry *e = &lv->entries[i];
        const uint8_t *bytes;
        void *owned;
        blvl_chunk *chunks = NULL;
        uint32_t n = 0;
        if (e->packed_size > WALK_MIN) { /* never held whole */
            blvl_status st = walk(lv, e, NULL, NULL, err);
            if (st != BLVL_OK)
                return st;
            done += e->packed_size + e->raw_size;
            if (lv->opt.progress)
                lv->opt.progress(lv->opt.progress_user, done, work);
            continue;
        }
        blvl_status st = blvl__container_level_packed(lv, e, &bytes, &owned, err);
        if (st != BLVL_OK)
            return st;
        st = check_digest(e, bytes, err);
        if (st == BLVL_OK)
            st = name_section(err,
                              blvl__payload_chunks_parse(bytes, e->packed_size, e->raw_size, lv->a,
                                                         &chunks, &n, err),
                              e->tag);
        if (st == BLVL_OK)
            st = name_section(err, blvl__payload_check(bytes, chunks, n, lv->threads, lv->a, err),
                              e->tag);
        blvl__dealloc(lv->a, chunks, (size_t)n * sizeof *chunks);
        blvl__dealloc(lv->a, owned, (size_t)e->packed_size);
        if (st != BLVL_OK)
            return st;
        done += e->packed_size + e->raw_size;
        if (lv->opt.progress)
            lv->opt.progress(lv->opt.progress_user, done, work);
    }
    return BLVL_OK;
}

blvl_status blvl_verify(blvl_level *lv, blvl_error *err) {
    if (!lv)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no level");
    blvl_status st = lv->base ? verify_mapped(lv, err) : verify_source(lv, err);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
