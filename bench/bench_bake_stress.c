/* The bake's stress benchmark (issue 33 §4, §5): a 1024 x 1024 Subspace map whose every cell holds
 * a random tile, baked as a draft and as a release, and exported; each figure against its goal,
 * in one run.
 *
 * The map: every cell a tile drawn uniformly from 0..255 without 219 (a station's 6 x 6
 * footprint would make most of the map solid), a fixed seed; about 72.5 % of the cells solid
 * (1..169 walls and doors, 240..255 invisible). Each stage runs in a child process (fork), so
 * its CPU time (user + system, every thread) and peak resident set are its own (wait4):
 *   draft bake     blvl_import_bake_file with draft, 2 threads: CPU (goal < 3 s)
 *   release bake   the same without draft: CPU, and against
 *   zstd -19       libzstd at level 19 on the release level's raw sections, in the writer's
 *                  4 MiB chunks, on one thread and on two (the bake's two workers contend for
 *                  the same caches, so CPU time grows with them), the same run: release / zstd
 *                  (goal <= 1.15)
 *   peak memory    of the release bake (goal < 250 MB)
 *   glTF export    blvl_export_glb_file of the release level: its size (goal < 64 MB)
 * and the colliders the bake made against a greedy rectangle cover per kind computed here
 * (goal <= 1.1 x).
 *
 * bench_bake_stress [--dir DIR] [--write MAP.lvl]: DIR (default /tmp) holds the files made.
 * bench_bake_stress --covers MAP.lvl: only the two covers of a map of bare tile records (the
 * 200,000-tile map bench_subspace --write makes). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "bench_util.h"
#include "blvl/blvl.h"
#include "blvl/export.h"
#include "blvl/import.h"
#include "blvl/subspace.h"
#include "common/alloc.h"
#include "import/subspace/bake_internal.h"

#define G 1024u
#define CHUNK (4u << 20)

/* A cell's collider kind: 0 wall, 1 invisible, 2 + door id - 162; -1 not solid. */
static int kind(uint8_t t) {
    if (t >= 1 && t <= 161)
        return 0;
    if (t >= 162 && t <= 169)
        return 2 + (t - 162);
    if (t >= 240)
        return 1;
    return -1;
}

typedef struct cand {
    uint32_t gain;
    uint16_t x, y, w, h;
} cand;

static uint32_t fresh(const uint8_t *cov, const cand *c) {
    uint32_t n = 0;
    for (uint32_t j = 0; j < c->h; j++)
        for (uint32_t k = 0; k < c->w; k++)
            n += !cov[(size_t)(c->y + j) * G + c->x + k];
    return n;
}

static void sift_down(cand *h, size_t n, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l].gain > h[m].gain)
            m = l;
        if (r < n && h[r].gain > h[m].gain)
            m = r;
        if (m == i)
            return;
        cand t = h[i];
        h[i] = h[m], h[m] = t, i = m;
    }
}

/* The classic greedy set cover of each kind's cells by rectangles: each round takes the
 * rectangle covering the most cells not yet covered (a lazy max-heap). The candidates are the
 * maximal rectangles by their top-left cell: for each width of the cell's row run, the tallest.
 * Computed here, apart from the bake (whose cover sweeps cells in order). */
