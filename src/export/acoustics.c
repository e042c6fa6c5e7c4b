/* The acoustics section as a scene of its own ("acoustics", like "collision": a viewer shows the
 * level and a designer switches to it): the probes as one point cloud coloured by room, and the
 * edges as lines, door edges in their door's colour. glTF has no dashed line, so the narrow edges
 * are a primitive of their own with their own material (docs/EXPORT.md, "Acoustics"). Each pair
 * of probes is drawn once, from the lower probe's edge (the section holds both directions). */
#include <math.h>
#include <string.h>

#include "export/export_internal.h"

#define AC_NO_DOOR 65535u
#define AC_GOLDEN 0.6180339887498949

/* A colour of the palette: hue i * the golden ratio (from `offset`), as linear RGB (glTF's
 * COLOR_0 is linear) from HSV in sRGB. */
static void palette(double offset, uint32_t i, double s, double v, float out[3]) {
    double h = fmod(offset + (double)i * AC_GOLDEN, 1.0) * 6.0;
    int k = (int)h;
    double f = h - k, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
    for (int a = 0; a < 3; a++) {
        double c = rgb[k % 6][a];
        c = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
        out[a] = (float)c;
    }
}

static void room_color(uint32_t room, float out[3]) {
    palette(0.0, room, 0.7, 0.95, out);
}

static void door_color(uint32_t door, float out[3]) {
    palette(0.1, door, 1.0, 1.0, out);
}

/* The grey of an edge through no door. */
static const float AC_GREY[3] = {0.5f, 0.5f, 0.5f};

typedef struct ac_arrays {
    float (*pos)[3], (*col)[3], *room; /* the probes */
    float (*lpos)[3], (*lcol)[3];      /* the lines' ends: open ones first, then the narrow */
    uint32_t np, ne, nr, open, narrow, doors;
} ac_arrays;

static void bounds(const float (*p)[3], size_t n, double lo[3], double hi[3]) {
    for (int a = 0; a < 3; a++)
        lo[a] = INFINITY, hi[a] = -INFINITY;
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            lo[a] = p[i][a] < lo[a] ? p[i][a] : lo[a];
            hi[a] = p[i][a] > hi[a] ? p[i][a] : hi[a];
        }
}

/* The probes' positions (metres), colours and rooms; refuses a non-finite position, a room past
 * the rooms and a first_edge out of order (the edges' owners would be unknown). */
static int probes(gltf_export *x, blvl_Acoustics ac, ac_arrays *a) {
    uint32_t prev = 0;
    for (uint32_t i = 0; i < a->np; i++) {
        blvl_AcousticProbe p = blvl_Acoustics_probes_at(ac, i);
        double v[3] = {p.position.x, p.position.y, p.position.z};
        if (!blvl__export_finite(v, 3)) {
            blvl__export_fail(x, BLVL_E_ARGUMENT, "non-finite: acoustics.probes[%u]", (unsigned)i);
            return 0;
        }
        if (p.room >= a->nr || p.first_edge < prev || p.first_edge > a->ne ||
            (i == 0 && p.first_edge != 0)) {
            blvl__export_fail(x, BLVL_E_ARGUMENT,
                              "index-range: acoustics.probes[%u]: room %u of %u, first_edge %u "
                              "after %u of %u edges",
                              (unsigned)i, (unsigned)p.room, (unsigned)a->nr,
                              (unsigned)p.first_edge, (unsigned)prev, (unsigned)a->ne);
            return 0;
        }
        prev = p.first_edge;
        for (int k = 0; k < 3; k++)
            a->pos[i][k] = (float)(v[k] * XP_M);
        room_color(p.room, a->col[i]);
        a->room[i] = (float)p.room;
    }
    return 1;
}

/* The lines: each edge p -> q with p < q once, open ones from the front of the arrays, narrow
 * ones from the back (then moved up behind the open ones). */
