/* Doors: the game moves a door's colliders by a rigid transform (slide or swing). A moved pose
 * is the closed-pose hull put through the transform and expanded again, so its axial planes and
 * bevels are those of the new orientation, not the closed pose's planes turned with it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "trace/trace_internal.h"

void blvl_trace_transform_identity(blvl_trace_transform *out) {
    memset(out, 0, sizeof *out);
    out->rot[0][0] = out->rot[1][1] = out->rot[2][2] = 1.0f;
}

static int unit(const float v[3], double out[3]) {
    double l = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
    if (!isfinite(l) || l < 1e-12)
        return 0;
    for (int k = 0; k < 3; k++)
        out[k] = v[k] / l;
    return 1;
}

blvl_status blvl_trace_transform_slide(blvl_trace_transform *out, const float dir[3],
                                       float distance, blvl_error *err) {
    double u[3];
    if (!out || !dir || !unit(dir, u) || !isfinite(distance) || fabsf(distance) > TW_COORD_MAX)
        return blvl__fail(err, BLVL_E_ARGUMENT, "trace: door: slide: direction zero or not finite");
    blvl_trace_transform_identity(out);
    for (int k = 0; k < 3; k++)
        out->translate[k] = (float)(u[k] * distance);
    return BLVL_OK;
}

blvl_status blvl_trace_transform_swing(blvl_trace_transform *out, const float origin[3],
                                       const float axis[3], float degrees, blvl_error *err) {
    double k[3];
    if (!out || !origin || !axis || !unit(axis, k) || !isfinite(degrees) || !isfinite(origin[0]) ||
        !isfinite(origin[1]) || !isfinite(origin[2]))
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "trace: door: swing: axis zero or values not finite");
    double a = fmod((double)degrees, 360.0) * (3.14159265358979323846 / 180.0);
    double c = cos(a), s = sin(a), t = 1 - c;
    /* Rodrigues: R = cI + s[k]x + (1-c)kk^T */
    double r[3][3] = {
        {c + t * k[0] * k[0], t * k[0] * k[1] - s * k[2], t * k[0] * k[2] + s * k[1]},
        {t * k[1] * k[0] + s * k[2], c + t * k[1] * k[1], t * k[1] * k[2] - s * k[0]},
        {t * k[2] * k[0] - s * k[1], t * k[2] * k[1] + s * k[0], c + t * k[2] * k[2]}};
    for (int i = 0; i < 3; i++) {
        double ro = 0;
        for (int j = 0; j < 3; j++) {
            out->rot[i][j] = (float)r[i][j];
            ro += r[i][j] * origin[j];
        }
        out->translate[i] = (float)(origin[i] - ro);
    }
    return BLVL_OK;
}

blvl_status blvl_trace_doors_new(blvl_trace_doors **out, const blvl_trace_world *w,
                                 blvl_error *err) {
    if (!out || !w)
        return blvl__fail(err, BLVL_E_ARGUMENT, "trace: door: no world");
    blvl_trace_doors *d = blvl__calloc_n(&w->al, 1, sizeof *d);
    if (!d)
        return blvl__nomem(err, "trace: door: the doors");
    d->world = w;
    d->poses = blvl__calloc_n(&w->al, w->door_collider_count + 1u, sizeof(tw_door_pose));
    if (!d->poses) {
        blvl__dealloc(&w->al, d, sizeof *d);
        return blvl__nomem(err, "trace: door: the poses");
    }
    for (uint32_t i = 0; i < w->door_collider_count; i++)
        blvl__geom_vec_init(&d->poses[i].planes, sizeof(blvl_Plane));
    *out = d;
    return BLVL_OK;
}

void blvl_trace_doors_free(blvl_trace_doors *d) {
    if (!d)
        return;
    const blvl_trace_world *w = d->world;
    for (uint32_t i = 0; i < w->door_collider_count; i++)
        blvl__geom_vec_free(&w->al, &d->poses[i].planes);
    blvl__dealloc(&w->al, d->poses, (w->door_collider_count + 1u) * sizeof(tw_door_pose));
    blvl__dealloc(&w->al, d, sizeof *d);
}

static void ignore_report(void *user, uint32_t face, const char *reason) {
    (void)user, (void)face, (void)reason;
}

static int rigid(const blvl_trace_transform *xf) {
    for (int i = 0; i < 3; i++) {
        if (!isfinite(xf->translate[i]) || fabsf(xf->translate[i]) > TW_COORD_MAX)
            return 0;
        for (int j = 0; j < 3; j++) {
            double dotp = 0;
            for (int k = 0; k < 3; k++) {
                if (!isfinite(xf->rot[i][k]))
                    return 0;
                dotp += (double)xf->rot[i][k] * xf->rot[j][k];
            }
            if (fabs(dotp - (i == j)) > 1e-3)
                return 0;
        }
    }
    return 1;
}

blvl_status blvl_trace_doors_set(blvl_trace_doors *d, uint32_t door, const blvl_trace_transform *xf,
                                 blvl_error *err) {
    if (!d)
        return blvl__fail(err, BLVL_E_ARGUMENT, "trace: door: no doors");
    if (xf && !rigid(xf))
        return blvl__fail(err, BLVL_E_ARGUMENT, "trace: door: transform is not a rigid motion");
    const blvl_trace_world *w = d->world;
    for (uint32_t i = 0; i < w->door_collider_count; i++) {
        const tw_door_collider *dc = &w->door_colliders[i];
        tw_door_pose *pose = &d->poses[i];
        if (dc->door != door)
            continue;
        if (!xf) {
            pose->moved = 0;
            continue;
        }
        blvl_Vec3 *moved = blvl__calloc_n(&w->al, dc->vertex_count + 1u, sizeof *moved);
        if (!moved)
            return blvl__nomem(err, "trace: door: a moved door");
        for (uint32_t v = 0; v < dc->vertex_count; v++) {
            const blvl_Vec3 *p = &w->door_vertices[dc->first_vertex + v];
            float q[3];
            for (int k = 0; k < 3; k++)
                q[k] = xf->rot[k][0] * p->x + xf->rot[k][1] * p->y + xf->rot[k][2] * p->z +
                       xf->translate[k];
            moved[v] = (blvl_Vec3){q[0], q[1], q[2]};
        }
        tw_hull_in in = {moved,
                         dc->vertex_count,
                         dc->face_count ? w->door_face_sizes + dc->first_face : NULL,
                         dc->face_count,
                         dc->index_count ? w->door_face_indices + dc->first_index : NULL,
                         dc->index_count};
        int usable = 0;
        pose->planes.len = 0;
        blvl_status st = blvl__trace_expand_hull(&w->al, &in, &pose->planes, NULL, NULL, pose->lo,
                                                 pose->hi, &usable, ignore_report, NULL);
        blvl__dealloc(&w->al, moved, (dc->vertex_count + 1u) * sizeof *moved);
        if (st != BLVL_OK)
            return blvl__nomem(err, "trace: door: a pose's planes");
        if (!usable)
            pose->planes.len = 0; /* nothing left to hit */
        pose->moved = 1;
    }
    return BLVL_OK;
}
