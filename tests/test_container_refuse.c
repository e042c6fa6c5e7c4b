/* One test per refusal rule of docs/FORMAT.md: a hand-built file (container_fixture.h) that
 * breaks exactly that rule, opened from memory, from a path and from a read callback, must be
 * refused with that rule's status and a message that starts with the rule's name. */
#include <zstd.h>

#include "blvl/blvl.h"
#include "check.h"
#include "container_fixture.h"

static int src_read(void *user, uint64_t off, void *buf, size_t len) {
    memcpy(buf, (const uint8_t *)user + off, len);
    return 0;
}

static int message_names(const blvl_error *e, blvl_status code) {
    const char *name = blvl_status_name(code);
    return strncmp(e->message, name, strlen(name)) == 0 && e->message[strlen(name)] == ':';
}

/* Opens the file three ways with options `opt`; every way must give `want`. */
static void expect_open_opt(const char *what, fx_file *f, blvl_status want,
                            const blvl_options *opt) {
    uint8_t *b = fx_emit(f);
    size_t size = (size_t)f->size;
    blvl_level *lv = NULL;
    blvl_error e;
    blvl_status st = blvl_open_memory(&lv, b, size, opt, &e);
    if (st != want)
        fprintf(stderr, "%s: memory: got \"%s\", want %s\n", what, e.message,
                blvl_status_name(want));
    CHECK_EQ_INT(st, want);
    if (st != BLVL_OK) {
        CHECK(lv == NULL);
        CHECK_EQ_INT(e.code, want);
        CHECK(message_names(&e, want));
    }
    blvl_close(lv);
    char *path = fx_temp_file(b, size);
    CHECK(path != NULL);
    st = blvl_open_file(&lv, path, opt, &e);
    CHECK_EQ_INT(st, want);
    blvl_close(lv);
    unlink(path);
    free(path);
    blvl_source src = {.read = src_read, .size = size, .user = b};
    st = blvl_open_source(&lv, &src, opt, &e);
    CHECK_EQ_INT(st, want);
    blvl_close(lv);
    free(b);
}

static int stream_nop(void *user, const blvl_stream_event *ev) {
    (void)user;
    (void)ev;
    return 0;
}

/* Feeds the file to the streaming reader in 100-byte pieces: it must end with `want`. */
static void expect_stream(fx_file *f, blvl_status want) {
    uint8_t *b = fx_emit(f);
    blvl_stream *s;
    blvl_error e;
    CHECK_EQ_INT(blvl_stream_new(&s, stream_nop, NULL, NULL, &e), BLVL_OK);
    blvl_status st = BLVL_OK;
    for (size_t at = 0; at < f->size && st == BLVL_OK; at += 100)
        st = blvl_stream_feed(s, b + at, f->size - at < 100 ? (size_t)(f->size - at) : 100, &e);
    if (st == BLVL_OK)
        st = blvl_stream_finish(s, &e);
    CHECK_EQ_INT(st, want);
    CHECK(st == BLVL_OK || message_names(&e, want));
    blvl_stream_free(s);
    free(b);
}

static void expect_open(const char *what, fx_file *f, blvl_status want) {
    expect_open_opt(what, f, want, NULL);
}

/* Opens (must succeed) and reads `tag` from memory and from a callback, and verifies: each
 * must give `want`. */
static void expect_read(const char *what, fx_file *f, const char *tag, blvl_status want,
                        uint64_t budget) {
    uint8_t *b = fx_emit(f);
    blvl_options opt = {0};
    opt.inflate_budget = budget;
    for (int way = 0; way < 2; way++) {
        blvl_level *lv = NULL;
        blvl_error e;
        blvl_source src = {.read = src_read, .size = f->size, .user = b};
        blvl_status st = way == 0 ? blvl_open_memory(&lv, b, (size_t)f->size, &opt, &e)
                                  : blvl_open_source(&lv, &src, &opt, &e);
        CHECK_EQ_INT(st, BLVL_OK);
        if (st != BLVL_OK) {
            fprintf(stderr, "%s: open: %s\n", what, e.message);
            continue;
        }
        blvl_bytes s;
        st = blvl_read(lv, tag, &s, &e);
        if (st != want)
            fprintf(stderr, "%s: read: got \"%s\", want %s\n", what, e.message,
                    blvl_status_name(want));
        CHECK_EQ_INT(st, want);
        CHECK(st == BLVL_OK || message_names(&e, want));
        CHECK(st == BLVL_OK || strstr(e.message, tag) != NULL);
        blvl_bytes_free(&s);
        blvl_close(lv);
        /* verify on a fresh level (the budget is per level) */
        st = way == 0 ? blvl_open_memory(&lv, b, (size_t)f->size, &opt, &e)
                      : blvl_open_source(&lv, &src, &opt, &e);
        CHECK_EQ_INT(st, BLVL_OK);
        st = blvl_verify(lv, &e);
        if (st != want)
            fprintf(stderr, "%s: verify: got \"%s\", want %s\n", what, e.message,
                    blvl_status_name(want));
        CHECK_EQ_INT(st, want);
        blvl_close(lv);
    }
    free(b);
}

