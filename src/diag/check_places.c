/* Where a player is put or touched, through the trace (as the player moves, every match type,
 * doors closed): spawns and teleport destinations inside a solid, spawns with nothing solid below
 * them at all (the game drops a spawned player until it lands, from any height, so only a spawn
 * that would fall out of the level is wrong), and trigger and hurt volumes with no point a player
 * could stand in. */
#include <math.h>

#include "diag/diag_internal.h"

#define SAMPLES 5 /* per axis, through a volume's bounds */

static bool solid_at(const blvl_trace_world *w, blvl_Vec3 p, uint32_t *collider) {
    const float q[3] = {p.x, p.y, p.z};
    return blvl_trace_point_contents(w, NULL, q, NULL, collider) > 0;
}

static bool inside_planes(const blvl_Plane *pl, uint32_t n, const float q[3]) {
    for (uint32_t k = 0; k < n; k++)
        if (pl[k].normal.x * q[0] + pl[k].normal.y * q[1] + pl[k].normal.z * q[2] - pl[k].dist > 0)
            return false;
    return true;
}

/* Does the volume (lo..hi, cut by the planes when there are any) hold a point outside every
 * solid? Samples a grid through the bounds; a volume none of whose samples is inside its planes
 * counts as holding empty space (it is no volume to judge). */
static bool has_space(const blvl_trace_world *w, blvl_Vec3 lo, blvl_Vec3 hi, const blvl_Plane *pl,
                      uint32_t np) {
    const float l[3] = {lo.x, lo.y, lo.z}, h[3] = {hi.x, hi.y, hi.z};
    bool any_inside = false;
    for (int i = 0; i < SAMPLES; i++)
        for (int j = 0; j < SAMPLES; j++)
            for (int k = 0; k < SAMPLES; k++) {
                const int ijk[3] = {i, j, k};
                float q[3];
                for (int a = 0; a < 3; a++)
                    q[a] = l[a] + (h[a] - l[a]) * ((float)ijk[a] + 0.5f) / SAMPLES;
                if (np && !inside_planes(pl, np, q))
                    continue;
                any_inside = true;
                if (blvl_trace_point_contents(w, NULL, q, NULL, NULL) == 0)
                    return true;
            }
    return !any_inside;
}

#define MAX_VOLUME_PLANES 64 /* more planes than that: the bounds alone are sampled */

/* One trigger or hurt volume: `np` planes (over MAX_VOLUME_PLANES: the bounds alone), copied
 * into `pl` by the caller. */
static void volume(diag_run *d, const blvl_trace_world *w, int id, const char *section, uint32_t i,
                   blvl_Vec3 lo, blvl_Vec3 hi, const blvl_Plane *pl, uint32_t np) {
    if (!blvl__diag_finite3(lo) || !blvl__diag_finite3(hi))
        return;
    if (!has_space(w, lo, hi, pl, np))
        blvl__diag_emit(d, id, section, i, DG_SRC_NONE, 0,
                        "every sampled point of %g %g %g .. %g %g %g is inside a solid",
                        (double)lo.x, (double)lo.y, (double)lo.z, (double)hi.x, (double)hi.y,
                        (double)hi.z);
}

