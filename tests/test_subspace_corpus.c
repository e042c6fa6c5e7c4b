/* The .lvl reader and writer against files written by an independent Python writer
 * (tests/data/subspace/make_lvl.py):
 *   - every good file reads, what it holds equals the writer's description (NAME.txt: part
 *     offsets, record counts, attributes, each region's tiles and flags, a digest of the
 *     decoded tileset), and read -> write gives back the same bytes;
 *   - every bad file is refused with BLVL_E_SOURCE and exactly its expected message, with
 *     nothing left allocated;
 *   - a file over BLVL_SUBSPACE_MAX_FILE is refused before a byte is read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "blvl/subspace.h"
#include "check.h"
#include "files.h"

#define DIR "tests/data/subspace/"
#define G BLVL_SUBSPACE_GRID

typedef struct counter {
    long live;
} counter;
static void *c_alloc(void *u, size_t n) {
    ((counter *)u)->live++;
    return malloc(n);
}
static void c_free(void *u, void *p, size_t n) {
    (void)n;
    ((counter *)u)->live--;
    free(p);
}

typedef struct text {
    char *p;
    size_t n, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void add(text *t, const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (t->n + (size_t)k + 1 > t->cap) {
        t->cap = (t->n + (size_t)k + 1) * 2;
        t->p = realloc(t->p, t->cap);
    }
    memcpy(t->p + t->n, line, (size_t)k + 1);
    t->n += (size_t)k;
}

/* The lines make_lvl.py's describe() writes. */
static void describe(const blvl_subspace *m, text *t) {
    add(t, "tiles_offset %llu\n", (unsigned long long)m->tiles_offset);
    add(t, "records %u skipped_range %u skipped_empty %u tail %u\n", m->record_count,
        m->skipped_range, m->skipped_empty, m->tail_size);
    if (m->bmp) {
        uint32_t s = 0;
        for (uint32_t i = 0; i < BLVL_SUBSPACE_TILESET_W * BLVL_SUBSPACE_TILESET_H; i++)
            s += m->bmp->pixels[i] * (i + 1u);
        add(t, "pixels %08x\n", s);
    }
    if (!m->elvl)
        return;
    const blvl_subspace_elvl *e = m->elvl;
    add(t, "elvl %llu\n", (unsigned long long)e->offset);
    for (uint32_t i = 0; i < e->attr_count; i++)
        add(t, "attr %s%s%s\n", e->attrs[i].key, e->attrs[i].value ? "=" : "",
            e->attrs[i].value ? e->attrs[i].value : "");
    uint8_t *bits = malloc(BLVL_SUBSPACE_BITMAP_BYTES);
    for (uint32_t r = 0; r < e->region_count; r++) {
        const blvl_subspace_region *g = &e->regions[r];
        add(t, "region %s\n", g->name ? g->name : "");
        blvl_error err = {0};
        CHECK_EQ_INT(blvl_subspace_region_tiles(g, bits, &err), BLVL_OK);
        uint32_t n = 0;
        for (uint32_t i = 0; i < G * G; i++)
            n += bits[i >> 3] >> (i & 7) & 1;
        add(t, "tiles %u\n", n);
        if (n < 100)
            for (uint32_t i = 0; i < G * G; i++)
                if (bits[i >> 3] >> (i & 7) & 1)
                    add(t, "tile %u %u\n", i % G, i / G);
        char flags[64] = "";
        if (g->base)
            strcat(flags, " base");
        if (g->no_antiwarp)
            strcat(flags, " no_antiwarp");
        if (g->no_weapons)
            strcat(flags, " no_weapons");
        if (g->no_flag_drops)
            strcat(flags, " no_flag_drops");
        if (flags[0])
            add(t, "flags %s\n", flags + 1);
        if (g->has_autowarp)
            add(t, "warp %d %d%s%s\n", g->warp_x, g->warp_y, g->warp_arena ? " " : "",
                g->warp_arena ? g->warp_arena : "");
    }
    free(bits);
}

