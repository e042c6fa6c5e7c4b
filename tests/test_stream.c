/* The streaming reader against levels assembled by hand (test_stream_level.h):
 * the same events whatever the piece sizes, each section judged the moment its
 * last byte lands, the table before any payload byte, unwanted sections never
 * held, and the header refusals. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"
#include "check.h"
#include "test_stream_level.h"

/* ---- recording events
 * ------------------------------------------------------------------ */

typedef struct rec {
    int kind;
    char tag[17];
    uint64_t offset;
    int status;
    int has_data;
    size_t size;
    uint8_t data_digest[16];
    uint32_t count;
    uint8_t identity[16], table_digest[16];
} rec;

typedef struct evlog {
    rec r[256];
    int n;
    int stop_at; /* stop the stream on this event number (1-based); 0 = never */
} evlog;

static int record(void *user, const blvl_stream_event *ev) {
    evlog *L = user;
    if (L->n >= 256)
        return 1;
    rec *r = &L->r[L->n++];
    memset(r, 0, sizeof *r);
    r->kind = ev->kind;
    r->offset = ev->offset;
    r->status = ev->status;
    if (ev->entry)
        memcpy(r->tag, ev->entry->tag, 17);
    if (ev->kind == BLVL_EV_TABLE) {
        r->count = ev->count;
        memcpy(r->identity, ev->identity, 16);
        memcpy(r->table_digest, ev->table_digest, 16);
    }
    if (ev->kind == BLVL_EV_SECTION_BAD && (!ev->message || !ev->message[0]))
        r->status = -1; /* a bad section must say why */
    if (ev->data) {
        r->has_data = 1;
        r->size = ev->size;
        hl_b3(ev->data, ev->size, NULL, 0, r->data_digest);
    }
    return L->stop_at && L->n == L->stop_at;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Feed `b` in pieces: piece 0 = whole, 1 = one byte at a time, otherwise random
 * sizes up to `piece`. Returns the first failing status (of feed or finish). */
static blvl_status run(const uint8_t *b, size_t n, size_t piece, const char **want, int nwant,
                       const blvl_options *opt, evlog *L, blvl_error *err) {
    memset(L->r, 0, sizeof L->r);
    L->n = 0;
    L->stop_at = 0;
    blvl_stream *s = NULL;
    blvl_status st = blvl_stream_new(&s, record, L, opt, err);
    if (st)
        return st;
    for (int i = 0; i < nwant; i++)
        if ((st = blvl_stream_want(s, want[i], err)) != BLVL_OK)
            goto out;
    for (size_t at = 0; at < n;) {
        size_t k = piece == 0 ? n - at : piece == 1 ? 1 : 1 + (size_t)(rng() % piece);
        if (k > n - at)
            k = n - at;
        if ((st = blvl_stream_feed(s, b + at, k, err)) != BLVL_OK)
            goto out;
        at += k;
    }
    st = blvl_stream_finish(s, err);
out:
    blvl_stream_free(s);
    return st;
}

static int same_logs(const evlog *a, const evlog *b) {
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (memcmp(&a->r[i], &b->r[i], sizeof a->r[i]) != 0)
            return 0;
    return 1;
}

static uint8_t *random_bytes(size_t n, int compressible) {
    uint8_t *p = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        p[i] = compressible ? (uint8_t)("level data "[i % 11] + (i / 997) % 3) : (uint8_t)rng();
    return p;
}

/* ---- a typical level
 * ------------------------------------------------------------------- */

enum { N_SECT = 5 };
static uint8_t *raw_meta, *raw_sim, *raw_blocks, *raw_thumb;
static hl_section sect[N_SECT];
/* file order differs from table order, so the reader must sort by offset */
static const size_t file_order[N_SECT] = {2, 0, 4, 1, 3};

static hl_level typical(size_t trailing) {
    memset(sect, 0, sizeof sect);
    sect[0] =
        (hl_section){.tag = "meta", .flags = 1, .raw = raw_meta, .raw_size = 300, .mode = HL_RAW};
    sect[1] =
        (hl_section){.tag = "sim", .flags = 1, .raw = raw_sim, .raw_size = 50000, .mode = HL_ZSTD};
    sect[2] = (hl_section){.tag = "eds.blocks",
                           .flags = 1,
                           .version = 3,
                           .raw = raw_blocks,
                           .raw_size = 7000,
                           .mode = HL_ZSTD};
    sect[3] = (hl_section){
        .tag = "eds.thumb", .flags = 0, .raw = raw_thumb, .raw_size = 1000, .mode = HL_RAW};
    sect[4] =
        (hl_section){.tag = "geometry", .flags = 1, .raw = NULL, .raw_size = 0, .mode = HL_RAW};
    return hl_build(sect, N_SECT, file_order, trailing);
}

static const hl_section *by_tag(const char *tag) {
    for (int i = 0; i < N_SECT; i++)
        if (strcmp(sect[i].tag, tag) == 0)
            return &sect[i];
    return NULL;
}

static void test_same_events_any_pieces(void) {
    hl_level L = typical(100);
    const char *want[] = {"sim", "eds.thumb", "geometry"};
    evlog whole, other;
    blvl_error err;
    CHECK_EQ_INT(run(L.bytes, L.size, 0, want, 3, NULL, &whole, &err), BLVL_OK);
    /* TABLE, 5 sections in file order, END */
    CHECK_EQ_INT(whole.n, 7);
    CHECK_EQ_INT(whole.r[0].kind, BLVL_EV_TABLE);
    CHECK(whole.r[0].offset <= L.floor);
    CHECK_EQ_INT(whole.r[0].offset, 64 + 64 * N_SECT); /* the moment the table is complete */
    CHECK_EQ_INT(whole.r[0].count, N_SECT);
    CHECK_MEM(whole.r[0].identity, L.identity, 16);
    CHECK_MEM(whole.r[0].table_digest, L.table_digest, 16);
    for (int k = 0; k < N_SECT; k++) {
        const rec *r = &whole.r[1 + k];
        const hl_section *s = &sect[file_order[k]];
        CHECK_EQ_INT(r->kind, BLVL_EV_SECTION);
        CHECK(strcmp(r->tag, s->tag) == 0);
        CHECK_EQ_INT(r->offset, s->offset + s->size);
        int wanted =
            !strcmp(s->tag, "sim") || !strcmp(s->tag, "eds.thumb") || !strcmp(s->tag, "geometry");
        CHECK_EQ_INT(r->has_data, wanted);
        if (wanted) {
            uint8_t d[16];
            hl_b3(s->raw ? s->raw : (const uint8_t *)"", s->raw_size, NULL, 0, d);
            CHECK_EQ_INT(r->size, s->raw_size);
            CHECK_MEM(r->data_digest, d, 16);
        }
    }
    CHECK_EQ_INT(whole.r[6].kind, BLVL_EV_END);
    CHECK_EQ_INT(whole.r[6].offset, L.size);

    CHECK_EQ_INT(run(L.bytes, L.size, 1, want, 3, NULL, &other, &err), BLVL_OK);
    CHECK(same_logs(&whole, &other));
    size_t pieces[] = {2, 7, 63, 64, 65, 1000, 4096, 70000};
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++)
        for (int rep = 0; rep < 3; rep++) {
            CHECK_EQ_INT(run(L.bytes, L.size, pieces[i], want, 3, NULL, &other, &err), BLVL_OK);
            CHECK(same_logs(&whole, &other));
        }
    /* one thread or many: the same */
    blvl_options one = {.threads = 1};
    CHECK_EQ_INT(run(L.bytes, L.size, 33, want, 3, &one, &other, &err), BLVL_OK);
    CHECK(same_logs(&whole, &other));
    free(L.bytes);
}

