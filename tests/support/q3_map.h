/* An OpenArena map baked in memory and opened, for the tests that walk real maps
 * (test_trace_maps, test_trace_plane_maps): OpenArena's pak1-maps.pk3 as the search path, the
 * map baked by the Quake 3 importer with default options, written and opened as a level. */
#ifndef BLVL_TEST_Q3_MAP_H
#define BLVL_TEST_Q3_MAP_H

#include <stddef.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/q3.h"

#define TEST_Q3_PK3 "/usr/share/games/openarena/baseoa/pak1-maps.pk3"

typedef struct test_q3_map {
    void *bsp_bytes, *level_bytes;
    size_t bsp_size, level_size;
    blvl_q3_bsp *bsp;
    blvl_bake *bake;
    blvl_level *level;
} test_q3_map;

/* The pk3 as a search path in *fs: 0, or 77 after a "skipped" line naming `test` when the maps
 * are not installed, or 1 after printing the error. */
int test_q3_maps_open(const char *test, blvl_q3_fs **fs);
/* Bakes map `name` (a path in the pk3) into *m and opens it; on failure prints the error and
 * returns it (*m then holds what was made, for test_q3_map_free). */
blvl_status test_q3_map_bake(test_q3_map *m, blvl_q3_fs *fs, const char *name);
void test_q3_map_free(test_q3_map *m);
#endif
