/* The Riot bake benchmark: a level of 16 layers of 256 x 256 cells (12 floors, 2 ceilings, 2
 * between layers; 1,048,576 cells, 2,097,152 triangles before holes) baked on one core, each stage
 * timed (docs/BENCHMARKS.md, "Bake: a Riot level of 16 layers of 256 x 256 cells").
 *
 *   bench_riot [--runs N] [--side N] [--convert-only | --no-zstd]
 *     --side: cells per layer side, default 256; --convert-only: stop after convert (no model ->
 *     sections, no zstd, whose level 19 alone takes minutes), for profiling the importer;
 *     --no-zstd: convert, then model -> sections as the bake does it, each section dropped when
 *     built (bake/write.h, blvl__bake_write_dry): the whole goal, without zstd
 *
 * The level is built in memory (tests/riot_hand.h), seed 2026: each layer half terraces (flat
 * steps of 64 qu, which merge into large colliders) and half rolling hills (no two cells on one
 * plane), random divisions, eight textures in 4 x 4 cell patches, 0.5 % holes and 0.5 % invisible
 * triangles. Stages, CLOCK_MONOTONIC around the public calls, threads = 1: write (blvl_riot_write,
 * zlib deflate of every layer), read (blvl_riot_read: SRSC, records, inflate), convert
 * (blvl_bake_new + blvl_riot_bake), model -> sections (stats.seconds_model), zstd + digests
 * (stats.seconds_compress). The goal (under 1 s) is read + convert + model. With --no-zstd each
 * run also prints its page faults and kernel CPU: a run's first touches of fresh memory, which
 * the first run of a process pays in full (docs/BENCHMARKS.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../tests/riot_hand.h"
#include "bake/write/write.h"
#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/riot.h"
#include "bench_util.h"

static uint64_t rng = 2026;
static uint32_t urand(uint32_t n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

/* FNV-1a of the baked bytes: old and new code compared on the same level */
static uint64_t fnv(const void *p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ ((const uint8_t *)p)[i]) * 1099511628211ull;
    return h;
}

static uint32_t SIDE = 256; /* cells per layer side; --side N for smaller levels */

static void build(blvl_riot_level *lv, uint64_t *solid_tris, uint64_t *drawn_tris) {
    memset(lv, 0, sizeof *lv);
    lv->name = riot_hand_str("Bench");
    lv->max_width = lv->max_height = 4 * SIDE;
    lv->layers_unknown = 1;
    lv->dbref_count = 2;
    lv->dbrefs = riot_hand_calloc(2, sizeof *lv->dbrefs);
    lv->dbrefs[0] = (blvl_riot_dbref){1, 0, riot_hand_str("textures/Terrain.rrc")};
    lv->dbrefs[1] = (blvl_riot_dbref){2, 0, riot_hand_str("textures/Rock.rrc")};
    lv->layer_count = 16;
    lv->layers = riot_hand_calloc(16, sizeof *lv->layers);
    *solid_tris = *drawn_tris = 0;
    for (uint32_t i = 0; i < 16; i++) {
        blvl_riot_layer *l = &lv->layers[i];
        uint32_t type = i < 12 ? 0 : i < 14 ? 1 : 2;
        float wh = type == 0 ? 0.0f : type == 1 ? 65536.0f : 32768.0f;
        riot_hand_layer(l, 100 + i, type, SIDE, SIDE, SIDE * (i % 4), SIDE * (i / 4), wh, 0);
        l->light_direction = 0.7f;
        l->light_ascension = 0.9f;
        l->ambient_color = (blvl_riot_color){40, 40, 48, 0};
        l->light_color = (blvl_riot_color){200, 190, 170, 0};
        for (uint32_t r = 0; r <= SIDE; r++)
            for (uint32_t c = 0; c <= SIDE; c++) {
                int h;
                if (c < SIDE / 2) /* terraces: steps of 64 qu (1024 world units = 512 raw) */
                    h = 512 * (int)(((r / 32) + (c / 48) + i) % 5);
                else
                    h = (int)(600.0 * sin(c * 0.05 + i) * cos(r * 0.07) + 37.0 * sin(r * c * 0.01));
                riot_hand_vertex(l, r, c)->raw_height = (uint16_t)(0x8000 + h);
                riot_hand_vertex(l, r, c)->type = (uint8_t)(h < -400 ? 3 : 0);
            }
        for (uint32_t r = 0; r < SIDE; r++)
            for (uint32_t c = 0; c < SIDE; c++) {
                blvl_riot_cell *cell = riot_hand_cell(l, r, c);
                cell->flags = (uint16_t)urand(2);
                uint32_t patch = ((r / 4) * 7 + (c / 4) * 3) % 8;
                for (int t = 0; t < 2; t++) {
                    uint32_t pick = urand(200);
                    cell->texture[t] = pick == 0   ? BLVL_RIOT_HOLE
                                       : pick == 1 ? BLVL_RIOT_INVISIBLE
                                                   : (1u + patch / 4) << 16 | (patch % 4);
                    *solid_tris += cell->texture[t] != BLVL_RIOT_HOLE;
                    *drawn_tris += pick > 1;
                }
            }
    }
}

