/* Cross-section indices: every index field against the length of the vector it names (that
 * vector may be in an absent section: then every index but none is out of range). An index into
 * a damaged section is not judged: its length is unknown (D0000 says why). */
#include "diag/diag_internal.h"

#define NONE 0xFFFFFFFFu

static bool bad(uint32_t v, uint32_t n) {
    return v != NONE && v >= n;
}

/* `section`[i].`field` = v against the n elements of `of`: every index check but the light
 * styles' (where none is out of range too) reports through here. */
static void ref(diag_run *d, int id, const char *section, uint32_t i, dg_src src, const char *field,
                uint32_t v, uint32_t n, const char *of) {
    if (bad(v, n))
        blvl__diag_emit(d, id, section, i, src, src == DG_SRC_NONE ? 0 : i,
                        "%s %u out of range (%u %s)", field, v, n, of);
}

static void batches(diag_run *d) {
    uint32_t nb = blvl_Geometry_batches_len(d->geo), nm = blvl_Geometry_materials_len(d->geo);
    uint32_t nf = blvl_Lighting_fog_volumes_len(d->light);
    uint32_t nbr = blvl_Sim_breakables_len(d->sim), nd = blvl_Sim_doors_len(d->sim);
    const char *sec = "geometry.batches";
    for (uint32_t i = 0; i < nb && !d->stop; i++) {
        blvl_Batch b = blvl_Geometry_batches_at(d->geo, i);
        ref(d, DG_BATCH_MATERIAL, sec, i, DG_SRC_BATCH, "material", blvl_Batch_material(b), nm,
            "materials");
        if (blvl__diag_ok(d, DG_LIGHT))
            ref(d, DG_BATCH_FOG, sec, i, DG_SRC_BATCH, "fog", blvl_Batch_fog(b), nf,
                "lighting.fog_volumes");
        if (!blvl__diag_ok(d, DG_SIM))
            continue;
        ref(d, DG_BATCH_SIM, sec, i, DG_SRC_BATCH, "breakable", blvl_Batch_breakable(b), nbr,
            "sim.breakables");
        ref(d, DG_BATCH_SIM, sec, i, DG_SRC_BATCH, "door", blvl_Batch_door(b), nd, "sim.doors");
    }
}

static void texture_ref(diag_run *d, uint32_t m, const char *field, uint32_t v, uint32_t nt) {
    ref(d, DG_MATERIAL_TEXTURE, "geometry.materials", m, DG_SRC_NONE, field, v, nt,
        "textures.images");
}

static void materials(diag_run *d) {
    uint32_t nm = blvl_Geometry_materials_len(d->geo), nt = blvl_Textures_images_len(d->tex);
    for (uint32_t i = 0; i < nm && !d->stop; i++) {
        blvl_Material m = blvl_Geometry_materials_at(d->geo, i);
        texture_ref(d, i, "texture", blvl_Material_texture(m), nt);
        blvl_MaterialMaps maps = blvl_Pbr_maps(blvl_Material_pbr(m));
        texture_ref(d, i, "pbr.maps.normal", blvl_MaterialMaps_normal(maps), nt);
        texture_ref(d, i, "pbr.maps.orm", blvl_MaterialMaps_orm(maps), nt);
        texture_ref(d, i, "pbr.maps.emissive", blvl_MaterialMaps_emissive(maps), nt);
        texture_ref(d, i, "pbr.maps.albedo2", blvl_MaterialMaps_albedo2(maps), nt);
        texture_ref(d, i, "pbr.maps.specular", blvl_MaterialMaps_specular(maps), nt);
        texture_ref(d, i, "pbr.maps.detail", blvl_MaterialMaps_detail(maps), nt);
        blvl_Shading sh = blvl_Material_shading(m);
        texture_ref(d, i, "shading.lightwarp", blvl_Shading_lightwarp(sh), nt);
        blvl_Anim an = blvl_Shading_anim(sh);
        uint32_t nfr = blvl_Anim_frames_len(an);
        for (uint32_t f = 0; f < nfr; f++)
            texture_ref(d, i, "shading.anim.frames[]", blvl_Anim_frames_at(an, f), nt);
    }
}

