/* The streaming reader: a push parser over a level arriving in file order.
 *
 * It buffers the 64 header bytes and the live table (never more than the
 * payload floor), then walks the sections in payload-offset order. Every
 * section is hashed as its bytes pass; only the sections the caller wanted are
 * held, and only until their last byte lands, when they are checked, inflated
 * and handed to the callback. Bytes no entry refers to are counted and dropped.
 * Every event carries the file offset just past the byte that caused it, so the
 * same file gives the same events whatever the sizes of the pieces it is fed
 * in. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "container/format.h"
#include "payload/digest.h"
#include "payload/payload.h"

typedef enum stage {
    STAGE_HEADER,  /* collecting the 64 header bytes */
    STAGE_TABLE,   /* inside the reserved region, collecting the live table */
    STAGE_PAYLOAD, /* walking the sections in offset order */
    STAGE_DONE,    /* finished: END emitted */
    STAGE_FAILED   /* refused, or stopped by the callback */
} stage;

/* A section in file order; `index` points into the table-order entries. */
typedef struct slot {
    uint64_t offset;
    uint32_t index;
    int wanted;
} slot;

typedef struct wanted_tag {
    char tag[BLVL_TAG_MAX + 1];
} wanted_tag;

struct blvl_stream {
    blvl_options opt;        /* a copy, so the caller's struct need not outlive the call */
    const blvl_allocator *a; /* &opt.allocator */
    unsigned threads;
    uint64_t budget_opt; /* 0: the default, known once covered is */
    blvl_stream_fn fn;
    void *user;
    stage stage;

    uint64_t pos; /* bytes fed so far: the file offset of the next byte */
    uint8_t head[BLVL_HEADER_SIZE];
    blvl_header h;
    uint64_t table_end;
    uint8_t *table; /* h.count * 64 bytes */
    blvl_entry *entries;
    blvl_entry *scratch;
    slot *order;   /* h.count slots sorted by payload offset */
    uint32_t next; /* first slot whose last byte has not landed */

    uint64_t covered;
    uint64_t unref_end; /* a byte at this offset or later breaks the unreferenced
                           limit */
    uint64_t budget;    /* the caller's, or max(64 MiB, 64 * min(covered, pos)) */
    uint64_t inflated;  /* raw bytes charged to the budget so far */

    /* the section being received (order[next]) */
    blvl_hasher hasher;
    int started;
    int holding;     /* its packed bytes are being kept */
    uint8_t *packed; /* holding: cap bytes, len of them filled */
    size_t cap, len;

    wanted_tag *want;
    size_t nwant, capwant;
    blvl_error bad; /* the failure of the section just landed, for the event's message */

    blvl_stream_check_fn check; /* the caller's check of a wanted section's bytes, or NULL */
    void *check_user;
    blvl_error failure; /* why the stream failed, repeated by every later call */
};

static void *grab(blvl_stream *s, size_t n) {
    return blvl__alloc(s->a, n);
}

static void drop(blvl_stream *s, void *p, size_t n) {
    blvl__dealloc(s->a, p, n);
}

blvl_status blvl_stream_new(blvl_stream **out, blvl_stream_fn fn, void *user,
                            const blvl_options *opt, blvl_error *err) {
    if (!out || !fn)
        return blvl__fail(err, BLVL_E_ARGUMENT, "stream needs an output pointer and a callback");
    *out = NULL;
    blvl_stream *s = blvl__calloc(opt ? &opt->allocator : NULL, sizeof *s);
    if (!s)
        return blvl__nomem(err, "the stream state");
    if (opt)
        s->opt = *opt;
    s->a = &s->opt.allocator;
    s->threads = opt ? opt->threads : 0;
    s->budget_opt = opt ? opt->inflate_budget : 0;
    s->fn = fn;
    s->user = user;
    s->stage = STAGE_HEADER;
    *out = s;
    blvl__ok(err);
    return BLVL_OK;
}

static int is_wanted(const blvl_stream *s, const char *tag) {
    for (size_t i = 0; i < s->nwant; i++)
        if (strcmp(s->want[i].tag, tag) == 0)
            return 1;
    return 0;
}