static int lines(gltf_export *x, blvl_Acoustics ac, ac_arrays *a) {
    uint32_t front = 0, back = a->ne; /* line slots: open [0, front), narrow [back, ne) */
    for (uint32_t p = 0; p < a->np; p++) {
        uint32_t s = blvl_Acoustics_probes_at(ac, p).first_edge;
        uint32_t e = p + 1 < a->np ? blvl_Acoustics_probes_at(ac, p + 1).first_edge : a->ne;
        for (uint32_t k = s; k < e; k++) {
            blvl_AcousticEdge ed = blvl_Acoustics_edges_at(ac, k);
            if (ed.to >= a->np) {
                blvl__export_fail(x, BLVL_E_ARGUMENT,
                                  "index-range: acoustics.edges[%u]: to %u of %u probes",
                                  (unsigned)k, (unsigned)ed.to, (unsigned)a->np);
                return 0;
            }
            if (ed.to <= p)
                continue;
            uint32_t slot = ed.narrow ? --back : front++;
            const float *c = AC_GREY;
            float dc[3];
            if (ed.door != AC_NO_DOOR) {
                door_color(ed.door, dc);
                c = dc;
                a->doors++;
            }
            memcpy(a->lpos[2 * slot], a->pos[p], sizeof a->pos[p]);
            memcpy(a->lpos[2 * slot + 1], a->pos[ed.to], sizeof a->pos[p]);
            memcpy(a->lcol[2 * slot], c, sizeof dc);
            memcpy(a->lcol[2 * slot + 1], c, sizeof dc);
        }
    }
    a->open = front;
    a->narrow = a->ne - back;
    memmove(a->lpos + 2 * front, a->lpos + 2 * back, (size_t)a->narrow * 2 * sizeof *a->lpos);
    memmove(a->lcol + 2 * front, a->lcol + 2 * back, (size_t)a->narrow * 2 * sizeof *a->lcol);
    return 1;
}

/* A material for the scene: `rgba` base colour (times COLOR_0), unlit-looking (no metal, rough). */
static uint32_t material(gltf_export *x, const char *name, const double rgba[4]) {
    json_text *j = &x->materials;
    blvl__export_json_item(j);
    blvl__export_json_obj(j, NULL);
    blvl__export_json_str(j, "name", name);
    blvl__export_json_obj(j, "pbrMetallicRoughness");
    blvl__export_json_vec(j, "baseColorFactor", rgba, 4);
    blvl__export_json_num(j, "metallicFactor", 0);
    blvl__export_json_end(j);
    if (rgba[3] < 1)
        blvl__export_json_str(j, "alphaMode", "BLEND");
    blvl__export_json_end(j);
    return x->n_materials++;
}

/* `n` floats of `comp` components into the buffer as one vertex view; XP_NONE when out of
 * memory. */
static uint32_t vertex_view(gltf_export *x, const void *data, size_t n, int comp) {
    size_t off, bytes = n * sizeof(float) * (size_t)comp;
    uint8_t *d = blvl__export_buf_take(&x->bin, bytes, &off);
    if (!d)
        return XP_NONE;
    memcpy(d, data, bytes);
    return blvl__export_view(x, off, bytes, (uint32_t)(sizeof(float) * (size_t)comp), 34962);
}

/* One primitive of `count` vertices from `first` of the views (positions vp, colours vc; rooms
 * vr when not XP_NONE), of glTF `mode`, into the open primitives list. */
static void primitive(gltf_export *x, json_text *mj, uint32_t mode, uint32_t vp, uint32_t vc,
                      uint32_t vr, const float (*pos)[3], uint32_t first, uint32_t count,
                      uint32_t mat, int narrow) {
    double lo[3], hi[3];
    bounds(pos + first, count, lo, hi);
    uint32_t ap =
        blvl__export_accessor(x, vp, (size_t)first * 12, 5126, 0, count, "VEC3", lo, hi, 3);
    uint32_t ac =
        blvl__export_accessor(x, vc, (size_t)first * 12, 5126, 0, count, "VEC3", NULL, NULL, 0);
    blvl__export_json_obj(mj, NULL);
    blvl__export_json_obj(mj, "attributes");
    blvl__export_json_u64(mj, "POSITION", ap);
    blvl__export_json_u64(mj, "COLOR_0", ac);
    if (vr != XP_NONE)
        blvl__export_json_u64(
            mj, "_ROOM", blvl__export_accessor(x, vr, 0, 5126, 0, count, "SCALAR", NULL, NULL, 0));
    blvl__export_json_end(mj);
    blvl__export_json_u64(mj, "mode", mode);
    blvl__export_json_u64(mj, "material", mat);
    if (mode == 1) {
        blvl__export_json_obj(mj, "extras");
        blvl__export_json_obj(mj, "blvl");
        blvl__export_json_bool(mj, "narrow", narrow);
        blvl__export_json_end(mj);
        blvl__export_json_end(mj);
    }
    blvl__export_json_end(mj);
}

