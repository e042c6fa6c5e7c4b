/* One counting allocator under every library call the suite exercises: open, read, verify,
 * write, the streaming writer, edit, rewrite, the streaming reader, the sections layer, JSON,
 * the FlatBuffers builder and trace, on success and on refusal, and under failure injection
 * (the allocator says no at the n-th call, for every n).
 *
 * What it proves:
 *  - every byte handed out comes back, with the size it was allocated with (live count and
 *    live bytes return to 0; a free with the wrong size is counted);
 *  - no library allocation bypasses the allocator: this program is linked with
 *    -Wl,--wrap=malloc,... so every call the library's own objects (linked in statically) make
 *    to the C allocator lands in the __wrap_ functions (tests/support/wrap/counting_alloc.c),
 *    which count it while a custom allocator is in use. The same wrap sees the calls when no
 * allocator is set, so the test would notice a bypass (checked below);
 *  - zstd's contexts come from the allocator: libzstd is a shared library whose own malloc calls
 *    the wrap cannot see, so the test checks that the allocations a zstd decoder or encoder
 *    needs (far larger than anything else a small read makes) reach the counting allocator.
 * What it does not prove: allocations inside the C library itself (pthread_create's thread
 * stacks, stdio) are not the library's and are not counted. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/acoustics.h"
#include "blvl/blvl.h"
#include "blvl/fb.h"
#include "blvl/hmap.h"
#include "blvl/sections.h"
#include "blvl/sections_builder.h"
#include "blvl/symbols.h"
#include "blvl/trace.h"
#include "check.h"
#include "files.h"
#include "support/wrap/counting_alloc.h"

static counter cnt;
static blvl_options opt;

static void reset(long fail_at) {
    atomic_store(&cnt.live, 0);
    atomic_store(&cnt.bytes, 0);
    atomic_store(&cnt.calls, 0);
    atomic_store(&cnt.wrong_size, 0);
    atomic_store(&cnt.largest, 0);
    cnt.fail_at = fail_at;
}

/* Every byte back, each with its size, and nothing past the allocator. */
static void all_returned(const char *what) {
    if (atomic_load(&cnt.live) || atomic_load(&cnt.bytes) || atomic_load(&cnt.wrong_size) ||
        atomic_load(&bypass))
        fprintf(stderr, "%s: live %ld, bytes %ld, wrong sizes %ld, bypasses %ld\n", what,
                atomic_load(&cnt.live), atomic_load(&cnt.bytes), atomic_load(&cnt.wrong_size),
                atomic_load(&bypass));
    CHECK_EQ_INT(atomic_load(&cnt.live), 0);
    CHECK_EQ_INT(atomic_load(&cnt.bytes), 0);
    CHECK_EQ_INT(atomic_load(&cnt.wrong_size), 0);
    CHECK_EQ_INT(atomic_load(&bypass), 0);
}

/* ---- inputs (made before arming) -------------------------------------------------------- */

static char *meta_json, *sim_json;
static size_t meta_len, sim_len;
static uint8_t *hmap_good, *hmap_bad; /* a combined .hmap and one the reader refuses */
static size_t hmap_good_len, hmap_bad_len;
static uint8_t *big; /* incompressible (stored raw, so the run stays short), two chunks */
#define BIG ((4u << 20) + 100u)
static char dir[64];

static void inputs(void) {
    const char *src = getenv("BLVL_SRC") ? getenv("BLVL_SRC") : ".";
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/sections/meta.json", src);
    meta_json = (char *)test_slurp(path, &meta_len);
    snprintf(path, sizeof path, "%s/tests/data/sections/sim.json", src);
    sim_json = (char *)test_slurp(path, &sim_len);
    CHECK(meta_json && sim_json);
    snprintf(path, sizeof path, "%s/tests/data/hmap/good/unknown_chunks.hmap", src);
    hmap_good = test_slurp(path, &hmap_good_len);
    snprintf(path, sizeof path, "%s/tests/data/hmap/bad/bsp_tree_cycle.hmap", src);
    hmap_bad = test_slurp(path, &hmap_bad_len);
    CHECK(hmap_good && hmap_bad);
    big = malloc(BIG);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < BIG; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        big[i] = (uint8_t)x;
    }
    /* memory-backed when there is one: the edits and rewrites fsync on every run */
    snprintf(dir, sizeof dir, "%s/blvl_alloc_all.XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    CHECK(mkdtemp(dir) != NULL);
}