/* A corrupted section is reported when its own last byte lands, after the
 * sections before it and before the ones after it; the stream goes on. */
static void test_bad_section_when_it_lands(void) {
    hl_level L = typical(0);
    const hl_section *sim = by_tag("sim");
    L.bytes[sim->offset + sim->size / 2] ^= 0x40;
    for (int wanted = 0; wanted < 2; wanted++) {
        const char *want[] = {"sim"};
        for (size_t piece = 0; piece < 3; piece++) {
            evlog g;
            blvl_error err;
            CHECK_EQ_INT(
                run(L.bytes, L.size, piece == 2 ? 500 : piece, want, wanted, NULL, &g, &err),
                BLVL_OK);
            CHECK_EQ_INT(g.n, 7);
            int at = -1;
            for (int i = 0; i < g.n; i++)
                if (g.r[i].kind == BLVL_EV_SECTION_BAD)
                    at = i;
            /* sim is the fourth payload in the file: TABLE, blocks, meta, geometry,
             * sim */
            CHECK_EQ_INT(at, 4);
            if (at < 0)
                continue;
            CHECK(strcmp(g.r[at].tag, "sim") == 0);
            CHECK_EQ_INT(g.r[at].status, BLVL_E_SECTION_DIGEST);
            CHECK_EQ_INT(g.r[at].offset, sim->offset + sim->size);
            CHECK_EQ_INT(g.r[at].has_data, 0);
            for (int i = 1; i < at; i++) {
                CHECK_EQ_INT(g.r[i].kind, BLVL_EV_SECTION);
                CHECK(g.r[i].offset < g.r[at].offset);
            }
            CHECK_EQ_INT(g.r[5].kind, BLVL_EV_SECTION);
            CHECK(g.r[5].offset > g.r[at].offset);
            CHECK_EQ_INT(g.r[6].kind, BLVL_EV_END);
        }
    }
    free(L.bytes);
}

