/* The lighting step's pieces (docs/IMPORT-Q3.md, "Lighting, fog and lightmaps"). */
#ifndef BLVL_IMPORT_Q3_BAKE_LIGHTING_H
#define BLVL_IMPORT_Q3_BAKE_LIGHTING_H

#include "bake_internal.h"

/* Lightmap atlas: pages of 8 x 8 slots of 130 x 130 texels (a 128 x 128 lightmap and a
 * 1-texel border copied from its edge), at most 15 pages (the atlas image stacks its pages
 * and stays within 16384 texels a side). */
#define BLVL_Q3L_SLOT 130u
#define BLVL_Q3L_SLOTS 8u
#define BLVL_Q3L_PAGES_MAX 15u

/* The gain of the Gamma8 lightmap and light grid bytes: 2^(N - 1) for the worldspawn's
 * mapOverBrightBits N (0..4), 2.0 (N = 2, the engine's default) otherwise. */
float blvl__import_q3_light_gain(const q3_ctx *c);
blvl_status blvl__import_q3_light_fogs(q3_ctx *c);
blvl_status blvl__import_q3_light_lightmaps(q3_ctx *c, float gain);
blvl_status blvl__import_q3_light_grid(q3_ctx *c, float gain);
void blvl__import_q3_light_ambient(q3_ctx *c);

#endif
