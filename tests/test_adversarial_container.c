/* Adversarial container input: files built byte by byte (tests/container_fixture.h) and zstd
 * frames assembled by hand from RFC 8878, not by libzstd, each aimed at one way a hostile file
 * could make the reader allocate, inflate or trust more than it should. Allocations go through
 * a counting allocator, so "did not allocate gigabytes" is checked, not assumed. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "container_fixture.h"
#include "blvl/blvl.h"

/* ---- a counting allocator ------------------------------------------------------------------ */

typedef struct counter {
    size_t now, peak, largest;
} counter;

static void *c_alloc(void *user, size_t size) {
    counter *c = user;
    c->now += size;
    if (c->now > c->peak)
        c->peak = c->now;
    if (size > c->largest)
        c->largest = size;
    return malloc(size);
}
static void c_free(void *user, void *p, size_t size) {
    counter *c = user;
    c->now -= size;
    free(p);
}

/* ---- zstd frames by hand (RFC 8878 §3.1.1) --------------------------------------------------- */

#define RLE_BLOCK_MAX (128u << 10)

/* One frame of `raw` copies of `byte`: RLE blocks of at most 128 KiB. The frame header is
 * given: `fhd` (descriptor), then `wd` when fhd lacks the single-segment bit, then the content
 * size in the width fhd's top two bits select (for fcs flag 1 the value stored is raw - 256). */
static size_t rle_frame(uint8_t *out, uint8_t fhd, uint8_t wd, uint32_t raw, uint8_t byte) {
    size_t n = 0;
    fx_le32(out, 0xFD2FB528u);
    n = 4;
    out[n++] = fhd;
    if (!(fhd & 0x20))
        out[n++] = wd;
    switch (fhd >> 6) {
    case 0:
        if (fhd & 0x20)
            out[n++] = (uint8_t)raw;
        break;
    case 1:
        out[n++] = (uint8_t)(raw - 256);
        out[n++] = (uint8_t)((raw - 256) >> 8);
        break;
    case 2:
        fx_le32(out + n, raw);
        n += 4;
        break;
    default:
        fx_le64(out + n, raw);
        n += 8;
    }
    uint32_t left = raw;
    do {
        uint32_t k = left < RLE_BLOCK_MAX ? left : RLE_BLOCK_MAX;
        uint32_t last = k == left;
        uint32_t h = last | (1u << 1) | (k << 3); /* RLE block */
        out[n++] = (uint8_t)h;
        out[n++] = (uint8_t)(h >> 8);
        out[n++] = (uint8_t)(h >> 16);
        out[n++] = byte;
        left -= k;
    } while (left);
    return n;
}

/* A payload of `nc` chunks: each a zstd chunk of `frame_len[i]` bytes from frames[i] with
 * raw_len[i] raw bytes. Returns the payload length. */
static size_t zstd_payload(uint8_t *out, const uint8_t *const *frames, const size_t *frame_len,
                           const uint32_t *raw_len, uint32_t nc) {
    size_t n = 0;
    for (uint32_t i = 0; i < nc; i++) {
        memcpy(out + n, frames[i], frame_len[i]);
        n += frame_len[i];
    }
    for (uint32_t i = 0; i < nc; i++) {
        fx_le32(out + n, (uint32_t)frame_len[i]);
        fx_le32(out + n + 4, raw_len[i]);
        out[n + 8] = 1;
        out[n + 9] = out[n + 10] = out[n + 11] = 0;
        n += 12;
    }
    fx_le32(out + n, nc);
    return n + 4;
}

/* The baseline file with x.blob's payload replaced by `payload` (raw size `raw`). */
static uint8_t *with_blob(fx_file *f, const uint8_t *payload, size_t packed, uint64_t raw) {
    fx_base(f);
    f->e[1].packed = packed;
    f->e[1].raw = raw;
    f->payload[1] = payload;
    f->size = f->e[1].offset + packed;
    return fx_emit(f);
}

/* blvl_read of x.blob from a file whose x.blob is `payload`; the status, and the bytes when
 * `out` is given (the caller frees). */
