/* The geometry step's pieces (docs/IMPORT-Q3.md, "Geometry"). */
#ifndef BLVL_IMPORT_Q3_BAKE_GEOMETRY_H
#define BLVL_IMPORT_Q3_BAKE_GEOMETRY_H

#include "bake_internal.h"

#define BLVL_Q3G_SPAN_MAX 16u              /* segments of one Bezier span under the error rule */
#define BLVL_Q3G_SUBDIV_MAX 64u            /* patch_subdivisions above this is refused */
#define BLVL_Q3G_PATCH_TRIS_MAX (1u << 24) /* tessellated triangles of a whole map */
#define BLVL_Q3G_ERROR                                                                             \
    4.0 /* qu a span's chords may leave its curve (the engine's r_subdivisions) */

/* A vertex while tessellating: blvl axes, the model's offset applied, lightmap UVs in the atlas. */
typedef struct q3g_vert {
    double p[3], n[3], st[2], lm[2], rgba[4];
} q3g_vert;

/* The step's state: the model that places each surface (the first whose range holds it). */
typedef struct q3_geometry {
    q3_ctx *c;
    uint32_t *model_of; /* per surface; BLVL_BAKE_NONE when no model holds it */
} q3_geometry;

/* Whether BSP surface s is drawn (its type, its shader, its model). */
bool blvl__import_q3_geo_drawn(const q3_geometry *g, uint32_t s);
/* A draw vertex of surface s converted (non-finite values replaced and counted). */
void blvl__import_q3_geo_vert(q3_ctx *c, const blvl_q3_surface *s, const q3_model_place *m,
                              const blvl_q3_draw_vert *d, q3g_vert *out);
void blvl__import_q3_geo_out(const q3g_vert *v, blvl_bake_vertex *out);

/* Patch tessellation levels: per drawn patch surface, segments per span along u then along v,
 * equal for spans that share an edge (so neighbours meet without cracks). levels[first[s]..]
 * holds surface s's (w - 1) / 2 u spans then (h - 1) / 2 v spans; first has surface_count
 * entries (unused for other surfaces). Refuses maps over BLVL_Q3G_PATCH_TRIS_MAX. */
typedef struct q3g_levels {
    uint32_t *level, *first;
    uint32_t span_count;
} q3g_levels;
blvl_status blvl__import_q3_geo_levels(const q3_geometry *g, q3g_levels *out);
void blvl__import_q3_geo_levels_free(q3_ctx *c, q3g_levels *l);
/* The tessellated grid of patch surface s: *vn vertices, *tn triangles (blvl winding). */
blvl_status blvl__import_q3_geo_tessellate(q3_ctx *c, uint32_t s, const q3_model_place *m,
                                           const uint32_t *lu, const uint32_t *lv,
                                           blvl_bake_vertex **verts, uint32_t *vn, uint32_t **idx,
                                           uint32_t *tn);

#endif
