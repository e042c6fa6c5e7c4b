/* blvl_q3_bake's pieces (docs/IMPORT-Q3.md): one context shared by the steps, run in this
 * order by bake.c (the order fixes the output bytes):
 *   1. meta and the entities verbatim                      bake.c
 *   2. materials and images from the shaders, the sky      bake_materials*.c  (q3m_*)
 *   3. fog volumes, lightmaps, light grid, sun             bake_lighting*.c   (q3l_*)
 *   4. entity semantics: model placement, doors, spawns,
 *      triggers, hurt volumes, sites, gametypes, kill_y    bake_entities*.c   (q3e_*)
 *   5. colliders: brushes, patch hulls                      bake_collide*.c    (q3c_*)
 *   6. geometry: surfaces, tessellated patches              bake_geometry*.c   (q3g_*)
 * A step reads what earlier steps left in the context and never what later ones do. */
#ifndef BLVL_IMPORT_Q3_BAKE_INTERNAL_H
#define BLVL_IMPORT_Q3_BAKE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "blvl/bake.h"
#include "blvl/q3.h"

/* Axes: Quake 3 (x, y, z) -> blvl (x, z, -y). */
static inline blvl_Vec3 q3_axes(const float v[3]) {
    blvl_Vec3 r = {v[0], v[2], -v[1]};
    return r;
}

/* Where a BSP model (model 0 the world, the others brush entities) ends up. */
typedef struct q3_model_place {
    blvl_Vec3 offset;   /* added to its positions, blvl axes (an entity's origin key) */
    uint32_t entity;    /* bake entity index of the entity that names it; NONE for the world */
    uint32_t door;      /* bake door index; NONE */
    uint32_t gametypes; /* BLVL_BAKE_ALL_GAMETYPES */
    bool skip;          /* neither drawn nor solid (e.g. trigger brushes, which become triggers) */
    bool nonsolid;      /* drawn, not solid (func_static with no clip ...) */
} q3_model_place;

/* What a BSP shader (the shaders lump entry) became. */
typedef struct q3_shader_info {
    uint32_t material;        /* bake material index; NONE for a shader never drawn */
    uint32_t source_material; /* .bsym material index (same as material here) */
    bool nodraw;              /* nothing to draw (nodraw, skip, hint, clip shaders) */
    bool sky;
    bool fog;           /* a fog shader */
    float fog_color[3]; /* fogparms colour, 0..1 as written */
    float fog_depth;    /* fogparms distance to opaque, qu */
    bool vertex_lit;
    bool two_sided;
    int tess_size; /* q3map_tessSize; 0 = none */
} q3_shader_info;

typedef struct q3_ctx {
    const blvl_q3_bsp *bsp;
    const blvl_q3_bake_options *o;
    blvl_q3_bake_report *report; /* the caller's or a local one: never NULL */
    blvl_bake *b;
    const blvl_options *opt; /* the bake's options: scratch memory uses their allocator */
    blvl_error *err;

    blvl_q3_entities ents;       /* parsed entity string */
    uint32_t *entity_index;      /* per entity: bake entity index */
    const blvl_q3_entity *world; /* entity 0 (worldspawn), or NULL */

    q3_shader_info *shader;  /* per BSP shader; filled by step 2 (defaults before it) */
    uint32_t *fog_volume;    /* per BSP fog: bake fog volume index; filled by step 3 */
    uint32_t lightmap_pages; /* lightmap atlas pages written (0 = none) */
    /* Step 3 rewrites lightmap UVs: page of BSP lightmap n, and its placement in the page. */
    struct q3_lm_place {
        uint16_t layer;
        float scale_u, scale_v, offset_u, offset_v; /* uv' = uv * scale + offset */
    } * lightmap_place;                             /* per BSP lightmap, NULL when none */
    q3_model_place *model; /* per BSP model; filled by step 4 (defaults before it) */
} q3_ctx;

/* bake.c */

/* bake_brush_bounds.c: the bounds of a convex plane set (its face corners); *any false when it
 * has none. A failure of blvl_bake_brush_polygons is returned as it is. */
blvl_status blvl__import_q3_brush_bounds(const q3_ctx *c, const blvl_Plane *planes, uint32_t count,
                                         blvl_Vec3 *lo, blvl_Vec3 *hi, bool *any);

/* The steps; each returns BLVL_OK or a refusal / allocation failure in c->err. */
blvl_status blvl__import_q3_mat_materials(q3_ctx *c);
blvl_status blvl__import_q3_light_lighting(q3_ctx *c);
blvl_status blvl__import_q3_ent_entities(q3_ctx *c);
blvl_status blvl__import_q3_coll_colliders(q3_ctx *c);
blvl_status blvl__import_q3_geo_geometry(q3_ctx *c);

#endif