static uint32_t greedy_cover(const uint8_t *grid) {
    int8_t *k = malloc((size_t)G * G);
    uint8_t *cov = calloc((size_t)G * G, 1);
    size_t cap = (size_t)G * G * 2, n = 0;
    cand *h = malloc(cap * sizeof *h);
    for (uint32_t i = 0; i < G * G; i++)
        k[i] = (int8_t)kind(grid[i]);
    for (uint32_t y = 0; y < G; y++)
        for (uint32_t x = 0; x < G; x++) {
            size_t i = (size_t)y * G + x;
            if (k[i] < 0)
                continue;
            uint32_t run = 1, hh = G - y;
            while (x + run < G && k[i + run] == k[i])
                run++;
            for (uint32_t w = 1; w <= run; w++) {
                uint32_t d = 1;
                while (d < hh && k[i + (size_t)d * G + w - 1] == k[i])
                    d++;
                if (w > 1 && d < hh) {
                    if (n == cap)
                        h = realloc(h, (cap *= 2) * sizeof *h);
                    h[n++] = (cand){(w - 1) * hh, (uint16_t)x, (uint16_t)y, (uint16_t)(w - 1),
                                    (uint16_t)hh};
                }
                hh = d;
            }
            if (n == cap)
                h = realloc(h, (cap *= 2) * sizeof *h);
            h[n++] = (cand){run * hh, (uint16_t)x, (uint16_t)y, (uint16_t)run, (uint16_t)hh};
        }
    for (size_t i = n / 2; i-- > 0;)
        sift_down(h, n, i);
    uint32_t count = 0;
    while (n) {
        cand c = h[0];
        uint32_t g = fresh(cov, &c);
        uint32_t next = n > 1 ? h[1].gain : 0;
        if (n > 2 && h[2].gain > next)
            next = h[2].gain;
        if (g && g < next) {
            h[0].gain = g; /* stale: back in its place */
            sift_down(h, n, 0);
            continue;
        }
        h[0] = h[--n];
        sift_down(h, n, 0);
        if (!g)
            continue;
        for (uint32_t j = 0; j < c.h; j++)
            memset(cov + (size_t)(c.y + j) * G + c.x, 1, c.w);
        count++;
    }
    free(h);
    free(cov);
    free(k);
    return count;
}

/* The bake's own cover (bake_cover.c), kind by kind, as the import runs it. */
static uint32_t bake_cover(const uint8_t *grid) {
    uint8_t *mask = malloc((size_t)G * G), *scratch = malloc((size_t)G * G);
    blvl_allocator al;
    memset(&al, 0, sizeof al);
    uint32_t total = 0;
    for (int c = 0; c < 10; c++) {
        for (uint32_t i = 0; i < G * G; i++)
            mask[i] = kind(grid[i]) == c;
        ssb_rect *r = NULL;
        uint32_t n = 0, cap = 0;
        blvl_error err;
        if (blvl__import_subspace_bake_cover(mask, scratch, &al, &r, &n, &cap, &err) != BLVL_OK)
            return 0;
        total += n;
        blvl__dealloc(&al, r, (size_t)cap * sizeof *r);
    }
    free(mask);
    free(scratch);
    return total;
}

typedef struct stage {
    double cpu;
    long peak_kib;
    int ok;
} stage;

/* Runs fn(arg) in a child; its CPU and peak RSS. */
static stage run_child(int (*fn)(void *), void *arg) {
    stage s = {0};
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        int rc = fn(arg) ? 1 : 0;
        fflush(stdout); /* _exit flushes nothing */
        _exit(rc);
    }
    int status = 0;
    struct rusage ru;
    if (p < 0 || wait4(p, &status, 0, &ru) != p)
        return s;
    s.cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
            ru.ru_stime.tv_usec / 1e6;
    s.peak_kib = ru.ru_maxrss;
    s.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return s;
}

typedef struct job {
    const void *map;
    size_t map_size;
    const char *level;
    const char *glb;
    bool draft;
} job;

static int bake(void *arg) {
    job *j = arg;
    blvl_import_options io;
    memset(&io, 0, sizeof io);
    io.from = BLVL_IMPORT_SUBSPACE;
    io.base.threads = 2;
    io.draft = j->draft;
    blvl_import_report rep;
    blvl_error err;
    if (blvl_import_bake_memory(&rep, "stress.lvl", j->map, j->map_size, j->level, NULL, &io,
                                &err) != BLVL_OK) {
        fprintf(stderr, "bench_bake_stress: bake: %s\n", err.message);
        return 1;
    }
    printf("  %-13s %u colliders, %u triangles\n",
           j->draft ? "draft:" : "release:", rep.stats.colliders, rep.stats.triangles);
    return 0;
}

/* libzstd at 19 on each raw section of the level, in the writer's chunks: chunk k by worker
 * k % workers (the bake's pool hands chunks out the same way), each worker one context. */