static void header_rules(void) {
    fx_file f;
    fx_base(&f);
    expect_open("baseline", &f, BLVL_OK);

    fx_base(&f);
    f.size = 40;
    expect_open("short header", &f, BLVL_E_TRUNCATED);

    fx_base(&f);
    f.count = f.nentries = 0;
    f.size = 2000;
    expect_open("ends inside region", &f, BLVL_E_TRUNCATED);

    fx_base(&f);
    f.magic[3] = 'X';
    expect_open("magic", &f, BLVL_E_MAGIC);

    fx_base(&f);
    f.version = 2;
    expect_open("version", &f, BLVL_E_VERSION);

    fx_base(&f);
    f.hflags = 1;
    expect_open("header flags", &f, BLVL_E_HEADER_FLAGS);

    fx_base(&f);
    f.floor = 4095;
    expect_open("floor not a table boundary", &f, BLVL_E_FLOOR);

    fx_base(&f);
    f.count = f.nentries = 0;
    f.floor = 64;
    f.size = 4096;
    expect_open("floor below 128", &f, BLVL_E_FLOOR);

    fx_base(&f);
    f.count = f.nentries = 0;
    f.floor = 131072 + 64;
    f.size = f.floor;
    expect_open("floor above 128 KiB", &f, BLVL_E_FLOOR);

    fx_base(&f);
    f.count = f.nentries = 0;
    f.floor = 131072;
    f.size = f.floor;
    expect_open("floor of 128 KiB", &f, BLVL_OK);

    fx_base(&f);
    f.table_offset = 96;
    expect_open("table offset not a boundary", &f, BLVL_E_TABLE_OFFSET);

    fx_base(&f);
    f.table_offset = 0;
    expect_open("table over the header", &f, BLVL_E_TABLE_OFFSET);

    fx_base(&f);
    f.table_offset = 4096 - 64;
    expect_open("table past the floor", &f, BLVL_E_TABLE_OFFSET);

    fx_base(&f);
    f.table_offset = 4096 - 128;
    expect_open("table ending at the floor", &f, BLVL_OK);

    fx_base(&f);
    f.floor = 128; /* capacity 1 */
    f.e[0].offset = 128;
    f.e[1].offset = 192;
    f.size = 192 + f.e[1].packed;
    expect_open("count past capacity", &f, BLVL_E_COUNT);
}