static void colliders(diag_run *d) {
    uint32_t nc = blvl_Sim_colliders_len(d->sim), nbr = blvl_Sim_breakables_len(d->sim);
    uint32_t nd = blvl_Sim_doors_len(d->sim), ns = blvl_Sim_collider_sources_len(d->sim);
    uint32_t nm = blvl_Geometry_materials_len(d->geo);
    const char *sec = "sim.colliders";
    for (uint32_t i = 0; i < nc && !d->stop; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(d->sim, i);
        ref(d, DG_COLLIDER_BREAKABLE, sec, i, DG_SRC_COLLIDER, "breakable",
            blvl_Collider_breakable(c), nbr, "breakables");
        ref(d, DG_COLLIDER_DOOR, sec, i, DG_SRC_COLLIDER, "door", blvl_Collider_door(c), nd,
            "doors");
        ref(d, DG_COLLIDER_SOURCE, sec, i, DG_SRC_COLLIDER, "source", blvl_Collider_source(c), ns,
            "collider_sources");
        if (blvl__diag_ok(d, DG_GEO))
            ref(d, DG_COLLIDER_MATERIAL, sec, i, DG_SRC_COLLIDER, "material",
                blvl_Collider_material(c), nm, "geometry.materials");
    }
    uint32_t nt = blvl_Sim_triggers_len(d->sim), ntd = blvl_Sim_teleport_dests_len(d->sim);
    for (uint32_t i = 0; i < nt && !d->stop; i++)
        ref(d, DG_TRIGGER_DEST, "sim.triggers", i, DG_SRC_NONE, "teleport_dest",
            blvl_Trigger_teleport_dest(blvl_Sim_triggers_at(d->sim, i)), ntd, "teleport_dests");
}

static void lighting(diag_run *d) {
    uint32_t ncube = blvl_Cubemaps_images_len(d->cube),
             nst = blvl_Lighting_light_styles_len(d->light);
    uint32_t np = blvl_Lighting_reflection_probes_len(d->light);
    for (uint32_t i = 0; i < np && blvl__diag_ok(d, DG_CUBE) && !d->stop; i++)
        ref(d, DG_PROBE_CUBEMAP, "lighting.reflection_probes", i, DG_SRC_NONE, "cubemap",
            blvl_ReflectionProbe_cubemap(blvl_Lighting_reflection_probes_at(d->light, i)), ncube,
            "cubemaps.images");
    uint32_t nl = blvl_Lighting_punctual_lights_len(d->light);
    for (uint32_t i = 0; i < nl && !d->stop; i++)
        ref(d, DG_LIGHT_STYLE, "lighting.punctual_lights", i, DG_SRC_NONE, "style",
            blvl_PunctualLight_style(blvl_Lighting_punctual_lights_at(d->light, i)), nst,
            "light_styles");
    uint32_t nlm = blvl_Lightmaps_lightmaps_len(d->lm);
    for (uint32_t i = 0; i < nlm && blvl__diag_ok(d, DG_LIGHT) && !d->stop; i++) {
        blvl_Lightmap lm = blvl_Lightmaps_lightmaps_at(d->lm, i);
        uint32_t ns = blvl_Lightmap_styles_len(lm);
        for (uint32_t s = 0; s < ns; s++) {
            uint32_t v = blvl_LightmapStyle_style(blvl_Lightmap_styles_at(lm, s));
            if (v >= nst)
                blvl__diag_emit(d, DG_LIGHT_STYLE, "lightmaps.lightmaps", i, DG_SRC_NONE, 0,
                                "styles[%u].style %u out of range (%u lighting.light_styles)", s, v,
                                nst);
        }
    }
    uint32_t npr = blvl_Lighting_profiles_len(d->light);
    for (uint32_t i = 0; i < npr && !d->stop; i++) {
        blvl_LightingProfile p = blvl_Lighting_profiles_at(d->light, i);
        if (blvl__diag_ok(d, DG_LM))
            ref(d, DG_PROFILE_REF, "lighting.profiles", i, DG_SRC_NONE, "lightmap",
                blvl_LightingProfile_lightmap(p), nlm, "lightmaps.lightmaps");
        if (blvl__diag_ok(d, DG_CUBE))
            ref(d, DG_PROFILE_REF, "lighting.profiles", i, DG_SRC_NONE, "sky",
                blvl_LightingProfile_sky(p), ncube, "cubemaps.images");
    }
}

void blvl__diag_check_refs(diag_run *d) {
    if (blvl__diag_any(d, DG_BATCH_MATERIAL, DG_BATCH_SIM))
        batches(d);
    if (d->on[DG_MATERIAL_TEXTURE] && blvl__diag_ok(d, DG_TEX))
        materials(d);
    if (blvl__diag_any(d, DG_COLLIDER_BREAKABLE, DG_TRIGGER_DEST))
        colliders(d);
    if (blvl__diag_any(d, DG_PROBE_CUBEMAP, DG_PROFILE_REF))
        lighting(d);
}
