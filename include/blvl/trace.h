/* blvl-trace: swept-box, ray and point queries against a level's sim colliders.
 *
 * A world is built once per level from neutral collider descriptions that mirror the sim schema
 * (schema/sim.fbs, table Collider): `Planes` colliders are used as stored, `Hull` colliders are
 * expanded into face planes (Newell's method, crossed loops re-wound), the six axial planes and
 * the edge bevels a swept box needs. The world is that cache: expansion happens once, at build.
 *
 * After the build the world is immutable: any number of threads may trace it at once, and no
 * query allocates. Door poses live in a separate blvl_trace_doors object that the game updates
 * between frames and passes to the queries it wants to see the moved doors.
 *
 * Semantics are the Quake family's box trace (docs/TRACE.md): fraction in [0,1], the end
 * position start + fraction * (end - start) held BLVL_TRACE_DIST_EPSILON off the surface along
 * the plane that stopped it, startsolid / allsolid. */
#ifndef BLVL_TRACE_H
#define BLVL_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/blvl.h"
#include "blvl/sections/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Distance (units) a trace keeps between the moved box and the surface it stopped at; Quake's
 * DIST_EPSILON. A fraction is pulled back by this much along the hit plane's normal. */
#define BLVL_TRACE_DIST_EPSILON 0.03125f

/* The sim collider flag bits are the schema's, generated from schema/sim.fbs as
 * blvl_ColliderFlag_* (blvl/sections/sim.h). These names are the same values as uint32_t, kept
 * for the trace API's users (the surface shift is checked against the mask below). */
#define BLVL_COLLIDER_LADDER ((uint32_t)blvl_ColliderFlag_Ladder) /* also sets SHOT_THROUGH */
#define BLVL_COLLIDER_SURFACE_MASK ((uint32_t)blvl_ColliderFlag_SurfaceMask) /* blvl_Surface */
#define BLVL_COLLIDER_SURFACE_SHIFT 1u
#define BLVL_COLLIDER_SKY ((uint32_t)blvl_ColliderFlag_Sky)
#define BLVL_COLLIDER_CLIP ((uint32_t)blvl_ColliderFlag_Clip) /* solid but never drawn */
/* holds the player, not a bullet */
#define BLVL_COLLIDER_SHOT_THROUGH ((uint32_t)blvl_ColliderFlag_ShotThrough)
/* never swept; see blvl_trace_point_water */
#define BLVL_COLLIDER_WATER ((uint32_t)blvl_ColliderFlag_Water)
/* stops a shot, not the player */
#define BLVL_COLLIDER_PLAYER_THROUGH ((uint32_t)blvl_ColliderFlag_PlayerThrough)
BLVL_STATIC_ASSERT(BLVL_COLLIDER_SURFACE_MASK >> BLVL_COLLIDER_SURFACE_SHIFT == 3u &&
                       blvl_Surface_Wood <= 3u,
                   "the surface field is bits 1..2 of the collider flags");

#define BLVL_TRACE_NONE 0xFFFFFFFFu /* "no index", as in the schema */
#define BLVL_TRACE_ALL_GAMETYPES 0xFFFFFFFFu

/* Hostile-input limits a world build enforces per collider (reported, collider dropped). */
#define BLVL_TRACE_MAX_PLANES 4096u       /* stored planes of one Planes collider */
#define BLVL_TRACE_MAX_VERTICES 1024u     /* vertices of one Hull */
#define BLVL_TRACE_MAX_FACES 1024u        /* faces of one Hull */
#define BLVL_TRACE_MAX_FACE_INDICES 8192u /* face_indices of one Hull */

/* Vectors and planes are the schema's own structs (schema/common.fbs, blvl/sections/common.h):
 * blvl_Vec3 {x, y, z} and blvl_Plane {normal, dist}, the one vector type of the public API, so
 * a sim section's bytes and a trace description share them. A point p is inside a plane's
 * half-space when dot(normal, p) - dist <= 0; normals are unit and point out of the solid.
 * Points passed to the queries are float[3] arrays with the same three floats. */

