/* Textures and materials. Level texture i is glTF image i and texture i (sampler 0: repeat),
 * so a material's texture index carries over unchanged; the lightmap of lighting profile 0
 * follows them (sampler 1: clamp), named from each primitive's extras (geometry.c). A level
 * material i is glTF material i as pbrMetallicRoughness; what glTF has no word for goes into
 * its extras (docs/EXPORT.md, "Materials"). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export/export_internal.h"

static const char *const blend_names[] = {"opaque",         "alpha",    "additive",
                                          "alpha-additive", "multiply", "premultiplied"};
static const char *const test_names[] = {"none", "greater", "less", "greater-equal"};

static double clamp01(double v) {
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* One image into the buffer and the images list; returns its glTF image index or XP_NONE. */
static uint32_t add_image(gltf_export *x, blvl_Image im, const char *where) {
    blvl_fb_vec d = blvl_Image_data_vec(im);
    const uint8_t *bytes;
    size_t n;
    uint8_t *owned;
    const char *mime;
    if (blvl__export_image_bytes(x, where, blvl_Image_encoding(im), blvl_Image_width(im),
                                 blvl_Image_height(im), blvl_Image_mips(im), blvl_Image_layers(im),
                                 d.data, d.len, &bytes, &n, &owned, &mime) != BLVL_OK)
        return XP_NONE;
    size_t off;
    uint8_t *dst = blvl__export_buf_take(&x->bin, n, &off);
    if (dst)
        memcpy(dst, bytes, n);
    if (owned)
        blvl__free_sized(x->al, owned);
    if (!dst) {
        blvl__export_check(x);
        return XP_NONE;
    }
    uint32_t view = blvl__export_view(x, off, n, 0, 0);
    json_text *j = &x->images;
    blvl__export_json_item(j);
    blvl__export_json_obj(j, NULL);
    blvl_fb_str name = blvl_Image_name(im);
    if (name.len)
        blvl__export_json_strn(j, "name", name.ptr, name.len);
    blvl__export_json_u64(j, "bufferView", view);
    blvl__export_json_str(j, "mimeType", mime);
    blvl__export_json_end(j);
    return x->n_images++;
}

static void add_texture(gltf_export *x, uint32_t image, uint32_t sampler, const char *name) {
    json_text *j = &x->textures;
    blvl__export_json_item(j);
    blvl__export_json_obj(j, NULL);
    if (name)
        blvl__export_json_str(j, "name", name);
    blvl__export_json_u64(j, "sampler", sampler);
    blvl__export_json_u64(j, "source", image);
    blvl__export_json_end(j);
    x->n_textures++;
}

static void add_sampler(gltf_export *x, int clamp) {
    json_text *j = &x->samplers;
    blvl__export_json_item(j);
    blvl__export_json_obj(j, NULL);
    blvl__export_json_u64(j, "magFilter", 9729);                /* LINEAR */
    blvl__export_json_u64(j, "minFilter", clamp ? 9729 : 9987); /* LINEAR, LINEAR_MIPMAP_LINEAR */
    blvl__export_json_u64(j, "wrapS", clamp ? 33071 : 10497);   /* CLAMP_TO_EDGE, REPEAT */
    blvl__export_json_u64(j, "wrapT", clamp ? 33071 : 10497);
    blvl__export_json_end(j);
}

blvl_status blvl__export_textures(gltf_export *x) {
    blvl_bytes tb = {0};
    blvl_Textures tex = {NULL};
    int have = blvl__export_section(x, "textures", &tb, &tex.p_);
    if (have < 0)
        return x->st;
    uint32_t n = have ? blvl_Textures_images_len(tex) : 0;
    uint32_t samplers = 0;
    if (n)
        add_sampler(x, 0), samplers++;
    char where[64];
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++) {
        snprintf(where, sizeof where, "textures.images[%u]", (unsigned)i);
        uint32_t img = add_image(x, blvl_Textures_images_at(tex, i), where);
        if (img != XP_NONE)
            add_texture(x, img, 0, NULL);
    }
    x->level_textures = n;
    blvl_bytes_free(&tb);
    if (x->st != BLVL_OK)
        return x->st;

    /* The lightmap of profile 0 (the level as authored). */
    blvl_bytes lb = {0}, mb = {0};
    blvl_Lighting lig = {NULL};
    blvl_Lightmaps lms = {NULL};
    int have_l = blvl__export_section(x, "lighting", &lb, &lig.p_);
    if (have_l > 0 && blvl_Lighting_profiles_len(lig) > 0) {
        blvl_LightingProfile p = blvl_Lighting_profiles_at(lig, 0);
        uint32_t k = blvl_LightingProfile_lightmap(p);
        float ls = blvl_LightingProfile_light_scale(p);
        x->light_scale = isfinite(ls) ? ls : 1;
        int have_m = k != XP_NONE ? blvl__export_section(x, "lightmaps", &mb, &lms.p_) : 0;
        if (have_m > 0) {
            if (k >= blvl_Lightmaps_lightmaps_len(lms)) {
                blvl__export_fail(
                    x, BLVL_E_ARGUMENT,
                    "index-range: lighting.profiles[0].lightmap: %u past the %u lightmaps",
                    (unsigned)k, (unsigned)blvl_Lightmaps_lightmaps_len(lms));
            } else {
                blvl_Lightmap lm = blvl_Lightmaps_lightmaps_at(lms, k);
                blvl_Image c = blvl_Lightmap_color(lm);
                if (c.p_ && blvl_Image_data_len(c) > 0) {
                    snprintf(where, sizeof where, "lightmaps.lightmaps[%u].color", (unsigned)k);
                    uint32_t img = add_image(x, c, where);
                    if (img != XP_NONE) {
                        add_sampler(x, 1);
                        add_texture(x, img, samplers, "blvl lightmap");
                        x->lightmap_texture = x->n_textures - 1;
                        x->lightmap_layers = blvl_Image_layers(c) ? blvl_Image_layers(c) : 1;
                        float g = blvl_Lightmap_gain(lm);
                        x->lightmap_gain = isfinite(g) ? g : 1;
                        x->lightmap_encoding = blvl_Lightmap_encoding(lm);
                    }
                }
            }
        }
    }
    blvl_bytes_free(&lb);
    blvl_bytes_free(&mb);
    return x->st;
}

