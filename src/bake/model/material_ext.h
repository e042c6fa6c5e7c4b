/* A material's extensions (blvl_bake_material's source_shader, unknown_keywords, vertex_lit,
 * anim, surface_params, emits): checked and copied by material_ext.c, written by
 * bake/write/material_ext.c. */
#ifndef BLVL_BAKE_MATERIAL_EXT_H
#define BLVL_BAKE_MATERIAL_EXT_H

#include <stdbool.h>
#include <stdint.h>

#include "bake/model/model.h"
#include "blvl/fb_builder.h"

/* Every extension of m valid (enums in range, floats finite, arrays given, frames naming
 * images added already); BLVL_E_ARGUMENT naming the first that is not. */
blvl_status blvl__bake_model_material_ext_check(const blvl_bake *b, const blvl_bake_material *m,
                                                blvl_error *err);
/* c's extension pointers replaced by copies of m's in the bake's arena; false when the arena
 * is out of memory (c's extension pointers are then unusable). */
bool blvl__bake_model_material_ext_copy(blvl_bake *b, blvl_bake_material *c,
                                        const blvl_bake_material *m);

/* The scratch references the writers below need for m (its longest list). */
uint32_t blvl__bake_write_material_ext_refs(const blvl_bake_material *m);
/* geometry.Shading for m, 0 when every field keeps its default; `refs` has
 * blvl__bake_write_material_ext_refs(m) entries. */
blvl_fb_ref blvl__bake_write_shading(blvl_fb_builder *fb, const blvl_bake_material *m,
                                     blvl_fb_ref *refs);
/* geometry.Pbr for m, 0 when nothing is set. */
blvl_fb_ref blvl__bake_write_pbr(blvl_fb_builder *fb, const blvl_bake_material *m,
                                 blvl_fb_ref *refs);
/* The .bsym SymbolMaterial.unknown vector, 0 when m has none. */
blvl_fb_ref blvl__bake_write_unknown(blvl_fb_builder *fb, const blvl_bake_material *m,
                                     blvl_fb_ref *refs);

#endif