/* Digest right, payload wrong: only a wanted section is inflated, so only it
 * can tell. */
static void test_bad_payload_of_wanted(void) {
    uint8_t junk[64];
    memset(junk, 0x5a, sizeof junk);
    uint8_t packed[64 + 16];
    memcpy(packed, junk, 64);
    memset(packed + 64, 0, 16);
    hl_le32(packed + 64, 64);   /* packed */
    hl_le32(packed + 68, 1000); /* raw */
    packed[72] = 1;             /* zstd, but the bytes are not a frame */
    hl_le32(packed + 76, 1);    /* one chunk */
    uint8_t bad_index[8] = {0};
    hl_le32(bad_index, 0xffff); /* a count that cannot fit */
    hl_section s[3] = {
        {.tag = "meta",
         .flags = 1,
         .raw_size = 1000,
         .mode = HL_CUSTOM,
         .packed = packed,
         .packed_size = sizeof packed},
        {.tag = "sim",
         .flags = 1,
         .raw_size = 5,
         .mode = HL_CUSTOM,
         .packed = bad_index,
         .packed_size = 8},
        {.tag = "x.ok", .raw = (const uint8_t *)"hello", .raw_size = 5, .mode = HL_RAW},
    };
    hl_level L = hl_build(s, 3, NULL, 0);
    const char *want[] = {"meta", "sim", "x.ok"};
    evlog g;
    blvl_error err;
    CHECK_EQ_INT(run(L.bytes, L.size, 0, want, 3, NULL, &g, &err), BLVL_OK);
    CHECK_EQ_INT(g.n, 5);
    CHECK_EQ_INT(g.r[1].kind, BLVL_EV_SECTION_BAD);
    CHECK_EQ_INT(g.r[1].status, BLVL_E_ZSTD);
    CHECK_EQ_INT(g.r[2].kind, BLVL_EV_SECTION_BAD);
    CHECK_EQ_INT(g.r[2].status, BLVL_E_CHUNK_INDEX);
    CHECK_EQ_INT(g.r[3].kind, BLVL_EV_SECTION);
    CHECK_EQ_INT(g.r[3].size, 5);
    /* not wanted: digests match, so every section passes */
    CHECK_EQ_INT(run(L.bytes, L.size, 0, NULL, 0, NULL, &g, &err), BLVL_OK);
    CHECK_EQ_INT(g.n, 5);
    for (int i = 1; i < 4; i++)
        CHECK_EQ_INT(g.r[i].kind, BLVL_EV_SECTION);
    /* the budget is the level's rule, checked on the table as blvl_open does: a caller's
     * budget under the table's raw sizes refuses the stream before any section arrives */
    blvl_options small = {.inflate_budget = 999};
    const char *want_meta[] = {"x.ok", "meta"};
    CHECK_EQ_INT(run(L.bytes, L.size, 0, want_meta, 2, &small, &g, &err), BLVL_E_BUDGET);
    CHECK_EQ_INT(g.n, 0);
    CHECK(strncmp(err.message, "inflation-budget: ", 18) == 0);
    free(L.bytes);
}

/* ---- memory: unwanted sections are never held
 * ----------------------------------------- */

typedef struct meter {
    size_t live, peak;
} meter;
static void *m_alloc(void *u, size_t n) {
    meter *m = u;
    m->live += n;
    if (m->live > m->peak)
        m->peak = m->live;
    return malloc(n);
}
static void m_free(void *u, void *p, size_t n) {
    meter *m = u;
    m->live -= n;
    free(p);
}

