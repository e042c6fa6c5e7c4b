/* The bake's collider shapes (src/bake/shapes.h) and its public geometry helpers
 * (blvl_bake_merge_boxes, blvl_bake_brush_polygons, blvl_bake_mesh_is_convex): hand-worked
 * solids with known plane sets, then random brushes checked by sampling and random rotated boxes
 * checked against the trace's own expansion of the same solid given as a hull. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bake/convex/shapes.h"
#include "blvl/bake.h"
#include "check.h"
#include "test_trace_shapes.h"
#include "trace/trace_internal.h"

#define R2 0.70710678118654752440 /* 1/sqrt(2) */
#define R3 0.57735026918962576451 /* 1/sqrt(3) */

static blvl_Plane P(double x, double y, double z, double d) {
    return (blvl_Plane){{(float)x, (float)y, (float)z}, (float)d};
}

static int near(double a, double b, double tol) {
    return fabs(a - b) <= tol;
}

static int plane_is(const blvl_Plane *p, double x, double y, double z, double d) {
    return near(p->normal.x, x, 1e-6) && near(p->normal.y, y, 1e-6) && near(p->normal.z, z, 1e-6) &&
           near(p->dist, d, 1e-4);
}

/* Whether `s` holds exactly the planes `want` (count n), in that order. */
static int planes_are(const bake_shape *s, const double want[][4], uint32_t n) {
    if (s->kind != blvl_Shape_Planes || s->plane_count != n) {
        fprintf(stderr, "  got %u planes, want %u\n", s->plane_count, n);
        for (uint32_t i = 0; i < s->plane_count; i++)
            fprintf(stderr, "   %.6f %.6f %.6f  %.4f\n", s->planes[i].normal.x,
                    s->planes[i].normal.y, s->planes[i].normal.z, s->planes[i].dist);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++)
        if (!plane_is(&s->planes[i], want[i][0], want[i][1], want[i][2], want[i][3])) {
            fprintf(stderr, "  plane %u: %.6f %.6f %.6f %.4f, want %.6f %.6f %.6f %.4f\n", i,
                    s->planes[i].normal.x, s->planes[i].normal.y, s->planes[i].normal.z,
                    s->planes[i].dist, want[i][0], want[i][1], want[i][2], want[i][3]);
            return 0;
        }
    return 1;
}

static int vec_is(blvl_Vec3 v, double x, double y, double z) {
    return near(v.x, x, 1e-4) && near(v.y, y, 1e-4) && near(v.z, z, 1e-4);
}

static void brush(const blvl_Plane *p, uint32_t n, bake_shape *s, bool *empty) {
    blvl_error err;
    CHECK_EQ_INT(blvl__bake_convex_shape_brush(NULL, p, n, s, empty, &err), BLVL_OK);
}

static void test_axial_box(void) {
    /* Scaled normals and a scrambled order: normalised, kept in the given order, nothing added. */
    const blvl_Plane p[6] = {P(0, 2, 0, 128), P(-1, 0, 0, 16), P(0, 0, 1, 8),
                             P(0, -3, 0, 0),  P(4, 0, 0, 64),  P(0, 0, -1, 8)};
    bake_shape s;
    bool empty;
    brush(p, 6, &s, &empty);
    CHECK(!empty);
    const double want[6][4] = {{0, 1, 0, 64}, {-1, 0, 0, 16}, {0, 0, 1, 8},
                               {0, -1, 0, 0}, {1, 0, 0, 16},  {0, 0, -1, 8}};
    CHECK(planes_are(&s, want, 6));
    CHECK(vec_is(s.lo, -16, 0, -8) && vec_is(s.hi, 16, 64, 8));
    blvl__bake_convex_shape_free(NULL, &s);

    /* blvl__bake_convex_shape_box: the six axial planes +x -x +y -y +z -z. */
    CHECK_EQ_INT(blvl__bake_convex_shape_box(NULL, (blvl_Vec3){-16, 0, -8}, (blvl_Vec3){16, 64, 8},
                                             &s, &empty, NULL),
                 BLVL_OK);
    const double bw[6][4] = {{1, 0, 0, 16}, {-1, 0, 0, 16}, {0, 1, 0, 64},
                             {0, -1, 0, 0}, {0, 0, 1, 8},   {0, 0, -1, 8}};
    CHECK(!empty && planes_are(&s, bw, 6));
    CHECK(vec_is(s.lo, -16, 0, -8) && vec_is(s.hi, 16, 64, 8));
    blvl__bake_convex_shape_free(NULL, &s);
    /* thinner than 1/64 qu, and inverted: empty */
    CHECK_EQ_INT(blvl__bake_convex_shape_box(NULL, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){16, 0.01f, 8},
                                             &s, &empty, NULL),
                 BLVL_OK);
    CHECK(empty && s.plane_count == 0 && s.planes == NULL);
    CHECK_EQ_INT(blvl__bake_convex_shape_box(NULL, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){-16, 8, 8}, &s,
                                             &empty, NULL),
                 BLVL_OK);
    CHECK(empty);
    blvl_error err;
    CHECK_EQ_INT(blvl__bake_convex_shape_box(NULL, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){NAN, 8, 8}, &s,
                                             &empty, &err),
                 BLVL_E_ARGUMENT);
}

/* The cube [0,64]^3 as planes +x -x +y -y +z -z. */
static void cube64(blvl_Plane p[6]) {
    p[0] = P(1, 0, 0, 64);
    p[1] = P(-1, 0, 0, 0);
    p[2] = P(0, 1, 0, 64);
    p[3] = P(0, -1, 0, 0);
    p[4] = P(0, 0, 1, 64);
    p[5] = P(0, 0, -1, 0);
}

static void test_ramp(void) {
    /* The cube cut by y + z <= 64: a ramp along x. +y and +z now touch only an edge: dropped,
     * then added back as axial planes. Its slanted edges run along x: no bevels. */
    blvl_Plane p[7];
    cube64(p);
    p[6] = P(0, R2, R2, 64 * R2);
    bake_shape s;
    bool empty;
    brush(p, 7, &s, &empty);
    CHECK(!empty);
    const double want[7][4] = {{1, 0, 0, 64},        {-1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, -1, 0},
                               {0, R2, R2, 64 * R2}, {0, 1, 0, 64}, {0, 0, 1, 64}};
    CHECK(planes_are(&s, want, 7));
    blvl__bake_convex_shape_free(NULL, &s);
}

