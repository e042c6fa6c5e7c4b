/* The bake model's storage (this folder's files fill it, bake/write/ reads it).
 * Everything is owned: strings and arrays are copies from the caller's allocator. */
#ifndef BLVL_BAKE_MODEL_H
#define BLVL_BAKE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bake/model/fast.h"
#include "bake/convex/shapes.h"
#include "blvl/bake.h"
#include "blvl/common.h"
#include "blvl/symbols.h"

/* A growable array: p holds cap elements, the first n used. */
#define BAKE_ARRAY(T)                                                                              \
    struct {                                                                                       \
        T *p;                                                                                      \
        uint32_t n, cap;                                                                           \
    }

typedef struct bake_image {
    char *name;
    uint32_t width, height;
    uint8_t encoding, color_space;
    uint8_t *data; /* blvl__alloc_sized */
    size_t size;
} bake_image;

typedef struct bake_surface {
    uint32_t first_vertex, vertex_count; /* in blvl_bake.vertices */
    uint32_t first_index, index_count;   /* in blvl_bake.indices, local to the surface */
    uint32_t material, door, breakable, fog, gametypes, source;
    /* NONE: every triangle's source is `source`; else triangle t's is tri_sources[this + t]
     * (blvl__bake_model_add_surface_tris: one surface for many cells, each triangle still named) */
    uint32_t first_tri_source;
    uint16_t lightmap_layer;
    /* NULL: the vertices are in blvl_bake.vertices at first_vertex; else the bake makes them
     * when it writes (blvl__bake_model_add_surface_made), and first_vertex means nothing */
    blvl__bake_make_fn make;
    const void *make_ctx;
} bake_surface;

typedef struct bake_collider {
    blvl_bake_collider c; /* source_name owned */
    bake_shape shape;
} bake_collider;

/* A made prism (blvl__bake_model_add_prism_made): the collider's fields, without a name, and what
 * its maker needs to make the corners again. The shape (corners, template faces, bounds) is made
 * when a writer asks (blvl__bake_model_collider_at): 44 bytes a collider where a stored prism takes
 * 120 and its corners 72 or 96 more. */
typedef struct bake_made_prism {
    uint32_t key[4];
    uint32_t flags, material, door, gametypes, source_entity, symbol;
    uint16_t maker;
    uint8_t source_kind, variant; /* variant: the template's (known_prism.c) */
} bake_made_prism;

typedef struct bake_prism_maker {
    blvl__bake_prism_make_fn make;
    const void *ctx;
} bake_prism_maker;

/* Collider i as the writers see it: a stored one, or a made prism made into `corners`. */
typedef struct bake_collider_view {
    bake_collider k;
    blvl_Vec3 corners[8];
} bake_collider_view;

typedef struct bake_teleport {
    char *name;
    blvl_Vec3 position;
    float yaw;
} bake_teleport;

typedef struct bake_spawn {
    blvl_Vec3 position;
    float yaw;
    char *kind, *team;
    uint32_t gametypes;
} bake_spawn;

typedef struct bake_entity {
    char *classname;
    blvl_bake_pair *pairs; /* key and value owned */
    uint32_t pair_count;
} bake_entity;

typedef struct bake_site {
    char *name;
    uint8_t kind;
    blvl_Vec3 lo, hi;
} bake_site;

typedef struct bake_camera {
    char *name;
    uint8_t purpose;
    blvl_Vec3 pos;
    float yaw, pitch, roll, fov_x;
} bake_camera;

typedef struct bake_fog {
    blvl_Vec3 lo, hi, color;
    float depth;
} bake_fog;

/* blvl_bake_set_lightmap: the colour pages as one PNG, pages stacked top to bottom. */
typedef struct bake_lightmap {
    uint32_t width, height, layers;
    uint8_t encoding;
    float gain;
    uint8_t *png; /* blvl__alloc_sized */
    size_t size;
} bake_lightmap;

/* blvl_bake_set_light_grid: the three images already in their written form, raw Rgba8
 * (width * height * layers * 4 bytes each, blvl__alloc_sized). */
