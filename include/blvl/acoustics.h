/* blvl acoustics: the runtime query over a level's acoustics section (schema/acoustics.fbs,
 * docs/ACOUSTICS.md "The runtime query"): where a sound heard at one point comes from, how far
 * it really travelled around the walls, the doors on its way and how the listener's room rings.
 *
 *   blvl_acoustics *ac;
 *   blvl_acoustics_new(&ac, level, NULL, &err);      // once; BLVL_E_NOT_FOUND: no acoustics
 *   blvl_acoustics_scratch *s;                       // one per thread (or NULL per call)
 *   blvl_acoustics_scratch_new(&s, ac, &err);
 *   const float sound[3] = {0, 40, 512}, listener[3] = {0, 50, -512};
 *   blvl_acoustics_query q = {NULL, NULL, NULL, NULL}; // a trace world, door costs: optional
 *   blvl_acoustics_path path;
 *   blvl_acoustics_path_find(ac, sound, listener, &q, s, &path, &err);
 *   // path.length_m, path.straight_m, path.doors, path.narrow, path.room.rt60_s
 *   blvl_acoustics_scratch_free(s);
 *   blvl_acoustics_free(ac);
 *
 * The object copies what it needs out of the section: the level may be closed after the build,
 * which also labels the graph's components and keeps up to 8 landmarks' route costs (36 bytes
 * per probe at most beyond the section's own; docs/ACOUSTICS.md "Components and landmarks").
 * After the build it is never written: any number of threads may query it at once, each with its
 * own scratch (a query writes only its scratch and its result). Positions are qu (+Y up), lengths
 * metres (1 qu = 0.0254 m, the schema's unit for len_m). */
#ifndef BLVL_ACOUSTICS_H
#define BLVL_ACOUSTICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/blvl.h"
#include "blvl/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_ACOUSTICS_NONE 0xFFFFFFFFu /* no probe */
#define BLVL_ACOUSTICS_NO_DOOR 65535u   /* an edge's door when no door stands on it */
#define BLVL_ACOUSTICS_METRES_PER_QU 0.0254f
/* How far from a point its probe may stand, qu, when the options give 0; and the most they may
 * give. */
#define BLVL_ACOUSTICS_RADIUS 512.0f
#define BLVL_ACOUSTICS_MAX_RADIUS 16384.0f
/* With a trace world, the nearest probes within the radius are tried in order of distance for
 * one that sees the point; at most this many (then the nearest is taken). */
#define BLVL_ACOUSTICS_VISIBLE_TRIES 8u
/* Doors a path result lists (door_count counts them all). */
#define BLVL_ACOUSTICS_MAX_DOORS 16u
/* Coordinates past this (qu) are refused in a section and answered "no probe" in a query. */
#define BLVL_ACOUSTICS_MAX_COORD 1.0e9f

/* What a build takes beyond blvl_options (NULL or zeroed = the defaults). */
typedef struct blvl_acoustics_options {
    blvl_options base; /* first: allocator (the object keeps it), FlatBuffers limits */
    float radius;      /* qu, 0 = BLVL_ACOUSTICS_RADIUS; at most BLVL_ACOUSTICS_MAX_RADIUS */
} blvl_acoustics_options;

typedef struct blvl_acoustics blvl_acoustics;

/* Build from a level's acoustics section: read (digest, chunks, the FlatBuffers verifier),
 * then the graph's rules, each refusal BLVL_E_FLATBUFFER naming its rule last in parentheses
 * (docs/ACOUSTICS.md): probe positions finite within BLVL_ACOUSTICS_MAX_COORD
 * (probe-position), the first probe's first_edge 0 and each later one not lower and within the
 * edges (first-edge), every probe's room below the rooms (probe-room), every edge's `to` below
 * the probes (edge-target), every len_m finite and not negative (edge-length). An edge whose
 * opposite is missing is not refused (diag D0029 reports it): the query walks edges as stored,
 * from the sound toward the listener. A level without the section (a level with no walkable
 * floor has none: docs/ACOUSTICS.md), or with one of a payload version this reader does not know:
 * BLVL_E_NOT_FOUND from the sections layer ("no section 'acoustics'"). */
BLVL_API blvl_status blvl_acoustics_new(blvl_acoustics **out, blvl_level *level,
                                        const blvl_acoustics_options *opt, blvl_error *err);
/* The same from the section's bytes (a FlatBuffer with root Acoustics); they are copied. */
BLVL_API blvl_status blvl_acoustics_new_memory(blvl_acoustics **out, const void *bytes, size_t size,
                                               const blvl_acoustics_options *opt, blvl_error *err);
BLVL_API void blvl_acoustics_free(blvl_acoustics *ac);