static blvl_status read_blob(const uint8_t *payload, size_t packed, uint64_t raw, uint8_t **out,
                             counter *cnt, char *msg) {
    fx_file f;
    uint8_t *file = with_blob(&f, payload, packed, raw);
    blvl_allocator al = {c_alloc, c_free, cnt};
    blvl_options opt = {.allocator = al, .threads = 2};
    blvl_level *lv = NULL;
    blvl_error err;
    blvl_status st = blvl_open_memory(&lv, file, (size_t)f.size, &opt, &err);
    if (st == BLVL_OK) {
        blvl_bytes s;
        st = blvl_read(lv, "x.blob", &s, &err);
        if (st == BLVL_OK && out) {
            *out = malloc(s.size ? s.size : 1);
            memcpy(*out, s.data, s.size);
        }
        if (st == BLVL_OK)
            blvl_bytes_free(&s);
        /* blvl_verify must agree with blvl_read on every frame */
        blvl_error verr;
        blvl_status vst = blvl_verify(lv, &verr);
        if ((vst == BLVL_OK) != (st == BLVL_OK))
            fprintf(stderr, "read and verify disagree: %s / %s\n", err.message, verr.message);
        CHECK((vst == BLVL_OK) == (st == BLVL_OK));
        blvl_close(lv);
    }
    if (msg)
        snprintf(msg, 256, "%s", st ? err.message : "");
    free(file);
    return st;
}

/* ---- the chunk index ------------------------------------------------------------------------ */

/* Correctly handled: a chunk count of 2^32 - 1 at the end of a 20-byte payload is refused before
 * anything is allocated for it; a 2 GiB raw size (512 chunks) from a file this small is refused
 * at open by the inflation budget, before anything is allocated either. */
static void chunk_count_hostile(void) {
    uint8_t p[20] = {0};
    fx_le32(p + 16, 0xFFFFFFFFu);
    counter c = {0};
    char msg[256];
    CHECK_EQ_INT(read_blob(p, 20, 5, NULL, &c, msg), BLVL_E_CHUNK_INDEX);
    CHECK(c.largest < (1u << 20));
    fx_le32(p + 16, 512);
    memset(&c, 0, sizeof c);
    CHECK_EQ_INT(read_blob(p, 20, 2ull << 30, NULL, &c, msg), BLVL_E_BUDGET);
    CHECK(c.largest < (1u << 20));
    /* a count that fits the bytes but contradicts the raw size */
    fx_le32(p + 16, 1);
    CHECK_EQ_INT(read_blob(p, 20, 5, NULL, &c, msg), BLVL_E_CHUNK_INDEX);
    /* a chunk index whose first entry claims 4 MiB + 1 raw bytes: refused by its size first */
    uint8_t q[36] = {0};
    fx_le32(q + 8, 4);
    fx_le32(q + 12, (4u << 20) + 1);
    fx_le32(q + 20, 4);
    fx_le32(q + 32, 2);
    CHECK_EQ_INT(read_blob(q, 36, (4u << 20) + 1, NULL, &c, msg), BLVL_E_CHUNK_SIZE);
}

/* ---- zstd frames ---------------------------------------------------------------------------- */

static blvl_status one_frame(const uint8_t *frame, size_t len, uint32_t raw, char *msg) {
    uint8_t payload[256];
    const uint8_t *fr[1] = {frame};
    size_t fl[1] = {len};
    uint32_t rl[1] = {raw};
    size_t n = zstd_payload(payload, fr, fl, rl, 1);
    counter c = {0};
    uint8_t *out = NULL;
    blvl_status st = read_blob(payload, n, raw, &out, &c, msg);
    if (st == BLVL_OK) {
        int same = 1;
        for (uint32_t i = 0; i < raw; i++)
            same &= out[i] == 'A';
        CHECK(same);
    }
    free(out);
    return st;
}

