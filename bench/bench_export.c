/* glTF export speed: `bench_export LEVEL [--runs N]` exports LEVEL to a .glb in memory (with
 * the colliders) N times (default 7) and prints the median CPU and wall time of one export,
 * against a reference measured in the same run on the same level: opening it and reading +
 * inflating every core section it holds, a superset of what the export reads (digests checked,
 * nothing converted). The ratio is what the export's own work costs on top of getting the bytes.
 * docs/BENCHMARKS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "blvl/export.h"
#include "blvl/sections.h"

static int read_all(const char *path) {
    blvl_level *lv;
    blvl_error e;
    if (blvl_open_file(&lv, path, NULL, &e) != BLVL_OK) {
        fprintf(stderr, "bench_export: %s: %s\n", path, e.message);
        return 1;
    }
    const char *tag;
    for (unsigned i = 0; (tag = blvl_core_tag_at(i)) != NULL; i++) {
        blvl_bytes b;
        if (blvl_read(lv, tag, &b, &e) == BLVL_OK)
            blvl_bytes_free(&b);
    }
    blvl_close(lv);
    return 0;
}

static int export_once(const char *path, size_t *size) {
    blvl_level *lv;
    blvl_error e;
    if (blvl_open_file(&lv, path, NULL, &e) != BLVL_OK) {
        fprintf(stderr, "bench_export: %s: %s\n", path, e.message);
        return 1;
    }
    blvl_export_options xo = {0};
    xo.collision = true;
    void *glb;
    int rc = 0;
    if (blvl_export_glb(&glb, size, lv, &xo, &e) != BLVL_OK) {
        fprintf(stderr, "bench_export: %s: %s\n", path, e.message);
        rc = 1;
    } else {
        blvl_free(NULL, glb);
    }
    blvl_close(lv);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_export LEVEL [--runs N]\n");
        return 2;
    }
    int runs = 7;
    if (argc == 4 && strcmp(argv[2], "--runs") == 0)
        runs = atoi(argv[3]);
    if (runs < 1 || runs > 1000)
        runs = 7;
    double *rc = calloc((size_t)runs, sizeof *rc), *rw = calloc((size_t)runs, sizeof *rw),
           *ec = calloc((size_t)runs, sizeof *ec), *ew = calloc((size_t)runs, sizeof *ew);
    size_t size = 0;
    for (int i = 0; i < runs; i++) {
        double c0 = bench_cpu(), w0 = bench_now();
        if (read_all(argv[1]))
            return 1;
        double c1 = bench_cpu(), w1 = bench_now();
        if (export_once(argv[1], &size))
            return 1;
        double c2 = bench_cpu(), w2 = bench_now();
        rc[i] = c1 - c0, rw[i] = w1 - w0, ec[i] = c2 - c1, ew[i] = w2 - w1;
    }
    double mrc = bench_median(rc, (size_t)runs), mrw = bench_median(rw, (size_t)runs),
           mec = bench_median(ec, (size_t)runs), mew = bench_median(ew, (size_t)runs);
    printf("bench_export %s: %zu-byte .glb, median of %d runs\n", argv[1], size, runs);
    printf("  reference (open + read and inflate the sections): cpu %.3f s, wall %.3f s\n", mrc,
           mrw);
    printf("  export (open + read + convert + .glb, colliders): cpu %.3f s, wall %.3f s\n", mec,
           mew);
    printf("  ratio export / reference: cpu %.2f, wall %.2f; goal: export under 2 s\n",
           mrc > 0 ? mec / mrc : 0, mrw > 0 ? mew / mrw : 0);
    free(rc), free(rw), free(ec), free(ew);
    return mec < 2.0 ? 0 : 1;
}
