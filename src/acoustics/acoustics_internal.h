/* The acoustics query object: the section's graph copied out and checked, a hashed grid of the
 * probes, the graph's components and its landmarks (docs/ACOUSTICS.md, "The runtime query"). */
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
    /* probe_count: the probe's component when edges are taken both ways (its root's index): two
     * probes with different labels have no route, whatever the door costs (they only add). */
    uint32_t *component;
    /* Landmarks (ALT): landmark_count columns of BLVL__ACOUSTICS_LANDMARKS per probe, probe-major:
     * [p * BLVL__ACOUSTICS_LANDMARKS + l] the cost of the cheapest route from landmark l to
     * probe p over len_m with every door free, INFINITY where none; NULL when none was chosen. */
    uint32_t landmark_count;
    float *landmark;
    bool symmetric; /* every edge has an opposite of the same len_m (the bake's graphs) */
};

/* At most this many landmarks, 4 bytes per probe each; only components of at least
 * BLVL__ACOUSTICS_LANDMARK_MIN probes get any (a smaller one is walked whole in no time). */
#define BLVL__ACOUSTICS_LANDMARKS 8u
#define BLVL__ACOUSTICS_LANDMARK_MIN 64u

struct blvl_acoustics_scratch {
    const blvl_acoustics *owner;
    blvl_options opt;
    uint32_t n;          /* probes */
    uint32_t generation; /* stamp of the current query */
    uint32_t *stamp;     /* n: dist/prev valid when stamp == generation */
    uint32_t *settled;   /* n: settled in the current query when == generation */
    float *dist;         /* n: cost from the sound's probe */
    float *h;            /* n: the estimate of the cost left, once per probe and query */
    uint32_t *prev;      /* n: the edge that reached it */
    uint32_t heap_cap, heap_len;
    struct blvl__acoustics_heap_item {
        float key;
        uint32_t probe;
    } * heap;
};

/* The binary min-heap of a walk (a probe may stand in it more than once: the stale entries are
 * skipped when popped, settled). */
static inline void blvl__acoustics_heap_push(blvl_acoustics_scratch *s, float key, uint32_t probe) {
    uint32_t i = s->heap_len++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (s->heap[up].key <= key)
            break;
        s->heap[i] = s->heap[up];
        i = up;
    }
    s->heap[i].key = key;
    s->heap[i].probe = probe;
}

static inline uint32_t blvl__acoustics_heap_pop(blvl_acoustics_scratch *s) {
    uint32_t top = s->heap[0].probe, i = 0, n = --s->heap_len;
    struct blvl__acoustics_heap_item last = s->heap[n];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->heap[c + 1].key < s->heap[c].key)
            c++;
        if (last.key <= s->heap[c].key)
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n)
        s->heap[i] = last;
    return top;
}

/* A new stamp for a walk over the scratch (the stamps start over when they wrap). */
uint32_t blvl__acoustics_begin(blvl_acoustics_scratch *s);

/* The components, the symmetry and the landmarks, once the graph is checked. */
blvl_status blvl__acoustics_index(blvl_acoustics *ac, blvl_error *err);
void blvl__acoustics_index_free(blvl_acoustics *ac);

/* The grid cell of a coordinate (clamped, so every finite value has one). */
int32_t blvl__acoustics_cell_of(float v, float cell);
uint32_t blvl__acoustics_bucket(const blvl_acoustics *ac, int32_t x, int32_t y, int32_t z);

#endif
