/* The pose convention (the cameras section's), the projection of a picture, and the pose a
 * camera name or purpose gives. */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "probe/probe_internal.h"

#define PI 3.14159265358979323846
#define RAD(d) ((double)(d) * (PI / 180.0))

void blvl_probe_pose_axes(const blvl_probe_pose *pose, float forward[3], float right[3],
                          float up[3]) {
    double y = RAD(pose->yaw), pt = RAD(pose->pitch), r = RAD(pose->roll);
    double cy = cos(y), sy = sin(y), cp = cos(pt), sp = sin(pt);
    /* yaw 0 looks down -Z, positive yaw toward -X, positive pitch up */
    double f[3] = {-sy * cp, sp, -cy * cp};
    double rt[3] = {cy, 0, -sy};          /* level right at yaw 0 is +X */
    double u[3] = {sy * sp, cp, cy * sp}; /* right x forward */
    /* positive roll turns the right axis toward up: the picture of the world turns clockwise */
    double cr = cos(r), sr = sin(r);
    for (int k = 0; k < 3; k++) {
        forward[k] = (float)f[k];
        right[k] = (float)(rt[k] * cr + u[k] * sr);
        up[k] = (float)(u[k] * cr - rt[k] * sr);
    }
}

void blvl__probe_view(const blvl_probe_pose *pose, uint32_t width, uint32_t height, probe_view *v) {
    memcpy(v->eye, pose->pos, sizeof v->eye);
    blvl_probe_pose_axes(pose, v->fwd, v->right, v->up);
    double fov = pose->fov_x > 0 && pose->fov_x < 179 ? pose->fov_x : 90;
    /* fov_x is of a 4:3 picture: the vertical field follows from it and stays (Hor+) */
    double ty = tan(RAD(fov) / 2) * 0.75;
    double tx = ty * (double)width / (double)(height ? height : 1);
    v->cx = (float)width * 0.5f;
    v->cy = (float)height * 0.5f;
    v->sx = (float)((double)width * 0.5 / tx);
    v->sy = (float)((double)height * 0.5 / ty);
    v->no_textures = false;
}

static const char *const purposes[] = {"thumbnail", "overview", "menu", "other"};

blvl_status blvl_probe_camera(const blvl_probe *p, const char *which, blvl_probe_pose *out,
                              bool *framed, blvl_error *err) {
    if (!p || !which || !out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "probe: no camera asked for");
    if (framed)
        *framed = false;
    if (p->cameras_damaged) /* the camera asked for may be in it: no framing in its place */
        for (uint32_t i = 0; i < p->damaged_count; i++)
            if (strcmp(p->damaged[i].section, "cameras") == 0)
                return blvl__fail(err, p->damaged[i].error.code, "probe: cameras: %s",
                                  blvl__error_text(&p->damaged[i].error));
    for (uint32_t i = 0; i < p->camera_count; i++)
        if (p->cameras[i].name && strcmp(p->cameras[i].name, which) == 0) {
            *out = p->cameras[i].pose;
            return BLVL_OK;
        }
    for (uint32_t i = 0; i < p->camera_count; i++) {
        uint32_t k = p->cameras[i].purpose;
        if (k < sizeof purposes / sizeof *purposes && strcasecmp(purposes[k], which) == 0) {
            *out = p->cameras[i].pose;
            return BLVL_OK;
        }
    }
    if (p->camera_count)
        return blvl__fail(err, BLVL_E_NOT_FOUND,
                          "probe: cameras: no camera named '%s' or with that purpose", which);
    /* No cameras: stand outside the bounds' corner, yaw 45 pitch -30, far enough that the
     * bounding sphere fits the vertical field (36.87 degrees each side for fov_x 90). */
    float c[3] = {0, 0, 0}, radius = 64;
    if (p->lo[0] <= p->hi[0]) {
        double r2 = 0;
        for (int k = 0; k < 3; k++) {
            c[k] = (p->lo[k] + p->hi[k]) * 0.5f;
            double h = ((double)p->hi[k] - p->lo[k]) * 0.5;
            r2 += h * h;
        }
        radius = (float)sqrt(r2);
        if (!(radius > 1))
            radius = 1;
    }
    blvl_probe_pose pose = {{0, 0, 0}, 45, -30, 0, 90};
    float f[3], r[3], u[3];
    blvl_probe_pose_axes(&pose, f, r, u);
    float dist = radius / 0.6f + BLVL_PROBE_NEAR;
    for (int k = 0; k < 3; k++)
        pose.pos[k] = c[k] - f[k] * dist;
    *out = pose;
    if (framed)
        *framed = true;
    return BLVL_OK;
}