static void test_unwanted_not_held(void) {
    size_t big = 3u << 20;
    uint8_t *raw = random_bytes(big, 0);
    hl_section s[2] = {
        {.tag = "meta", .flags = 1, .raw = (const uint8_t *)"m", .raw_size = 1, .mode = HL_RAW},
        {.tag = "eds.big", .raw = raw, .raw_size = big, .mode = HL_RAW},
    };
    hl_level L = hl_build(s, 2, NULL, 0);
    meter m = {0};
    blvl_allocator al = {m_alloc, m_free, &m};
    blvl_options opt = {.allocator = al};
    evlog g;
    blvl_error err;
    CHECK_EQ_INT(run(L.bytes, L.size, 65536, NULL, 0, &opt, &g, &err), BLVL_OK);
    CHECK_EQ_INT(g.n, 4);
    CHECK(m.peak < 64u << 10); /* the state and the table; no payload */
    CHECK_EQ_INT(m.live, 0);
    const char *want[] = {"eds.big"};
    m.peak = 0;
    CHECK_EQ_INT(run(L.bytes, L.size, 65536, want, 1, &opt, &g, &err), BLVL_OK);
    CHECK(m.peak >= big);    /* held; one raw chunk is handed out as held, without a copy */
    CHECK(m.peak < 2 * big); /* growth is bounded by the section */
    CHECK_EQ_INT(m.live, 0);
    CHECK_EQ_INT(g.r[2].size, big);
    free(raw);
    free(L.bytes);
}

/* ---- refusals
 * -------------------------------------------------------------------------- */

static blvl_status feed_all(const hl_level *L, size_t len, blvl_status *at_finish) {
    evlog g;
    blvl_error err;
    blvl_stream *s = NULL;
    blvl_stream_new(&s, record, &g, NULL, &err);
    g.n = 0;
    g.stop_at = 0;
    blvl_status st = blvl_stream_feed(s, L->bytes, len, &err);
    *at_finish = st ? st : blvl_stream_finish(s, &err);
    if (*at_finish != BLVL_OK) {
        CHECK(err.code == *at_finish);
        CHECK(strncmp(err.message, blvl_status_name(*at_finish),
                      strlen(blvl_status_name(*at_finish))) == 0);
    }
    blvl_stream_free(s);
    return st;
}

static void test_header_refusals(void) {
    struct {
        size_t at;
        uint8_t value;
        int reseal;
        blvl_status want;
    } cases[] = {
        {0, 0x1a, 0, BLVL_E_MAGIC},
        {7, 0x0b, 0, BLVL_E_MAGIC},
        {8, 2, 0, BLVL_E_VERSION},
        {12, 1, 0, BLVL_E_HEADER_FLAGS},
        {16, 0x20, 0, BLVL_E_FLOOR},        /* 4096 -> 4128: not a multiple of 64 */
        {18, 0x10, 0, BLVL_E_FLOOR},        /* past 128 KiB */
        {44, 0x50, 0, BLVL_E_TABLE_OFFSET}, /* 16: not a multiple of 64, inside the header */
        {41, 0x10, 0, BLVL_E_COUNT},        /* 4101 entries in a 4096-byte region */
        {30, 0x01, 0, BLVL_E_TABLE_DIGEST},
        {60, 0x01, 0, BLVL_E_IDENTITY},
        {64 + 1, 0x20, 1, BLVL_E_TAG},                /* "mEta": upper case in a tag */
        {64 + 44, 0x02, 1, BLVL_E_ENTRY_FLAGS},       /* unknown entry flag */
        {64 + 44, 0x01, 1, BLVL_E_CORE_NOT_IDENTITY}, /* meta without the identity flag */
        {64 + 16, 0x08, 1, BLVL_E_ENTRY_ALIGN},       /* offset + 8 */
        {64 + 37, 0x01, 1, BLVL_E_RAW_SIZE},          /* raw size past 2 GiB */
        {0, 0, 1, BLVL_E_TAG_REPEATED},               /* see below */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hl_level L = typical(0);
        if (cases[i].want == BLVL_E_TAG_REPEATED) /* second entry "sim" renamed "meta" */
            memcpy(L.bytes + 64 + 64, "meta", 5);
        else
            L.bytes[cases[i].at] ^= cases[i].value;
        if (cases[i].reseal)
            hl_reseal_table(&L);
        blvl_status fin;
        /* refused by feed, as soon as the table is complete, not at finish */
        blvl_status st = feed_all(&L, 64 + 64 * N_SECT, &fin);
        if (st != cases[i].want)
            fprintf(stderr, "case %zu: got %s, want %s\n", i, blvl_status_name(st),
                    blvl_status_name(cases[i].want));
        CHECK_EQ_INT(st, cases[i].want);
        free(L.bytes);
    }
    /* before 64 bytes nothing can be said; at 64 the magic is refused */
    hl_level L = typical(0);
    L.bytes[0] = 'X';
    blvl_status fin;
    CHECK_EQ_INT(feed_all(&L, 63, &fin), BLVL_OK);
    CHECK_EQ_INT(fin, BLVL_E_TRUNCATED);
    CHECK_EQ_INT(feed_all(&L, 64, &fin), BLVL_E_MAGIC);
    free(L.bytes);
}

