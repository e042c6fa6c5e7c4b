/* The probe object: what blvl_probe_new copies out of a level, shared by the look, the camera
 * and the renderer's files. */
#ifndef BLVL_PROBE_INTERNAL_H
#define BLVL_PROBE_INTERNAL_H

#include "blvl/probe.h"
#include "blvl/sections.h"
#include "common/alloc.h"
#include "common/error.h"

/* One decoded picture (RGBA8, rows top to bottom); layers stacked one after another. */
typedef struct probe_picture {
    uint32_t width, height, layers;
    uint8_t *rgba; /* NULL: not decoded (drawn by normal / unlit) */
} probe_picture;

typedef struct probe_material {
    const char *name; /* into the kept geometry bytes */
    uint32_t texture; /* textures index; BLVL_TRACE_NONE */
    uint8_t blend, alpha_test;
    float alpha_ref;
    bool sky, two_sided;
    bool lightmapped; /* Shading.lightmapped: false = lit by its vertex colours */
} probe_material;

typedef struct probe_batch {
    uint32_t first_tri, tri_count;
    uint32_t material; /* BLVL_TRACE_NONE when out of range */
    uint16_t lightmap_layer;
} probe_batch;

typedef struct probe_spawn {
    float pos[3];
    float yaw;
    const char *kind; /* into the kept sim bytes */
} probe_spawn;

typedef struct probe_camera {
    const char *name; /* into the kept cameras bytes */
    uint32_t purpose;
    blvl_probe_pose pose;
} probe_camera;

struct blvl_probe {
    blvl_allocator al;
    blvl_options opt;
    blvl_level *level; /* borrowed: open while the probe lives */
    bool pictures_loaded;
    /* sections read, refused, and gone on without: at most cameras, textures, lighting and
     * lightmaps, each once */
    blvl_probe_damage damaged[4];
    uint32_t damaged_count;
    bool cameras_damaged;
    blvl_trace_world *world;
    blvl_bytes geometry_bytes, sim_bytes, cameras_bytes;
    /* geometry: vertices copied (aligned), triangles whose indices are all in range */
    blvl_Vertex *vertices;
    uint32_t vertex_count;
    uint32_t *indices; /* 3 per triangle; a triangle with an index out of range is 0 0 0 */
    uint32_t tri_count;
    uint32_t *tri_batch; /* batch of each triangle; BLVL_TRACE_NONE outside every batch */
    probe_batch *batches;
    uint32_t batch_count;
    probe_material *materials;
    uint32_t material_count;
    uint32_t *collider_flags; /* sim.colliders[i].flags */
    uint32_t collider_count;
    probe_spawn *spawns;
    uint32_t spawn_count;
    probe_camera *cameras;
    uint32_t camera_count;
    float lo[3], hi[3]; /* bounds of the geometry (else of the colliders); lo > hi when none */
    /* pictures: textures.images (decoded base level, first layer), the lightmap colour page */
    probe_picture *textures;
    uint32_t texture_count;
    probe_picture lightmap;
    float lightmap_gain;     /* gain * the profile's lightmap_scale; 0 = no lightmap */
    bool lightmap_gamma;     /* Gamma8: bytes already in display space */
    float lightmap_lut[256]; /* a lightmap byte as display light (gain and gamma applied) */
};

/* load.c: note a degradable section's refusal `st` (not BLVL_OK, not absent); BLVL_E_NOMEM is
 * returned to fail the call, anything else is kept for blvl_probe_damaged and BLVL_OK returned. */
blvl_status blvl__probe_degraded(blvl_probe *p, const char *section, blvl_status st,
                                 const blvl_error *e, blvl_error *err);

/* texture.c: the pictures blvl_probe_load_pictures decoded. */
void blvl__probe_free_pictures(blvl_probe *p);

/* camera.c: the pose's axes and the projection scales for a width x height picture. */
typedef struct probe_view {
    float eye[3], fwd[3], right[3], up[3];
    float sx, sy;     /* pixels per unit of x/z and y/z */
    float cx, cy;     /* picture centre, pixels */
    bool no_textures; /* BLVL_PROBE_RENDER_NO_TEXTURES */
} probe_view;
void blvl__probe_view(const blvl_probe_pose *pose, uint32_t width, uint32_t height, probe_view *v);

/* raster.c: the visibility buffer: per pixel 1/z, triangle (BLVL_TRACE_NONE = empty) and
 * perspective-correct barycentrics of vertices 1 and 2. */
typedef struct probe_vis {
    uint32_t width, height;
    float *inv_z;
    uint32_t *tri;
    float *b1, *b2;
} probe_vis;
void blvl__probe_rasterise(const blvl_probe *p, const probe_view *v, probe_vis *vis);

/* shade.c: colour every pixel of the visibility buffer. */
void blvl__probe_shade(const blvl_probe *p, const probe_view *v, const probe_vis *vis,
                       uint8_t *rgba);
/* The texel of picture `pic` (layer) at uv (repeating), RGBA. */
void blvl__probe_sample(const probe_picture *pic, uint32_t layer, float u, float v, bool repeat,
                        uint8_t out[4]);

/* wire.c: collider outlines over the picture, depth-tested against vis. */
blvl_status blvl__probe_wire(const blvl_probe *p, const probe_view *v, const probe_vis *vis,
                             uint8_t *rgba, blvl_error *err);

static inline float probe_dot(const float a[3], const float b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
#endif
