/* blvl probe: what a player standing at a pose sees and stands in, and a software rendering of
 * the view (docs/PROBE.md).
 *
 * A pose uses the cameras section's convention (schema/cameras.fbs): position in qu, +Y up;
 * yaw 0 looks down -Z and positive yaw turns toward -X; positive pitch looks up; roll turns the
 * view about its axis (positive: the picture turns clockwise, the world's up leans left);
 * fov_x is the horizontal field of view of a 4:3 view (a wider or narrower picture keeps the
 * vertical field: "Hor+").
 *
 *   blvl_probe *p;
 *   blvl_probe_new(&p, level, NULL, &err);
 *   blvl_probe_pose pose = {{0, 26, 0}, 90, 0, 0, 90};
 *   blvl_probe_result r;
 *   blvl_probe_look(p, &pose, &r);          // view ray, contents, floor, nearest spawn
 *   blvl_probe_render(p, &pose, 640, 480, 0, rgba, &err);
 *   blvl_probe_free(p);
 *
 * The probe keeps the level's sections it read (names point into them): close the level only
 * after blvl_probe_free. After the build it is read-only: threads may look and render at once. */
#ifndef BLVL_PROBE_H
#define BLVL_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/blvl.h"
#include "blvl/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The player the probe stands at the pose: the Quake 3 box in the level's axes (+Y up) and
 * its eye height. The pose is the eye; the player origin is BLVL_PROBE_EYE_HEIGHT below it and
 * the feet are BLVL_PROBE_FEET below the origin (the box's bottom). */
#define BLVL_PROBE_EYE_HEIGHT 26.0f
#define BLVL_PROBE_FEET 24.0f
#define BLVL_PROBE_HALF_WIDTH 15.0f
#define BLVL_PROBE_HEAD 32.0f
/* How far the view ray and the floor search reach, qu. */
#define BLVL_PROBE_VIEW_RANGE 131072.0f
#define BLVL_PROBE_FLOOR_RANGE 65536.0f
/* Near plane of the renderer, qu: nothing closer than this to the eye is drawn. */
#define BLVL_PROBE_NEAR 0.5f
/* The rendered picture's background where nothing (or a sky surface) is hit, RGB. */
#define BLVL_PROBE_BACKGROUND_R 16u
#define BLVL_PROBE_BACKGROUND_G 24u
#define BLVL_PROBE_BACKGROUND_B 40u
/* Largest picture blvl_probe_render draws (either side), pixels. */
#define BLVL_PROBE_MAX_SIZE 8192u

typedef struct blvl_probe_pose {
    float pos[3];           /* the eye, qu */
    float yaw, pitch, roll; /* degrees */
    float fov_x;            /* degrees, of a 4:3 view; 0 = 90 */
} blvl_probe_pose;

/* The view's unit axes: forward, right and up (after roll). */
BLVL_API void blvl_probe_pose_axes(const blvl_probe_pose *pose, float forward[3], float right[3],
                                   float up[3]);

typedef struct blvl_probe blvl_probe;

/* Build from a level: its sim (required: colliders for the trace, spawns), geometry (triangles,
 * batches, materials; absent = nothing to draw) and cameras. sim and geometry are fatal: one
 * that is refused (its digest, chunks, the FlatBuffers verifier) fails the build with that
 * rule's status. cameras, textures, lighting and lightmaps only degrade the probe: a refused one
 * is read as absent and listed by blvl_probe_damaged (a damaged cameras section makes
 * blvl_probe_camera fail with its rule; --pose still works). */
BLVL_API blvl_status blvl_probe_new(blvl_probe **out, blvl_level *level, const blvl_options *opt,
                                    blvl_error *err);
/* Decode the base textures the drawn materials name and lighting profile 0's lightmap colour
 * page, for blvl_probe_render (without it every surface is shaded by its normal). A picture
 * that does not decode is left out (its surfaces drawn by normal); a textures, lighting or
 * lightmaps section that is refused is left out and listed by blvl_probe_damaged. Call once,
 * before threads share the probe; fails only for a bad argument or the allocator. */
BLVL_API blvl_status blvl_probe_load_pictures(blvl_probe *p, blvl_error *err);
BLVL_API void blvl_probe_free(blvl_probe *p);

/* A section the probe read and refused, and went on without. */
typedef struct blvl_probe_damage {
    const char *section; /* the tag: "cameras", "textures", "lighting", "lightmaps" */
    blvl_error error;    /* error.code the rule (blvl_status_name: "section-digest",
                            "chunk-index", "flatbuffer", ...); the message starts with it */
} blvl_probe_damage;

/* The sections refused so far (by blvl_probe_new, then blvl_probe_load_pictures), in the order
 * they were read; *count of them (0: none). Valid while the probe lives. */
BLVL_API const blvl_probe_damage *blvl_probe_damaged(const blvl_probe *p, uint32_t *count);

/* The trace world the probe built from sim (for the caller's own queries). */
BLVL_API const blvl_trace_world *blvl_probe_world(const blvl_probe *p);

/* The pose of the first camera whose name is `which`, else the first whose purpose is `which`
 * ("thumbnail", "overview", "menu", "other"). When the level has no cameras at all, a pose
 * framing the whole level (its geometry's bounds, else its colliders') and *framed = true.
 * BLVL_E_NOT_FOUND when the level has cameras but none matches. */
BLVL_API blvl_status blvl_probe_camera(const blvl_probe *p, const char *which, blvl_probe_pose *out,
                                       bool *framed, blvl_error *err);

/* What the view ray hit in geometry (the drawn triangles). */
typedef struct blvl_probe_tri_hit {
    bool hit;
    float distance; /* along the view ray, qu */
    float point[3];
    float normal[3];   /* the triangle's face normal (counter-clockwise front) */
    bool front;        /* the ray met the triangle's front */
    uint32_t triangle; /* geometry.indices triangle (indices 3t..3t+2) */
    uint32_t batch;    /* geometry.batches index */
    uint32_t material; /* the batch's material; BLVL_TRACE_NONE */
} blvl_probe_tri_hit;

typedef struct blvl_probe_contents {
    float point[3];
    uint32_t count;    /* solids holding the point (every collider, whichever mover it stops) */
    uint32_t flags;    /* their flags ORed */
    uint32_t collider; /* lowest index; BLVL_TRACE_NONE */
    bool water;
    uint32_t water_collider, water_material;
} blvl_probe_contents;

typedef struct blvl_probe_result {
    float eye[3], dir[3];
    /* The view ray through every collider but water (whichever mover it stops): result, and
     * the distance to the hit (BLVL_PROBE_VIEW_RANGE when none). */
    blvl_trace_result view;
    float view_distance;
    blvl_probe_tri_hit tri;
    blvl_probe_contents at_eye, at_feet;
    /* The player box dropped from the origin as the player (AS_PLAYER): how far the feet fall
     * before they stand (floor_hit false: nothing within BLVL_PROBE_FLOOR_RANGE). */
    bool floor_hit, floor_startsolid;
    float floor_distance;
    float floor_point[3]; /* the feet where they stop */
    float floor_normal[3];
    uint32_t floor_collider;
    /* The nearest spawn to the player origin (BLVL_TRACE_NONE when the level has none). */
    uint32_t spawn;
    float spawn_distance;
    float spawn_position[3];
    float spawn_yaw;
} blvl_probe_result;

BLVL_API void blvl_probe_look(const blvl_probe *p, const blvl_probe_pose *pose,
                              blvl_probe_result *out);

/* The view ray against the drawn triangles only (culling nothing: both sides count). */
BLVL_API void blvl_probe_ray_triangles(const blvl_probe *p, const float start[3],
                                       const float dir[3], float range, blvl_probe_tri_hit *out);

/* Names for printing; "" for an index out of range or an absent name. */
BLVL_API const char *blvl_probe_material_name(const blvl_probe *p, uint32_t material);
BLVL_API const char *blvl_probe_spawn_kind(const blvl_probe *p, uint32_t spawn);

/* Render options. */
enum {
    BLVL_PROBE_RENDER_COLLIDERS = 1u,  /* collider outlines as a wireframe over the picture */
    BLVL_PROBE_RENDER_NO_TEXTURES = 2u /* shade every surface by its normal */
};

/* Draw the view into rgba (width * height * 4 bytes, rows top to bottom). Z-buffered,
 * perspective-correct triangles of geometry; opaque and alpha-tested materials (blended ones are
 * not drawn); base texture times lightmap when present, else shaded by normal; sky surfaces and
 * empty pixels are the background colour. */
BLVL_API blvl_status blvl_probe_render(const blvl_probe *p, const blvl_probe_pose *pose,
                                       uint32_t width, uint32_t height, unsigned flags,
                                       uint8_t *rgba, blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
