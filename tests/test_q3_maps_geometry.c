/* Geometry of every map of OpenArena's pak1-maps.pk3, baked and read back, against the BSP
 * itself (tests/q3_geom_check.h): with patch_subdivisions 2, each drawn surface holds exactly
 * its BSP triangles (num_indexes / 3) or 2 (2 nu)(2 nv) tessellated ones; every world surface
 * the engine draws is there; the light grid's cells, counted as the engine counts them, are
 * exactly the lump's; no NaN; indices in range; lightmap UVs inside their slot; the
 * winding agrees with the compiler's normals. With the default error rule (every tenth map): the
 * same checks but the patch counts, and at least as many patch triangles as one segment a span
 * gives. Skips (77) when the maps are not installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blvl/q3.h"
#include "q3_geom_check.h"

#define PK3 "/usr/share/games/openarena/baseoa/pak1-maps.pk3"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void one(const char *name, const uint8_t *data, size_t size, bool rule) {
    q3gc r;
    /* patch_subdivisions 2: every count exact */
    int rc = q3gc_run(data, size, 2, &r);
    CHECK_EQ_INT(rc, 0);
    if (rc) {
        fprintf(stderr, "%s: bake failed\n", name);
        q3gc_free(&r);
        return;
    }
    uint64_t sum = 0;
    blvl_q3_bsp *bsp = NULL;
    blvl_error e;
    CHECK(blvl_q3_bsp_read(&bsp, data, size, NULL, &e) == BLVL_OK);
    uint32_t ns = bsp ? bsp->surface_count : 0;
    for (uint32_t i = 0; i < ns; i++)
        sum += r.tris_of[i];
    int bad = 0;
#define MAPCHECK(c)                                                                                \
    do {                                                                                           \
        CHECK(c);                                                                                  \
        if (!(c))                                                                                  \
            bad = 1;                                                                               \
    } while (0)
    MAPCHECK(r.missing == 0);
    MAPCHECK(r.count_wrong == 0);
    MAPCHECK(r.nonfinite == 0);
    MAPCHECK(r.bad_index == 0);
    MAPCHECK(r.lm_outside == 0);
    MAPCHECK(r.lm_layer_wrong == 0);
    MAPCHECK(r.got_tris == r.rep.triangles);
    MAPCHECK(sum == r.rep.triangles);
    MAPCHECK(r.want_tris <= r.rep.triangles);
    MAPCHECK(r.want_patch_tris <= r.rep.patch_triangles);
    /* at most 5% against the compiler's normals (autosprites and models with their own normals
     * disagree; a reversed winding would disagree everywhere) */
    MAPCHECK(r.wound_wrong * 20 <= r.wound_ok);
    MAPCHECK((bsp && bsp->lightmap_count > 0) == (r.lightmap_sections == 1));
    /* the grid's cell count, computed as the engine does, fits every map's lump */
    MAPCHECK(r.rep.light_grid_dropped == 0);
    MAPCHECK(bsp && (uint64_t)r.grid_cells * 8 == bsp->light_grid_size);
    printf("%-24s %7u tris (%6u patch), %5u surfaces, %3u lightmaps, winding %u/%u, "
           "grid %u cells, replaced %u%s\n",
           name, r.rep.triangles, r.rep.patch_triangles, r.rep.surfaces_drawn,
           bsp ? bsp->lightmap_count : 0, r.wound_ok, r.wound_wrong, r.grid_cells,
           r.rep.values_replaced, bad ? "  FAILED" : "");
    if (bad)
        fprintf(stderr,
                "%s: missing %u count_wrong %u nonfinite %u bad_index %u lm_outside %u "
                "lm_layer %u got %llu rep %u sum %llu want %llu\n",
                name, r.missing, r.count_wrong, r.nonfinite, r.bad_index, r.lm_outside,
                r.lm_layer_wrong, (unsigned long long)r.got_tris, r.rep.triangles,
                (unsigned long long)sum, (unsigned long long)r.want_tris);
    uint32_t fixed_patch = r.rep.patch_triangles;
    q3gc_free(&r);

    /* the error rule (every tenth map, for time): patches at least one segment a span (a
     * quarter of level 2's count) */
    if (rule) {
        rc = q3gc_run(data, size, 0, &r);
        CHECK_EQ_INT(rc, 0);
        CHECK(r.missing == 0);
        CHECK(r.count_wrong == 0);
        CHECK(r.nonfinite == 0);
        CHECK(r.bad_index == 0);
        CHECK(r.lm_outside == 0);
        CHECK(r.got_tris == r.rep.triangles);
        CHECK(4ull * r.rep.patch_triangles >= fixed_patch);
        CHECK(r.wound_wrong * 20 <= r.wound_ok);
        printf("%-24s %7u tris (%6u patch) under the error rule\n", name, r.rep.triangles,
               r.rep.patch_triangles);
        q3gc_free(&r);
    }
    blvl_q3_bsp_free(bsp);
}

int main(void) {
    FILE *f = fopen(PK3, "rb");
    if (!f) {
        printf("skip: %s not installed (openarena-081-maps)\n", PK3);
        return 77;
    }
    fclose(f);
    double t0 = now();
    blvl_q3_fs *fs = NULL;
    blvl_error e;
    CHECK(blvl_q3_fs_new(&fs, NULL, &e) == BLVL_OK);
    CHECK(fs && blvl_q3_fs_add(fs, PK3, &e) == BLVL_OK);
    char **names = NULL;
    size_t count = 0;
    CHECK(fs && blvl_q3_fs_list(&names, &count, fs, "maps", ".bsp", &e) == BLVL_OK);
    CHECK(count >= 40);
    for (size_t i = 0; i < count; i++) {
        void *data = NULL;
        size_t size = 0;
        if (blvl_q3_fs_read(&data, &size, fs, names[i], &e) != BLVL_OK) {
            CHECK(0);
            continue;
        }
        one(names[i], data, size, i % 10 == 0);
        blvl_free(NULL, data);
    }
    blvl_free(blvl_q3_fs_options(fs), names);
    blvl_q3_fs_free(fs);
    printf("%zu maps in %.1f s\n", count, now() - t0);
    return check_report("test_q3_maps_geometry");
}