static void test_wedge(void) {
    /* The cube cut by x + y + z <= 64 through three of its corners: the tetrahedron (0,0,0),
     * (64,0,0), (0,64,0), (0,0,64). Faces -x -y -z and the slant; +x +y +z touch one corner
     * only (dropped, then added as axial planes). Each slanted edge, crossed with the axis it is
     * perpendicular to, gives a bevel through it: (1,1,0), (1,0,1), (0,1,1) at 64/sqrt(2). */
    blvl_Plane p[7];
    cube64(p);
    p[6] = P(1, 1, 1, 64); /* not unit: normalised to (1,1,1)/sqrt(3), 64/sqrt(3) */
    bake_shape s;
    bool empty;
    brush(p, 7, &s, &empty);
    CHECK(!empty);
    CHECK(s.plane_count == 10);
    /* own faces in input order, then +x +y +z */
    const double head[7][4] = {{-1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, -1, 0}, {R3, R3, R3, 64 * R3},
                               {1, 0, 0, 64}, {0, 1, 0, 64}, {0, 0, 1, 64}};
    for (uint32_t i = 0; i < 7 && i < s.plane_count; i++)
        CHECK(plane_is(&s.planes[i], head[i][0], head[i][1], head[i][2], head[i][3]));
    const double bev[3][4] = {{R2, R2, 0, 64 * R2}, {R2, 0, R2, 64 * R2}, {0, R2, R2, 64 * R2}};
    for (int b = 0; b < 3; b++) {
        int found = 0;
        for (uint32_t i = 7; i < s.plane_count; i++)
            found += plane_is(&s.planes[i], bev[b][0], bev[b][1], bev[b][2], bev[b][3]);
        CHECK_EQ_INT(found, 1);
    }
    CHECK(vec_is(s.lo, 0, 0, 0) && vec_is(s.hi, 64, 64, 64));
    blvl__bake_convex_shape_free(NULL, &s);

    /* The same solid as polygons: one per input plane, none for +x +y +z, each on its plane,
     * inside every other, counter-clockwise seen from outside. */
    blvl_bake_polygons poly;
    blvl_error err;
    CHECK_EQ_INT(blvl_bake_brush_polygons(&poly, p, 7, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(poly.count, 7);
    const uint32_t sizes[7] = {0, 3, 0, 3, 0, 3, 3};
    uint32_t at = 0;
    for (uint32_t f = 0; f < poly.count && f < 7; f++) {
        CHECK_EQ_INT(poly.sizes[f], sizes[f]);
        double len =
            sqrt((double)p[f].normal.x * p[f].normal.x + (double)p[f].normal.y * p[f].normal.y +
                 (double)p[f].normal.z * p[f].normal.z);
        double n[3] = {p[f].normal.x / len, p[f].normal.y / len, p[f].normal.z / len},
               d = p[f].dist / len, nw[3] = {0, 0, 0};
        for (uint32_t c = 0; c < poly.sizes[f]; c++) {
            blvl_Vec3 a = poly.points[at + c], b = poly.points[at + (c + 1) % poly.sizes[f]];
            CHECK(near(n[0] * a.x + n[1] * a.y + n[2] * a.z, d, 1e-3));
            for (int j = 0; j < 7; j++) {
                double lj = sqrt((double)p[j].normal.x * p[j].normal.x +
                                 (double)p[j].normal.y * p[j].normal.y +
                                 (double)p[j].normal.z * p[j].normal.z);
                CHECK((p[j].normal.x * a.x + p[j].normal.y * a.y + p[j].normal.z * a.z) / lj -
                          p[j].dist / lj <=
                      1e-3);
            }
            nw[0] += ((double)a.y - b.y) * ((double)a.z + b.z);
            nw[1] += ((double)a.z - b.z) * ((double)a.x + b.x);
            nw[2] += ((double)a.x - b.x) * ((double)a.y + b.y);
        }
        if (poly.sizes[f])
            CHECK(nw[0] * n[0] + nw[1] * n[1] + nw[2] * n[2] > 0); /* CCW from outside */
        at += poly.sizes[f];
    }
    CHECK_EQ_INT(poly.point_count, 12);
    blvl_bake_polygons_free(&poly);
    CHECK(poly.sizes == NULL && poly.points == NULL);
}

static void test_rotated_box(void) {
    /* The box |x'| <= 32, |y| <= 16, |z'| <= 32 turned 45 degrees about Y: four side planes
     * (+-1, 0, +-1)/sqrt(2) at 32, top and bottom; its corners on the axes at 32 sqrt(2), so the
     * planes x+- and z+- there are added; every edge is vertical or lies in a top/bottom plane
     * along a side: crossed with the axes they give only planes already there. Exactly 10. */
    const blvl_Plane p[6] = {P(R2, 0, R2, 32),  P(-R2, 0, -R2, 32), P(R2, 0, -R2, 32),
                             P(-R2, 0, R2, 32), P(0, 1, 0, 16),     P(0, -1, 0, 16)};
    bake_shape s;
    bool empty;
    brush(p, 6, &s, &empty);
    CHECK(!empty);
    const double c = 32 * sqrt(2.0);
    const double want[10][4] = {
        {R2, 0, R2, 32}, {-R2, 0, -R2, 32}, {R2, 0, -R2, 32}, {-R2, 0, R2, 32}, {0, 1, 0, 16},
        {0, -1, 0, 16},  {1, 0, 0, c},      {-1, 0, 0, c},    {0, 0, 1, c},     {0, 0, -1, c}};
    CHECK(planes_are(&s, want, 10));
    CHECK(vec_is(s.lo, -c, -16, -c) && vec_is(s.hi, c, 16, c));
    blvl__bake_convex_shape_free(NULL, &s);
}

static void test_degenerate_brushes(void) {
    blvl_Plane p[10];
    bake_shape s;
    bool empty;
    /* redundant planes: one far outside, one touching an edge only, a repeat: all dropped */
    cube64(p);
    p[6] = P(1, 0, 0, 100);
    p[7] = P(R2, R2, 0, 128 * R2);
    p[8] = P(0, 1, 0, 64);
    p[9] = P(0, 0, 0, 5); /* zero normal, d >= 0: all space */
    brush(p, 10, &s, &empty);
    const double cube[6][4] = {{1, 0, 0, 64}, {-1, 0, 0, 0}, {0, 1, 0, 64},
                               {0, -1, 0, 0}, {0, 0, 1, 64}, {0, 0, -1, 0}};
    CHECK(!empty && planes_are(&s, cube, 6));
    blvl__bake_convex_shape_free(NULL, &s);
    /* open: no bottom */
    brush(p, 5, &s, &empty);
    CHECK(empty && s.plane_count == 0 && s.planes == NULL);
    /* contradicting: x <= 64 and x >= 100 */
    cube64(p);
    p[6] = P(-1, 0, 0, -100);
    brush(p, 7, &s, &empty);
    CHECK(empty && s.plane_count == 0);
    /* a slab of no thickness: x <= 0 and x >= 0 */
    cube64(p);
    p[0] = P(1, 0, 0, 0);
    brush(p, 6, &s, &empty);
    CHECK(empty);
    /* a zero normal with d < 0: no space at all */
    cube64(p);
    p[6] = P(0, 0, 0, -1);
    brush(p, 7, &s, &empty);
    CHECK(empty);
    /* no planes, one plane */
    brush(p, 0, &s, &empty);
    CHECK(empty);
    brush(p, 1, &s, &empty);
    CHECK(empty);
    /* not finite: refused */
    cube64(p);
    p[3].dist = INFINITY;
    blvl_error err;
    CHECK_EQ_INT(blvl__bake_convex_shape_brush(NULL, p, 6, &s, &empty, &err), BLVL_E_ARGUMENT);
    CHECK(empty && s.plane_count == 0);
    p[3] = P(0, NAN, 0, 0);
    CHECK_EQ_INT(blvl__bake_convex_shape_brush(NULL, p, 6, &s, &empty, &err), BLVL_E_ARGUMENT);
    blvl_bake_polygons poly;
    CHECK_EQ_INT(blvl_bake_brush_polygons(&poly, p, 6, NULL, &err), BLVL_E_ARGUMENT);
    /* over the size limit (1024 planes): refused; at it: fine */
    static blvl_Plane many[1025];
    for (int i = 0; i < 1025; i++) {
        double a = rnd_in(0, 6.283185307179586), z = rnd_in(-1, 1), r = sqrt(1 - z * z);
        many[i] = P(r * cos(a), r * sin(a), z, 500);
    }
    CHECK_EQ_INT(blvl__bake_convex_shape_brush(NULL, many, 1025, &s, &empty, &err),
                 BLVL_E_ARGUMENT);
    CHECK(empty);
    CHECK_EQ_INT(blvl__bake_convex_shape_brush(NULL, many, 1024, &s, &empty, &err), BLVL_OK);
    CHECK(!empty && s.plane_count >= 1024);
    blvl__bake_convex_shape_free(NULL, &s);
    /* an open brush has no polygons to draw */
    cube64(p);
    CHECK_EQ_INT(blvl_bake_brush_polygons(&poly, p, 5, NULL, &err), BLVL_OK);
    CHECK(poly.count == 5 && poly.point_count == 0);
    for (uint32_t i = 0; i < poly.count; i++)
        CHECK_EQ_INT(poly.sizes[i], 0);
    blvl_bake_polygons_free(&poly);
}

/* The outward unit normal of face f of a Hull shape (Newell) and its distance. */
static void hull_face_plane(const bake_shape *s, uint32_t first, uint32_t n, double nn[3],
                            double *d) {
    nn[0] = nn[1] = nn[2] = 0;
    for (uint32_t i = 0; i < n; i++) {
        blvl_Vec3 a = s->vertices[s->face_indices[first + i]];
        blvl_Vec3 b = s->vertices[s->face_indices[first + (i + 1) % n]];
        nn[0] += ((double)a.y - b.y) * ((double)a.z + b.z);
        nn[1] += ((double)a.z - b.z) * ((double)a.x + b.x);
        nn[2] += ((double)a.x - b.x) * ((double)a.y + b.y);
    }
    double l = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
    for (int k = 0; k < 3; k++)
        nn[k] /= l;
    blvl_Vec3 a = s->vertices[s->face_indices[first]];
    *d = nn[0] * a.x + nn[1] * a.y + nn[2] * a.z;
}

/* Every vertex on or behind every face, each face planar and counter-clockwise from outside
 * (its Newell normal points away from the vertices), and the mesh closed. */
static int hull_ok(const bake_shape *s) {
    int ok = s->kind == blvl_Shape_Hull;
    uint32_t at = 0;
    for (uint32_t f = 0; f < s->face_count; f++) {
        double n[3], d;
        hull_face_plane(s, at, s->face_sizes[f], n, &d);
        for (uint32_t v = 0; v < s->vertex_count; v++) {
            double t = n[0] * s->vertices[v].x + n[1] * s->vertices[v].y + n[2] * s->vertices[v].z;
            ok &= t - d <= 1e-3;
        }
        for (uint32_t c = 0; c < s->face_sizes[f]; c++) {
            blvl_Vec3 v = s->vertices[s->face_indices[at + c]];
            ok &= fabs(n[0] * v.x + n[1] * v.y + n[2] * v.z - d) <= 1e-3;
        }
        at += s->face_sizes[f];
    }
    ok &= at == s->face_index_count;
    ok &= blvl_bake_mesh_is_convex(s->vertices, s->vertex_count, s->face_sizes, s->face_count,
                                   s->face_indices, s->face_index_count);
    return ok;
}

/* Every point within tol behind every face plane of the hull. */
static int all_inside(const bake_shape *s, const blvl_Vec3 *r, uint32_t rn, double tol) {
    uint32_t at = 0;
    int inside = 1;
    for (uint32_t f = 0; f < s->face_count; f++) {
        double nn[3], d;
        hull_face_plane(s, at, s->face_sizes[f], nn, &d);
        for (uint32_t i = 0; i < rn; i++)
            inside &= nn[0] * r[i].x + nn[1] * r[i].y + nn[2] * r[i].z - d <= tol;
        at += s->face_sizes[f];
    }
    return inside;
}

static void test_hulls(void) {
    blvl_Vec3 pts[64];
    uint32_t n = 0;
    /* interior points first, then the corners, then points on faces and edges, and repeats */
    pts[n++] = (blvl_Vec3){0, 0, 0};
    pts[n++] = (blvl_Vec3){5, -7, 3};
    for (int i = 0; i < 8; i++)
        pts[n++] =
            (blvl_Vec3){(i & 1) ? 32.f : -32.f, (i & 2) ? 32.f : -32.f, (i & 4) ? 32.f : -32.f};
    pts[n++] = (blvl_Vec3){32, 0, 0};         /* a face's centre */
    pts[n++] = (blvl_Vec3){0, -32, 10};       /* on a face */
    pts[n++] = (blvl_Vec3){32, 32, 0};        /* an edge's middle */
    pts[n++] = (blvl_Vec3){-32, 5, 32};       /* on an edge */
    pts[n++] = (blvl_Vec3){32.0002f, 32, 32}; /* a corner again, within 1/1024 */
    pts[n++] = (blvl_Vec3){-31, 31, -31};
    bake_shape s;
    bool empty;
    blvl_error err;
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, pts, n, &s, &empty, &err), BLVL_OK);
    CHECK(!empty);
    CHECK_EQ_INT(s.vertex_count, 8);
    CHECK_EQ_INT(s.face_count, 6);
    CHECK_EQ_INT(s.face_index_count, 24);
    for (uint32_t f = 0; f < s.face_count; f++)
        CHECK_EQ_INT(s.face_sizes[f], 4);
    for (uint32_t v = 0; v < s.vertex_count; v++) /* corners only, in input order */
        CHECK(vec_is(s.vertices[v], (v & 1) ? 32 : -32, (v & 2) ? 32 : -32, (v & 4) ? 32 : -32));
    uint32_t at = 0;
    int axes = 0;
    for (uint32_t f = 0; f < s.face_count; f++) {
        double nn[3], d;
        hull_face_plane(&s, at, 4, nn, &d);
        for (int k = 0; k < 3; k++)
            for (int sg = -1; sg <= 1; sg += 2)
                if (near(nn[k], sg, 1e-9) && near(d, 32, 1e-6))
                    axes |= 1 << (2 * k + (sg > 0));
        at += 4;
    }
    CHECK_EQ_INT(axes, 63); /* the six axial faces, each outward */
    CHECK(hull_ok(&s));
    CHECK(vec_is(s.lo, -32, -32, -32) && vec_is(s.hi, 32, 32, 32));
    /* the same points in another order: the same faces (as a set of corner sets) */
    bake_shape s2;
    blvl_Vec3 rev[64];
    for (uint32_t i = 0; i < n; i++)
        rev[i] = pts[n - 1 - i];
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, rev, n, &s2, &empty, &err), BLVL_OK);
    CHECK(!empty && s2.vertex_count == 8 && s2.face_count == 6 && hull_ok(&s2));
    blvl__bake_convex_shape_free(NULL, &s2);
    blvl__bake_convex_shape_free(NULL, &s);
    CHECK(s.vertices == NULL && s.face_count == 0);

    /* a tetrahedron: 4 corners, 4 triangles */
    const blvl_Vec3 tet[5] = {{0, 0, 0}, {64, 0, 0}, {0, 64, 0}, {0, 0, 64}, {8, 8, 8}};
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, tet, 5, &s, &empty, &err), BLVL_OK);
    CHECK(!empty && s.vertex_count == 4 && s.face_count == 4 && s.face_index_count == 12);
    CHECK(hull_ok(&s));
    blvl__bake_convex_shape_free(NULL, &s);

    /* coplanar points, and points within 1/64 qu of one plane: empty */
    blvl_Vec3 flat[6] = {{0, 0, 0}, {64, 0, 0}, {0, 64, 0}, {64, 64, 0}, {10, 20, 0}, {3, 3, 0}};
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, flat, 6, &s, &empty, &err), BLVL_OK);
    CHECK(empty && s.vertex_count == 0);
    flat[4].z = 0.01f;
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, flat, 6, &s, &empty, &err), BLVL_OK);
    CHECK(empty);
    flat[4].z = 0.05f; /* now thick enough */
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, flat, 6, &s, &empty, &err), BLVL_OK);
    CHECK(!empty && s.vertex_count == 5 && hull_ok(&s));
    blvl__bake_convex_shape_free(NULL, &s);
    /* fewer than 4 points, 4 points that are 2 after the weld, points on a line */
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, tet, 3, &s, &empty, &err), BLVL_OK);
    CHECK(empty);
    const blvl_Vec3 dup[4] = {{0, 0, 0}, {0.0001f, 0, 0}, {64, 0, 0}, {64, 0.0001f, 0}};
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, dup, 4, &s, &empty, &err), BLVL_OK);
    CHECK(empty);
    const blvl_Vec3 line[5] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {9, 9, 9}};
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, line, 5, &s, &empty, &err), BLVL_OK);
    CHECK(empty);
    static blvl_Vec3 big[4097];
    for (int i = 0; i < 4097; i++)
        big[i] =
            (blvl_Vec3){(float)rnd_in(-50, 50), (float)rnd_in(-50, 50), (float)rnd_in(-50, 50)};
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, big, 4097, &s, &empty, &err), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, big, 4096, &s, &empty, &err), BLVL_OK);
    CHECK(!empty && hull_ok(&s));
    blvl__bake_convex_shape_free(NULL, &s);
    blvl_Vec3 bad[4] = {{0, 0, 0}, {64, 0, 0}, {0, 64, 0}, {0, 0, NAN}};
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, bad, 4, &s, &empty, &err), BLVL_E_ARGUMENT);
    CHECK(empty);

    /* random points in a ball: a valid hull every time */
    for (int round = 0; round < 40; round++) {
        blvl_Vec3 r[200];
        uint32_t rn = 20 + (uint32_t)(rnd() * 180);
        for (uint32_t i = 0; i < rn; i++) {
            double v[3], l;
            do {
                for (int k = 0; k < 3; k++)
                    v[k] = rnd_in(-1, 1);
                l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            } while (l > 1 || l < 0.1);
            double rad = round % 2 ? 100 / l : 100 * rnd(); /* on the sphere, or inside */
            r[i] = (blvl_Vec3){(float)(v[0] * rad), (float)(v[1] * rad), (float)(v[2] * rad)};
        }
        CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, r, rn, &s, &empty, &err), BLVL_OK);
        CHECK(!empty && hull_ok(&s));
        /* every input point inside the hull */
        CHECK(all_inside(&s, r, rn, 1e-3));
        blvl__bake_convex_shape_free(NULL, &s);
    }
    /* lattice points (many coplanar and collinear triples) far from the origin, and cylinders
     * (two coplanar rings): valid hulls, every point inside */
    for (int round = 0; round < 60; round++) {
        blvl_Vec3 r[200];
        uint32_t rn = 0;
        double off[3] = {rnd_in(-30000, 30000), rnd_in(-3000, 3000), rnd_in(-30000, 30000)};
        if (round % 2) {
            uint32_t seg = 3 + (uint32_t)(rnd() * 60);
            double rad = rnd_in(8, 300), hgt = rnd_in(1, 300);
            for (uint32_t i = 0; i < seg; i++)
                for (int z = 0; z < 2; z++) {
                    double a = 6.283185307179586 * i / seg;
                    r[rn++] = (blvl_Vec3){(float)(off[0] + rad * cos(a)), (float)(off[1] + z * hgt),
                                          (float)(off[2] + rad * sin(a))};
                }
        } else {
            rn = 8 + (uint32_t)(rnd() * 150);
            for (uint32_t i = 0; i < rn; i++)
                r[i] = (blvl_Vec3){(float)(off[0] + 8 * (int)(rnd() * 6)),
                                   (float)(off[1] + 8 * (int)(rnd() * 6)),
                                   (float)(off[2] + 8 * (int)(rnd() * 6))};
        }
        CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, r, rn, &s, &empty, &err), BLVL_OK);
        if (empty) /* a lattice sample can be flat */
            continue;
        CHECK(hull_ok(&s));
        if (round % 2) /* a prism: two polygons and a quad per segment */
            CHECK_EQ_INT(s.face_count, rn / 2 + 2);
        CHECK(all_inside(&s, r, rn, 1e-2));
        blvl__bake_convex_shape_free(NULL, &s);
    }
    /* grid points on a cube's surface (many coplanar and collinear): still 8 corners, 6 quads */
    blvl_Vec3 g[5 * 5 * 5];
    uint32_t gn = 0;
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 5; y++)
            for (int z = 0; z < 5; z++)
                g[gn++] = (blvl_Vec3){(float)(x * 16), (float)(y * 16), (float)(z * 16)};
    CHECK_EQ_INT(blvl__bake_convex_shape_hull(NULL, g, gn, &s, &empty, &err), BLVL_OK);
    CHECK(!empty && s.vertex_count == 8 && s.face_count == 6 && hull_ok(&s));
    blvl__bake_convex_shape_free(NULL, &s);
}

