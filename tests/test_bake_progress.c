/* The bake's progress through blvl_options.progress, for every importer (.hmap, Subspace, Riot,
 * Quake 3): at least one call, the total never changes once given (0: unknown, only a count),
 * done never decreases and never passes a known total, so a percentage only rises. Before issue
 * 28 the writer reported the raw bytes appended so far as the total, which grew after it was
 * shown: 0 -> 95 -> 97 -> 96 -> 95 -> 100 on a big Subspace map. One worker (the writer then
 * drains each chunk before the next section is built, so small maps show it) and two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/hmap.h"
#include "blvl/riot.h"
#include "blvl/subspace.h"
#include "check.h"
#include "files.h"
#include "q3_bsp_build.h"
#include "support/riot_gen.h"
#include "support/subspace_gen.h"

typedef struct seen {
    unsigned calls;
    uint64_t done, total;
    int bad; /* a rule broken: reported once */
} seen;

static void on_progress(void *user, uint64_t done, uint64_t total) {
    seen *s = user;
    if (!s->bad && s->calls && total != s->total) {
        fprintf(stderr, "  the total changed: %llu after %llu\n", (unsigned long long)total,
                (unsigned long long)s->total);
        s->bad = 1;
    }
    if (!s->bad && s->calls && done < s->done) {
        fprintf(stderr, "  done went back: %llu after %llu\n", (unsigned long long)done,
                (unsigned long long)s->done);
        s->bad = 1;
    }
    if (!s->bad && total && done > total) {
        fprintf(stderr, "  done %llu past the total %llu\n", (unsigned long long)done,
                (unsigned long long)total);
        s->bad = 1;
    }
    s->calls++;
    s->done = done;
    s->total = total;
}

typedef blvl_status (*fill_fn)(const void *src, blvl_bake *b, blvl_error *err);

static void check_bake(const char *what, fill_fn fill, const void *src) {
    for (unsigned threads = 1; threads <= 2; threads++) {
        seen s = {0};
        blvl_options opt = {0};
        opt.threads = threads;
        opt.progress = on_progress;
        opt.progress_user = &s;
        blvl_bake *b = NULL;
        blvl_error err;
        void *level = NULL;
        size_t size = 0;
        CHECK_EQ_INT(blvl_bake_new(&b, &opt, &err), BLVL_OK);
        blvl_status st = fill(src, b, &err);
        if (st == BLVL_OK)
            st = blvl_bake_write_memory(b, &level, &size, NULL, NULL, NULL, &err);
        if (st != BLVL_OK)
            fprintf(stderr, "%s: %s\n", what, err.message);
        CHECK_EQ_INT(st, BLVL_OK);
        if (s.bad || !s.calls)
            fprintf(stderr, "%s, %u thread(s): %u progress calls%s\n", what, threads, s.calls,
                    s.bad ? ", not monotonic" : "");
        CHECK(s.calls > 0);
        CHECK(!s.bad);
        blvl_free(&opt, level);
        blvl_bake_free(b);
    }
}

static blvl_status fill_hmap(const void *src, blvl_bake *b, blvl_error *err) {
    return blvl_hmap_bake(src, b, err);
}

static blvl_status fill_subspace(const void *src, blvl_bake *b, blvl_error *err) {
    return blvl_subspace_bake(src, b, &(blvl_subspace_options){.name = "progress"}, err);
}

static blvl_status fill_riot(const void *src, blvl_bake *b, blvl_error *err) {
    return blvl_riot_bake(src, b, err);
}

static blvl_status fill_q3(const void *src, blvl_bake *b, blvl_error *err) {
    blvl_q3_bake_options qo = {0};
    return blvl_q3_bake(src, b, NULL, &qo, err);
}