static void table_rules(void) {
    fx_file f;
    fx_base(&f);
    f.e[1].tag[2] = 'B';
    expect_open("tag upper case", &f, BLVL_E_TAG);

    fx_base(&f);
    f.e[1].tag[1] = 0; /* "x\0blob" */
    expect_open("tag bytes after NUL", &f, BLVL_E_TAG);

    fx_base(&f);
    memset(f.e[1].tag, 0, 16);
    expect_open("empty tag", &f, BLVL_E_TAG);

    fx_base(&f);
    f.e[1].tag[0] = ' ';
    expect_open("tag with a space", &f, BLVL_E_TAG);

    fx_base(&f);
    memset(f.e[1].tag, 'a', 16); /* 16 bytes, no NUL: the longest valid tag */
    expect_open("16-byte tag", &f, BLVL_E_CORE_NOT_IDENTITY);
    fx_base(&f);
    memset(f.e[1].tag, 'a', 16);
    f.e[1].tag[3] = '.';
    expect_open("16-byte game tag", &f, BLVL_OK);

    /* A tag of punctuation alone is a tag (FORMAT.md §4 rule 1): with a dot ("." "..") a game
     * tag, without ("-" "_") a core tag, which must carry the identity flag. */
    const char *game_punct[] = {".", "..", ".-", "-._"}, *core_punct[] = {"-", "_", "--"};
    for (unsigned i = 0; i < 4; i++) {
        fx_base(&f);
        fx_tag(&f.e[1], game_punct[i]);
        expect_open(game_punct[i], &f, BLVL_OK);
        CHECK(blvl_tag_valid(game_punct[i], NULL));
    }
    for (unsigned i = 0; i < 3; i++) {
        fx_base(&f);
        fx_tag(&f.e[1], core_punct[i]);
        expect_open(core_punct[i], &f, BLVL_E_CORE_NOT_IDENTITY);
        f.e[1].flags = 1;
        expect_open(core_punct[i], &f, BLVL_OK);
    }

    fx_base(&f);
    fx_tag(&f.e[1], "meta");
    f.e[1].flags = 1;
    expect_open("tag repeated", &f, BLVL_E_TAG_REPEATED);

    fx_base(&f);
    f.e[1].flags = 2;
    expect_open("entry flags", &f, BLVL_E_ENTRY_FLAGS);

    fx_base(&f);
    f.e[1].offset += 1;
    f.size += 1;
    expect_open("entry alignment", &f, BLVL_E_ENTRY_ALIGN);

    fx_base(&f);
    f.e[1].offset = 4096 - 192;
    f.size = 4096 + 64;
    expect_open("entry below floor", &f, BLVL_E_ENTRY_BELOW_FLOOR);

    fx_base(&f);
    f.size -= 1;
    expect_open("entry past EOF", &f, BLVL_E_ENTRY_PAST_EOF);

    /* Rule 8 runs entry by entry, both checks for entry 0 before entry 1 (FORMAT.md §4): meta
     * (entry 0) runs past the end and x.blob (entry 1) starts below the floor, so past-eof.
     * Checked all below-floor first, it would be below-floor. A stream, which cannot know the
     * file length, leaves past-eof for the end and reports x.blob below the floor. */
    fx_base(&f);
    f.e[1].offset = 4096 - 192; /* 3904..4020, in the slack */
    f.size = 4096 + 4;          /* meta's 21 bytes at 4096 run past it */
    expect_open("entry 0 past EOF before entry 1 below floor", &f, BLVL_E_ENTRY_PAST_EOF);
    expect_stream(&f, BLVL_E_ENTRY_BELOW_FLOOR);
    fx_base(&f);
    f.e[0].offset = 4096 - 192;
    f.e[1].offset = 4096;
    f.size = 4096 + 4;
    expect_open("entry 0 below floor before entry 1 past EOF", &f, BLVL_E_ENTRY_BELOW_FLOOR);

    fx_base(&f);
    f.e[1].offset = 4096;
    f.e[0].offset = 4096 + 64;
    f.payload[0] = NULL; /* the bytes are x.blob's; open does not hash sections */
    fx_b3(fx_meta_payload, (size_t)f.e[0].packed, f.e[0].digest);
    f.e[0].digest_set = 1;
    f.e[0].offset = 4096 + 64;
    f.e[0].packed = 64; /* 4160..4224 lies inside x.blob's 4096..4212 */
    f.e[0].raw = 64;    /* within the packed-size bound */
    expect_open("entries overlap", &f, BLVL_E_ENTRY_OVERLAP);

    fx_base(&f);
    f.e[1].raw = (2ull << 30) + 1;
    expect_open("raw size over 2 GiB", &f, BLVL_E_RAW_SIZE);
    fx_base(&f);
    f.e[1].raw = 2ull << 30;
    blvl_options roomy = {.inflate_budget = UINT64_MAX};
    expect_open_opt("raw size of 2 GiB opens", &f, BLVL_OK, &roomy);
    /* ... but not from a 4 KiB file under the default budget */
    expect_open("raw size of 2 GiB from 4 KiB", &f, BLVL_E_BUDGET);

    fx_base(&f);
    uint64_t covered = 4096 + f.e[0].packed + f.e[1].packed;
    f.size = covered + (1u << 20);
    expect_open("unreferenced at the limit", &f, BLVL_OK);
    f.size += 1;
    expect_open("unreferenced over the limit", &f, BLVL_E_UNREFERENCED);

    fx_base(&f);
    f.e[0].flags = 0;
    expect_open("core tag without identity", &f, BLVL_E_CORE_NOT_IDENTITY);

    fx_base(&f);
    free(fx_emit(&f)); /* compute, then break */
    f.table_digest_set = 1;
    f.table_digest[5] ^= 1;
    expect_open("table digest", &f, BLVL_E_TABLE_DIGEST);

    /* The table digest pins the floor and the table offset: a lowered floor (the payloads
     * still above it) and the table copied elsewhere in the region with the offset pointed at
     * it are refused, by random access and by the streaming reader, though every other rule
     * holds. */
    for (int way = 0; way < 3; way++) {
        fx_base(&f);
        if (way == 2)
            f.count = f.nentries = 0; /* an empty table's offset is pinned too */
        free(fx_emit(&f));
        f.table_digest_set = 1;
        if (way == 0)
            f.floor = 2048;
        else
            f.table_offset = 1024;
        expect_open(way == 0 ? "lowered floor" : "moved table", &f, BLVL_E_TABLE_DIGEST);
        expect_stream(&f, BLVL_E_TABLE_DIGEST);
        f.table_digest_set = 0; /* resealed, the same change is a valid level */
        expect_open("resealed", &f, BLVL_OK);
        expect_stream(&f, BLVL_OK);
    }

    fx_base(&f);
    free(fx_emit(&f));
    f.identity_set = 1;
    f.identity[0] ^= 0x80;
    expect_open("identity", &f, BLVL_E_IDENTITY);

    /* The table digest covers the live table only: slack bytes after it are free. */
    fx_base(&f);
    f.nentries = 2;
    f.count = 1;
    f.size = 4096 + 64; /* x.blob is now slack, and so are its bytes */
    expect_open("stale entry in the slack", &f, BLVL_OK);
}

