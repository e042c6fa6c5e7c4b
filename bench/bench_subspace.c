/* The Subspace bake benchmark: a 1024 x 1024 map holding 200,000 tiles, baked on one core.
 *
 *   bench_subspace [--runs N] [--write FILE]
 *
 * The map is generated here (a fixed seed; deterministic): a border of tile 20, rooms with
 * walls one tile thick and door gaps, filled blocks, scattered single walls, patches of fly-over,
 * fly-under, safe and goal tiles, turf flags, asteroids, stations, wormholes and invisible tiles,
 * until exactly 200,000 cells hold a tile; no tileset (the default one is drawn). It is written
 * with blvl_subspace_write and each run reads it back (blvl_subspace_read), so the time is the
 * whole path of `blvl bake` but the file system.
 *
 * Stages, medians of N runs (default 5), CLOCK_MONOTONIC around the public calls, threads = 1:
 * read, convert (blvl_bake_new + blvl_subspace_bake), model -> sections (stats.seconds_model),
 * zstd + digests (stats.seconds_compress); beside each, its CPU time (the process's for read and
 * convert, stats.cpu_seconds_model for the model), which a loaded machine inflates far less. The
 * goal: read + convert + model under 0.5 s; the CPU total is the figure to compare.
 * Colliders before merging are the solid cells (one box each, as a bake without merging would
 * write); after, the level's colliders. For comparison, the same cells as boxes through the
 * bake layer's general merge (blvl_bake_merge_boxes): its count and time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/subspace.h"
#include "bench_util.h"

#define G 1024u
#define TARGET 200000u

typedef struct gen {
    uint8_t *grid;
    uint32_t *records;
    uint32_t count;
    uint64_t s;
} gen;

static uint32_t rnd(gen *g, uint32_t n) {
    g->s = g->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((g->s >> 33) % n);
}

static void put(gen *g, uint32_t t, uint32_t x, uint32_t y) {
    if (g->count >= TARGET || x >= G || y >= G || g->grid[x + y * G])
        return;
    g->grid[x + y * G] = (uint8_t)t;
    g->records[g->count++] = BLVL_SUBSPACE_RECORD(t, x, y);
}

static void fill(gen *g, uint32_t t, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    for (uint32_t j = y; j < y + h; j++)
        for (uint32_t i = x; i < x + w; i++)
            put(g, t, i, j);
}

static void generate(gen *g) {
    g->grid = calloc(G * G, 1);
    g->records = calloc(TARGET, 4);
    g->s = 2026;
    g->count = 0;
    for (uint32_t i = 0; i < G; i++) {
        put(g, 20, i, 0), put(g, 20, i, G - 1), put(g, 20, 0, i), put(g, 20, G - 1, i);
    }
    /* rooms: outlines of one wall id with a door gap on each side */
    for (int r = 0; r < 1400; r++) {
        uint32_t w = 8 + rnd(g, 32), h = 8 + rnd(g, 32), x = 1 + rnd(g, G - w - 2),
                 y = 1 + rnd(g, G - h - 2), t = 1 + rnd(g, 161);
        uint32_t gap = 2 + rnd(g, w - 4), door = 162 + rnd(g, 8);
        for (uint32_t i = x; i < x + w; i++) {
            put(g, i == x + gap ? door : t, i, y);
            put(g, t, i, y + h - 1);
        }
        for (uint32_t j = y + 1; j < y + h - 1; j++)
            put(g, t, x, j), put(g, t, x + w - 1, j);
        if (r % 7 == 0) /* some rooms hold a block */
            fill(g, 1 + rnd(g, 161), x + w / 3, y + h / 3, w / 3, h / 3);
    }
    /* patches of the other kinds */
    static const uint32_t kinds[] = {173, 176, 171, 172, 250};
    for (int r = 0; r < 400; r++)
        fill(g, kinds[r % 5] + (kinds[r % 5] == 176 ? rnd(g, 15) : 0), 1 + rnd(g, G - 12),
             1 + rnd(g, G - 12), 2 + rnd(g, 10), 2 + rnd(g, 10));
    for (int r = 0; r < 300; r++) {
        static const uint32_t objects[] = {170, 216, 217, 218, 219, 220, 200};
        put(g, objects[r % 7], 1 + rnd(g, G - 8), 1 + rnd(g, G - 8));
    }
    /* scattered walls until the target */
    while (g->count < TARGET)
        put(g, 1 + rnd(g, 161), rnd(g, G), rnd(g, G));
}

