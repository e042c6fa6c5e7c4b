/* libFuzzer target for the streaming reader. Input: one control byte, then the level's bytes.
 * The control byte picks which sections are wanted (bit 0: the core tags and a few game tags),
 * whether every digest is recomputed first (bit 1, so mutations reach the chunk index and the
 * zstd frames behind a matching section digest) and the largest piece (bits 2..7); the size of
 * every piece fed comes from the level's own bytes. Checked on every input:
 *  - the stream fed in those pieces gives the same events and verdict as fed whole;
 *  - it accepts exactly the files blvl_open_memory accepts, and then judges every section as
 *    blvl_read does, with the same bytes for a wanted section;
 *  - events come in order: TABLE first (at or before the floor), sections by increasing end
 *    offset, END last. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"
#include "blvl/le.h"
#include "container/format.h"
#include "payload/digest.h"
#include "sections/roots.h"

#define MAX_EV 512

typedef struct ev {
    int kind;
    char tag[BLVL_TAG_MAX + 1];
    uint64_t offset;
    blvl_status status;
    int has_data;
    size_t size;
    uint8_t digest[16];
} ev;

typedef struct trace {
    ev e[MAX_EV];
    int n;
    uint64_t floor_seen;
} trace;

static int on_event(void *user, const blvl_stream_event *x) {
    trace *t = user;
    if (t->n >= MAX_EV)
        abort(); /* a level has at most 2047 sections, but our inputs are small */
    ev *e = &t->e[t->n++];
    memset(e, 0, sizeof *e);
    e->kind = x->kind;
    e->offset = x->offset;
    e->status = x->status;
    if (x->entry)
        memcpy(e->tag, x->entry->tag, sizeof e->tag);
    if (x->kind == BLVL_EV_SECTION_BAD && (!x->message || !x->message[0]))
        abort();
    if (x->data) {
        e->has_data = 1;
        e->size = x->size;
        blvl_hasher h;
        blvl__payload_hasher_init(&h);
        blvl__payload_hasher_update(&h, x->data, x->size);
        blvl__payload_hasher_final(&h, e->digest);
    }
    return 0;
}

/* Wanted besides every core tag of the generated registry. */
static const char *const wanted_games[] = {"eds.blocks", "eds.thumb", "x.a", "demo.spawns"};

static int is_wanted(const char *tag) {
    int w = 0;
    for (unsigned i = 0; i < blvl__sections_core_count; i++)
        w |= strcmp(blvl__sections_roots[i].name, tag) == 0;
    for (size_t i = 0; i < sizeof wanted_games / sizeof *wanted_games; i++)
        w |= strcmp(wanted_games[i], tag) == 0;
    return w;
}

static blvl_status run(const uint8_t *b, size_t n, int want, size_t max_piece, trace *t) {
    memset(t, 0, sizeof *t);
    blvl_stream *s;
    blvl_error err;
    blvl_options opt = {0};
    opt.threads = 1;
    if (blvl_stream_new(&s, on_event, t, &opt, &err) != BLVL_OK)
        abort();
    for (unsigned i = 0; want && i < blvl__sections_core_count; i++)
        if (blvl_stream_want(s, blvl__sections_roots[i].name, &err) != BLVL_OK)
            abort();
    for (size_t i = 0; want && i < sizeof wanted_games / sizeof *wanted_games; i++)
        if (blvl_stream_want(s, wanted_games[i], &err) != BLVL_OK)
            abort();
    blvl_status st = BLVL_OK;
    for (size_t at = 0, k = 0; at < n && st == BLVL_OK; k++) {
        size_t piece = max_piece ? 1 + b[(k * 131) % n] % max_piece : n - at;
        if (piece > n - at)
            piece = n - at;
        st = blvl_stream_feed(s, b + at, piece, &err);
        at += piece;
    }
    if (st == BLVL_OK)
        st = blvl_stream_finish(s, &err);
    if (st != BLVL_OK && err.code != st)
        abort();
    /* a failed stream stays failed, and says why again */
    blvl_error again;
    if (st != BLVL_OK &&
        (blvl_stream_feed(s, "x", 1, &again) != st || blvl_stream_finish(s, &again) != st ||
         strcmp(again.message, err.message) != 0))
        abort();
    blvl_stream_free(s);
    return st;
}

