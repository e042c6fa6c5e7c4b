/* blvl_probe_look: what a player standing at the pose sees and stands in (docs/PROBE.md). */
#include <math.h>
#include <string.h>

#include "probe/probe_internal.h"

/* Every collider but water, whichever mover it stops: a custom mover with no bits asked for. */
static const blvl_trace_filter any_solid = {BLVL_TRACE_AS_CUSTOM, 0, 0, 0, NULL, NULL, 0};

static void contents(const blvl_probe *p, const float at[3], blvl_probe_contents *c) {
    memcpy(c->point, at, sizeof c->point);
    c->flags = 0;
    c->collider = c->water_collider = c->water_material = BLVL_TRACE_NONE;
    c->count = blvl_trace_point_contents(p->world, &any_solid, at, &c->flags, &c->collider);
    c->water =
        blvl_trace_point_water(p->world, &any_solid, at, &c->water_material, &c->water_collider);
}

void blvl_probe_look(const blvl_probe *p, const blvl_probe_pose *pose, blvl_probe_result *out) {
    memset(out, 0, sizeof *out);
    float up[3], right[3], end[3];
    memcpy(out->eye, pose->pos, sizeof out->eye);
    blvl_probe_pose_axes(pose, out->dir, right, up);
    for (int k = 0; k < 3; k++)
        end[k] = out->eye[k] + out->dir[k] * BLVL_PROBE_VIEW_RANGE;
    blvl_trace_ray(p->world, &any_solid, out->eye, end, &out->view);
    out->view_distance = out->view.fraction * BLVL_PROBE_VIEW_RANGE;
    blvl_probe_ray_triangles(p, out->eye, out->dir, BLVL_PROBE_VIEW_RANGE, &out->tri);

    float origin[3] = {out->eye[0], out->eye[1] - BLVL_PROBE_EYE_HEIGHT, out->eye[2]};
    float feet[3] = {origin[0], origin[1] - BLVL_PROBE_FEET, origin[2]};
    contents(p, out->eye, &out->at_eye);
    contents(p, feet, &out->at_feet);

    /* The player box dropped straight down as the player would fall. */
    const float mins[3] = {-BLVL_PROBE_HALF_WIDTH, -BLVL_PROBE_FEET, -BLVL_PROBE_HALF_WIDTH};
    const float maxs[3] = {BLVL_PROBE_HALF_WIDTH, BLVL_PROBE_HEAD, BLVL_PROBE_HALF_WIDTH};
    float below[3] = {origin[0], origin[1] - BLVL_PROBE_FLOOR_RANGE, origin[2]};
    blvl_trace_result fall;
    blvl_trace_box(p->world, NULL, origin, below, mins, maxs, &fall);
    out->floor_startsolid = fall.startsolid;
    out->floor_hit = fall.collider != BLVL_TRACE_NONE && fall.fraction < 1;
    out->floor_distance = fall.fraction * BLVL_PROBE_FLOOR_RANGE;
    out->floor_point[0] = fall.endpos[0];
    out->floor_point[1] = fall.endpos[1] - BLVL_PROBE_FEET;
    out->floor_point[2] = fall.endpos[2];
    out->floor_normal[0] = fall.plane.normal.x;
    out->floor_normal[1] = fall.plane.normal.y;
    out->floor_normal[2] = fall.plane.normal.z;
    out->floor_collider = fall.collider;

    out->spawn = BLVL_TRACE_NONE;
    double best = INFINITY;
    for (uint32_t i = 0; i < p->spawn_count; i++) {
        double d2 = 0;
        for (int k = 0; k < 3; k++) {
            double d = (double)p->spawns[i].pos[k] - origin[k];
            d2 += d * d;
        }
        if (d2 < best) {
            best = d2;
            out->spawn = i;
        }
    }
    if (out->spawn != BLVL_TRACE_NONE) {
        out->spawn_distance = (float)sqrt(best);
        memcpy(out->spawn_position, p->spawns[out->spawn].pos, sizeof out->spawn_position);
        out->spawn_yaw = p->spawns[out->spawn].yaw;
    }
}
