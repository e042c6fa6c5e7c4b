/* A game server's use of the runtime: open a level, read its sim section, and sweep a box
 * through the world. Only the runtime API (open, read, trace); no importer, no HTTP.
 *
 *   examples/server LEVEL.blvl X0 Y0 Z0 X1 Y1 Z1
 *
 * sweeps a 32 x 56 x 32 box (a player's hull, half-extents 16 28 16) from the first point to
 * the second and prints where it stops. Build: cc server.c $(pkg-config --cflags --libs blvl) */
#include <stdio.h>
#include <stdlib.h>

#include "blvl/sections.h"
#include "blvl/sections/registry.h"
#include "blvl/trace.h"

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: server LEVEL.blvl X0 Y0 Z0 X1 Y1 Z1\n");
        return 2;
    }
    float from[3], to[3];
    for (int i = 0; i < 3; i++) {
        from[i] = strtof(argv[2 + i], NULL);
        to[i] = strtof(argv[5 + i], NULL);
    }
    blvl_error err;
    blvl_level *level = NULL;
    blvl_trace_world *world = NULL;
    blvl_bytes sec = {0};
    blvl_Sim sim;
    int rc = 1;
    /* open: the header and table are checked; sections are read (and their digests checked)
     * when asked for */
    if (blvl_open_file(&level, argv[1], NULL, &err) != BLVL_OK)
        goto fail;
    /* read: the sim section, verified, as a typed table */
    if (blvl_level_sim(level, &sec, &sim, &err) != BLVL_OK)
        goto fail;
    printf("sim: %u colliders, %u spawns, %u doors\n", blvl_Sim_colliders_len(sim),
           blvl_Sim_spawns_len(sim), blvl_Sim_doors_len(sim));
    /* trace: the collision world built once, then any number of sweeps */
    if (blvl_trace_world_from_level(&world, level, NULL, &err) != BLVL_OK)
        goto fail;
    const float mins[3] = {-16, -28, -16}, maxs[3] = {16, 28, 16};
    blvl_trace_result r;
    blvl_trace_box(world, NULL, from, to, mins, maxs, &r);
    printf("box stops at fraction %.6g (%.3f %.3f %.3f)%s\n", r.fraction, r.endpos[0], r.endpos[1],
           r.endpos[2], r.collider == BLVL_TRACE_NONE ? "" : ", on a collider");
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "server: %s: %s\n", argv[1], err.message);
done:
    blvl_trace_world_free(world);
    blvl_bytes_free(&sec);
    blvl_close(level);
    return rc;
}
