/* The collider path of the bake (the glue over src/bake/shapes.h) against hand-worked solids:
 * a box brush stays six axial planes (a plane that bounds no face is dropped); a wedge gains the
 * axial planes it lacks and keeps its slanted face, every corner inside every plane; an
 * unbounded brush, a flat point set and a degenerate triangle add nothing; a hull's faces are
 * planar loops wound outward; a triangle becomes a hull `thickness` deep behind its face; the
 * collider's fields reach sim and the .bsym; and blvl-trace, reading the baked level, stops a
 * player box dropped onto a floor brush on top of it. */
#include <math.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "blvl/trace.h"
#include "check.h"

#define NONE BLVL_BAKE_NONE

static blvl_Plane pl(float x, float y, float z, float d) {
    float l = sqrtf(x * x + y * y + z * z);
    return (blvl_Plane){{x / l, y / l, z / l}, d / l};
}

static int has_plane(blvl_Planes p, float x, float y, float z, float d) {
    for (uint32_t i = 0; i < blvl_Planes_planes_len(p); i++) {
        blvl_Plane q = blvl_Planes_planes_at(p, i);
        if (fabsf(q.normal.x - x) < 1e-5f && fabsf(q.normal.y - y) < 1e-5f &&
            fabsf(q.normal.z - z) < 1e-5f && fabsf(q.dist - d) < 1e-3f)
            return 1;
    }
    return 0;
}

static int inside(blvl_Planes p, float x, float y, float z, float eps) {
    for (uint32_t i = 0; i < blvl_Planes_planes_len(p); i++) {
        blvl_Plane q = blvl_Planes_planes_at(p, i);
        if (q.normal.x * x + q.normal.y * y + q.normal.z * z - q.dist > eps)
            return 0;
    }
    return 1;
}

/* Every face a planar loop whose Newell normal points away from every other vertex. */
static void check_hull(blvl_Hull h) {
    uint32_t nv = blvl_Hull_vertices_len(h), nf = blvl_Hull_face_sizes_len(h), at = 0;
    uint32_t total = 0;
    for (uint32_t f = 0; f < nf; f++)
        total += blvl_Hull_face_sizes_at(h, f);
    CHECK_EQ_INT(total, blvl_Hull_face_indices_len(h));
    if (total != blvl_Hull_face_indices_len(h))
        return;
    for (uint32_t f = 0; f < nf; f++) {
        uint32_t k = blvl_Hull_face_sizes_at(h, f);
        CHECK(k >= 3);
        double n[3] = {0, 0, 0}, c[3] = {0, 0, 0};
        for (uint32_t i = 0; i < k; i++) {
            uint32_t a = blvl_Hull_face_indices_at(h, at + i);
            uint32_t b = blvl_Hull_face_indices_at(h, at + (i + 1) % k);
            CHECK(a < nv && b < nv);
            blvl_Vec3 p = blvl_Hull_vertices_at(h, a), q = blvl_Hull_vertices_at(h, b);
            n[0] += ((double)p.y - q.y) * ((double)p.z + q.z);
            n[1] += ((double)p.z - q.z) * ((double)p.x + q.x);
            n[2] += ((double)p.x - q.x) * ((double)p.y + q.y);
            c[0] += p.x / (double)k, c[1] += p.y / (double)k, c[2] += p.z / (double)k;
        }
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        CHECK(l > 0);
        for (uint32_t v = 0; l > 0 && v < nv; v++) {
            blvl_Vec3 p = blvl_Hull_vertices_at(h, v);
            double s = (n[0] * (p.x - c[0]) + n[1] * (p.y - c[1]) + n[2] * (p.z - c[2])) / l;
            CHECK(s <= 1.0 / 64);
        }
        at += k;
    }
}

