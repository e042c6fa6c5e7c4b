/* The level's points and volumes as glTF nodes: cameras (glTF cameras), punctual lights
 * (KHR_lights_punctual), spawns and teleport destinations (empty nodes turned by their yaw),
 * triggers, sites and hurt volumes (empty nodes at the centre of their box, scaled to its half
 * size so a viewer that draws empties as unit cubes draws the box). What each is goes into the
 * node's extras under "blvl" (docs/EXPORT.md, "Nodes"). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export/export_internal.h"

#define DEG (3.14159265358979323846 / 180.0)

int blvl__export_finite(const double *v, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

void blvl__export_quat_ypr(double yaw, double pitch, double roll, double q[4]) {
    /* Ry(yaw) * Rx(pitch) * Rz(roll), each a right-handed turn about its axis. */
    double cy = cos(yaw * DEG / 2), sy = sin(yaw * DEG / 2);
    double cp = cos(pitch * DEG / 2), sp = sin(pitch * DEG / 2);
    double cr = cos(roll * DEG / 2), sr = sin(roll * DEG / 2);
    /* qy * qx = (cy sp, sy cp, -sy sp, cy cp) */
    double a[4] = {cy * sp, sy * cp, -sy * sp, cy * cp};
    /* (a) * qz, qz = (0, 0, sr, cr) */
    q[0] = a[0] * cr + a[1] * sr;
    q[1] = a[1] * cr - a[0] * sr;
    q[2] = a[2] * cr + a[3] * sr;
    q[3] = a[3] * cr - a[2] * sr;
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= l;
}

void blvl__export_quat_look(const double d[3], double q[4]) {
    /* The shortest turn from (0, 0, -1) to d; half-way vector method. */
    double dot = -d[2];
    if (dot < -0.999999) { /* d = +Z: half a turn about Y */
        q[0] = 0, q[1] = 1, q[2] = 0, q[3] = 0;
        return;
    }
    /* cross((0,0,-1), d) = (d.y, -d.x, 0) */
    q[0] = d[1], q[1] = -d[0], q[2] = 0, q[3] = 1 + dot;
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= l;
}

/* Starts a node in the level scene: name, translation (qu, converted), optional rotation.
 * The caller adds fields and closes it with blvl__export_json_end. */
static json_text *node(gltf_export *x, const char *name, const double pos[3], const double *rot) {
    json_text *j = &x->nodes;
    blvl__export_json_item(j);
    blvl__export_json_obj(j, NULL);
    blvl__export_json_str(j, "name", name);
    double t[3] = {pos[0] * XP_M, pos[1] * XP_M, pos[2] * XP_M};
    if (t[0] != 0 || t[1] != 0 || t[2] != 0)
        blvl__export_json_vec(j, "translation", t, 3);
    if (rot)
        blvl__export_json_vec(j, "rotation", rot, 4);
    blvl__export_scene_node(x, &x->scene0);
    return j;
}

static int vec_ok(gltf_export *x, const char *what, uint32_t i, const double *v, int n) {
    if (blvl__export_finite(v, n))
        return 1;
    blvl__export_fail(x, BLVL_E_ARGUMENT, "non-finite: %s[%u]", what, (unsigned)i);
    return 0;
}

/* Opens the node's extras and their "blvl" object with its kind and index; end3 closes them
 * and the node. */
static void extras(json_text *j, const char *kind, uint32_t i) {
    blvl__export_json_obj(j, "extras");
    blvl__export_json_obj(j, "blvl");
    blvl__export_json_str(j, "kind", kind);
    blvl__export_json_u64(j, "index", i);
}

/* A box node: centre, scale = half size (only when every side is positive), extras lo/hi in
 * metres. Leaves the extras' "blvl" object open. */