static void good(const char *name) {
    char path[256];
    snprintf(path, sizeof path, DIR "good/%s.lvl", name);
    size_t n = 0, tn = 0;
    uint8_t *data = test_slurp(path, &n);
    snprintf(path, sizeof path, DIR "good/%s.txt", name);
    char *want = (char *)test_slurp(path, &tn);
    CHECK(data && want);
    if (!data || !want)
        return;
    blvl_subspace *m = NULL;
    blvl_error err = {0};
    blvl_status st = blvl_subspace_read(&m, data, n, NULL, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "good/%s: %s\n", name, err.message);
    CHECK_EQ_INT(st, BLVL_OK);
    if (m) {
        text t = {0};
        describe(m, &t);
        if (!t.p || strcmp(t.p, want) != 0) {
            fprintf(stderr, "good/%s: the reader says\n%s", name, t.p ? t.p : "");
            CHECK(0);
        } else {
            CHECK(1);
        }
        free(t.p);
        void *out = NULL;
        size_t on = 0;
        CHECK_EQ_INT(blvl_subspace_write(&out, &on, m, NULL, &err), BLVL_OK);
        CHECK(on == n && memcmp(out, data, n) == 0);
        blvl_free(NULL, out);
        blvl_subspace_free(m);
    }
    free(data);
    free(want);
}

static void bad(void) {
    size_t n = 0;
    char *list = (char *)test_slurp(DIR "bad/expected.tsv", &n);
    CHECK(list != NULL);
    if (!list)
        return;
    int files = 0;
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        CHECK(tab != NULL);
        if (!tab)
            continue;
        *tab = 0;
        char path[256];
        snprintf(path, sizeof path, DIR "bad/%s.lvl", line);
        size_t fn = 0;
        uint8_t *data = test_slurp(path, &fn);
        CHECK(data != NULL);
        if (!data)
            continue;
        counter c = {0};
        blvl_options opt = {0};
        opt.allocator.alloc = c_alloc;
        opt.allocator.free = c_free;
        opt.allocator.user = &c;
        blvl_subspace *m = NULL;
        blvl_error err = {0};
        blvl_status st = blvl_subspace_read(&m, data, fn, &opt, &err);
        if (st != BLVL_E_SOURCE || strcmp(err.message, tab + 1) != 0) {
            fprintf(stderr, "bad/%s: status %d\n  got  %s\n  want %s\n", line, (int)st, err.message,
                    tab + 1);
            CHECK(0);
        } else {
            CHECK(1);
        }
        CHECK(m == NULL);
        blvl_subspace_free(m);
        CHECK_EQ_INT(c.live, 0);
        free(data);
        files++;
    }
    CHECK(files >= 50);
    free(list);
}

static void too_large(void) {
    size_t n = (size_t)BLVL_SUBSPACE_MAX_FILE + 1;
    void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED);
    if (p == MAP_FAILED)
        return;
    blvl_subspace *m = NULL;
    blvl_error err = {0};
    CHECK_EQ_INT(blvl_subspace_read(&m, p, n, NULL, &err), BLVL_E_SOURCE);
    CHECK(strcmp(err.message, "file: size at offset 67108864: file-size: 67108865 bytes, over "
                              "the limit of 67108864") == 0);
    /* exactly the limit is read (bare records, all zero: tile 0, skipped) */
    CHECK_EQ_INT(blvl_subspace_read(&m, p, n - 1, NULL, &err), BLVL_OK);
    CHECK(m && m->skipped_empty == (n - 1) / 4);
    blvl_subspace_free(m);
    munmap(p, n);
    /* no data at all is an empty map */
    CHECK_EQ_INT(blvl_subspace_read(&m, NULL, 0, NULL, &err), BLVL_OK);
    CHECK(m && m->record_count == 0 && !m->bmp && !m->elvl);
    blvl_subspace_free(m);
}

int main(void) {
    static const char *const goods[] = {"bare", "empty", "elvl_pads", "bmp_raw_topdown",
                                        "bmp_rle_elvl"};
    for (size_t i = 0; i < sizeof goods / sizeof *goods; i++)
        good(goods[i]);
    bad();
    too_large();
    return check_report("test_subspace_corpus");
}
