/* A trace reports the plane it touched, on real maps: oa_rpg3dm2, oa_dm1 and ctf_inyard from
 * OpenArena's pak1-maps.pk3, baked by the Quake 3 importer; a chained walk of a million box
 * traces and rays per map from a free spot inside it, every stop checked, with the control
 * (test_trace_plane.h). Fewer traces under the sanitizers (BLVL_SANITIZED=1). Skipped (77)
 * when the maps are not installed; test_trace_plane runs the same walk on a synthetic level
 * always. */
#include <stdlib.h>

#include "support/q3_map.h"
#include "test_trace_plane.h"

static const char *const maps[] = {"maps/oa_rpg3dm2.bsp", "maps/oa_dm1.bsp", "maps/ctf_inyard.bsp"};

static void run_map(blvl_q3_fs *fs, const char *name, int traces) {
    test_q3_map m;
    blvl_trace_world *w = NULL;
    blvl_error err;
    if (test_q3_map_bake(&m, fs, name) != BLVL_OK) {
        CHECK(0);
    } else if (blvl_trace_world_from_level(&w, m.level, NULL, &err) != BLVL_OK) {
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
    test_q3_map_free(&m);
}

int main(void) {
    blvl_q3_fs *fs;
    int rc = test_q3_maps_open("test_trace_plane_maps", &fs);
    if (rc)
        return rc;
    const char *san = getenv("BLVL_SANITIZED");
    int traces = san && *san && strcmp(san, "0") ? 50000 : 1000000;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        run_map(fs, maps[i], traces);
    blvl_q3_fs_free(fs);
    return check_report("test_trace_plane_maps");
}
