/* The box trace against one convex solid, the Quake family's way: each plane is pushed out by the
 * box's support in its direction (the Minkowski sum), the segment is clipped against the pushed
 * planes, and the entry is pulled back BLVL_TRACE_DIST_EPSILON along the entering plane. */
#include "trace/trace_internal.h"

void blvl__tw_clip_box(tw_trace *t, const blvl_Plane *planes, uint32_t count, uint32_t collider) {
    const float eps = BLVL_TRACE_DIST_EPSILON;
    float enter = -1.0f, leave = 1.0f;
    const blvl_Plane *clip = NULL;
    int startout = 0, getout = 0;
    if (t->touched < TW_TOUCH_MAX) {
        t->touch_planes[t->touched] = planes;
        t->touch_counts[t->touched] = count;
    }
    t->touched++;
    for (uint32_t i = 0; i < count; i++) {
        const blvl_Plane *p = &planes[i];
        const float nx = p->normal.x, ny = p->normal.y, nz = p->normal.z;
        /* The box corner deepest against the normal touches the plane first. */
        float off = nx * (nx < 0 ? t->maxs[0] : t->mins[0]) +
                    ny * (ny < 0 ? t->maxs[1] : t->mins[1]) +
                    nz * (nz < 0 ? t->maxs[2] : t->mins[2]);
        float dist = p->dist - off;
        float d1 = nx * t->start[0] + ny * t->start[1] + nz * t->start[2] - dist;
        float d2 = nx * t->end[0] + ny * t->end[1] + nz * t->end[2] - dist;
        if (d2 > 0)
            getout = 1;
        if (d1 > 0)
            startout = 1;
        /* Outside this plane at both ends, or moving away from it: no contact with the solid. */
        if (d1 > 0 && (d2 >= eps || d2 >= d1))
            return;
        if (d1 <= 0 && d2 <= 0)
            continue;
        if (d1 > d2) { /* entering */
            float f = (d1 - eps) / (d1 - d2);
            if (f < 0)
                f = 0;
            if (f > enter) {
                enter = f;
                clip = p;
            }
        } else { /* leaving */
            float f = (d1 + eps) / (d1 - d2);
            if (f > 1)
                f = 1;
            if (f < leave)
                leave = f;
        }
    }
    /* Ties go to the lowest collider index, so the answer does not depend on the order the
     * colliders are visited in (the hierarchy's, brute force's). */
    if (!startout) {
        t->startsolid = 1;
        if (!getout && (!t->allsolid || collider < t->collider)) {
            t->allsolid = 1;
            t->fraction = 0;
            t->plane = NULL;
            t->collider = collider;
        }
        return;
    }
    if (t->allsolid || !(enter < leave && enter > -1 && clip))
        return;
    float f = enter < 0 ? 0 : enter;
    if (f < t->fraction ||
        (f == t->fraction && t->collider != BLVL_TRACE_NONE && collider < t->collider)) {
        t->fraction = f;
        t->plane = clip;
        t->collider = collider;
    }
}

int blvl__tw_point_inside(const blvl_Plane *planes, uint32_t count, const float p[3]) {
    for (uint32_t i = 0; i < count; i++) {
        const blvl_Plane *q = &planes[i];
        if (q->normal.x * p[0] + q->normal.y * p[1] + q->normal.z * p[2] - q->dist > 0)
            return 0;
    }
    return count > 0;
}

int blvl__tw_box_inside(const blvl_Plane *planes, uint32_t count, const float pos[3],
                        const float mins[3], const float maxs[3]) {
    for (uint32_t i = 0; i < count; i++) {
        const blvl_Plane *p = &planes[i];
        const float nx = p->normal.x, ny = p->normal.y, nz = p->normal.z;
        float off = nx * (nx < 0 ? maxs[0] : mins[0]) + ny * (ny < 0 ? maxs[1] : mins[1]) +
                    nz * (nz < 0 ? maxs[2] : mins[2]);
        float dist = p->dist - off;
        float d1 = nx * pos[0] + ny * pos[1] + nz * pos[2] - dist;
        if (d1 > 0)
            return 0;
    }
    return count > 0;
}