/* How many probes, edges and rooms the object holds. */
BLVL_API void blvl_acoustics_counts(const blvl_acoustics *ac, uint32_t *probes, uint32_t *edges,
                                    uint32_t *rooms);

/* A room's figures. */
typedef struct blvl_acoustics_room {
    uint32_t index; /* rooms index; BLVL_ACOUSTICS_NONE when there is no room (no probe) */
    float rt60_s;   /* reverberation time, seconds */
    float damping;  /* share of a reflection's energy kept, 0..1 */
    bool outdoor;
} blvl_acoustics_room;

/* Probe `probe`'s position (qu) and room; false for an index out of range. */
BLVL_API bool blvl_acoustics_probe(const blvl_acoustics *ac, uint32_t probe, float position[3],
                                   blvl_acoustics_room *room);

/* A game's price for crossing door team `door`, in metres added to the route's cost (not to its
 * length): 0 for an open door, something large for a shut one. A non-finite or negative answer
 * (INFINITY, NaN, -1) makes the door impassable. Called on the querying thread, any number of
 * times per query (cache what is costly). */
typedef float (*blvl_acoustics_door_cost_fn)(void *user, uint16_t door);

/* What one query uses beyond the points (NULL or zeroed: by distance only, doors free). */
typedef struct blvl_acoustics_query {
    /* The level's collision world: a point's probe is then, of the BLVL_ACOUSTICS_VISIBLE_TRIES
     * nearest within the radius, the nearest one a ray from it reaches the point past; the
     * nearest at all when none does. NULL: the nearest by distance alone. */
    const blvl_trace_world *world;
    /* Who the visibility ray is (NULL: a shot, every door closed; blvl/trace.h). */
    const blvl_trace_filter *filter;
    blvl_acoustics_door_cost_fn door_cost; /* NULL: every door free */
    void *door_user;
} blvl_acoustics_query;

/* The probe a point belongs to (as above), BLVL_ACOUSTICS_NONE when none stands within the
 * radius or the point is not finite. Allocates nothing. */
BLVL_API uint32_t blvl_acoustics_nearest(const blvl_acoustics *ac, const float point[3],
                                         const blvl_acoustics_query *q);

/* Per-thread working memory of path queries (distances and a heap over the probes), so a query
 * allocates nothing; one scratch serves one query at a time. It holds the allocator of the
 * object it was made for and may serve only that object. */
typedef struct blvl_acoustics_scratch blvl_acoustics_scratch;
BLVL_API blvl_status blvl_acoustics_scratch_new(blvl_acoustics_scratch **out,
                                                const blvl_acoustics *ac, blvl_error *err);
BLVL_API void blvl_acoustics_scratch_free(blvl_acoustics_scratch *s);

/* A path from a sound to a listener. */
typedef struct blvl_acoustics_path {
    bool found; /* a route: both points have a probe and the graph joins them */
    /* The points' probes (BLVL_ACOUSTICS_NONE when none within the radius). */
    uint32_t sound_probe, listener_probe;
    /* The straight line between the two points, metres (always set). */
    float straight_m;
    /* The way the sound travelled, metres: sound to its probe, the edges' len_m, the listener's
     * probe to the listener. When both points share a probe, the straight line. Never below
     * straight_m by more than the section's own error (a len_m shorter than its probes'
     * distance). 0 when not found. */
    float length_m;
    /* length_m plus the doors' costs: what the route minimised (A* over len_m + door cost, its
     * estimate the straight line's and the landmarks' lower bounds: the cheapest route). */
    float cost_m;
    uint32_t hops;       /* edges walked */
    bool narrow;         /* a narrow edge (a gap a player does not pass) was walked */
    uint32_t door_count; /* doors crossed, a door on consecutive edges counted once */
    uint16_t doors[BLVL_ACOUSTICS_MAX_DOORS]; /* the first of them, from the sound on */
    /* The listener's room (its probe's); index BLVL_ACOUSTICS_NONE without a listener probe. */
    blvl_acoustics_room room;
} blvl_acoustics_path;

/* Find the path. `q` may be NULL. `scratch` may be NULL: the call then allocates its own from
 * the object's allocator (and may fail with BLVL_E_NOMEM). BLVL_E_ARGUMENT for a NULL object or
 * result, a point that is not finite, or a scratch of another object. No route is not an error:
 * BLVL_OK with found false; probes in different components (edges taken both ways) get it
 * without a walk, the door costs not asked. Every query ends: each probe is settled once. */
BLVL_API blvl_status blvl_acoustics_path_find(const blvl_acoustics *ac, const float sound[3],
                                              const float listener[3],
                                              const blvl_acoustics_query *q,
                                              blvl_acoustics_scratch *scratch,
                                              blvl_acoustics_path *out, blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