static void test_triangle(void) {
    const blvl_Vec3 tri[3] = {{0, 0, 0}, {64, 0, 0}, {0, 64, 0}};
    bake_shape s;
    bool empty;
    blvl_error err;
    CHECK_EQ_INT(blvl__bake_convex_shape_triangle(NULL, tri, 8, &s, &empty, &err), BLVL_OK);
    CHECK(!empty && s.kind == blvl_Shape_Hull);
    CHECK_EQ_INT(s.vertex_count, 6);
    CHECK_EQ_INT(s.face_count, 5);
    CHECK(vec_is(s.vertices[0], 0, 0, 0) && vec_is(s.vertices[1], 64, 0, 0) &&
          vec_is(s.vertices[2], 0, 64, 0) && vec_is(s.vertices[3], 0, 0, -8) &&
          vec_is(s.vertices[4], 64, 0, -8) && vec_is(s.vertices[5], 0, 64, -8));
    const double want[5][4] = {
        {0, 0, 1, 0}, {0, 0, -1, 8}, {0, -1, 0, 0}, {R2, R2, 0, 64 * R2}, {-1, 0, 0, 0}};
    uint32_t at = 0;
    for (uint32_t f = 0; f < 5 && f < s.face_count; f++) {
        double n[3], d;
        hull_face_plane(&s, at, s.face_sizes[f], n, &d);
        CHECK(near(n[0], want[f][0], 1e-6) && near(n[1], want[f][1], 1e-6) &&
              near(n[2], want[f][2], 1e-6) && near(d, want[f][3], 1e-4));
        at += s.face_sizes[f];
    }
    CHECK(hull_ok(&s));
    CHECK(vec_is(s.lo, 0, 0, -8) && vec_is(s.hi, 64, 64, 0));
    blvl__bake_convex_shape_free(NULL, &s);
    /* degenerate: collinear corners, no thickness; not finite: refused */
    const blvl_Vec3 line[3] = {{0, 0, 0}, {64, 0, 0}, {128, 0.0001f, 0}};
    CHECK_EQ_INT(blvl__bake_convex_shape_triangle(NULL, line, 8, &s, &empty, &err), BLVL_OK);
    CHECK(empty && s.vertex_count == 0);
    CHECK_EQ_INT(blvl__bake_convex_shape_triangle(NULL, tri, 0, &s, &empty, &err), BLVL_OK);
    CHECK(empty);
    CHECK_EQ_INT(blvl__bake_convex_shape_triangle(NULL, tri, INFINITY, &s, &empty, &err),
                 BLVL_E_ARGUMENT);
}

