/* Reading a geometry section with 1M vertices and 3M indices: verify the FlatBuffer and copy the
 * vertex and index arrays into caller buffers, against plain memcpy of the same bytes.
 * Prints the best of N runs and the ratio memcpy_time / read_time (the goal is >= 0.5).
 * usage: bench_geometry [--runs N] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "blvl/fb.h"
#include "blvl/sections_builder.h"
#include "blvl/sections/geometry.h"
#include "bench_util.h"

#define NV 1000000u
#define NI 3000000u

int main(int argc, char **argv) {
    int runs = 20;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[++i]);
    if (runs < 1)
        runs = 1;
    blvl_Vertex *verts = malloc(NV * sizeof *verts);
    uint32_t *idx = malloc(NI * sizeof *idx);
    if (!verts || !idx)
        return 1;
    for (uint32_t i = 0; i < NV; i++) {
        float f = (float)i;
        verts[i] = (blvl_Vertex){{f, f + 1, f + 2},       {0, 1, 0},
                                 {f * 0.5f, 0},           {0, f * 0.25f},
                                 {(uint8_t)i, 2, 3, 255}, {32767, 0, 0, 32767}};
    }
    for (uint32_t i = 0; i < NI; i++)
        idx[i] = (i * 7919u) % NV;
    blvl_fb_builder *b;
    blvl_error err;
    if (blvl_fb_builder_new(&b, NULL, &err))
        return 1;
    blvl_fb_ref vr = blvl_Geometry_vertices_create(b, verts, NV);
    blvl_fb_ref ir = blvl_Geometry_indices_create(b, idx, NI);
    blvl_Geometry_start(b);
    blvl_Geometry_add_vertices(b, vr);
    blvl_Geometry_add_indices(b, ir);
    blvl_fb_ref root = blvl_Geometry_end(b);
    const uint8_t *data;
    size_t size;
    if (blvl_fb_finish(b, root, &data, &size, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    /* The section as a reader holds it: its own aligned buffer. */
    uint8_t *buf = malloc(size);
    memcpy(buf, data, size);
    blvl_fb_builder_free(b);
    blvl_Vertex *dv = malloc(NV * sizeof *dv);
    uint32_t *di = malloc(NI * sizeof *di);
    memset(dv, 0, NV * sizeof *dv); /* fault the pages in before timing */
    memset(di, 0, NI * sizeof *di);
    const size_t vbytes = NV * sizeof *dv, ibytes = NI * sizeof *di;
    double best_read = 1e9, best_copy = 1e9;
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now();
        if (blvl_Geometry_verify(buf, size, &err) != BLVL_OK) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        blvl_Geometry g = blvl_Geometry_root(buf);
        size_t nv = blvl_Geometry_vertices_copy(g, 0, dv, NV);
        size_t ni = blvl_Geometry_indices_copy(g, 0, di, NI);
        double t1 = bench_now();
        if (nv != NV || ni != NI)
            return 1;
        /* the same bytes with memcpy, from the same source */
        memcpy(dv, blvl_Geometry_vertices_vec(g).data, vbytes);
        memcpy(di, blvl_Geometry_indices_vec(g).data, ibytes);
        double t2 = bench_now();
        if (t1 - t0 < best_read)
            best_read = t1 - t0;
        if (t2 - t1 < best_copy)
            best_copy = t2 - t1;
    }
    int ok = memcmp(dv, verts, vbytes) == 0 && memcmp(di, idx, ibytes) == 0;
    double mb = (double)(vbytes + ibytes) / (1 << 20);
    printf("geometry: %u vertices (%zu B each), %u indices, section %zu bytes\n", NV,
           sizeof(blvl_Vertex), NI, size);
    printf("verify + copy: %.3f ms (%.0f MiB/s)\n", best_read * 1e3, mb / best_read);
    printf("memcpy:        %.3f ms (%.0f MiB/s)\n", best_copy * 1e3, mb / best_copy);
    printf("ratio memcpy/read: %.2f (goal >= 0.5) %s\n", best_copy / best_read,
           ok ? "data ok" : "DATA MISMATCH");
    free(buf);
    free(dv);
    free(di);
    free(verts);
    free(idx);
    return ok && best_copy / best_read >= 0.5 ? 0 : 1;
}