int main(int argc, char **argv) {
    int runs = 1;
    int convert_only = 0, no_zstd = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--side") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 8 &&
                 atoi(argv[i + 1]) <= 1024)
            SIDE = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--convert-only") == 0)
            convert_only = 1;
        else if (strcmp(argv[i], "--no-zstd") == 0)
            no_zstd = 1;
        else {
            fprintf(stderr,
                    "usage: bench_riot [--runs N] [--side 8..1024] [--convert-only | --no-zstd]\n");
            return 2;
        }
    }
    if (runs < 1)
        runs = 1;
    blvl_riot_level hand;
    uint64_t solid, drawn;
    build(&hand, &solid, &drawn);
    blvl_options opt = {0};
    opt.threads = 1;
    blvl_error err;
    void *file = NULL;
    size_t file_size = 0;
    double t0 = bench_now();
    if (blvl_riot_write(&file, &file_size, &hand, &opt, &err) != BLVL_OK) {
        fprintf(stderr, "write: %s\n", err.message);
        return 1;
    }
    double t_write = bench_now() - t0;
    riot_hand_free(&hand);
    printf("level: 16 layers of %u x %u cells, %.1f MiB as .lvl (write %.3f s), %llu solid "
           "triangles, %llu drawn; peak RSS before baking %.1f MiB\n",
           SIDE, SIDE, file_size / 1048576.0, t_write, (unsigned long long)solid,
           (unsigned long long)drawn, bench_peak_kib() / 1024.0);
    double *cpu_read = calloc((size_t)runs, sizeof(double));
    double *cpu_convert = calloc((size_t)runs, sizeof(double));
    double *cpu_model = calloc((size_t)runs, sizeof(double));
    if (!cpu_read || !cpu_convert || !cpu_model)
        return 1;
    for (int run = 0; run < runs; run++) {
        long f0, f1;
        double k0, k1;
        bench_kernel(&f0, &k0);
        double c0 = bench_cpu(), w0 = bench_now();
        blvl_riot_level *lv = NULL;
        if (blvl_riot_read(&lv, file, file_size, &opt, &err) != BLVL_OK) {
            fprintf(stderr, "read: %s\n", err.message);
            return 1;
        }
        double t_read = bench_now() - w0, c_read = bench_cpu() - c0;
        double w1 = bench_now(), c1 = bench_cpu();
        blvl_bake *b = NULL;
        if (blvl_bake_new(&b, &opt, &err) != BLVL_OK || blvl_riot_bake(lv, b, &err) != BLVL_OK) {
            fprintf(stderr, "bake: %s\n", err.message);
            return 1;
        }
        double t_convert = bench_now() - w1, c_convert = bench_cpu() - c1;
        blvl_riot_free(lv);
        cpu_read[run] = c_read;
        cpu_convert[run] = c_convert;
        if (convert_only) {
            printf("run %d: read %.3f s (CPU %.3f), convert %.3f s (CPU %.3f)\n", run + 1, t_read,
                   c_read, t_convert, c_convert);
            blvl_bake_free(b);
            continue;
        }
        if (no_zstd) {
            double c_model = 0;
            size_t bytes = 0;
            if (blvl__bake_write_dry(b, &c_model, &bytes, &err) != BLVL_OK) {
                fprintf(stderr, "model: %s\n", err.message);
                return 1;
            }
            cpu_model[run] = c_model;
            bench_kernel(&f1, &k1);
            printf(
                "run %d: read CPU %.3f, convert CPU %.3f, model -> sections CPU %.3f (%.1f MiB), "
                "all CPU %.3f (%ld page faults, kernel %.3f s); colliders %u, triangles %u\n",
                run + 1, c_read, c_convert, c_model, bytes / 1048576.0,
                c_read + c_convert + c_model, f1 - f0, k1 - k0, blvl__bake_model_collider_count(b),
                b->indices.n / 3u);
            blvl_bake_free(b);
            continue;
        }
        blvl_bake_stats stats;
        void *level = NULL, *sym = NULL;
        size_t lsz = 0, ssz = 0;
        if (blvl_bake_write_memory(b, &level, &lsz, &sym, &ssz, &stats, &err) != BLVL_OK) {
            fprintf(stderr, "write: %s\n", err.message);
            return 1;
        }
        double total = bench_now() - w0, total_cpu = bench_cpu() - c0;
        double ours = t_read + t_convert + stats.seconds_model;
        printf("run %d: colliders %u (solid triangles %llu before merging), planes %u, triangles "
               "%u in %u batches, %u materials, %u entities\n",
               run + 1, stats.colliders, (unsigned long long)solid, stats.planes, stats.triangles,
               stats.batches, stats.materials, stats.entities);
        printf("  read %.3f s (CPU %.3f), convert %.3f s (CPU %.3f), model -> sections %.3f s, "
               "zstd + digests %.3f s\n",
               t_read, c_read, t_convert, c_convert, stats.seconds_model, stats.seconds_compress);
        printf("  everything but zstd %.3f s (goal under 1 s: %s); total %.3f s wall, %.3f s CPU; "
               "level %.1f MiB, symbols %.1f MiB; peak RSS %.1f MiB; FNV-1a level %016llx, "
               "symbols %016llx\n",
               ours, ours < 1.0 ? "met" : "NOT met", total, total_cpu, lsz / 1048576.0,
               ssz / 1048576.0, bench_peak_kib() / 1024.0, (unsigned long long)fnv(level, lsz),
               (unsigned long long)fnv(sym, ssz));
        blvl_free(&opt, level);
        blvl_free(&opt, sym);
        blvl_bake_free(b);
    }
    printf("median of %d runs: read CPU %.3f s, convert CPU %.3f s, read + convert CPU %.3f s\n",
           runs, bench_median(cpu_read, (size_t)runs), bench_median(cpu_convert, (size_t)runs),
           bench_median(cpu_read, (size_t)runs) + bench_median(cpu_convert, (size_t)runs));
    if (no_zstd)
        printf("median of %d runs: model -> sections CPU %.3f s\n", runs,
               bench_median(cpu_model, (size_t)runs));
    free(cpu_read);
    free(cpu_convert);
    free(cpu_model);
    blvl_free(&opt, file);
    return 0;
}