static void zstd_frames(void) {
    uint8_t fr[128], two[256];
    char msg[256];
    /* a well-formed single-segment frame, built by hand, decodes */
    size_t n = rle_frame(fr, 0x20, 0, 200, 'A');
    CHECK_EQ_INT(one_frame(fr, n, 200, msg), BLVL_OK);
    /* a window descriptor of exactly 4 MiB (exponent 12, mantissa 0) is within the rule */
    n = rle_frame(fr, 0x40, 12 << 3, 300, 'A');
    CHECK_EQ_INT(one_frame(fr, n, 300, msg), BLVL_OK);

    /* Finding: a frame for 300 bytes may declare a 2 GiB window (exponent 21). libzstd's
     * one-shot decoder never allocates the window, but a streaming decoder (any second reader
     * the spec invites) sizes its buffer from it; the chunk rule now caps the window at 4 MiB. */
    n = rle_frame(fr, 0x40, 21 << 3, 300, 'A');
    CHECK_EQ_INT(one_frame(fr, n, 300, msg), BLVL_E_ZSTD);
    CHECK(strstr(msg, "window") != NULL);
    n = rle_frame(fr, 0x40, (12 << 3) | 1, 300, 'A'); /* 4 MiB + 512 KiB */
    CHECK_EQ_INT(one_frame(fr, n, 300, msg), BLVL_E_ZSTD);
    n = rle_frame(fr, 0x40, 31u << 3 | 7, 300, 'A'); /* exponent 31: past zstd's own limit */
    CHECK_EQ_INT(one_frame(fr, n, 300, msg), BLVL_E_ZSTD);

    /* correctly handled: a skippable frame first, or after the frame; two frames; no content
     * size; a checksum; a dictionary id; a reserved bit; a content size that disagrees with
     * the index, or with what the blocks decode to; a truncated block */
    size_t k = rle_frame(fr, 0x20, 0, 200, 'A');
    fx_le32(two, 0x184D2A50u); /* skippable frame, 4 bytes of content */
    fx_le32(two + 4, 4);
    memset(two + 8, 0, 4);
    memcpy(two + 12, fr, k);
    CHECK_EQ_INT(one_frame(two, 12 + k, 200, msg), BLVL_E_ZSTD);
    memcpy(two, fr, k);
    fx_le32(two + k, 0x184D2A50u);
    fx_le32(two + k + 4, 4);
    memset(two + k + 8, 0, 4);
    CHECK_EQ_INT(one_frame(two, k + 12, 200, msg), BLVL_E_ZSTD);
    memcpy(two, fr, k);
    memcpy(two + k, fr, k); /* two frames of 200 each in a chunk of 200 */
    CHECK_EQ_INT(one_frame(two, 2 * k, 200, msg), BLVL_E_ZSTD);
    n = rle_frame(fr, 0x00, 10 << 3, 200, 'A'); /* fcs flag 0, no single segment: no size */
    CHECK_EQ_INT(one_frame(fr, n, 200, msg), BLVL_E_ZSTD);
    n = rle_frame(fr, 0x24, 0, 200, 'A'); /* checksum flag (and no checksum) */
    CHECK_EQ_INT(one_frame(fr, n, 200, msg), BLVL_E_ZSTD);
    n = rle_frame(fr, 0x28, 0, 200, 'A'); /* reserved bit 3 */
    CHECK_EQ_INT(one_frame(fr, n, 200, msg), BLVL_E_ZSTD);
    n = rle_frame(fr, 0x20, 0, 200, 'A');
    memmove(fr + 6, fr + 5, n - 5); /* dictionary id flag 1: one byte of id after fhd */
    fr[4] = 0x21;
    fr[5] = 7;
    CHECK_EQ_INT(one_frame(fr, n + 1, 200, msg), BLVL_E_ZSTD);
    n = rle_frame(fr, 0x20, 0, 201, 'A'); /* declares 201, index says 200 */
    CHECK_EQ_INT(one_frame(fr, n, 200, msg), BLVL_E_ZSTD);
    n = rle_frame(fr, 0x20, 0, 200, 'A');
    fr[5] = 250; /* declares 250 but the block holds 200 */
    CHECK_EQ_INT(one_frame(fr, n, 200, msg), BLVL_E_ZSTD);
    n = rle_frame(fr, 0x20, 0, 200, 'A');
    CHECK_EQ_INT(one_frame(fr, n - 1, 200, msg), BLVL_E_ZSTD); /* the block's byte cut off */
    n = rle_frame(fr, 0x20, 0, 200, 'A');
    fr[6] = (uint8_t)(fr[6] | 0x06); /* block type 3: reserved */
    CHECK_EQ_INT(one_frame(fr, n, 200, msg), BLVL_E_ZSTD);
}

/* ---- the inflation budget -------------------------------------------------------------------- */

/* The budget is a rule of the file, checked at open over the table's raw sizes; reads keep no
 * count, so a section can be read and verified any number of times on one handle. The raw
 * sizes here sum to 205 (x.blob 200, meta 5): a caller's budget of 205 opens, 204 does not. */
