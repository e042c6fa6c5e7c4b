/* The streaming reader against the random-access reader, on levels from our writer and our
 * in-place editor: the same verdict on every file (also under random corruption), the same
 * bytes for every section, the same identity and table digest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/blvl.h"
#include "check.h"

typedef struct got {
    int n_table, n_end;
    uint8_t identity[16], table_digest[16];
    struct {
        char tag[17];
        int ok;
        int status;
        uint8_t *data;
        size_t size;
        uint64_t offset;
    } sec[64];
    int n;
} got;

static int collect(void *user, const blvl_stream_event *ev) {
    got *g = user;
    if (ev->kind == BLVL_EV_TABLE) {
        g->n_table++;
        memcpy(g->identity, ev->identity, 16);
        memcpy(g->table_digest, ev->table_digest, 16);
    } else if (ev->kind == BLVL_EV_END) {
        g->n_end++;
    } else if (g->n < 64) {
        memcpy(g->sec[g->n].tag, ev->entry->tag, 17);
        g->sec[g->n].ok = ev->kind == BLVL_EV_SECTION;
        g->sec[g->n].status = ev->status;
        g->sec[g->n].offset = ev->offset;
        if (ev->data) {
            g->sec[g->n].data = malloc(ev->size ? ev->size : 1);
            memcpy(g->sec[g->n].data, ev->data, ev->size);
            g->sec[g->n].size = ev->size;
        }
        g->n++;
    }
    return 0;
}

static void got_free(got *g) {
    for (int i = 0; i < g->n; i++)
        free(g->sec[i].data);
    memset(g, 0, sizeof *g);
}

static uint64_t rs = 88172645463325252ull;
static uint64_t rnd(void) {
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

/* Streams `b` with every tag of `tags` wanted, in random pieces. */
static blvl_status stream_all(const uint8_t *b, size_t n, const char *const *tags, int ntags,
                              got *g) {
    memset(g, 0, sizeof *g);
    blvl_stream *s;
    blvl_error err;
    blvl_status st = blvl_stream_new(&s, collect, g, NULL, &err);
    for (int i = 0; i < ntags && st == BLVL_OK; i++)
        st = blvl_stream_want(s, tags[i], &err);
    for (size_t at = 0; at < n && st == BLVL_OK;) {
        size_t k = 1 + (size_t)(rnd() % 9000);
        if (k > n - at)
            k = n - at;
        st = blvl_stream_feed(s, b + at, k, &err);
        at += k;
    }
    if (st == BLVL_OK)
        st = blvl_stream_finish(s, &err);
    blvl_stream_free(s);
    return st;
}

/* The verdicts of the two readers must agree, section by section. */
static void agree(const uint8_t *b, size_t n, const char *const *tags, int ntags) {
    got g;
    blvl_status sst = stream_all(b, n, tags, ntags, &g);
    blvl_level *lv = NULL;
    blvl_error err;
    blvl_status ost = blvl_open_memory(&lv, b, n, NULL, &err);
    CHECK_EQ_INT(sst == BLVL_OK, ost == BLVL_OK);
    if (sst == BLVL_OK && ost == BLVL_OK) {
        blvl_info in;
        blvl_get_info(lv, &in);
        CHECK_EQ_INT(g.n_table, 1);
        CHECK_EQ_INT(g.n_end, 1);
        CHECK_MEM(g.identity, in.identity, 16);
        CHECK_MEM(g.table_digest, in.table_digest, 16);
        CHECK_EQ_INT(g.n, in.count);
        uint64_t last = 0;
        for (int i = 0; i < g.n; i++) {
            const blvl_entry *e = blvl_find(lv, g.sec[i].tag);
            CHECK(e != NULL);
            if (!e)
                continue;
            CHECK_EQ_INT(g.sec[i].offset, e->offset + e->packed_size);
            CHECK(g.sec[i].offset >= last); /* file order */
            last = g.sec[i].offset;
            blvl_bytes sec;
            blvl_status rst = blvl_read(lv, e->tag, &sec, &err);
            if ((rst == BLVL_OK) != g.sec[i].ok)
                fprintf(stderr, "  %s: read %s, stream %s\n", e->tag, blvl_status_name(rst),
                        g.sec[i].ok ? "ok" : blvl_status_name(g.sec[i].status));
            CHECK_EQ_INT(g.sec[i].ok, rst == BLVL_OK);
            if (rst == BLVL_OK) {
                if (g.sec[i].data) {
                    CHECK_EQ_INT(g.sec[i].size, sec.size);
                    CHECK(sec.size == 0 || memcmp(g.sec[i].data, sec.data, sec.size) == 0);
                }
                blvl_bytes_free(&sec);
            } else {
                CHECK_EQ_INT(g.sec[i].status, rst);
            }
        }
    }
    blvl_close(lv);
    got_free(&g);
}