/* A texture index a material names: in range of the level's textures, or a refusal. */
static int texture_ok(gltf_export *x, uint32_t t, uint32_t m, const char *field) {
    if (t == XP_NONE)
        return 0;
    if (t >= x->level_textures) {
        blvl__export_fail(x, BLVL_E_ARGUMENT,
                          "index-range: geometry.materials[%u].%s: %u past the %u textures",
                          (unsigned)m, field, (unsigned)t, (unsigned)x->level_textures);
        return 0;
    }
    return 1;
}

static int finite_or_fail(gltf_export *x, double v, uint32_t m, const char *field) {
    if (isfinite(v))
        return 1;
    blvl__export_fail(x, BLVL_E_ARGUMENT, "non-finite: geometry.materials[%u].%s", (unsigned)m,
                      field);
    return 0;
}

/* A material's extras.blvl: what glTF's material cannot say (blend and alpha test as blvl names
 * them, sort, depth write, polygon offset, environment map, sky, water, lightmapped, emitted
 * intensity, surface parameters). */
static void material_extras(json_text *j, blvl_Material mt, blvl_Pbr pbr, uint32_t m,
                            int lightmapped) {
    unsigned blend = blvl_Material_blend(mt), test = blvl_Material_alpha_test(mt);
    double cutoff = blvl_Material_alpha_ref(mt), sort = blvl_Material_sort(mt);
    blvl__export_json_obj(j, "extras");
    blvl__export_json_obj(j, "blvl");
    blvl__export_json_u64(j, "material", m);
    blvl__export_json_str(j, "blend", blend < 6 ? blend_names[blend] : "unknown");
    if (test != blvl_AlphaTest_None) {
        blvl__export_json_str(j, "alpha_test", test < 4 ? test_names[test] : "unknown");
        blvl__export_json_num(j, "alpha_ref", cutoff);
    }
    blvl__export_json_num(j, "sort", sort);
    if (!blvl_Material_depth_write(mt))
        blvl__export_json_bool(j, "depth_write", 0);
    if (blvl_Material_polygon_offset(mt))
        blvl__export_json_bool(j, "polygon_offset", 1);
    if (blvl_Material_env_map(mt))
        blvl__export_json_bool(j, "env_map", 1);
    if (blvl_Material_sky(mt))
        blvl__export_json_bool(j, "sky", 1);
    if (blvl_Material_water_present(mt))
        blvl__export_json_bool(j, "water", 1);
    blvl__export_json_bool(j, "lightmapped", lightmapped);
    double ei = blvl_Pbr_emit_intensity(pbr);
    if (isfinite(ei) && ei != 0)
        blvl__export_json_num(j, "emit_intensity", ei);
    uint32_t np = blvl_Pbr_surface_params_len(pbr);
    if (np) {
        blvl__export_json_arr(j, "surface_params");
        for (uint32_t i = 0; i < np; i++) {
            blvl_fb_str s = blvl_Pbr_surface_params_at(pbr, i);
            blvl__export_json_strn(j, NULL, s.ptr, s.len);
        }
        blvl__export_json_end(j);
    }
    blvl__export_json_end(j);
    blvl__export_json_end(j);
}