/* Opens a mesh named `name` and its primitives list; close it with two json_end. */
static json_text *mesh(gltf_export *x, const char *name) {
    json_text *mj = &x->meshes;
    blvl__export_json_item(mj);
    blvl__export_json_obj(mj, NULL);
    blvl__export_json_str(mj, "name", name);
    blvl__export_json_arr(mj, "primitives");
    return mj;
}

/* A node of the acoustics scene with its mesh; its extras.blvl opened with `kind` (the caller
 * adds fields and closes three objects). */
static json_text *scene_node(gltf_export *x, const char *name, uint32_t m, const char *kind) {
    json_text *nj = &x->nodes;
    blvl__export_json_item(nj);
    blvl__export_json_obj(nj, NULL);
    blvl__export_json_str(nj, "name", name);
    blvl__export_json_u64(nj, "mesh", m);
    blvl__export_json_obj(nj, "extras");
    blvl__export_json_obj(nj, "blvl");
    blvl__export_json_str(nj, "kind", kind);
    blvl__export_scene_node(x, &x->scene2);
    return nj;
}

/* The probes' node: the point cloud, and each room's figures and colour in the extras. */
static void probes_node(gltf_export *x, blvl_Acoustics ac, const ac_arrays *a) {
    uint32_t vp = vertex_view(x, a->pos, a->np, 3), vc = vertex_view(x, a->col, a->np, 3);
    uint32_t vr = vertex_view(x, a->room, a->np, 1);
    if (vp == XP_NONE || vc == XP_NONE || vr == XP_NONE)
        return; /* out of memory: blvl__export_check reports it */
    const double white[4] = {1, 1, 1, 1};
    uint32_t mat = material(x, "blvl acoustic probes", white);
    json_text *mj = mesh(x, "acoustic probes");
    primitive(x, mj, 0, vp, vc, vr, a->pos, 0, a->np, mat, 0);
    blvl__export_json_end(mj);
    blvl__export_json_end(mj);
    json_text *nj = scene_node(x, "acoustic probes", x->n_meshes++, "acoustic-probes");
    blvl__export_json_u64(nj, "probes", a->np);
    blvl__export_json_arr(nj, "rooms");
    for (uint32_t r = 0; r < a->nr; r++) {
        blvl_AcousticRoom room = blvl_Acoustics_rooms_at(ac, r);
        float c[3];
        room_color(r, c);
        double cd[3] = {c[0], c[1], c[2]};
        blvl__export_json_obj(nj, NULL);
        blvl__export_json_u64(nj, "index", r);
        blvl__export_json_num(nj, "rt60_s", blvl_AcousticRoom_rt60_s(room));
        blvl__export_json_num(nj, "damping", blvl_AcousticRoom_damping(room));
        blvl__export_json_bool(nj, "outdoor", blvl_AcousticRoom_outdoor(room));
        blvl__export_json_vec(nj, "color", cd, 3);
        blvl__export_json_end(nj);
    }
    blvl__export_json_end(nj);
    blvl__export_json_end(nj);
    blvl__export_json_end(nj);
    blvl__export_json_end(nj);
}

/* The edges' node: a primitive of the open lines and one of the narrow ones (either left out
 * when it has none); none at all when there are no lines. */