blvl_status blvl_stream_want(blvl_stream *s, const char *tag, blvl_error *err) {
    if (!s || !blvl_tag_valid(tag, NULL))
        return blvl__fail(err, BLVL_E_ARGUMENT, "want: '%s' is not a valid tag",
                          tag ? tag : "(null)");
    if (s->stage != STAGE_HEADER && s->stage != STAGE_TABLE)
        return blvl__fail(err, BLVL_E_STREAM_STATE, "want: '%s' asked for after the table was read",
                          tag);
    if (is_wanted(s, tag))
        return BLVL_OK;
    if (s->nwant == s->capwant) {
        size_t cap = s->capwant ? s->capwant * 2 : 8;
        if (cap > (BLVL_FLOOR_MAX / BLVL_ENTRY_SIZE) * 2)
            return blvl__fail(err, BLVL_E_ARGUMENT, "want: too many tags");
        wanted_tag *w = grab(s, cap * sizeof *w);
        if (!w)
            return blvl__nomem(err, "the wanted tags");
        if (s->nwant)
            memcpy(w, s->want, s->nwant * sizeof *w);
        drop(s, s->want, s->capwant * sizeof *s->want);
        s->want = w;
        s->capwant = cap;
    }
    memset(&s->want[s->nwant], 0, sizeof s->want[s->nwant]);
    memcpy(s->want[s->nwant].tag, tag, strlen(tag));
    s->nwant++;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_stream_set_check(blvl_stream *s, blvl_stream_check_fn fn, void *user,
                                  blvl_error *err) {
    if (!s)
        return blvl__fail(err, BLVL_E_ARGUMENT, "set check: no stream");
    if (s->stage != STAGE_HEADER && s->stage != STAGE_TABLE)
        return blvl__fail(err, BLVL_E_STREAM_STATE,
                          "set check: asked for after the table was read");
    s->check = fn;
    s->check_user = user;
    blvl__ok(err);
    return BLVL_OK;
}

/* The callback, and what its answer means for the stream. */
static blvl_status emit(blvl_stream *s, blvl_stream_event *ev, blvl_error *err) {
    if (s->fn(s->user, ev) != 0) {
        s->stage = STAGE_FAILED;
        return blvl__fail(err, BLVL_E_ARGUMENT, "stream stopped by the callback at offset %llu",
                          (unsigned long long)ev->offset);
    }
    return BLVL_OK;
}

static blvl_status refuse(blvl_stream *s, blvl_status st) {
    s->stage = STAGE_FAILED;
    return st;
}

static int slot_cmp(const void *pa, const void *pb) {
    const slot *a = pa, *b = pb;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    /* empty sections can share an offset with the next one: keep table order */
    return a->index < b->index ? -1 : a->index > b->index;
}

/* The header is complete: decode it and size the table. */
static blvl_status header_done(blvl_stream *s, blvl_error *err) {
    blvl_status st = blvl__container_header_decode(s->head, &s->h, err);
    if (st != BLVL_OK)
        return refuse(s, st);
    s->table_end = (uint64_t)s->h.table_offset + (uint64_t)s->h.count * BLVL_ENTRY_SIZE;
    uint32_t n = s->h.count;
    if (n) {
        s->table = grab(s, (size_t)n * BLVL_ENTRY_SIZE);
        s->entries = grab(s, (size_t)n * sizeof *s->entries);
        s->scratch = grab(s, (size_t)n * sizeof *s->scratch);
        s->order = grab(s, (size_t)n * sizeof *s->order);
        if (!s->table || !s->entries || !s->scratch || !s->order)
            return refuse(s, blvl__nomem(err, "a table of %u entries", n));
    }
    s->stage = STAGE_TABLE;
    return BLVL_OK;
}

/* The table is complete: validate it as blvl_open does (except what needs the
 * file length), place the sections, and tell the caller. */
static blvl_status table_done(blvl_stream *s, blvl_error *err) {
    uint32_t n = s->h.count;
    blvl_status st =
        blvl__container_table_load(&s->h, s->table, UINT64_MAX, s->entries, s->scratch, err);
    if (st != BLVL_OK)
        return refuse(s, st);
    for (uint32_t i = 0; i < n; i++) {
        s->order[i].offset = s->entries[i].offset;
        s->order[i].index = i;
        s->order[i].wanted = is_wanted(s, s->entries[i].tag);
    }
    if (n > 1)
        qsort(s->order, n, sizeof *s->order, slot_cmp);
    s->covered = blvl__container_covered(&s->h, s->entries);
    uint64_t lim = blvl__container_unreferenced_limit(s->covered);
    s->unref_end = s->covered > UINT64_MAX - lim ? UINT64_MAX : s->covered + lim;
    /* The level's inflation budget, as blvl_open checks it, before any payload byte. */
    st = blvl__container_budget_check_limit(s->entries, n, s->covered, s->budget_opt, err);
    if (st != BLVL_OK)
        return refuse(s, st);
    s->budget = s->budget_opt ? s->budget_opt : blvl__container_default_budget(s->covered);
    /* the table bytes are no longer needed; the entries are */
    drop(s, s->table, (size_t)n * BLVL_ENTRY_SIZE);
    s->table = NULL;
    s->stage = STAGE_PAYLOAD;
    blvl_stream_event ev = {0};
    ev.kind = BLVL_EV_TABLE;
    ev.entries = s->entries;
    ev.count = n;
    ev.identity = s->h.identity;
    ev.table_digest = s->h.table_digest;
    ev.offset = s->table_end;
    return emit(s, &ev, err);
}

static void release_packed(blvl_stream *s) {
    drop(s, s->packed, s->cap);
    s->packed = NULL;
    s->cap = s->len = 0;
}

/* A section's first byte position was reached: a wanted section is held (as its bytes arrive,
 * never ahead of them), any other only hashed. */
static void section_start(blvl_stream *s) {
    const slot *sl = &s->order[s->next];
    const blvl_entry *e = &s->entries[sl->index];
    blvl__payload_hasher_init(&s->hasher);
    s->started = 1;
    s->holding = sl->wanted && e->packed_size <= SIZE_MAX / 2;
}

static blvl_status hold(blvl_stream *s, const uint8_t *p, size_t n, uint64_t total,
                        blvl_error *err) {
    if (s->len + n > s->cap) {
        /* grow with what arrives rather than with what the table claims */
        size_t cap = blvl__array_grown(s->cap, s->len + n, 64u << 10, 1);
        if (!cap || cap > total)
            cap = (size_t)total;
        uint8_t *q = grab(s, cap);
        if (!q)
            return refuse(
                s, blvl__nomem(err, "holding a section of %llu bytes", (unsigned long long)total));
        if (s->len)
            memcpy(q, s->packed, s->len);
        drop(s, s->packed, s->cap);
        s->packed = q;
        s->cap = cap;
    }
    memcpy(s->packed + s->len, p, n);
    s->len += n;
    return BLVL_OK;
}

/* Check and inflate a held section. The table passed the level's budget rule; on top of it,
 * the stream charges the raw bytes of the zstd chunks it inflates against a budget that grows
 * with the bytes received (docs/STREAMING.md). On success *data holds the section's bytes:
 * the held bytes themselves for one raw chunk, else *raw (raw_size bytes, the caller frees). */
static blvl_status inflate_held(blvl_stream *s, const blvl_entry *e, const uint8_t **data,
                                uint8_t **raw, blvl_error *err) {
    static const uint8_t empty[1];
    blvl_chunk *chunks = NULL;
    uint32_t nc = 0;
    blvl_status st =
        blvl__payload_chunks_parse(s->packed, e->packed_size, e->raw_size, s->a, &chunks, &nc, err);
    if (st != BLVL_OK)
        return st;
    if (nc == 0) {
        *data = empty;
    } else if (nc == 1 && chunks[0].codec == BLVL_CODEC_RAW) {
        *data = s->packed; /* the section is its own raw bytes */
    } else {
        uint64_t cost = blvl__payload_inflated_size(chunks, nc);
        /* The default budget grows with the bytes that have arrived: `covered` is only what the
         * table claims until the stream ends, and a claimed section that never comes must not
         * buy inflation (a valid file has covered <= its length, so the budget reaches
         * blvl_open's by the end). */
        if (!s->budget_opt)
            s->budget = blvl__container_default_budget(s->pos < s->covered ? s->pos : s->covered);
        if (s->inflated > s->budget || cost > s->budget - s->inflated) {
            st = blvl__fail(err, BLVL_E_BUDGET,
                            "inflating %llu bytes of '%s' would pass the inflation budget of "
                            "%llu bytes (%llu already inflated)",
                            (unsigned long long)cost, e->tag, (unsigned long long)s->budget,
                            (unsigned long long)s->inflated);
            goto out;
        }
        s->inflated += cost;
        *raw = grab(s, (size_t)e->raw_size);
        if (!*raw) {
            st = blvl__nomem(err, "inflating '%s' (%llu bytes)", e->tag,
                             (unsigned long long)e->raw_size);
            goto out;
        }
        st = blvl__payload_inflate(s->packed, chunks, nc, *raw, s->threads, s->a, err);
        if (st != BLVL_OK) {
            drop(s, *raw, (size_t)e->raw_size);
            *raw = NULL;
        }
        *data = *raw;
    }
out:
    drop(s, chunks, (size_t)nc * sizeof *chunks);
    return st;
}

/* The last byte of order[next] landed: check it and report it. */
static blvl_status section_done(blvl_stream *s, blvl_error *err) {
    const slot *sl = &s->order[s->next];
    const blvl_entry *e = &s->entries[sl->index];
    uint8_t d[BLVL_DIGEST_SIZE];
    blvl__payload_hasher_final(&s->hasher, d);
    s->started = 0;
    s->next++;

    blvl_stream_event ev = {0};
    ev.kind = BLVL_EV_SECTION;
    ev.entry = e;
    ev.offset = e->offset + e->packed_size;
    const uint8_t *data = NULL;
    uint8_t *raw = NULL;
    blvl_status st = BLVL_OK;
    if (memcmp(d, e->digest, BLVL_DIGEST_SIZE) != 0)
        st = blvl__fail(&s->bad, BLVL_E_SECTION_DIGEST,
                        "section '%s': packed bytes do not match the entry's digest", e->tag);
    else if (sl->wanted && !s->holding)
        st = blvl__nomem(&s->bad, "section '%s' (%llu bytes) is too large to hold", e->tag,
                         (unsigned long long)e->packed_size);
    else if (sl->wanted)
        st = inflate_held(s, e, &data, &raw, &s->bad);
    if (st == BLVL_OK && sl->wanted && s->check) {
        blvl__ok(&s->bad);
        st = s->check(s->check_user, e, data, (size_t)e->raw_size, &s->bad);
        if (st != BLVL_OK && !s->bad.message[0]) /* a check that said no without a word */
            blvl__fail(&s->bad, st, "section '%s' refused by the caller's check", e->tag);
    }
    if (st != BLVL_OK) {
        ev.kind = BLVL_EV_SECTION_BAD;
        ev.status = st;
        ev.message = s->bad.message;
    } else if (sl->wanted) {
        ev.data = data;
        ev.size = (size_t)e->raw_size;
    }
    blvl_status r = emit(s, &ev, err);
    drop(s, raw, raw ? (size_t)e->raw_size : 0);
    release_packed(s);
    s->holding = 0;
    return r;
}

/* Advance through the payload stage by at most `len` bytes of `p`; *used says
 * how many it consumed. It stops at every boundary (a section's start or end)
 * so that events fire at exact offsets, whatever the piece sizes. */
static blvl_status payload_step(blvl_stream *s, const uint8_t *p, size_t len, size_t *used,
                                blvl_error *err) {
    *used = 0;
    const blvl_entry *e = NULL;
    uint64_t stop = UINT64_MAX; /* the next boundary */
    if (s->next < s->h.count) {
        e = &s->entries[s->order[s->next].index];
        uint64_t end = e->offset + e->packed_size; /* no overflow: checked by table_load */
        if (s->pos >= e->offset) {
            if (!s->started) {
                section_start(s);
                return BLVL_OK;
            }
            if (s->pos == end)
                return section_done(s, err);
            stop = end;
        } else {
            stop = e->offset;
            e = NULL; /* in a gap */
        }
    }
    if (len == 0)
        return BLVL_OK;
    /* Any byte at or past covered + limit makes the file carry too many
     * unreferenced bytes, whatever follows: refuse now rather than at finish. */
    if (s->pos >= s->unref_end) {
        uint64_t lim = blvl__container_unreferenced_limit(s->covered);
        return refuse(s, blvl__fail(err, BLVL_E_UNREFERENCED,
                                    "input runs past %llu bytes: more unreferenced bytes than "
                                    "the limit max(1 MiB, covered/16) = %llu",
                                    (unsigned long long)s->unref_end, (unsigned long long)lim));
    }
    if (stop > s->unref_end)
        stop = s->unref_end;
    uint64_t left = stop - s->pos;
    size_t n = left < len ? (size_t)left : len;
    if (e) {
        blvl__payload_hasher_update(&s->hasher, p, n);
        if (s->holding) {
            blvl_status st = hold(s, p, n, e->packed_size, err);
            if (st != BLVL_OK)
                return st;
        }
    }
    *used = n;
    s->pos += n;
    return BLVL_OK;
}

/* A failed stream answers every later call with its first failure, so a caller that checks
 * only the last call (docs/STREAMING.md's example) still learns the rule that refused it. */
static blvl_status remember(blvl_stream *s, blvl_status st, const blvl_error *got,
                            blvl_error *err) {
    if (st != BLVL_OK && s->stage == STAGE_FAILED && s->failure.code == BLVL_OK)
        s->failure = *got;
    if (err)
        *err = *got;
    return st;
}

static blvl_status failed_again(const blvl_stream *s, blvl_error *err) {
    if (err)
        *err = s->failure;
    return s->failure.code;
}

static blvl_status feed_bytes(blvl_stream *s, const void *data, size_t len, blvl_error *err);
static blvl_status finish_input(blvl_stream *s, blvl_error *err);

blvl_status blvl_stream_feed(blvl_stream *s, const void *data, size_t len, blvl_error *err) {
    if (!s || (!data && len))
        return blvl__fail(err, BLVL_E_ARGUMENT, "stream feed: no stream or no data");
    if (s->stage == STAGE_DONE)
        return blvl__fail(err, BLVL_E_STREAM_STATE, "stream feed: bytes after finish");
    if (s->stage == STAGE_FAILED)
        return failed_again(s, err);
    blvl_error got;
    return remember(s, feed_bytes(s, data, len, &got), &got, err);
}

blvl_status blvl_stream_finish(blvl_stream *s, blvl_error *err) {
    if (!s)
        return blvl__fail(err, BLVL_E_ARGUMENT, "stream finish: no stream");
    if (s->stage == STAGE_DONE)
        return blvl__fail(err, BLVL_E_STREAM_STATE, "stream finish: already finished");
    if (s->stage == STAGE_FAILED)
        return failed_again(s, err);
    blvl_error got;
    return remember(s, finish_input(s, &got), &got, err);
}

static blvl_status feed_bytes(blvl_stream *s, const void *data, size_t len, blvl_error *err) {
    const uint8_t *p = data;
    blvl_status st;
    for (;;) {
        if (s->stage == STAGE_HEADER) {
            if (len == 0)
                break;
            size_t n = BLVL_HEADER_SIZE - (size_t)s->pos;
            if (n > len)
                n = len;
            memcpy(s->head + s->pos, p, n);
            s->pos += n, p += n, len -= n;
            if (s->pos == BLVL_HEADER_SIZE && (st = header_done(s, err)) != BLVL_OK)
                return st;
        } else if (s->stage == STAGE_TABLE) {
            if (s->pos >= s->table_end) {
                if ((st = table_done(s, err)) != BLVL_OK)
                    return st;
                continue;
            }
            if (len == 0)
                break;
            size_t n =
                (size_t)(s->table_end - s->pos) < len ? (size_t)(s->table_end - s->pos) : len;
            /* copy the part of [pos, pos+n) that lies inside the table */
            uint64_t lo = s->pos > s->h.table_offset ? s->pos : s->h.table_offset;
            uint64_t hi = s->pos + n;
            if (hi > lo)
                memcpy(s->table + (lo - s->h.table_offset), p + (lo - s->pos), (size_t)(hi - lo));
            s->pos += n, p += n, len -= n;
        } else if (s->stage == STAGE_PAYLOAD) {
            size_t used;
            uint64_t before_next = s->next;
            int before_started = s->started;
            if ((st = payload_step(s, p, len, &used, err)) != BLVL_OK)
                return st;
            p += used, len -= used;
            /* nothing moved and no section began or ended: wait for more bytes */
            if (used == 0 && s->next == before_next && s->started == before_started)
                break;
        } else {
            break;
        }
    }
    blvl__ok(err);
    return BLVL_OK;
}

static blvl_status finish_input(blvl_stream *s, blvl_error *err) {
    blvl_status st;
    /* An empty table completes at the end of the input too. */
    if (s->stage == STAGE_TABLE && s->pos >= s->table_end && (st = table_done(s, err)) != BLVL_OK)
        return st;
    if (s->stage == STAGE_HEADER)
        return refuse(s, blvl__fail(err, BLVL_E_TRUNCATED,
                                    "input of %llu bytes ends inside the 64-byte header",
                                    (unsigned long long)s->pos));
    if (s->stage == STAGE_TABLE)
        return refuse(s, blvl__fail(err, BLVL_E_TRUNCATED,
                                    "input of %llu bytes ends inside the table (which ends at "
                                    "%llu)",
                                    (unsigned long long)s->pos, (unsigned long long)s->table_end));
    if (s->stage != STAGE_PAYLOAD) /* table_done's callback stopped the stream */
        return blvl__fail(err, BLVL_E_STREAM_STATE, "stream finish: the stream already failed");
    /* Now the file length is known: the rules that need it, in blvl_open's order. */
    if (s->pos < s->h.floor)
        return refuse(s, blvl__fail(err, BLVL_E_TRUNCATED,
                                    "file of %llu bytes ends inside the reserved region (floor "
                                    "%llu)",
                                    (unsigned long long)s->pos, (unsigned long long)s->h.floor));
    if ((st = blvl__container_table_check_placement(&s->h, s->entries, s->scratch, s->pos, err)) !=
        BLVL_OK)
        return refuse(s, st);
    if (s->next < s->h.count) /* unreachable once placement passed; kept as a guard */
        return refuse(s, blvl__fail(err, BLVL_E_STREAM_STATE,
                                    "input ended before section '%s' was complete",
                                    s->entries[s->order[s->next].index].tag));
    s->stage = STAGE_DONE;
    blvl_stream_event ev = {0};
    ev.kind = BLVL_EV_END;
    ev.entries = s->entries;
    ev.count = s->h.count;
    ev.offset = s->pos;
    if ((st = emit(s, &ev, err)) != BLVL_OK)
        return st;
    blvl__ok(err);
    return BLVL_OK;
}

void blvl_stream_free(blvl_stream *s) {
    if (!s)
        return;
    size_t n = s->h.count;
    drop(s, s->table, n * BLVL_ENTRY_SIZE);
    drop(s, s->entries, n * sizeof *s->entries);
    drop(s, s->scratch, n * sizeof *s->scratch);
    drop(s, s->order, n * sizeof *s->order);
    release_packed(s);
    drop(s, s->want, s->capwant * sizeof *s->want);
    blvl_allocator al = s->opt.allocator;
    blvl__dealloc(&al, s, sizeof *s);
}

const blvl_options *blvl_stream_options(const blvl_stream *s) {
    return s ? &s->opt : NULL;
}