/* Recompute every section digest the table can place, then the table digest and identity. */
static void reseal(uint8_t *b, size_t n) {
    if (n < BLVL_HEADER_SIZE)
        return;
    uint32_t count = blvl_le32(b + 40), toff = blvl_le32(b + 44);
    if (count > 2047 || (uint64_t)toff + 64ull * count > n)
        return;
    blvl_entry *es = calloc(count ? count : 1, sizeof *es);
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *t = b + toff + 64 * i;
        uint64_t off = blvl_le64(t + 16), len = blvl_le64(t + 24);
        if (off <= n && len <= n - off)
            blvl_digest(b + off, (size_t)len, t + 48);
        blvl_error err;
        if (blvl__container_entry_decode(t, i, &es[i], &err) != BLVL_OK)
            memset(&es[i], 0, sizeof es[i]);
    }
    blvl_compute_table_digest(b + toff, count, blvl_le64(b + 16), toff, b + 24);
    blvl_compute_identity(es, count, b + 48);
    free(es);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1)
        return 0;
    int want = data[0] & 1;
    size_t max_piece = (size_t)(data[0] >> 2); /* 0: one byte at a time */
    size_t n = size - 1;
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, data + 1, n);
    if (data[0] & 2)
        reseal(copy, n);
    const uint8_t *b = copy;

    static trace whole, pieces; /* large; one input at a time */
    blvl_status sw = run(b, n, want, 0, &whole);
    blvl_status sp = run(b, n, want, max_piece ? max_piece : 1, &pieces);
    if (sw != sp || whole.n != pieces.n || memcmp(whole.e, pieces.e, sizeof(ev) * whole.n))
        abort();

    /* order of events */
    for (int i = 0; i < whole.n; i++) {
        const ev *e = &whole.e[i];
        if ((e->kind == BLVL_EV_TABLE) != (i == 0))
            abort();
        if (i > 0 && e->offset < whole.e[i - 1].offset)
            abort();
        if (e->kind == BLVL_EV_TABLE && e->offset > BLVL_FLOOR_MAX)
            abort();
        if (e->kind == BLVL_EV_END && (i != whole.n - 1 || sw != BLVL_OK || e->offset != n))
            abort();
    }

    /* against the random-access reader */
    blvl_level *lv = NULL;
    blvl_error err;
    blvl_options opt = {0};
    opt.threads = 1;
    blvl_status so = blvl_open_memory(&lv, b, n, &opt, &err);
    if ((so == BLVL_OK) != (sw == BLVL_OK))
        abort();
    if (so != BLVL_OK) {
        free(copy);
        return 0;
    }
    if ((uint32_t)whole.n != blvl_count(lv) + 2)
        abort();
    for (int i = 1; i + 1 < whole.n; i++) {
        const ev *e = &whole.e[i];
        const blvl_entry *en = blvl_find(lv, e->tag);
        if (!en || e->offset != en->offset + en->packed_size)
            abort();
        int wanted_tag = want && is_wanted(e->tag);
        /* an unwanted section is checked by its digest alone, as read_packed does */
        blvl_bytes sec;
        blvl_status rs = wanted_tag ? blvl_read(lv, e->tag, &sec, &err)
                                    : blvl_read_packed(lv, e->tag, &sec, &err);
        if ((rs == BLVL_OK) != (e->kind == BLVL_EV_SECTION))
            abort();
        if (rs == BLVL_OK) {
            if (wanted_tag) {
                uint8_t d[16];
                blvl_hasher h;
                blvl__payload_hasher_init(&h);
                blvl__payload_hasher_update(&h, sec.data, sec.size);
                blvl__payload_hasher_final(&h, d);
                if (!e->has_data || e->size != sec.size || memcmp(d, e->digest, 16) != 0)
                    abort();
            } else if (e->has_data) {
                abort();
            }
            blvl_bytes_free(&sec);
        } else if (rs != e->status) {
            abort();
        }
    }
    blvl_close(lv);
    free(copy);
    return 0;
}
