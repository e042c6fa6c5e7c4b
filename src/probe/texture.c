/* Pictures for the renderer: the base textures the drawn materials name, and the colour page of
 * lighting profile 0's lightmap, decoded to RGBA8 (blvl/image.h) once. A picture that fails to
 * decode stays absent: its surfaces are drawn by normal, or unlit by the lightmap. */
#include <math.h>
#include <string.h>

#include "blvl/image.h"
#include "probe/probe_internal.h"

static void take(probe_picture *pic, blvl_image_rgba *img) {
    pic->width = img->width;
    pic->height = img->height;
    pic->layers = img->layers;
    pic->rgba = img->pixels;
}

/* Decode mip 0 of `im`; false when it does not decode (the picture stays absent). */
static bool decode(const blvl_probe *p, blvl_Image im, probe_picture *pic) {
    blvl_fb_vec data = blvl_Image_data_vec(im);
    blvl_image_desc d = {blvl_Image_width(im),
                         blvl_Image_height(im),
                         (uint32_t)blvl_Image_encoding(im),
                         blvl_Image_mips(im),
                         blvl_Image_layers(im),
                         (uint32_t)blvl_Image_color_space(im),
                         data.data,
                         data.len};
    blvl_image_rgba img;
    blvl_error err;
    if (!d.data || blvl_image_decode(&img, &d, 0, &p->opt, &err) != BLVL_OK)
        return false;
    if (img.width == 0 || img.height == 0 || img.layers == 0 || !img.pixels) {
        blvl_image_rgba_free(&img);
        return false;
    }
    take(pic, &img);
    return true;
}

static void free_picture(const blvl_probe *p, probe_picture *pic) {
    blvl_image_rgba img = {pic->width, pic->height, pic->layers, pic->rgba, p->opt.allocator};
    if (pic->rgba)
        blvl_image_rgba_free(&img);
    pic->rgba = NULL;
}

/* Read a degradable section: BLVL_OK with *ok when it is there, BLVL_OK without when it is
 * absent or refused (noted), BLVL_E_NOMEM. */
static blvl_status read_degraded(blvl_probe *p, const char *tag, blvl_bytes *b,
                                 const uint8_t **root, bool *ok, blvl_error *err) {
    blvl_error e;
    blvl_status st = blvl_level_section(p->level, tag, b, root, &e);
    *ok = st == BLVL_OK;
    if (st == BLVL_OK || st == BLVL_E_NOT_FOUND)
        return BLVL_OK;
    return blvl__probe_degraded(p, tag, st, &e, err);
}

static blvl_status load_lightmap(blvl_probe *p, blvl_error *err) {
    blvl_bytes lb, mb;
    blvl_Lighting lighting = {NULL};
    blvl_Lightmaps maps = {NULL};
    bool have_lighting = false, have_maps = false;
    memset(&lb, 0, sizeof lb);
    memset(&mb, 0, sizeof mb);
    blvl_status st = read_degraded(p, "lighting", &lb, &lighting.p_, &have_lighting, err);
    if (st == BLVL_OK && have_lighting && blvl_Lighting_profiles_len(lighting) > 0)
        st = read_degraded(p, "lightmaps", &mb, &maps.p_, &have_maps, err);
    if (st == BLVL_OK && have_maps) {
        blvl_LightingProfile prof = blvl_Lighting_profiles_at(lighting, 0);
        uint32_t i = blvl_LightingProfile_lightmap(prof);
        if (i < blvl_Lightmaps_lightmaps_len(maps)) {
            blvl_Lightmap lm = blvl_Lightmaps_lightmaps_at(maps, i);
            float gain = blvl_Lightmap_gain(lm) * blvl_LightingProfile_lightmap_scale(prof);
            if (blvl_Lightmap_color_present(lm) && isfinite(gain) && gain > 0 &&
                decode(p, blvl_Lightmap_color(lm), &p->lightmap)) {
                p->lightmap_gain = gain;
                p->lightmap_gamma = blvl_Lightmap_encoding(lm) == blvl_LightmapEncoding_Gamma8;
                /* Gamma8 bytes are the game's own, combined as they are; linear bytes are
                 * brought to display space (gamma 2.2) after the gain */
                for (int b = 0; b < 256; b++) {
                    double v = b / 255.0 * gain;
                    p->lightmap_lut[b] = (float)(p->lightmap_gamma ? v : pow(v, 1 / 2.2));
                }
            }
        }
    }
    blvl_bytes_free(&lb);
    blvl_bytes_free(&mb);
    return st;
}

blvl_status blvl_probe_load_pictures(blvl_probe *p, blvl_error *err) {
    if (!p)
        return blvl__fail(err, BLVL_E_ARGUMENT, "probe: no probe");
    if (p->pictures_loaded)
        return BLVL_OK;
    p->pictures_loaded = true;
    blvl_bytes tb;
    blvl_Textures tex = {NULL};
    bool have = false;
    memset(&tb, 0, sizeof tb);
    blvl_status st = read_degraded(p, "textures", &tb, &tex.p_, &have, err);
    if (st != BLVL_OK)
        return st;
    if (have) {
        uint32_t n = blvl_Textures_images_len(tex);
        p->textures = blvl__calloc_n(&p->al, n ? n : 1, sizeof *p->textures);
        if (!p->textures) {
            blvl_bytes_free(&tb);
            return blvl__nomem(err, "probe: the textures");
        }
        p->texture_count = n;
        /* only what a drawn material names: a level's other images are never sampled */
        for (uint32_t m = 0; m < p->material_count; m++) {
            uint32_t t = p->materials[m].texture;
            if (t < n && !p->textures[t].rgba && p->materials[m].blend == 0 && !p->materials[m].sky)
                decode(p, blvl_Textures_images_at(tex, t), &p->textures[t]);
        }
    }
    blvl_bytes_free(&tb);
    return load_lightmap(p, err);
}

void blvl__probe_free_pictures(blvl_probe *p) {
    for (uint32_t i = 0; i < p->texture_count; i++)
        free_picture(p, &p->textures[i]);
    blvl__dealloc(&p->al, p->textures,
                  (p->texture_count ? p->texture_count : 1) * sizeof *p->textures);
    free_picture(p, &p->lightmap);
}