/* ---- payload rules ---------------------------------------------------------------------- */

static uint8_t pay[1 << 16];

/* Sets x.blob's payload to `n` bytes of `pay` with raw size `raw`. */
static void set_blob(fx_file *f, size_t n, uint64_t raw) {
    f->e[1].packed = n;
    f->e[1].raw = raw;
    f->payload[1] = pay;
    f->size = f->e[1].offset + n;
}

static size_t put_index(uint8_t *p, uint32_t psz, uint32_t rsz, uint8_t codec) {
    fx_le32(p, psz);
    fx_le32(p + 4, rsz);
    p[8] = codec;
    p[9] = p[10] = p[11] = 0;
    return 12;
}

static size_t zstd_frame(uint8_t *out, size_t cap, const void *src, size_t n, int checksum) {
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 19);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, checksum);
    size_t r = ZSTD_compress2(c, out, cap, src, n);
    ZSTD_freeCCtx(c);
    return ZSTD_isError(r) ? 0 : r;
}

static void payload_rules(void) {
    fx_file f;
    uint8_t text[4000];
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = (uint8_t) "the quick brown fox "[i % 20];

    fx_base(&f);
    f.e[1].digest_set = 1;
    memset(f.e[1].digest, 0xAB, 16);
    expect_read("section digest", &f, "x.blob", BLVL_E_SECTION_DIGEST, 0);

    /* A packed size under 4 (a payload ends in its chunk count) is an entry rule, refused at
     * open, after the entry's earlier rules and before the placement rules. */
    fx_base(&f);
    set_blob(&f, 3, 0);
    memset(pay, 0, 3);
    expect_open("payload shorter than a count", &f, BLVL_E_ENTRY_EMPTY);
    set_blob(&f, 0, 0);
    expect_open("zero-length payload", &f, BLVL_E_ENTRY_EMPTY);
    f.e[1].offset = 4097; /* alignment is checked first within the entry */
    expect_open("zero-length and misaligned", &f, BLVL_E_ENTRY_ALIGN);
    /* Whichever tag sorts first, a zero-length entry at another section's offset is refused
     * as empty (placement would sort it before or after the other and find an overlap or
     * none). */
    static const char *const side[] = {"x.a", "x.z"};
    for (int i = 0; i < 2; i++) {
        fx_base(&f);
        f.count = f.nentries = 3;
        fx_tag(&f.e[2], side[i]);
        f.e[2].offset = f.e[1].offset;
        f.e[2].packed = 0;
        expect_open(side[i], &f, BLVL_E_ENTRY_EMPTY);
        f.e[2].offset = f.e[0].offset + 4096; /* past the end as well: still empty first */
        expect_open(side[i], &f, BLVL_E_ENTRY_EMPTY);
    }

    fx_base(&f);
    fx_le32(pay, 0);
    set_blob(&f, 4, 0);
    expect_read("empty section", &f, "x.blob", BLVL_OK, 0);

    fx_base(&f);
    memset(pay, 0, 8);
    fx_le32(pay + 4, 0);
    set_blob(&f, 8, 0);
    /* §7 rule 4 (an empty section is exactly its count) can no longer be broken by a table
     * that opens: the packed-size bound of raw size 0 is 4. */
    expect_open("empty section with stray bytes", &f, BLVL_E_PACKED_SIZE);

    fx_base(&f);
    fx_le32(pay, 5); /* 5 chunks claimed in a 4-byte payload */
    set_blob(&f, 4, 0);
    expect_read("count does not fit", &f, "x.blob", BLVL_E_CHUNK_INDEX, 0);

    fx_base(&f);
    {
        size_t n = fx_raw_payload(pay, text, 100);
        set_blob(&f, n, 101);
        expect_read("raw sizes do not sum to the entry", &f, "x.blob", BLVL_E_CHUNK_INDEX, 0);
    }

    fx_base(&f);
    {
        size_t n = fx_raw_payload(pay, text, 100);
        fx_le32(pay + 100, 99); /* packed 99 for a raw chunk of 100 */
        set_blob(&f, n, 100);
        expect_read("raw chunk packed != raw", &f, "x.blob", BLVL_E_CHUNK_INDEX, 0);
    }

    fx_base(&f);
    {
        /* two chunks of 50: the writer's 4 MiB cut would give one (zstd, so that the two
         * index entries stay within the packed-size bound of 100 raw bytes) */
        size_t z0 = zstd_frame(pay, sizeof pay, text, 50, 0);
        size_t z1 = zstd_frame(pay + z0, sizeof pay - z0, text + 50, 50, 0);
        size_t n = z0 + z1;
        CHECK(n + 28 <= 116);
        n += put_index(pay + n, (uint32_t)z0, 50, 1);
        n += put_index(pay + n, (uint32_t)z1, 50, 1);
        fx_le32(pay + n, 2);
        set_blob(&f, n + 4, 100);
        expect_read("chunks not cut at 4 MiB", &f, "x.blob", BLVL_E_CHUNK_INDEX, 0);
    }

    fx_base(&f);
    {
        /* a stray byte before the chunk (zstd: a raw chunk and a stray byte would break the
         * packed-size bound) */
        pay[0] = 0;
        size_t z = zstd_frame(pay + 1, sizeof pay - 1, text, 100, 0);
        size_t n = 1 + z + put_index(pay + 1 + z, (uint32_t)z, 100, 1);
        fx_le32(pay + n, 1);
        n += 4;
        set_blob(&f, n, 100);
        expect_read("chunks do not tile the payload", &f, "x.blob", BLVL_E_CHUNK_INDEX, 0);
    }

    fx_base(&f);
    {
        size_t n = 0;
        n += put_index(pay + n, 4, (4u << 20) + 1, 1);
        n += put_index(pay + n, 4, 1, 1);
        fx_le32(pay + n, 2);
        set_blob(&f, n + 4, (4u << 20) + 2);
        expect_read("chunk over 4 MiB", &f, "x.blob", BLVL_E_CHUNK_SIZE, 0);
    }

    fx_base(&f);
    {
        size_t n = fx_raw_payload(pay, text, 100);
        pay[100 + 8] = 2;
        set_blob(&f, n, 100);
        expect_read("unknown codec", &f, "x.blob", BLVL_E_CODEC, 0);
        pay[100 + 8] = 0;
        pay[100 + 10] = 1;
        expect_read("reserved byte", &f, "x.blob", BLVL_E_CODEC, 0);
    }

    /* zstd */
    uint8_t frame[8192];
    size_t fl = zstd_frame(frame, sizeof frame, text, sizeof text, 0);
    CHECK(fl > 0 && fl < sizeof text);
    fx_base(&f);
    {
        memcpy(pay, frame, fl);
        size_t n = fl + put_index(pay + fl, (uint32_t)fl, sizeof text, 1);
        fx_le32(pay + n, 1);
        set_blob(&f, n + 4, sizeof text);
        expect_read("good zstd chunk", &f, "x.blob", BLVL_OK, 0);
        /* a caller's budget replaces the default in the open rule: raw sizes sum to
         * sizeof text + 5 (meta) */
        blvl_options b = {.inflate_budget = sizeof text + 4};
        expect_open_opt("budget", &f, BLVL_E_BUDGET, &b);
        expect_read("budget exactly", &f, "x.blob", BLVL_OK, sizeof text + 5);
    }
    fx_base(&f);
    {
        size_t cut = fl - 3; /* a truncated frame (the digest is recomputed, so it matches) */
        memcpy(pay, frame, cut);
        size_t n = cut + put_index(pay + cut, (uint32_t)cut, sizeof text, 1);
        fx_le32(pay + n, 1);
        set_blob(&f, n + 4, sizeof text);
        expect_read("truncated zstd frame", &f, "x.blob", BLVL_E_ZSTD, 0);
    }
    fx_base(&f);
    {
        memcpy(pay, text, 64); /* not a frame at all */
        size_t n = 64 + put_index(pay + 64, 64, 100, 1);
        fx_le32(pay + n, 1);
        set_blob(&f, n + 4, 100);
        expect_read("not a zstd frame", &f, "x.blob", BLVL_E_ZSTD, 0);
    }
    fx_base(&f);
    {
        size_t g = zstd_frame(pay, sizeof pay, text, 3000, 0); /* declares 3000, index 4000 */
        memcpy(pay + g, frame, 0);
        size_t n = g + put_index(pay + g, (uint32_t)g, sizeof text, 1);
        fx_le32(pay + n, 1);
        set_blob(&f, n + 4, sizeof text);
        expect_read("frame content size != index raw", &f, "x.blob", BLVL_E_ZSTD, 0);
    }
    fx_base(&f);
    {
        size_t a = zstd_frame(pay, sizeof pay, text, 2000, 0);
        size_t b = zstd_frame(pay + a, sizeof pay - a, text + 2000, 2000, 0);
        size_t n = a + b + put_index(pay + a + b, (uint32_t)(a + b), 2000, 1);
        fx_le32(pay + n, 1);
        set_blob(&f, n + 4, 2000);
        expect_read("two frames in one chunk", &f, "x.blob", BLVL_E_ZSTD, 0);
    }
    fx_base(&f);
    {
        size_t a = zstd_frame(pay, sizeof pay, text, sizeof text, 1);
        size_t n = a + put_index(pay + a, (uint32_t)a, sizeof text, 1);
        fx_le32(pay + n, 1);
        set_blob(&f, n + 4, sizeof text);
        expect_read("frame with a checksum", &f, "x.blob", BLVL_E_ZSTD, 0);
    }
    fx_base(&f);
    {
        memcpy(pay, frame, fl);
        pay[4] |= 0x08; /* the frame header descriptor's reserved bit */
        size_t n = fl + put_index(pay + fl, (uint32_t)fl, sizeof text, 1);
        fx_le32(pay + n, 1);
        set_blob(&f, n + 4, sizeof text);
        expect_read("frame with the reserved bit", &f, "x.blob", BLVL_E_ZSTD, 0);
    }
    fx_base(&f);
    {
        /* A zstd chunk not smaller than its raw size is legal (no writer makes one) while the
         * section keeps to its packed-size bound: 100 bytes that do not compress, stored as
         * a frame of more than 100 bytes, after a 4 MiB chunk of zeros whose small frame
         * makes room. Alone, the same frame breaks the bound and the table is refused. */
        uint8_t noise[100];
        uint32_t x = 2463534242u;
        for (size_t i = 0; i < sizeof noise; i++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            noise[i] = (uint8_t)(x >> 24);
        }
        size_t a = zstd_frame(pay, sizeof pay, noise, sizeof noise, 0);
        CHECK(a >= sizeof noise);
        size_t n = a + put_index(pay + a, (uint32_t)a, sizeof noise, 1);
        fx_le32(pay + n, 1);
        set_blob(&f, n + 4, sizeof noise);
        expect_open("zstd chunk larger than raw, alone", &f, BLVL_E_PACKED_SIZE);
        uint8_t *zeros = calloc(1, 4u << 20);
        CHECK(zeros != NULL);
        size_t z = zstd_frame(pay, sizeof pay, zeros, 4u << 20, 0);
        free(zeros);
        a = zstd_frame(pay + z, sizeof pay - z, noise, sizeof noise, 0);
        n = z + a;
        n += put_index(pay + n, (uint32_t)z, 4u << 20, 1);
        n += put_index(pay + n, (uint32_t)a, sizeof noise, 1);
        fx_le32(pay + n, 2);
        set_blob(&f, n + 4, (4u << 20) + sizeof noise);
        expect_read("zstd chunk larger than raw", &f, "x.blob", BLVL_OK, 0);
    }
}

