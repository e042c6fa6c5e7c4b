/* blvl bake: the source-neutral level model every importer fills, and its writer.
 *
 * An importer (src/import/<format>/) reads its source into plain C structs, converts them into
 * this model in Quake units (1 qu = 1 inch = 0.0254 m), +Y up, -Z forward, and calls
 * blvl_bake_write. Only the bake calls the generated FlatBuffers builders and the container
 * writer: colliders become sim (brush planes with the axial planes and edge bevels a swept box
 * needs, hulls of convex point sets), surfaces become geometry (tangents computed, batches split
 * by material, door, fog and match types and sorted by the material's sort key, translucent
 * last), and the rest becomes meta, lighting, entities, textures, sites and cameras. The
 * optional .bsym symbols sidecar names where every collider and triangle run came from.
 *
 * Determinism: the same calls in the same order give byte-identical output (same identity),
 * whatever blvl_options.threads is. Everything added is copied; the caller's buffers need not
 * outlive the call. Indices returned by the add functions are final: the bake reorders
 * triangles into batches but never renumbers materials, images, colliders, entities, doors,
 * triggers, teleport destinations, fog volumes or symbol sources.
 *
 *   blvl_bake *b;
 *   blvl_bake_new(&b, &opt, &err);
 *   blvl_bake_meta m = {.name = "Crossing", .engine = blvl_Engine_Hmap};
 *   blvl_bake_set_meta(b, &m, &err);
 *   ... blvl_bake_add_material, _add_surface, _add_brush, _add_spawn, ...
 *   blvl_bake_write_file(b, "crossing.blvl", "crossing.bsym", NULL, &err); // atomic; no stats
 *   blvl_bake_free(b);
 */
#ifndef BLVL_BAKE_H
#define BLVL_BAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/common.h"
#include "blvl/sections/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_BAKE_NONE 0xFFFFFFFFu /* "no index", as in the schema */
#define BLVL_BAKE_ALL_GAMETYPES 0xFFFFFFFFu

typedef struct blvl_bake blvl_bake;

