/* Fuzz target: the .bsym reader (blvl_symbols_open_memory) and every lookup on what it accepts.
 * The first byte picks how: bit 0 against a small fixed level (3 colliders, 4 triangles in 2
 * batches, 2 materials, 2 entities; built once from JSON), bit 1 BLVL_SYMBOLS_READ_STALE, bit 2
 * the level's identity written over the file's (so the level-bound invariants are reached, not
 * only the stale refusal). A refusal must carry one of the reader's statuses and no object; an
 * accepted file must answer every lookup in range and out, describe every source, and write
 * back through blvl_symbols_write to a file that reads the same. Seeds: fuzz/corpus/bsym/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/sections.h"
#include "blvl/sections/bsym.h"
#include "blvl/symbols.h"

static const char *const level_json[][2] = {
    {"meta", "{\"name\": \"fuzz\"}"},
    {"sim", "{\"colliders\": [{}, {}, {}]}"},
    {"geometry", "{\"indices\": [0, 1, 2, 0, 2, 3, 0, 1, 3, 1, 2, 3],"
                 " \"batches\": [{\"first_index\": 0, \"index_count\": 6, \"material\": 0},"
                 " {\"first_index\": 6, \"index_count\": 6, \"material\": 1},"
                 " {\"first_index\": 9, \"index_count\": 30, \"material\": 1}],"
                 " \"materials\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}"},
    {"entities", "{\"entities\": [{\"classname\": \"worldspawn\"}, {\"classname\": \"x\"}]}"},
};

static void *level_bytes;
static blvl_level *level;

static void make_level(void) {
    enum { N = sizeof level_json / sizeof level_json[0] };
    blvl_section_in in[N];
    void *bufs[N];
    memset(in, 0, sizeof in);
    for (size_t i = 0; i < N; i++) {
        size_t n = 0;
        if (blvl_section_from_json(&bufs[i], &n, level_json[i][0], level_json[i][1],
                                   strlen(level_json[i][1]), NULL, NULL) != BLVL_OK)
            abort();
        in[i].tag = level_json[i][0];
        in[i].data = bufs[i];
        in[i].size = n;
    }
    size_t size = 0;
    if (blvl_write_memory(&level_bytes, &size, in, N, NULL, NULL) != BLVL_OK ||
        blvl_open_memory(&level, level_bytes, size, NULL, NULL) != BLVL_OK)
        abort();
    for (size_t i = 0; i < N; i++)
        blvl_free(NULL, bufs[i]);
}

static void exercise(const blvl_symbols *sym) {
    blvl_symbols_info info;
    blvl_symbols_get_info(sym, &info);
    char line[300];
    for (uint32_t i = 0; i <= info.colliders; i++) {
        uint32_t s = blvl_symbols_collider_source(sym, i);
        if (i == info.colliders && s != BLVL_SYMBOLS_NONE)
            abort();
        blvl_symbols_describe(sym, s, line, sizeof line);
    }
    uint32_t nr = 0;
    const blvl_symbols_run *runs = blvl_symbols_runs(sym, &nr);
    if (nr != info.runs || (nr && !runs))
        abort();
    uint32_t probe[] = {0, 1, 2, 3, 4, 5, 1000, UINT32_MAX - 1, UINT32_MAX};
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++)
        blvl_symbols_triangle_source(sym, probe[i]);
    for (uint32_t r = 0; r < nr && r < 64; r++)
        if (blvl_symbols_triangle_source(sym, runs[r].first_tri) != runs[r].source &&
            (!info.checked || runs[r].first_tri < info.triangles))
            abort();
    for (uint32_t b = 0; b <= info.batches; b++) {
        uint32_t n = 0;
        const blvl_symbols_run *br = blvl_symbols_batch_runs(sym, b, &n);
        if (br && (br < runs || br + n > runs + nr))
            abort();
        blvl_symbols_batch_source(sym, b);
    }
    for (uint32_t s = 0; s <= info.sources && s < 256; s++) {
        const blvl_symbols_source *src = blvl_symbols_source_at(sym, s);
        if ((src == NULL) != (s == info.sources))
            abort();
        if (blvl_symbols_describe(sym, s, line, sizeof line) == 0)
            abort();
        blvl_symbols_describe(sym, s, line, 5);
        if (src)
            blvl_symbols_kind_name(src->kind);
    }
    blvl_symbols_describe(sym, BLVL_SYMBOLS_NONE, line, sizeof line);
    blvl_symbols_material m;
    for (uint32_t i = 0; i <= info.materials && i < 256; i++) {
        bool ok = blvl_symbols_material_at(sym, i, &m);
        if (ok != (i < info.materials))
            abort();
        if (ok && (!m.name || !m.shader || !m.texture || (m.unknown_count && !m.unknown)))
            abort();
        for (uint32_t k = 0; ok && k < m.unknown_count; k++)
            if (!m.unknown[k])
                abort();
    }
}

/* What the reader accepted, written again, reads back the same. */
static void rewrite(const blvl_symbols *sym) {
    blvl_symbols_info info;
    blvl_symbols_get_info(sym, &info);
    blvl_symbols_data d;
    memset(&d, 0, sizeof d);
    memcpy(d.level, info.level, sizeof d.level);
    uint32_t *cols = malloc(((size_t)info.colliders + 1) * sizeof *cols);
    blvl_symbols_source *srcs = malloc(((size_t)info.sources + 1) * sizeof *srcs);
    blvl_symbols_material *mats = malloc(((size_t)info.materials + 1) * sizeof *mats);
    if (!cols || !srcs || !mats)
        abort();
    for (uint32_t i = 0; i < info.colliders; i++)
        cols[i] = blvl_symbols_collider_source(sym, i);
    for (uint32_t i = 0; i < info.sources; i++)
        srcs[i] = *blvl_symbols_source_at(sym, i);
    for (uint32_t i = 0; i < info.materials; i++)
        blvl_symbols_material_at(sym, i, &mats[i]);
    d.colliders = cols;
    d.collider_count = info.colliders;
    d.runs = blvl_symbols_runs(sym, &d.run_count);
    d.sources = srcs;
    d.source_count = info.sources;
    d.materials = mats;
    d.material_count = info.materials;
    void *out = NULL;
    size_t n = 0;
    if (blvl_symbols_write(&out, &n, &d, NULL, NULL) != BLVL_OK)
        abort();
    blvl_symbols *again = NULL;
    if (blvl_symbols_open_memory(&again, out, n, NULL, 0, NULL, NULL) != BLVL_OK)
        abort();
    blvl_symbols_info i2;
    blvl_symbols_get_info(again, &i2);
    if (i2.colliders != info.colliders || i2.runs != info.runs || i2.sources != info.sources ||
        i2.materials != info.materials || memcmp(i2.level, info.level, sizeof i2.level) != 0)
        abort();
    for (uint32_t i = 0; i < info.sources; i++)
        if (memcmp(blvl_symbols_source_at(again, i), &srcs[i], sizeof srcs[i]) != 0)
            abort();
    blvl_symbols_free(again);
    blvl_free(NULL, out);
    free(cols);
    free(srcs);
    free(mats);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1)
        return 0;
    if (!level)
        make_level();
    unsigned mode = data[0];
    data++, size--;
    /* a copy: exactly the bytes, so ASan sees any read past them */
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        abort();
    memcpy(buf, data, size);
    if ((mode & 4) && blvl_Symbols_verify(buf, size, NULL) == BLVL_OK) {
        blvl_fb_vec lv = blvl_Symbols_level_vec(blvl_Symbols_root(buf));
        if (lv.len == BLVL_DIGEST_SIZE) {
            blvl_info li;
            blvl_get_info(level, &li);
            memcpy(buf + (lv.data - (const uint8_t *)buf), li.identity, BLVL_DIGEST_SIZE);
        }
    }
    blvl_symbols *sym = NULL;
    blvl_error err;
    blvl_status st = blvl_symbols_open_memory(&sym, buf, size, (mode & 1) ? level : NULL,
                                              (mode & 2) ? BLVL_SYMBOLS_READ_STALE : 0, NULL, &err);
    if (st != BLVL_OK) {
        if (sym || err.code != st ||
            (st != BLVL_E_FLATBUFFER && st != BLVL_E_SYMBOLS && st != BLVL_E_SYMBOLS_VERSION &&
             st != BLVL_E_SYMBOLS_STALE))
            abort();
        if (st == BLVL_E_SYMBOLS && !strstr(err.message, ")"))
            abort(); /* every invariant refusal names its invariant */
    } else {
        memset(buf, 0xA5, size); /* the object keeps no pointer into the bytes */
        exercise(sym);
        rewrite(sym);
        blvl_symbols_free(sym);
    }
    free(buf);
    return 0;
}