static void edges_node(gltf_export *x, const ac_arrays *a) {
    uint32_t n = a->open + a->narrow;
    if (!n)
        return;
    uint32_t vp = vertex_view(x, a->lpos, (size_t)n * 2, 3);
    uint32_t vc = vertex_view(x, a->lcol, (size_t)n * 2, 3);
    if (vp == XP_NONE || vc == XP_NONE)
        return;
    const double open_c[4] = {1, 1, 1, 1}, narrow_c[4] = {1, 1, 1, 0.5};
    uint32_t mo = a->open ? material(x, "blvl acoustic edges", open_c) : XP_NONE;
    uint32_t mn = a->narrow ? material(x, "blvl acoustic narrow edges", narrow_c) : XP_NONE;
    json_text *mj = mesh(x, "acoustic edges");
    if (a->open)
        primitive(x, mj, 1, vp, vc, XP_NONE, a->lpos, 0, a->open * 2, mo, 0);
    if (a->narrow)
        primitive(x, mj, 1, vp, vc, XP_NONE, a->lpos, a->open * 2, a->narrow * 2, mn, 1);
    blvl__export_json_end(mj);
    blvl__export_json_end(mj);
    json_text *nj = scene_node(x, "acoustic edges", x->n_meshes++, "acoustic-edges");
    blvl__export_json_u64(nj, "edges", a->ne);
    blvl__export_json_u64(nj, "lines", n);
    blvl__export_json_u64(nj, "narrow", a->narrow);
    blvl__export_json_u64(nj, "door", a->doors);
    blvl__export_json_end(nj);
    blvl__export_json_end(nj);
    blvl__export_json_end(nj);
}

/* The phases: read the section (absent or without probes: no scene), the probes, the lines, the
 * nodes. The scratch is freed on every path; a failure is in x->st. */
blvl_status blvl__export_acoustics(gltf_export *x) {
    if (!x->xo->acoustics || x->st != BLVL_OK)
        return x->st;
    blvl_bytes b = {0};
    blvl_Acoustics ac;
    if (blvl__export_section(x, "acoustics", &b, &ac.p_) <= 0)
        return x->st;
    ac_arrays a;
    memset(&a, 0, sizeof a);
    a.np = blvl_Acoustics_probes_len(ac);
    a.ne = blvl_Acoustics_edges_len(ac);
    a.nr = blvl_Acoustics_rooms_len(ac);
    if (!a.np)
        goto done;
    for (uint32_t r = 0; r < a.nr; r++) {
        blvl_AcousticRoom room = blvl_Acoustics_rooms_at(ac, r);
        double v[2] = {blvl_AcousticRoom_rt60_s(room), blvl_AcousticRoom_damping(room)};
        if (!blvl__export_finite(v, 2)) {
            blvl__export_fail(x, BLVL_E_ARGUMENT, "non-finite: acoustics.rooms[%u]", (unsigned)r);
            goto done;
        }
    }
    a.pos = blvl__calloc_n(x->al, a.np, sizeof *a.pos);
    a.col = blvl__calloc_n(x->al, a.np, sizeof *a.col);
    a.room = blvl__calloc_n(x->al, a.np, sizeof *a.room);
    a.lpos = blvl__calloc_n(x->al, (size_t)a.ne * 2 + 2, sizeof *a.lpos);
    a.lcol = blvl__calloc_n(x->al, (size_t)a.ne * 2 + 2, sizeof *a.lcol);
    if (!a.pos || !a.col || !a.room || !a.lpos || !a.lcol) {
        blvl__export_fail(x, BLVL_E_NOMEM, "the acoustic probes and edges");
        goto done;
    }
    if (!probes(x, ac, &a) || !lines(x, ac, &a))
        goto done;
    probes_node(x, ac, &a);
    edges_node(x, &a);
    x->any_acoustics = 1;
    blvl__export_check(x);
done:
    if (a.pos)
        blvl__dealloc(x->al, a.pos, (size_t)a.np * sizeof *a.pos);
    if (a.col)
        blvl__dealloc(x->al, a.col, (size_t)a.np * sizeof *a.col);
    if (a.room)
        blvl__dealloc(x->al, a.room, (size_t)a.np * sizeof *a.room);
    if (a.lpos)
        blvl__dealloc(x->al, a.lpos, ((size_t)a.ne * 2 + 2) * sizeof *a.lpos);
    if (a.lcol)
        blvl__dealloc(x->al, a.lcol, ((size_t)a.ne * 2 + 2) * sizeof *a.lcol);
    blvl_bytes_free(&b);
    return x->st;
}
