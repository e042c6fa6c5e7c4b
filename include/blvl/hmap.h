/* Rockgrave .hmap (version 1): reader, writer and bake.
 *
 * The format, field by field, and the choices we made where it leaves a question open:
 * docs/IMPORT-HMAP.md ("The file", "Reading").
 *
 * blvl_hmap_read parses every chunk and field into the plain structs below and checks every
 * rule of the format, cross-chunk indices included (chunks may come in any order), before it
 * returns. Unknown chunks are kept with their bytes and position; blvl_hmap_write puts every
 * chunk back in file order, so read -> write is byte-identical. A refusal is BLVL_E_SOURCE with
 * the message "<chunk>: <field> at offset N: <rule>: <problem>" (offset from the file's start).
 *
 * blvl_hmap_bake converts a read map into a level (docs/IMPORT-HMAP.md: units, axes, contents,
 * classnames) through the source-neutral model of blvl/bake.h. */
#ifndef BLVL_HMAP_H
#define BLVL_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/bake.h"
#include "blvl/common.h"
#include "blvl/sections/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_HMAP_VERSION 1u
#define BLVL_HMAP_FLAG_SOURCE 1u   /* header flags bit 0: source chunks */
#define BLVL_HMAP_FLAG_COMPILED 2u /* header flags bit 1: compiled chunk */

/* contents bits */
#define BLVL_HMAP_SOLID 1u
#define BLVL_HMAP_WATER 2u
#define BLVL_HMAP_CLIP 4u
#define BLVL_HMAP_TRIGGER 8u
#define BLVL_HMAP_SKY 16u

/* A string: `size` bytes of UTF-8 (checked), not terminated in the file; the reader adds a NUL
 * after them so `bytes` is also a C string (a string holding a NUL byte is refused). */
typedef struct blvl_hmap_str {
    uint32_t size;
    char *bytes;
} blvl_hmap_str;

typedef struct blvl_hmap_uv {
    blvl_Vec2 offset, scale;
    float rotation; /* degrees */
} blvl_hmap_uv;

typedef struct blvl_hmap_box {
    blvl_Vec3 min, max;
} blvl_hmap_box;

/* Planes are the file's: dot(normal, p) == dist on the plane, solid behind it (the same
 * convention as blvl_Plane). */

typedef struct blvl_hmap_meta {
    blvl_hmap_str name;
    blvl_Vec3 ambient;
    float grid_size;
    float units_per_meter;
    uint32_t next_id;
} blvl_hmap_meta;

typedef struct blvl_hmap_material {
    blvl_hmap_str name, texture;
    blvl_Vec2 tile_size;
    blvl_Vec3 color;
    uint32_t flags;
} blvl_hmap_material;

typedef struct blvl_hmap_face {
    blvl_Plane plane;
    int32_t material; /* MATS index; negative = none */
    blvl_hmap_uv uv;
    uint32_t flags;
} blvl_hmap_face;

typedef struct blvl_hmap_brush {
    uint32_t id, owner, contents, flags;
    uint32_t face_count;
    blvl_hmap_face *faces;
} blvl_hmap_brush;

typedef struct blvl_hmap_poly {
    int32_t material; /* negative = none */
    uint32_t smooth;
    blvl_hmap_uv proj;
    uint32_t index_count;
    uint32_t *indices; /* into the mesh's vertices, CCW seen from the front */
    uint32_t uv_count; /* 0 (projected with proj) or index_count */
    blvl_Vec2 *uvs;
} blvl_hmap_poly;

typedef struct blvl_hmap_mesh {
    uint32_t id, owner, flags;
    blvl_hmap_str name;
    uint32_t vertex_count;
    blvl_Vec3 *vertices;
    uint32_t poly_count;
    blvl_hmap_poly *polys;
} blvl_hmap_mesh;

typedef struct blvl_hmap_pair {
    blvl_hmap_str key, value;
} blvl_hmap_pair;

typedef struct blvl_hmap_entity {
    uint32_t id, flags;
    blvl_hmap_str classname;
    blvl_Vec3 origin, angles, scale; /* angles: pitch, yaw, roll in degrees */
    uint32_t pair_count;
    blvl_hmap_pair *pairs;
} blvl_hmap_entity;

/* CMPL */
typedef struct blvl_hmap_cvertex {
    blvl_Vec3 pos, normal;
    blvl_Vec2 uv;
    uint32_t color; /* little-endian RGBA bytes, 0xAABBGGRR */
} blvl_hmap_cvertex;

typedef struct blvl_hmap_batch {
    int32_t material;
    uint8_t source; /* 0 brush/BSP, 1 mesh */
    int32_t model;
    uint32_t vertex_count;
    blvl_hmap_cvertex *vertices;
    uint32_t index_count;
    uint32_t *indices;
} blvl_hmap_batch;

typedef struct blvl_hmap_cbrush {
    uint32_t contents, source_id;
    blvl_hmap_box bounds;
    uint32_t plane_count;
    blvl_Plane *planes;
} blvl_hmap_cbrush;