typedef struct bake_grid {
    blvl_Vec3 origin, cell_size;
    uint32_t width, height, layers;
    uint8_t encoding;
    float gain;
    uint8_t *ambient, *directional, *direction;
} bake_grid;

/* blvl_bake_set_sky: six size x size faces as one PNG of size x 6 * size. */
typedef struct bake_sky {
    char *name;
    uint32_t size;
    uint8_t *png; /* blvl__alloc_sized */
    size_t png_size;
} bake_sky;

/* One block of the bake's arena: small owned arrays that live as long as the bake (known
 * hulls), so a million colliders cost a few hundred allocations, not a million. */
typedef struct bake_block {
    struct bake_block *next;
    size_t size, used; /* bytes of data after the header */
} bake_block;

/* One prism shape's face loops (known_prism.c), shared by every prism of that shape. */
#define BAKE_PRISM_TEMPLATES 8 /* triangle or quad, split, solid up or down */
typedef struct bake_prism_template {
    uint32_t *face_sizes, *face_indices; /* in the arena */
    uint32_t face_count, face_index_count;
} bake_prism_template;

struct blvl_bake {
    blvl_options opt;
    const blvl_allocator *al; /* &opt.allocator */
    blvl_bake_meta meta;      /* strings owned */
    /* kept in the .bsym's form, handed to its writer as they are (no copy of a million) */
    BAKE_ARRAY(blvl_symbols_source) sources;
    BAKE_ARRAY(bake_image) images;
    BAKE_ARRAY(blvl_bake_material) materials; /* name, source_name, source_texture owned */
    BAKE_ARRAY(blvl_bake_vertex) vertices;
    uint32_t made_vertices; /* of the made surfaces, held by no table */
    BAKE_ARRAY(uint32_t) indices;
    BAKE_ARRAY(bake_surface) surfaces;
    BAKE_ARRAY(uint32_t) tri_sources;    /* per triangle, for surfaces with first_tri_source */
    BAKE_ARRAY(bake_collider) colliders; /* the stored ones */
    BAKE_ARRAY(bake_made_prism) made_prisms;
    BAKE_ARRAY(bake_prism_maker) prism_makers;
    /* collider i (the order they were added in) is colliders.p[order[i]], or
     * made_prisms.p[order[i] & ~BAKE_MADE] when BAKE_MADE is set */
    BAKE_ARRAY(uint32_t) collider_order;
    BAKE_ARRAY(blvl_bake_door) doors;       /* name, team owned */
    BAKE_ARRAY(blvl_bake_trigger) triggers; /* planes owned */
    BAKE_ARRAY(bake_teleport) teleports;
    BAKE_ARRAY(bake_spawn) spawns;
    BAKE_ARRAY(blvl_bake_hurt) hurts; /* name, planes owned */
    BAKE_ARRAY(bake_entity) entities;
    BAKE_ARRAY(bake_site) sites;
    BAKE_ARRAY(bake_camera) cameras;
    BAKE_ARRAY(blvl_bake_light) lights;
    BAKE_ARRAY(bake_fog) fogs;
    float kill_y;
    bool acoustics;          /* blvl_bake_set_acoustics: compute the acoustics section */
    float acoustics_spacing; /* its lattice spacing, qu */
    bool draft;              /* blvl_bake_set_draft: level-1 chunks, meta.tool marked */
    bool spend; /* blvl__bake_model_spend: written once, parts freed as their sections are done */
    bool spent; /* a spend bake once written: its vertices are gone */
    bool has_ambient, has_sun;
    blvl_Vec3 ambient, sun_direction, sun_color;
    float sun_intensity;
    bake_block *blocks;                               /* the arena, newest first */
    bake_prism_template prisms[BAKE_PRISM_TEMPLATES]; /* known_prism.c, made on first use */
    bake_lightmap *lightmap;                          /* NULL = none (lightmaps.c) */
    bake_grid *grid;                                  /* NULL = none */
    bake_sky *sky;                                    /* NULL = none */
};