static void budget_repeated(void) {
    uint8_t fr[64], payload[128];
    size_t n = rle_frame(fr, 0x20, 0, 200, 'A');
    const uint8_t *frs[1] = {fr};
    size_t fl[1] = {n};
    uint32_t rl[1] = {200};
    size_t pn = zstd_payload(payload, frs, fl, rl, 1);
    fx_file f;
    uint8_t *file = with_blob(&f, payload, pn, 200);
    blvl_options opt = {.inflate_budget = 204, .threads = 1};
    blvl_level *lv;
    blvl_error err;
    CHECK_EQ_INT(blvl_open_memory(&lv, file, (size_t)f.size, &opt, &err), BLVL_E_BUDGET);
    CHECK(strstr(err.message, "'x.blob'") != NULL); /* names the largest section */
    opt.inflate_budget = 205;
    CHECK_EQ_INT(blvl_open_memory(&lv, file, (size_t)f.size, &opt, &err), BLVL_OK);
    blvl_bytes s;
    for (int round = 0; round < 3; round++) {
        for (uint32_t i = 0; i < blvl_count(lv); i++) {
            CHECK_EQ_INT(blvl_read(lv, blvl_entry_at(lv, i)->tag, &s, &err), BLVL_OK);
            CHECK_EQ_INT(s.size, blvl_entry_at(lv, i)->raw_size);
            blvl_bytes_free(&s);
        }
        CHECK_EQ_INT(blvl_verify(lv, &err), BLVL_OK);
    }
    blvl_close(lv);
    free(file);
}

/* 17 chunks of 4 MiB of one byte value, each a ~140-byte RLE frame: 68 MiB from 2.4 KB, past
 * the default budget's 64 MiB floor for a file this small. */
#define BIG_CHUNKS 17u
static size_t bomb_payload(uint8_t *out) {
    static uint8_t frames[BIG_CHUNKS][256];
    const uint8_t *fr[BIG_CHUNKS];
    size_t fl[BIG_CHUNKS];
    uint32_t rl[BIG_CHUNKS];
    for (uint32_t i = 0; i < BIG_CHUNKS; i++) {
        fl[i] = rle_frame(frames[i], 0xA0, 0, 4u << 20, 'A');
        fr[i] = frames[i];
        rl[i] = 4u << 20;
    }
    return zstd_payload(out, fr, fl, rl, BIG_CHUNKS);
}

typedef struct seen {
    int section, bad, end;
    blvl_status bad_status;
    size_t size;
} seen;

static int on_event(void *user, const blvl_stream_event *ev) {
    seen *s = user;
    if (ev->kind == BLVL_EV_SECTION && ev->data && strcmp(ev->entry->tag, "x.blob") == 0) {
        s->section++;
        s->size = ev->size;
    }
    if (ev->kind == BLVL_EV_SECTION_BAD) {
        s->bad++;
        s->bad_status = ev->status;
    }
    s->end += ev->kind == BLVL_EV_END;
    return 0;
}

static blvl_status stream_all(const uint8_t *file, size_t size, uint64_t budget, seen *s,
                              counter *cnt) {
    blvl_allocator al = {c_alloc, c_free, cnt};
    blvl_options opt = {.allocator = al, .threads = 2, .inflate_budget = budget};
    blvl_stream *st;
    blvl_error err;
    memset(s, 0, sizeof *s);
    if (blvl_stream_new(&st, on_event, s, &opt, &err) != BLVL_OK)
        return BLVL_E_NOMEM;
    blvl_stream_want(st, "x.blob", &err);
    blvl_status r = BLVL_OK;
    for (size_t off = 0; off < size && r == BLVL_OK; off += 1000)
        r = blvl_stream_feed(st, file + off, size - off < 1000 ? size - off : 1000, &err);
    if (r == BLVL_OK)
        r = blvl_stream_finish(st, &err);
    blvl_stream_free(st);
    return r;
}

/* Finding: the streaming reader sized its default budget from `covered` as the table claims it,
 * before any payload arrived. A table entry for a section that never comes (packed size 2^40)
 * made the budget 64 * 2^40, so a wanted section of 68 MiB from 2.4 KB (or 2047 such sections
 * of 2 GiB each) was inflated in full; the stream only failed at its end. The default budget of
 * a stream is now sized from what has arrived: max(64 MiB, 64 * min(covered, bytes received)). */
