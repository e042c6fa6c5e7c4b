/* The .bsym API (blvl/symbols.h) on a real bake and on hand-built files.
 *
 *   test_symbols_read                  the in-memory cases below
 *   test_symbols_read LEVEL BSYM       LEVEL and its BSYM (a CLI bake) read back, pass the
 *                                      invariants, and the lookups agree with the level
 *   test_symbols_read --stale LEVEL BSYM   BSYM names another level: refused as stale, and read
 *                                      with BLVL_SYMBOLS_READ_STALE says so
 *
 * In memory: the hmap sample baked (its water collider came from brush 121, as the importer
 * recorded it); blvl_symbols_write round-trips every field; each invariant broken in a .bsym built
 * here with the generated builder (past the writer's checks) is refused naming it; another
 * version, another level and bytes the verifier refuses are refused with their statuses; strings
 * shared by many offsets, whose copy would outgrow the file, are refused (symbols-size). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/hmap.h"
#include "blvl/sections.h"
#include "blvl/sections/bsym_builder.h"
#include "blvl/sections_builder.h"
#include "blvl/symbols.h"
#include "check.h"
#include "files.h"

#define NONE BLVL_SYMBOLS_NONE

/* ---- the level side, read with the generated readers (not the symbols layer) -------------- */

typedef struct level_facts {
    blvl_bytes sim_b, geo_b;
    blvl_Sim sim;
    blvl_Geometry geo;
} level_facts;

static void facts_read(blvl_level *lv, level_facts *f) {
    blvl_error err;
    memset(f, 0, sizeof *f);
    CHECK_EQ_INT(blvl_level_sim(lv, &f->sim_b, &f->sim, &err), BLVL_OK);
    blvl_status st = blvl_level_geometry(lv, &f->geo_b, &f->geo, &err);
    CHECK(st == BLVL_OK || st == BLVL_E_NOT_FOUND);
}

static void facts_free(level_facts *f) {
    blvl_bytes_free(&f->sim_b);
    blvl_bytes_free(&f->geo_b);
}

/* The lookups agree with the level and with the raw runs of the file (decoded by the generated
 * reader): every triangle's source by a linear scan; the material a triangle's source names
 * became the material its batch draws with; each batch's runs cover exactly its triangles. */