/* ---- merge_boxes ---- */

static blvl_bake_box cell(int x, int y, uint32_t key) {
    return (blvl_bake_box){{(float)x, (float)y, 0}, {(float)(x + 1), (float)(y + 1), 1}, key};
}

static int has_box(const blvl_bake_box *b, size_t n, float x0, float y0, float x1, float y1,
                   uint32_t key) {
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += b[i].lo.x == x0 && b[i].lo.y == y0 && b[i].hi.x == x1 && b[i].hi.y == y1 &&
             b[i].lo.z == 0 && b[i].hi.z == 1 && b[i].key == key;
    return c == 1;
}

static int share_face(const blvl_bake_box *a, const blvl_bake_box *b) {
    if (a->key != b->key)
        return 0;
    const float al[3] = {a->lo.x, a->lo.y, a->lo.z}, ah[3] = {a->hi.x, a->hi.y, a->hi.z};
    const float bl[3] = {b->lo.x, b->lo.y, b->lo.z}, bh[3] = {b->hi.x, b->hi.y, b->hi.z};
    for (int k = 0; k < 3; k++) {
        int same = 1;
        for (int j = 0; j < 3; j++)
            if (j != k)
                same &= al[j] == bl[j] && ah[j] == bh[j];
        if (same && (ah[k] == bl[k] || bh[k] == al[k]))
            return 1;
    }
    return 0;
}

