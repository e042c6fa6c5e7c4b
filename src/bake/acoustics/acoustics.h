/* The acoustics step (docs/ACOUSTICS.md): from the model's final colliders and doors, a probe
 * lattice on the walkable floors, the rays each probe casts, the edges between probes that see
 * each other with every door open, and the rooms. blvl-trace is the only geometry engine: the
 * step builds a trace world from the colliders the sim section is written from. bake/write/
 * turns the result into the `acoustics` section. */
#ifndef BLVL_BAKE_ACOUSTICS_H
#define BLVL_BAKE_ACOUSTICS_H

#include <stdbool.h>
#include <stdint.h>

#include "bake/model/model.h"
#include "blvl/sections/acoustics.h"
#include "blvl/trace.h"

/* The constants of docs/ACOUSTICS.md. */
#define AC_EAR 64.0f         /* ear height above the floor, qu */
#define AC_WALK_NY 0.7f      /* Quake's walk slope: floor normal . up at least this */
#define AC_PLAYER_HALF 16.0f /* the standing player box, 32 x 56 x 32 qu */
#define AC_PLAYER_TALL 56.0f
#define AC_RAYS 128u          /* spherical Fibonacci directions per probe */
#define AC_RAY_QU 1772.0f     /* 45 m */
#define AC_QU_M 0.0254f       /* metres per qu */
#define AC_REACH_STEPS 2      /* edge candidates: columns within this many lattice steps */
#define AC_NARROW_HALF 36.0f  /* the 72 x 72 qu box of `narrow` (x and z) */
#define AC_NARROW_TALL 24.0f  /* its half height (y): ear +- 24 qu */
#define AC_NARROW_SHIFT 24.0f /* the box also tried this far to either side */
#define AC_MAX_FLOORS 64u     /* floors found in one lattice column at most */
#define AC_MAX_PROBES 4000000u
#define AC_NO_DOOR 65535u
#define AC_BRIDGE_TRIES 64u   /* closest probe pairs tried between two parts */
#define AC_BRIDGE_SAMPLE 128u /* probes of a part taken as bridge ends at most */
#define AC_BRIDGE_MIN 1u      /* probes a part needs to be bridged */
#define AC_BRIDGE_PARTS 64u   /* the largest parts bridged at most */

/* A room as the step computes it. */
typedef struct bake_ac_room {
    float rt60_s, damping;
    bool outdoor;
} bake_ac_room;

/* The step's result: probes in their written order, each probe's edges sorted by `to`. */
typedef struct bake_ac {
    blvl_AcousticProbe *probes;
    uint32_t probe_count;
    blvl_AcousticEdge *edges;
    uint32_t edge_count;
    bake_ac_room *rooms;
    uint32_t room_count;
    double seconds; /* wall time of the whole step */
} bake_ac;

/* The trace worlds the step queries: the colliders without doors (doors open), and the door
 * colliders alone in their closed pose (what an edge crosses). */
typedef struct bake_ac_worlds {
    blvl_trace_world *open, *doors;
    uint32_t *door_team; /* per collider of `doors`: the team (lowest door index of the team) */
    float lo[3], hi[3];  /* the level's bounds: every collider but water */
    bool empty;          /* no collider to stand on */
    bool sealed;         /* some collider is sky: the open air is closed by sky (a Quake 3 map) */
} bake_ac_worlds;

/* A probe while the step runs: where it stands, its lattice column, what its rays saw. */
typedef struct bake_ac_probe {
    float pos[3];
    int32_t col[2]; /* lattice column (x, z) */
    uint8_t enclosed, size_m;
    bool sky;
    bool outside; /* sealed level: a ray of it left the bounds without meeting anything */
} bake_ac_probe;

/* One undirected edge a < b. */
typedef struct bake_ac_pair {
    uint32_t a, b;
    uint16_t door;
    bool narrow;
} bake_ac_pair;

/* world.c */
blvl_status blvl__bake_acoustics_worlds(const blvl_bake *b, bake_ac_worlds *w, blvl_error *err);
void blvl__bake_acoustics_worlds_free(const blvl_bake *b, bake_ac_worlds *w);
/* probes.c: the lattice and the rays; *out (blvl__alloc_sized) in (z, x, top-down) order */
blvl_status blvl__bake_acoustics_probes(const blvl_bake *b, const bake_ac_worlds *w, float spacing,
                                        bake_ac_probe **out, uint32_t *count, blvl_error *err);
/* The probes standing at (x, z), top down (at most AC_MAX_FLOORS; col not set). */
uint32_t blvl__bake_acoustics_floors(const bake_ac_worlds *w, float x, float z, bake_ac_probe *out);
/* Cast every probe's rays (enclosed, size_m, sky), on the bake's worker pool. */
blvl_status blvl__bake_acoustics_cast(const blvl_bake *b, const bake_ac_worlds *w, bake_ac_probe *p,
                                      uint32_t count, blvl_error *err);
/* The direction of ray i of AC_RAYS (the spherical Fibonacci set). */
void blvl__bake_acoustics_ray_dir(uint32_t i, float d[3]);
/* edges.c: the undirected edges in (a, b) order */
blvl_status blvl__bake_acoustics_pairs(const blvl_bake *b, const bake_ac_worlds *w, float spacing,
                                       const bake_ac_probe *p, uint32_t count, bake_ac_pair **out,
                                       uint32_t *pair_count, blvl_error *err);
/* The first probe of column (cx, cz) or later (probes in (z, x) column order). */
uint32_t blvl__bake_acoustics_column_start(const bake_ac_probe *p, uint32_t count, int32_t cx,
                                           int32_t cz);
/* Does sound pass between two ears (a ray as a shot, doors open)? */
bool blvl__bake_acoustics_hears(const bake_ac_worlds *w, const float *a, const float *b);
/* An edge's fields between two ears when sound passes (false when it does not). */
bool blvl__bake_acoustics_link(const bake_ac_worlds *w, const float *a, const float *b,
                               bake_ac_pair *e);
/* bridges.c: between parts of the graph no edge joins, the closest pair of probes (of the
 * closest AC_BRIDGE_TRIES) that hear each other within 45 m, added to *pairs (kept in (a, b)
 * order). */
blvl_status blvl__bake_acoustics_bridges(const blvl_bake *b, const bake_ac_worlds *w,
                                         const bake_ac_probe *p, uint32_t count,
                                         bake_ac_pair **pairs, uint32_t *pair_count,
                                         blvl_error *err);
/* qsort order of probes: column (z, x), then top down, then x, z. */
int blvl__bake_acoustics_order(const void *a, const void *b);
/* gaps.c: probes added where the lattice's graph falls apart but a finer lattice's probe hears
 * both sides (an opening narrower than the lattice sees); *added says whether any was. The
 * probes stay in (z, x) column order; `pairs` are the lattice's edges. */
blvl_status blvl__bake_acoustics_gaps(const blvl_bake *b, const bake_ac_worlds *w, float spacing,
                                      bake_ac_probe **p, uint32_t *count, const bake_ac_pair *pairs,
                                      uint32_t pair_count, bool *added, blvl_error *err);
/* rooms.c: the whole step (b->acoustics off or no probe: *out stays empty) */
blvl_status blvl__bake_acoustics_build(const blvl_bake *b, bake_ac *out, blvl_error *err);
void blvl__bake_acoustics_free(const blvl_bake *b, bake_ac *ac);
/* The rt60 and damping of a room from its probes' mean enclosed share (0..1) and size (m). */
void blvl__bake_acoustics_reverb(float enclosed, float size_m, float *rt60_s, float *damping);

#endif