static void material(gltf_export *x, blvl_Material mt, uint32_t m) {
    json_text *j = &x->materials;
    blvl_Pbr pbr = blvl_Material_pbr(mt);
    blvl_MaterialMaps maps = blvl_Pbr_maps(pbr);
    blvl_Shading sh = blvl_Material_shading(mt);
    double rough = blvl_Pbr_roughness(pbr), metal = blvl_Pbr_metalness(pbr),
           cutoff = blvl_Material_alpha_ref(mt), nscale = blvl_Pbr_normal_scale(pbr),
           occl = blvl_Pbr_occlusion(pbr), escale = blvl_Pbr_emissive_scale(pbr),
           sort = blvl_Material_sort(mt);
    if (!finite_or_fail(x, rough, m, "pbr.roughness") ||
        !finite_or_fail(x, metal, m, "pbr.metalness") ||
        !finite_or_fail(x, cutoff, m, "alpha_ref") ||
        !finite_or_fail(x, nscale, m, "pbr.normal_scale") ||
        !finite_or_fail(x, occl, m, "pbr.occlusion") ||
        !finite_or_fail(x, escale, m, "pbr.emissive_scale") || !finite_or_fail(x, sort, m, "sort"))
        return;
    uint32_t base = blvl_Material_texture(mt), nrm = blvl_MaterialMaps_normal(maps),
             orm = blvl_MaterialMaps_orm(maps), emi = blvl_MaterialMaps_emissive(maps);
    int has_base = texture_ok(x, base, m, "texture"),
        has_nrm = texture_ok(x, nrm, m, "pbr.maps.normal"),
        has_orm = texture_ok(x, orm, m, "pbr.maps.orm"),
        has_emi = texture_ok(x, emi, m, "pbr.maps.emissive");
    if (x->st != BLVL_OK)
        return;
    double emit[3] = {1, 1, 1};
    int has_emit = blvl_Pbr_emit_color_present(pbr);
    if (has_emit) {
        blvl_Vec3 e = blvl_Pbr_emit_color(pbr);
        emit[0] = e.x, emit[1] = e.y, emit[2] = e.z;
        if (!finite_or_fail(x, emit[0] + emit[1] + emit[2], m, "pbr.emit_color"))
            return;
    } else if (has_emi) {
        emit[0] = emit[1] = emit[2] = escale;
    }
    for (int i = 0; i < 3; i++)
        emit[i] = clamp01(emit[i]);

    blvl__export_json_item(j);
    blvl__export_json_obj(j, NULL);
    blvl_fb_str name = blvl_Material_name(mt);
    if (name.len)
        blvl__export_json_strn(j, "name", name.ptr, name.len);
    blvl__export_json_obj(j, "pbrMetallicRoughness");
    if (has_base) {
        blvl__export_json_obj(j, "baseColorTexture");
        blvl__export_json_u64(j, "index", base);
        blvl__export_json_end(j);
    }
    blvl__export_json_num(j, "metallicFactor", clamp01(metal));
    blvl__export_json_num(j, "roughnessFactor", clamp01(rough));
    if (has_orm) {
        blvl__export_json_obj(j, "metallicRoughnessTexture");
        blvl__export_json_u64(j, "index", orm);
        blvl__export_json_end(j);
    }
    blvl__export_json_end(j);
    if (has_nrm) {
        blvl__export_json_obj(j, "normalTexture");
        blvl__export_json_u64(j, "index", nrm);
        blvl__export_json_num(j, "scale", nscale);
        blvl__export_json_end(j);
    }
    if (has_orm) {
        blvl__export_json_obj(j, "occlusionTexture");
        blvl__export_json_u64(j, "index", orm);
        blvl__export_json_num(j, "strength", clamp01(occl));
        blvl__export_json_end(j);
    }
    if (has_emi) {
        blvl__export_json_obj(j, "emissiveTexture");
        blvl__export_json_u64(j, "index", emi);
        blvl__export_json_end(j);
    }
    if (has_emi || has_emit)
        blvl__export_json_vec(j, "emissiveFactor", emit, 3);
    unsigned blend = blvl_Material_blend(mt), test = blvl_Material_alpha_test(mt);
    if (blend != blvl_BlendMode_Opaque) {
        blvl__export_json_str(j, "alphaMode", "BLEND");
    } else if (test != blvl_AlphaTest_None) {
        blvl__export_json_str(j, "alphaMode", "MASK");
        blvl__export_json_num(j, "alphaCutoff", clamp01(cutoff));
    }
    if (blvl_Material_two_sided(mt))
        blvl__export_json_bool(j, "doubleSided", 1);
    /* What glTF's material cannot say. */
    int lightmapped = blvl_Shading_lightmapped(sh) && !blvl_Material_sky(mt);
    material_extras(j, mt, pbr, m, lightmapped);
    blvl__export_json_end(j);
    x->material_lightmapped[m] = (uint32_t)lightmapped;
    x->n_materials++;
}

blvl_status blvl__export_materials(gltf_export *x) {
    blvl_Geometry g = x->geo;
    uint32_t n = x->have_geo ? blvl_Geometry_materials_len(g) : 0;
    x->level_materials = n;
    if (n) {
        x->material_lightmapped = blvl__calloc_n(x->al, n, sizeof *x->material_lightmapped);
        if (!x->material_lightmapped)
            return blvl__export_fail(x, BLVL_E_NOMEM, "the materials' flags");
    }
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++)
        material(x, blvl_Geometry_materials_at(g, i), i);
    return x->st;
}