static void test_merge_boxes(void) {
    /* an L: a row of three and a column of two above its first cell */
    blvl_bake_box b[16];
    size_t n = 0;
    b[n++] = cell(0, 2, 1);
    b[n++] = cell(1, 0, 1);
    b[n++] = cell(0, 0, 1);
    b[n++] = cell(0, 1, 1);
    b[n++] = cell(2, 0, 1);
    n = blvl_bake_merge_boxes(b, n);
    CHECK_EQ_INT(n, 2);
    CHECK(has_box(b, n, 0, 0, 3, 1, 1) && has_box(b, n, 0, 1, 1, 3, 1));

    /* a 3x3 block: one box; with the centre of another key: four around it and the centre */
    for (int key = 0; key < 3; key++) {
        n = 0;
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 3; x++)
                b[n++] = cell(x, y,
                              key == 1 && x == 1 && y == 1   ? 7
                              : key == 2 && x == 2 && y == 2 ? 7
                                                             : 1);
        n = blvl_bake_merge_boxes(b, n);
        if (key == 0) {
            CHECK_EQ_INT(n, 1);
            CHECK(has_box(b, n, 0, 0, 3, 3, 1));
        } else if (key == 1) {
            CHECK_EQ_INT(n, 5);
            CHECK(has_box(b, n, 0, 0, 3, 1, 1) && has_box(b, n, 0, 2, 3, 3, 1) &&
                  has_box(b, n, 0, 1, 1, 2, 1) && has_box(b, n, 2, 1, 3, 2, 1) &&
                  has_box(b, n, 1, 1, 2, 2, 7));
        } else { /* a corner differs: two rows of three make one box, then the last row's two */
            CHECK_EQ_INT(n, 3);
            CHECK(has_box(b, n, 0, 0, 3, 2, 1) && has_box(b, n, 0, 2, 2, 3, 1) &&
                  has_box(b, n, 2, 2, 3, 3, 7));
        }
    }
    /* a box that cannot merge (not finite, inverted) stays, after the merged ones */
    n = 0;
    b[n++] = cell(0, 0, 1);
    b[n++] = (blvl_bake_box){{0, 0, 0}, {NAN, 1, 1}, 1};
    b[n++] = cell(1, 0, 1);
    b[n++] = (blvl_bake_box){{5, 0, 0}, {4, 1, 1}, 1};
    n = blvl_bake_merge_boxes(b, n);
    CHECK_EQ_INT(n, 3);
    CHECK(has_box(b, 1, 0, 0, 2, 1, 1) && isnan(b[1].hi.x) && b[2].lo.x == 5);
    CHECK_EQ_INT(blvl_bake_merge_boxes(b, 0), 0);
    CHECK_EQ_INT(blvl_bake_merge_boxes(NULL, 5), 5);

    /* random grids: every cell covered by exactly one box of its key, no pair left that shares
     * a whole face, and the same result from a shuffled input */
    enum { W = 12, H = 9, D = 3 };
    static blvl_bake_box g[W * H * D], g2[W * H * D];
    static uint32_t key[W][H][D];
    for (int round = 0; round < 20; round++) {
        size_t gn = 0;
        for (int x = 0; x < W; x++)
            for (int y = 0; y < H; y++)
                for (int z = 0; z < D; z++) {
                    double r = rnd();
                    key[x][y][z] = r < 0.3 ? 0 : r < 0.85 ? 1 : 2; /* 0 = no cell */
                    if (key[x][y][z])
                        g[gn++] = (blvl_bake_box){{(float)x, (float)y, (float)z},
                                                  {(float)x + 1, (float)y + 1, (float)z + 1},
                                                  key[x][y][z]};
                }
        for (size_t i = 0; i < gn; i++) { /* shuffled copy */
            size_t j = (size_t)(rnd() * (double)(i + 1));
            g2[i] = g2[j];
            g2[j] = g[i];
        }
        size_t m = blvl_bake_merge_boxes(g, gn), m2 = blvl_bake_merge_boxes(g2, gn);
        CHECK(m < gn && m == m2 && memcmp(g, g2, m * sizeof g[0]) == 0);
        int cover = 1, faces = 0;
        for (int x = 0; x < W; x++)
            for (int y = 0; y < H; y++)
                for (int z = 0; z < D; z++) {
                    int c = 0;
                    for (size_t i = 0; i < m; i++)
                        c += g[i].lo.x <= x && x < g[i].hi.x && g[i].lo.y <= y && y < g[i].hi.y &&
                             g[i].lo.z <= z && z < g[i].hi.z &&
                             (key[x][y][z] == 0 || g[i].key == key[x][y][z]);
                    cover &= c == (key[x][y][z] ? 1 : 0);
                }
        for (size_t i = 0; i < m; i++)
            for (size_t j = i + 1; j < m; j++)
                faces += share_face(&g[i], &g[j]);
        CHECK(cover);
        CHECK_EQ_INT(faces, 0);
    }
}

