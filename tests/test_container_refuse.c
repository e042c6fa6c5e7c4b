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

/* Opens the file three ways; every way must give `want`. */
static void expect_open(const char *what, fx_file *f, blvl_status want) {
    uint8_t *b = fx_emit(f);
    size_t size = (size_t)f->size;
    blvl_level *lv = NULL;
    blvl_error e;
    blvl_status st = blvl_open_memory(&lv, b, size, NULL, &e);
    if (st != want)
        fprintf(stderr, "%s: memory: got %s (%s), want %s\n", what, blvl_status_name(st), e.message,
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
    st = blvl_open_file(&lv, path, NULL, &e);
    CHECK_EQ_INT(st, want);
    blvl_close(lv);
    unlink(path);
    free(path);
    blvl_source src = {src_read, size, b};
    st = blvl_open_source(&lv, &src, NULL, &e);
    CHECK_EQ_INT(st, want);
    blvl_close(lv);
    free(b);
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
        blvl_source src = {src_read, f->size, b};
        blvl_status st = way == 0 ? blvl_open_memory(&lv, b, (size_t)f->size, &opt, &e)
                                  : blvl_open_source(&lv, &src, &opt, &e);
        CHECK_EQ_INT(st, BLVL_OK);
        if (st != BLVL_OK) {
            fprintf(stderr, "%s: open: %s\n", what, e.message);
            continue;
        }
        blvl_section s;
        st = blvl_read(lv, tag, &s, &e);
        if (st != want)
            fprintf(stderr, "%s: read: got %s (%s), want %s\n", what, blvl_status_name(st),
                    e.message, blvl_status_name(want));
        CHECK_EQ_INT(st, want);
        CHECK(st == BLVL_OK || message_names(&e, want));
        CHECK(st == BLVL_OK || strstr(e.message, tag) != NULL);
        blvl_section_free(lv, &s);
        blvl_close(lv);
        /* verify on a fresh level (the budget is per level) */
        st = way == 0 ? blvl_open_memory(&lv, b, (size_t)f->size, &opt, &e)
                      : blvl_open_source(&lv, &src, &opt, &e);
        CHECK_EQ_INT(st, BLVL_OK);
        st = blvl_verify(lv, &e);
        if (st != want)
            fprintf(stderr, "%s: verify: got %s (%s), want %s\n", what, blvl_status_name(st),
                    e.message, blvl_status_name(want));
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

    fx_base(&f);
    f.e[1].offset = 4096;
    f.e[0].offset = 4096 + 64;
    f.payload[0] = NULL; /* the bytes are x.blob's; open does not hash sections */
    fx_b3(fx_meta_payload, (size_t)f.e[0].packed, f.e[0].digest);
    f.e[0].digest_set = 1;
    f.e[0].offset = 4096 + 64;
    f.e[0].packed = 64; /* 4160..4224 lies inside x.blob's 4096..4212 */
    expect_open("entries overlap", &f, BLVL_E_ENTRY_OVERLAP);

    fx_base(&f);
    f.e[1].raw = (2ull << 30) + 1;
    expect_open("raw size over 2 GiB", &f, BLVL_E_RAW_SIZE);
    fx_base(&f);
    f.e[1].raw = 2ull << 30;
    expect_open("raw size of 2 GiB opens", &f, BLVL_OK);

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

    fx_base(&f);
    set_blob(&f, 3, 0);
    memset(pay, 0, 3);
    expect_read("payload shorter than a count", &f, "x.blob", BLVL_E_CHUNK_INDEX, 0);

    fx_base(&f);
    fx_le32(pay, 0);
    set_blob(&f, 4, 0);
    expect_read("empty section", &f, "x.blob", BLVL_OK, 0);

    fx_base(&f);
    memset(pay, 0, 8);
    fx_le32(pay + 4, 0);
    set_blob(&f, 8, 0);
    expect_read("empty section with stray bytes", &f, "x.blob", BLVL_E_CHUNK_INDEX, 0);

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
        /* two raw chunks of 50: the writer's 4 MiB cut would give one */
        size_t n = 0;
        memcpy(pay, text, 100);
        n = 100;
        n += put_index(pay + n, 50, 50, 0);
        n += put_index(pay + n, 50, 50, 0);
        fx_le32(pay + n, 2);
        set_blob(&f, n + 4, 100);
        expect_read("chunks not cut at 4 MiB", &f, "x.blob", BLVL_E_CHUNK_INDEX, 0);
    }

    fx_base(&f);
    {
        size_t n = fx_raw_payload(pay + 1, text, 100); /* a stray byte before the chunk */
        pay[0] = 0;
        set_blob(&f, n + 1, 100);
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
        expect_read("budget", &f, "x.blob", BLVL_E_BUDGET, sizeof text - 1);
        expect_read("budget exactly", &f, "x.blob", BLVL_OK, sizeof text);
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
}

/* Inflation budget, default: max(64 MiB, 64 * covered). A tiny file that inflates to just
 * over 64 MiB is refused; at exactly 64 MiB it is read. */
static void default_budget(void) {
    size_t raw = (64u << 20) + 4096;
    uint8_t *zeros = calloc(1, raw);
    blvl_section_in s = {"x.zeros", 0, 0, zeros, raw};
    uint8_t *file;
    size_t size;
    blvl_error e;
    /* The writer refuses to write it (issue 7 §4): the sum of raw sizes is over the budget. */
    CHECK_EQ_INT(blvl_write_memory(&s, 1, NULL, &file, &size, &e), BLVL_E_BUDGET);
    CHECK(file == NULL && size == 0);
    blvl_level *lv;
    blvl_section sec;
    s.size = 64u << 20;
    CHECK_EQ_INT(blvl_write_memory(&s, 1, NULL, &file, &size, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_open_memory(&lv, file, size, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_read(lv, "x.zeros", &sec, &e), BLVL_OK);
    CHECK_EQ_INT(sec.size, 64u << 20);
    blvl_section_free(lv, &sec);
    /* and the budget is summed: a second read of the same section passes it */
    CHECK_EQ_INT(blvl_read(lv, "x.zeros", &sec, &e), BLVL_E_BUDGET);
    blvl_close(lv);
    blvl_free(NULL, file, size);
    free(zeros);
}

int main(void) {
    header_rules();
    table_rules();
    payload_rules();
    default_budget();
    return check_report("test_container_refuse");
}
