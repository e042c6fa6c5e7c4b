/* Writer and reader together, checked against independent tools where the format allows:
 * section digests against `b3sum --length 16`, zstd chunks against the `zstd` program, the
 * table digest and identity against the hand-written layout of container_fixture.h. */
#include <pthread.h>
#include <stdatomic.h>

#include "blvl/blvl.h"
#include "check.h"
#include "container_fixture.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint8_t next_byte(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint8_t)rng;
}

typedef struct input {
    blvl_section_in s[8];
    uint8_t *buf[8];
    size_t n;
} input;

static void make_input(input *in) {
    memset(in, 0, sizeof *in);
    static const size_t sizes[] = {5, 0, (4u << 20) + 1, (9u << 20) + 77, 100000, 64};
    static const char *tags[] = {"meta", "sim", "x.noise", "geometry", "eds.blocks", "a.tiny"};
    for (size_t i = 0; i < 6; i++) {
        uint8_t *b = malloc(sizes[i] ? sizes[i] : 1);
        for (size_t k = 0; k < sizes[i]; k++)
            b[k] = i == 2 ? next_byte() : (uint8_t)("level data "[k % 11] + (k / 4096) % 7);
        in->buf[i] = b;
        in->s[i].tag = tags[i];
        in->s[i].version = (uint32_t)i;
        in->s[i].flags = i == 4 ? BLVL_ENTRY_FLAG_IDENTITY : 0; /* core tags get it anyway */
        in->s[i].data = b;
        in->s[i].size = sizes[i];
    }
    in->n = 6;
}

static void free_input(input *in) {
    for (size_t i = 0; i < in->n; i++)
        free(in->buf[i]);
}

static int run(const char *cmd, char *out, size_t cap) {
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    return pclose(p);
}

/* Independent checks of one section's stored bytes. */
static void check_with_tools(const uint8_t *file, const blvl_entry *e, const uint8_t *raw) {
    char *path = fx_temp_file(file + e->offset, (size_t)e->packed_size);
    char cmd[512], out[256];
    snprintf(cmd, sizeof cmd, "b3sum --length 16 --no-names %s", path);
    CHECK_EQ_INT(run(cmd, out, sizeof out), 0);
    char hex[33];
    blvl_hex(e->digest, hex);
    CHECK(strncmp(out, hex, 32) == 0);
    unlink(path);
    free(path);
    /* every zstd chunk through the zstd program */
    const uint8_t *p = file + e->offset;
    uint32_t n = fx_get32(p + e->packed_size - 4);
    const uint8_t *ix = p + e->packed_size - 4 - 12ull * n;
    uint64_t poff = 0, roff = 0;
    for (uint32_t i = 0; i < n; i++, ix += 12) {
        uint32_t psz = fx_get32(ix), rsz = fx_get32(ix + 4);
        CHECK(i + 1 == n || rsz == (4u << 20)); /* the 4 MiB cut */
        if (ix[8] == 1) {
            CHECK(psz < rsz);
            char *cp = fx_temp_file(p + poff, psz);
            char *rp = fx_temp_file("", 0);
            snprintf(cmd, sizeof cmd, "zstd -q -d -f -c %s > %s", cp, rp);
            CHECK_EQ_INT(system(cmd), 0);
            size_t got = 0;
            uint8_t *dec = fx_read_file(rp, &got);
            CHECK_EQ_INT(got, rsz);
            CHECK(dec && memcmp(dec, raw + roff, rsz) == 0);
            free(dec);
            unlink(cp);
            unlink(rp);
            free(cp);
            free(rp);
        } else {
            CHECK_EQ_INT(ix[8], 0);
            CHECK_EQ_INT(psz, rsz);
            CHECK(memcmp(p + poff, raw + roff, rsz) == 0);
        }
        poff += psz;
        roff += rsz;
    }
    CHECK_EQ_INT(roff, e->raw_size);
}