/* ---- mesh_is_convex ---- */

static void test_mesh_is_convex(void) {
    blvl_Vec3 v[12];
    for (int i = 0; i < 8; i++)
        v[i] = (blvl_Vec3){(i & 1) ? 64.f : 0, (i & 2) ? 64.f : 0, (i & 4) ? 64.f : 0};
    /* counter-clockwise from outside */
    const uint32_t idx[24] = {0, 4, 6, 2, 1, 3, 7, 5, 0, 1, 5, 4,
                              2, 6, 7, 3, 0, 2, 3, 1, 4, 5, 7, 6};
    const uint32_t sz[6] = {4, 4, 4, 4, 4, 4};
    CHECK(blvl_bake_mesh_is_convex(v, 8, sz, 6, idx, 24));
    CHECK(!blvl_bake_mesh_is_convex(v, 8, sz, 5, idx, 20)); /* one face missing: open */
    CHECK(!blvl_bake_mesh_is_convex(v, 8, sz, 6, idx, 23)); /* counts disagree */
    uint32_t rev[24];
    memcpy(rev, idx, sizeof rev);
    for (int i = 0; i < 4; i++) /* one face turned inside out */
        rev[i] = idx[3 - i];
    CHECK(!blvl_bake_mesh_is_convex(v, 8, sz, 6, rev, 24));
    uint32_t oob[24];
    memcpy(oob, idx, sizeof oob);
    oob[5] = 8;
    CHECK(!blvl_bake_mesh_is_convex(v, 8, sz, 6, oob, 24));
    /* a corner pushed out of its faces' planes: not planar */
    blvl_Vec3 w[8];
    memcpy(w, v, sizeof w);
    w[7].x = 70;
    CHECK(!blvl_bake_mesh_is_convex(w, 8, sz, 6, idx, 24));
    /* an extra vertex outside, in no face: the hull would grow */
    memcpy(v + 8, &(blvl_Vec3){100, 0, 0}, sizeof v[0]);
    CHECK(!blvl_bake_mesh_is_convex(v, 9, sz, 6, idx, 24));

    /* an L-shaped prism: closed, planar, not convex. Profile in xy, extruded 0..16 in z. */
    const float prof[6][2] = {{0, 0}, {64, 0}, {64, 16}, {16, 16}, {16, 64}, {0, 64}};
    blvl_Vec3 l[12];
    for (int i = 0; i < 6; i++) {
        l[i] = (blvl_Vec3){prof[i][0], prof[i][1], 0};
        l[i + 6] = (blvl_Vec3){prof[i][0], prof[i][1], 16};
    }
    uint32_t li[6 + 6 + 24], ls[8], at = 0;
    for (int i = 0; i < 6; i++)
        li[at++] = (uint32_t)(5 - i); /* bottom, seen from below */
    for (int i = 0; i < 6; i++)
        li[at++] = (uint32_t)(6 + i); /* top */
    for (int i = 0; i < 6; i++) {
        int j = (i + 1) % 6;
        li[at++] = (uint32_t)i;
        li[at++] = (uint32_t)j;
        li[at++] = (uint32_t)(j + 6);
        li[at++] = (uint32_t)(i + 6);
    }
    ls[0] = ls[1] = 6;
    for (int i = 2; i < 8; i++)
        ls[i] = 4;
    CHECK(!blvl_bake_mesh_is_convex(l, 12, ls, 8, li, at));
    /* the same profile made convex: a square with a corner in the middle of two sides */
    l[2] = (blvl_Vec3){64, 32, 0};
    l[8] = (blvl_Vec3){64, 32, 16};
    l[3] = (blvl_Vec3){64, 64, 0};
    l[9] = (blvl_Vec3){64, 64, 16};
    l[4] = (blvl_Vec3){32, 64, 0};
    l[10] = (blvl_Vec3){32, 64, 16};
    CHECK(blvl_bake_mesh_is_convex(l, 12, ls, 8, li, at));
}

/* ---- random brushes: sampled inside and outside ---- */

static double pdist(const blvl_Plane *p, const double x[3]) {
    return p->normal.x * x[0] + p->normal.y * x[1] + p->normal.z * x[2] - p->dist;
}

