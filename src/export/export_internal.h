/* The glTF export's shared pieces: a JSON text being built (json.c), the binary buffer and its
 * views and accessors (buffer.c), and the state one export carries through its steps
 * (export.c calls geometry.c, material.c, nodes.c, collision.c in turn). */
#ifndef BLVL_EXPORT_INTERNAL_H
#define BLVL_EXPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/export.h"
#include "blvl/sections.h"
#include "common/alloc.h"
#include "common/error.h"

/* Internal names live in the library's blvl__ namespace (tests/test_symbols.sh). */

#define XP_NONE 0xFFFFFFFFu
#define XP_M BLVL_EXPORT_METRES_PER_QU

/* ---- JSON text (json.c) ---- */
#define XJ_DEPTH 32
typedef struct json_text {
    const blvl_allocator *al;
    char *p;
    size_t len, cap;
    int nomem;     /* an allocation failed: the text is incomplete */
    int nonfinite; /* a NaN or infinity was handed to blvl__export_json_num: the text is incomplete
                    */
    int depth;
    uint8_t first[XJ_DEPTH]; /* per open container: nothing written in it yet */
    char closer[XJ_DEPTH];   /* per open container: '}' or ']' */
    uint32_t items;          /* top-level items written (a list built item by item) */
} json_text;

void blvl__export_json_init(json_text *j, const blvl_allocator *al);
void blvl__export_json_free(json_text *j);
void blvl__export_json_raw(json_text *j, const char *s, size_t n);
/* Containers and values; `key` is NULL inside an array or at the top of a list. */
void blvl__export_json_obj(json_text *j, const char *key);
void blvl__export_json_arr(json_text *j, const char *key);
void blvl__export_json_end(json_text *j); /* closes the innermost container */
void blvl__export_json_num(json_text *j, const char *key, double v);
void blvl__export_json_u64(json_text *j, const char *key, uint64_t v);
void blvl__export_json_bool(json_text *j, const char *key, int v);
/* A string of n bytes: control characters escaped, bytes that are not UTF-8 become U+FFFD. */
void blvl__export_json_strn(json_text *j, const char *key, const char *s, size_t n);
void blvl__export_json_str(json_text *j, const char *key, const char *s);
void blvl__export_json_vec(json_text *j, const char *key, const double *v, int n);
/* A list built one element at a time ("[a,b,c]" without the brackets): starts an element. */
void blvl__export_json_item(json_text *j);

/* ---- binary buffer (buffer.c) ---- */
typedef struct bin_buffer {
    const blvl_allocator *al;
    uint8_t *p;
    size_t len, cap;
    int nomem;
} bin_buffer;
void blvl__export_buf_free(bin_buffer *b);
/* Reserves n bytes at a 4-byte-aligned offset (zero padding before); NULL when out of memory. */
uint8_t *blvl__export_buf_take(bin_buffer *b, size_t n, size_t *offset);
/* Gives back the tail past `len` of what the last take reserved (a take that needed less). */
void blvl__export_buf_trim(bin_buffer *b, size_t len);

/* ---- one export ---- */
typedef struct gltf_export {
    const blvl_allocator *al;
    const blvl_export_options *xo;
    blvl_level *level;
    blvl_error *err;
    blvl_status st; /* first failure; later steps do nothing */
    bin_buffer bin;
    /* The top-level arrays, each built element by element, and their counts. */
    json_text views, accessors, meshes, materials, textures, images, samplers, nodes, cameras,
        lights;
    uint32_t n_views, n_accessors, n_meshes, n_materials, n_textures, n_images, n_nodes, n_cameras,
        n_lights;
    json_text scene0, scene1, scene2; /* root node indices of the level, collision and acoustics
                                       scenes */
    /* The geometry section, read once for the materials and the meshes. */
    blvl_bytes geo_bytes;
    blvl_Geometry geo;
    int have_geo;
    blvl_bytes sim_bytes; /* sim, required: read once for the markers and the colliders */
    blvl_Sim sim;
    /* What later steps need from earlier ones. */
    uint32_t level_textures;   /* textures.images count (glTF textures 0..n-1) */
    uint32_t lightmap_texture; /* glTF texture of the lightmap; XP_NONE */
    uint32_t lightmap_layers;
    float lightmap_gain;
    uint32_t lightmap_encoding;
    uint32_t level_materials;       /* geometry.materials count (glTF materials 0..n-1) */
    uint32_t *material_lightmapped; /* per level material: 1 when it takes the lightmap */
    float light_scale;
    int any_lights;
    int any_collision;
    int any_acoustics;
} gltf_export;