static void layout_and_tools(void) {
    input in;
    make_input(&in);
    void *file[3];
    size_t size[3];
    blvl_error e;
    static const unsigned threads[] = {1, 2, 4};
    for (int t = 0; t < 3; t++) {
        blvl_options wo = {0};
        wo.threads = threads[t];
        CHECK_EQ_INT(blvl_write_memory(&file[t], &size[t], in.s, in.n, &wo, &e), BLVL_OK);
    }
    /* deterministic whatever the thread count */
    CHECK(size[0] == size[1] && size[1] == size[2]);
    CHECK(memcmp(file[0], file[1], size[0]) == 0 && memcmp(file[0], file[2], size[0]) == 0);
    const uint8_t *f = file[0];
    /* header */
    CHECK(memcmp(f, "BLVL\r\n\x1a\n", 8) == 0);
    CHECK_EQ_INT(fx_get32(f + 8), 1);
    CHECK_EQ_INT(fx_get32(f + 12), 0);
    CHECK_EQ_INT(fx_get64(f + 16), 4096); /* 64 + 64 * (2*6+16) rounded up to 4 KiB */
    CHECK_EQ_INT(fx_get32(f + 40), 6);
    CHECK_EQ_INT(fx_get32(f + 44), 64);
    /* slack zero */
    for (size_t k = 64 + 6 * 64; k < 4096; k++)
        if (f[k] != 0) {
            CHECK(!"slack not zero");
            break;
        }
    /* table digest and identity, independently */
    fx_entry fe[8];
    uint64_t prev_end = 4096;
    for (int i = 0; i < 6; i++) {
        const uint8_t *b = f + 64 + 64 * i;
        memcpy(fe[i].tag, b, 16);
        fe[i].offset = fx_get64(b + 16);
        fe[i].packed = fx_get64(b + 24);
        fe[i].raw = fx_get64(b + 32);
        fe[i].version = fx_get32(b + 40);
        fe[i].flags = fx_get32(b + 44);
        memcpy(fe[i].digest, b + 48, 16);
        CHECK_EQ_INT(fe[i].offset % 64, 0);
        CHECK(fe[i].offset >= prev_end && fe[i].offset - prev_end < 64); /* in order, packed */
        for (uint64_t k = prev_end; k < fe[i].offset; k++)
            CHECK_EQ_INT(f[k], 0); /* padding zero */
        prev_end = fe[i].offset + fe[i].packed;
        CHECK_EQ_INT(fe[i].version, i);
    }
    CHECK_EQ_INT(prev_end, size[0]); /* nothing after the last payload */
    CHECK_EQ_INT(fe[0].flags, 1);    /* meta: core */
    CHECK_EQ_INT(fe[1].flags, 1);    /* sim: core */
    CHECK_EQ_INT(fe[2].flags, 0);
    CHECK_EQ_INT(fe[3].flags, 1);
    CHECK_EQ_INT(fe[4].flags, 1); /* eds.blocks opted in */
    CHECK_EQ_INT(fe[5].flags, 0);
    CHECK_EQ_INT(fe[1].packed, 4); /* the empty section is 00 00 00 00 */
    CHECK(memcmp(f + fe[1].offset, "\0\0\0\0", 4) == 0);
    uint8_t d[16];
    fx_identity(fe, 6, d);
    CHECK(memcmp(d, f + 48, 16) == 0);
    blake3_hasher h;
    blake3_hasher_init(&h);
    blake3_hasher_update(&h, f, 8);
    blake3_hasher_update(&h, "\1\0\0\0\6\0\0\0", 8);
    blake3_hasher_update(&h, f + 16, 8);               /* the floor */
    blake3_hasher_update(&h, "\x40\0\0\0\0\0\0\0", 8); /* table offset 64, 0 */
    blake3_hasher_update(&h, f + 64, 6 * 64);
    blake3_hasher_finalize(&h, d, 16);
    CHECK(memcmp(d, f + 24, 16) == 0);

    /* read back: memory, file, callback */
    blvl_level *lv;
    CHECK_EQ_INT(blvl_open_memory(&lv, f, size[0], NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
    blvl_info info;
    blvl_get_info(lv, &info);
    CHECK_EQ_INT(info.capacity, 63);
    CHECK_EQ_INT(info.file_size, size[0]);
    for (size_t i = 0; i < in.n; i++) {
        const blvl_entry *en = blvl_find(lv, in.s[i].tag);
        CHECK(en != NULL);
        if (!en)
            continue;
        blvl_bytes s;
        CHECK_EQ_INT(blvl_read(lv, in.s[i].tag, &s, &e), BLVL_OK);
        CHECK_EQ_INT(s.size, in.s[i].size);
        CHECK(s.size == 0 || memcmp(s.data, in.buf[i], s.size) == 0);
        blvl_bytes_free(&s);
        check_with_tools(f, en, in.buf[i]);
    }
    /* a single raw chunk comes back without a copy */
    blvl_bytes s;
    CHECK_EQ_INT(blvl_read(lv, "meta", &s, &e), BLVL_OK);
    CHECK(s.owned_ == NULL && s.data == f + blvl_find(lv, "meta")->offset);
    blvl_bytes_free(&s);
    blvl_close(lv);

    char *path = fx_temp_file("", 0);
    blvl_options wo = {0};
    wo.threads = 3;
    CHECK_EQ_INT(blvl_write_file(path, in.s, in.n, &wo, &e), BLVL_OK);
    size_t fsz = 0;
    uint8_t *fb = fx_read_file(path, &fsz);
    CHECK(fsz == size[0] && memcmp(fb, f, fsz) == 0);
    free(fb);
    CHECK_EQ_INT(blvl_open_file(&lv, path, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_read(lv, "meta", &s, &e), BLVL_OK);
    CHECK(s.owned_ == NULL && s.size == 5 && memcmp(s.data, "level", 5) == 0);
    blvl_bytes_free(&s);
    CHECK_EQ_INT(blvl_read(lv, "x.noise", &s, &e), BLVL_OK); /* two raw chunks: a copy */
    CHECK(s.owned_ != NULL && s.size == in.s[2].size && memcmp(s.data, in.buf[2], s.size) == 0);
    blvl_bytes_free(&s);
    CHECK_EQ_INT(blvl_read(lv, "nope", &s, &e), BLVL_E_NOT_FOUND);
    CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
    blvl_close(lv);
    unlink(path);
    free(path);
    for (int t = 0; t < 3; t++)
        blvl_free(NULL, file[t]);
    free_input(&in);
}

static void writer_refusals(void) {
    blvl_section_in s[3] = {{"meta", 0, 0, "a", 1}, {"Bad", 0, 0, "b", 1}, {"x.y", 0, 0, "c", 1}};
    void *out;
    size_t size;
    blvl_error e;
    CHECK_EQ_INT(blvl_write_memory(&out, &size, s, 3, NULL, &e), BLVL_E_WRITE_TAG);
    s[1].tag = "meta";
    CHECK_EQ_INT(blvl_write_memory(&out, &size, s, 3, NULL, &e), BLVL_E_WRITE_TAG);
    s[1].tag = "abcdefghijklmnopq"; /* 17 bytes */
    CHECK_EQ_INT(blvl_write_memory(&out, &size, s, 3, NULL, &e), BLVL_E_WRITE_TAG);
    s[1].tag = "";
    CHECK_EQ_INT(blvl_write_memory(&out, &size, s, 3, NULL, &e), BLVL_E_WRITE_TAG);
    s[1].tag = "abcdefghijklmnop"; /* 16 bytes: fine */
    s[1].flags = 4;
    CHECK_EQ_INT(blvl_write_memory(&out, &size, s, 3, NULL, &e), BLVL_E_ARGUMENT);
    s[1].flags = 0;
    CHECK_EQ_INT(blvl_write_memory(&out, &size, s, 3, NULL, &e), BLVL_OK);
    blvl_free(NULL, out);
    /* an empty level */
    CHECK_EQ_INT(blvl_write_memory(&out, &size, NULL, 0, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(size, 4096);
    blvl_level *lv;
    CHECK_EQ_INT(blvl_open_memory(&lv, out, size, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_count(lv), 0);
    blvl_close(lv);
    blvl_free(NULL, out);
    /* punctuation alone is a tag: "-" is a core tag (the writer gives it the identity flag),
     * "." a game tag (flags as given) */
    blvl_section_in punct[2] = {{"-", 0, 0, "x", 1}, {".", 0, 0, "y", 1}};
    CHECK_EQ_INT(blvl_write_memory(&out, &size, punct, 2, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_open_memory(&lv, out, size, NULL, &e), BLVL_OK);
    CHECK(blvl_find(lv, "-") && blvl_find(lv, "-")->flags == BLVL_ENTRY_FLAG_IDENTITY);
    CHECK(blvl_find(lv, ".") && blvl_find(lv, ".")->flags == 0);
    blvl_close(lv);
    blvl_free(NULL, out);
    /* the most sections a region holds: floor capped at 128 KiB */
    enum { MANY = 2047 };
    static blvl_section_in m[MANY + 1];
    static char tags[MANY + 1][16];
    for (int i = 0; i <= MANY; i++) {
        snprintf(tags[i], sizeof tags[i], "x.%d", i);
        m[i] = (blvl_section_in){tags[i], 0, 0, "", 0};
    }
    CHECK_EQ_INT(blvl_write_memory(&out, &size, m, MANY, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(fx_get64(out + 16), 131072);
    CHECK_EQ_INT(blvl_open_memory(&lv, out, size, NULL, &e), BLVL_OK);
    blvl_close(lv);
    blvl_free(NULL, out);
    CHECK_EQ_INT(blvl_write_memory(&out, &size, m, MANY + 1, NULL, &e), BLVL_E_ARGUMENT);
}

/* ---- threads -------------------------------------------------------------------------------- */

typedef struct reader_arg {
    blvl_level *lv;
    const uint8_t *want;
    size_t want_size;
    atomic_int ok, budget;
} reader_arg;

static void *reader(void *p) {
    reader_arg *r = p;
    blvl_bytes s;
    blvl_error e;
    blvl_status st = blvl_read(r->lv, "geometry", &s, &e);
    if (st == BLVL_OK && s.size == r->want_size && memcmp(s.data, r->want, s.size) == 0)
        atomic_fetch_add(&r->ok, 1);
    else if (st == BLVL_E_BUDGET)
        atomic_fetch_add(&r->budget, 1);
    blvl_bytes_free(&s);
    return NULL;
}

static void concurrent_reads(void) {
    input in;
    make_input(&in);
    void *file;
    size_t size;
    blvl_error e;
    CHECK_EQ_INT(blvl_write_memory(&file, &size, in.s, in.n, NULL, &e), BLVL_OK);
    blvl_options opt = {0};
    opt.threads = 2;
    blvl_level *lv; /* reads keep no budget count: every thread reads the section */
    CHECK_EQ_INT(blvl_open_memory(&lv, file, size, &opt, &e), BLVL_OK);
    reader_arg r = {lv, in.buf[3], in.s[3].size, 0, 0};
    pthread_t t[8];
    for (int i = 0; i < 8; i++)
        pthread_create(&t[i], NULL, reader, &r);
    for (int i = 0; i < 8; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ_INT(atomic_load(&r.ok), 8);
    CHECK_EQ_INT(atomic_load(&r.budget), 0);
    blvl_close(lv);
    /* threads = 1 reads the same bytes */
    opt.threads = 1;
    opt.inflate_budget = 0;
    CHECK_EQ_INT(blvl_open_memory(&lv, file, size, &opt, &e), BLVL_OK);
    blvl_bytes s;
    CHECK_EQ_INT(blvl_read(lv, "geometry", &s, &e), BLVL_OK);
    CHECK(s.size == in.s[3].size && memcmp(s.data, in.buf[3], s.size) == 0);
    blvl_bytes_free(&s);
    CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
    blvl_close(lv);
    blvl_free(NULL, file);
    free_input(&in);
}

/* ---- the caller's allocator ------------------------------------------------------------- */

typedef struct counting {
    atomic_long live;
    atomic_long bytes;
} counting;

static void *c_alloc(void *user, size_t n) {
    counting *c = user;
    atomic_fetch_add(&c->live, 1);
    atomic_fetch_add(&c->bytes, (long)n);
    return malloc(n);
}
static void c_free(void *user, void *p, size_t n) {
    counting *c = user;
    atomic_fetch_sub(&c->live, 1);
    atomic_fetch_sub(&c->bytes, (long)n);
    free(p);
}

static void allocator_hooks(void) {
    counting c = {0, 0};
    blvl_allocator a = {c_alloc, c_free, &c};
    input in;
    make_input(&in);
    blvl_options wo = {0};
    wo.allocator = a;
    void *file;
    size_t size;
    blvl_error e;
    CHECK_EQ_INT(blvl_write_memory(&file, &size, in.s, in.n, &wo, &e), BLVL_OK);
    CHECK_EQ_INT(atomic_load(&c.live), 1); /* the file itself */
    blvl_options opt = {0};
    opt.allocator = a;
    blvl_level *lv;
    CHECK_EQ_INT(blvl_open_memory(&lv, file, size, &opt, &e), BLVL_OK);
    blvl_bytes s;
    CHECK_EQ_INT(blvl_read(lv, "geometry", &s, &e), BLVL_OK);
    CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
    blvl_bytes_free(&s);
    blvl_close(lv);
    blvl_free(&wo, file);
    CHECK_EQ_INT(atomic_load(&c.live), 0);
    CHECK_EQ_INT(atomic_load(&c.bytes), 0); /* every free had the allocation's size */
    free_input(&in);
}

int main(void) {
    layout_and_tools();
    writer_refusals();
    concurrent_reads();
    allocator_hooks();
    return check_report("test_container_rw");
}