typedef struct blvl_hmap_model {
    uint32_t entity_id;
    blvl_hmap_box bounds;
    uint32_t brush_count;
    blvl_hmap_cbrush *brushes;
} blvl_hmap_model;

typedef struct blvl_hmap_node {
    int32_t plane, front, back; /* child >= 0 node index, < 0 leaf ~value */
} blvl_hmap_node;

typedef struct blvl_hmap_leaf {
    uint32_t first_brush, brush_count; /* a range of leaf_brushes */
} blvl_hmap_leaf;

typedef struct blvl_hmap_bsp {
    int32_t root;
    uint32_t depth;
    blvl_hmap_box bounds;
    uint32_t plane_count;
    blvl_Plane *planes;
    uint32_t node_count;
    blvl_hmap_node *nodes;
    uint32_t leaf_count;
    blvl_hmap_leaf *leaves;
    uint32_t leaf_brush_count;
    uint32_t *leaf_brushes; /* indices into brushes */
    uint32_t brush_count;
    blvl_hmap_cbrush *brushes;
} blvl_hmap_bsp;

typedef struct blvl_hmap_mesh_coll {
    uint32_t object_id;
    blvl_hmap_box bounds;
    uint32_t vertex_count; /* a multiple of 3 */
    blvl_Vec3 *vertices;
} blvl_hmap_mesh_coll;

typedef struct blvl_hmap_light {
    uint8_t type; /* 0 point, 1 spot, 2 sun */
    blvl_Vec3 pos, dir, color;
    float intensity, radius, inner_deg, outer_deg;
    uint32_t entity_id;
} blvl_hmap_light;

typedef struct blvl_hmap_compiled {
    blvl_Vec3 ambient;
    float units_per_meter;
    uint8_t baked;
    blvl_hmap_box bounds;
    uint32_t batch_count;
    blvl_hmap_batch *batches;
    uint32_t model_count;
    blvl_hmap_model *models; /* model 0 = world */
    blvl_hmap_bsp bsp;
    uint32_t mesh_coll_count;
    blvl_hmap_mesh_coll *mesh_colls;
    uint32_t light_count;
    blvl_hmap_light *lights;
} blvl_hmap_compiled;

/* One chunk in file order. Known chunks point at their parsed content in blvl_hmap; an unknown
 * chunk keeps its tag and bytes. */
typedef struct blvl_hmap_chunk {
    char tag[4];
    uint32_t size;   /* payloadSize as read (the writer recomputes it for known chunks) */
    uint64_t offset; /* file offset of the tag */
    bool known;      /* META, MATS, BRSH, MESH, ENTS or CMPL */
    uint8_t *bytes;  /* unknown chunks: the payload */
} blvl_hmap_chunk;

typedef struct blvl_hmap {
    uint32_t version; /* 1 */
    uint32_t flags;   /* kept as read, unknown bits included */
    uint32_t chunk_count;
    blvl_hmap_chunk *chunks;
    blvl_hmap_meta *meta; /* NULL when the file has no META */
    uint32_t material_count;
    blvl_hmap_material *materials;
    uint32_t brush_count;
    blvl_hmap_brush *brushes;
    uint32_t mesh_count;
    blvl_hmap_mesh *meshes;
    uint32_t entity_count;
    blvl_hmap_entity *entities;
    blvl_hmap_compiled *compiled;                /* NULL when the file has no CMPL */
    bool has_mats, has_brsh, has_mesh, has_ents; /* the chunk was present (it may hold 0) */
    /* What blvl_hmap_free gives every array back to: blvl_hmap_read sets it to its options'
     * allocator; a map built by hand sets the one its arrays came from (zero: malloc). */
    blvl_allocator allocator;
} blvl_hmap;

/* Hostile-input limits: the file at most 1 GiB; every count is checked against the bytes
 * left before anything is allocated for it. */
#define BLVL_HMAP_MAX_FILE (1u << 30)

BLVL_API blvl_status blvl_hmap_read(blvl_hmap **out, const void *data, size_t size,
                                    const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_hmap_free(blvl_hmap *map);
/* The file bytes of `map` (free with blvl_free(opt, ptr)). A map that came from
 * blvl_hmap_read gives back the bytes it was read from. A map built by hand may leave
 * chunk_count 0: the writer then emits META (when meta is set), MATS, BRSH, MESH, ENTS (when
 * has_* is set) and CMPL (when compiled is set), in that order. The writer checks nothing a
 * reader would refuse: tests build malformed files with it. */
BLVL_API blvl_status blvl_hmap_write(void **out, size_t *size, const blvl_hmap *map,
                                     const blvl_options *opt, blvl_error *err);

/* Fill a bake model from a read map (docs/IMPORT-HMAP.md). A map built by hand must keep the
 * reader's rules (every array as long as its count, mesh polygon indices within the mesh's
 * vertices): the bake relies on them and does not check them again. */
BLVL_API blvl_status blvl_hmap_bake(const blvl_hmap *map, blvl_bake *bake, blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