typedef enum blvl_trace_shape {
    BLVL_TRACE_SHAPE_NONE = 0, /* the union is absent: an empty collider (reported) */
    BLVL_TRACE_SHAPE_PLANES = 1,
    BLVL_TRACE_SHAPE_HULL = 2
} blvl_trace_shape;

/* One sim Collider, borrowed for the duration of blvl_trace_world_new. Field for field the
 * schema's table; absent fields take the schema defaults (0xFFFFFFFF for the indices and for
 * gametypes). */
typedef struct blvl_trace_collider_desc {
    blvl_Vec3 lo, hi; /* axis-aligned bounds */
    uint32_t flags;
    uint32_t material;  /* geometry.materials index, or BLVL_TRACE_NONE */
    uint32_t breakable; /* or BLVL_TRACE_NONE */
    uint32_t door;      /* sim.doors index, or BLVL_TRACE_NONE */
    uint32_t source;    /* collider_sources index, or BLVL_TRACE_NONE */
    uint32_t gametypes; /* match-type mask; BLVL_TRACE_ALL_GAMETYPES when absent */
    blvl_trace_shape shape;
    /* Planes */
    const blvl_Plane *planes;
    uint32_t plane_count;
    /* Hull: face i is the loop of face_sizes[i] indices taken consecutively from face_indices */
    const blvl_Vec3 *vertices;
    uint32_t vertex_count;
    const uint32_t *face_sizes;
    uint32_t face_count;
    const uint32_t *face_indices;
    uint32_t face_index_count;
} blvl_trace_collider_desc;

/* Fill a description with the schema defaults (no shape, every index none, all gametypes). */
BLVL_API void blvl_trace_collider_desc_init(blvl_trace_collider_desc *desc);

/* Something the build could not use: a hull face that yields no plane, a stored plane that is
 * not a plane, or a whole collider (face == BLVL_TRACE_NONE) that was dropped. */
typedef struct blvl_trace_report {
    uint32_t collider;
    uint32_t face; /* hull face or stored plane index; BLVL_TRACE_NONE for the whole collider */
    char reason[96];
} blvl_trace_report;

/* Called once per report as the build finds it (on the building thread). */
typedef void (*blvl_trace_report_fn)(void *user, const blvl_trace_report *report);

/* What a world build takes beyond blvl_options (NULL or zeroed = defaults, no callback). */
typedef struct blvl_trace_options {
    blvl_options base;           /* first, so (const blvl_options *)&topt is valid */
    blvl_trace_report_fn report; /* may be NULL: the world keeps every report anyway */
    void *report_user;
} blvl_trace_options;

typedef struct blvl_trace_world blvl_trace_world;

/* Build a world: expand every collider, build the bounding-volume hierarchy. Fails only for a
 * bad argument or the allocator; problems with the colliders themselves are reports, kept in the
 * world (blvl_trace_world_reports) and passed to opt->report as they are found. The world
 * and its doors take their memory from opt->base.allocator. */
BLVL_API blvl_status blvl_trace_world_new(blvl_trace_world **out,
                                          const blvl_trace_collider_desc *colliders, uint32_t count,
                                          const blvl_trace_options *opt, blvl_error *err);
BLVL_API void blvl_trace_world_free(blvl_trace_world *world);

/* Everything the build reported, in collider order. */
BLVL_API const blvl_trace_report *blvl_trace_world_reports(const blvl_trace_world *world,
                                                           uint32_t *count);

BLVL_API uint32_t blvl_trace_world_collider_count(const blvl_trace_world *world);
/* The planes a collider is traced against (its closed pose): stored planes, or a hull's face,
 * axial and bevel planes. *count is 0 for a dropped collider. */
