/* The colliders as a scene of their own ("collision", not the default scene, so a viewer shows
 * the level and a designer switches to the hull): one node and one mesh per collider. A Planes
 * collider's faces are each plane's polygon, a large square on the plane clipped by every other
 * plane (bevel planes clip to nothing and drop out); a Hull collider's faces are its loops,
 * turned to face away from the hull's centre. Faces are fanned into triangles with flat normals. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export/export_internal.h"
#include "geom/geom.h"

/* A collider with more planes is refused: clipping is quadratic in them. */
#define XP_MAX_PLANES 1024
#define XP_MAX_HULL 65536

typedef struct col_rec {
    size_t first, count; /* vertices (3 per triangle) in the collision arrays */
    double lo[3], hi[3];
} col_rec;

typedef struct col_out {
    const blvl_allocator *al;
    geom_vec pos, nrm; /* float[3] each */
} col_out;

/* The polygon pts[0..n) (qu) fanned into triangles facing n. */
static int emit(col_out *o, double (*pts)[3], int n, const double nrm[3], col_rec *r) {
    float fn[3] = {(float)nrm[0], (float)nrm[1], (float)nrm[2]};
    for (int t = 1; t + 1 < n; t++) {
        const int c[3] = {0, t, t + 1};
        for (int k = 0; k < 3; k++) {
            float p[3];
            for (int a = 0; a < 3; a++) {
                p[a] = (float)(pts[c[k]][a] * XP_M);
                if (p[a] < r->lo[a])
                    r->lo[a] = p[a];
                if (p[a] > r->hi[a])
                    r->hi[a] = p[a];
            }
            if (!blvl__geom_vec_push(o->al, &o->pos, p) || !blvl__geom_vec_push(o->al, &o->nrm, fn))
                return 0;
            r->count++;
        }
    }
    return 1;
}