/* ---- the scenario: every entry point, refusals included ---------------------------------- */

static int on_event(void *user, const blvl_stream_event *ev) {
    (void)user;
    (void)ev;
    return 0;
}

static int sink_write(void *user, uint64_t off, const void *data, size_t len) {
    (void)user, (void)off, (void)data, (void)len;
    return 0;
}

/* Runs everything; returns how many calls failed (with fail_at set, some must). Frees all it
 * made whatever happened, so the counts must come back to zero either way. */
static int scenario(int strict) {
    int failures = 0;
#define TRY(call)                                                                                  \
    do {                                                                                           \
        blvl_error e_;                                                                             \
        blvl_status s_ = (call);                                                                   \
        (void)e_;                                                                                  \
        if (s_ != BLVL_OK) {                                                                       \
            failures++;                                                                            \
            if (strict)                                                                            \
                fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #call);                         \
        }                                                                                          \
    } while (0)
    blvl_error err;
    char path[128], path2[128];
    snprintf(path, sizeof path, "%s/a.blvl", dir);
    snprintf(path2, sizeof path2, "%s/b.blvl", dir);
    void *meta = NULL, *sim = NULL, *file = NULL;
    size_t nmeta = 0, nsim = 0, nfile = 0;
    char *json = NULL;
    size_t njson;
    TRY(blvl_section_from_json(&meta, &nmeta, "meta", meta_json, meta_len, &opt, &err));
    TRY(blvl_section_from_json(&sim, &nsim, "sim", sim_json, sim_len, &opt, &err));
    if (!meta || !sim)
        goto out;
    if (blvl_section_to_json(&json, &njson, "sim", sim, nsim, 2, &opt, &err) == BLVL_OK)
        blvl_free(&opt, json);
    else
        failures++;
    TRY(blvl_section_verify_bytes("meta", meta, nmeta, &opt, &err));
    /* refusals: bad JSON, bytes that are no FlatBuffer */
    if (blvl_section_from_json(&file, &nfile, "sim", "{\"colliders\": 7}", 16, &opt, &err) ==
        BLVL_OK) {
        CHECK(0);
        blvl_free(&opt, file);
    }
    file = NULL;
    CHECK(blvl_section_verify_bytes("sim", "xx", 2, &opt, &err) != BLVL_OK);

    blvl_section_in secs[4] = {{"meta", 0, 0, meta, nmeta},
                               {"sim", 0, 0, sim, nsim},
                               {"x.big", 0, 0, big, BIG},
                               {"x.small", 0, 0, meta_json, meta_len}};
    TRY(blvl_sections_check(secs, 4, &opt, &err));
    TRY(blvl_write_memory(&file, &nfile, secs, 4, &opt, &err));
    blvl_section_in bad = {"Bad Tag", 0, 0, "x", 1};
    void *nofile = NULL;
    size_t nnofile;
    CHECK(blvl_write_memory(&nofile, &nnofile, &bad, 1, &opt, &err) != BLVL_OK);
    if (!file)
        goto out;

    /* reading */
    blvl_level *lv = NULL;
    if (blvl_open_memory(&lv, file, nfile, &opt, &err) == BLVL_OK) {
        blvl_bytes b;
        long before = atomic_load(&cnt.largest);
        atomic_store(&cnt.largest, 0);
        if (blvl_read(lv, "x.small", &b, &err) == BLVL_OK) {
            /* a few KiB of JSON text, compressed: an allocation past 64 KiB is zstd's decoder */
            if (strict)
                CHECK(atomic_load(&cnt.largest) > 64 * 1024);
            blvl_bytes_free(&b);
        } else {
            failures++;
        }
        if (atomic_load(&cnt.largest) < before)
            atomic_store(&cnt.largest, before);
        TRY(blvl_read(lv, "x.big", &b, &err));
        blvl_bytes_free(&b);
        TRY(blvl_read_packed(lv, "x.big", &b, &err));
        blvl_bytes_free(&b);
        CHECK(blvl_read(lv, "nope", &b, &err) == BLVL_E_NOT_FOUND);
        TRY(blvl_verify(lv, &err));
        TRY(blvl_sections_verify(lv, &err));
        blvl_Sim root;
        if (blvl_level_sim(lv, &b, &root, &err) == BLVL_OK)
            blvl_bytes_free(&b);
        else
            failures++;
        blvl_trace_world *w = NULL;
        TRY(blvl_trace_world_from_level(&w, lv, &(blvl_trace_options){.base = opt}, &err));
        if (w) {
            blvl_trace_doors *d = NULL;
            TRY(blvl_trace_doors_new(&d, w, &err));
            blvl_trace_doors_free(d);
        }
        blvl_trace_world_free(w);
        blvl_close(lv);
    } else {
        failures++;
    }
    /* a refused level: the table digest broken */
    ((uint8_t *)file)[30] ^= 1;
    lv = NULL;
    CHECK(blvl_open_memory(&lv, file, nfile, &opt, &err) != BLVL_OK);
    ((uint8_t *)file)[30] ^= 1;

    /* streaming reader, with the sections check */
    blvl_stream *s = NULL;
    if (blvl_stream_new(&s, on_event, NULL, &opt, &err) == BLVL_OK) {
        TRY(blvl_stream_want(s, "sim", &err));
        TRY(blvl_sections_stream_check(s, &err));
        for (size_t at = 0; at < nfile; at += 100000)
            blvl_stream_feed(s, file + at, nfile - at < 100000 ? nfile - at : 100000, &err);
        TRY(blvl_stream_finish(s, &err));
        blvl_stream_free(s);
    } else {
        failures++;
    }
    s = NULL;
    if (blvl_stream_new(&s, on_event, NULL, &opt, &err) == BLVL_OK) { /* truncated: refused */
        blvl_stream_feed(s, file, nfile / 2, &err);
        CHECK(blvl_stream_finish(s, &err) != BLVL_OK);
        blvl_stream_free(s);
    }

    /* files: write, open, edit, rewrite */
    TRY(blvl_write_file(path, secs, 4, &opt, &err));
    lv = NULL;
    if (blvl_open_file(&lv, path, &opt, &err) == BLVL_OK) {
        blvl_bytes b;
        TRY(blvl_read(lv, "x.big", &b, &err));
        blvl_bytes_free(&b);
        blvl_close(lv);
    } else {
        failures++;
    }
    CHECK(blvl_open_file(&lv, "/nonexistent/x.blvl", &opt, &err) != BLVL_OK);
    TRY(blvl_edit_put(path, "x.note", 1, "hello", 5, &opt, &err));
    TRY(blvl_edit_drop(path, "x.note", &opt, &err));
    CHECK(blvl_edit_put(path, "sim", 0, "x", 1, &opt, &err) != BLVL_OK);
    TRY(blvl_rewrite_file(path, path2, NULL, NULL, &opt, &err));
    blvl_section_in put = {"x.put", 0, 0, big, 70000};
    const char *drop[] = {"x.small"};
    TRY(blvl_rewrite_edit_file(path, path, NULL, NULL, &put, 1, drop, 1, &opt, &err));
    CHECK(blvl_rewrite_edit_file(path, path2, NULL, NULL, NULL, 0, (const char *[]){"sim"}, 1, &opt,
                                 &err) != BLVL_OK);

    /* the streaming writer: file, memory (aborted), sink */
    blvl_writer *wr = NULL;
    if (blvl_writer_open_file(&wr, path2, 2, &opt, &err) == BLVL_OK) {
        blvl_status st = blvl_writer_begin(wr, "x.a", 0, 0, &err);
        if (st == BLVL_OK)
            st = blvl_writer_append(wr, big, BIG / 2, &err);
        if (st == BLVL_OK)
            st = blvl_writer_append(wr, big + BIG / 2, BIG / 2, &err);
        if (st == BLVL_OK)
            st = blvl_writer_end(wr, &err);
        if (st != BLVL_OK) {
            failures++;
            blvl_writer_abort(wr);
        } else {
            TRY(blvl_writer_commit(wr, &err));
        }
    } else {
        failures++;
    }
    wr = NULL;
    if (blvl_writer_open_memory(&wr, 1, &opt, &err) == BLVL_OK) {
        blvl_writer_add(wr, "x.a", 0, 0, big, 1000, &err);
        blvl_writer_abort(wr);
    } else {
        failures++;
    }
    blvl_sink sink = {sink_write, NULL};
    wr = NULL;
    if (blvl_writer_open_sink(&wr, &sink, 1, &opt, &err) == BLVL_OK) {
        if (blvl_writer_add(wr, "x.a", 0, 0, big, 1000, &err) == BLVL_OK)
            TRY(blvl_writer_commit(wr, &err));
        else
            blvl_writer_abort(wr), failures++;
    } else {
        failures++;
    }

    /* the FlatBuffers builder */
    blvl_fb_builder *fb = NULL;
    if (blvl_fb_builder_new(&fb, &opt, &err) == BLVL_OK) {
        blvl_fb_ref name = blvl_fb_create_string(fb, "level", 5);
        blvl_Meta_start(fb);
        blvl_Meta_add_name(fb, name);
        blvl_fb_ref r = blvl_Meta_end(fb);
        const uint8_t *d;
        size_t n;
        TRY(blvl_Meta_finish(fb, r, &d, &n, &err));
        blvl_fb_builder_free(fb);
    } else {
        failures++;
    }

    /* trace from descriptions: a box hull */
    blvl_trace_collider_desc c;
    blvl_trace_collider_desc_init(&c);
    static const blvl_Vec3 v[8] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                   {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
    static const uint32_t sizes[6] = {4, 4, 4, 4, 4, 4};
    static const uint32_t idx[24] = {0, 2, 6, 4, 1, 5, 7, 3, 0, 4, 5, 1,
                                     2, 3, 7, 6, 0, 1, 3, 2, 4, 6, 7, 5};
    c.shape = BLVL_TRACE_SHAPE_HULL;
    c.vertices = v;
    c.vertex_count = 8;
    c.face_sizes = sizes;
    c.face_count = 6;
    c.face_indices = idx;
    c.face_index_count = 24;
    c.hi = (blvl_Vec3){1, 1, 1};
    blvl_trace_world *w = NULL;
    TRY(blvl_trace_world_new(&w, &c, 1, &(blvl_trace_options){.base = opt}, &err));
    blvl_trace_world_free(w);

    /* the acoustics query: a two-probe section, a path with a scratch of its own and without */
    static const char ac_json[] =
        "{\"probes\": [{\"position\": {\"x\": 0, \"y\": 0, \"z\": 0}, \"first_edge\": 0, "
        "\"room\": 0, \"enclosed\": 0, \"size_m\": 0}, {\"position\": {\"x\": 100, \"y\": 0, "
        "\"z\": 0}, \"first_edge\": 1, \"room\": 0, \"enclosed\": 0, \"size_m\": 0}], "
        "\"edges\": [{\"to\": 1, \"len_m\": 2.54, \"door\": 3, \"narrow\": false, "
        "\"reserved\": 0}, {\"to\": 0, \"len_m\": 2.54, \"door\": 3, \"narrow\": false, "
        "\"reserved\": 0}], \"rooms\": [{\"rt60_s\": 1}]}";
    void *acb = NULL;
    size_t nacb = 0;
    TRY(blvl_section_from_json(&acb, &nacb, "acoustics", ac_json, strlen(ac_json), &opt, &err));
    if (acb) {
        blvl_acoustics *ac = NULL;
        blvl_acoustics_options ao = {0};
        ao.base = opt;
        TRY(blvl_acoustics_new_memory(&ac, acb, nacb, &ao, &err));
        if (ac) {
            const float a[3] = {0, 0, 0}, b[3] = {100, 0, 0};
            blvl_acoustics_path r;
            blvl_acoustics_scratch *sc = NULL;
            TRY(blvl_acoustics_path_find(ac, a, b, NULL, NULL, &r, &err));
            TRY(blvl_acoustics_scratch_new(&sc, ac, &err));
            if (sc)
                TRY(blvl_acoustics_path_find(ac, a, b, NULL, sc, &r, &err));
            if (strict)
                CHECK(r.found && r.door_count == 1);
            blvl_acoustics_scratch_free(sc);
        }
        blvl_acoustics_free(ac);
        blvl_free(&opt, acb);
    }

    /* the .hmap reader and writer; a refused map frees what it had read */
    blvl_hmap *hm = NULL;
    TRY(blvl_hmap_read(&hm, hmap_good, hmap_good_len, &opt, &err));
    if (hm) {
        void *hout = NULL;
        size_t hn = 0;
        TRY(blvl_hmap_write(&hout, &hn, hm, &opt, &err));
        blvl_free(&opt, hout);
        blvl_hmap_free(hm);
    }
    if (blvl_hmap_read(&hm, hmap_bad, hmap_bad_len, &opt, &err) == BLVL_OK)
        failures++;

    /* the .bsym writer and reader (strings and keyword lists copied into the object) */
    {
        const char *unk[] = {"surfaceparm nodraw"};
        uint32_t cols[] = {0, BLVL_SYMBOLS_NONE};
        blvl_symbols_run runs[] = {{0, 0}, {3, BLVL_SYMBOLS_NONE}};
        blvl_symbols_source srcs[] = {{BLVL_SYMBOLS_BRUSH, 7, 0, 1, BLVL_SYMBOLS_NONE, 0}};
        blvl_symbols_material mats[] = {{"a", "scripts/a.shader", NULL, 0, 1, unk}};
        blvl_symbols_data sd = {{1}, cols, 2, runs, 2, srcs, 1, mats, 1};
        void *bs = NULL;
        size_t bn = 0;
        TRY(blvl_symbols_write(&bs, &bn, &sd, &opt, &err));
        if (bs) {
            blvl_symbols *sym = NULL;
            TRY(blvl_symbols_open_memory(&sym, bs, bn, NULL, 0, &opt, &err));
            blvl_symbols_free(sym);
            blvl_free(&opt, bs);
        }
    }

out:
    blvl_free(&opt, file);
    blvl_free(&opt, meta);
    blvl_free(&opt, sim);
    unlink(path);
    unlink(path2);
    return failures;
#undef TRY
}

int main(void) {
    inputs();
    opt.allocator = (blvl_allocator){c_alloc, c_free, &cnt};
    opt.threads = 2;

    /* the whole scenario succeeds with the allocator, and every byte comes back */
    reset(0);
    atomic_store(&armed, 1);
    CHECK_EQ_INT(scenario(1), 0);
    atomic_store(&armed, 0);
    all_returned("scenario");
    long calls = atomic_load(&cnt.calls);
    CHECK(calls > 100);
    printf("scenario: %ld allocations, all returned\n", calls);

    /* the wrap sees the C allocator when no allocator is set (so a bypass would be seen) */
    blvl_options plain = {0};
    atomic_store(&libc_calls, 0);
    void *file = NULL;
    size_t n;
    blvl_error err;
    blvl_section_in one = {"x.a", 0, 0, big, 1000};
    CHECK_EQ_INT(blvl_write_memory(&file, &n, &one, 1, &plain, &err), BLVL_OK);
    blvl_free(&plain, file);
    CHECK(atomic_load(&libc_calls) > 0);

    /* failure injection: the allocator refuses its k-th call, for every k the scenario makes
     * (every k up to 100, then strided, to keep the run short); whatever fails, everything
     * made so far is freed */
    long step = 1;
    int injected = 0;
    for (long k = 1; k <= calls; k += step) {
        reset(k);
        atomic_store(&armed, 1);
        int f = scenario(0);
        atomic_store(&armed, 0);
        if (f)
            injected++;
        char what[64];
        snprintf(what, sizeof what, "allocation %ld refused", k);
        all_returned(what);
        if (k >= 100)
            step = 1 + calls / 100;
    }
    CHECK(injected > 0);
    printf("failure injection: %d runs with a refusal, every byte returned\n", injected);
    rmdir(dir);
    free(big);
    free(meta_json);
    free(sim_json);
    free(hmap_good);
    free(hmap_bad);
    return check_report("test_alloc_all");
}
