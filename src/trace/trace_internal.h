/* Private structures of blvl-trace, shared by the files of src/trace/. */
#ifndef BLVL_TRACE_INTERNAL_H
#define BLVL_TRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/trace.h"
#include "common/alloc.h"
#include "common/error.h"
#include "geom/geom.h"

/* Coordinates past this are refused as hostile (they would overflow the float math). */
#define TW_COORD_MAX 1.0e7

/* Outcome of expanding one hull. */
typedef void (*tw_report_fn)(void *user, uint32_t face, const char *reason);

typedef struct tw_hull_in {
    const blvl_Vec3 *vertices;
    uint32_t vertex_count;
    const uint32_t *face_sizes;
    uint32_t face_count;
    const uint32_t *face_indices;
    uint32_t face_index_count;
} tw_hull_in;

/* Expand a hull into planes (face planes from Newell's method, crossed loops re-wound, the
 * axial planes, the edge bevels), appended to `planes` (blvl_Plane). When `loop_sizes`
 * and `loop_indices` are given, the loops actually used (re-wound where crossed) of the faces
 * that yielded a plane are appended there. Returns BLVL_OK with *usable = 0 when the hull as a
 * whole cannot be used (reported), BLVL_E_NOMEM when the allocator fails. */
blvl_status blvl__trace_expand_hull(const blvl_allocator *al, const tw_hull_in *in,
                                    geom_vec *planes, geom_vec *loop_sizes, geom_vec *loop_indices,
                                    float lo[3], float hi[3], int *usable, tw_report_fn report,
                                    void *report_user);

/* The convex polygons bounding the solid cut out by `planes` (each plane's face, clipped by the
 * others), as a hull: vertices appended to `vertices` (blvl_Vec3), loops to `sizes` and
 * `indices` (uint32_t). `lo`/`hi` bound the solid (they size the starting polygons). */
blvl_status blvl__trace_planes_to_hull(const blvl_allocator *al, const blvl_Plane *planes,
                                       uint32_t count, const float lo[3], const float hi[3],
                                       geom_vec *vertices, geom_vec *sizes, geom_vec *indices);

/* One collider as traced. */
typedef struct tw_collider {
    float lo[3], hi[3]; /* culling bounds; lo > hi for a dropped collider */
    uint32_t first_plane, plane_count;
    uint32_t flags, gametypes, material, door;
} tw_collider;

/* A door collider keeps its closed-pose hull so a moved pose can be re-bevelled. */
typedef struct tw_door_collider {
    uint32_t collider;
    uint32_t door;
    uint32_t first_vertex, vertex_count;
    uint32_t first_face, face_count;
    uint32_t first_index, index_count;
} tw_door_collider;

/* A static collider as the hierarchy's leaves hold it: copied in leaf order, so a leaf's
 * colliders are contiguous and one cache line or two hold what culling and filtering need. */
typedef struct tw_item {
    float lo[3], hi[3];
    uint32_t first_plane, plane_count;
    uint32_t collider, flags, gametypes, pad;
} tw_item;

/* A 4-wide hierarchy node: the bounds of its four children lane by lane (structure of arrays,
 * so one SIMD test covers all four), and each child a node index or TW_LEAF | first item (with
 * count items). An empty slot has lo > hi and count 0 (its slab test may still pass: infinite
 * bounds); `leaves` has bit i for a child that is a leaf holding colliders, `inner` for one
 * that is a node, neither for an empty slot, so the walk sorts a node's children with two
 * masks. 128 bytes: two cache lines. */
#define TW_LEAF 0x80000000u
typedef struct tw_node4 {
    float lo[3][4];
    float hi[3][4];
    uint32_t child[4];
    uint8_t count[4];
    uint32_t leaves, inner, pad;
} tw_node4;

/* One collider per leaf: the four-wide test of a node's children is then the test of the
 * colliders' own bounds (measured faster on real maps than leaves of 2 or 4). */
#define TW_BVH_LEAF_SIZE 1u
_Static_assert(TW_BVH_LEAF_SIZE <= 255, "a leaf's count is a byte");
_Static_assert(sizeof(tw_node4) == 128, "a node is two cache lines");
/* Binary splits along one path: past TW_BVH_SAH_DEPTH the build splits at the median, so a
 * path has at most that many plus log2(colliders) splits, and a query's fixed stack (three
 * siblings left per node) cannot overflow. */
#define TW_BVH_SAH_DEPTH 32u
#define TW_BVH_STACK (3u * (TW_BVH_SAH_DEPTH + 32u) + 4u)

struct blvl_trace_world {
    blvl_allocator al;
    uint32_t collider_count;
    tw_collider *colliders;
    blvl_Plane *planes;
    size_t plane_count, plane_cap;
    /* hierarchy over the static colliders (not doors, not dropped) */
    tw_node4 *nodes;
    uint32_t node_count, node_cap;
    tw_item *items;
    uint32_t item_count;
    /* doors, sorted by door index */
    tw_door_collider *door_colliders;
    uint32_t door_collider_count;
    blvl_Vec3 *door_vertices;
    size_t door_vertex_count;
    uint32_t *door_face_sizes;
    size_t door_face_count;
    uint32_t *door_face_indices;
    size_t door_face_index_count;
    /* reports */
    blvl_trace_report *reports;
    uint32_t report_count;
    /* 1 = stops are not backed off (tests only: the control that shows the every-stop-free
     * check able to fail); 0 after every build. */
    int no_backoff;
};

/* Tests only: switch the stop back-off off (1) or on (0) for this world. Not for a world
 * another thread is tracing. */
