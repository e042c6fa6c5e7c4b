/* The .hmap bake benchmark (docs/BENCHMARKS.md): bake a generated map of 20,000 brushes
 * and 200 meshes on one core and report the time of each stage, peak memory and
 * what came out; then the same on a small map, where zstd level 19 should
 * dominate.
 *
 *   bench_bake --write FILE [--small | --rooms N --meshes N --seed S
 *                           --parts source|compiled|both --no-meta
 * --mats-after-brsh] write the generated map (tests/support/hmap_gen.c): by
 * default the benchmark's 20,000 brushes and 200 meshes; --small 4 rooms; the
 * other options write small maps of each kind (the fuzz seeds; a compiled part
 *                      gets a split BSP)
 *   bench_bake FILE [--runs N]   bake FILE N times (default 5), print medians
 *
 * Stages, each timed with CLOCK_MONOTONIC around the public calls: read
 * (blvl_hmap_read), convert (blvl_bake_new + blvl_hmap_bake), model -> sections
 * (stats.seconds_model), zstd + digests (stats.seconds_compress), threads = 1.
 * The reference measured in the same run: zstd level 19 (ZSTD_compress, one
 * call per section) over the raw bytes of the sections the bake wrote, so the
 * compress stage can be compared with zstd itself. Peak RSS is getrusage's
 * ru_maxrss of this process (the map file's bytes included), with the value
 * before the first bake beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <zstd.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/hmap.h"
#include "support/hmap_gen.h"
#include "bench_util.h"

static int write_map(const char *path, int argc, char **argv) {
    hmap_gen_opts o = {.seed = 2026, .parts = HMAP_GEN_SOURCE, .units_per_meter = 32};
    o.rooms = 1000; /* about 11,000 brushes of rooms; props fill up to 20,000 */
    o.meshes = 200;
    o.min_brushes = 20000;
    for (int i = 0; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(argv[i], "--small") == 0) {
            o.rooms = 4, o.meshes = 4, o.min_brushes = 0;
        } else if (strcmp(argv[i], "--rooms") == 0) {
            o.rooms = (uint32_t)atoi(v), o.meshes = 0, o.min_brushes = 0, o.units_per_meter = 0;
            i++;
        } else if (strcmp(argv[i], "--meshes") == 0) {
            o.meshes = (uint32_t)atoi(v);
            i++;
        } else if (strcmp(argv[i], "--no-meta") == 0) {
            o.no_meta = true;
        } else if (strcmp(argv[i], "--mats-after-brsh") == 0) {
            o.mats_after_brsh = true;
        } else if (strcmp(argv[i], "--seed") == 0) {
            o.seed = (uint64_t)atoll(v);
            i++;
        } else if (strcmp(argv[i], "--parts") == 0) {
            o.parts = strcmp(v, "compiled") == 0 ? HMAP_GEN_COMPILED
                      : strcmp(v, "both") == 0   ? HMAP_GEN_SOURCE | HMAP_GEN_COMPILED
                                                 : HMAP_GEN_SOURCE;
            o.bsp_split = (o.parts & HMAP_GEN_COMPILED) != 0;
            i++;
        }
    }
    hmap_gen g;
    if (hmap_gen_build(&o, &g) != 0) {
        fprintf(stderr, "bench_bake: out of memory\n");
        return 1;
    }
    void *bytes = NULL;
    size_t size = 0;
    blvl_error err;
    if (blvl_hmap_write(&bytes, &size, &g.map, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "bench_bake: %s\n", err.message);
        hmap_gen_free(&g);
        return 1;
    }
    FILE *f = fopen(path, "wb");
    int rc = !f || fwrite(bytes, 1, size, f) != size;
    if (f && fclose(f) != 0)
        rc = 1;
    if (rc)
        fprintf(stderr, "bench_bake: cannot write %s\n", path);
    else
        printf("bench_bake: wrote %s: %u brushes, %u meshes, %u entities, %.1f MiB\n", path,
               g.map.brush_count, g.map.mesh_count, g.map.entity_count, (double)size / (1 << 20));
    blvl_free(NULL, bytes);
    hmap_gen_free(&g);
    return rc;
}

/* zstd -19 over each section's raw bytes, one call per section: seconds, packed
 * bytes. */
static double reference_zstd(const void *level, size_t size, size_t *raw, size_t *packed) {
    blvl_level *lv;
    blvl_error err;
    *raw = *packed = 0;
    if (blvl_open_memory(&lv, level, size, NULL, &err) != BLVL_OK)
        return -1;
    double t = 0;
    for (uint32_t i = 0; i < blvl_count(lv); i++) {
        blvl_bytes b;
        if (blvl_read(lv, blvl_entry_at(lv, i)->tag, &b, &err) != BLVL_OK)
            continue;
        size_t cap = ZSTD_compressBound(b.size);
        void *dst = malloc(cap);
        if (dst) {
            double t0 = bench_now();
            size_t n = ZSTD_compress(dst, cap, b.data, b.size, 19);
            t += bench_now() - t0;
            if (!ZSTD_isError(n))
                *packed += n;
            *raw += b.size;
        }
        free(dst);
        blvl_bytes_free(&b);
    }
    blvl_close(lv);
    return t;
}

