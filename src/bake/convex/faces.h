/* A convex brush's face polygons from its planes (faces.c), shared by the brush collider
 * (shapes.c) and blvl_bake_brush_polygons (polygons.c). Rules in docs/BAKE.md, "Colliders". */
#ifndef BLVL_BAKE_FACES_H
#define BLVL_BAKE_FACES_H

#include <stdint.h>

#include "blvl/bake.h"

#define BAKE_BASE_HALF 1048576.0 /* 2^20 qu: half the side of each plane's starting square */
#define BAKE_WELD (1.0 / 1024.0) /* corners closer than this are one corner, qu */
#define BAKE_FLAT (1.0 / 64.0)   /* a solid thinner than this encloses no volume, qu */
#define BAKE_CLIP_EPS 1e-6       /* a corner this close to a plane is on it, qu */
#define BAKE_MAX_PLANES 1024u /* planes of one brush: a real one has tens; the trace takes 4096 */

enum { BAKE_FACES_OK = 0, BAKE_FACES_EMPTY = 1, BAKE_FACES_UNBOUNDED = 2 };

typedef struct bake_faces {
    uint32_t count;      /* input planes */
    double (*planes)[4]; /* each input plane normalised: n, d (zero for a plane with no face) */
    uint32_t *sizes;     /* corners of each input plane's face; 0 = none */
    double (*pts)[3];    /* the corners, face after face, counter-clockwise seen from outside */
    uint32_t point_count;
    int state; /* BAKE_FACES_*; when not OK every size is 0 */
} bake_faces;

/* BLVL_E_ARGUMENT for a non-finite plane, BLVL_E_NOMEM; otherwise OK with out->state set. */
blvl_status blvl__bake_convex_brush_faces(const blvl_allocator *al, const blvl_Plane *planes,
                                          uint32_t count, bake_faces *out, blvl_error *err);
void blvl__bake_convex_brush_faces_free(const blvl_allocator *al, bake_faces *f);

/* Weld points closer than BAKE_WELD, first come first kept: uniq (room for n) gets the kept
 * points in input order, map[i] the index of point i's. Returns the kept count. */
uint32_t blvl__bake_convex_weld(const double (*pts)[3], uint32_t n, double (*uniq)[3],
                                uint32_t *map);

#endif