static void stream_budget_ghost(void) {
    static uint8_t payload[BIG_CHUNKS * 256];
    size_t pn = bomb_payload(payload);
    uint64_t raw = (uint64_t)BIG_CHUNKS << 22;
    fx_file f;
    counter c = {0};
    seen s;
    /* without the ghost: random access and the stream both refuse the table, on the budget */
    uint8_t *file = with_blob(&f, payload, pn, raw);
    size_t size = (size_t)f.size;
    blvl_level *lv;
    blvl_error err;
    CHECK_EQ_INT(blvl_open_memory(&lv, file, size, NULL, &err), BLVL_E_BUDGET);
    CHECK_EQ_INT(stream_all(file, size, 0, &s, &c), BLVL_E_BUDGET);
    CHECK_EQ_INT(s.bad, 0);
    CHECK_EQ_INT(s.section, 0);
    /* with an explicit budget the caller chose, the section is inflated */
    CHECK_EQ_INT(stream_all(file, size, 100u << 20, &s, &c), BLVL_OK);
    CHECK_EQ_INT(s.section, 1);
    CHECK_EQ_INT(s.size, raw);
    free(file);

    /* the ghost: a third entry, 2 GiB past the end, that never arrives (2 GiB raw, so that its
     * packed size keeps to the packed-size rule) */
    fx_base(&f);
    f.e[1].packed = pn;
    f.e[1].raw = raw;
    f.payload[1] = payload;
    f.size = f.e[1].offset + pn;
    f.count = f.nentries = 3;
    fx_tag(&f.e[2], "x.ghost");
    f.e[2].offset = (f.size + 63) / 64 * 64;
    f.e[2].packed = 1ull << 31;
    f.e[2].raw = 1ull << 31;
    f.e[2].digest_set = 1;
    file = fx_emit(&f);
    CHECK_EQ_INT(blvl_open_memory(&lv, file, size, NULL, &err), BLVL_E_ENTRY_PAST_EOF);
    memset(&c, 0, sizeof c);
    CHECK_EQ_INT(stream_all(file, size, 0, &s, &c), BLVL_E_ENTRY_PAST_EOF);
    CHECK_EQ_INT(s.section, 0); /* not inflated */
    CHECK_EQ_INT(s.bad, 1);
    CHECK_EQ_INT(s.bad_status, BLVL_E_BUDGET);
    CHECK(c.peak < (16u << 20)); /* never held the 68 MiB */
    free(file);
}

/* Correctly handled: a stream holds the reserved region's table and the wanted section only,
 * however large the unwanted sections are or claim to be; a wanted section that claims 2 GiB
 * (the most the packed-size rule leaves a table to claim) is held as its bytes arrive, not as
 * its entry claims. */
static void stream_holds_little(void) {
    size_t big = 6u << 20;
    uint8_t *raw = malloc(big);
    for (size_t i = 0; i < big; i++)
        raw[i] = (uint8_t)(i * 2654435761u >> 13); /* does not compress: stored raw */
    blvl_section_in in[2] = {{"meta", 1, 0, "hi", 2}, {"x.huge", 1, 0, raw, big}};
    void *file;
    size_t size;
    blvl_error err;
    blvl_options wo = {.threads = 2};
    CHECK_EQ_INT(blvl_write_memory(&file, &size, in, 2, &wo, &err), BLVL_OK);
    counter c = {0};
    seen s;
    CHECK_EQ_INT(stream_all(file, size, 0, &s, &c), BLVL_OK); /* wants x.blob: absent */
    CHECK(c.peak < (256u << 10));
    blvl_free(NULL, file);
    free(raw);

    /* a wanted section whose entry claims 2 GiB; the stream carries 300 KB of it */
    static uint8_t junk[300000];
    fx_file f;
    fx_base(&f);
    f.e[1].packed = 1ull << 31;
    f.e[1].raw = 1ull << 31;
    f.e[1].digest_set = 1;
    f.payload[1] = NULL;
    f.size = f.e[1].offset;
    uint8_t *head = fx_emit(&f);
    uint8_t *whole = malloc((size_t)f.size + sizeof junk);
    memcpy(whole, head, (size_t)f.size);
    memcpy(whole + f.size, junk, sizeof junk);
    memset(&c, 0, sizeof c);
    CHECK_EQ_INT(stream_all(whole, (size_t)f.size + sizeof junk, 0, &s, &c), BLVL_E_ENTRY_PAST_EOF);
    CHECK(c.peak < (1u << 20));
    free(head);
    free(whole);
}