typedef struct zwork {
    const uint8_t *const *data;
    const size_t *size;
    size_t chunks, worker, workers, packed;
} zwork;

static void *zwork_run(void *arg) {
    zwork *w = arg;
    size_t cap = ZSTD_compressBound(CHUNK);
    void *dst = malloc(cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 19);
    for (size_t k = w->worker; k < w->chunks; k += w->workers) {
        size_t r = ZSTD_compress2(cc, dst, cap, w->data[k], w->size[k]);
        w->packed += ZSTD_isError(r) ? 0 : r;
    }
    ZSTD_freeCCtx(cc);
    free(dst);
    return NULL;
}

static int zstd19_on(job *j, size_t workers) {
    blvl_level *lv = NULL;
    blvl_error err;
    if (blvl_open_file(&lv, j->level, NULL, &err) != BLVL_OK)
        return 1;
    blvl_bytes b[64];
    const uint8_t *data[4096];
    size_t size[4096], n = 0, raw = 0, packed = 0;
    uint32_t count = blvl_count(lv) < 64 ? blvl_count(lv) : 64;
    for (uint32_t i = 0; i < count; i++) {
        if (blvl_read(lv, blvl_entry_at(lv, i)->tag, &b[i], &err) != BLVL_OK)
            return 1;
        for (size_t at = 0; at < b[i].size && n < 4096; at += CHUNK, n++) {
            data[n] = b[i].data + at;
            size[n] = b[i].size - at < CHUNK ? b[i].size - at : CHUNK;
        }
        raw += b[i].size;
    }
    zwork w[2];
    pthread_t t[2];
    for (size_t k = 0; k < workers; k++) {
        w[k] = (zwork){data, size, n, k, workers, 0};
        if (k)
            pthread_create(&t[k], NULL, zwork_run, &w[k]);
    }
    zwork_run(&w[0]);
    for (size_t k = 0; k < workers; k++) {
        if (k)
            pthread_join(t[k], NULL);
        packed += w[k].packed;
    }
    printf("  zstd -19 (%zu):  %.1f MB raw sections -> %.1f MB\n", workers, raw / 1e6,
           packed / 1e6);
    for (uint32_t i = 0; i < count; i++)
        blvl_bytes_free(&b[i]);
    blvl_close(lv);
    return 0;
}

static int zstd19(void *arg) {
    return zstd19_on(arg, 1);
}

static int zstd19_two(void *arg) {
    return zstd19_on(arg, 2);
}

static int export_glb(void *arg) {
    job *j = arg;
    blvl_level *lv = NULL;
    blvl_error err;
    if (blvl_open_file(&lv, j->level, NULL, &err) != BLVL_OK)
        return 1;
    blvl_export_options xo;
    memset(&xo, 0, sizeof xo);
    blvl_status st = blvl_export_glb_file(lv, j->glb, &xo, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "bench_bake_stress: export: %s\n", err.message);
    blvl_close(lv);
    return st != BLVL_OK;
}