static void volumes(diag_run *d, const blvl_trace_world *w) {
    blvl_Plane pl[MAX_VOLUME_PLANES];
    uint32_t n = blvl_Sim_triggers_len(d->sim);
    for (uint32_t i = 0; i < n && d->on[DG_TRIGGER_SOLID] && !d->stop; i++) {
        blvl_Trigger t = blvl_Sim_triggers_at(d->sim, i);
        uint32_t np = blvl_Trigger_planes_len(t);
        np = np > MAX_VOLUME_PLANES ? 0 : np;
        for (uint32_t k = 0; k < np; k++)
            pl[k] = blvl_Trigger_planes_at(t, k);
        volume(d, w, DG_TRIGGER_SOLID, "sim.triggers", i, blvl_Trigger_lo(t), blvl_Trigger_hi(t),
               pl, np);
    }
    n = blvl_Sim_hurt_volumes_len(d->sim);
    for (uint32_t i = 0; i < n && d->on[DG_HURT_SOLID] && !d->stop; i++) {
        blvl_HurtVolume t = blvl_Sim_hurt_volumes_at(d->sim, i);
        uint32_t np = blvl_HurtVolume_planes_len(t);
        np = np > MAX_VOLUME_PLANES ? 0 : np;
        for (uint32_t k = 0; k < np; k++)
            pl[k] = blvl_HurtVolume_planes_at(t, k);
        volume(d, w, DG_HURT_SOLID, "sim.hurt_volumes", i, blvl_HurtVolume_lo(t),
               blvl_HurtVolume_hi(t), pl, np);
    }
}

/* The lowest point of any collider (+INFINITY when there is none): below it nothing can stop a
 * fall. */
static float world_bottom(const blvl_trace_world *w) {
    float bottom = INFINITY;
    uint32_t n = blvl_trace_world_collider_count(w);
    for (uint32_t i = 0; i < n; i++) {
        float lo[3], hi[3];
        if (blvl_trace_world_bounds(w, i, lo, hi) && isfinite(lo[1]) && lo[1] < bottom)
            bottom = lo[1];
    }
    return bottom;
}

void blvl__diag_check_places(diag_run *d) {
    if (!blvl__diag_any(d, DG_SPAWN_SOLID, DG_HURT_SOLID))
        return;
    const blvl_trace_world *w = blvl__diag_world(d);
    if (!w)
        return;
    uint32_t n = blvl_Sim_spawns_len(d->sim), c = BLVL_TRACE_NONE;
    float bottom = d->on[DG_SPAWN_FLOOR] ? world_bottom(w) : INFINITY;
    for (uint32_t i = 0; i < n && !d->stop; i++) {
        blvl_Vec3 p = blvl_Spawn_position(blvl_Sim_spawns_at(d->sim, i));
        if (!blvl__diag_finite3(p))
            continue; /* D0017 */
        if (solid_at(w, p, &c)) {
            blvl__diag_emit(d, DG_SPAWN_SOLID, "sim.spawns", i, DG_SRC_NONE, 0,
                            "at %g %g %g inside collider %u", (double)p.x, (double)p.y, (double)p.z,
                            c);
            continue; /* a floor below a point in a solid means nothing */
        }
        if (!d->on[DG_SPAWN_FLOOR])
            continue;
        /* a ray from the spawn to below the lowest collider: the whole fall, however long */
        const float from[3] = {p.x, p.y, p.z};
        const float to[3] = {p.x, (isfinite(bottom) && bottom < p.y ? bottom : p.y) - 1.0f, p.z};
        blvl_trace_result r;
        blvl_trace_ray(w, NULL, from, to, &r);
        if (r.fraction >= 1.0f && !r.startsolid)
            blvl__diag_emit(
                d, DG_SPAWN_FLOOR, "sim.spawns", i, DG_SRC_NONE, 0,
                "at %g %g %g: nothing solid below it; a player spawned here falls out of "
                "the level",
                (double)p.x, (double)p.y, (double)p.z);
    }
    n = blvl_Sim_teleport_dests_len(d->sim);
    for (uint32_t i = 0; i < n && d->on[DG_DEST_SOLID] && !d->stop; i++) {
        blvl_Vec3 p = blvl_TeleportDest_position(blvl_Sim_teleport_dests_at(d->sim, i));
        if (blvl__diag_finite3(p) && solid_at(w, p, &c))
            blvl__diag_emit(d, DG_DEST_SOLID, "sim.teleport_dests", i, DG_SRC_NONE, 0,
                            "at %g %g %g inside collider %u", (double)p.x, (double)p.y, (double)p.z,
                            c);
    }
    volumes(d, w);
}
