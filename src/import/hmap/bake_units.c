/* Units and axes (docs/IMPORT-HMAP.md, "Units and axes").
 *
 * Rockgrave is +Y up and -Z forward like blvl, so a point only scales:
 *   p_qu = p_map * s,   s = 1 / (unitsPerMeter * 0.0254)
 * (map units / unitsPerMeter = metres; 1 qu = 0.0254 m). Rockgrave's yaw is blvl's: with
 * R = Ry(yaw) Rx(pitch) Rz(roll), forward = R * (0, 0, -1) = (-sin yaw cos pitch, sin pitch,
 * -cos yaw cos pitch), so yaw 90 turns -Z toward -X, which is what blvl's yaw means. */
#include <math.h>
#include <stdio.h>

#include "bake_internal.h"
#include "common/error.h"

blvl_status blvl__import_hmap_bake_units(hmap_bake *c) {
    const blvl_hmap *m = c->map;
    float upm;
    char field[64];
    uint64_t off;
    const char *part;
    if (m->meta) {
        upm = m->meta->units_per_meter;
        off = blvl__import_hmap_bake_off_meta_upm(m);
        part = "META";
    } else if (m->compiled) {
        upm = m->compiled->units_per_meter;
        off = blvl__import_hmap_bake_off_cmpl_upm(m);
        part = "CMPL";
    } else {
        /* Neither chunk: nothing says how large a unit is; a map without both has no scale. */
        return blvl__fail_source(c->err, "META", "unitsPerMeter", 12, "units-per-meter",
                                 "the file has neither META nor CMPL, so no unitsPerMeter");
    }
    if (!isfinite(upm) || !(upm > 0.0f)) {
        snprintf(field, sizeof field, "unitsPerMeter");
        char problem[96];
        snprintf(problem, sizeof problem, "%g is not a positive finite number", (double)upm);
        return blvl__fail_source(c->err, part, field, off, "units-per-meter", "%s", problem);
    }
    c->s = 1.0 / ((double)upm * 0.0254);
    if (!isfinite(c->s) || c->s > 1e30) {
        char problem[96];
        snprintf(problem, sizeof problem, "%g makes one map unit too large a length in qu",
                 (double)upm);
        return blvl__fail_source(c->err, part, "unitsPerMeter", off, "units-per-meter", "%s",
                                 problem);
    }
    return BLVL_OK;
}

blvl_Vec3 blvl__import_hmap_bake_forward(blvl_Vec3 angles) {
    const double d2r = 3.14159265358979323846 / 180.0;
    double p = angles.x * d2r, y = angles.y * d2r;
    double v[3] = {-sin(y) * cos(p), sin(p), -cos(y) * cos(p)};
    /* sin(180) is 1.2e-16, not 0: round such dust (and -0) to 0 so axis-aligned angles give
     * exact axes */
    for (int k = 0; k < 3; k++)
        v[k] = fabs(v[k]) < 1e-12 ? 0.0 : v[k];
    blvl_Vec3 f = {(float)v[0], (float)v[1], (float)v[2]};
    return f;
}

bool blvl__import_hmap_bake_finite3(blvl_Vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

blvl_Vec3 blvl__import_hmap_bake_normalize(blvl_Vec3 v, bool *ok) {
    double l = sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
    blvl_Vec3 r = {0, 0, 0};
    *ok = isfinite(l) && l > 0.0;
    if (*ok) {
        r.x = (float)(v.x / l);
        r.y = (float)(v.y / l);
        r.z = (float)(v.z / l);
    }
    return r;
}

bool blvl__import_hmap_bake_plane(const hmap_bake *c, blvl_Plane in, blvl_Plane *out) {
    double l = sqrt((double)in.normal.x * in.normal.x + (double)in.normal.y * in.normal.y +
                    (double)in.normal.z * in.normal.z);
    if (!isfinite(l) || !isfinite(in.dist) || !(l > 0.0))
        return false;
    out->normal.x = (float)(in.normal.x / l);
    out->normal.y = (float)(in.normal.y / l);
    out->normal.z = (float)(in.normal.z / l);
    double d = in.dist / l * c->s;
    if (!isfinite(d) || fabs(d) > 1e30)
        return false;
    out->dist = (float)d;
    return true;
}

blvl_Vec3 blvl__import_hmap_bake_point(const hmap_bake *c, blvl_Vec3 p) {
    blvl_Vec3 r = {(float)(p.x * c->s), (float)(p.y * c->s), (float)(p.z * c->s)};
    return r;
}