/* Counts what the library allocates, to show a refusal comes before the output's buffer. */
typedef struct alloc_meter {
    size_t largest;
} alloc_meter;

static void *meter_alloc(void *user, size_t n) {
    alloc_meter *m = user;
    if (n > m->largest)
        m->largest = n;
    return malloc(n);
}

static void meter_free(void *user, void *p, size_t n) {
    (void)user;
    (void)n;
    free(p);
}

/* x.blob of `raw` zero bytes, one zstd frame per 4 MiB chunk, beside the baseline's meta
 * (5 raw bytes): a few KB that inflate to `raw`. */
static uint8_t *zero_level(fx_file *f, uint64_t raw, uint8_t **payload) {
    uint32_t nc = (uint32_t)((raw + (4u << 20) - 1) >> 22);
    uint8_t *zeros = calloc(1, 4u << 20);
    uint8_t *p = malloc((size_t)nc * 300 + 4);
    size_t n = 0;
    uint32_t psz[32], rsz[32];
    for (uint32_t i = 0; i < nc; i++) {
        rsz[i] = (uint32_t)(i + 1 < nc ? 4u << 20 : raw - ((uint64_t)i << 22));
        psz[i] = (uint32_t)zstd_frame(p + n, 300, zeros, rsz[i], 0);
        n += psz[i];
    }
    for (uint32_t i = 0; i < nc; i++)
        n += put_index(p + n, psz[i], rsz[i], 1);
    fx_le32(p + n, nc);
    fx_base(f);
    f->e[1].packed = n + 4;
    f->e[1].raw = raw;
    f->payload[1] = p;
    f->size = f->e[1].offset + n + 4;
    free(zeros);
    *payload = p;
    return fx_emit(f);
}

