/* The acoustics query object: the section's graph copied out and checked, and a hashed grid of
 * the probes (docs/ACOUSTICS.md, "The runtime query"). */
#ifndef BLVL_ACOUSTICS_INTERNAL_H
#define BLVL_ACOUSTICS_INTERNAL_H

#include "blvl/acoustics.h"
#include "blvl/sections/acoustics.h"

struct blvl_acoustics {
    blvl_options opt; /* the allocator everything here came from */
    uint32_t probe_count, edge_count, room_count;
    blvl_AcousticProbe *probes;
    blvl_AcousticEdge *edges;
    uint32_t *first; /* probe_count + 1: probe p's edges are first[p] .. first[p + 1] */
    blvl_acoustics_room *rooms;
    float radius; /* qu */
    float cell;   /* the grid's cell side, qu */
    uint32_t bucket_mask;
    uint32_t *bucket_start; /* bucket_mask + 2 */
    uint32_t *bucket_items; /* probe_count, by bucket, ascending within one */
    /* A* heuristic: metres per qu of straight line, at most every edge's len_m over its probes'
     * distance, so the estimate never overshoots (and stays consistent) whatever the section. */
    float h_scale;
};

struct blvl_acoustics_scratch {
    const blvl_acoustics *owner;
    blvl_options opt;
    uint32_t n;          /* probes */
    uint32_t generation; /* stamp of the current query */
    uint32_t *stamp;     /* n: dist/prev valid when stamp == generation */
    uint32_t *settled;   /* n: settled in the current query when == generation */
    float *dist;         /* n: cost from the sound's probe */
    uint32_t *prev;      /* n: the edge that reached it */
    uint32_t heap_cap, heap_len;
    struct blvl__acoustics_heap_item {
        float key;
        uint32_t probe;
    } * heap;
};

/* The grid cell of a coordinate (clamped, so every finite value has one). */
int32_t blvl__acoustics_cell_of(float v, float cell);
uint32_t blvl__acoustics_bucket(const blvl_acoustics *ac, int32_t x, int32_t y, int32_t z);

#endif
