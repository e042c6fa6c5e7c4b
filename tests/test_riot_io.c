/* The Riot SRSC reader and writer and the record parser (src/import/riot/):
 *   - generated levels (tests/support/riot_gen.c: every layer type, both divisions, holes,
 *     invisible triangles, scaled and unscaled objects, links, odd-length strings, no objects
 *     or groups record, an unusual container) written, read back field for field equal, and
 *     read -> write byte-identical at both levels (container and records);
 *   - a layer's zlib stream inflates (zlib called here directly) to the bytes the layout gives,
 *     encoded by hand in this file;
 *   - a record that changes size moves the others and keeps every other byte;
 *   - a counting allocator: read, parse, write and free leave nothing allocated, every free
 *     names its size, and a failure at every allocation is BLVL_E_NOMEM with nothing left;
 *   - a few containers built byte by byte here are refused with exactly their messages; the
 *     1 GiB file limit; NULL arguments;
 *   - a container built by hand (offsets 0) is laid out like a new one and parses. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zlib.h>

#include "blvl/blvl.h"
#include "blvl/le.h"
#include "blvl/riot.h"
#include "check.h"
#include "files.h"
#include "support/riot_gen.h"
#include "support/counting_alloc.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static uint8_t *gen_bytes(const riot_gen_opts *o, size_t *n, blvl_riot_level *truth) {
    if (riot_gen_build(o, truth) != 0)
        return NULL;
    void *out = NULL;
    blvl_error e;
    blvl_status st = blvl_riot_write(&out, n, truth, NULL, &e);
    CHECK_EQ_INT(st, BLVL_OK);
    if (st) {
        fprintf(stderr, "write: %s\n", e.message);
        return NULL;
    }
    uint8_t *copy = malloc(*n);
    memcpy(copy, out, *n);
    blvl_free(NULL, out);
    return copy;
}

/* Read -> compare with the truth -> write (same bytes) -> container read -> write (same bytes)
 * -> parse the container (equal level). */
static void round_trip(const char *what, const uint8_t *b, size_t n, const blvl_riot_level *truth) {
    blvl_riot_level *l = NULL;
    blvl_error e;
    blvl_status st = blvl_riot_read(&l, b, n, NULL, &e);
    CHECK_EQ_INT(st, BLVL_OK);
    if (st) {
        fprintf(stderr, "%s: %s\n", what, e.message);
        return;
    }
    char why[128];
    if (truth) {
        int d = riot_gen_compare(truth, l, why, sizeof why);
        if (d)
            fprintf(stderr, "%s: differs from the truth: %s\n", what, why);
        CHECK(d == 0);
    }
    void *out = NULL;
    size_t on = 0;
    CHECK_EQ_INT(blvl_riot_write(&out, &on, l, NULL, &e), BLVL_OK);
    CHECK(on == n && out && memcmp(out, b, n) == 0);
    if (on != n || (out && memcmp(out, b, n)))
        fprintf(stderr, "%s: level rewrite differs (%zu vs %zu bytes)\n", what, on, n);
    blvl_free(NULL, out);

    blvl_riot_srsc *c = NULL;
    CHECK_EQ_INT(blvl_riot_srsc_read(&c, b, n, NULL, &e), BLVL_OK);
    if (c) {
        out = NULL;
        CHECK_EQ_INT(blvl_riot_srsc_write(&out, &on, c, NULL, &e), BLVL_OK);
        CHECK(on == n && out && memcmp(out, b, n) == 0);
        blvl_free(NULL, out);
        blvl_riot_level *l2 = NULL;
        CHECK_EQ_INT(blvl_riot_parse(&l2, c, NULL, &e), BLVL_OK);
        if (l2) {
            CHECK(riot_gen_compare(l, l2, why, sizeof why) == 0);
            blvl_riot_free(l2);
        }
        blvl_riot_srsc_free(c);
    }
    blvl_riot_free(l);
}

