/* Internal fast paths for importers that know their data's shape and size (src/import/ only;
 * not public): room for a whole level's tables up front, surfaces written in place or made when
 * written, and Hull colliders whose corners and face loops are already known to be convex (the
 * checks are bake/convex/known.h's; what they refuse falls back to the general hull). */
#ifndef BLVL_BAKE_MODEL_FAST_H
#define BLVL_BAKE_MODEL_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bake/convex/known.h"
#include "blvl/bake.h"

/* How many more of each the caller is about to add (an estimate: more may follow). */
typedef struct bake_counts {
    uint32_t sources, vertices, indices, surfaces, colliders;
    uint32_t made_prisms; /* blvl__bake_model_add_prism_made */
    uint32_t tri_sources; /* triangles of blvl__bake_model_add_surface_tris surfaces */
    size_t arena;         /* bytes of the bake's arena (known hulls, prisms); 0 = no estimate */
} bake_counts;

/* Room in the model's tables for `more` beyond what they hold; BLVL_E_NOMEM or BLVL_E_ARGUMENT
 * (past the tables' limit) on failure, the model unchanged but for capacity. */
blvl_status blvl__bake_model_reserve_counts(blvl_bake *b, const bake_counts *more, blvl_error *err);

/* Room at the end of the model's vertex and index arrays for one surface the caller writes in
 * place, without a staging copy: *vertices holds vertex_count, *indices index_count, valid until
 * the next add. blvl_bake_add_surface given these pointers (and counts within the room) checks
 * the surface as always and takes the data where it lies; given others, it copies as always. */
blvl_status blvl__bake_model_surface_room(blvl_bake *b, uint32_t vertex_count, uint32_t index_count,
                                          blvl_bake_vertex **vertices, uint32_t **indices,
                                          blvl_error *err);

/* Room at the end of the model's per-triangle source map for `count` entries, written in place
 * and handed to blvl__bake_model_add_surface_tris; valid until the next add. */
blvl_status blvl__bake_model_tri_source_room(blvl_bake *b, uint32_t count, uint32_t **tri_sources,
                                             blvl_error *err);

/* blvl_bake_add_surface for a surface whose triangles come from different sources (a run of
 * cells drawn as one surface): tri_sources[s->index_count / 3] each names a source added
 * already, or NONE; s->source is ignored. The .bsym still names every triangle's source, so one
 * surface can stand for many cells: fewer surfaces, the same written geometry and symbols. */
blvl_status blvl__bake_model_add_surface_tris(blvl_bake *b, const blvl_bake_surface *s,
                                              const uint32_t *tri_sources, blvl_error *err);

/* `bytes` from the bake's arena (8-aligned), freed with the bake; NULL when out of memory. An
 * importer keeps there what must live as long as the bake (a made surface's data, below). */
void *blvl__bake_model_arena(blvl_bake *b, size_t bytes);

/* The bake is written once and then freed (an importer's own): the writer frees the model's
 * vertices once the geometry section holds them, so the sections after it (a map's hundreds of
 * MiB of vertices against its entities section) do not hold both. Writing it again fails. */
void blvl__bake_model_spend(blvl_bake *b);

/* A surface whose vertices the bake makes when it writes them instead of holding them: an
 * importer whose vertices repeat a few values (a terrain cell's corners: one grid vertex's
 * position, normal and colour, the cell's UV) keeps those, a few bytes a vertex, where the model
 * would hold 44. `make` fills out[0 .. count) with the surface's vertices first .. first + count,
 * the same ones every time it is asked (the bake asks more than once); `ctx` (the importer's, in
 * the bake's arena, so it lives as long as the bake) is handed back. The surface is checked as
 * blvl__bake_model_add_surface_tris checks it (tri_sources NULL: s->source for every triangle),
 * with s->vertices NULL; a made surface cannot move with a door (the sim section's door bounds read
 * the model's vertices). A vertex that is not finite fails the write, naming the surface. */
typedef void (*blvl__bake_make_fn)(const void *ctx, uint32_t first, uint32_t count,
                                   blvl_bake_vertex *out);
blvl_status blvl__bake_model_add_surface_made(blvl_bake *b, const blvl_bake_surface *s,
                                              const uint32_t *tri_sources, blvl__bake_make_fn make,
                                              const void *ctx, blvl_error *err);

/* blvl_bake_add_hull for a hull whose faces are known (as above): the same collider, checks and
 * index; where the faces do not pass the checks, the general hull of the points. */
blvl_status blvl__bake_model_add_known_hull(blvl_bake *b, const blvl_bake_collider *c,
                                            const blvl_Vec3 *points, uint32_t point_count,
                                            const uint8_t *face_sizes, uint32_t face_count,
                                            const uint8_t *face_indices, uint32_t *index,
                                            blvl_error *err);

/* blvl__bake_model_add_known_hull of the prism with its template faces, the same collider: through
 * the cheap checks and stored compactly (corners in the arena, faces shared), else as before. */
blvl_status blvl__bake_model_add_prism(blvl_bake *b, const blvl_bake_collider *c,
                                       const blvl_Vec3 *points, uint32_t n, int split, bool up,
                                       uint32_t *index, blvl_error *err);

/* Made prisms: the same collider as blvl__bake_model_add_prism of the corners make(ctx, key, n,
 * out) writes (2n of them, as above), but the bake keeps the key, not the corners, and makes them
 * again when it writes. make must write the same corners for the same key every time, and ctx
 * (with what it points to) must live as long as the bake. A prism the cheap checks refuse, or a
 * collider with a source_name, is stored as blvl__bake_model_add_prism stores it. _maker registers
 * a maker once (at most 65536 a bake) and gives its number. */
typedef void (*blvl__bake_prism_make_fn)(const void *ctx, const uint32_t key[4], uint32_t n,
                                         blvl_Vec3 *out);
blvl_status blvl__bake_model_prism_maker(blvl_bake *b, blvl__bake_prism_make_fn make,
                                         const void *ctx, uint32_t *maker, blvl_error *err);
blvl_status blvl__bake_model_add_prism_made(blvl_bake *b, const blvl_bake_collider *c,
                                            uint32_t maker, const uint32_t key[4], uint32_t n,
                                            int split, bool up, uint32_t *index, blvl_error *err);

#endif
