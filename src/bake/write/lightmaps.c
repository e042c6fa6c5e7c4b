/* The baked-light sections: lightmaps (one Lightmap, its colour PNG), cubemaps (the sky), and
 * the light grid table the lighting section embeds. */
#include "bake/write/write.h"
#include "blvl/sections/common_builder.h"
#include "blvl/sections/cubemaps_builder.h"
#include "blvl/sections/lighting_builder.h"
#include "blvl/sections/lightmaps_builder.h"

/* Gamma8 bytes are the game's own gamma-space colour, stored as sRGB (docs/SECTIONS.md). */
static blvl_ColorSpace colour_space(uint8_t encoding) {
    return encoding == blvl_LightmapEncoding_Gamma8 ? blvl_ColorSpace_Srgb : blvl_ColorSpace_Linear;
}

static blvl_fb_ref image(blvl_fb_builder *fb, const char *name, uint32_t width, uint32_t height,
                         uint32_t layers, blvl_ImageEncoding encoding, blvl_ColorSpace space,
                         const uint8_t *data, size_t size) {
    blvl_fb_ref n = blvl__bake_write_fb_str(fb, name);
    blvl_fb_ref d = blvl_Image_data_create(fb, data, size);
    blvl_Image_start(fb);
    blvl_Image_add_name(fb, n);
    blvl_Image_add_width(fb, width);
    blvl_Image_add_height(fb, height);
    blvl_Image_add_encoding(fb, encoding);
    blvl_Image_add_color_space(fb, space);
    blvl_Image_add_layers(fb, (uint16_t)layers);
    blvl_Image_add_data(fb, d);
    return blvl_Image_end(fb);
}

blvl_status blvl__bake_write_lightmaps(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                       blvl_error *err) {
    const bake_lightmap *lm = b->lightmap;
    blvl_fb_builder_reset(fb);
    blvl_fb_ref color = image(fb, NULL, lm->width, lm->height, lm->layers, blvl_ImageEncoding_Png,
                              colour_space(lm->encoding), lm->png, lm->size);
    blvl_Lightmap_start(fb);
    blvl_Lightmap_add_color(fb, color);
    blvl_Lightmap_add_gain(fb, lm->gain);
    blvl_Lightmap_add_encoding(fb, (blvl_LightmapEncoding)lm->encoding);
    blvl_fb_ref one = blvl_Lightmap_end(fb);
    blvl_fb_ref list = blvl_fb_create_ref_vector(fb, &one, 1);
    blvl_Lightmaps_start(fb);
    blvl_Lightmaps_add_lightmaps(fb, list);
    return blvl_Lightmaps_finish(fb, blvl_Lightmaps_end(fb), &out->data, &out->size, err);
}

blvl_status blvl__bake_write_cubemaps(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                      blvl_error *err) {
    const bake_sky *s = b->sky;
    blvl_fb_builder_reset(fb);
    blvl_fb_ref sky = image(fb, s->name, s->size, s->size, 6, blvl_ImageEncoding_Png,
                            blvl_ColorSpace_Srgb, s->png, s->png_size);
    blvl_fb_ref list = blvl_fb_create_ref_vector(fb, &sky, 1);
    blvl_Cubemaps_start(fb);
    blvl_Cubemaps_add_images(fb, list);
    return blvl_Cubemaps_finish(fb, blvl_Cubemaps_end(fb), &out->data, &out->size, err);
}

blvl_fb_ref blvl__bake_write_light_grid(const blvl_bake *b, blvl_fb_builder *fb) {
    const bake_grid *g = b->grid;
    if (!g)
        return 0;
    size_t size = (size_t)g->width * g->height * g->layers * 4u;
    blvl_ColorSpace cs = colour_space(g->encoding);
    blvl_fb_ref amb = image(fb, NULL, g->width, g->height, g->layers, blvl_ImageEncoding_Rgba8, cs,
                            g->ambient, size);
    blvl_fb_ref dir = image(fb, NULL, g->width, g->height, g->layers, blvl_ImageEncoding_Rgba8, cs,
                            g->directional, size);
    blvl_fb_ref vec = image(fb, NULL, g->width, g->height, g->layers, blvl_ImageEncoding_Rgba8,
                            blvl_ColorSpace_Linear, g->direction, size);
    blvl_LightGrid_start(fb);
    blvl_LightGrid_add_kind(fb, blvl_LightGridKind_AmbientDirectional);
    blvl_LightGrid_add_origin(fb, &g->origin);
    blvl_LightGrid_add_cell_size(fb, &g->cell_size);
    blvl_LightGrid_add_ambient(fb, amb);
    blvl_LightGrid_add_directional(fb, dir);
    blvl_LightGrid_add_direction(fb, vec);
    blvl_LightGrid_add_encoding(fb, (blvl_LightmapEncoding)g->encoding);
    blvl_LightGrid_add_gain(fb, g->gain);
    return blvl_LightGrid_end(fb);
}