int main(void) {
    blvl_error err;
    blvl_bake *b;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    blvl_bake_material m;
    blvl_bake_material_init(&m);
    m.name = "water";
    uint32_t mat, door, sym, idx;
    CHECK(blvl_bake_add_material(b, &m, &mat, &err) == BLVL_OK);
    blvl_bake_door d;
    blvl_bake_door_init(&d);
    CHECK(blvl_bake_add_door(b, &d, &door, &err) == BLVL_OK);
    blvl_bake_source so = {blvl_SourceKind_Brush, 5, 0, 1, NONE, NONE};
    CHECK(blvl_bake_add_source(b, &so, &sym, &err) == BLVL_OK);
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);

    /* 0: the floor, a box brush, plus a plane that bounds no face. */
    blvl_Plane floor[7] = {pl(1, 0, 0, 512), pl(-1, 0, 0, 512), pl(0, 1, 0, 0),   pl(0, -1, 0, 16),
                           pl(0, 0, 1, 512), pl(0, 0, -1, 512), pl(1, 0, 0, 4096)};
    CHECK(blvl_bake_add_brush(b, &c, floor, 7, &idx, &err) == BLVL_OK);
    CHECK_EQ_INT(idx, 0);
    /* 1: the wedge x + y <= 64, x, y, z >= 0, z <= 64, with fields to pass through. */
    blvl_Plane wedge[5] = {pl(1, 1, 0, 64), pl(-1, 0, 0, 0), pl(0, -1, 0, 0), pl(0, 0, -1, 0),
                           pl(0, 0, 1, 64)};
    c.flags = 64;
    c.material = mat;
    c.door = door;
    c.gametypes = 5;
    c.symbol = sym;
    c.source_kind = blvl_ColliderSourceKind_Entity;
    c.source_name = "func_water";
    CHECK(blvl_bake_add_brush(b, &c, wedge, 5, &idx, &err) == BLVL_OK);
    CHECK_EQ_INT(idx, 1);
    blvl_bake_collider_init(&c);
    /* Unbounded: nothing added. */
    CHECK(blvl_bake_add_brush(b, &c, wedge, 3, &idx, &err) == BLVL_OK);
    CHECK_EQ_INT(idx, NONE);
    /* Empty (two opposite half-spaces that do not meet). */
    blvl_Plane none[6] = {pl(1, 0, 0, -10), pl(-1, 0, 0, -10), pl(0, 1, 0, 1),
                          pl(0, -1, 0, 1),  pl(0, 0, 1, 1),    pl(0, 0, -1, 1)};
    CHECK(blvl_bake_add_brush(b, &c, none, 6, &idx, &err) == BLVL_OK);
    CHECK_EQ_INT(idx, NONE);
    /* Non-finite input is refused. */
    blvl_Plane nan[1] = {{{NAN, 0, 0}, 0}};
    CHECK(blvl_bake_add_brush(b, &c, nan, 1, &idx, &err) == BLVL_E_ARGUMENT);
    /* 2: a hull of a cube's corners and an interior point. */
    blvl_Vec3 pts[9];
    for (int i = 0; i < 8; i++)
        pts[i] = (blvl_Vec3){i & 1 ? 100.0f : 68.0f, i & 2 ? 32.0f : 0.0f, i & 4 ? 32.0f : 0.0f};
    pts[8] = (blvl_Vec3){80, 10, 10};
    CHECK(blvl_bake_add_hull(b, &c, pts, 9, &idx, &err) == BLVL_OK);
    CHECK_EQ_INT(idx, 2);
    /* A flat point set: nothing. */
    blvl_Vec3 flat[4] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}};
    CHECK(blvl_bake_add_hull(b, &c, flat, 4, &idx, &err) == BLVL_OK);
    CHECK_EQ_INT(idx, NONE);
    /* 3: a triangle facing +Y (counter-clockwise seen from above), 4 qu thick. */
    blvl_Vec3 tri[3] = {{200, 0, 0}, {216, 0, -16}, {200, 0, -16}};
    CHECK(blvl_bake_add_triangle(b, &c, tri, 4, &idx, &err) == BLVL_OK);
    CHECK_EQ_INT(idx, 3);
    blvl_Vec3 line[3] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
    CHECK(blvl_bake_add_triangle(b, &c, line, 4, &idx, &err) == BLVL_OK);
    CHECK_EQ_INT(idx, NONE);
    /* 4: a box. */
    CHECK(blvl_bake_add_box(b, &c, (blvl_Vec3){300, 0, 0}, (blvl_Vec3){332, 32, 32}, &idx, &err) ==
          BLVL_OK);
    CHECK_EQ_INT(idx, 4);

    void *lv = NULL, *sy = NULL;
    size_t ls = 0, ss = 0;
    blvl_bake_stats st;
    CHECK(blvl_bake_write_memory(b, &lv, &ls, &sy, &ss, &st, &err) == BLVL_OK);
    CHECK_EQ_INT(st.colliders, 5);
    blvl_level *level = NULL;
    CHECK(blvl_open_memory(&level, lv, ls, NULL, &err) == BLVL_OK);
    CHECK(blvl_sections_verify(level, &err) == BLVL_OK);
    blvl_bytes by = {0};
    blvl_Sim sim = {0};
    CHECK(blvl_level_sim(level, &by, &sim, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Sim_colliders_len(sim), 5);

    blvl_Collider c0 = blvl_Sim_colliders_at(sim, 0);
    CHECK_EQ_INT(blvl_Collider_shape_type(c0), blvl_Shape_Planes);
    blvl_Planes p0 = blvl_Collider_shape_as_Planes(c0);
    CHECK_EQ_INT(blvl_Planes_planes_len(p0), 6);
    CHECK(has_plane(p0, 0, 1, 0, 0) && has_plane(p0, 0, -1, 0, 16));
    CHECK(!has_plane(p0, 1, 0, 0, 4096));
    blvl_Vec3 lo = blvl_Collider_lo(c0), hi = blvl_Collider_hi(c0);
    CHECK(lo.x == -512 && lo.y == -16 && lo.z == -512 && hi.x == 512 && hi.y == 0 && hi.z == 512);

    blvl_Collider c1 = blvl_Sim_colliders_at(sim, 1);
    CHECK_EQ_INT(blvl_Collider_shape_type(c1), blvl_Shape_Planes);
    blvl_Planes p1 = blvl_Collider_shape_as_Planes(c1);
    float r = sqrtf(0.5f);
    CHECK(has_plane(p1, r, r, 0, 64 * r));
    CHECK(has_plane(p1, 1, 0, 0, 64) && has_plane(p1, -1, 0, 0, 0)); /* +X added */
    CHECK(has_plane(p1, 0, 1, 0, 64) && has_plane(p1, 0, -1, 0, 0)); /* +Y added */
    CHECK(has_plane(p1, 0, 0, 1, 64) && has_plane(p1, 0, 0, -1, 0));
    for (uint32_t i = 0; i < blvl_Planes_planes_len(p1); i++) {
        blvl_Vec3 n = blvl_Planes_planes_at(p1, i).normal;
        CHECK(fabsf(n.x * n.x + n.y * n.y + n.z * n.z - 1) < 1e-5f);
    }
    const float corners[6][3] = {{0, 0, 0},  {64, 0, 0},  {0, 64, 0},
                                 {0, 0, 64}, {64, 0, 64}, {0, 64, 64}};
    for (int i = 0; i < 6; i++)
        CHECK(inside(p1, corners[i][0], corners[i][1], corners[i][2], 1e-3f));
    CHECK(!inside(p1, 40, 40, 32, 0)); /* inside the box, past the slanted face */
    CHECK(inside(p1, 20, 20, 32, 0));
    CHECK_EQ_INT(blvl_Collider_flags(c1), 64);
    CHECK_EQ_INT(blvl_Collider_material(c1), mat);
    CHECK_EQ_INT(blvl_Collider_door(c1), door);
    CHECK_EQ_INT(blvl_Collider_gametypes(c1), 5);
    blvl_ColliderSource cs = blvl_Sim_collider_sources_at(sim, blvl_Collider_source(c1));
    CHECK(blvl_ColliderSource_kind(cs) == blvl_ColliderSourceKind_Entity);

    blvl_Collider c2 = blvl_Sim_colliders_at(sim, 2);
    CHECK_EQ_INT(blvl_Collider_shape_type(c2), blvl_Shape_Hull);
    blvl_Hull h2 = blvl_Collider_shape_as_Hull(c2);
    CHECK_EQ_INT(blvl_Hull_vertices_len(h2), 8);
    check_hull(h2);
    lo = blvl_Collider_lo(c2), hi = blvl_Collider_hi(c2);
    CHECK(lo.x == 68 && lo.y == 0 && lo.z == 0 && hi.x == 100 && hi.y == 32 && hi.z == 32);

    blvl_Collider c3 = blvl_Sim_colliders_at(sim, 3);
    CHECK_EQ_INT(blvl_Collider_shape_type(c3), blvl_Shape_Hull);
    blvl_Hull h3 = blvl_Collider_shape_as_Hull(c3);
    CHECK_EQ_INT(blvl_Hull_vertices_len(h3), 6);
    check_hull(h3);
    lo = blvl_Collider_lo(c3), hi = blvl_Collider_hi(c3);
    CHECK(fabsf(lo.y + 4) < 1e-4f && hi.y == 0 && lo.x == 200 && hi.x == 216);

    blvl_Collider c4 = blvl_Sim_colliders_at(sim, 4);
    CHECK_EQ_INT(blvl_Planes_planes_len(blvl_Collider_shape_as_Planes(c4)), 6);

    blvl_Symbols s = blvl_Symbols_root(sy);
    CHECK(blvl_Symbols_verify(sy, ss, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Symbols_colliders_len(s), 5);
    CHECK_EQ_INT(blvl_Symbols_colliders_at(s, 0), NONE);
    CHECK_EQ_INT(blvl_Symbols_colliders_at(s, 1), sym);

    /* blvl-trace reads the level: a player box dropped onto the floor stops on it. */
    blvl_trace_world *w = NULL;
    CHECK(blvl_trace_world_from_level(&w, level, NULL, &err) == BLVL_OK);
    if (w) {
        blvl_trace_result tr;
        const float start[3] = {-200, 100, -200}, end[3] = {-200, -100, -200};
        const float mins[3] = {-16, -24, -16}, maxs[3] = {16, 32, 16};
        blvl_trace_box(w, NULL, start, end, mins, maxs, &tr);
        CHECK(tr.fraction < 1 && tr.collider == 0);
        CHECK(fabsf(tr.endpos[1] - 24) < 0.1f);
        CHECK(!tr.startsolid);
        blvl_trace_world_free(w);
    }
    blvl_bytes_free(&by);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_free(NULL, sy);
    blvl_bake_free(b);
    return check_report("test_bake_colliders");
}
