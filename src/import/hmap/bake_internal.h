/* blvl_hmap_bake's pieces (docs/IMPORT-HMAP.md): one context shared by
 *   bake.c             the order of the steps, entities, spawns, meta
 *   bake_units.c       the scale (map units -> qu) and the angle -> direction rule
 *   bake_offsets.c     file offsets of fields, for refusals
 *   bake_classnames.c  the classname table and entity keys
 *   bake_collide.c     colliders, doors, triggers, hurt volumes, teleport destinations
 *   bake_geometry.c    geometry from the sources (brush faces, mesh polygons)
 *   bake_cmpl.c        what comes from CMPL: batches, collision models, mesh collision
 *   bake_lighting.c    lighting */
#ifndef BLVL_IMPORT_HMAP_BAKE_INTERNAL_H
#define BLVL_IMPORT_HMAP_BAKE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "blvl/bake.h"
#include "blvl/hmap.h"

/* What an entity's classname makes of it (bake_classnames.c has the table). */
typedef enum hb_class {
    HB_OTHER = 0,     /* kept verbatim in entities, nothing else */
    HB_WORLD,         /* worldspawn */
    HB_DOOR,          /* func_door: a sliding door */
    HB_PUSH,          /* trigger_push */
    HB_TELEPORT,      /* trigger_teleport */
    HB_HURT,          /* trigger_hurt */
    HB_TRIGGER_OTHER, /* any other trigger_*: no sim volume, not drawn, not solid */
    HB_DEST,          /* info_teleport_destination, misc_teleporter_dest */
    HB_SPAWN,         /* info_player_* (but intermission) */
    HB_INTERMISSION,  /* info_player_intermission: a camera */
    HB_LIGHT,         /* light */
    HB_LIGHT_SPOT,    /* light_spot */
    HB_LIGHT_SUN,     /* light_sun */
} hb_class;

typedef struct hb_idmap {
    uint32_t id, index;
} hb_idmap;

typedef struct hmap_bake {
    const blvl_hmap *map;
    blvl_bake *b;
    const blvl_allocator *al;
    const blvl_options *opt;
    blvl_error *err;
    double s; /* qu per map unit */
    /* entities */
    hb_class *cls; /* per entity */
    hb_idmap *ids; /* entity id -> index, sorted by id (first of equal ids wins) */
    uint32_t id_count;
    uint32_t *door;    /* per entity: door index, BLVL_BAKE_NONE */
    uint32_t *dest;    /* per entity: teleport destination index, BLVL_BAKE_NONE */
    blvl_Vec3 *ent_lo; /* per entity: bounds of its brushes in qu (lo.x > hi.x: none) */
    blvl_Vec3 *ent_hi;
    uint32_t *mat;       /* per MATS material: bake material index */
    uint32_t face_total; /* faces in BRSH: mesh polygons number on after them */
} hmap_bake;

/* bake.c */
/* The entity index of an owner id: *index = BLVL_BAKE_NONE for 0 (the world); false when no
 * entity has the id. */
bool blvl__import_hmap_bake_owner(const hmap_bake *c, uint32_t owner, uint32_t *index);
uint32_t blvl__import_hmap_bake_material(const hmap_bake *c,
                                         int32_t material); /* BLVL_BAKE_NONE for < 0 */
blvl_Vec3 blvl__import_hmap_bake_point(const hmap_bake *c, blvl_Vec3 p); /* map units -> qu */

/* bake_units.c */
blvl_status blvl__import_hmap_bake_units(hmap_bake *c);
/* The unit forward vector of (pitch, yaw, roll) degrees: R = Ry(yaw) Rx(pitch) Rz(roll)
 * applied to -Z. */
blvl_Vec3 blvl__import_hmap_bake_forward(blvl_Vec3 angles);
blvl_Vec3 blvl__import_hmap_bake_normalize(blvl_Vec3 v, bool *ok);
/* A plane in qu: normal made unit, distance scaled; false for a zero or non-finite one. */
bool blvl__import_hmap_bake_plane(const hmap_bake *c, blvl_Plane in, blvl_Plane *out);
bool blvl__import_hmap_bake_finite3(blvl_Vec3 v);

/* bake_offsets.c: file offsets (of the first byte) of what refusals name. For a hand-built map
 * (chunk_count 0) they are where blvl_hmap_write would put them. */
uint64_t blvl__import_hmap_bake_off_chunk(const blvl_hmap *m,
                                          const char tag[4]); /* the chunk's tag */