static void check_pair(blvl_level *lv, const blvl_symbols *sym, const void *bytes, size_t size) {
    level_facts f;
    facts_read(lv, &f);
    blvl_symbols_info info;
    blvl_symbols_get_info(sym, &info);
    CHECK(info.checked && !info.stale);
    CHECK_EQ_INT(info.version, 1);
    CHECK_EQ_INT(info.colliders, blvl_Sim_colliders_len(f.sim));
    CHECK_EQ_INT(info.triangles, blvl_Geometry_indices_len(f.geo) / 3);
    CHECK_EQ_INT(info.batches, blvl_Geometry_batches_len(f.geo));
    blvl_info li;
    blvl_get_info(lv, &li);
    CHECK_MEM(info.level, li.identity, 16);

    CHECK_EQ_INT(blvl_section_verify_bytes("bsym", bytes, size, NULL, NULL), BLVL_OK);
    blvl_Symbols raw = blvl_Symbols_root(bytes);
    CHECK_EQ_INT(blvl_Symbols_colliders_len(raw), info.colliders);
    for (uint32_t c = 0; c < info.colliders; c++)
        CHECK_EQ_INT(blvl_symbols_collider_source(sym, c), blvl_Symbols_colliders_at(raw, c));
    CHECK_EQ_INT(blvl_symbols_collider_source(sym, info.colliders), NONE);
    /* the entity that placed a collider: sim.collider_sources (what the game reads) and the
     * .bsym source (what the importer recorded for people) name the same one */
    uint32_t same = 0, differ = 0;
    for (uint32_t c = 0; c < info.colliders; c++) {
        blvl_Collider col = blvl_Sim_colliders_at(f.sim, c);
        const blvl_symbols_source *s =
            blvl_symbols_source_at(sym, blvl_symbols_collider_source(sym, c));
        uint32_t cs = blvl_Collider_source(col);
        if (!s || s->entity == NONE || cs >= blvl_Sim_collider_sources_len(f.sim))
            continue;
        uint32_t e = blvl_ColliderSource_entity(blvl_Sim_collider_sources_at(f.sim, cs));
        if (e == NONE)
            continue;
        if (e == s->entity)
            same++;
        else
            differ++;
    }
    CHECK_EQ_INT(differ, 0);
    if (getenv("SYMBOLS_PAIR_VERBOSE"))
        printf("colliders %u, entity agreements %u\n", info.colliders, same);

    uint32_t nr = blvl_Symbols_tri_runs_len(raw), r = 0, bad = 0, agree = 0, disagree = 0;
    for (uint32_t t = 0; t < info.triangles; t++) {
        while (r + 1 < nr && blvl_Symbols_tri_runs_at(raw, r + 1).first_tri <= t)
            r++;
        if (blvl_symbols_triangle_source(sym, t) != blvl_Symbols_tri_runs_at(raw, r).source)
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(blvl_symbols_triangle_source(sym, info.triangles), NONE);

    for (uint32_t b = 0; b < info.batches; b++) {
        blvl_Batch bt = blvl_Geometry_batches_at(f.geo, b);
        uint32_t first = blvl_Batch_first_index(bt) / 3, n = blvl_Batch_index_count(bt) / 3;
        uint32_t count = 0;
        const blvl_symbols_run *runs = blvl_symbols_batch_runs(sym, b, &count);
        if (n == 0) {
            CHECK(runs == NULL && count == 0);
            continue;
        }
        CHECK(runs != NULL && count > 0);
        if (!runs)
            continue;
        CHECK(runs[0].first_tri <= first);
        CHECK(count == 1 || runs[1].first_tri > first);
        CHECK(runs[count - 1].first_tri < first + n);
        bool one = true;
        for (uint32_t i = 1; i < count; i++)
            one = one && runs[i].source == runs[0].source;
        CHECK_EQ_INT(blvl_symbols_batch_source(sym, b), one ? runs[0].source : NONE);
        uint32_t mat = blvl_Batch_material(bt);
        for (uint32_t t = first; t < first + n; t++) {
            const blvl_symbols_source *s =
                blvl_symbols_source_at(sym, blvl_symbols_triangle_source(sym, t));
            blvl_symbols_material m;
            if (!s || !blvl_symbols_material_at(sym, s->material, &m) || m.baked == NONE)
                continue;
            if (m.baked == mat)
                agree++;
            else
                disagree++;
        }
    }
    CHECK_EQ_INT(blvl_symbols_batch_runs(sym, info.batches, NULL) == NULL, 1);
    /* A Riot face names one material although its cell's two triangles may draw two (the
     * surfaces of one source are merged into one run): there most, not all, agree. */
    const char *loose = getenv("SYMBOLS_FACE_MATERIALS_MAY_DIFFER");
    if (loose && *loose)
        CHECK(agree > disagree);
    else
        CHECK_EQ_INT(disagree, 0);
    if (info.triangles)
        CHECK(agree > 0);

    /* describe never overflows and always terminates */
    for (uint32_t s = 0; s < info.sources; s++) {
        char small[8], big[512];
        size_t need = blvl_symbols_describe(sym, s, big, sizeof big);
        CHECK(need == strlen(big) || need >= sizeof big);
        CHECK_EQ_INT(blvl_symbols_describe(sym, s, small, sizeof small), need);
        CHECK_EQ_INT(strlen(small), need < 7 ? need : 7);
        const blvl_symbols_source *src = blvl_symbols_source_at(sym, s);
        const char *kn = blvl_symbols_kind_name(src->kind);
        CHECK(!kn || strncmp(big, kn, strlen(kn)) == 0);
    }
    facts_free(&f);
}

static int pair_main(bool stale, const char *level_path, const char *bsym_path) {
    blvl_level *lv = NULL;
    blvl_error err;
    if (blvl_open_file(&lv, level_path, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", level_path, err.message);
        return 1;
    }
    size_t size = 0;
    uint8_t *bytes = test_slurp(bsym_path, &size);
    CHECK(bytes != NULL);
    blvl_symbols *sym = NULL;
    blvl_status st = blvl_symbols_open_file(&sym, bsym_path, lv, 0, NULL, &err);
    if (!stale) {
        CHECK_EQ_INT(st, BLVL_OK);
        if (st != BLVL_OK)
            fprintf(stderr, "%s: %s\n", bsym_path, err.message);
        else if (bytes)
            check_pair(lv, sym, bytes, size);
    } else {
        CHECK_EQ_INT(st, BLVL_E_SYMBOLS_STALE);
        CHECK(sym == NULL);
        CHECK(strncmp(err.message, "symbols-stale: ", 15) == 0);
        CHECK_EQ_INT(
            blvl_symbols_open_file(&sym, bsym_path, lv, BLVL_SYMBOLS_READ_STALE, NULL, &err),
            BLVL_OK);
        blvl_symbols_info info;
        blvl_symbols_get_info(sym, &info);
        CHECK(info.stale && !info.checked);
        CHECK_EQ_INT(info.triangles, 0);
        CHECK_EQ_INT(info.batches, 0);
        CHECK(blvl_symbols_batch_runs(sym, 0, NULL) == NULL);
    }
    blvl_symbols_free(sym);
    free(bytes);
    blvl_close(lv);
    return check_report(stale ? "test_symbols_read --stale" : "test_symbols_read pair");
}

/* ---- a .bsym built with the generated builder: the writer's checks bypassed --------------- */

typedef struct raw_opts {
    uint32_t version;
    bool no_level;
} raw_opts;

static uint8_t *raw_build(const blvl_symbols_data *d, const raw_opts *o, size_t *size) {
    blvl_fb_builder *fb = NULL;
    CHECK_EQ_INT(blvl_fb_builder_new(&fb, NULL, NULL), BLVL_OK);
    blvl_fb_ref *refs = calloc(d->material_count + 1, sizeof *refs);
    for (uint32_t i = 0; i < d->material_count; i++) {
        const blvl_symbols_material *m = &d->materials[i];
        blvl_fb_ref name = m->name ? blvl_fb_create_string(fb, m->name, strlen(m->name)) : 0;
        blvl_SymbolMaterial_start(fb);
        blvl_SymbolMaterial_add_name(fb, name);
        blvl_SymbolMaterial_add_baked(fb, m->baked);
        refs[i] = blvl_SymbolMaterial_end(fb);
    }
    blvl_fb_ref mats = blvl_fb_create_ref_vector(fb, refs, d->material_count);
    blvl_fb_ref lv = o->no_level ? 0 : blvl_Symbols_level_create(fb, d->level, 16);
    blvl_fb_ref cv = blvl_Symbols_colliders_create(fb, d->colliders, d->collider_count);
    blvl_TriRun *runs = calloc(d->run_count + 1, sizeof *runs);
    for (uint32_t i = 0; i < d->run_count; i++)
        runs[i] = (blvl_TriRun){d->runs[i].first_tri, d->runs[i].source};
    blvl_fb_ref rv = blvl_Symbols_tri_runs_create(fb, runs, d->run_count);
    blvl_SymbolSource *srcs = calloc(d->source_count + 1, sizeof *srcs);
    for (uint32_t i = 0; i < d->source_count; i++) {
        const blvl_symbols_source *s = &d->sources[i];
        srcs[i] = (blvl_SymbolSource){s->kind,           s->index,  s->surface_flags,
                                      s->contents_flags, s->entity, s->material};
    }
    blvl_fb_ref sv = blvl_Symbols_sources_create(fb, srcs, d->source_count);
    blvl_Symbols_start(fb);
    blvl_Symbols_add_level(fb, lv);
    blvl_Symbols_add_version(fb, o->version);
    blvl_Symbols_add_colliders(fb, cv);
    blvl_Symbols_add_tri_runs(fb, rv);
    blvl_Symbols_add_sources(fb, sv);
    blvl_Symbols_add_materials(fb, mats);
    const uint8_t *p = NULL;
    CHECK_EQ_INT(blvl_Symbols_finish(fb, blvl_Symbols_end(fb), &p, size, NULL), BLVL_OK);
    uint8_t *out = malloc(*size);
    memcpy(out, p, *size);
    blvl_fb_builder_free(fb);
    free(refs);
    free(runs);
    free(srcs);
    return out;
}

/* A .bsym of `d` (version 1 unless o says) opened against `lv` (may be NULL): the status, and
 * the message holds `rule` when not NULL. */
static void expect(const blvl_symbols_data *d, const raw_opts *o, blvl_level *lv, blvl_status want,
                   const char *rule, int line) {
    raw_opts def = {1, false};
    size_t size = 0;
    uint8_t *bytes = raw_build(d, o ? o : &def, &size);
    blvl_symbols *sym = (blvl_symbols *)&size; /* must come back NULL on refusal */
    blvl_error err;
    memset(&err, 0, sizeof err);
    blvl_status st = blvl_symbols_open_memory(&sym, bytes, size, lv, 0, NULL, &err);
    bool ok = st == want && (want == BLVL_OK ? sym != NULL : sym == NULL) &&
              (!rule || strstr(err.message, rule));
    if (!ok)
        fprintf(stderr, "line %d: got %s (%s), wanted %s %s\n", line, blvl_status_name(st),
                err.message, blvl_status_name(want), rule ? rule : "");
    CHECK(ok);
    if (st == BLVL_OK)
        blvl_symbols_free(sym);
    free(bytes);
}
#define EXPECT(d, o, lv, want, rule) expect(d, o, lv, want, rule, __LINE__)

/* ---- the hmap sample, baked here ------------------------------------------------------------ */

typedef struct baked {
    void *level, *symbols;
    size_t level_size, symbols_size;
    blvl_level *lv;
} baked;

static int bake_hmap(baked *k) {
    memset(k, 0, sizeof *k);
    size_t n = 0;
    uint8_t *src = test_slurp("tests/data/hmap/sample.hmap", &n);
    if (!src)
        return -1;
    blvl_error err;
    blvl_hmap *map = NULL;
    blvl_bake *b = NULL;
    blvl_options opt = {0};
    opt.threads = 1;
    blvl_status st = blvl_hmap_read(&map, src, n, NULL, &err);
    if (st == BLVL_OK)
        st = blvl_bake_new(&b, &opt, &err);
    if (st == BLVL_OK)
        st = blvl_hmap_bake(map, b, &err);
    if (st == BLVL_OK)
        st = blvl_bake_write_memory(b, &k->level, &k->level_size, &k->symbols, &k->symbols_size,
                                    NULL, &err);
    if (st == BLVL_OK)
        st = blvl_open_memory(&k->lv, k->level, k->level_size, NULL, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "hmap bake: %s\n", err.message);
    blvl_bake_free(b);
    blvl_hmap_free(map);
    free(src);
    return st == BLVL_OK ? 0 : -1;
}

/* The reader's copy of a .bsym as writable arrays, to break one thing at a time. */
typedef struct editable {
    blvl_symbols_data d;
    uint32_t *colliders;
    blvl_symbols_run *runs;
    blvl_symbols_source *sources;
    blvl_symbols_material *materials;
} editable;

static void edit_from(editable *e, const blvl_symbols *sym) {
    blvl_symbols_info info;
    blvl_symbols_get_info(sym, &info);
    memset(e, 0, sizeof *e);
    memcpy(e->d.level, info.level, 16);
    e->colliders = calloc(info.colliders + 1, sizeof *e->colliders);
    e->runs = calloc(info.runs + 1, sizeof *e->runs);
    e->sources = calloc(info.sources + 1, sizeof *e->sources);
    e->materials = calloc(info.materials + 1, sizeof *e->materials);
    for (uint32_t i = 0; i < info.colliders; i++)
        e->colliders[i] = blvl_symbols_collider_source(sym, i);
    uint32_t nr = 0;
    const blvl_symbols_run *r = blvl_symbols_runs(sym, &nr);
    if (nr)
        memcpy(e->runs, r, nr * sizeof *r);
    for (uint32_t i = 0; i < info.sources; i++)
        e->sources[i] = *blvl_symbols_source_at(sym, i);
    for (uint32_t i = 0; i < info.materials; i++)
        blvl_symbols_material_at(sym, i, &e->materials[i]);
    e->d.colliders = e->colliders;
    e->d.collider_count = info.colliders;
    e->d.runs = e->runs;
    e->d.run_count = nr;
    e->d.sources = e->sources;
    e->d.source_count = info.sources;
    e->d.materials = e->materials;
    e->d.material_count = info.materials;
}

static void edit_free(editable *e) {
    free(e->colliders);
    free(e->runs);
    free(e->sources);
    free(e->materials);
}

static void test_hmap(void) {
    baked k;
    if (bake_hmap(&k) != 0) {
        CHECK(!"hmap sample baked");
        return;
    }
    blvl_error err;
    blvl_symbols *sym = NULL;
    CHECK_EQ_INT(blvl_symbols_open_memory(&sym, k.symbols, k.symbols_size, k.lv, 0, NULL, &err),
                 BLVL_OK);
    if (!sym) {
        fprintf(stderr, "%s\n", err.message);
        return;
    }
    check_pair(k.lv, sym, k.symbols, k.symbols_size);

    /* the importer's record: the water collider came from brush id 121, contents water */
    level_facts f;
    facts_read(k.lv, &f);
    uint32_t water = 0;
    for (uint32_t i = 0; i < blvl_Sim_colliders_len(f.sim); i++) {
        if (blvl_Collider_flags(blvl_Sim_colliders_at(f.sim, i)) != blvl_ColliderFlag_Water)
            continue;
        const blvl_symbols_source *s =
            blvl_symbols_source_at(sym, blvl_symbols_collider_source(sym, i));
        CHECK(s != NULL);
        if (!s)
            continue;
        water++;
        CHECK_EQ_INT(s->kind, BLVL_SYMBOLS_BRUSH);
        CHECK_EQ_INT(s->index, 121);
        CHECK_EQ_INT(s->contents_flags, BLVL_HMAP_WATER);
        char line[256];
        blvl_symbols_describe(sym, blvl_symbols_collider_source(sym, i), line, sizeof line);
        CHECK(strncmp(line, "brush 121 (entity ", 18) == 0);
    }
    CHECK(water > 0);
    facts_free(&f);

    /* no level: its own invariants only, nothing level-bound in info */
    blvl_symbols *alone = NULL;
    CHECK_EQ_INT(blvl_symbols_open_memory(&alone, k.symbols, k.symbols_size, NULL, 0, NULL, &err),
                 BLVL_OK);
    blvl_symbols_info info;
    blvl_symbols_get_info(alone, &info);
    CHECK(!info.checked && !info.stale && info.triangles == 0 && info.batches == 0);
    CHECK_EQ_INT(blvl_symbols_triangle_source(alone, 0), blvl_symbols_triangle_source(sym, 0));
    blvl_symbols_free(alone);

    /* every invariant broken, one at a time, each refused by name */
    editable e;
    edit_from(&e, sym);
    blvl_symbols_get_info(sym, &info);
    CHECK(e.d.run_count >= 3 && e.d.collider_count >= 2 && e.d.source_count >= 1 &&
          e.d.material_count >= 1);
    EXPECT(&e.d, NULL, k.lv, BLVL_OK, NULL);
    EXPECT(&e.d, NULL, NULL, BLVL_OK, NULL);
    if (e.d.run_count >= 3 && e.d.collider_count >= 2 && e.d.source_count && e.d.material_count) {
        blvl_symbols_data d = e.d;
        e.runs[0].first_tri = 1;
        EXPECT(&d, NULL, NULL, BLVL_E_SYMBOLS, "tri_runs[0].first_tri 1 is not 0 (tri-runs-start)");
        e.runs[0].first_tri = 0;
        uint32_t keep = e.runs[2].first_tri;
        e.runs[2].first_tri = e.runs[1].first_tri;
        char want[160];
        snprintf(want, sizeof want,
                 "symbols: tri_runs[2].first_tri %u is not above tri_runs[1].first_tri %u "
                 "(tri-runs-sorted)",
                 e.runs[1].first_tri, e.runs[1].first_tri);
        EXPECT(&d, NULL, NULL, BLVL_E_SYMBOLS, want);
        /* the writer refuses the same data */
        void *out = NULL;
        size_t out_size = 0;
        CHECK_EQ_INT(blvl_symbols_write(&out, &out_size, &d, NULL, &err), BLVL_E_SYMBOLS);
        CHECK(strstr(err.message, "(tri-runs-sorted)") != NULL);
        CHECK(out == NULL);
        e.runs[2].first_tri = keep;

        uint32_t c0 = e.colliders[1];
        e.colliders[1] = e.d.source_count;
        EXPECT(&d, NULL, NULL, BLVL_E_SYMBOLS, "colliders[1] ");
        EXPECT(&d, NULL, NULL, BLVL_E_SYMBOLS, "(collider-source-range)");
        e.colliders[1] = NONE;
        EXPECT(&d, NULL, k.lv, BLVL_OK, NULL);
        e.colliders[1] = c0;

        uint32_t s0 = e.runs[1].source;
        e.runs[1].source = e.d.source_count + 7;
        EXPECT(&d, NULL, NULL, BLVL_E_SYMBOLS, "tri_runs[1].source");
        EXPECT(&d, NULL, NULL, BLVL_E_SYMBOLS, "(run-source-range)");
        e.runs[1].source = s0;

        uint32_t m0 = e.sources[0].material;
        e.sources[0].material = e.d.material_count;
        EXPECT(&d, NULL, NULL, BLVL_E_SYMBOLS, "(source-material-range)");
        e.sources[0].material = m0;

        /* level-bound: only with the level */
        d.collider_count--;
        EXPECT(&d, NULL, NULL, BLVL_OK, NULL);
        EXPECT(&d, NULL, k.lv, BLVL_E_SYMBOLS, "(colliders-parallel)");
        d.collider_count++;

        uint32_t last = e.runs[e.d.run_count - 1].first_tri;
        e.runs[e.d.run_count - 1].first_tri = info.triangles;
        EXPECT(&d, NULL, NULL, BLVL_OK, NULL);
        EXPECT(&d, NULL, k.lv, BLVL_E_SYMBOLS, "(tri-runs-cover)");
        e.runs[e.d.run_count - 1].first_tri = last;
        d.run_count = 0;
        EXPECT(&d, NULL, k.lv, BLVL_E_SYMBOLS, "no tri_runs for the");
        d.run_count = e.d.run_count;

        uint32_t ent = e.sources[0].entity;
        e.sources[0].entity = 1000000;
        EXPECT(&d, NULL, NULL, BLVL_OK, NULL);
        EXPECT(&d, NULL, k.lv, BLVL_E_SYMBOLS, "(source-entity-range)");
        e.sources[0].entity = ent;

        uint32_t baked = e.materials[0].baked;
        e.materials[0].baked = 1000000;
        EXPECT(&d, NULL, NULL, BLVL_OK, NULL);
        EXPECT(&d, NULL, k.lv, BLVL_E_SYMBOLS, "materials[0].baked 1000000");
        EXPECT(&d, NULL, k.lv, BLVL_E_SYMBOLS, "(material-baked-range)");
        e.materials[0].baked = NONE;
        EXPECT(&d, NULL, k.lv, BLVL_OK, NULL);
        e.materials[0].baked = baked;

        /* another version: refused before anything else (even a broken invariant or level) */
        raw_opts v2 = {2, false};
        EXPECT(&d, &v2, k.lv, BLVL_E_SYMBOLS_VERSION, "version 2");
        raw_opts v0 = {0, false};
        EXPECT(&d, &v0, NULL, BLVL_E_SYMBOLS_VERSION, "symbols-version: ");
        e.runs[0].first_tri = 5;
        d.level[0] ^= 1;
        EXPECT(&d, &v2, k.lv, BLVL_E_SYMBOLS_VERSION, NULL);
        e.runs[0].first_tri = 0;

        /* another level: stale (before the invariants), unless asked to read it anyway */
        EXPECT(&d, NULL, k.lv, BLVL_E_SYMBOLS_STALE, "symbols-stale: the .bsym names level ");
        d.collider_count--;
        EXPECT(&d, NULL, k.lv, BLVL_E_SYMBOLS_STALE, NULL);
        d.collider_count++;
        size_t size = 0;
        raw_opts v1 = {1, false};
        uint8_t *bytes = raw_build(&d, &v1, &size);
        blvl_symbols *st = NULL;
        CHECK_EQ_INT(
            blvl_symbols_open_memory(&st, bytes, size, k.lv, BLVL_SYMBOLS_READ_STALE, NULL, &err),
            BLVL_OK);
        blvl_symbols_info si;
        blvl_symbols_get_info(st, &si);
        CHECK(si.stale && !si.checked && si.triangles == 0);
        CHECK_EQ_INT(si.colliders, info.colliders);
        blvl_symbols_free(st);
        free(bytes);
        d.level[0] ^= 1;

        raw_opts nolevel = {1, true};
        EXPECT(&d, &nolevel, NULL, BLVL_E_SYMBOLS, "(level-identity)");
    }
    /* bytes that are no .bsym, or cut short */
    blvl_symbols *none = NULL;
    CHECK_EQ_INT(blvl_symbols_open_memory(&none, k.level, k.level_size, NULL, 0, NULL, &err),
                 BLVL_E_FLATBUFFER);
    CHECK_EQ_INT(
        blvl_symbols_open_memory(&none, k.symbols, k.symbols_size / 2, NULL, 0, NULL, &err),
        BLVL_E_FLATBUFFER);
    CHECK_EQ_INT(blvl_symbols_open_memory(&none, NULL, 0, NULL, 0, NULL, &err), BLVL_E_FLATBUFFER);
    CHECK(none == NULL);
    CHECK_EQ_INT(blvl_symbols_open_file(&none, "tests/data/no-such.bsym", NULL, 0, NULL, &err),
                 BLVL_E_IO);
    edit_free(&e);
    blvl_symbols_free(sym);
    blvl_close(k.lv);
    blvl_free(NULL, k.level);
    blvl_free(NULL, k.symbols);
}

/* blvl_symbols_write: what goes in comes out, strings and NONEs included. */
static void test_write_roundtrip(void) {
    const char *unk[] = {"surfaceparm nomarks", "qer_editorimage textures/x.tga"};
    uint32_t cols[] = {1, NONE, 0, 2};
    blvl_symbols_run runs[] = {{0, 2}, {4, NONE}, {9, 0}};
    blvl_symbols_source srcs[] = {{BLVL_SYMBOLS_BRUSH, 312, 0x10, 0x1, 0, 1},
                                  {BLVL_SYMBOLS_PATCH, 7, 0, 0, NONE, NONE},
                                  {9, 40, 0x80000000u, 0x2000000, 3, 0}};
    blvl_symbols_material mats[] = {
        {"textures/base/wall", "scripts/base.shader", "textures/base/wall.tga", 5, 2, unk},
        {NULL, NULL, NULL, NONE, 0, NULL}};
    blvl_symbols_data d = {{0}, cols, 4, runs, 3, srcs, 3, mats, 2};
    for (int i = 0; i < 16; i++)
        d.level[i] = (uint8_t)(0xA0 + i);
    void *out = NULL;
    size_t size = 0;
    blvl_error err;
    CHECK_EQ_INT(blvl_symbols_write(&out, &size, &d, NULL, &err), BLVL_OK);
    CHECK(out && size > 4 && memcmp(out + 4, "BSYM", 4) == 0);
    blvl_symbols *sym = NULL;
    CHECK_EQ_INT(blvl_symbols_open_memory(&sym, out, size, NULL, 0, NULL, &err), BLVL_OK);
    blvl_symbols_info info;
    blvl_symbols_get_info(sym, &info);
    CHECK_MEM(info.level, d.level, 16);
    CHECK(info.colliders == 4 && info.runs == 3 && info.sources == 3 && info.materials == 2);
    for (uint32_t i = 0; i < 4; i++)
        CHECK_EQ_INT(blvl_symbols_collider_source(sym, i), cols[i]);
    uint32_t nr = 0;
    const blvl_symbols_run *r = blvl_symbols_runs(sym, &nr);
    CHECK(nr == 3 && memcmp(r, runs, sizeof runs) == 0);
    for (uint32_t i = 0; i < 3; i++)
        CHECK(memcmp(blvl_symbols_source_at(sym, i), &srcs[i], sizeof srcs[i]) == 0);
    CHECK(blvl_symbols_source_at(sym, 3) == NULL);
    blvl_symbols_material m;
    CHECK(blvl_symbols_material_at(sym, 0, &m));
    CHECK(strcmp(m.name, mats[0].name) == 0 && strcmp(m.shader, mats[0].shader) == 0 &&
          strcmp(m.texture, mats[0].texture) == 0 && m.baked == 5 && m.unknown_count == 2);
    CHECK(m.unknown_count == 2 && strcmp(m.unknown[0], unk[0]) == 0 &&
          strcmp(m.unknown[1], unk[1]) == 0);
    CHECK(blvl_symbols_material_at(sym, 1, &m));
    CHECK(m.name && !m.name[0] && m.shader && !m.shader[0] && m.baked == NONE &&
          m.unknown_count == 0);
    CHECK(!blvl_symbols_material_at(sym, 2, &m));
    /* without a level the last run goes on */
    CHECK_EQ_INT(blvl_symbols_triangle_source(sym, 0), 2);
    CHECK_EQ_INT(blvl_symbols_triangle_source(sym, 3), 2);
    CHECK_EQ_INT(blvl_symbols_triangle_source(sym, 4), NONE);
    CHECK_EQ_INT(blvl_symbols_triangle_source(sym, 8), NONE);
    CHECK_EQ_INT(blvl_symbols_triangle_source(sym, 9), 0);
    CHECK_EQ_INT(blvl_symbols_triangle_source(sym, 1000000), 0);
    CHECK_EQ_INT(blvl_symbols_batch_source(sym, 0), NONE);
    /* describe */
    char line[256];
    size_t n = blvl_symbols_describe(sym, 0, line, sizeof line);
    CHECK(strcmp(line, "brush 312 (entity 0, material 1, contents 0x1, surface 0x10)") == 0);
    CHECK_EQ_INT(n, strlen(line));
    blvl_symbols_describe(sym, 2, line, sizeof line);
    CHECK(strcmp(line, "kind 9 40 (entity 3, material 0 textures/base/wall, contents 0x2000000, "
                       "surface 0x80000000)") == 0);
    blvl_symbols_describe(sym, 1, line, sizeof line);
    CHECK(strcmp(line, "patch 7 (entity none, material none, contents 0x0, surface 0x0)") == 0);
    blvl_symbols_describe(sym, NONE, line, sizeof line);
    CHECK(strcmp(line, "none") == 0);
    CHECK_EQ_INT(blvl_symbols_describe(sym, 0, NULL, 0), n);
    CHECK(blvl_symbols_kind_name(BLVL_SYMBOLS_PHYSICS_SHAPE) &&
          strcmp(blvl_symbols_kind_name(BLVL_SYMBOLS_PHYSICS_SHAPE), "physics-shape") == 0);
    CHECK(blvl_symbols_kind_name(5) == NULL);
    blvl_symbols_free(sym);
    if (getenv("BSYM_OUT")) /* for the shell test's independent decoders */
        CHECK_EQ_INT(test_spit(getenv("BSYM_OUT"), out, size), 0);
    blvl_free(NULL, out);

    /* the writer's own checks */
    blvl_symbols_run unsorted[] = {{0, 0}, {5, 1}, {5, 2}};
    d.runs = unsorted;
    CHECK_EQ_INT(blvl_symbols_write(&out, &size, &d, NULL, &err), BLVL_E_SYMBOLS);
    CHECK(strstr(err.message, "tri_runs[2].first_tri 5 is not above tri_runs[1].first_tri 5 "
                              "(tri-runs-sorted)") != NULL);
    d.runs = runs;
    srcs[1].material = 2;
    CHECK_EQ_INT(blvl_symbols_write(&out, &size, &d, NULL, &err), BLVL_E_SYMBOLS);
    CHECK(strstr(err.message, "sources[1].material 2 is not below the 2 materials") != NULL);
    srcs[1].material = NONE;
    CHECK_EQ_INT(blvl_symbols_write(&out, &size, NULL, NULL, &err), BLVL_E_ARGUMENT);
}

/* A level with no geometry (meta and sim from JSON): 0 triangles needs 0 runs. */
/* One 4 KiB string shared by a material's name and `shares` unknown offsets: legal FlatBuffers
 * within the verifier's visit limit, but its copy would be far larger than the file. */
static uint8_t *shared_build(uint32_t shares, size_t *size) {
    blvl_fb_builder *fb = NULL;
    CHECK_EQ_INT(blvl_fb_builder_new(&fb, NULL, NULL), BLVL_OK);
    char *text = malloc(4096);
    memset(text, 'x', 4096);
    blvl_fb_ref str = blvl_fb_create_string(fb, text, 4096);
    blvl_fb_ref *refs = malloc((shares + 1) * sizeof *refs);
    for (uint32_t i = 0; i < shares; i++)
        refs[i] = str;
    blvl_fb_ref unk = shares ? blvl_fb_create_ref_vector(fb, refs, shares) : 0;
    blvl_SymbolMaterial_start(fb);
    blvl_SymbolMaterial_add_name(fb, str);
    if (unk)
        blvl_SymbolMaterial_add_unknown(fb, unk);
    blvl_SymbolMaterial_add_baked(fb, NONE);
    blvl_fb_ref mat = blvl_SymbolMaterial_end(fb);
    blvl_fb_ref mats = blvl_fb_create_ref_vector(fb, &mat, 1);
    uint8_t level[16] = {0};
    blvl_fb_ref lv = blvl_Symbols_level_create(fb, level, 16);
    blvl_Symbols_start(fb);
    blvl_Symbols_add_level(fb, lv);
    blvl_Symbols_add_version(fb, 1);
    blvl_Symbols_add_materials(fb, mats);
    const uint8_t *p = NULL;
    CHECK_EQ_INT(blvl_Symbols_finish(fb, blvl_Symbols_end(fb), &p, size, NULL), BLVL_OK);
    uint8_t *out = malloc(*size);
    memcpy(out, p, *size);
    blvl_fb_builder_free(fb);
    free(refs);
    free(text);
    return out;
}

static void test_shared_strings(void) {
    for (uint32_t shares = 0; shares <= 256; shares += 256) {
        size_t size = 0;
        uint8_t *bytes = shared_build(shares, &size);
        blvl_symbols *sym = NULL;
        blvl_error err;
        memset(&err, 0, sizeof err);
        blvl_status st = blvl_symbols_open_memory(&sym, bytes, size, NULL, 0, NULL, &err);
        if (shares == 0) { /* the string once: read */
            CHECK_EQ_INT(st, BLVL_OK);
        } else { /* 257 copies of 4 KiB from a file of about 5 KiB: refused before the copy */
            CHECK_EQ_INT(st, BLVL_E_SYMBOLS);
            CHECK(sym == NULL && strstr(err.message, "(symbols-size)"));
        }
        blvl_symbols_free(sym);
        free(bytes);
    }
}

static void test_no_geometry(void) {
    size_t mn = 0, sn = 0;
    char *meta = (char *)test_slurp("tests/data/sections/meta.json", &mn);
    char *simj = (char *)test_slurp("tests/data/sections/sim.json", &sn);
    CHECK(meta && simj);
    if (!meta || !simj)
        return;
    blvl_error err;
    void *mb = NULL, *sb = NULL, *level = NULL;
    size_t mbs = 0, sbs = 0, ls = 0;
    CHECK_EQ_INT(blvl_section_from_json(&mb, &mbs, "meta", meta, mn, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_section_from_json(&sb, &sbs, "sim", simj, sn, NULL, &err), BLVL_OK);
    blvl_section_in in[2];
    memset(in, 0, sizeof in);
    in[0].tag = "meta";
    in[0].data = mb;
    in[0].size = mbs;
    in[1].tag = "sim";
    in[1].data = sb;
    in[1].size = sbs;
    CHECK_EQ_INT(blvl_write_memory(&level, &ls, in, 2, NULL, &err), BLVL_OK);
    blvl_level *lv = NULL;
    CHECK_EQ_INT(blvl_open_memory(&lv, level, ls, NULL, &err), BLVL_OK);
    if (lv) {
        blvl_Sim sim;
        blvl_bytes b;
        CHECK_EQ_INT(blvl_level_sim(lv, &b, &sim, &err), BLVL_OK);
        uint32_t nc = blvl_Sim_colliders_len(sim);
        blvl_bytes_free(&b);
        blvl_info li;
        blvl_get_info(lv, &li);
        uint32_t *cols = calloc(nc + 1, sizeof *cols);
        for (uint32_t i = 0; i < nc; i++)
            cols[i] = NONE;
        blvl_symbols_run run = {0, NONE};
        blvl_symbols_data d = {{0}, cols, nc, &run, 0, NULL, 0, NULL, 0};
        memcpy(d.level, li.identity, 16);
        EXPECT(&d, NULL, lv, BLVL_OK, NULL);
        d.run_count = 1;
        EXPECT(&d, NULL, lv, BLVL_E_SYMBOLS,
               "tri_runs[0].first_tri 0 is not below the 0 triangles of geometry.indices "
               "(tri-runs-cover)");
        free(cols);
        blvl_close(lv);
    }
    blvl_free(NULL, mb);
    blvl_free(NULL, sb);
    blvl_free(NULL, level);
    free(meta);
    free(simj);
}

int main(int argc, char **argv) {
    if (argc == 3)
        return pair_main(false, argv[1], argv[2]);
    if (argc == 4 && strcmp(argv[1], "--stale") == 0)
        return pair_main(true, argv[2], argv[3]);
    if (argc != 1) {
        fprintf(stderr, "usage: test_symbols_read [[--stale] LEVEL BSYM]\n");
        return 2;
    }
    test_hmap();
    test_write_roundtrip();
    test_no_geometry();
    test_shared_strings();
    return check_report("test_symbols_read");
}
