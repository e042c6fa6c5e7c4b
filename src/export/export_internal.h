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
#define xj_init blvl__xj_init
#define xj_free blvl__xj_free
#define xj_raw blvl__xj_raw
#define xj_obj blvl__xj_obj
#define xj_arr blvl__xj_arr
#define xj_end blvl__xj_end
#define xj_num blvl__xj_num
#define xj_u64 blvl__xj_u64
#define xj_bool blvl__xj_bool
#define xj_strn blvl__xj_strn
#define xj_str blvl__xj_str
#define xj_vec blvl__xj_vec
#define xj_item blvl__xj_item
#define xbuf_free blvl__xbuf_free
#define xbuf_take blvl__xbuf_take
#define xp_fail blvl__xp_fail
#define xp_check blvl__xp_check
#define xp_view blvl__xp_view
#define xp_accessor blvl__xp_accessor
#define xp_section blvl__xp_section
#define xp_glb blvl__xp_glb
#define xp_textures blvl__xp_textures
#define xp_materials blvl__xp_materials
#define xp_geometry blvl__xp_geometry
#define xp_nodes blvl__xp_nodes
#define xp_collision blvl__xp_collision
#define xp_image_bytes blvl__xp_image_bytes
#define xp_quat_look blvl__xp_quat_look
#define xp_quat_ypr blvl__xp_quat_ypr
#define xp_finite blvl__xp_finite
#define xp_batch_source blvl__xp_batch_source
#define xp_collider_source blvl__xp_collider_source
#define xp_scene_node blvl__xp_scene_node

#define XP_NONE 0xFFFFFFFFu
#define XP_M BLVL_EXPORT_METRES_PER_QU

/* ---- JSON text (json.c) ---- */
#define XJ_DEPTH 32
typedef struct xj {
    const blvl_allocator *al;
    char *p;
    size_t len, cap;
    int nomem;     /* an allocation failed: the text is incomplete */
    int nonfinite; /* a NaN or infinity was handed to xj_num: the text is incomplete */
    int depth;
    uint8_t first[XJ_DEPTH]; /* per open container: nothing written in it yet */
    char closer[XJ_DEPTH];   /* per open container: '}' or ']' */
    uint32_t items;          /* top-level items written (a list built item by item) */
} xj;

void xj_init(xj *j, const blvl_allocator *al);
void xj_free(xj *j);
void xj_raw(xj *j, const char *s, size_t n);
/* Containers and values; `key` is NULL inside an array or at the top of a list. */
void xj_obj(xj *j, const char *key);
void xj_arr(xj *j, const char *key);
void xj_end(xj *j); /* closes the innermost container */
void xj_num(xj *j, const char *key, double v);
void xj_u64(xj *j, const char *key, uint64_t v);
void xj_bool(xj *j, const char *key, int v);
/* A string of n bytes: control characters escaped, bytes that are not UTF-8 become U+FFFD. */
void xj_strn(xj *j, const char *key, const char *s, size_t n);
void xj_str(xj *j, const char *key, const char *s);
void xj_vec(xj *j, const char *key, const double *v, int n);
/* A list built one element at a time ("[a,b,c]" without the brackets): starts an element. */
void xj_item(xj *j);

/* ---- binary buffer (buffer.c) ---- */
typedef struct xbuf {
    const blvl_allocator *al;
    uint8_t *p;
    size_t len, cap;
    int nomem;
} xbuf;
void xbuf_free(xbuf *b);
/* Reserves n bytes at a 4-byte-aligned offset (zero padding before); NULL when out of memory. */
uint8_t *xbuf_take(xbuf *b, size_t n, size_t *offset);

/* ---- one export ---- */
typedef struct xp {
    const blvl_allocator *al;
    const blvl_export_options *xo;
    blvl_level *level;
    blvl_error *err;
    blvl_status st; /* first failure; later steps do nothing */
    xbuf bin;
    /* The top-level arrays, each built element by element, and their counts. */
    xj views, accessors, meshes, materials, textures, images, samplers, nodes, cameras, lights;
    uint32_t n_views, n_accessors, n_meshes, n_materials, n_textures, n_images, n_nodes, n_cameras,
        n_lights;
    xj scene0, scene1; /* root node indices of the level and collision scenes */
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
} xp;

/* Records the first failure (BLVL_E_ARGUMENT unless `code` says otherwise); returns it. */
blvl_status xp_fail(xp *x, blvl_status code, const char *fmt, ...) BLVL_PRINTF(3, 4);
/* Out of memory in a JSON list or the buffer: the failure to record (0 when none). */
int xp_check(xp *x);

/* The node being written (the next in x->nodes) as a root of `scene` (&x->scene0, the level;
 * &x->scene1, the collision scene): its index listed there. */
void xp_scene_node(xp *x, xj *scene);

/* A buffer view over [offset, offset + size) of the buffer; returns its index. stride 0 = tightly
 * packed (glTF wants it given when several accessors share a vertex view); target 0 = none. */
uint32_t xp_view(xp *x, size_t offset, size_t size, uint32_t stride, uint32_t target);
/* An accessor; min/max (n each) may be NULL. Returns its index. */
uint32_t xp_accessor(xp *x, uint32_t view, size_t offset, uint32_t component, int normalized,
                     uint32_t count, const char *type, const double *min, const double *max, int n);

/* The .glb of the finished document (glb.c); *out freed with blvl__free_sized. */
blvl_status xp_glb(xp *x, const char *json, size_t json_len, uint8_t **out, size_t *out_size);

/* Reads a core section: 1 present (*root set, free b), 0 absent, -1 failed (x->st set). */
int xp_section(xp *x, const char *tag, blvl_bytes *b, const uint8_t **root);

/* The steps, in order. Each returns x->st. */
blvl_status xp_textures(xp *x);  /* textures.images and the lightmap: images, textures, samplers */
blvl_status xp_materials(xp *x); /* geometry.materials */
blvl_status xp_geometry(xp *x);  /* vertices, batches: meshes and their nodes */
blvl_status xp_nodes(xp *x);     /* cameras, punctual lights, spawns, triggers, sites, hurt */
blvl_status xp_collision(xp *x); /* colliders (when xo->collision) */

/* The image check and PNG conversion (image.c): `data` as stored under `encoding`; sets
 * *png (owned by the caller, freed with blvl__free) when it had to convert, else points
 * *bytes at the data. mime is "image/png" or "image/jpeg". */
blvl_status xp_image_bytes(xp *x, const char *where, uint32_t encoding, uint32_t width,
                           uint32_t height, uint32_t mips, uint32_t layers, const uint8_t *data,
                           size_t size, const uint8_t **bytes, size_t *nbytes, uint8_t **owned,
                           const char **mime);

/* A rotation taking glTF's forward (-Z) to the unit direction d, as a quaternion (x, y, z, w). */
void xp_quat_look(const double d[3], double q[4]);
/* Ry(yaw) Rx(pitch) Rz(roll), degrees, as a quaternion (x, y, z, w). */
void xp_quat_ypr(double yaw, double pitch, double roll, double q[4]);
int xp_finite(const double *v, int n);

/* The .bsym source of a batch or a collider into the open extras object (symbols.c); nothing
 * without symbols. */
void xp_batch_source(xp *x, xj *j, uint32_t batch);
void xp_collider_source(xp *x, xj *j, uint32_t collider);

#endif