static json_text *box_node(gltf_export *x, const char *what, uint32_t i, const char *name,
                           blvl_Vec3 lo, blvl_Vec3 hi) {
    double v[6] = {lo.x, lo.y, lo.z, hi.x, hi.y, hi.z};
    if (!vec_ok(x, what, i, v, 6))
        return NULL;
    double c[3] = {(v[0] + v[3]) / 2, (v[1] + v[4]) / 2, (v[2] + v[5]) / 2};
    double s[3] = {(v[3] - v[0]) / 2 * XP_M, (v[4] - v[1]) / 2 * XP_M, (v[5] - v[2]) / 2 * XP_M};
    json_text *j = node(x, name, c, NULL);
    if (s[0] > 0 && s[1] > 0 && s[2] > 0 && blvl__export_finite(s, 3))
        blvl__export_json_vec(j, "scale", s, 3);
    extras(j, what, i);
    double lo_m[3] = {v[0] * XP_M, v[1] * XP_M, v[2] * XP_M},
           hi_m[3] = {v[3] * XP_M, v[4] * XP_M, v[5] * XP_M};
    blvl__export_json_vec(j, "min", lo_m, 3);
    blvl__export_json_vec(j, "max", hi_m, 3);
    return j;
}

static void end3(json_text *j) {
    blvl__export_json_end(j); /* blvl */
    blvl__export_json_end(j); /* extras */
    blvl__export_json_end(j); /* node */
}

static void cameras(gltf_export *x) {
    blvl_bytes b = {0};
    blvl_Cameras cams = {NULL};
    if (blvl__export_section(x, "cameras", &b, &cams.p_) <= 0)
        return;
    uint32_t n = blvl_Cameras_cameras_len(cams);
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++) {
        blvl_Camera c = blvl_Cameras_cameras_at(cams, i);
        blvl_Vec3 p = blvl_Camera_pos(c);
        double v[7] = {p.x,
                       p.y,
                       p.z,
                       blvl_Camera_yaw(c),
                       blvl_Camera_pitch(c),
                       blvl_Camera_roll(c),
                       blvl_Camera_fov_x(c)};
        if (!vec_ok(x, "cameras.cameras", i, v, 7))
            break;
        if (!(v[6] > 0 && v[6] < 180)) {
            blvl__export_fail(x, BLVL_E_ARGUMENT,
                              "camera-fov: cameras.cameras[%u].fov_x: %g not in (0, 180)",
                              (unsigned)i, v[6]);
            break;
        }
        /* fov_x is the horizontal field of view of a 4:3 view. */
        double yfov = 2 * atan(tan(v[6] * DEG / 2) * 3.0 / 4.0);
        json_text *j = &x->cameras;
        blvl__export_json_item(j);
        blvl__export_json_obj(j, NULL);
        blvl__export_json_str(j, "type", "perspective");
        blvl__export_json_obj(j, "perspective");
        blvl__export_json_num(j, "aspectRatio", 4.0 / 3.0);
        blvl__export_json_num(j, "yfov", yfov);
        blvl__export_json_num(j, "znear", 0.01);
        blvl__export_json_end(j);
        blvl__export_json_end(j);
        double q[4];
        blvl__export_quat_ypr(v[3], v[4], v[5], q);
        blvl_fb_str nm = blvl_Camera_name(c);
        char name[80];
        snprintf(name, sizeof name, "camera %u: %.*s", (unsigned)i,
                 (int)(nm.len > 60 ? 60 : nm.len), nm.ptr ? nm.ptr : "");
        j = node(x, name, v, q);
        blvl__export_json_u64(j, "camera", x->n_cameras++);
        extras(j, "camera", i);
        blvl__export_json_u64(j, "purpose", blvl_Camera_purpose(c));
        blvl__export_json_num(j, "fov_x", v[6]);
        end3(j);
    }
    blvl_bytes_free(&b);
}

