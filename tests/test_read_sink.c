/* A large section is never held packed (docs/FORMAT.md §8, docs/HTTP.md "Large sections"):
 * blvl_read of a callback source walks it chunk by chunk, and blvl_read_sink hands it out chunk
 * by chunk after every check. Both give the bytes blvl_read of the level in memory gives, the
 * same refusal for the same damage (a digest failure before any chunk failure), memory under
 * what holding the packed section would take, and a sink that sees no byte of a bad section. */
#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"
#include "blvl/le.h"
#include "check.h"

#define MIB (1u << 20)

/* Live bytes and their peak. */
typedef struct meter {
    size_t live, peak;
} meter;

static void *m_alloc(void *user, size_t n) {
    meter *m = user;
    m->live += n;
    if (m->live > m->peak)
        m->peak = m->live;
    return malloc(n);
}

static void m_free(void *user, void *p, size_t n) {
    meter *m = user;
    if (p)
        m->live -= n;
    free(p);
}

typedef struct mem {
    const uint8_t *b;
    size_t n;
} mem;

static int mem_read(void *user, uint64_t off, void *buf, size_t len) {
    const mem *m = user;
    if (off > m->n || len > m->n - off)
        return -1;
    memcpy(buf, m->b + off, len);
    return 0;
}

typedef struct collect {
    uint8_t *buf;
    size_t cap, at;
    unsigned calls;
    int out_of_order;
} collect;

static int collect_write(void *user, uint64_t off, const void *data, size_t len) {
    collect *c = user;
    c->calls++;
    if (off != c->at || len > 4 * MIB || len > c->cap - c->at) {
        c->out_of_order = 1;
        return 1;
    }
    memcpy(c->buf + c->at, data, len);
    c->at += len;
    return 0;
}

/* Opens `file` from memory (way 0) or a callback (way 1). */
static blvl_level *open_way(int way, const uint8_t *file, size_t size, mem *m,
                            const blvl_options *opt) {
    blvl_level *lv = NULL;
    blvl_error e;
    m->b = file;
    m->n = size;
    blvl_source src = {.read = mem_read, .size = size, .user = m};
    blvl_status st = way == 0 ? blvl_open_memory(&lv, file, size, opt, &e)
                              : blvl_open_source(&lv, &src, opt, &e);
    CHECK_EQ_INT(st, BLVL_OK);
    return lv;
}

/* The entry's digest and the table digest resealed over the file's current bytes. */
static void reseal(uint8_t *file, const blvl_entry *e, uint32_t index) {
    uint8_t d[16];
    blvl_digest(file + e->offset, (size_t)e->packed_size, d);
    uint32_t count = blvl_le32(file + 40), toff = blvl_le32(file + 44);
    memcpy(file + toff + 64 * index + 48, d, 16);
    blvl_compute_table_digest(file + toff, count, blvl_le64(file + 16), toff, file + 24);
}