/* Newell's normal of a loop (unnormalised). */
static void newell(double (*p)[3], int n, double out[3]) {
    out[0] = out[1] = out[2] = 0;
    for (int i = 0; i < n; i++) {
        const double *a = p[i], *b = p[(i + 1) % n];
        out[0] += (a[1] - b[1]) * (a[2] + b[2]);
        out[1] += (a[2] - b[2]) * (a[0] + b[0]);
        out[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
}

static int planes_shape(gltf_export *x, col_out *o, blvl_Planes ps, uint32_t ci, col_rec *r,
                        double (*buf)[3]) {
    uint32_t np = blvl_Planes_planes_len(ps);
    if (np > XP_MAX_PLANES) {
        blvl__export_fail(x, BLVL_E_ARGUMENT,
                          "too-large: sim.colliders[%u]: %u planes, at most %u drawn", (unsigned)ci,
                          (unsigned)np, XP_MAX_PLANES);
        return 0;
    }
    blvl_Plane pl[64];
    double(*pts)[3] = buf, (*tmp)[3] = buf + (XP_MAX_PLANES + 8);
    const int cap = XP_MAX_PLANES + 8;
    /* The planes, unit and finite, into a local array (the buffer's vector is unaligned). */
    double(*pn)[4] = (double(*)[4])(buf + 2 * (XP_MAX_PLANES + 8));
    uint32_t m = 0;
    for (uint32_t first = 0; first < np; first += 64) {
        size_t got = blvl_Planes_planes_copy(ps, first, pl, 64);
        for (size_t k = 0; k < got; k++) {
            double v[4] = {pl[k].normal.x, pl[k].normal.y, pl[k].normal.z, pl[k].dist};
            double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if (!blvl__export_finite(v, 4) || !(l > 1e-6) || fabs(v[3]) > 1e7)
                continue;
            pn[m][0] = v[0] / l, pn[m][1] = v[1] / l, pn[m][2] = v[2] / l, pn[m][3] = v[3] / l;
            m++;
        }
    }
    for (uint32_t i = 0; i < m; i++) {
        double sq[4][3];
        blvl__geom_base_square(pn[i], pn[i][3], 262144.0, sq);
        memcpy(pts, sq, sizeof sq);
        int n = 4;
        for (uint32_t k = 0; k < m && n >= 3; k++)
            if (k != i)
                n = blvl__geom_clip(pts, n, tmp, cap, pn[k], pn[k][3], 1e-3);
        if (n < 3)
            continue;
        double nn[3];
        newell(pts, n, nn);
        double area = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
        /* A corner out at the starting square: the solid is open on that side. */
        int open = 0;
        for (int k = 0; k < n; k++)
            for (int a = 0; a < 3; a++)
                open |= fabs(pts[k][a]) > 200000.0;
        if (area < 1e-6 || open)
            continue;
        if (!emit(o, pts, n, pn[i], r))
            return -1;
    }
    return 1;
}

static int hull_shape(gltf_export *x, col_out *o, blvl_Hull h, uint32_t ci, col_rec *r,
                      double (*buf)[3]) {
    uint32_t nv = blvl_Hull_vertices_len(h), nf = blvl_Hull_face_sizes_len(h),
             ni = blvl_Hull_face_indices_len(h);
    if (nv > XP_MAX_HULL || ni > XP_MAX_HULL) {
        blvl__export_fail(x, BLVL_E_ARGUMENT,
                          "too-large: sim.colliders[%u]: hull of %u vertices, %u corners",
                          (unsigned)ci, (unsigned)nv, (unsigned)ni);
        return 0;
    }
    double c[3] = {0, 0, 0};
    for (uint32_t i = 0; i < nv; i++) {
        blvl_Vec3 v = blvl_Hull_vertices_at(h, i);
        double d[3] = {v.x, v.y, v.z};
        if (!blvl__export_finite(d, 3)) {
            blvl__export_fail(x, BLVL_E_ARGUMENT, "non-finite: sim.colliders[%u]: hull vertex %u",
                              (unsigned)ci, (unsigned)i);
            return 0;
        }
        c[0] += d[0] / nv, c[1] += d[1] / nv, c[2] += d[2] / nv;
    }
    uint64_t at = 0;
    for (uint32_t f = 0; f < nf; f++) {
        uint32_t sz = blvl_Hull_face_sizes_at(h, f);
        if (sz < 3 || at + sz > ni || sz > XP_MAX_PLANES) {
            blvl__export_fail(
                x, BLVL_E_ARGUMENT,
                "index-range: sim.colliders[%u]: hull face %u of %u corners at %llu of %u",
                (unsigned)ci, (unsigned)f, (unsigned)sz, (unsigned long long)at, (unsigned)ni);
            return 0;
        }
        double cen[3] = {0, 0, 0};
        for (uint32_t k = 0; k < sz; k++) {
            uint32_t vi = blvl_Hull_face_indices_at(h, (uint32_t)at + k);
            if (vi >= nv) {
                blvl__export_fail(
                    x, BLVL_E_ARGUMENT,
                    "index-range: sim.colliders[%u]: hull corner %llu: vertex %u of %u",
                    (unsigned)ci, (unsigned long long)(at + k), (unsigned)vi, (unsigned)nv);
                return 0;
            }
            blvl_Vec3 v = blvl_Hull_vertices_at(h, vi);
            buf[k][0] = v.x, buf[k][1] = v.y, buf[k][2] = v.z;
            for (int a = 0; a < 3; a++)
                cen[a] += buf[k][a] / sz;
        }
        at += sz;
        double nn[3];
        newell(buf, (int)sz, nn);
        double l = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
        if (!(l > 1e-9))
            continue;
        for (int a = 0; a < 3; a++)
            nn[a] /= l;
        if (nn[0] * (cen[0] - c[0]) + nn[1] * (cen[1] - c[1]) + nn[2] * (cen[2] - c[2]) < 0) {
            for (uint32_t k = 0; k < sz / 2; k++) { /* reverse the loop */
                double t[3];
                memcpy(t, buf[k], sizeof t);
                memcpy(buf[k], buf[sz - 1 - k], sizeof t);
                memcpy(buf[sz - 1 - k], t, sizeof t);
            }
            nn[0] = -nn[0], nn[1] = -nn[1], nn[2] = -nn[2];
        }
        if (!emit(o, buf, (int)sz, nn, r))
            return -1;
    }
    return 1;
}

static const char *const flag_names[8] = {"ladder", "surface-bit1",  "surface-bit2",
                                          "sky",    "clip",          "shot-through",
                                          "water",  "player-through"};

/* Each collider's faces fanned into the collision arrays, its run and bounds in rec[i]; stops at
 * the first refusal (x->st). */
static void collect_triangles(gltf_export *x, col_out *o, col_rec *rec, double (*buf)[3]) {
    blvl_Sim sim = x->sim;
    uint32_t n = blvl_Sim_colliders_len(sim);
    for (uint32_t i = 0; i < n && x->st == BLVL_OK; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(sim, i);
        col_rec *r = &rec[i];
        r->first = o->pos.len;
        for (int a = 0; a < 3; a++)
            r->lo[a] = INFINITY, r->hi[a] = -INFINITY;
        int ok = 1;
        if (blvl_Collider_shape_type(c) == blvl_Shape_Planes)
            ok = planes_shape(x, o, blvl_Collider_shape_as_Planes(c), i, r, buf);
        else if (blvl_Collider_shape_type(c) == blvl_Shape_Hull)
            ok = hull_shape(x, o, blvl_Collider_shape_as_Hull(c), i, r, buf);
        if (ok < 0)
            blvl__export_fail(x, BLVL_E_NOMEM, "a collider's mesh");
    }
}

/* The collision material: translucent, both sides. Returns its index. */
static uint32_t collision_material(gltf_export *x) {
    uint32_t mat = x->n_materials++;
    json_text *j = &x->materials;
    blvl__export_json_item(j);
    blvl__export_json_obj(j, NULL);
    blvl__export_json_str(j, "name", "blvl collision");
    blvl__export_json_obj(j, "pbrMetallicRoughness");
    const double col[4] = {1.0, 0.35, 0.1, 0.4};
    blvl__export_json_vec(j, "baseColorFactor", col, 4);
    blvl__export_json_num(j, "metallicFactor", 0);
    blvl__export_json_end(j);
    blvl__export_json_str(j, "alphaMode", "BLEND");
    blvl__export_json_bool(j, "doubleSided", 1);
    blvl__export_json_end(j);
    return mat;
}

/* The positions, then the normals, into the buffer, a view each (*vp, *vn; XP_NONE when there are
 * no triangles). 0 when the buffer cannot grow. */
static int collision_views(gltf_export *x, const col_out *o, uint32_t *vp, uint32_t *vn) {
    *vp = *vn = XP_NONE;
    if (!o->pos.len)
        return 1;
    size_t bytes = o->pos.len * sizeof(float) * 3, off;
    uint8_t *d = blvl__export_buf_take(&x->bin, bytes * 2, &off);
    if (!d)
        return 0;
    memcpy(d, o->pos.data, bytes);
    memcpy(d + bytes, o->nrm.data, bytes);
    *vp = blvl__export_view(x, off, bytes, 12, 34962);
    *vn = blvl__export_view(x, off + bytes, bytes, 12, 34962);
    return 1;
}

/* Collider i's mesh (its run of the views, the collision material); XP_NONE when it has no
 * triangles. */
static uint32_t collider_mesh(gltf_export *x, const col_rec *r, const char *name, uint32_t vp,
                              uint32_t vn, uint32_t mat) {
    if (!r->count)
        return XP_NONE;
    uint32_t ap = blvl__export_accessor(x, vp, r->first * 12, 5126, 0, (uint32_t)r->count, "VEC3",
                                        r->lo, r->hi, 3);
    uint32_t an = blvl__export_accessor(x, vn, r->first * 12, 5126, 0, (uint32_t)r->count, "VEC3",
                                        NULL, NULL, 0);
    json_text *mj = &x->meshes;
    blvl__export_json_item(mj);
    blvl__export_json_obj(mj, NULL);
    blvl__export_json_str(mj, "name", name);
    blvl__export_json_arr(mj, "primitives");
    blvl__export_json_obj(mj, NULL);
    blvl__export_json_obj(mj, "attributes");
    blvl__export_json_u64(mj, "POSITION", ap);
    blvl__export_json_u64(mj, "NORMAL", an);
    blvl__export_json_end(mj);
    blvl__export_json_u64(mj, "material", mat);
    blvl__export_json_end(mj);
    blvl__export_json_end(mj);
    blvl__export_json_end(mj);
    return x->n_meshes++;
}

/* Collider i's node in the collision scene: its mesh, and in extras.blvl its flags, material,
 * door, breakable, match types and source. */
static void collider_node(gltf_export *x, uint32_t i, const char *name, uint32_t mesh) {
    blvl_Sim sim = x->sim;
    blvl_Collider c = blvl_Sim_colliders_at(sim, i);
    json_text *nj = &x->nodes;
    blvl__export_json_item(nj);
    blvl__export_json_obj(nj, NULL);
    blvl__export_json_str(nj, "name", name);
    if (mesh != XP_NONE)
        blvl__export_json_u64(nj, "mesh", mesh);
    blvl__export_json_obj(nj, "extras");
    blvl__export_json_obj(nj, "blvl");
    blvl__export_json_str(nj, "kind", "collider");
    blvl__export_json_u64(nj, "index", i);
    uint32_t fl = blvl_Collider_flags(c);
    blvl__export_json_u64(nj, "flags", fl);
    blvl__export_json_arr(nj, "flag_names");
    for (int b = 0; b < 8; b++)
        if (fl & (1u << b))
            blvl__export_json_str(nj, NULL, flag_names[b]);
    blvl__export_json_end(nj);
    uint32_t v;
    if ((v = blvl_Collider_material(c)) != XP_NONE)
        blvl__export_json_u64(nj, "material", v);
    if ((v = blvl_Collider_door(c)) != XP_NONE)
        blvl__export_json_u64(nj, "door", v);
    if ((v = blvl_Collider_breakable(c)) != XP_NONE)
        blvl__export_json_u64(nj, "breakable", v);
    if ((v = blvl_Collider_gametypes(c)) != XP_NONE)
        blvl__export_json_u64(nj, "gametypes", v);
    if ((v = blvl_Collider_source(c)) != XP_NONE && v < blvl_Sim_collider_sources_len(sim)) {
        blvl_ColliderSource s = blvl_Sim_collider_sources_at(sim, v);
        static const char *const kinds[] = {"world", "entity", "patch", "mesh", "prop", "physics"};
        unsigned k = blvl_ColliderSource_kind(s);
        blvl__export_json_obj(nj, "source");
        blvl__export_json_u64(nj, "index", v);
        blvl__export_json_str(nj, "kind", k < 6 ? kinds[k] : "unknown");
        blvl_fb_str sn = blvl_ColliderSource_name(s);
        if (sn.len)
            blvl__export_json_strn(nj, "name", sn.ptr, sn.len);
        if (blvl_ColliderSource_entity(s) != XP_NONE)
            blvl__export_json_u64(nj, "entity", blvl_ColliderSource_entity(s));
        blvl__export_json_end(nj);
    }
    blvl__export_collider_source(x, nj, i);
    blvl__export_json_end(nj);
    blvl__export_json_end(nj);
    blvl__export_json_end(nj);
    blvl__export_scene_node(x, &x->scene1);
}

/* The phases: every collider's triangles, the collision material, the buffer's views, then each
 * collider's mesh and node. The scratch is freed on every path; a failure is in x->st. */
blvl_status blvl__export_collision(gltf_export *x) {
    if (!x->xo->collision || x->st != BLVL_OK)
        return x->st;
    uint32_t n = blvl_Sim_colliders_len(x->sim);
    if (!n)
        return x->st;
    col_out o = {x->al, {0}, {0}};
    blvl__geom_vec_init(&o.pos, sizeof(float) * 3);
    blvl__geom_vec_init(&o.nrm, sizeof(float) * 3);
    col_rec *rec = blvl__calloc_n(x->al, n, sizeof *rec);
    size_t bufn = 3 * (XP_MAX_PLANES + 8) + 2 * XP_MAX_PLANES;
    double(*buf)[3] = blvl__calloc_n(x->al, bufn, sizeof *buf);
    if (!rec || !buf) {
        blvl__export_fail(x, BLVL_E_NOMEM, "the colliders' records");
        goto done;
    }
    collect_triangles(x, &o, rec, buf);
    if (x->st != BLVL_OK)
        goto done;
    uint32_t mat = collision_material(x);
    uint32_t vp, vn;
    if (!collision_views(x, &o, &vp, &vn)) {
        blvl__export_check(x);
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        char name[40];
        snprintf(name, sizeof name, "collider %u", (unsigned)i);
        collider_node(x, i, name, collider_mesh(x, &rec[i], name, vp, vn, mat));
    }
    x->any_collision = 1;
    blvl__export_check(x);
done:
    blvl__geom_vec_free(x->al, &o.pos);
    blvl__geom_vec_free(x->al, &o.nrm);
    if (rec)
        blvl__dealloc(x->al, rec, (size_t)n * sizeof *rec);
    if (buf)
        blvl__dealloc(x->al, buf, bufn * sizeof *buf);
    return x->st;
}