static double clamp01(double v) {
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

static void lights(gltf_export *x) {
    blvl_bytes b = {0};
    blvl_Lighting lig = {NULL};
    if (blvl__export_section(x, "lighting", &b, &lig.p_) <= 0)
        return;
    uint32_t n = blvl_Lighting_punctual_lights_len(lig);
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++) {
        blvl_PunctualLight l = blvl_Lighting_punctual_lights_at(lig, i);
        blvl_Vec3 p = blvl_PunctualLight_position(l), d = blvl_PunctualLight_direction(l),
                  c = blvl_PunctualLight_color(l);
        double v[14] = {p.x,
                        p.y,
                        p.z,
                        d.x,
                        d.y,
                        d.z,
                        c.x,
                        c.y,
                        c.z,
                        blvl_PunctualLight_intensity(l),
                        blvl_PunctualLight_range(l),
                        blvl_PunctualLight_inner_cone(l),
                        blvl_PunctualLight_outer_cone(l),
                        0};
        if (!vec_ok(x, "lighting.punctual_lights", i, v, 13))
            break;
        int spot = blvl_PunctualLight_kind(l) == blvl_PunctualKind_Spot;
        json_text *j = &x->lights;
        blvl__export_json_item(j);
        blvl__export_json_obj(j, NULL);
        blvl__export_json_str(j, "type", spot ? "spot" : "point");
        double col[3] = {clamp01(v[6]), clamp01(v[7]), clamp01(v[8])};
        blvl__export_json_vec(j, "color", col, 3);
        /* The source engine's intensity times the profile's light scale, unconverted. */
        double in = fabs(v[9] * x->light_scale);
        blvl__export_json_num(j, "intensity", isfinite(in) ? in : 0);
        if (v[10] > 0 && isfinite(v[10] * XP_M))
            blvl__export_json_num(j, "range", v[10] * XP_M);
        double rot[4] = {0, 0, 0, 1};
        int turned = 0;
        if (spot) {
            /* glTF: 0 <= inner < outer <= pi/2. */
            double outer = v[12] * DEG, inner = v[11] * DEG;
            if (!(outer > 1e-4))
                outer = 1e-4;
            if (outer > 3.14159265358979323846 / 2)
                outer = 3.14159265358979323846 / 2;
            if (!(inner >= 0))
                inner = 0;
            if (inner >= outer)
                inner = outer * 0.999;
            blvl__export_json_obj(j, "spot");
            blvl__export_json_num(j, "innerConeAngle", inner);
            blvl__export_json_num(j, "outerConeAngle", outer);
            blvl__export_json_end(j);
            double dir[3] = {v[3], v[4], v[5]};
            double len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            if (len > 1e-9 && isfinite(len)) {
                dir[0] /= len, dir[1] /= len, dir[2] /= len;
                blvl__export_quat_look(dir, rot);
                turned = 1;
            }
        }
        blvl__export_json_end(j);
        uint32_t li = x->n_lights++;
        x->any_lights = 1;
        char name[40];
        snprintf(name, sizeof name, "light %u", (unsigned)i);
        j = node(x, name, v, turned ? rot : NULL);
        blvl__export_json_obj(j, "extensions");
        blvl__export_json_obj(j, "KHR_lights_punctual");
        blvl__export_json_u64(j, "light", li);
        blvl__export_json_end(j);
        blvl__export_json_end(j);
        extras(j, "light", i);
        blvl__export_json_num(j, "intensity", v[9]);
        if (blvl_PunctualLight_baked_diffuse(l))
            blvl__export_json_bool(j, "baked_diffuse", 1);
        end3(j);
    }
    blvl_bytes_free(&b);
}

