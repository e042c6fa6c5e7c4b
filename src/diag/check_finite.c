/* NaN or infinity in any coordinate the format holds as float: vertices, bounds, planes, hull
 * vertices, placements, lights, probes. One finding per element (its first bad field). */
#include <math.h>

#include "diag/diag_internal.h"

#define F3(v) blvl__diag_finite3(v)
#define FP(p) (F3((p).normal) && isfinite((p).dist))

static blvl_Plane planes_at(blvl_Planes t, uint32_t i) {
    return blvl_Planes_planes_at(t, i);
}

static void geometry(diag_run *d) {
    uint32_t nv = blvl_Geometry_vertices_len(d->geo);
    for (uint32_t i = 0; i < nv && !d->stop; i++) {
        blvl_Vertex v = blvl_Geometry_vertices_at(d->geo, i);
        const char *what = !F3(v.position)                           ? "position"
                           : !F3(v.normal)                           ? "normal"
                           : !(isfinite(v.uv.x) && isfinite(v.uv.y)) ? "uv"
                           : !(isfinite(v.lightmap_uv.x) && isfinite(v.lightmap_uv.y))
                               ? "lightmap_uv"
                               : NULL;
        if (what)
            blvl__diag_emit(d, DG_NOT_FINITE, "geometry.vertices", i, DG_SRC_NONE, 0,
                            "%s is not finite", what);
    }
    uint32_t nb = blvl_Geometry_batches_len(d->geo);
    for (uint32_t i = 0; i < nb && !d->stop; i++) {
        blvl_Batch b = blvl_Geometry_batches_at(d->geo, i);
        if (!F3(blvl_Batch_lo(b)) || !F3(blvl_Batch_hi(b)))
            blvl__diag_emit(d, DG_NOT_FINITE, "geometry.batches", i, DG_SRC_BATCH, i,
                            "bounds are not finite");
    }
}

static const char *collider_bad(blvl_Collider c) {
    if (!F3(blvl_Collider_lo(c)) || !F3(blvl_Collider_hi(c)))
        return "bounds";
    if (blvl_Collider_shape_type(c) == blvl_Shape_Planes) {
        blvl_Planes p = blvl_Collider_shape_as_Planes(c);
        uint32_t n = blvl_Planes_planes_len(p);
        for (uint32_t k = 0; k < n; k++)
            if (!FP(planes_at(p, k)))
                return "a plane";
    } else if (blvl_Collider_shape_type(c) == blvl_Shape_Hull) {
        blvl_Hull h = blvl_Collider_shape_as_Hull(c);
        uint32_t n = blvl_Hull_vertices_len(h);
        for (uint32_t k = 0; k < n; k++)
            if (!F3(blvl_Hull_vertices_at(h, k)))
                return "a hull vertex";
    }
    return NULL;
}