/* A Quake 3 room: a 256-unit box brush of six sides (the floor drawn as a quad), one model. */
static uint8_t *q3_room(size_t *size) {
    qb q;
    memset(&q, 0, sizeof q);
    static const char ents[] = "{\n\"classname\" \"worldspawn\"\n\"message\" \"Progress\"\n}\n"
                               "{\n\"classname\" \"info_player_deathmatch\"\n"
                               "\"origin\" \"0 0 64\"\n}\n";
    qb_put(&q, BLVL_Q3_LUMP_ENTITIES, ents, sizeof ents);
    qb_shader(&q, "textures/test/floor", 0, BLVL_Q3_CONTENTS_SOLID);
    qb_plane(&q, -1, 0, 0, 128), qb_plane(&q, 1, 0, 0, 128), qb_plane(&q, 0, -1, 0, 128);
    qb_plane(&q, 0, 1, 0, 128), qb_plane(&q, 0, 0, -1, 16), qb_plane(&q, 0, 0, 1, 0);
    for (int i = 0; i < 6; i++) {
        qb_i32(&q, BLVL_Q3_LUMP_BRUSH_SIDES, i);
        qb_i32(&q, BLVL_Q3_LUMP_BRUSH_SIDES, 0);
    }
    qb_i32(&q, BLVL_Q3_LUMP_BRUSHES, 0), qb_i32(&q, BLVL_Q3_LUMP_BRUSHES, 6);
    qb_i32(&q, BLVL_Q3_LUMP_BRUSHES, 0);
    qb_vert(&q, -128, -128, 0, 0, 0, 0, 0, 0, 0, 1);
    qb_vert(&q, -128, 128, 0, 0, 1, 0, 0, 0, 0, 1);
    qb_vert(&q, 128, 128, 0, 1, 1, 0, 0, 0, 0, 1);
    qb_vert(&q, 128, -128, 0, 1, 0, 0, 0, 0, 0, 1);
    static const int32_t idx[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; k++)
        qb_i32(&q, BLVL_Q3_LUMP_DRAW_INDEXES, idx[k]);
    qb_surface(&q, 0, -1, BLVL_Q3_MST_PLANAR, 0, 4, 0, 6, -1, 0, 0);
    const float mins[3] = {-128, -128, -16}, maxs[3] = {128, 128, 0};
    qb_model(&q, mins, maxs, 0, 1, 0, 1);
    return qb_finish(&q, size);
}

int main(void) {
    blvl_error err;

    /* .hmap: the bundled sample */
    size_t n = 0;
    uint8_t *bytes = test_slurp("tests/data/hmap/sample.hmap", &n);
    CHECK(bytes != NULL);
    blvl_hmap *hm = NULL;
    if (bytes && blvl_hmap_read(&hm, bytes, n, NULL, &err) == BLVL_OK)
        check_bake("hmap sample", fill_hmap, hm);
    else
        CHECK(0);
    blvl_hmap_free(hm);
    free(bytes);

    /* Subspace: the generator's tileset + eLVL + records, and bare records (the full map takes
     * minutes at zstd level 19; with one worker each section's chunks drain before the next
     * section is built, so a small map shows a total that grows as well as a big one) */
    const ssg_case cases[] = {SSG_BMP_RLE_ELVL, SSG_BARE};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        void *file = NULL;
        size_t size = 0;
        CHECK_EQ_INT(ssg_write(cases[i], NULL, &file, &size), BLVL_OK);
        blvl_subspace *sm = NULL;
        if (file && blvl_subspace_read(&sm, file, size, NULL, &err) == BLVL_OK)
            check_bake(ssg_case_name(cases[i]), fill_subspace, sm);
        else
            CHECK(0);
        blvl_subspace_free(sm);
        blvl_free(NULL, file);
    }

    /* Riot: a generated level with objects */
    riot_gen_opts ro = {.seed = 28, .objects = 8};
    blvl_riot_level rl;
    CHECK_EQ_INT(riot_gen_build(&ro, &rl), 0);
    check_bake("riot", fill_riot, &rl);
    riot_gen_free(&rl);

    /* Quake 3: a room built here, no search path */
    bytes = q3_room(&n);
    blvl_q3_bsp *bsp = NULL;
    if (blvl_q3_bsp_read(&bsp, bytes, n, NULL, &err) == BLVL_OK)
        check_bake("q3 room", fill_q3, bsp);
    else {
        fprintf(stderr, "q3 room: %s\n", err.message);
        CHECK(0);
    }
    blvl_q3_bsp_free(bsp);
    free(bytes);
    return check_report("test_bake_progress");
}