/* ---- edits of files that are not valid levels ---------------------------------------------- */

static int file_is(const char *path, const uint8_t *bytes, size_t n) {
    size_t m;
    uint8_t *b = fx_read_file(path, &m);
    int same = b && m == n && memcmp(b, bytes, n) == 0;
    free(b);
    return same;
}

/* Correctly handled: an edit reads and checks the whole level (header, table, digests,
 * identity, unreferenced bytes) before it writes a byte, so every damaged file is refused and
 * left exactly as it was. */
static void edit_invalid(void) {
    fx_file f;
    blvl_error err;
    /* garbage */
    uint8_t junk[5000];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)(i * 31);
    char *p = fx_temp_file(junk, sizeof junk);
    CHECK_EQ_INT(blvl_edit_put(p, "x.new", 1, "abc", 3, NULL, &err), BLVL_E_MAGIC);
    CHECK(file_is(p, junk, sizeof junk));
    CHECK_EQ_INT(blvl_edit_drop(p, "x.blob", NULL, &err), BLVL_E_MAGIC);
    CHECK(file_is(p, junk, sizeof junk));
    unlink(p);
    free(p);
    /* a table digest that does not match */
    fx_base(&f);
    f.table_digest_set = 1;
    memset(f.table_digest, 0x5A, 16);
    uint8_t *b = fx_emit(&f);
    p = fx_temp_file(b, (size_t)f.size);
    CHECK_EQ_INT(blvl_edit_put(p, "x.new", 1, "abc", 3, NULL, &err), BLVL_E_TABLE_DIGEST);
    CHECK(file_is(p, b, (size_t)f.size));
    unlink(p);
    free(p);
    free(b);
    /* a file that ends inside the reserved region */
    fx_base(&f);
    b = fx_emit(&f);
    p = fx_temp_file(b, 2000);
    CHECK_EQ_INT(blvl_edit_put(p, "x.new", 1, "abc", 3, NULL, &err), BLVL_E_TRUNCATED);
    CHECK(file_is(p, b, 2000));
    unlink(p);
    free(p);
    free(b);
    /* a count past the capacity of the region */
    fx_base(&f);
    f.count = 64; /* capacity (4096 - 64) / 64 = 63 */
    b = fx_emit(&f);
    p = fx_temp_file(b, (size_t)f.size);
    CHECK_EQ_INT(blvl_edit_drop(p, "x.blob", NULL, &err), BLVL_E_COUNT);
    CHECK(file_is(p, b, (size_t)f.size));
    unlink(p);
    free(p);
    free(b);
    /* more unreferenced bytes than allowed */
    fx_base(&f);
    f.size += (1u << 20) + 4096;
    b = fx_emit(&f);
    p = fx_temp_file(b, (size_t)f.size);
    CHECK_EQ_INT(blvl_edit_drop(p, "x.blob", NULL, &err), BLVL_E_UNREFERENCED);
    CHECK(file_is(p, b, (size_t)f.size));
    unlink(p);
    free(p);
    free(b);
    /* a directory is not a level */
    char dir[] = "/tmp/blvl-adv-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK(blvl_edit_drop(dir, "x.blob", NULL, &err) != BLVL_OK);
    rmdir(dir);
}

/* ---- the temporary file and the rename -------------------------------------------------- */

/* Finding: the writer copied every mode bit of the file it replaces, setuid, setgid and sticky
 * included, onto the new file, which it owns: a setuid bit on a level baked over by another
 * user (root, a build service) would become a setuid file of that user. Only the permission
 * bits (0777) are kept now. A symbolic link at the target is followed (issue 28: the link
 * stays, the file it names is replaced); a directory is refused; no temporary file is left
 * behind by a failure. */