uint64_t blvl__import_hmap_bake_off_meta_upm(const blvl_hmap *m);
uint64_t blvl__import_hmap_bake_off_cmpl_upm(const blvl_hmap *m);
uint64_t blvl__import_hmap_bake_off_brush(const blvl_hmap *m, uint32_t i); /* the brush record */
uint64_t blvl__import_hmap_bake_off_face(const blvl_hmap *m, uint32_t i, uint32_t j);
uint64_t blvl__import_hmap_bake_off_mesh(const blvl_hmap *m, uint32_t i); /* the mesh record */
uint64_t blvl__import_hmap_bake_off_mesh_vertex(const blvl_hmap *m, uint32_t i, uint32_t v);
uint64_t blvl__import_hmap_bake_off_entity(const blvl_hmap *m, uint32_t i);
uint64_t blvl__import_hmap_bake_off_pair_value(const blvl_hmap *m, uint32_t i, uint32_t p);
uint64_t blvl__import_hmap_bake_off_cmpl_light(const blvl_hmap *m, uint32_t i);
uint64_t blvl__import_hmap_bake_off_cmpl_batch(const blvl_hmap *m, uint32_t i);
uint64_t blvl__import_hmap_bake_off_cmpl_model(const blvl_hmap *m, uint32_t i);
/* plane k of collision brush j of model i; vertex v of mesh collision object i */
uint64_t blvl__import_hmap_bake_off_cmpl_plane(const blvl_hmap *m, uint32_t i, uint32_t j,
                                               uint32_t k);
uint64_t blvl__import_hmap_bake_off_cmpl_coll_vertex(const blvl_hmap *m, uint32_t i, uint32_t v);

/* bake_classnames.c */
hb_class blvl__import_hmap_bake_classify(const char *classname);
const char *blvl__import_hmap_bake_key(const blvl_hmap_entity *e, const char *key,
                                       uint32_t *pair); /* NULL: none */
/* A number key: *out = def when absent; refused (BLVL_E_SOURCE) when it is not one finite
 * number. */
blvl_status blvl__import_hmap_bake_key_float(hmap_bake *c, uint32_t entity, const char *key,
                                             float def, float *out, bool *present);
/* "x y z": three finite numbers. */
blvl_status blvl__import_hmap_bake_key_vec3(hmap_bake *c, uint32_t entity, const char *key,
                                            blvl_Vec3 def, blvl_Vec3 *out, bool *present);

/* bake_collide.c */
blvl_status blvl__import_hmap_bake_sim_prepare(hmap_bake *c); /* entity bounds from the sources */
/* Teleport destinations (every destination entity, in ENTS order) and doors (every func_door
 * that owns a brush), once the entities' bounds are known. */
blvl_status blvl__import_hmap_bake_sim_entities(hmap_bake *c);
blvl_status blvl__import_hmap_bake_add_door(hmap_bake *c, uint32_t entity);
/* A brush's planes in qu / a mesh's vertices in qu, refused when not finite. */
blvl_status blvl__import_hmap_bake_brush_planes(hmap_bake *c, uint32_t brush, blvl_Plane *out);
blvl_status blvl__import_hmap_bake_mesh_points(hmap_bake *c, uint32_t mesh, blvl_Vec3 *out);
blvl_status blvl__import_hmap_bake_sim_brushes(hmap_bake *c, const uint32_t *brush_source);
blvl_status blvl__import_hmap_bake_sim_meshes(hmap_bake *c, const uint32_t *mesh_source);
/* One brush of planes in qu (a source or a compiled one) into sim, by contents and owner. */
blvl_status blvl__import_hmap_bake_sim_brush(hmap_bake *c, uint32_t contents, uint32_t entity,
                                             uint32_t material, const blvl_Plane *planes,
                                             uint32_t plane_count, uint32_t symbol);
/* Whether brushes of this contents and owner class become a trigger or hurt volume, and
 * whether they are drawn. */
bool blvl__import_hmap_bake_is_volume(hb_class owner);
bool blvl__import_hmap_bake_is_drawn(uint32_t contents, hb_class owner);
/* Colliders from one mesh's polygons (positions in qu, indices per polygon): one hull when the
 * mesh is provably convex, else a thick triangle per fan triangle. */
blvl_status blvl__import_hmap_bake_sim_polys(hmap_bake *c, const blvl_bake_collider *col,
                                             const blvl_Vec3 *points, uint32_t point_count,
                                             const uint32_t *sizes, uint32_t poly_count,
                                             const uint32_t *indices, uint32_t index_count);
#define HB_TRIANGLE_THICKNESS 1.0f /* qu behind a mesh triangle's face */

/* bake_geometry.c */
blvl_status blvl__import_hmap_bake_geom_brushes(hmap_bake *c, const uint32_t *face_source);
blvl_status blvl__import_hmap_bake_geom_meshes(hmap_bake *c, const uint32_t *poly_source);
/* UV of a point (map units) on a face of normal n: the dominant-axis projection. */
void blvl__import_hmap_bake_project_uv(blvl_Vec3 p, blvl_Vec3 n, const blvl_hmap_uv *uv,
                                       blvl_Vec2 tile, float out[2]);

/* bake_cmpl.c */
blvl_status blvl__import_hmap_bake_cmpl_prepare(hmap_bake *c); /* entity bounds from CMPL models */
blvl_status blvl__import_hmap_bake_cmpl_models(hmap_bake *c);
blvl_status blvl__import_hmap_bake_cmpl_mesh_colls(hmap_bake *c);
blvl_status blvl__import_hmap_bake_cmpl_batches(hmap_bake *c);

/* bake_lighting.c */
blvl_status blvl__import_hmap_bake_lighting(hmap_bake *c);

#endif
