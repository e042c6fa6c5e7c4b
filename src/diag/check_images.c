/* Images: each blob's size against its encoding, size, mips and layers
 * (blvl_image_expected_size), cubemaps of six layers, and the lightmap page counts the schema
 * fixes (l1 and bump: none or three; styles: at most three). */
#include <stdio.h>

#include "blvl/image.h"
#include "diag/diag_internal.h"

static void image(diag_run *d, const char *section, uint32_t index, const char *field,
                  blvl_Image im) {
    if (!im.p_ || d->stop)
        return;
    blvl_image_desc desc = {blvl_Image_width(im),
                            blvl_Image_height(im),
                            blvl_Image_encoding(im),
                            blvl_Image_mips(im),
                            blvl_Image_layers(im),
                            blvl_Image_color_space(im),
                            NULL,
                            blvl_Image_data_len(im)};
    uint64_t want = 0;
    blvl_error e;
    if (blvl_image_expected_size(&want, &desc, &e) != BLVL_OK) {
        blvl__diag_emit(d, DG_IMAGE_SIZE, section, index, DG_SRC_NONE, 0, "%s%s%s", field,
                        *field ? ": " : "", e.message);
        return;
    }
    if (want == 0) { /* PNG, JPEG: a file of its own size, but never an empty one */
        if (desc.size == 0)
            blvl__diag_emit(d, DG_IMAGE_SIZE, section, index, DG_SRC_NONE, 0,
                            "%s%s%ux%u compressed image with no bytes", field, *field ? ": " : "",
                            desc.width, desc.height);
        return;
    }
    if (want != desc.size)
        blvl__diag_emit(d, DG_IMAGE_SIZE, section, index, DG_SRC_NONE, 0,
                        "%s%sdata is %zu bytes, %ux%u with %u mips and %u layers needs %llu", field,
                        *field ? ": " : "", desc.size, desc.width, desc.height, desc.mips,
                        desc.layers, (unsigned long long)want);
}

static void lightmaps(diag_run *d) {
    uint32_t n = blvl_Lightmaps_lightmaps_len(d->lm);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_Lightmap lm = blvl_Lightmaps_lightmaps_at(d->lm, i);
        const char *sec = "lightmaps.lightmaps";
        uint32_t nl1 = blvl_Lightmap_l1_len(lm), nbump = blvl_Lightmap_bump_len(lm);
        uint32_t nst = blvl_Lightmap_styles_len(lm);
        if (nl1 != 0 && nl1 != 3)
            blvl__diag_emit(d, DG_L1_COUNT, sec, i, DG_SRC_NONE, 0, "%u l1 planes, not 0 or 3",
                            nl1);
        if (nbump != 0 && nbump != 3)
            blvl__diag_emit(d, DG_BUMP_COUNT, sec, i, DG_SRC_NONE, 0, "%u bump pages, not 0 or 3",
                            nbump);
        if (nst > 3)
            blvl__diag_emit(d, DG_STYLE_COUNT, sec, i, DG_SRC_NONE, 0, "%u style pages, at most 3",
                            nst);
        if (!d->on[DG_IMAGE_SIZE])
            continue;
        char f[32];
        image(d, sec, i, "color", blvl_Lightmap_color(lm));
        image(d, sec, i, "sun_visibility", blvl_Lightmap_sun_visibility(lm));
        for (uint32_t k = 0; k < nl1; k++) {
            snprintf(f, sizeof f, "l1[%u]", k);
            image(d, sec, i, f, blvl_Lightmap_l1_at(lm, k));
        }
        for (uint32_t k = 0; k < nbump; k++) {
            snprintf(f, sizeof f, "bump[%u]", k);
            image(d, sec, i, f, blvl_Lightmap_bump_at(lm, k));
        }
        for (uint32_t k = 0; k < nst; k++) {
            snprintf(f, sizeof f, "styles[%u].color", k);
            image(d, sec, i, f, blvl_LightmapStyle_color(blvl_Lightmap_styles_at(lm, k)));
        }
    }
}

static void lighting(diag_run *d) {
    blvl_LightGrid g = blvl_Lighting_light_grid(d->light);
    const char *sec = "lighting.light_grid";
    if (g.p_) {
        image(d, sec, BLVL_DIAG_NONE, "ambient", blvl_LightGrid_ambient(g));
        image(d, sec, BLVL_DIAG_NONE, "directional", blvl_LightGrid_directional(g));
        image(d, sec, BLVL_DIAG_NONE, "direction", blvl_LightGrid_direction(g));
        image(d, sec, BLVL_DIAG_NONE, "sun_visibility", blvl_LightGrid_sun_visibility(g));
        uint32_t nf = blvl_LightGrid_faces_len(g);
        for (uint32_t k = 0; k < nf; k++) {
            char f[32];
            snprintf(f, sizeof f, "faces[%u]", k);
            image(d, sec, BLVL_DIAG_NONE, f, blvl_LightGrid_faces_at(g, k));
        }
    }
    blvl_SkyVis sv = blvl_Lighting_sky_vis(d->light);
    if (sv.p_)
        image(d, "lighting.sky_vis", BLVL_DIAG_NONE, "image", blvl_SkyVis_image(sv));
}

void blvl__diag_check_images(diag_run *d) {
    uint32_t n = blvl_Textures_images_len(d->tex);
    for (uint32_t i = 0; i < n && d->on[DG_IMAGE_SIZE] && !d->stop; i++)
        image(d, "textures.images", i, "", blvl_Textures_images_at(d->tex, i));
    n = blvl_Cubemaps_images_len(d->cube);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_Image im = blvl_Cubemaps_images_at(d->cube, i);
        if (blvl_Image_layers(im) != 6)
            blvl__diag_emit(d, DG_CUBEMAP_LAYERS, "cubemaps.images", i, DG_SRC_NONE, 0,
                            "%u layers, a cubemap has 6", blvl_Image_layers(im));
        if (d->on[DG_IMAGE_SIZE])
            image(d, "cubemaps.images", i, "", im);
    }
    if (blvl__diag_any(d, DG_L1_COUNT, DG_STYLE_COUNT) || d->on[DG_IMAGE_SIZE])
        lightmaps(d);
    if (d->on[DG_IMAGE_SIZE])
        lighting(d);
}