static void test_random_brushes(void) {
    int tested = 0;
    for (int round = 0; round < 200; round++) {
        blvl_Plane p[24];
        uint32_t n = 6 + (uint32_t)(rnd() * 18);
        double c[3] = {rnd_in(-2000, 2000), rnd_in(-2000, 2000), rnd_in(-2000, 2000)};
        for (uint32_t i = 0; i < n; i++) {
            double v[3], l;
            do {
                for (int k = 0; k < 3; k++)
                    v[k] = rnd_in(-1, 1);
                l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            } while (l > 1 || l < 0.1);
            double sc = rnd_in(0.5, 3); /* not unit: the bake normalises */
            double d = rnd_in(20, 200);
            p[i] = P(v[0] / l * sc, v[1] / l * sc, v[2] / l * sc,
                     (v[0] / l * c[0] + v[1] / l * c[1] + v[2] / l * c[2] + d) * sc);
        }
        bake_shape s;
        bool empty;
        blvl_error err;
        CHECK_EQ_INT(blvl__bake_convex_shape_brush(NULL, p, n, &s, &empty, &err), BLVL_OK);
        blvl_bake_polygons poly;
        CHECK_EQ_INT(blvl_bake_brush_polygons(&poly, p, n, NULL, &err), BLVL_OK);
        if (empty) { /* open (normals all on one side): nothing to draw either */
            CHECK_EQ_INT(poly.point_count, 0);
            blvl_bake_polygons_free(&poly);
            continue;
        }
        tested++;
        /* own faces first: each a normalised input plane that has a polygon, in input order */
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (!poly.sizes[i])
                continue;
            double l =
                sqrt((double)p[i].normal.x * p[i].normal.x + (double)p[i].normal.y * p[i].normal.y +
                     (double)p[i].normal.z * p[i].normal.z);
            /* (a float distance near 2000 is only good to 1.2e-4) */
            CHECK(k < s.plane_count && near(s.planes[k].normal.x, p[i].normal.x / l, 1e-6) &&
                  near(s.planes[k].normal.y, p[i].normal.y / l, 1e-6) &&
                  near(s.planes[k].normal.z, p[i].normal.z / l, 1e-6) &&
                  near(s.planes[k].dist, p[i].dist / l, 1e-4 + 1e-7 * fabs(p[i].dist / l)));
            k++;
        }
        /* each polygon on its plane, behind the others, counter-clockwise from outside */
        int polys_ok = 1;
        for (uint32_t i = 0, at = 0; i < n; at += poly.sizes[i], i++) {
            double l =
                sqrt((double)p[i].normal.x * p[i].normal.x + (double)p[i].normal.y * p[i].normal.y +
                     (double)p[i].normal.z * p[i].normal.z);
            double nw[3] = {0, 0, 0};
            for (uint32_t c = 0; c < poly.sizes[i]; c++) {
                blvl_Vec3 a = poly.points[at + c], b = poly.points[at + (c + 1) % poly.sizes[i]];
                const double x[3] = {a.x, a.y, a.z};
                polys_ok &= fabs(pdist(&p[i], x) / l) <= 1e-2;
                for (uint32_t j = 0; j < n; j++) {
                    double lj = sqrt((double)p[j].normal.x * p[j].normal.x +
                                     (double)p[j].normal.y * p[j].normal.y +
                                     (double)p[j].normal.z * p[j].normal.z);
                    polys_ok &= pdist(&p[j], x) / lj <= 1e-2;
                }
                nw[0] += ((double)a.y - b.y) * ((double)a.z + b.z);
                nw[1] += ((double)a.z - b.z) * ((double)a.x + b.x);
                nw[2] += ((double)a.x - b.x) * ((double)a.y + b.y);
            }
            if (poly.sizes[i])
                polys_ok &=
                    nw[0] * p[i].normal.x + nw[1] * p[i].normal.y + nw[2] * p[i].normal.z > 0;
        }
        CHECK(polys_ok);
        /* every brush corner behind every output plane (no bevel cuts the solid) */
        int behind = 1;
        for (uint32_t i = 0; i < poly.point_count; i++) {
            const double x[3] = {poly.points[i].x, poly.points[i].y, poly.points[i].z};
            for (uint32_t j = 0; j < s.plane_count; j++)
                behind &= pdist(&s.planes[j], x) <= 0.01;
        }
        CHECK(behind);
        /* sampled points: strictly inside -> behind all; outside by > 1 qu along a face normal
         * or an axis -> in front of one */
        int in_ok = 1, out_ok = 1, ins = 0, outs = 0;
        for (int t = 0; t < 400; t++) {
            double x[3];
            for (int a = 0; a < 3; a++)
                x[a] = rnd_in(s.lo.x * (a == 0) + s.lo.y * (a == 1) + s.lo.z * (a == 2) - 20,
                              s.hi.x * (a == 0) + s.hi.y * (a == 1) + s.hi.z * (a == 2) + 20);
            double worst = -INFINITY;
            for (uint32_t i = 0; i < n; i++) {
                double l = sqrt((double)p[i].normal.x * p[i].normal.x +
                                (double)p[i].normal.y * p[i].normal.y +
                                (double)p[i].normal.z * p[i].normal.z);
                double dd = pdist(&p[i], x) / l;
                worst = dd > worst ? dd : worst;
            }
            int axial_out = x[0] > s.hi.x + 1 || x[0] < s.lo.x - 1 || x[1] > s.hi.y + 1 ||
                            x[1] < s.lo.y - 1 || x[2] > s.hi.z + 1 || x[2] < s.lo.z - 1;
            double front = -INFINITY;
            for (uint32_t j = 0; j < s.plane_count; j++) {
                double dd = pdist(&s.planes[j], x);
                front = dd > front ? dd : front;
            }
            if (worst < -1e-3) {
                ins++;
                in_ok &= front <= 1e-3;
            } else if (worst > 1 || axial_out) {
                outs++;
                out_ok &= front > 0;
            }
        }
        CHECK(in_ok && out_ok);
        CHECK(ins + outs > 0);
        blvl_bake_polygons_free(&poly);
        blvl__bake_convex_shape_free(NULL, &s);
    }
    CHECK(tested > 100);
}

/* ---- the bake's Planes against the trace's expansion of the same solid as a hull ---- */

static void ignore_report(void *u, uint32_t f, const char *why) {
    (void)u, (void)f, (void)why;
}

/* Two planes that cut the solid alike: signed distances within 1e-3 qu at every corner. */
static int same_over(const blvl_Plane *a, const blvl_Plane *b, const shape *s) {
    for (int v = 0; v < s->nv; v++) {
        const double x[3] = {s->v[v].x, s->v[v].y, s->v[v].z};
        if (!near(pdist(a, x), pdist(b, x), 1e-3))
            return 0;
    }
    return 1;
}

/* The bake drops a plane that a kept one matches within GEOM_NEAR_PLANE at every vertex
 * (geom.h); the trace keeps both. Such a trace plane counts as the bake's. */
static int merged_over(const blvl_Plane *a, const blvl_Plane *b, const shape *s) {
    if (a->normal.x * b->normal.x + a->normal.y * b->normal.y + a->normal.z * b->normal.z < 0.999)
        return 0;
    for (int v = 0; v < s->nv; v++) {
        const double x[3] = {s->v[v].x, s->v[v].y, s->v[v].z};
        if (!near(pdist(a, x), pdist(b, x), GEOM_NEAR_PLANE + 1e-3))
            return 0;
    }
    return 1;
}

