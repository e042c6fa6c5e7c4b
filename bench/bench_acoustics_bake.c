/* The acoustics step's cost (docs/BENCHMARKS.md, "Bake: the acoustics step"): bake each map
 * through the import front door on 1 and 2 threads, `runs` times each, and print the median wall
 * time of the whole bake, of the acoustics step (blvl_bake_stats.seconds_acoustics) and its
 * share, and the section's probes, edges and rooms.
 *
 *   bench_acoustics_bake [--runs N] [--pk3 DIR] MAP...
 *
 * MAP: maps/NAME.bsp in DIR's archives, or a file of any format blvl bakes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "blvl/import.h"

static int bench_map(const char *map, const char *pk3, int runs) {
    const char *out = "/tmp/bench_acoustics_bake.blvl";
    for (unsigned threads = 1; threads <= 2; threads++) {
        double wall[64], step[64];
        blvl_import_report rep;
        for (int r = 0; r < runs; r++) {
            blvl_import_options o = {0};
            o.base.threads = threads;
            const char *dirs[1] = {pk3};
            if (pk3)
                o.pk3 = dirs, o.pk3_count = 1;
            blvl_error err;
            double t0 = bench_now();
            if (blvl_import_bake_file(&rep, map, out, NULL, &o, &err) != BLVL_OK) {
                fprintf(stderr, "bench_acoustics_bake: %s: %s\n", rep.where, err.message);
                return 1;
            }
            wall[r] = bench_now() - t0;
            step[r] = rep.stats.seconds_acoustics;
        }
        double w = bench_median(wall, (size_t)runs), s = bench_median(step, (size_t)runs);
        printf("%-24s threads %u: bake %.3f s, acoustics %.3f s (%.0f%%); %u probes, %u edges, "
               "%u rooms\n",
               map, threads, w, s, 100.0 * s / w, rep.stats.acoustic_probes,
               rep.stats.acoustic_edges, rep.stats.acoustic_rooms);
    }
    unlink(out);
    return 0;
}

int main(int argc, char **argv) {
    int runs = 3, rc = 0;
    const char *pk3 = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1 || runs > 64)
                runs = 3;
        } else if (!strcmp(argv[i], "--pk3") && i + 1 < argc) {
            pk3 = argv[++i];
        } else {
            rc |= bench_map(argv[i], pk3, runs);
        }
    }
    return rc;
}