BLVL_API const blvl_Plane *blvl_trace_world_planes(const blvl_trace_world *world, uint32_t collider,
                                                   uint32_t *count);
/* The bounds the collider is culled by (from its planes or vertices, not the stored lo/hi). */
BLVL_API bool blvl_trace_world_bounds(const blvl_trace_world *world, uint32_t collider, float lo[3],
                                      float hi[3]);

/* Build from a level's sim section (verified with the FlatBuffers verifier first). */
BLVL_API blvl_status blvl_trace_world_from_level(blvl_trace_world **out, blvl_level *level,
                                                 const blvl_trace_options *opt, blvl_error *err);

/* ---- doors ------------------------------------------------------------------------------ */

/* A rigid transform: world = rot * closed + translate (rot row-major, orthonormal). */
typedef struct blvl_trace_transform {
    float rot[3][3];
    float translate[3];
} blvl_trace_transform;

BLVL_API void blvl_trace_transform_identity(blvl_trace_transform *out);
/* Slide `distance` units along `dir` (normalized here). */
BLVL_API blvl_status blvl_trace_transform_slide(blvl_trace_transform *out, const float dir[3],
                                                float distance, blvl_error *err);
/* Swing `degrees` about the line through `origin` along `axis` (right-handed). */
BLVL_API blvl_status blvl_trace_transform_swing(blvl_trace_transform *out, const float origin[3],
                                                const float axis[3], float degrees,
                                                blvl_error *err);

/* The poses of a world's doors. Every door starts closed. A blvl_trace_doors is read by traces
 * and written by blvl_trace_doors_set; do not set while another thread traces with it (keep two
 * and swap them between frames). */
typedef struct blvl_trace_doors blvl_trace_doors;

BLVL_API blvl_status blvl_trace_doors_new(blvl_trace_doors **out, const blvl_trace_world *world,
                                          blvl_error *err);
/* Move door `door` (a sim.doors index) to `xf` (NULL = closed). Its colliders' planes are moved
 * and their bevels recomputed for the new orientation. */
BLVL_API blvl_status blvl_trace_doors_set(blvl_trace_doors *doors, uint32_t door,
                                          const blvl_trace_transform *xf, blvl_error *err);
BLVL_API void blvl_trace_doors_free(blvl_trace_doors *doors);

/* ---- queries ---------------------------------------------------------------------------- */

typedef enum blvl_trace_mover {
    /* The player: skips player-through (bit 7); stopped by clip and ladders (bit 0 tells the
     * game it can climb what it hit). */
    BLVL_TRACE_AS_PLAYER = 0,
    /* A shot: skips shot-through (bit 5: ladders, player clips, grates); stopped by everything
     * else, a nodraw or clip wall without bit 5 included. */
    BLVL_TRACE_AS_SHOT = 1,
    /* Hit a collider when (flags & include) == include and (flags & exclude) == 0. */
    BLVL_TRACE_AS_CUSTOM = 2
} blvl_trace_mover;

/* Who is moving and what the world looks like. A zeroed struct (or NULL) is the player, every
 * match type, closed doors. Water is never swept, whatever the mask. */
typedef struct blvl_trace_filter {
    blvl_trace_mover mover;
    uint32_t include, exclude; /* BLVL_TRACE_AS_CUSTOM only */
    /* Colliders whose gametypes mask shares no bit with this are skipped; 0 = no filtering
     * (every collider, one with an empty mask included). Match type N passes 1u << N. */
    uint32_t gametypes;
    const blvl_trace_doors *doors; /* NULL = every door closed */
    /* Optional bit set over collider indices (bit i of word i/32): skip these (a breakable the
     * game has shattered). */
    const uint32_t *skip;
    uint32_t skip_words;
} blvl_trace_filter;