static uint8_t *fill(size_t n, int kind) {
    uint8_t *p = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        p[i] = kind ? (uint8_t)rnd() : (uint8_t)(i * 7 / 5 + (i >> 12));
    return p;
}

static void test_writer_levels(void) {
    size_t big = (4u << 20) + 1000; /* two chunks */
    uint8_t *a = fill(big, 0), *b = fill(70000, 1), *c = fill(3000, 0);
    blvl_section_in in[] = {
        {"meta", 0, 0, c, 100},       {"sim", 0, 0, c, 3000},
        {"geometry", 0, 0, a, big},   {"eds.noise", 2, BLVL_ENTRY_FLAG_IDENTITY, b, 70000},
        {"eds.thumb", 0, 0, b, 5000}, {"eds.empty", 0, 0, NULL, 0},
    };
    void *lvl;
    size_t size;
    blvl_error err;
    CHECK_EQ_INT(blvl_write_memory(&lvl, &size, in, 6, NULL, &err), BLVL_OK);
    const char *all[] = {"meta", "sim", "geometry", "eds.noise", "eds.thumb", "eds.empty"};
    agree(lvl, size, all, 6);
    agree(lvl, size, all, 0);
    got g;
    CHECK_EQ_INT(stream_all(lvl, size, all, 6, &g), BLVL_OK);
    for (int i = 0; i < g.n; i++)
        for (int k = 0; k < 6; k++)
            if (strcmp(g.sec[i].tag, in[k].tag) == 0) {
                CHECK_EQ_INT(g.sec[i].size, in[k].size);
                CHECK(in[k].size == 0 || memcmp(g.sec[i].data, in[k].data, in[k].size) == 0);
            }
    got_free(&g);

    /* random single-byte corruption, in the small sections' part of the file */
    size_t small_end = size;
    blvl_level *lv;
    CHECK_EQ_INT(blvl_open_memory(&lv, lvl, size, NULL, &err), BLVL_OK);
    const blvl_entry *geo = blvl_find(lv, "geometry");
    uint64_t geo_lo = geo ? geo->offset : 0, geo_hi = geo ? geo->offset + geo->packed_size : 0;
    blvl_close(lv);
    uint8_t *copy = malloc(size);
    for (int t = 0; t < 150; t++) {
        memcpy(copy, lvl, size);
        size_t at;
        do
            at = (size_t)(rnd() % small_end);
        while (at >= geo_lo && at < geo_hi && rnd() % 8); /* mostly outside the 4 MiB one */
        copy[at] ^= (uint8_t)(1 + rnd() % 255);
        agree(copy, size, all, (t % 2) ? 6 : 2);
    }
    free(copy);
    blvl_free(NULL, lvl);
    free(a);
    free(b);
    free(c);
}

/* After in-place edits the file carries unreferenced bytes and a moved table: the stream must
 * skip the one and find the other. */
static void test_edited_level(void) {
    char path[] = "/tmp/blvl-stream-edit-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    uint8_t *d = fill(20000, 1);
    blvl_section_in in[] = {{"meta", 0, 0, d, 10}, {"sim", 0, 0, d, 20}, {"x.a", 0, 0, d, 9000}};
    blvl_error err;
    CHECK_EQ_INT(blvl_write_file(path, in, 3, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_edit_put(path, "x.a", 1, d + 5, 12000, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_edit_put(path, "x.b", 0, d, 300, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_edit_drop(path, "x.b", NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_edit_put(path, "x.c", 0, d, 64, NULL, &err), BLVL_OK);
    FILE *f = fopen(path, "rb");
    uint8_t *b = malloc(1 << 20);
    size_t n = f ? fread(b, 1, 1 << 20, f) : 0;
    if (f)
        fclose(f);
    const char *all[] = {"meta", "sim", "x.a", "x.c"};
    agree(b, n, all, 4);
    got g;
    CHECK_EQ_INT(stream_all(b, n, all, 4, &g), BLVL_OK);
    CHECK_EQ_INT(g.n, 4);
    for (int i = 0; i < g.n; i++)
        if (strcmp(g.sec[i].tag, "x.a") == 0) {
            CHECK_EQ_INT(g.sec[i].size, 12000);
            CHECK(g.sec[i].data && memcmp(g.sec[i].data, d + 5, 12000) == 0);
        }
    got_free(&g);
    free(b);
    free(d);
    unlink(path);
}

int main(void) {
    test_writer_levels();
    test_edited_level();
    return check_report("test_stream_writer");
}