int main(void) {
    /* x.mix: 4 MiB of zeros (a small zstd frame), 12 MiB that do not compress (three raw
     * chunks), 1000 bytes of text (zstd): 16 MiB + 1000 raw, about 12 MiB packed. */
    size_t raw = 16 * MIB + 1000;
    uint8_t *want = calloc(1, raw);
    uint32_t x = 2463534242u;
    for (size_t i = 4 * MIB; i < 16 * MIB; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        want[i] = (uint8_t)x;
    }
    for (size_t i = 16 * MIB; i < raw; i++)
        want[i] = (uint8_t) "the quick brown fox "[i % 20];
    blvl_section_in in[2] = {{"meta", 0, 0, "hi", 2}, {"x.mix", 0, 0, want, raw}};
    void *file;
    size_t size;
    blvl_error e;
    CHECK_EQ_INT(blvl_write_memory(&file, &size, in, 2, NULL, &e), BLVL_OK);
    uint8_t *got = malloc(raw);
    for (int way = 0; way < 2; way++) {
        meter m = {0};
        blvl_options opt = {.allocator = {m_alloc, m_free, &m}, .threads = 1};
        mem src;
        blvl_level *lv = open_way(way, file, size, &src, &opt);
        const blvl_entry *en = blvl_find(lv, "x.mix");
        CHECK(en->packed_size > 12 * MIB);
        size_t base = m.live;
        m.peak = m.live;
        blvl_bytes b;
        CHECK_EQ_INT(blvl_read(lv, "x.mix", &b, &e), BLVL_OK);
        CHECK(b.size == raw && memcmp(b.data, want, raw) == 0);
        blvl_bytes_free(&b);
        if (way == 1) /* the raw bytes and one chunk, never the packed section besides */
            CHECK(m.peak - base < raw + 5 * MIB);
        m.peak = m.live;
        collect c = {got, raw, 0, 0, 0};
        blvl_sink sink = {collect_write, &c};
        CHECK_EQ_INT(blvl_read_sink(lv, "x.mix", &sink, &e), BLVL_OK);
        CHECK(c.at == raw && !c.out_of_order && memcmp(got, want, raw) == 0);
        CHECK_EQ_INT(c.calls, 5);
        CHECK(m.peak - base < 9 * MIB); /* a chunk packed, a chunk inflated, a decoder */
        /* a sink that refuses stops the read */
        collect small = {got, 1000, 0, 0, 0};
        sink.user = &small;
        CHECK_EQ_INT(blvl_read_sink(lv, "x.mix", &sink, &e), BLVL_E_IO);
        CHECK_EQ_INT(blvl_read_sink(lv, "nope", &sink, &e), BLVL_E_NOT_FOUND);
        CHECK_EQ_INT(blvl_verify(lv, &e), BLVL_OK);
        blvl_close(lv);
    }

    /* Damage, read the three ways: whole from memory (the reference), walked from a callback,
     * and to a sink (which must see nothing). */
    const uint32_t mix = 1;
    blvl_level *ref;
    CHECK_EQ_INT(blvl_open_memory(&ref, file, size, NULL, &e), BLVL_OK);
    blvl_entry en = *blvl_entry_at(ref, mix);
    blvl_close(ref);
    struct {
        const char *what;
        uint64_t at; /* payload byte flipped */
        int reseal;  /* digest resealed over the damage */
        blvl_status want;
    } cases[] = {
        {"a raw chunk's byte", 6 * MIB, 0, BLVL_E_SECTION_DIGEST},
        {"the zstd frame's magic", 0, 0, BLVL_E_SECTION_DIGEST},
        {"the zstd frame's magic, resealed", 0, 1, BLVL_E_ZSTD},
        {"the chunk count, resealed", en.packed_size - 4, 1, BLVL_E_CHUNK_INDEX},
        {"the chunk count", en.packed_size - 4, 0, BLVL_E_SECTION_DIGEST},
        {"an index codec byte, resealed", en.packed_size - 4 - 12 + 8, 1, BLVL_E_CODEC},
        {"the last frame's end, resealed", en.packed_size - 4 - 5 * 12 - 1, 1, BLVL_E_ZSTD},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t *bad = malloc(size);
        memcpy(bad, file, size);
        bad[en.offset + cases[i].at] ^= 0x40;
        if (cases[i].reseal)
            reseal(bad, &en, mix);
        for (int way = 0; way < 2; way++) {
            mem src;
            blvl_level *lv = open_way(way, bad, size, &src, NULL);
            blvl_bytes b;
            blvl_status st = blvl_read(lv, "x.mix", &b, &e);
            if (st != cases[i].want)
                fprintf(stderr, "%s, way %d: read gave %s\n", cases[i].what, way, e.message);
            CHECK_EQ_INT(st, cases[i].want);
            CHECK(strstr(e.message, "x.mix") != NULL);
            collect c = {got, raw, 0, 0, 0};
            blvl_sink sink = {collect_write, &c};
            st = blvl_read_sink(lv, "x.mix", &sink, &e);
            if (st != cases[i].want)
                fprintf(stderr, "%s, way %d: sink gave %s\n", cases[i].what, way, e.message);
            CHECK_EQ_INT(st, cases[i].want);
            CHECK_EQ_INT(c.calls, 0);
            CHECK_EQ_INT(blvl_verify(lv, &e), cases[i].want);
            blvl_close(lv);
        }
        free(bad);
    }
    blvl_free(NULL, file);
    free(got);
    free(want);
    return check_report("test_read_sink");
}
