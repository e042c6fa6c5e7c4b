/* A trace reports the plane it touched, on real maps: oa_rpg3dm2, oa_dm1 and ctf_inyard from
 * OpenArena's pak1-maps.pk3, baked by the Quake 3 importer; a chained walk of a million box
 * traces and rays per map from a free spot inside it, every stop checked, with the control
 * (test_trace_plane.h). Fewer traces under the sanitizers (BLVL_SANITIZED=1). Skipped (77)
 * when the maps are not installed; test_trace_plane runs the same walk on a synthetic level
 * always. */
#include <stdlib.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/q3.h"
#include "test_trace_plane.h"

#define PK3 "/usr/share/games/openarena/baseoa/pak1-maps.pk3"
static const char *const maps[] = {"maps/oa_rpg3dm2.bsp", "maps/oa_dm1.bsp", "maps/ctf_inyard.bsp"};

static void run_map(blvl_q3_fs *fs, const char *name, int traces) {
    blvl_error err;
    void *data = NULL, *lv = NULL;
    size_t size = 0, ls = 0;
    blvl_q3_bsp *bsp = NULL;
    blvl_bake *b = NULL;
    blvl_level *level = NULL;
    blvl_trace_world *w = NULL;
    blvl_q3_bake_options o = {0};
    o.map_name = name;
    if (blvl_q3_fs_read(&data, &size, fs, name, &err) != BLVL_OK ||
        blvl_q3_bsp_read(&bsp, data, size, NULL, &err) != BLVL_OK ||
        blvl_bake_new(&b, NULL, &err) != BLVL_OK ||
        blvl_q3_bake(bsp, b, NULL, &o, &err) != BLVL_OK ||
        blvl_bake_write_memory(b, &lv, &ls, NULL, NULL, NULL, &err) != BLVL_OK ||
        blvl_open_memory(&level, lv, ls, NULL, &err) != BLVL_OK ||
        blvl_trace_world_from_level(&w, level, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        CHECK(0);
    } else {
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t i = 0; i < blvl_trace_world_collider_count(w); i++) {
            float a[3], c[3];
            if (blvl_trace_world_bounds(w, i, a, c))
                for (int k = 0; k < 3; k++)
                    lo[k] = fminf(lo[k], a[k]), hi[k] = fmaxf(hi[k], c[k]);
        }
        run_world(name, w, lo, hi, traces, NULL);
    }
    blvl_trace_world_free(w);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_bake_free(b);
    blvl_q3_bsp_free(bsp);
    blvl_free(NULL, data);
}

int main(void) {
    FILE *f = fopen(PK3, "rb");
    if (!f) {
        printf("test_trace_plane_maps: skipped: %s is not installed (openarena-081-maps)\n", PK3);
        return 77;
    }
    fclose(f);
    const char *san = getenv("BLVL_SANITIZED");
    int traces = san && *san && strcmp(san, "0") ? 50000 : 1000000;
    blvl_q3_fs *fs = NULL;
    blvl_error err;
    if (blvl_q3_fs_new(&fs, NULL, &err) != BLVL_OK || blvl_q3_fs_add(fs, PK3, &err) != BLVL_OK) {
        fprintf(stderr, "test_trace_plane_maps: %s\n", err.message);
        return 1;
    }
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        run_map(fs, maps[i], traces);
    blvl_q3_fs_free(fs);
    return check_report("test_trace_plane_maps");
}