/* ---- generated levels --------------------------------------------------------------------- */

static void test_generated(void) {
    riot_gen_opts cases[] = {
        {.seed = 1, .objects = 6},
        {.seed = 2, .objects = 0},                    /* no objects record */
        {.seed = 3, .objects = 3, .no_groups = true}, /* no groups record */
        {.seed = 4, .layers = 7, .objects = 12},
        {.seed = 5, .objects = 4, .unusual = true},
        {.seed = 6, .objects = 0, .no_groups = true, .unusual = true},
        {.seed = 7, .layers = 1, .width = 1, .height = 1, .objects = 1},
        {.seed = 8, .layers = 2, .width = 40, .height = 25, .objects = 2, .flat = true},
        {.seed = 9, .layers = 3, .width = 0, .height = 0, .objects = 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        blvl_riot_level truth;
        size_t n = 0;
        uint8_t *b = gen_bytes(&cases[i], &n, &truth);
        CHECK(b != NULL);
        if (!b)
            continue;
        char what[32];
        snprintf(what, sizeof what, "case %zu", i);
        round_trip(what, b, n, &truth);
        /* the same options give the same bytes */
        blvl_riot_level t2;
        size_t n2 = 0;
        uint8_t *b2 = gen_bytes(&cases[i], &n2, &t2);
        CHECK(b2 && n2 == n && memcmp(b, b2, n) == 0);
        free(b2);
        riot_gen_free(&t2);

        blvl_riot_srsc *c = NULL;
        blvl_error e;
        CHECK_EQ_INT(blvl_riot_srsc_read(&c, b, n, NULL, &e), BLVL_OK);
        if (c) {
            CHECK_EQ_INT(blvl_riot_srsc_find(c, BLVL_RIOT_OBJECTS) >= 0, cases[i].objects > 0);
            CHECK_EQ_INT(blvl_riot_srsc_find(c, BLVL_RIOT_GROUPS) >= 0, !cases[i].no_groups);
            CHECK(blvl_riot_srsc_find(c, BLVL_RIOT_LEVEL) >= 0);
            CHECK(blvl_riot_srsc_find(c, 0x0003) == -1);
            CHECK_EQ_INT(c->version, 0x0100);
            if (!cases[i].unusual) {
                /* a new container: records in type order after the header, directory last */
                CHECK_EQ_INT(c->records[0].type, BLVL_RIOT_LEVEL);
                CHECK_EQ_INT(c->records[0].offset, 12);
                CHECK_EQ_INT(c->records[1].type, BLVL_RIOT_LAYERS);
                CHECK_EQ_INT(c->fill_count, 0);
                CHECK_EQ_INT(c->dir_offset + 14u * c->record_count, n);
            } else {
                /* directory order as built; 0x0001 at 13; the directory between bodies */
                int32_t k = blvl_riot_srsc_find(c, BLVL_RIOT_LAYERS);
                CHECK(k >= 0 && c->records[k].offset == 13);
                CHECK(k == c->record_count - 1);
                CHECK_EQ_INT(c->records[0].type, cases[i].objects ? BLVL_RIOT_OBJECTS : 0x0042);
                int32_t u = blvl_riot_srsc_find(c, 0x0042);
                CHECK(u >= 0 && c->records[u].size == 5 && c->records[u].group == 9 &&
                      memcmp(c->records[u].bytes, "hello", 5) == 0);
                CHECK(c->dir_offset + 14u * c->record_count < n);
                CHECK_EQ_INT(c->fill_count, 4);
                CHECK(c->fills[0].offset == 12 && c->fills[0].size == 1 &&
                      c->fills[0].bytes[0] == 0xA0);
                CHECK(c->fills[3].size == 5 && c->fills[3].offset + 5 == n);
            }
            blvl_riot_srsc_free(c);
        }
        free(b);
        riot_gen_free(&truth);
    }
}

/* The layer data, laid out here by hand from the generated fields, equals what the written
 * zlib stream inflates to (zlib's uncompress, not the reader). */
static void test_layer_bytes(void) {
    riot_gen_opts o = {.seed = 11, .layers = 3, .objects = 0};
    blvl_riot_level truth;
    size_t n = 0;
    uint8_t *b = gen_bytes(&o, &n, &truth);
    CHECK(b != NULL);
    if (!b)
        return;
    blvl_riot_level *l = NULL;
    blvl_error e;
    CHECK_EQ_INT(blvl_riot_read(&l, b, n, NULL, &e), BLVL_OK);
    for (uint32_t i = 0; l && i < l->layer_count; i++) {
        const blvl_riot_layer *t = &truth.layers[i];
        size_t nv = ((size_t)t->width + 1) * (t->height + 1), nc = (size_t)t->width * t->height;
        size_t want = nv * 4 + nc * 26;
        uint8_t *raw = calloc(1, want), *got = calloc(1, want + 16);
        for (size_t k = 0; k < nv; k++) {
            raw[4 * k] = t->vertices[k].type;
            raw[4 * k + 1] = t->vertices[k].constant;
            raw[4 * k + 2] = (uint8_t)(t->vertices[k].raw_height & 0xff);
            raw[4 * k + 3] = (uint8_t)(t->vertices[k].raw_height >> 8);
        }
        for (size_t k = 0; k < nc; k++) {
            uint8_t *p = raw + nv * 4 + 26 * k;
            const blvl_riot_cell *c = &t->cells[k];
            p[0] = (uint8_t)c->flags, p[1] = (uint8_t)(c->flags >> 8);
            for (int s = 0; s < 2; s++)
                for (int q = 0; q < 4; q++)
                    p[2 + 4 * s + q] = (uint8_t)(c->texture[s] >> (8 * q));
            for (int u = 0; u < 8; u++)
                p[10 + 2 * u] = (uint8_t)c->uv[u], p[11 + 2 * u] = (uint8_t)(c->uv[u] >> 8);
        }
        uLongf gn = (uLongf)want + 16;
        CHECK_EQ_INT(uncompress(got, &gn, l->layers[i].compressed, l->layers[i].compressed_size),
                     Z_OK);
        CHECK_EQ_INT(gn, want);
        CHECK(memcmp(got, raw, want) == 0);
        free(raw);
        free(got);
    }
    /* the division bit and both special references occur */
    int div[2] = {0}, hole = 0, invisible = 0, scaled = 0;
    for (uint32_t i = 0; l && i < l->layer_count; i++)
        for (size_t k = 0; k < (size_t)l->layers[i].width * l->layers[i].height; k++) {
            div[l->layers[i].cells[k].flags & 1]++;
            for (int s = 0; s < 2; s++) {
                hole += l->layers[i].cells[k].texture[s] == BLVL_RIOT_HOLE;
                invisible += l->layers[i].cells[k].texture[s] == BLVL_RIOT_INVISIBLE;
            }
        }
    CHECK(div[0] && div[1] && hole && invisible);
    blvl_riot_free(l);
    riot_gen_free(&truth);
    free(b);

    /* odd strings are padded with one zero the length counts; scaled objects carry 12 bytes */
    o = (riot_gen_opts){.seed = 12, .objects = 8};
    b = gen_bytes(&o, &n, &truth);
    l = NULL;
    CHECK_EQ_INT(blvl_riot_read(&l, b, n, NULL, &e), BLVL_OK);
    int odd = 0;
    for (uint32_t i = 0; l && i < l->layer_count + l->dbref_count; i++) {
        const blvl_riot_str *s =
            i < l->layer_count ? &l->layers[i].name : &l->dbrefs[i - l->layer_count].path;
        size_t t = strlen(s->text);
        CHECK(s->size % 2 == 0);
        if (t % 2) {
            odd++;
            CHECK(s->size == t + 1 && s->bytes[t] == 0);
        }
    }
    for (uint32_t i = 0; l && i < l->object_count; i++)
        if (l->objects[i].flags & BLVL_RIOT_SCALED)
            scaled++;
        else
            CHECK(l->objects[i].scale[0] == 1.0f && l->objects[i].scale[2] == 1.0f);
    CHECK(l && strcmp(l->dbrefs[1].path.text, "common/textures.adb") == 0 &&
          l->dbrefs[1].path.size == 20 && l->dbrefs[1].unknown == 0xBEE1);
    CHECK(odd > 0 && odd < 6 && scaled > 0 && scaled < 8);
    blvl_riot_free(l);
    riot_gen_free(&truth);
    free(b);
}

/* A record that grows moves what follows it; the unknown record and the fills stay. */
static void test_resize(void) {
    riot_gen_opts o = {.seed = 21, .objects = 3, .unusual = true};
    blvl_riot_level truth;
    size_t n = 0;
    uint8_t *b = gen_bytes(&o, &n, &truth);
    blvl_riot_level *l = NULL;
    blvl_error e;
    CHECK_EQ_INT(blvl_riot_read(&l, b, n, NULL, &e), BLVL_OK);
    if (!l)
        return;
    /* a longer name, given as text: the writer stores it */
    char *old_text = l->name.text;
    uint8_t *old_bytes = l->name.bytes;
    uint16_t old_size = l->name.size;
    l->name.text = "A much longer level name, odd";
    l->name.bytes = NULL;
    void *out = NULL;
    size_t on = 0;
    CHECK_EQ_INT(blvl_riot_write(&out, &on, l, NULL, &e), BLVL_OK);
    CHECK_EQ_INT(on, n + riot_gen_str_size(l->name.text) - old_size);
    l->name.text = old_text;
    l->name.bytes = old_bytes;
    /* and the objects record dropped */
    l->has_objects = false;
    void *out2 = NULL;
    size_t on2 = 0;
    CHECK_EQ_INT(blvl_riot_write(&out2, &on2, l, NULL, &e), BLVL_OK);
    l->has_objects = true;
    blvl_riot_level *m = NULL;
    CHECK_EQ_INT(blvl_riot_read(&m, out, on, NULL, &e), BLVL_OK);
    if (m) {
        CHECK(strcmp(m->name.text, "A much longer level name, odd") == 0);
        CHECK_EQ_INT(m->name.size, 30);
        CHECK(m->layer_count == l->layer_count && m->object_count == 3);
        int32_t u = blvl_riot_srsc_find(m->srsc, 0x0042);
        CHECK(u >= 0 && memcmp(m->srsc->records[u].bytes, "hello", 5) == 0);
        CHECK_EQ_INT(m->srsc->fill_count, 4);
        char why[128];
        blvl_riot_level rest = *m; /* compare the rest */
        rest.name = l->name;
        CHECK(riot_gen_compare(l, &rest, why, sizeof why) == 0);
        blvl_riot_free(m);
    }
    m = NULL;
    CHECK_EQ_INT(blvl_riot_read(&m, out2, on2, NULL, &e), BLVL_OK);
    if (m) {
        CHECK(!m->has_objects && m->object_count == 0);
        CHECK(blvl_riot_srsc_find(m->srsc, BLVL_RIOT_OBJECTS) == -1);
        CHECK(m->srsc->record_count == l->srsc->record_count - 1);
        blvl_riot_free(m);
    }
    blvl_free(NULL, out);
    blvl_free(NULL, out2);
    blvl_riot_free(l);
    riot_gen_free(&truth);
    free(b);
}

/* A container built by hand (every offset 0) is laid out as a new one: bodies after the header
 * in directory order, the directory last; its records parse with offsets counted in the body. */
static void test_hand_built(void) {
    riot_gen_opts o = {.seed = 41, .objects = 2};
    blvl_riot_level truth;
    size_t n = 0;
    uint8_t *b = gen_bytes(&o, &n, &truth);
    blvl_riot_srsc *c = NULL;
    blvl_error e;
    CHECK_EQ_INT(blvl_riot_srsc_read(&c, b, n, NULL, &e), BLVL_OK);
    if (!c)
        return;
    c->dir_offset = 0;
    for (uint32_t i = 0; i < c->record_count; i++)
        c->records[i].offset = 0;
    void *out = NULL;
    size_t on = 0;
    CHECK_EQ_INT(blvl_riot_srsc_write(&out, &on, c, NULL, &e), BLVL_OK);
    CHECK(on == n && memcmp(out, b, n) == 0);
    blvl_free(NULL, out);
    blvl_riot_level *l = NULL;
    CHECK_EQ_INT(blvl_riot_parse(&l, c, NULL, &e), BLVL_OK);
    char why[128];
    CHECK(l && riot_gen_compare(&truth, l, why, sizeof why) == 0);
    blvl_riot_free(l);
    /* a link past the objects, refused at its position in the body (offsets are 0) */
    int32_t k = blvl_riot_srsc_find(c, BLVL_RIOT_OBJECTS);
    CHECK(k >= 0);
    uint8_t *body = c->records[k].bytes;
    /* object 0: count u16, id, class, db, layer, xyz, flags, events: linkCount at 32 */
    uint16_t links = blvl_le16(body + 32);
    if (links) {
        blvl_le_put16(body + 34, 2);
        CHECK_EQ_INT(blvl_riot_parse(&l, c, NULL, &e), BLVL_E_SOURCE);
        CHECK(strcmp(e.message, "record 0x0020: object[0].link[0] at offset 34: link-range: "
                                "object index 2 is past the record's 2 objects") == 0);
    }
    CHECK(links > 0);
    blvl_riot_srsc_free(c);
    riot_gen_free(&truth);
    free(b);
}

/* ---- allocation --------------------------------------------------------------------------- */

static blvl_status counted_cycle(const uint8_t *b, size_t n, long fail_at, test_counter *c) {
    blvl_options o = test_counting(c);
    c->fail_at = fail_at;
    blvl_riot_level *l = NULL;
    blvl_error e;
    blvl_status st = blvl_riot_read(&l, b, n, &o, &e);
    if (!st) {
        void *out = NULL;
        size_t on = 0;
        st = blvl_riot_write(&out, &on, l, &o, &e);
        if (!st) {
            CHECK(on == n && memcmp(out, b, n) == 0);
            blvl_free(&o, out);
        }
        blvl_riot_free(l);
    }
    if (st)
        CHECK(l == NULL || st == BLVL_E_NOMEM);
    return st;
}

static void test_alloc(void) {
    riot_gen_opts o = {.seed = 31, .objects = 4, .unusual = true};
    blvl_riot_level truth;
    size_t n = 0;
    uint8_t *b = gen_bytes(&o, &n, &truth);
    test_counter c;
    CHECK_EQ_INT(counted_cycle(b, n, 0, &c), BLVL_OK);
    CHECK_EQ_INT(c.live, 0);
    CHECK_EQ_INT(c.bad_free, 0);
    long total = c.calls;
    CHECK(total > 20);
    int nomem = 0;
    for (long k = 1; k <= total; k++) {
        blvl_status st = counted_cycle(b, n, k, &c);
        nomem += st == BLVL_E_NOMEM;
        if (c.live != 0 || c.bad_free)
            fprintf(stderr, "fail at %ld: %ld live, %d bad frees\n", k, c.live, c.bad_free);
        CHECK(c.live == 0 && c.bad_free == 0);
    }
    CHECK_EQ_INT(nomem, total);
    /* a hand-built level (layers to deflate) with the counting allocator */
    blvl_options co = test_counting(&c);
    void *out = NULL;
    size_t on = 0;
    blvl_error e;
    CHECK_EQ_INT(blvl_riot_write(&out, &on, &truth, &co, &e), BLVL_OK);
    CHECK(on == n && memcmp(out, b, n) == 0);
    blvl_free(&co, out);
    CHECK_EQ_INT(c.live, 0);
    CHECK_EQ_INT(c.bad_free, 0);
    riot_gen_free(&truth);
    free(b);
}

/* ---- malformed containers built here ------------------------------------------------------ */

static void expect(const uint8_t *b, size_t n, const char *want) {
    blvl_riot_level *l = NULL;
    blvl_error e;
    blvl_status st = blvl_riot_read(&l, b, n, NULL, &e);
    CHECK_EQ_INT(st, BLVL_E_SOURCE);
    CHECK(l == NULL);
    if (strcmp(e.message, want) != 0)
        fprintf(stderr, "got  %s\nwant %s\n", e.message, want);
    CHECK(strcmp(e.message, want) == 0);
}

static void test_refusals(void) {
    uint8_t b[64] = "SRSC";
    expect(b, 3, "SRSC: magic at offset 0: header-size: the file has 3 bytes, the header needs 12");
    blvl_le_put16(b + 4, 0x0100);
    blvl_le_put32(b + 6, 12);
    blvl_le_put16(b + 10, 0);
    expect(b, 12,
           "directory: type at offset 12: record-missing: no record 0x0000 (the level "
           "name and database references) among the 0 entries");
    /* one empty record 0x0000 at 12 and the directory after it: the body is cut short */
    blvl_le_put16(b + 10, 1);
    memset(b + 12, 0, 14);
    blvl_le_put32(b + 12 + 6, 12);
    expect(b, 26,
           "directory: type at offset 12: record-missing: no record 0x0001 (the layers) "
           "among the 1 entries");
    /* an empty body inside the directory overlaps it */
    blvl_le_put32(b + 12 + 6, 13);
    expect(b, 26,
           "directory: entry[0].offset at offset 18: record-overlap: the body of entry 0 "
           "(record 0x0000) (13..13) overlaps the directory (12..26)");
}

/* Over BLVL_RIOT_MAX_FILE: refused before a byte is read (the mapping is never touched). */
static void test_size_limit(void) {
    size_t big = (size_t)BLVL_RIOT_MAX_FILE + 1;
    void *p = mmap(NULL, big, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(p != MAP_FAILED);
    if (p == MAP_FAILED)
        return;
    blvl_riot_level *l = NULL;
    blvl_error e;
    CHECK_EQ_INT(blvl_riot_read(&l, p, big, NULL, &e), BLVL_E_SOURCE);
    CHECK(strcmp(e.message, "SRSC: file at offset 1073741824: file-size: 1073741825 bytes, "
                            "over the limit of 1073741824") == 0);
    /* exactly at the limit the size passes and the magic is what is wrong */
    CHECK_EQ_INT(blvl_riot_read(&l, p, big - 1, NULL, &e), BLVL_E_SOURCE);
    CHECK(strcmp(e.message, "SRSC: magic at offset 0: magic: bytes 00 00 00 00 are not \"SRSC\"") ==
          0);
    munmap(p, big);
    CHECK_EQ_INT(blvl_riot_read(&l, NULL, 0, NULL, &e), BLVL_E_SOURCE);
    CHECK_EQ_INT(blvl_riot_read(&l, NULL, 1, NULL, &e), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl_riot_read(NULL, "SRSC", 4, NULL, &e), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl_riot_parse(&l, NULL, NULL, &e), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl_riot_write(NULL, NULL, NULL, NULL, &e), BLVL_E_ARGUMENT);
    CHECK(blvl_riot_srsc_find(NULL, 0) == -1);
    blvl_riot_free(NULL);
    blvl_riot_srsc_free(NULL);
}

int main(void) {
    test_size_limit();
    test_generated();
    test_layer_bytes();
    test_resize();
    test_hand_built();
    test_alloc();
    test_refusals();
    return check_report("test_riot_io");
}