static void temp_and_rename(void) {
    char dir[] = "/tmp/blvl-adv-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], other[256], link[256];
    snprintf(path, sizeof path, "%s/level.blvl", dir);
    snprintf(other, sizeof other, "%s/other.blvl", dir);
    snprintf(link, sizeof link, "%s/link.blvl", dir);
    blvl_section_in in[1] = {{"meta", 1, 0, "hi", 2}};
    blvl_error err;
    int fd = open(path, O_CREAT | O_WRONLY, 0600);
    CHECK(fd >= 0);
    close(fd);
    CHECK(chmod(path, 06751) == 0);
    CHECK_EQ_INT(blvl_write_file(path, in, 1, NULL, &err), BLVL_OK);
    struct stat sb;
    CHECK(stat(path, &sb) == 0);
    CHECK_EQ_INT(sb.st_mode & 07777, 0751);
    /* rewrite keeps the permission bits too, and drops the rest */
    CHECK(chmod(path, 04640) == 0);
    CHECK_EQ_INT(blvl_rewrite_file(path, path, NULL, NULL, NULL, &err), BLVL_OK);
    CHECK(stat(path, &sb) == 0);
    CHECK_EQ_INT(sb.st_mode & 07777, 0640);

    /* a symlink at the target (the out-file rule, docs/API.md): the link stays a link and
     * the file it names is replaced, keeping its mode */
    fd = open(other, O_CREAT | O_WRONLY, 0644);
    CHECK(fd >= 0 && write(fd, "keep", 4) == 4);
    close(fd);
    CHECK(chmod(other, 0604) == 0);
    CHECK(symlink(other, link) == 0);
    CHECK_EQ_INT(blvl_write_file(link, in, 1, NULL, &err), BLVL_OK);
    CHECK(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
    CHECK(stat(other, &sb) == 0 && (sb.st_mode & 07777) == 0604);
    size_t got = 0;
    uint8_t *bytes = fx_read_file(other, &got);
    CHECK(bytes && got > 4 && memcmp(bytes, "BLVL", 4) == 0); /* the new level */
    free(bytes);

    /* a directory is refused before anything is written */
    char sub[300];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    CHECK(mkdir(sub, 0755) == 0);
    CHECK_EQ_INT(blvl_write_file(sub, in, 1, NULL, &err), BLVL_E_ARGUMENT);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 4", dir); /* 3 files + sub */
    CHECK(system(cmd) == 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* ---- header and table ----------------------------------------------------------------------- */

/* Correctly handled: offsets and sizes that overflow 64 bits, a count past the region, a table
 * that runs past the floor; each refused by its rule, without an allocation sized from them. */
static void table_arith(void) {
    fx_file f;
    blvl_error err;
    blvl_level *lv;
    counter c = {0};
    blvl_allocator al = {c_alloc, c_free, &c};
    blvl_options opt = {.allocator = al};
    fx_base(&f);
    f.e[1].packed = UINT64_MAX - f.e[1].offset + 1; /* offset + packed wraps to 0 */
    f.e[1].digest_set = 1;
    uint8_t *b = fx_emit(&f);
    /* the packed-size rule (an entry rule, before placement) refuses such a size first */
    CHECK_EQ_INT(blvl_open_memory(&lv, b, (size_t)f.size, &opt, &err), BLVL_E_PACKED_SIZE);
    free(b);
    fx_base(&f);
    f.e[1].offset = UINT64_MAX - 63; /* aligned, far past the end */
    b = fx_emit(&f);
    CHECK_EQ_INT(blvl_open_memory(&lv, b, (size_t)f.size, &opt, &err), BLVL_E_ENTRY_PAST_EOF);
    free(b);
    fx_base(&f);
    f.count = 0xFFFFFFFFu;
    b = fx_emit(&f);
    CHECK_EQ_INT(blvl_open_memory(&lv, b, (size_t)f.size, &opt, &err), BLVL_E_COUNT);
    free(b);
    fx_base(&f);
    f.table_offset = 4096 - 64; /* two entries from 4032 run past the floor */
    b = fx_emit(&f);
    CHECK_EQ_INT(blvl_open_memory(&lv, b, (size_t)f.size, &opt, &err), BLVL_E_TABLE_OFFSET);
    free(b);
    fx_base(&f);
    f.table_offset = 0xFFFFFFC0u; /* offset + 64 * count past 2^32 */
    b = fx_emit(&f);
    CHECK_EQ_INT(blvl_open_memory(&lv, b, (size_t)f.size, &opt, &err), BLVL_E_TABLE_OFFSET);
    free(b);
    CHECK(c.largest < (256u << 10));
}

int main(void) {
    chunk_count_hostile();
    zstd_frames();
    budget_repeated();
    stream_budget_ghost();
    stream_holds_little();
    edit_invalid();
    temp_and_rename();
    table_arith();
    return check_report("test_adversarial_container");
}
