/* A random Rockgrave .hmap generator for the bake tests, the fuzz seeds and the benchmark
 * (tests/support/hmap_gen.c).
 *
 * It builds a blvl_hmap by hand (the public structs of blvl/hmap.h; nothing of the library is
 * called) that the caller writes with blvl_hmap_write. The same options give the same map.
 *
 * The map is a grid of rooms in metres scaled by units_per_meter: axial floor, wall and ceiling
 * boxes (some ceilings solid+sky), a doorway in one wall closed by a func_door brush, and in
 * each room a few props: wedges (slanted prisms), rotated boxes, corner-cut boxes, water pools,
 * player clips, trigger_hurt / trigger_push volumes, and mesh props (convex boxes and prisms,
 * a non-convex L prism, an open roof). Spawns and lights are entities.
 *
 * Whatever parts are written, the returned map always holds the source data (brushes, meshes,
 * their polygons): it is the truth the tests check against. has_brsh / has_mesh and the header
 * flags say what blvl_hmap_write emits. A compiled part (CMPL) is built from the same brushes:
 * model 0 the world, one model per door, a BSP (a lone leaf, or one split node), batches from
 * the brush face polygons clipped here in double precision, mesh collision triangles, lights. */
#ifndef BLVL_TEST_HMAP_GEN_H
#define BLVL_TEST_HMAP_GEN_H
#include <stdbool.h>
#include <stdint.h>

#include "blvl/hmap.h"

#define HMAP_GEN_SOURCE 1u
#define HMAP_GEN_COMPILED 2u

typedef struct hmap_gen_opts {
    uint64_t seed;
    uint32_t rooms;        /* at least 1 */
    uint32_t meshes;       /* mesh props, spread over the rooms; 0 = two per room */
    uint32_t min_brushes;  /* extra props until the map has this many brushes; 0 = none */
    float units_per_meter; /* 0 = one of 32, 39.37, 64 picked by the seed */
    uint32_t parts;        /* HMAP_GEN_SOURCE | HMAP_GEN_COMPILED */
    bool bsp_split;        /* CMPL: one split node instead of a lone leaf */
    bool no_meta;          /* leave META out (units from CMPL; compiled only) */
    bool mats_after_brsh;  /* emit chunks META BRSH MATS MESH ENTS CMPL (needs chunk order) */
} hmap_gen_opts;

/* A polygon clipped from a brush face or a mesh polygon, map units, counter-clockwise from
 * the front. */
typedef struct hmap_gen_poly {
    uint32_t brush, face; /* brush and face index; brush = UINT32_MAX for a mesh polygon */
    uint32_t mesh, mpoly; /* mesh and polygon index for a mesh polygon */
    int32_t material;
    uint32_t count;
    double (*pts)[3];
} hmap_gen_poly;

typedef struct hmap_gen {
    blvl_hmap map;            /* write this; source data always filled (see above) */
    float units_per_meter;    /* what the map says */
    uint32_t *floors;         /* brush indices of floors: axial solid boxes, top face +Y */
    double (*floor_spots)[2]; /* per floor: x, z (map units) of a spot nothing stands above */
    uint32_t floor_count;
    bool *mesh_convex;    /* per mesh: a closed convex solid */
    hmap_gen_poly *polys; /* every brush face polygon, then every mesh polygon */
    uint32_t poly_count;
    uint32_t brush_poly_count; /* the first brush_poly_count polys are brush faces */
    blvl_hmap_meta meta_storage;
    blvl_hmap_compiled compiled_storage;
    blvl_hmap_chunk chunk_storage[6];
} hmap_gen;

/* Builds the map; 0 on success, -1 when out of memory. Free with hmap_gen_free. */
int hmap_gen_build(const hmap_gen_opts *o, hmap_gen *g);
void hmap_gen_free(hmap_gen *g);

/* The polygon of face `face` of a convex brush: the plane's base square clipped by every other
 * plane in double precision (Quake's BaseWindingForPlane and ClipWinding). Returns the corner
 * count (0 = the plane bounds no face) and writes at most `max` corners. */
uint32_t hmap_gen_face_polygon(const blvl_Plane *planes, uint32_t count, uint32_t face,
                               double (*out)[3], uint32_t max);

/* Signed depth of a point against a convex plane set: the largest dot(n, p) - d. Below 0
 * inside, above 0 outside; its magnitude bounds the distance to the surface from below
 * (outside) and is the distance to the nearest plane (inside). */
double hmap_gen_depth(const blvl_Plane *planes, uint32_t count, const double p[3]);

#endif