static void test_overlap_and_floor(void) {
    hl_level L = typical(0);
    /* entry 1 (sim) onto entry 0's (meta) payload */
    memcpy(L.bytes + 64 + 64 + 16, L.bytes + 64 + 16, 8);
    hl_reseal_table(&L);
    blvl_status fin;
    CHECK_EQ_INT(feed_all(&L, L.size, &fin), BLVL_E_ENTRY_OVERLAP);
    free(L.bytes);
    L = typical(0);
    hl_le64(L.bytes + 64 + 16, 64 * 40); /* meta inside the reserved region */
    hl_reseal_table(&L);
    CHECK_EQ_INT(feed_all(&L, L.size, &fin), BLVL_E_ENTRY_BELOW_FLOOR);
    free(L.bytes);
}

static void test_end_of_input(void) {
    hl_level L = typical(0);
    blvl_status fin;
    CHECK_EQ_INT(feed_all(&L, L.size, &fin), BLVL_OK);
    CHECK_EQ_INT(fin, BLVL_OK);
    CHECK_EQ_INT(feed_all(&L, L.size - 1, &fin), BLVL_OK);
    CHECK_EQ_INT(fin, BLVL_E_ENTRY_PAST_EOF);
    CHECK_EQ_INT(feed_all(&L, 100, &fin), BLVL_OK);
    CHECK_EQ_INT(fin, BLVL_E_TRUNCATED);
    CHECK_EQ_INT(feed_all(&L, 64 + 64 * N_SECT + 10, &fin), BLVL_OK);
    CHECK_EQ_INT(fin, BLVL_E_TRUNCATED); /* inside the reserved region, as blvl_open says */
    free(L.bytes);

    /* trailing bytes: within max(1 MiB, covered/16) they are ignored ... */
    L = typical(0);
    uint64_t covered = L.floor;
    for (int i = 0; i < N_SECT; i++)
        covered += sect[i].size;
    size_t room = (1u << 20) - (size_t)(L.size - covered); /* alignment padding counts */
    free(L.bytes);
    L = typical(room);
    evlog g;
    blvl_error err;
    CHECK_EQ_INT(run(L.bytes, L.size, 0, NULL, 0, NULL, &g, &err), BLVL_OK);
    free(L.bytes);
    /* ... one more and the file is refused, by feed, at that byte, after every
     * section */
    L = typical(room + 1);
    CHECK_EQ_INT(run(L.bytes, L.size, 4000, NULL, 0, NULL, &g, &err), BLVL_E_UNREFERENCED);
    CHECK_EQ_INT(g.n, 1 + N_SECT);
    free(L.bytes);

    /* feed after finish, finish twice, want after the table */
    L = typical(0);
    blvl_stream *s = NULL;
    CHECK_EQ_INT(blvl_stream_new(&s, record, &g, NULL, &err), BLVL_OK);
    g.n = 0;
    CHECK_EQ_INT(blvl_stream_want(s, "Bad", &err), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl_stream_want(s, "sim", &err), BLVL_OK);
    CHECK_EQ_INT(blvl_stream_feed(s, L.bytes, 1000, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_stream_want(s, "meta", &err), BLVL_E_STREAM_STATE);
    CHECK_EQ_INT(blvl_stream_feed(s, L.bytes + 1000, L.size - 1000, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_stream_finish(s, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_stream_feed(s, "x", 1, &err), BLVL_E_STREAM_STATE);
    CHECK_EQ_INT(blvl_stream_finish(s, &err), BLVL_E_STREAM_STATE);
    blvl_stream_free(s);

    /* the callback stops the stream */
    g.n = 0;
    g.stop_at = 2;
    CHECK_EQ_INT(blvl_stream_new(&s, record, &g, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_stream_feed(s, L.bytes, L.size, &err), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(g.n, 2);
    /* a stopped stream says why again, to feed and to finish */
    blvl_error again;
    CHECK_EQ_INT(blvl_stream_feed(s, L.bytes, 1, &again), BLVL_E_ARGUMENT);
    CHECK(strcmp(again.message, err.message) == 0);
    CHECK_EQ_INT(blvl_stream_finish(s, &again), BLVL_E_ARGUMENT);
    CHECK(strcmp(again.message, err.message) == 0);
    CHECK_EQ_INT(g.n, 2);
    blvl_stream_free(s);
    free(L.bytes);
}

/* A level with no sections at all, and one whose table sits away from the
 * header. */
static void test_empty_and_moved_table(void) {
    hl_level L = hl_build(NULL, 0, NULL, 0);
    evlog g;
    blvl_error err;
    CHECK_EQ_INT(run(L.bytes, L.size, 1, NULL, 0, NULL, &g, &err), BLVL_OK);
    CHECK_EQ_INT(g.n, 2);
    CHECK_EQ_INT(g.r[0].kind, BLVL_EV_TABLE);
    CHECK_EQ_INT(g.r[0].offset, 64);
    CHECK_EQ_INT(g.r[1].kind, BLVL_EV_END);
    CHECK_EQ_INT(g.r[1].offset, 4096);
    free(L.bytes);

    L = typical(0);
    /* move the table to 2048 (an edit may rewrite it there) */
    memmove(L.bytes + 2048, L.bytes + 64, 64 * N_SECT);
    memset(L.bytes + 64, 0, 64 * N_SECT);
    hl_le32(L.bytes + 44, 2048);
    /* the table digest pins the offset: moved without a new digest, it is refused */
    CHECK_EQ_INT(run(L.bytes, L.size, 1, NULL, 0, NULL, &g, &err), BLVL_E_TABLE_DIGEST);
    CHECK_EQ_INT(g.n, 0);
    hl_reseal_table(&L);
    CHECK_EQ_INT(run(L.bytes, L.size, 1, NULL, 0, NULL, &g, &err), BLVL_OK);
    CHECK_EQ_INT(g.r[0].kind, BLVL_EV_TABLE);
    CHECK_EQ_INT(g.r[0].offset, 2048 + 64 * N_SECT);
    CHECK_EQ_INT(g.n, 2 + N_SECT);
    free(L.bytes);
}

/* Random corruption of every byte of the region the reader must look at:
 * whatever the piece size, the outcome (status and events) is the same. */
static void test_piece_invariance_under_corruption(void) {
    for (int trial = 0; trial < 300; trial++) {
        hl_level L = typical(trial % 3 == 0 ? 200 : 0);
        size_t at = (size_t)(rng() % L.size);
        L.bytes[at] ^= (uint8_t)(1 + rng() % 255);
        if (trial % 2)
            hl_reseal_table(&L);
        const char *want[] = {"sim", "meta"};
        evlog a, b;
        blvl_error err;
        blvl_status sa = run(L.bytes, L.size, 0, want, 2, NULL, &a, &err);
        blvl_status sb = run(L.bytes, L.size, 1 + trial % 200, want, 2, NULL, &b, &err);
        CHECK_EQ_INT(sa, sb);
        CHECK(same_logs(&a, &b));
        free(L.bytes);
    }
}

int main(void) {
    raw_meta = random_bytes(300, 0);
    raw_sim = random_bytes(50000, 1);
    raw_blocks = random_bytes(7000, 1);
    raw_thumb = random_bytes(1000, 0);
    test_same_events_any_pieces();
    test_bad_section_when_it_lands();
    test_bad_payload_of_wanted();
    test_unwanted_not_held();
    test_header_refusals();
    test_overlap_and_floor();
    test_end_of_input();
    test_empty_and_moved_table();
    test_piece_invariance_under_corruption();
    free(raw_meta);
    free(raw_sim);
    free(raw_blocks);
    free(raw_thumb);
    return check_report("test_stream");
}
