/* A game server's use of libblvl, linked from the trace layer and the layers under it only
 * (sections, fb, container, payload, common): no JSON, no FlatBuffers builder, no importer.
 * Opens a level, builds its collision world and sweeps a box or a ray; prints what `blvl trace`
 * prints for the same query (tests/test_link_layers.sh compares them).
 *
 *   blvl_layer_trace LEVEL X0 Y0 Z0 X1 Y1 Z1 [MINX MINY MINZ MAXX MAXY MAXZ] */
#include <stdio.h>
#include <stdlib.h>

#include "blvl/trace.h"
#include "blvl/version.h"

int main(int argc, char **argv) {
    if (argc != 8 && argc != 14) {
        fprintf(stderr, "usage: %s LEVEL X0 Y0 Z0 X1 Y1 Z1 [MINS MAXS]\n", argv[0]);
        return 2;
    }
    if (blvl_version_number() != BLVL_VERSION_NUMBER) {
        fprintf(stderr, "headers %u, library %u\n", (unsigned)BLVL_VERSION_NUMBER,
                blvl_version_number());
        return 1;
    }
    float v[12] = {0};
    for (int i = 2; i < argc; i++)
        v[i - 2] = strtof(argv[i], NULL);
    blvl_error err;
    blvl_level *level = NULL;
    blvl_trace_world *world = NULL;
    if (blvl_open_file(&level, argv[1], NULL, &err) != BLVL_OK ||
        blvl_trace_world_from_level(&world, level, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s\n", err.message);
        blvl_close(level);
        return 1;
    }
    blvl_trace_result r;
    if (argc == 14)
        blvl_trace_box(world, NULL, v, v + 3, v + 6, v + 9, &r);
    else
        blvl_trace_ray(world, NULL, v, v + 3, &r);
    printf("fraction %.9g end %.9g %.9g %.9g collider %d\n", r.fraction, r.endpos[0], r.endpos[1],
           r.endpos[2], r.collider == BLVL_TRACE_NONE ? -1 : (int)r.collider);
    blvl_trace_world_free(world);
    blvl_close(level);
    return 0;
}