/* Inflation budget, default: max(64 MiB, 64 * covered), over the sum of the table's raw sizes.
 * A tiny file whose sections inflate to one byte over 64 MiB is refused at open, whichever way
 * it is opened, before the output of any read is allocated; at exactly 64 MiB it opens, and
 * every section reads any number of times on one handle. */
static void default_budget(void) {
    fx_file f;
    uint8_t *pay1;
    uint8_t *file = zero_level(&f, (64u << 20) - 4, &pay1); /* + meta's 5: one over */
    CHECK(f.size < 8192);
    alloc_meter m = {0};
    blvl_allocator al = {meter_alloc, meter_free, &m};
    blvl_options opt = {.allocator = al};
    blvl_level *lv = NULL;
    blvl_error e;
    CHECK_EQ_INT(blvl_open_memory(&lv, file, (size_t)f.size, &opt, &e), BLVL_E_BUDGET);
    CHECK(message_names(&e, BLVL_E_BUDGET));
    CHECK(strstr(e.message, "'x.blob'") != NULL); /* names the largest section ... */
    CHECK(strstr(e.message, "ratio") != NULL);    /* ... and its ratio */
    CHECK(m.largest < (64u << 10));
    expect_open("one byte over the default budget", &f, BLVL_E_BUDGET);
    free(file);
    free(pay1);

    file = zero_level(&f, (64u << 20) - 5, &pay1);
    CHECK_EQ_INT(blvl_open_memory(&lv, file, (size_t)f.size, NULL, &e), BLVL_OK);
    for (int round = 0; round < 3; round++) {
        for (uint32_t i = 0; i < blvl_count(lv); i++) {
            blvl_bytes sec;
            const blvl_entry *en = blvl_entry_at(lv, i);
            CHECK_EQ_INT(blvl_read(lv, en->tag, &sec, &e), BLVL_OK);
            CHECK_EQ_INT(sec.size, en->raw_size);
            blvl_bytes_free(&sec);
        }
        CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
    }
    blvl_close(lv);
    free(file);
    free(pay1);
}