void blvl__trace_world_set_no_backoff(blvl_trace_world *w, int off);

blvl_status blvl__trace_bvh_build(blvl_trace_world *w, blvl_error *err);

/* A door collider's moved pose. */
typedef struct tw_door_pose {
    int moved;
    float lo[3], hi[3];
    geom_vec planes; /* blvl_Plane */
} tw_door_pose;

struct blvl_trace_doors {
    const blvl_trace_world *world;
    tw_door_pose *poses; /* parallel to world->door_colliders */
};

/* A filter reduced to a few masks for the inner loops. */
typedef struct tw_filter {
    uint32_t must_have, must_not, gametypes;
    const uint32_t *skip;
    uint32_t skip_words;
    const blvl_trace_doors *doors;
} tw_filter;

void blvl__trace_filter_compile(const blvl_trace_filter *f, tw_filter *out);
/* Water-query variant: only water colliders, the filter's gametypes, doors and skip. */
void blvl__trace_filter_compile_water(const blvl_trace_filter *f, tw_filter *out);

static inline int blvl__trace_filter_pass_bits(const tw_filter *f, uint32_t flags,
                                               uint32_t gametypes, uint32_t index) {
    if ((flags & f->must_not) || (flags & f->must_have) != f->must_have)
        return 0;
    if (f->gametypes && !(gametypes & f->gametypes))
        return 0;
    if (f->skip && (index >> 5) < f->skip_words && (f->skip[index >> 5] >> (index & 31)) & 1u)
        return 0;
    return 1;
}

static inline int blvl__trace_filter_pass(const tw_filter *f, const tw_collider *c,
                                          uint32_t index) {
    if ((c->flags & f->must_not) || (c->flags & f->must_have) != f->must_have)
        return 0;
    if (f->gametypes && !(c->gametypes & f->gametypes))
        return 0;
    if (f->skip && (index >> 5) < f->skip_words && (f->skip[index >> 5] >> (index & 31)) & 1u)
        return 0;
    return 1;
}

/* Colliders a trace clipped, kept to check its stop: a box that meets a solid anywhere on the
 * way to its stop has that solid's bounds on its path, so it was clipped. */
#define TW_TOUCH_MAX 32u

/* The trace in progress. */
typedef struct tw_trace {
    float start[3], end[3], mins[3], maxs[3];
    float fraction;
    int startsolid, allsolid;
    const blvl_Plane *plane;
    uint32_t collider;
    unsigned touched; /* may exceed TW_TOUCH_MAX: then the list is incomplete */
    const blvl_Plane *touch_planes[TW_TOUCH_MAX];
    uint32_t touch_counts[TW_TOUCH_MAX];
    uint32_t touch_colliders[TW_TOUCH_MAX];
} tw_trace;

/* The colliders of a sim section as descriptions (blvl_trace_world_from_level's reading), in
 * one block from `al`: the descriptions first, then the planes, vertices and face lists they
 * point at. *size gets the block's size for blvl__dealloc; NULL when out of memory. */
blvl_trace_collider_desc *blvl__trace_descs_from_sim(blvl_Sim sim, const blvl_allocator *al,
                                                     size_t *size);

/* Where a build reads its colliders: an array, or `get`, which describes collider i into *tmp
 * (or wherever it likes) and returns it, NULL when out of memory. A description lives until the
 * next call. */
typedef struct tw_source {
    const blvl_trace_collider_desc *array;
    const blvl_trace_collider_desc *(*get)(void *user, uint32_t i, blvl_trace_collider_desc *tmp);
    void *user;
} tw_source;

blvl_status blvl__trace_world_build(blvl_trace_world **out, const tw_source *src, uint32_t count,
                                    const blvl_trace_options *opt, blvl_error *err);

/* The world of a verified sim (blvl_trace_world_from_level after its read): each collider
 * described when the build reaches it, its vectors read in place (copied to one scratch block
 * reused from collider to collider when not aligned); no block of descriptions. */
blvl_status blvl__trace_world_from_sim(blvl_trace_world **out, blvl_Sim sim,
                                       const blvl_trace_options *opt, blvl_error *err);

/* Clip the box trace against one convex solid; updates t when it stops the box sooner. */
void blvl__trace_clip_box(tw_trace *t, const blvl_Plane *planes, uint32_t count, uint32_t collider);
/* 1 when the box [mins, maxs] at pos is inside (or touching) the solid: every pushed plane's
 * distance <= 0, computed as blvl__trace_clip_box computes a start's (its startsolid test). */
int blvl__trace_box_inside(const blvl_Plane *planes, uint32_t count, const float pos[3],
                           const float mins[3], const float maxs[3]);
/* The plane of the solid the box [mins, maxs] at pos lies farthest in front of (the largest pushed
 * distance, computed as blvl__trace_box_inside computes it), and that distance in *dist: for a
 * box outside the solid, the plane that separates them, the box's nearest corner *dist in front
 * of it. */
const blvl_Plane *blvl__trace_box_nearest_plane(const blvl_Plane *planes, uint32_t count,
                                                const float pos[3], const float mins[3],
                                                const float maxs[3], float *dist);
/* 1 when the point is inside (or on) every plane. */
int blvl__trace_point_inside(const blvl_Plane *planes, uint32_t count, const float p[3]);

/* The planes and bounds of a collider as the filter's doors have it. */
static inline const blvl_Plane *blvl__tw_collider_planes(const blvl_trace_world *w,
                                                         const tw_collider *c, uint32_t *count) {
    *count = c->plane_count;
    return c->plane_count ? w->planes + c->first_plane : NULL;
}

#endif