typedef struct blvl_trace_result {
    float fraction;    /* 0..1 of the way from start to end */
    float endpos[3];   /* start + fraction * (end - start) */
    blvl_Plane plane;  /* the collider's plane that stopped the box (unexpanded) */
    bool startsolid;   /* the box started inside a solid */
    bool allsolid;     /* the box never left a solid; fraction is 0 */
    uint32_t collider; /* BLVL_TRACE_NONE when nothing was hit */
    uint32_t flags;    /* the hit collider's flags (ladder: the player may climb) */
    uint32_t material; /* the hit collider's material */
} blvl_trace_result;

/* Sweep the box [mins, maxs] (relative to the moving point) from start to end. A non-finite
 * coordinate is answered as stuck: startsolid and allsolid, fraction 0, no collider. */
BLVL_API void blvl_trace_box(const blvl_trace_world *world, const blvl_trace_filter *filter,
                             const float start[3], const float end[3], const float mins[3],
                             const float maxs[3], blvl_trace_result *out);
/* A zero-size box. */
BLVL_API void blvl_trace_ray(const blvl_trace_world *world, const blvl_trace_filter *filter,
                             const float start[3], const float end[3], blvl_trace_result *out);
/* Many box traces in one call: out[i] is blvl_trace_box(world, filter, starts + 3i, ends + 3i,
 * mins, maxs) for i < count, the points packed three floats each. The traces are shared out
 * among opt->threads workers (0 = online CPUs, at most 64; the calling thread is one), so a
 * binding calls once per batch and no per-trace call crosses into the library. mins and maxs
 * may be NULL (a point). Fails only for a bad argument (a NULL world, or NULL arrays with a
 * non-zero count): the answers themselves never fail. */
BLVL_API blvl_status blvl_trace_box_many(const blvl_trace_world *world,
                                         const blvl_trace_filter *filter, const float *starts,
                                         const float *ends, size_t count, const float mins[3],
                                         const float maxs[3], blvl_trace_result *out,
                                         const blvl_options *opt, blvl_error *err);
/* Is the point inside a solid the filter sees? Returns the number of such colliders (0 when
 * none); *flags gets their flags ORed, *collider the lowest index (either may be NULL). */
BLVL_API uint32_t blvl_trace_point_contents(const blvl_trace_world *world,
                                            const blvl_trace_filter *filter, const float point[3],
                                            uint32_t *flags, uint32_t *collider);
/* Is the point inside water (bit 6)? Only the filter's gametypes, doors and skip apply.
 * Returns true and the water collider's material and index (lowest index) when it is. */
BLVL_API bool blvl_trace_point_water(const blvl_trace_world *world, const blvl_trace_filter *filter,
                                     const float point[3], uint32_t *material, uint32_t *collider);

/* Work counters of one or more traces, for benchmarks and tuning: what the hierarchy cost. */
typedef struct blvl_trace_stats {
    uint64_t traces;    /* traces counted */
    uint64_t nodes;     /* hierarchy nodes entered (their bounds met the swept box), leaves too */
    uint64_t colliders; /* colliders clipped (their planes tested against the swept box) */
    uint64_t backoffs;  /* stops moved back along the trace to leave a solid (docs/TRACE.md) */
} blvl_trace_stats;

/* blvl_trace_box that also adds its work to *stats (not reset here; NULL = blvl_trace_box).
 * blvl_trace_box itself counts nothing and pays nothing for the counters. */
BLVL_API void blvl_trace_box_stats(const blvl_trace_world *world, const blvl_trace_filter *filter,
                                   const float start[3], const float end[3], const float mins[3],
                                   const float maxs[3], blvl_trace_result *out,
                                   blvl_trace_stats *stats);

/* Test and benchmark aid: the same box trace over every collider without the hierarchy. */
BLVL_API void blvl_trace_box_brute(const blvl_trace_world *world, const blvl_trace_filter *filter,
                                   const float start[3], const float end[3], const float mins[3],
                                   const float maxs[3], blvl_trace_result *out);

#ifdef __cplusplus
}
#endif
#endif