/* A source of `size` bytes: the file's bytes, then zeros (a server that claims a larger
 * file than the level's bytes). */
typedef struct claim_src {
    const uint8_t *b;
    uint64_t n;
} claim_src;

static int claim_read(void *user, uint64_t off, void *buf, size_t len) {
    const claim_src *c = user;
    memset(buf, 0, len);
    if (off < c->n)
        memcpy(buf, c->b + off, off + len <= c->n ? len : (size_t)(c->n - off));
    return 0;
}

/* Packed size: at most raw + 12 x ceil(raw / 4 MiB) + 4 (every chunk stored raw, plus the
 * index and the count). Exactly that opens, one byte more is refused with packed-size at
 * open, from memory, a path, a callback and a stream alike, before anything is allocated by
 * the claim: a table claiming 16 GiB packed for 1,000 raw bytes from a source that says it
 * holds them is refused without a large allocation (it used to open, and a read asked for
 * 16 GiB at once). */
static void packed_size_rule(void) {
    fx_file f;
    fx_base(&f); /* x.blob: 100 raw bytes in one raw chunk, 116 packed: exactly the bound */
    CHECK_EQ_INT(f.e[1].packed, 100 + 12 + 4);
    expect_open("packed size at its bound", &f, BLVL_OK);
    expect_stream(&f, BLVL_OK);
    memcpy(pay, fx_blob_payload, 116);
    set_blob(&f, 117, 100);
    expect_open("packed size one over its bound", &f, BLVL_E_PACKED_SIZE);
    expect_stream(&f, BLVL_E_PACKED_SIZE);
    /* an empty section is exactly its count */
    fx_base(&f);
    memset(pay, 0, 8);
    set_blob(&f, 4, 0);
    expect_open("empty section of 4 bytes", &f, BLVL_OK);
    set_blob(&f, 5, 0);
    expect_open("empty section of 5 bytes", &f, BLVL_E_PACKED_SIZE);
    /* two chunks: raw 4 MiB + 1 may take raw + 2 x 12 + 4 */
    uint64_t raw = (4u << 20) + 1;
    uint8_t *big = calloc(1, (size_t)raw + 64);
    CHECK(big != NULL);
    fx_base(&f);
    f.e[1].raw = raw;
    f.e[1].packed = raw + 28;
    f.payload[1] = big;
    f.size = f.e[1].offset + raw + 28;
    expect_open("two chunks at the bound", &f, BLVL_OK);
    f.e[1].packed = raw + 29;
    f.size++;
    expect_open("two chunks one over the bound", &f, BLVL_E_PACKED_SIZE);
    free(big);
    /* Its own rule, checked with the entry rules: before entry-past-eof. */
    fx_base(&f);
    f.e[1].raw = 1000;
    f.e[1].packed = 16ull << 30;
    f.e[1].digest_set = 1;
    f.payload[1] = NULL;
    expect_open("16 GiB packed for 1000 raw, past the end", &f, BLVL_E_PACKED_SIZE);
    expect_stream(&f, BLVL_E_PACKED_SIZE);
    /* A source that says it holds all 16 GiB: still refused at open, and nothing large is
     * allocated. */
    uint8_t *b = fx_emit(&f);
    claim_src c = {b, f.size};
    alloc_meter m = {0};
    blvl_options opt = {.allocator = {meter_alloc, meter_free, &m}};
    blvl_source src = {.read = claim_read, .size = f.e[1].offset + f.e[1].packed, .user = &c};
    blvl_level *lv = NULL;
    blvl_error e;
    CHECK_EQ_INT(blvl_open_source(&lv, &src, &opt, &e), BLVL_E_PACKED_SIZE);
    CHECK(message_names(&e, BLVL_E_PACKED_SIZE));
    CHECK(strstr(e.message, "x.blob") != NULL);
    CHECK(m.largest < (64u << 10));
    CHECK(lv == NULL);
    free(b);
}

int main(void) {
    header_rules();
    packed_size_rule();
    table_rules();
    payload_rules();
    default_budget();
    return check_report("test_container_refuse");
}