static void test_against_trace(void) {
    int compared = 0;
    for (int round = 0; round < 300; round++) {
        double r[3][3], c[3] = {rnd_in(-64, 64), rnd_in(-64, 64), rnd_in(-64, 64)};
        double h[3] = {rnd_in(4, 64), rnd_in(4, 64), rnd_in(4, 64)};
        if (round % 3 == 0) /* about one axis only, the common case in maps */
            rot_euler(rnd_in(-3.2, 3.2), 0, 0, r);
        else
            rot_euler(rnd_in(-3.2, 3.2), rnd_in(-1.5, 1.5), rnd_in(-3.2, 3.2), r);
        shape hull;
        shape_box(&hull, c, h, r, 0);
        blvl_Plane p[6];
        for (int k = 0; k < 3; k++)
            for (int sg = 0; sg < 2; sg++) {
                double n[3] = {r[0][k], r[1][k], r[2][k]};
                if (sg)
                    n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
                p[2 * k + sg] = P(n[0], n[1], n[2], n[0] * c[0] + n[1] * c[1] + n[2] * c[2] + h[k]);
            }
        bake_shape s;
        bool empty;
        blvl_error err;
        CHECK_EQ_INT(blvl__bake_convex_shape_brush(NULL, p, 6, &s, &empty, &err), BLVL_OK);
        CHECK(!empty);
        geom_vec tp;
        blvl__geom_vec_init(&tp, sizeof(blvl_Plane));
        tw_hull_in in = {hull.v,   (uint32_t)hull.nv, hull.sizes, (uint32_t)hull.nf,
                         hull.idx, (uint32_t)hull.ni};
        float lo[3], hi[3];
        int usable = 0;
        CHECK_EQ_INT(blvl__trace_expand_hull(NULL, &in, &tp, NULL, NULL, lo, hi, &usable,
                                             ignore_report, NULL),
                     BLVL_OK);
        CHECK(usable);
        /* the same set: each plane of one within 1e-4 of a plane of the other */
        /* Normals within 1e-4; distances where it matters, at the box's corners (within 1e-3
         * qu): the trace is given float corners, and a bevel off an edge nearly along an axis
         * turns their rounding (4e-6 qu here) into a normal a few 1e-6 apart, which moves the
         * plane's distance from the origin by more than 1e-4. The trace may hold a plane twice:
         * it compares float normals as they are (geom.h). */
        int same = 1;
        for (int dir = 0; dir < 2 && same; dir++) {
            const blvl_Plane *a = dir ? (const blvl_Plane *)tp.data : s.planes;
            const blvl_Plane *b = dir ? s.planes : (const blvl_Plane *)tp.data;
            size_t na = dir ? tp.len : s.plane_count, nb = dir ? s.plane_count : tp.len;
            for (size_t i = 0; i < na; i++) {
                int found = 0;
                for (size_t j = 0; j < nb && !found; j++)
                    found = near(a[i].normal.x, b[j].normal.x, 1e-4) &&
                            near(a[i].normal.y, b[j].normal.y, 1e-4) &&
                            near(a[i].normal.z, b[j].normal.z, 1e-4) &&
                            same_over(&a[i], &b[j], &hull);
                for (size_t j = 0; j < nb && !found && dir; j++)
                    found = merged_over(&a[i], &b[j], &hull);
                if (!found && getenv("DBG"))
                    for (size_t j = 0; j < nb; j++)
                        if (a[i].normal.x * b[j].normal.x + a[i].normal.y * b[j].normal.y +
                                a[i].normal.z * b[j].normal.z >
                            0.999)
                            fprintf(stderr, "    near %.7f %.7f %.7f %.5f\n", b[j].normal.x,
                                    b[j].normal.y, b[j].normal.z, b[j].dist);
                if (!found && getenv("DBG"))
                    fprintf(stderr, "   dir %d unmatched %.7f %.7f %.7f %.5f\n", dir, a[i].normal.x,
                            a[i].normal.y, a[i].normal.z, a[i].dist);
                same &= found;
            }
        }
        if (!same) {
            fprintf(stderr, "  round %d: bake %u planes, trace %zu\n", round, s.plane_count,
                    tp.len);
            if (getenv("DBG")) {
                for (uint32_t i = 0; i < s.plane_count; i++)
                    fprintf(stderr, "   B %.7f %.7f %.7f %.5f\n", s.planes[i].normal.x,
                            s.planes[i].normal.y, s.planes[i].normal.z, s.planes[i].dist);
                for (size_t i = 0; i < tp.len; i++) {
                    const blvl_Plane *q = (const blvl_Plane *)tp.data + i;
                    fprintf(stderr, "   T %.7f %.7f %.7f %.5f\n", q->normal.x, q->normal.y,
                            q->normal.z, q->dist);
                }
                for (int v = 0; v < 8; v++)
                    fprintf(stderr, "   V %.5f %.5f %.5f\n", hull.v[v].x, hull.v[v].y, hull.v[v].z);
            }
        }
        CHECK(same);
        compared += same;
        CHECK(near(s.lo.x, lo[0], 1e-3) && near(s.hi.y, hi[1], 1e-3));
        blvl__geom_vec_free(NULL, &tp);
        blvl__bake_convex_shape_free(NULL, &s);
    }
    printf("test_bake_shapes: %d rotated boxes match the trace's expansion\n", compared);
}

/* ---- every allocation through the caller's allocator, freed with its size; each one failing
 * in turn gives BLVL_E_NOMEM and leaks nothing ---- */

typedef struct track {
    int allocs, fail_at; /* fail the allocation numbered fail_at (from 0); -1 = never */
    int live, bad_size;
    void *ptr[4096];
    size_t size[4096];
} track;

static void *t_alloc(void *u, size_t n) {
    track *t = u;
    if (t->allocs++ == t->fail_at || t->live >= 4096)
        return NULL;
    void *p = malloc(n);
    if (p) {
        t->ptr[t->live] = p;
        t->size[t->live++] = n;
    }
    return p;
}

static void t_free(void *u, void *p, size_t n) {
    track *t = u;
    for (int i = 0; i < t->live; i++)
        if (t->ptr[i] == p) {
            t->bad_size += t->size[i] != n;
            t->ptr[i] = t->ptr[--t->live];
            t->size[i] = t->size[t->live];
            free(p);
            return;
        }
    t->bad_size++; /* not ours */
}

/* Runs f with allocation k failing for every k until one run needs no failure. */
static void each_failure(const char *what, blvl_status (*f)(const blvl_allocator *, bake_shape *)) {
    static track t;
    int runs = 0, ok_nomem = 1;
    for (int k = 0;; k++) {
        memset(&t, 0, sizeof t);
        t.fail_at = k;
        blvl_allocator al = {t_alloc, t_free, &t};
        bake_shape s;
        blvl_status st = f(&al, &s);
        if (st == BLVL_OK)
            blvl__bake_convex_shape_free(&al, &s);
        else
            ok_nomem &= st == BLVL_E_NOMEM && s.plane_count == 0 && s.vertex_count == 0;
        CHECK(t.live == 0 && t.bad_size == 0);
        runs++;
        if (t.allocs <= k) /* nothing failed: every allocation was tried */
            break;
    }
    CHECK(ok_nomem);
    CHECK(runs >= 2); /* at least one allocation, and it failed once */
    printf("test_bake_shapes: %s: %d allocation failures, all clean\n", what, runs - 1);
}

static blvl_status f_brush(const blvl_allocator *al, bake_shape *s) {
    blvl_Plane p[7];
    cube64(p);
    p[6] = P(1, 1, 1, 64);
    bool e;
    return blvl__bake_convex_shape_brush(al, p, 7, s, &e, NULL);
}

static blvl_status f_hull(const blvl_allocator *al, bake_shape *s) {
    blvl_Vec3 v[20];
    for (int i = 0; i < 20; i++)
        v[i] = (blvl_Vec3){(float)((i * 37) % 64), (float)((i * 11) % 64), (float)((i * 23) % 64)};
    bool e;
    return blvl__bake_convex_shape_hull(al, v, 20, s, &e, NULL);
}

static blvl_status f_triangle(const blvl_allocator *al, bake_shape *s) {
    const blvl_Vec3 tri[3] = {{0, 0, 0}, {64, 0, 0}, {0, 64, 0}};
    bool e;
    return blvl__bake_convex_shape_triangle(al, tri, 4, s, &e, NULL);
}

static blvl_status f_box(const blvl_allocator *al, bake_shape *s) {
    bool e;
    return blvl__bake_convex_shape_box(al, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){8, 8, 8}, s, &e, NULL);
}

static blvl_status f_polygons(const blvl_allocator *al, bake_shape *s) {
    blvl_Plane p[7];
    cube64(p);
    p[6] = P(1, 1, 1, 64);
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.allocator = *al;
    blvl_bake_polygons poly;
    memset(s, 0, sizeof *s);
    blvl_status st = blvl_bake_brush_polygons(&poly, p, 7, &opt, NULL);
    if (st == BLVL_OK)
        blvl_bake_polygons_free(&poly);
    return st;
}

static void test_allocation(void) {
    each_failure("brush", f_brush);
    each_failure("hull", f_hull);
    each_failure("triangle", f_triangle);
    each_failure("box", f_box);
    each_failure("polygons", f_polygons);
}

int main(void) {
    test_axial_box();
    test_ramp();
    test_wedge();
    test_rotated_box();
    test_degenerate_brushes();
    test_hulls();
    test_triangle();
    test_merge_boxes();
    test_mesh_is_convex();
    test_random_brushes();
    test_against_trace();
    test_allocation();
    return check_report("test_bake_shapes");
}