int main(int argc, char **argv) {
    int runs = 5;
    const char *write = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--write") == 0)
            write = argv[i + 1];
    }
    if (runs < 1 || runs > 64)
        runs = 5;
    gen g;
    generate(&g);
    blvl_subspace map;
    memset(&map, 0, sizeof map);
    map.records = g.records;
    map.record_count = g.count;
    blvl_error err;
    void *file = NULL;
    size_t file_size = 0;
    if (blvl_subspace_write(&file, &file_size, &map, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "bench_subspace: %s\n", err.message);
        return 1;
    }
    if (write) {
        FILE *f = fopen(write, "wb");
        if (!f || fwrite(file, 1, file_size, f) != file_size || fclose(f) != 0) {
            fprintf(stderr, "bench_subspace: cannot write %s\n", write);
            return 1;
        }
    }
    uint32_t solid = 0;
    for (uint32_t i = 0; i < G * G; i++) {
        uint32_t t = g.grid[i];
        solid += (t >= 1 && t <= 169) || t >= 240; /* walls, doors, invisible */
    }
    uint32_t stations = 0;
    for (uint32_t i = 0; i < G * G; i++)
        stations += g.grid[i] == 219;

    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = 1;
    double t_read[64], t_conv[64], t_model[64], t_zstd[64], c_read[64], c_conv[64], c_model[64],
        c_total[64];
    blvl_bake_stats st;
    memset(&st, 0, sizeof st);
    size_t level_size = 0;
    for (int r = 0; r < runs; r++) {
        blvl_subspace *m = NULL;
        blvl_bake *b = NULL;
        void *lv = NULL;
        double t0 = bench_now(), u0 = bench_cpu();
        blvl_status s = blvl_subspace_read(&m, file, file_size, &opt, &err);
        double t1 = bench_now(), u1 = bench_cpu();
        if (s == BLVL_OK)
            s = blvl_bake_new(&b, &opt, &err);
        if (s == BLVL_OK)
            s = blvl_subspace_bake(m, b, &(blvl_subspace_options){.name = "bench"}, &err);
        double t2 = bench_now(), u2 = bench_cpu();
        if (s == BLVL_OK)
            s = blvl_bake_write_memory(b, &lv, &level_size, NULL, NULL, &st, &err);
        if (s != BLVL_OK) {
            fprintf(stderr, "bench_subspace: %s\n", err.message);
            return 1;
        }
        t_read[r] = t1 - t0, c_read[r] = u1 - u0;
        t_conv[r] = t2 - t1, c_conv[r] = u2 - u1;
        t_model[r] = st.seconds_model;
        c_model[r] = st.cpu_seconds_model;
        c_total[r] = c_read[r] + c_conv[r] + c_model[r];
        t_zstd[r] = st.seconds_compress;
        blvl_free(NULL, lv);
        blvl_bake_free(b);
        blvl_subspace_free(m);
    }
    double read = bench_median(t_read, runs), conv = bench_median(t_conv, runs),
           model = bench_median(t_model, runs), zstd = bench_median(t_zstd, runs),
           cread = bench_median(c_read, runs), cconv = bench_median(c_conv, runs),
           cmodel = bench_median(c_model, runs), ctotal = bench_median(c_total, runs);

    /* the bake layer's general merge over the same cells, one box per solid cell */
    blvl_bake_box *boxes = calloc(solid, sizeof *boxes);
    size_t nb = 0;
    for (uint32_t y = 0; y < G; y++)
        for (uint32_t x = 0; x < G; x++) {
            uint32_t t = g.grid[x + y * G];
            if (!((t >= 1 && t <= 169) || t >= 240))
                continue;
            blvl_bake_box *bx = &boxes[nb++];
            bx->lo = (blvl_Vec3){16.0f * x, 0, 16.0f * y};
            bx->hi = (blvl_Vec3){16.0f * x + 16, 16, 16.0f * y + 16};
            bx->key = t <= 161 ? 0 : t <= 169 ? t : 1; /* walls, each door id, invisible */
        }
    double m0 = bench_now();
    size_t merged = blvl_bake_merge_boxes(boxes, nb);
    double m1 = bench_now();

    printf("bench_subspace: %u records on %ux%u cells (%.1f KiB file), %u solid cells, %u "
           "stations, threads 1, %d runs (medians)\n",
           g.count, G, G, file_size / 1024.0, solid, stations, runs);
    printf("  read                %8.3f s  (cpu %.3f s)\n", read, cread);
    printf("  convert             %8.3f s  (cpu %.3f s)\n", conv, cconv);
    printf("  model -> sections   %8.3f s  (cpu %.3f s)\n", model, cmodel);
    printf("  everything but zstd %8.3f s  (cpu %.3f s; goal < 0.5 s)\n", read + conv + model,
           ctotal);
    printf("  zstd + digests      %8.3f s\n", zstd);
    printf("  colliders: %u before merging (one per solid cell), %u after (stations' "
           "footprints included)\n",
           solid, st.colliders);
    printf("  blvl_bake_merge_boxes on the same cells: %zu boxes in %.3f s\n", merged, m1 - m0);
    printf("  level: %zu bytes (%.2f MiB); %u triangles, %u batches, %u materials, %u "
           "entities\n",
           level_size, level_size / 1048576.0, st.triangles, st.batches, st.materials, st.entities);
    free(boxes);
    blvl_free(NULL, file);
    free(g.grid);
    free(g.records);
    return 0;
}