static long file_size(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

int main(int argc, char **argv) {
    const char *dir = "/tmp", *write = NULL, *cover_map = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--dir") == 0)
            dir = argv[i + 1];
        else if (strcmp(argv[i], "--write") == 0)
            write = argv[i + 1];
        else if (strcmp(argv[i], "--covers") == 0)
            cover_map = argv[i + 1];
    }
    uint8_t *grid = malloc((size_t)G * G);
    uint32_t *rec = malloc((size_t)G * G * 4);
    uint64_t seed = 0x5eed33ull;
    uint32_t solid = 0;
    for (uint32_t i = 0; i < G * G; i++) {
        uint32_t t = (uint32_t)(bench_rnd(&seed) * 255.0);
        t += t >= 219; /* 0..255 without 219 */
        grid[i] = (uint8_t)t;
        solid += kind(grid[i]) >= 0;
        rec[i] = (i % G) | (i / G) << 12 | t << 24; /* a bare tile record (tile 0 is skipped) */
    }
    if (cover_map) { /* the covers of another map of bare records (no station in it) */
        FILE *f = fopen(cover_map, "rb");
        uint32_t v;
        memset(grid, 0, (size_t)G * G);
        while (f && fread(&v, 4, 1, f) == 1)
            if ((v & 0xFFF) < G && (v >> 12 & 0xFFF) < G && v >> 24)
                grid[(v & 0xFFF) + (v >> 12 & 0xFFF) * G] = (uint8_t)(v >> 24);
        if (f)
            fclose(f);
        /* a station's 6 x 6 footprint is wall, whatever its cells hold */
        uint32_t *st = malloc((size_t)G * G * sizeof *st), ns = 0;
        for (uint32_t i = 0; i < G * G; i++)
            if (grid[i] == 219)
                st[ns++] = i;
        for (uint32_t s = 0; s < ns; s++)
            for (uint32_t y = st[s] / G; y < st[s] / G + 6 && y < G; y++)
                for (uint32_t x = st[s] % G; x < st[s] % G + 6 && x < G; x++)
                    grid[x + y * G] = 1;
        free(st);
        printf("%s: bake's cover %u rectangles, greedy set cover %u\n", cover_map, bake_cover(grid),
               greedy_cover(grid));
        return 0;
    }
    if (write) {
        FILE *f = fopen(write, "wb");
        if (!f || fwrite(rec, 4, (size_t)G * G, f) != (size_t)G * G || fclose(f) != 0)
            return 1;
    }
    char lvp[4096], dfp[4096], glp[4096];
    snprintf(lvp, sizeof lvp, "%s/bench_stress_%d.blvl", dir, (int)getpid());
    snprintf(dfp, sizeof dfp, "%s/bench_stress_%d.draft.blvl", dir, (int)getpid());
    snprintf(glp, sizeof glp, "%s/bench_stress_%d.glb", dir, (int)getpid());
    uint32_t greedy = greedy_cover(grid), ours = bake_cover(grid);
    printf("bench_bake_stress: %ux%u cells, every one a random tile, %u solid (%.1f %%)\n", G, G,
           solid, 100.0 * solid / (G * G));
    printf("  colliders: the bake's cover %u, the greedy set cover per kind %u: %.3f x (goal <= "
           "1.1)\n",
           ours, greedy, (double)ours / greedy);
    job j = {rec, (size_t)G * G * 4, dfp, glp, true};
    stage d = run_child(bake, &j);
    j.level = lvp;
    j.draft = false;
    stage r = run_child(bake, &j);
    stage z = run_child(zstd19, &j);
    stage z2 = run_child(zstd19_two, &j);
    stage x = run_child(export_glb, &j);
    long glb = file_size(glp), lsize = file_size(lvp), dsize = file_size(dfp);
    if (!d.ok || !r.ok || !z.ok || !z2.ok || !x.ok) {
        fprintf(stderr, "bench_bake_stress: a stage failed\n");
        return 1;
    }
    printf("  draft bake     cpu %7.2f s on 2 threads, %.1f MB level      goal < 3 s: %.2f x "
           "the goal\n",
           d.cpu, dsize / 1e6, d.cpu / 3.0);
    printf("  release bake   cpu %7.2f s on 2 threads, %.1f MB level\n", r.cpu, lsize / 1e6);
    printf("  zstd -19 alone cpu %7.2f s on the same raw sections, 1 thread; %.2f s on 2\n", z.cpu,
           z2.cpu);
    printf("  release / zstd -19        %.3f against 1 thread, %.3f against 2   goal <= 1.15\n",
           r.cpu / z.cpu, r.cpu / z2.cpu);
    printf("  peak memory    release %.0f MB, draft %.0f MB           goal < 250 MB: %.2f x\n",
           r.peak_kib / 1024.0, d.peak_kib / 1024.0, r.peak_kib / 1024.0 / 250.0);
    printf("  glTF export    %.1f MB (cpu %.2f s, peak %.0f MB)       goal < 64 MB: %.2f x\n",
           glb / 1e6, x.cpu, x.peak_kib / 1024.0, glb / 1e6 / 64.0);
    unlink(lvp);
    unlink(dfp);
    unlink(glp);
    free(grid);
    free(rec);
    return 0;
}
