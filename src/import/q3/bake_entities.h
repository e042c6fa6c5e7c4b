/* Helpers shared by the entities and colliders steps (bake_entities*.c, bake_collide*.c). */
#ifndef BLVL_IMPORT_Q3_BAKE_ENTITIES_H
#define BLVL_IMPORT_Q3_BAKE_ENTITIES_H

#include "bake_internal.h"

/* The blvl match-type mask of an entity from its notsingle / notfree / notteam / gametype
 * keys (bake_entities_gametypes.c); BLVL_BAKE_ALL_GAMETYPES when it has none of them. */
uint32_t blvl__import_q3_ent_gametypes(const blvl_q3_entity *e);

/* Up to three numbers of a key as the game's sscanf reads them (missing ones 0); a non-finite
 * number reads as 0 and counts in report->values_replaced. false when the key is absent. */
bool blvl__import_q3_ent_vec(q3_ctx *c, const blvl_q3_entity *e, const char *key, float v[3]);

/* Brush `brush`'s side planes in blvl axes, moved by `offset` (the model's placement), into
 * `out` (room for the brush's side count). Returns the count. */
uint32_t blvl__import_q3_coll_brush_planes(const q3_ctx *c, uint32_t brush, blvl_Vec3 offset,
                                           blvl_Plane *out);
/* The bounds of a convex plane set (its face corners); false when it bounds no volume. */
bool blvl__import_q3_coll_planes_bounds(const q3_ctx *c, const blvl_Plane *planes, uint32_t count,
                                        blvl_Vec3 *lo, blvl_Vec3 *hi, blvl_status *st);
/* The largest side count of any brush (room blvl__import_q3_coll_brush_planes needs). */
uint32_t blvl__import_q3_coll_max_sides(const q3_ctx *c);

#endif