/* Frees the lightmap, light grid and sky (blvl_bake_free). */
void blvl__bake_model_free_lighting(blvl_bake *b);

/* Room for `bytes` more in the arena in one block (one allocation with a huge-page hint, not
 * one per MiB), so a million small records cost few page faults; NULL when out of memory. */
bool blvl__bake_model_arena_reserve(blvl_bake *b, size_t bytes);

#define BAKE_MADE 0x80000000u

/* The colliders in the order added, stored or made. _at returns collider i (in *v when made:
 * valid until v is used again); _info its fields alone, without making a shape. */
static inline uint32_t blvl__bake_model_collider_count(const blvl_bake *b) {
    return b->collider_order.n;
}
const bake_collider *blvl__bake_model_collider_at(const blvl_bake *b, uint32_t i,
                                                  bake_collider_view *v);
blvl_bake_collider blvl__bake_model_collider_info(const blvl_bake *b, uint32_t i);

/* Stores a checked made prism (prisms.c): the collider as blvl__bake_model_store_prism would
 * store the corners its maker makes, in the form above. */
blvl_status blvl__bake_model_store_made_prism(blvl_bake *b, const blvl_bake_collider *c,
                                              uint32_t maker, const uint32_t key[4],
                                              uint8_t variant, uint32_t *index, blvl_error *err);
/* The shape of a checked prism: its 2n corners `v` (not copied), the template's faces. */
void blvl__bake_model_prism_shape(blvl_Vec3 *v, uint32_t vertex_count, const bake_prism_template *t,
                                  bake_shape *s);

/* Stores a checked prism (prisms.c): its 2n corners `v` in the arena, the faces the
 * template's; the collider as blvl_bake_add_hull would store it. */
blvl_status blvl__bake_model_store_prism(blvl_bake *b, const blvl_bake_collider *c, blvl_Vec3 *v,
                                         uint32_t vertex_count, const bake_prism_template *t,
                                         uint32_t *index, blvl_error *err);

/* Room for `extra` more elements in the array whose pointer is at `arrp` (n used, *cap held).
 * Counts stay below BLVL_BAKE_NONE, so every index fits the schema's "none" convention. */
blvl_status blvl__bake_model_reserve(blvl_bake *b, void *arrp, uint32_t n, uint32_t *cap,
                                     uint32_t extra, size_t elem, blvl_error *err);
#define BAKE_RESERVE(b, arr, extra, err)                                                           \
    blvl__bake_model_reserve((b), &(arr).p, (arr).n, &(arr).cap, (extra), sizeof *(arr).p, (err))
#define BAKE_FREE(b, arr)                                                                          \
    blvl__bake_model_dealloc((b), (arr).p, (size_t)(arr).cap * sizeof *(arr).p)
void blvl__bake_model_dealloc(const blvl_bake *b, void *p, size_t size);

/* A copy of `s` (NULL stays NULL); *ok false when the allocator said no. */
char *blvl__bake_model_str(blvl_bake *b, const char *s, bool *ok);
void blvl__bake_model_str_free(blvl_bake *b, char *s);
/* A copy of n bytes (NULL when n is 0 or on failure; *ok tells which). */
void *blvl__bake_model_dup(blvl_bake *b, const void *p, size_t n, bool *ok);

/* The checks every add makes: an index names something added already, or is NONE. */
/* Every float of the vertex finite (add_surface checks given vertices, the geometry writer made
 * ones). */
bool blvl__bake_model_vertex_finite(const blvl_bake_vertex *v);
blvl_status blvl__bake_model_check_index(uint32_t index, uint32_t count, const char *what,
                                         blvl_error *err);
bool blvl__bake_model_finite3(blvl_Vec3 v);

/* Seconds on a monotonic clock (stats). */
double blvl__bake_model_now(void);
/* CPU seconds of the calling thread (stats: the model's work alone, whatever the machine's load).
 */
double blvl__bake_model_cpu_now(void);

#endif