BLVL_API blvl_status blvl_bake_new(blvl_bake **out, const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_bake_free(blvl_bake *b);
/* The options the model was made with (a copy kept by blvl_bake_new): an importer allocates its
 * scratch memory with their allocator. */
BLVL_API const blvl_options *blvl_bake_options(const blvl_bake *b);

/* ---- meta -------------------------------------------------------------------------------- */

typedef struct blvl_bake_meta {
    const char *name;        /* display name; NULL = absent */
    const char *author;      /* NULL = absent */
    const char *description; /* NULL = absent */
    uint64_t created;        /* seconds since 1970; 0 = unknown (a bake stays deterministic) */
    uint16_t engine;         /* blvl_Engine_* (blvl/sections/meta.h) */
} blvl_bake_meta;

/* meta.tool is "blvl <version>" ("blvl <version> draft" for a draft: blvl_bake_set_draft).
 * Without this call meta holds the tool alone. */
BLVL_API blvl_status blvl_bake_set_meta(blvl_bake *b, const blvl_bake_meta *m, blvl_error *err);

/* ---- symbols (.bsym) -------------------------------------------------------------------- */

/* One element of the source map (schema/bsym.fbs, struct SymbolSource). Colliders and
 * surfaces name one by the index this returns; the sidecar holds them in this order. */
typedef struct blvl_bake_source {
    uint32_t kind;           /* blvl_SourceKind_* (Brush, Face, Patch, Prop, PhysicsShape) */
    uint32_t index;          /* its number in the source map */
    uint32_t surface_flags;  /* the engine's own surface flags */
    uint32_t contents_flags; /* the engine's own contents flags */
    uint32_t entity;         /* entity index (blvl_bake_add_entity order), BLVL_BAKE_NONE */
    uint32_t material;       /* material index, BLVL_BAKE_NONE */
} blvl_bake_source;

BLVL_API blvl_status blvl_bake_add_source(blvl_bake *b, const blvl_bake_source *s, uint32_t *index,
                                          blvl_error *err);

/* ---- images and materials --------------------------------------------------------------- */

/* An RGBA8 image (width * height * 4 bytes, rows top to bottom), stored as PNG (stb). */
BLVL_API blvl_status blvl_bake_add_image_rgba8(blvl_bake *b, const char *name, uint32_t width,
                                               uint32_t height, const uint8_t *rgba, bool srgb,
                                               uint32_t *index, blvl_error *err);
/* An image already encoded (PNG or JPEG file bytes, or raw/BC blobs per schema/common.fbs),
 * carried verbatim. `encoding` is blvl_ImageEncoding_*, `color_space` blvl_ColorSpace_*. */
BLVL_API blvl_status blvl_bake_add_image_encoded(blvl_bake *b, const char *name, uint32_t width,
                                                 uint32_t height, uint8_t encoding,
                                                 uint8_t color_space, const void *bytes,
                                                 size_t size, uint32_t *index, blvl_error *err);

/* The render state of geometry.Material (schema/geometry.fbs) that importers set.
 * blvl_bake_material_init gives the schema defaults. */
typedef struct blvl_bake_material {
    const char *name;        /* material name after merging */
    uint32_t texture;        /* image index of the albedo texture; BLVL_BAKE_NONE */
    float sort;              /* sort key, lower first: 3 opaque, 4 decal, 9 additive */
    uint8_t blend;           /* blvl_BlendMode_*; anything but Opaque counts as translucent */
    bool depth_write;        /* default true */
    uint8_t alpha_test;      /* blvl_AlphaTest_* */
    float alpha_ref;         /* default 0.5 */
    bool two_sided;          /* no back-face culling */
    bool polygon_offset;     /* decal */
    bool env_map;            /* environment mapped */
    bool sky;                /* a sky surface */
    bool water;              /* a water surface: the material gets an (empty) Water table */
    const char *source_name; /* .bsym materials: the name as the source spelled it; NULL = name */
    const char *source_texture; /* .bsym materials: texture path as the source spelled it */
    const char *source_shader;  /* .bsym materials: the script file that defined it; NULL */
    /* .bsym materials: keywords of its script the bake did not read, each "keyword args" as
     * written, in script order (SymbolMaterial.unknown). */
    const char *const *unknown_keywords;
    uint32_t unknown_keyword_count;
    /* Shading (written only when one of these differs from its default): */
    bool vertex_lit;                   /* Shading.lightmapped = false */
    const struct blvl_bake_anim *anim; /* Shading.anim; NULL = none */
    /* Pbr (written only when one of these is set): */
    const char *const *surface_params; /* the source's surface parameters as written */
    uint32_t surface_param_count;
    bool emits;           /* emit_color and emit_intensity hold the emitted light */
    blvl_Vec3 emit_color; /* linear RGB 0..1 */
    float emit_intensity; /* the source engine's unit (q3map_surfacelight) */
} blvl_bake_material;

/* idTech3 shader animation, as geometry.Anim carries it (schema/geometry.fbs). */
typedef struct blvl_bake_wave {
    uint32_t func; /* blvl_WaveFunc_* */
    float base, amp, phase, freq;
} blvl_bake_wave;
typedef struct blvl_bake_tcmod {
    uint8_t kind; /* blvl_TcModKind_* */
    float args[4];
    bool has_wave; /* Stretch */
    blvl_bake_wave wave;
} blvl_bake_tcmod;
typedef struct blvl_bake_deform {
    uint8_t kind; /* blvl_DeformKind_* */
    float spread;
    bool has_wave;
    blvl_bake_wave wave;
    blvl_Vec3 vector;
    bool has_bulge;
    float bulge_width, bulge_height, bulge_speed;
} blvl_bake_deform;
typedef struct blvl_bake_anim {
    const blvl_bake_tcmod *tcmods;
    uint32_t tcmod_count;
    bool has_rgb_wave, has_alpha_wave;
    blvl_bake_wave rgb_wave, alpha_wave;
    const uint32_t *frames; /* image indices (animMap) */
    uint32_t frame_count;
    float fps;
    bool has_deform;
    blvl_bake_deform deform;
} blvl_bake_anim;

BLVL_API void blvl_bake_material_init(blvl_bake_material *m);
BLVL_API blvl_status blvl_bake_add_material(blvl_bake *b, const blvl_bake_material *m,
                                            uint32_t *index, blvl_error *err);

/* ---- geometry --------------------------------------------------------------------------- */

typedef struct blvl_bake_vertex {
    float position[3];    /* qu */
    float normal[3];      /* unit */
    float uv[2];          /* 1.0 = one texture repeat */
    float lightmap_uv[2]; /* 0..1, zero without a lightmap */
    uint8_t color[4];     /* RGBA8, sRGB bytes; white when the source has none */
} blvl_bake_vertex;

/* Triangles that share a material, door, fog volume, match types and symbol source. The bake
 * computes each vertex's tangent from positions, normals and UVs (per-triangle tangents summed
 * at shared vertices, Gram-Schmidt against the normal, sign from the bitangent; a vertex whose
 * UVs are degenerate gets a tangent perpendicular to its normal), splits and sorts batches and
 * writes one geometry.TriRun per surface into the .bsym. */
typedef struct blvl_bake_surface {
    const blvl_bake_vertex *vertices;
    uint32_t vertex_count;
    const uint32_t *indices; /* index_count / 3 triangles, counter-clockwise seen from the front */
    uint32_t index_count;
    uint32_t material;       /* material index; BLVL_BAKE_NONE */
    uint32_t door;           /* door index; BLVL_BAKE_NONE */
    uint32_t breakable;      /* reserved for breakables; BLVL_BAKE_NONE */
    uint32_t fog;            /* fog volume index; BLVL_BAKE_NONE */
    uint32_t gametypes;      /* match-type mask; BLVL_BAKE_ALL_GAMETYPES */
    uint16_t lightmap_layer; /* 0 */
    uint32_t source;         /* symbol source index; BLVL_BAKE_NONE */
} blvl_bake_surface;

BLVL_API void blvl_bake_surface_init(blvl_bake_surface *s); /* the NONE / ALL defaults */
/* Refused (BLVL_E_ARGUMENT) when index_count is not a multiple of 3, an index is past
 * vertex_count, or an index field names nothing added yet. */
BLVL_API blvl_status blvl_bake_add_surface(blvl_bake *b, const blvl_bake_surface *s,
                                           blvl_error *err);

/* ---- colliders -------------------------------------------------------------------------- */

/* What every collider carries besides its shape (sim.Collider and sim.ColliderSource). */
typedef struct blvl_bake_collider {
    uint32_t flags;          /* blvl_ColliderFlag_* bits */
    uint32_t material;       /* material index (a water collider's surface); BLVL_BAKE_NONE */
    uint32_t door;           /* door index; BLVL_BAKE_NONE */
    uint32_t gametypes;      /* BLVL_BAKE_ALL_GAMETYPES */
    uint8_t source_kind;     /* blvl_ColliderSourceKind_* of sim.collider_sources */
    const char *source_name; /* targetname, model name, ...; NULL = absent */
    uint32_t source_entity;  /* entity index of the placing entity; BLVL_BAKE_NONE */
    uint32_t symbol;         /* symbol source index (.bsym colliders); BLVL_BAKE_NONE */
} blvl_bake_collider;

BLVL_API void blvl_bake_collider_init(blvl_bake_collider *c); /* World, NONE, ALL */

/* A convex brush from its outward planes (a point p is inside when dot(n, p) - d <= 0 for
 * every plane). Planes that bound no face are dropped; the collider is stored as Planes with the
 * six axial planes and the edge bevels a swept box needs (Quake's rule), and its bounds. A brush
 * that encloses no volume or is unbounded adds nothing: *index = BLVL_BAKE_NONE, status OK
 * (the importer reports it). */
BLVL_API blvl_status blvl_bake_add_brush(blvl_bake *b, const blvl_bake_collider *c,
                                         const blvl_Plane *planes, uint32_t plane_count,
                                         uint32_t *index, blvl_error *err);
/* The convex hull of a point set, stored as a Hull (vertices and face loops). Fewer than 4
 * points, or all points within 1/64 qu of one plane, add nothing (*index = BLVL_BAKE_NONE). */
BLVL_API blvl_status blvl_bake_add_hull(blvl_bake *b, const blvl_bake_collider *c,
                                        const blvl_Vec3 *points, uint32_t point_count,
                                        uint32_t *index, blvl_error *err);
/* One triangle of a triangle soup as a Hull: the triangle (counter-clockwise seen from the
 * front) and its copy moved `thickness` qu behind its face. A degenerate triangle adds
 * nothing (*index = BLVL_BAKE_NONE). */
BLVL_API blvl_status blvl_bake_add_triangle(blvl_bake *b, const blvl_bake_collider *c,
                                            const blvl_Vec3 tri[3], float thickness,
                                            uint32_t *index, blvl_error *err);
/* An axis-aligned box collider (Planes: the six axial planes). */
BLVL_API blvl_status blvl_bake_add_box(blvl_bake *b, const blvl_bake_collider *c, blvl_Vec3 lo,
                                       blvl_Vec3 hi, uint32_t *index, blvl_error *err);

/* Merge axis-aligned boxes in place: two boxes with the same key that share a whole face become
 * one, repeated until no pair does. Deterministic (the result depends only on the input order).
 * Returns the new count; `boxes` holds the merged boxes first. For tile maps (Subspace) whose
 * cells are boxes: merge first, then blvl_bake_add_box each. */
typedef struct blvl_bake_box {
    blvl_Vec3 lo, hi;
    uint32_t key; /* boxes merge only with boxes of the same key (the caller's collider kind) */
} blvl_bake_box;
BLVL_API size_t blvl_bake_merge_boxes(blvl_bake_box *boxes, size_t count);

/* The faces of a convex brush: for each input plane, the polygon of the brush on it (the
 * plane's base square clipped by every other plane), wound counter-clockwise seen from outside.
 * out->sizes[i] is 0 for a plane with no face. Free with blvl_bake_polygons_free. */
typedef struct blvl_bake_polygons {
    uint32_t count;    /* = plane_count */
    uint32_t *sizes;   /* corners of each plane's face, 0 = none */
    blvl_Vec3 *points; /* the faces' corners, face after face */
    uint32_t point_count;
    blvl_allocator allocator; /* the call's options' allocator: what the free gives back to */
} blvl_bake_polygons;
BLVL_API blvl_status blvl_bake_brush_polygons(blvl_bake_polygons *out, const blvl_Plane *planes,
                                              uint32_t plane_count, const blvl_options *opt,
                                              blvl_error *err);
BLVL_API void blvl_bake_polygons_free(blvl_bake_polygons *p);

/* Whether a polygon mesh bounds a convex solid, so one blvl_bake_add_hull of its vertices
 * stands for it: closed (every edge used exactly twice, once each way), every polygon planar, and
 * every vertex on or behind every polygon's plane, within 1/64 qu. Polygons are `sizes[i]`
 * indices each, taken in turn from `indices`, counter-clockwise seen from outside. */
BLVL_API bool blvl_bake_mesh_is_convex(const blvl_Vec3 *vertices, uint32_t vertex_count,
                                       const uint32_t *sizes, uint32_t poly_count,
                                       const uint32_t *indices, uint32_t index_count);

/* ---- sim: doors, triggers, spawns, hurt volumes ----------------------------------------- */

/* sim.Door. Bounds: when lo.x > hi.x (blvl_bake_door_init's value) the bake takes the union
 * of the colliders that name the door. */
typedef struct blvl_bake_door {
    const char *name;
    uint8_t kind;    /* blvl_DoorKind_* */
    uint8_t trigger; /* blvl_DoorTrigger_* */
    blvl_Vec3 lo, hi;
    blvl_Vec3 direction; /* Slide: unit */
    float distance;      /* Slide: qu, lip applied */
    blvl_Vec3 hinge_origin, hinge_axis;
    float angle; /* Swing: degrees */
    float speed; /* 100 */
    float wait;  /* 2; -1 = stays open */
    const char *team;
    uint32_t gametypes;
} blvl_bake_door;
BLVL_API void blvl_bake_door_init(blvl_bake_door *d);
BLVL_API blvl_status blvl_bake_add_door(blvl_bake *b, const blvl_bake_door *d, uint32_t *index,
                                        blvl_error *err);

/* sim.Trigger: the box lo..hi, or the convex volume of `planes` when plane_count > 0. */
typedef struct blvl_bake_trigger {
    uint8_t kind; /* blvl_TriggerKind_* */
    blvl_Vec3 lo, hi;
    const blvl_Plane *planes;
    uint32_t plane_count;
    blvl_Vec3 velocity;     /* Push: qu per second */
    uint32_t teleport_dest; /* Teleport: teleport destination index; BLVL_BAKE_NONE */
    uint32_t gametypes;
} blvl_bake_trigger;
BLVL_API blvl_status blvl_bake_add_trigger(blvl_bake *b, const blvl_bake_trigger *t,
                                           blvl_error *err);
BLVL_API blvl_status blvl_bake_add_teleport_dest(blvl_bake *b, const char *name, blvl_Vec3 position,
                                                 float yaw, uint32_t *index, blvl_error *err);

/* sim.Spawn. yaw: degrees, 0 looks down -Z, positive turns toward -X. */
BLVL_API blvl_status blvl_bake_add_spawn(blvl_bake *b, blvl_Vec3 position, float yaw,
                                         const char *kind, const char *team, uint32_t gametypes,
                                         blvl_error *err);

/* sim.HurtVolume. */
typedef struct blvl_bake_hurt {
    const char *name;
    uint8_t kind; /* blvl_HurtKind_* */
    blvl_Vec3 lo, hi;
    const blvl_Plane *planes;
    uint32_t plane_count;
    float amount;
    float interval; /* 1 */
} blvl_bake_hurt;
BLVL_API blvl_status blvl_bake_add_hurt(blvl_bake *b, const blvl_bake_hurt *h, blvl_error *err);
/* sim.kill_y (default -131072 qu). */
BLVL_API void blvl_bake_set_kill_y(blvl_bake *b, float y);

/* ---- entities, sites, cameras ----------------------------------------------------------- */

typedef struct blvl_bake_pair {
    const char *key, *value;
} blvl_bake_pair;
/* One entity verbatim, in source order; its index is what colliders and sources name. */
BLVL_API blvl_status blvl_bake_add_entity(blvl_bake *b, const char *classname,
                                          const blvl_bake_pair *pairs, uint32_t pair_count,
                                          uint32_t *index, blvl_error *err);
BLVL_API blvl_status blvl_bake_add_site(blvl_bake *b, const char *name, uint8_t kind, blvl_Vec3 lo,
                                        blvl_Vec3 hi, blvl_error *err);
/* cameras.Camera; fov_x 0 = the schema default (90). */
BLVL_API blvl_status blvl_bake_add_camera(blvl_bake *b, const char *name, uint8_t purpose,
                                          blvl_Vec3 pos, float yaw, float pitch, float roll,
                                          float fov_x, blvl_error *err);

/* ---- lighting --------------------------------------------------------------------------- */

/* Profile 0 ("authored"): ambient (linear RGB) and an optional sun. `direction` points from
 * the level toward the sun (unit). */
BLVL_API void blvl_bake_set_ambient(blvl_bake *b, blvl_Vec3 rgb);
BLVL_API void blvl_bake_set_sun(blvl_bake *b, blvl_Vec3 direction, blvl_Vec3 color,
                                float intensity);

/* lighting.PunctualLight. */
typedef struct blvl_bake_light {
    uint8_t kind; /* blvl_PunctualKind_* */
    blvl_Vec3 position;
    blvl_Vec3 direction;          /* Spot: unit cone axis */
    blvl_Vec3 color;              /* linear RGB 0..1 */
    float intensity;              /* source engine's unit */
    float range;                  /* qu */
    float inner_cone, outer_cone; /* Spot: half-angles, degrees */
    bool baked_diffuse;
} blvl_bake_light;
BLVL_API blvl_status blvl_bake_add_light(blvl_bake *b, const blvl_bake_light *l, blvl_error *err);
/* The lightmap atlas: `layers` pages of width x height RGBA8 texels each (alpha 255), rows top
 * to bottom, page after page. Written as the lightmaps section's one Lightmap (its color image
 * a PNG of the pages stacked top to bottom, sRGB for Gamma8, with `encoding` and `gain`) and
 * named by profile 0. Surfaces address a page by lightmap_layer. Called at most once. */
BLVL_API blvl_status blvl_bake_set_lightmap(blvl_bake *b, uint32_t width, uint32_t height,
                                            uint32_t layers, const uint8_t *rgba, uint8_t encoding,
                                            float gain, blvl_error *err);

/* The light grid of profile 0 (lighting.LightGrid, AmbientDirectional), in blvl axes. Images
 * are width = cells along X, height = cells along Z, layers = cells along Y: the cell at
 * origin + (x, y, z) * cell_size is byte 3 * (x + width * (z + height * y)) of ambient and
 * directional (RGB8) and element x + width * (z + height * y) of direction (unit, toward the
 * light; zero where the cell holds no light). */
typedef struct blvl_bake_light_grid {
    blvl_Vec3 origin;    /* centre of cell (0, 0, 0), qu */
    blvl_Vec3 cell_size; /* qu between cell centres along X, Y, Z */
    uint32_t width, height, layers;
    const uint8_t *ambient, *directional; /* RGB8 */
    const blvl_Vec3 *direction;
    uint8_t encoding; /* blvl_LightmapEncoding_* */
    float gain;
} blvl_bake_light_grid;
BLVL_API blvl_status blvl_bake_set_light_grid(blvl_bake *b, const blvl_bake_light_grid *g,
                                              blvl_error *err);

/* The sky of profile 0: a cubemap of six size x size RGBA8 faces in the order +X, -X, +Y, -Y,
 * +Z, -Z (blvl axes, +Y up), face after face, written to the cubemaps section (PNG, layers
 * stacked, sRGB) and named by the profile's sky. Called at most once. */
BLVL_API blvl_status blvl_bake_set_sky(blvl_bake *b, const char *name, uint32_t size,
                                       const uint8_t *rgba, blvl_error *err);

BLVL_API blvl_status blvl_bake_add_fog_volume(blvl_bake *b, blvl_Vec3 lo, blvl_Vec3 hi,
                                              blvl_Vec3 color, float depth, uint32_t *index,
                                              blvl_error *err);

/* ---- acoustics ------------------------------------------------------------------------- */

#define BLVL_BAKE_ACOUSTICS_SPACING 96.0f /* qu between lattice columns, the default */

/* Compute the acoustics section when the level is written (docs/ACOUSTICS.md): a probe lattice
 * on the walkable floors, `spacing` qu apart (0 = BLVL_BAKE_ACOUSTICS_SPACING; 16..1024), from
 * the final colliders with every door open. Off until called (a model built by hand writes no
 * acoustics); the import front door (blvl/import.h) turns it on for the formats with floors.
 * The section is absent when no probe stands anywhere. */
BLVL_API blvl_status blvl_bake_set_acoustics(blvl_bake *b, bool enabled, float spacing,
                                             blvl_error *err);

/* ---- drafts ----------------------------------------------------------------------------- */

/* A draft bake, for iteration (docs/BAKE.md, "Drafts"): every chunk the writer compresses is
 * stored as its zstd level-1 frame instead of level 19 (the same raw test decides which chunks
 * stay raw), and meta.tool gets the marker BLVL_BAKE_DRAFT_MARKER ("blvl <version> draft").
 * The raw bytes of every other section are the release bake's; the stored bytes, and so the
 * identity, differ. Every reader takes a draft; `blvl diag` warns about one (D0046). Off until
 * called. */
#define BLVL_BAKE_DRAFT_MARKER " draft"
BLVL_API blvl_status blvl_bake_set_draft(blvl_bake *b, bool draft, blvl_error *err);

/* ---- writing ---------------------------------------------------------------------------- */

/* Counts of what a write produced, for the command line and the benchmark. */
typedef struct blvl_bake_stats {
    uint32_t colliders, planes, triangles, batches, materials, images, entities;
    double seconds_model;     /* building sections from the model (tangents, batching, builders) */
    double seconds_compress;  /* the container writer: zstd and digests */
    double cpu_seconds_model; /* seconds_model as CPU time of the calling thread */
    double seconds_acoustics; /* of seconds_model: the acoustics step (wall time) */
    uint32_t acoustic_probes, acoustic_edges, acoustic_rooms; /* 0: no section */
} blvl_bake_stats;

/* Write the level (meta and sim always, every other section when the model holds something
 * for it: docs/BAKE.md) and, when symbols_path is not NULL, the .bsym sidecar that
 * names the level's identity. Atomic: each file is written to a temporary beside it, synced and
 * renamed; on failure neither target is touched and no temporary is left. `stats` may be NULL.
 * The model is unchanged and may be written again. */
BLVL_API blvl_status blvl_bake_write_file(blvl_bake *b, const char *level_path,
                                          const char *symbols_path, blvl_bake_stats *stats,
                                          blvl_error *err);
/* The same bytes in memory; free each with blvl_free(opt, ptr). symbols may be NULL. */
BLVL_API blvl_status blvl_bake_write_memory(blvl_bake *b, void **level, size_t *level_size,
                                            void **symbols, size_t *symbols_size,
                                            blvl_bake_stats *stats, blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