/* Records the first failure (BLVL_E_ARGUMENT unless `code` says otherwise); returns it. */
blvl_status blvl__export_fail(gltf_export *x, blvl_status code, const char *fmt, ...)
    BLVL_PRINTF(3, 4);
/* Out of memory in a JSON list or the buffer: the failure to record (0 when none). */
int blvl__export_check(gltf_export *x);

/* The node being written (the next in x->nodes) as a root of `scene` (&x->scene0, the level;
 * &x->scene1, the collision scene; &x->scene2, the acoustics scene): its index listed there. */
void blvl__export_scene_node(gltf_export *x, json_text *scene);

/* A buffer view over [offset, offset + size) of the buffer; returns its index. stride 0 = tightly
 * packed (glTF wants it given when several accessors share a vertex view); target 0 = none. */
uint32_t blvl__export_view(gltf_export *x, size_t offset, size_t size, uint32_t stride,
                           uint32_t target);
/* An accessor; min/max (n each) may be NULL. Returns its index. */
uint32_t blvl__export_accessor(gltf_export *x, uint32_t view, size_t offset, uint32_t component,
                               int normalized, uint32_t count, const char *type, const double *min,
                               const double *max, int n);

/* The .glb of the finished document (glb.c); *out freed with blvl__free_sized. */
blvl_status blvl__export_glb(gltf_export *x, const char *json, size_t json_len, uint8_t **out,
                             size_t *out_size);

/* Reads a core section: 1 present (*root set, free b), 0 absent, -1 failed (x->st set). */
int blvl__export_section(gltf_export *x, const char *tag, blvl_bytes *b, const uint8_t **root);

/* The steps, in order. Each returns x->st. */
blvl_status blvl__export_textures(
    gltf_export *x); /* textures.images and the lightmap: images, textures, samplers */
blvl_status blvl__export_materials(gltf_export *x); /* geometry.materials */
blvl_status blvl__export_geometry(gltf_export *x);  /* vertices, batches: meshes and their nodes */
blvl_status
blvl__export_nodes(gltf_export *x); /* cameras, punctual lights, spawns, triggers, sites, hurt */
blvl_status blvl__export_collision(gltf_export *x); /* colliders (when xo->collision) */
blvl_status blvl__export_acoustics(gltf_export *x); /* probes and edges (when xo->acoustics) */

/* The image check and PNG conversion (image.c): `data` as stored under `encoding`; sets
 * *png (owned by the caller, freed with blvl__free) when it had to convert, else points
 * *bytes at the data. mime is "image/png" or "image/jpeg". */
blvl_status blvl__export_image_bytes(gltf_export *x, const char *where, uint32_t encoding,
                                     uint32_t width, uint32_t height, uint32_t mips,
                                     uint32_t layers, const uint8_t *data, size_t size,
                                     const uint8_t **bytes, size_t *nbytes, uint8_t **owned,
                                     const char **mime);

/* A rotation taking glTF's forward (-Z) to the unit direction d, as a quaternion (x, y, z, w). */
void blvl__export_quat_look(const double d[3], double q[4]);
/* Ry(yaw) Rx(pitch) Rz(roll), degrees, as a quaternion (x, y, z, w). */
void blvl__export_quat_ypr(double yaw, double pitch, double roll, double q[4]);
int blvl__export_finite(const double *v, int n);

/* The .bsym source of a batch or a collider into the open extras object (symbols.c); nothing
 * without symbols. */
void blvl__export_batch_source(gltf_export *x, json_text *j, uint32_t batch);
void blvl__export_collider_source(gltf_export *x, json_text *j, uint32_t collider);

#endif