static void sim_markers(gltf_export *x) {
    blvl_Sim sim = x->sim;
    char name[96];
    uint32_t n = blvl_Sim_spawns_len(sim);
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++) {
        blvl_Spawn s = blvl_Sim_spawns_at(sim, i);
        blvl_Vec3 p = blvl_Spawn_position(s);
        double v[4] = {p.x, p.y, p.z, blvl_Spawn_yaw(s)};
        if (!vec_ok(x, "sim.spawns", i, v, 4))
            return;
        double q[4];
        blvl__export_quat_ypr(v[3], 0, 0, q);
        blvl_fb_str k = blvl_Spawn_kind(s), t = blvl_Spawn_team(s);
        snprintf(name, sizeof name, "spawn %u: %.*s", (unsigned)i, (int)(k.len > 64 ? 64 : k.len),
                 k.ptr ? k.ptr : "");
        json_text *j = node(x, name, v, q);
        extras(j, "spawn", i);
        blvl__export_json_strn(j, "class", k.ptr ? k.ptr : "", k.len);
        if (t.len)
            blvl__export_json_strn(j, "team", t.ptr, t.len);
        blvl__export_json_num(j, "yaw", v[3]);
        blvl__export_json_u64(j, "gametypes", blvl_Spawn_gametypes(s));
        end3(j);
    }
    n = blvl_Sim_teleport_dests_len(sim);
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++) {
        blvl_TeleportDest s = blvl_Sim_teleport_dests_at(sim, i);
        blvl_Vec3 p = blvl_TeleportDest_position(s);
        double v[4] = {p.x, p.y, p.z, blvl_TeleportDest_yaw(s)};
        if (!vec_ok(x, "sim.teleport_dests", i, v, 4))
            return;
        double q[4];
        blvl__export_quat_ypr(v[3], 0, 0, q);
        blvl_fb_str k = blvl_TeleportDest_name(s);
        snprintf(name, sizeof name, "teleport destination %u: %.*s", (unsigned)i,
                 (int)(k.len > 60 ? 60 : k.len), k.ptr ? k.ptr : "");
        json_text *j = node(x, name, v, q);
        extras(j, "teleport_dest", i);
        blvl__export_json_num(j, "yaw", v[3]);
        end3(j);
    }
    n = blvl_Sim_triggers_len(sim);
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++) {
        blvl_Trigger t = blvl_Sim_triggers_at(sim, i);
        int push = blvl_Trigger_kind(t) == blvl_TriggerKind_Push;
        snprintf(name, sizeof name, "trigger %u: %s", (unsigned)i, push ? "push" : "teleport");
        json_text *j = box_node(x, "trigger", i, name, blvl_Trigger_lo(t), blvl_Trigger_hi(t));
        if (!j)
            return;
        blvl__export_json_str(j, "trigger", push ? "push" : "teleport");
        blvl_Vec3 vel = blvl_Trigger_velocity(t);
        double vv[3] = {vel.x * XP_M, vel.y * XP_M, vel.z * XP_M};
        if (push && blvl__export_finite(vv, 3))
            blvl__export_json_vec(j, "velocity", vv, 3);
        if (blvl_Trigger_teleport_dest(t) != XP_NONE)
            blvl__export_json_u64(j, "teleport_dest", blvl_Trigger_teleport_dest(t));
        blvl__export_json_u64(j, "planes", blvl_Trigger_planes_len(t));
        end3(j);
    }
    n = blvl_Sim_hurt_volumes_len(sim);
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++) {
        blvl_HurtVolume h = blvl_Sim_hurt_volumes_at(sim, i);
        int kill = blvl_HurtVolume_kind(h) == blvl_HurtKind_Kill;
        blvl_fb_str k = blvl_HurtVolume_name(h);
        snprintf(name, sizeof name, "hurt %u: %.*s", (unsigned)i, (int)(k.len > 60 ? 60 : k.len),
                 k.ptr ? k.ptr : "");
        json_text *j =
            box_node(x, "hurt_volume", i, name, blvl_HurtVolume_lo(h), blvl_HurtVolume_hi(h));
        if (!j)
            return;
        blvl__export_json_str(j, "hurt", kill ? "kill" : "damage");
        double a[2] = {blvl_HurtVolume_amount(h), blvl_HurtVolume_interval(h)};
        if (!kill && blvl__export_finite(a, 2)) {
            blvl__export_json_num(j, "amount", a[0]);
            blvl__export_json_num(j, "interval", a[1]);
        }
        blvl__export_json_u64(j, "planes", blvl_HurtVolume_planes_len(h));
        end3(j);
    }
}

static void sites(gltf_export *x) {
    blvl_bytes b = {0};
    blvl_Sites ss = {NULL};
    if (blvl__export_section(x, "sites", &b, &ss.p_) <= 0)
        return;
    static const char *const kinds[] = {"bombsite", "hostage", "capture", "flag", "other"};
    uint32_t n = blvl_Sites_sites_len(ss);
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++) {
        blvl_Site s = blvl_Sites_sites_at(ss, i);
        blvl_fb_str k = blvl_Site_name(s);
        unsigned kind = blvl_Site_kind(s);
        char name[96];
        snprintf(name, sizeof name, "site %u: %.*s", (unsigned)i, (int)(k.len > 60 ? 60 : k.len),
                 k.ptr ? k.ptr : "");
        json_text *j = box_node(x, "site", i, name, blvl_Site_lo(s), blvl_Site_hi(s));
        if (!j)
            break;
        blvl__export_json_str(j, "site", kind < 5 ? kinds[kind] : "unknown");
        if (k.len)
            blvl__export_json_strn(j, "site_name", k.ptr, k.len);
        end3(j);
    }
    blvl_bytes_free(&b);
}

blvl_status blvl__export_nodes(gltf_export *x) {
    if (x->st == BLVL_OK)
        cameras(x);
    if (x->st == BLVL_OK)
        lights(x);
    if (x->st == BLVL_OK)
        sim_markers(x);
    if (x->st == BLVL_OK)
        sites(x);
    blvl__export_check(x);
    return x->st;
}