static int bake_map(const char *path, int runs) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench_bake: cannot open %s\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = len > 0 ? malloc((size_t)len) : NULL;
    if (!data || fread(data, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "bench_bake: cannot read %s\n", path);
        fclose(f);
        free(data);
        return 1;
    }
    fclose(f);
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = 1;
    long rss0 = bench_peak_kib();
    double t_read[64], t_conv[64], t_model[64], t_zstd[64], t_total[64], t_ours[64];
    double c_read[64], c_conv[64], c_write[64], c_total[64];
    if (runs > 64)
        runs = 64;
    blvl_bake_stats st;
    memset(&st, 0, sizeof st);
    void *level = NULL;
    size_t level_size = 0, sym_size = 0;
    for (int r = 0; r < runs; r++) {
        blvl_error err;
        blvl_hmap *m = NULL;
        blvl_bake *b = NULL;
        void *lv = NULL, *sym = NULL;
        size_t lsz = 0, ssz = 0;
        double t0 = bench_now(), u0 = bench_cpu();
        if (blvl_hmap_read(&m, data, (size_t)len, &opt, &err) != BLVL_OK) {
            fprintf(stderr, "bench_bake: %s: %s\n", path, err.message);
            free(data);
            return 1;
        }
        double t1 = bench_now(), u1 = bench_cpu();
        blvl_status s = blvl_bake_new(&b, &opt, &err);
        if (s == BLVL_OK)
            s = blvl_hmap_bake(m, b, &err);
        double t2 = bench_now(), u2 = bench_cpu();
        if (s == BLVL_OK)
            s = blvl_bake_write_memory(b, &lv, &lsz, &sym, &ssz, &st, &err);
        double t3 = bench_now(), u3 = bench_cpu();
        c_read[r] = u1 - u0;
        c_conv[r] = u2 - u1;
        c_write[r] = u3 - u2;
        c_total[r] = u3 - u0;
        blvl_bake_free(b);
        blvl_hmap_free(m);
        if (s != BLVL_OK) {
            fprintf(stderr, "bench_bake: %s: %s\n", path, err.message);
            free(data);
            return 1;
        }
        t_read[r] = t1 - t0;
        t_conv[r] = t2 - t1;
        t_model[r] = st.seconds_model;
        t_zstd[r] = st.seconds_compress;
        t_total[r] = t3 - t0;
        t_ours[r] = t_total[r] - st.seconds_compress;
        blvl_free(&opt, sym);
        if (r == runs - 1) {
            level = lv;
            level_size = lsz;
            sym_size = ssz;
        } else {
            blvl_free(&opt, lv);
        }
    }
    long rss1 = bench_peak_kib();
    size_t raw = 0, packed = 0;
    double ref = reference_zstd(level, level_size, &raw, &packed);
    double total = bench_median(t_total, runs), zstd = bench_median(t_zstd, runs);
    double rd = bench_median(t_read, runs), cv = bench_median(t_conv, runs),
           md = bench_median(t_model, runs);
    double ours = bench_median(t_ours, runs);
    printf("bench_bake: %s (%.1f MiB), threads 1, median of %d\n", path, (double)len / (1 << 20),
           runs);
    printf("  colliders %u, planes %u (%.2f per collider), triangles %u, batches "
           "%u, "
           "materials %u, entities %u\n",
           st.colliders, st.planes, st.colliders ? (double)st.planes / st.colliders : 0.0,
           st.triangles, st.batches, st.materials, st.entities);
    printf("  level %.2f MiB (%.2f MiB raw sections), symbols %.2f MiB\n",
           (double)level_size / (1 << 20), (double)raw / (1 << 20), (double)sym_size / (1 << 20));
    printf("  stage                 wall       share   (CPU time of the process)\n");
    printf("  bake total            %8.4f s          (%8.4f s)\n", total,
           bench_median(c_total, runs));
    printf("    read                %8.4f s  %5.1f %%  (%8.4f s)\n", rd, 100 * rd / total,
           bench_median(c_read, runs));
    printf("    convert             %8.4f s  %5.1f %%  (%8.4f s)\n", cv, 100 * cv / total,
           bench_median(c_conv, runs));
    printf("    model -> sections   %8.4f s  %5.1f %%\n", md, 100 * md / total);
    printf("    zstd + digests      %8.4f s  %5.1f %%\n", zstd, 100 * zstd / total);
    printf("    (write: model + zstd, CPU %8.4f s)\n", bench_median(c_write, runs));
    printf("  everything but zstd   %8.4f s  (goal < 1 s: %s)\n", ours,
           ours < 1.0 ? "met" : "NOT met");
    printf("  reference: zstd -19 of the same raw sections %8.4f s (%.2f MiB -> "
           "%.2f MiB); "
           "ratio zstd stage / reference %.2f\n",
           ref, (double)raw / (1 << 20), (double)packed / (1 << 20), ref > 0 ? zstd / ref : 0);
    printf("  peak RSS %.1f MiB (%.1f MiB before the first bake)\n", rss1 / 1024.0, rss0 / 1024.0);
    blvl_free(&opt, level);
    free(data);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "--write") == 0)
        return write_map(argv[2], argc - 3, argv + 3);
    if (argc >= 2 && argv[1][0] != '-') {
        int runs = 5;
        if (argc >= 4 && strcmp(argv[2], "--runs") == 0)
            runs = atoi(argv[3]);
        return bake_map(argv[1], runs < 1 ? 1 : runs);
    }
    fprintf(stderr, "usage: bench_bake --write FILE [--small] | bench_bake FILE "
                    "[--runs N]\n");
    return 2;
}