static void sim(diag_run *d) {
    uint32_t n = blvl_Sim_colliders_len(d->sim);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        const char *what = collider_bad(blvl_Sim_colliders_at(d->sim, i));
        if (what)
            blvl__diag_emit(d, DG_NOT_FINITE, "sim.colliders", i, DG_SRC_COLLIDER, i,
                            "%s is not finite", what);
    }
    n = blvl_Sim_spawns_len(d->sim);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_Spawn s = blvl_Sim_spawns_at(d->sim, i);
        if (!F3(blvl_Spawn_position(s)) || !isfinite(blvl_Spawn_yaw(s)))
            blvl__diag_emit(d, DG_NOT_FINITE, "sim.spawns", i, DG_SRC_NONE, 0,
                            "position or yaw is not finite");
    }
    n = blvl_Sim_teleport_dests_len(d->sim);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_TeleportDest t = blvl_Sim_teleport_dests_at(d->sim, i);
        if (!F3(blvl_TeleportDest_position(t)) || !isfinite(blvl_TeleportDest_yaw(t)))
            blvl__diag_emit(d, DG_NOT_FINITE, "sim.teleport_dests", i, DG_SRC_NONE, 0,
                            "position or yaw is not finite");
    }
    n = blvl_Sim_triggers_len(d->sim);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_Trigger t = blvl_Sim_triggers_at(d->sim, i);
        bool ok = F3(blvl_Trigger_lo(t)) && F3(blvl_Trigger_hi(t)) && F3(blvl_Trigger_velocity(t));
        for (uint32_t k = 0; ok && k < blvl_Trigger_planes_len(t); k++)
            ok = FP(blvl_Trigger_planes_at(t, k));
        if (!ok)
            blvl__diag_emit(d, DG_NOT_FINITE, "sim.triggers", i, DG_SRC_NONE, 0,
                            "bounds, planes or velocity not finite");
    }
    n = blvl_Sim_hurt_volumes_len(d->sim);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_HurtVolume h = blvl_Sim_hurt_volumes_at(d->sim, i);
        bool ok = F3(blvl_HurtVolume_lo(h)) && F3(blvl_HurtVolume_hi(h));
        for (uint32_t k = 0; ok && k < blvl_HurtVolume_planes_len(h); k++)
            ok = FP(blvl_HurtVolume_planes_at(h, k));
        if (!ok)
            blvl__diag_emit(d, DG_NOT_FINITE, "sim.hurt_volumes", i, DG_SRC_NONE, 0,
                            "bounds or planes not finite");
    }
    n = blvl_Sim_doors_len(d->sim);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_Door o = blvl_Sim_doors_at(d->sim, i);
        if (!F3(blvl_Door_lo(o)) || !F3(blvl_Door_hi(o)) || !F3(blvl_Door_direction(o)) ||
            !F3(blvl_Door_hinge_origin(o)) || !F3(blvl_Door_hinge_axis(o)) ||
            !isfinite(blvl_Door_distance(o)) || !isfinite(blvl_Door_angle(o)))
            blvl__diag_emit(d, DG_NOT_FINITE, "sim.doors", i, DG_SRC_NONE, 0,
                            "pose or motion not finite");
    }
    n = blvl_Sim_breakables_len(d->sim);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_Breakable b = blvl_Sim_breakables_at(d->sim, i);
        if (!F3(blvl_Breakable_lo(b)) || !F3(blvl_Breakable_hi(b)))
            blvl__diag_emit(d, DG_NOT_FINITE, "sim.breakables", i, DG_SRC_NONE, 0,
                            "bounds not finite");
    }
}

static void lighting(diag_run *d) {
    uint32_t n = blvl_Lighting_punctual_lights_len(d->light);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_PunctualLight l = blvl_Lighting_punctual_lights_at(d->light, i);
        if (!F3(blvl_PunctualLight_position(l)) || !F3(blvl_PunctualLight_direction(l)))
            blvl__diag_emit(d, DG_NOT_FINITE, "lighting.punctual_lights", i, DG_SRC_NONE, 0,
                            "position or direction not finite");
    }
    n = blvl_Lighting_lights_len(d->light);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_Light l = blvl_Lighting_lights_at(d->light, i);
        if (!F3(blvl_Light_position(l)) || !F3(blvl_Light_normal(l)))
            blvl__diag_emit(d, DG_NOT_FINITE, "lighting.lights", i, DG_SRC_NONE, 0,
                            "position or normal not finite");
    }
    n = blvl_Lighting_reflection_probes_len(d->light);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_ReflectionProbe p = blvl_Lighting_reflection_probes_at(d->light, i);
        if (!F3(blvl_ReflectionProbe_position(p)))
            blvl__diag_emit(d, DG_NOT_FINITE, "lighting.reflection_probes", i, DG_SRC_NONE, 0,
                            "position not finite");
    }
    n = blvl_Lighting_fog_volumes_len(d->light);
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_FogVolume f = blvl_Lighting_fog_volumes_at(d->light, i);
        if (!F3(blvl_FogVolume_lo(f)) || !F3(blvl_FogVolume_hi(f)))
            blvl__diag_emit(d, DG_NOT_FINITE, "lighting.fog_volumes", i, DG_SRC_NONE, 0,
                            "bounds not finite");
    }
    n = blvl_Acoustics_probes_len(d->ac);
    for (uint32_t i = 0; i < n && !d->stop; i++)
        if (!F3(blvl_Acoustics_probes_at(d->ac, i).position))
            blvl__diag_emit(d, DG_NOT_FINITE, "acoustics.probes", i, DG_SRC_NONE, 0,
                            "position not finite");
}

void blvl__diag_check_finite(diag_run *d) {
    if (!d->on[DG_NOT_FINITE])
        return;
    geometry(d);
    sim(d);
    lighting(d);
}
