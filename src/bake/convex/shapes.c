/* Collider shapes of brushes, triangles and boxes (hulls: hull.c). Rules: docs/BAKE.md,
 * "Colliders". */
#include <math.h>
#include <string.h>

#include "bake/convex/faces.h"
#include "bake/convex/shapes.h"
#include "common/alloc.h"
#include "common/error.h"
#include "geom/geom.h"

size_t blvl__bake_convex_shape_packed_size(uint32_t vertex_count, uint32_t face_count,
                                           uint32_t face_index_count) {
    return (size_t)vertex_count * sizeof(blvl_Vec3) +
           ((size_t)face_count + face_index_count) * sizeof(uint32_t);
}

void blvl__bake_convex_shape_free(const blvl_allocator *al, bake_shape *s) {
    if (s->arena) {
        memset(s, 0, sizeof *s);
        return;
    }
    if (s->packed) {
        blvl__dealloc(al, s->vertices,
                      blvl__bake_convex_shape_packed_size(s->vertex_count, s->face_count,
                                                          s->face_index_count));
        memset(s, 0, sizeof *s);
        return;
    }
    blvl__dealloc(al, s->planes, (size_t)s->plane_count * sizeof s->planes[0]);
    blvl__dealloc(al, s->vertices, (size_t)s->vertex_count * sizeof s->vertices[0]);
    blvl__dealloc(al, s->face_sizes, (size_t)s->face_count * sizeof s->face_sizes[0]);
    blvl__dealloc(al, s->face_indices, (size_t)s->face_index_count * sizeof s->face_indices[0]);
    memset(s, 0, sizeof *s);
}

/* Copy n elements into a new exact-size array (NULL for none). 0 when out of memory. */
static int copy_out(const blvl_allocator *al, void **dst, const void *src, size_t n, size_t elem) {
    *dst = NULL;
    if (!n)
        return 1;
    *dst = blvl__calloc_n(al, n, elem);
    if (!*dst)
        return 0;
    memcpy(*dst, src, n * elem);
    return 1;
}

uint32_t blvl__bake_convex_weld(const double (*pts)[3], uint32_t n, double (*uniq)[3],
                                uint32_t *map) {
    uint32_t u = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        for (; j < u; j++) {
            double d[3] = {pts[i][0] - uniq[j][0], pts[i][1] - uniq[j][1], pts[i][2] - uniq[j][2]};
            if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= BAKE_WELD * BAKE_WELD)
                break;
        }
        if (j == u)
            memcpy(uniq[u++], pts[i], sizeof uniq[0]);
        map[i] = j;
    }
    return u;
}

/* The brush's planes after its faces: own face planes, the axial planes it lacks, the bevels. */
static blvl_status brush_planes(const blvl_allocator *al, const bake_faces *f, bake_shape *out) {
    blvl_status st = BLVL_E_NOMEM;
    uint32_t n = f->point_count;
    double(*v)[3] = blvl__calloc_n(al, n, sizeof v[0]);
    uint32_t *map = blvl__calloc_n(al, n, sizeof map[0]);
    geom_vec planes, edges;
    blvl__geom_vec_init(&planes, sizeof(blvl_Plane));
    blvl__geom_vec_init(&edges, sizeof(geom_edge));
    if (!v || !map)
        goto done;
    uint32_t nv = blvl__bake_convex_weld((const double(*)[3])f->pts, n, v, map);
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double scale = 1.0;
    for (uint32_t i = 0; i < nv; i++)
        for (int k = 0; k < 3; k++) {
            lo[k] = v[i][k] < lo[k] ? v[i][k] : lo[k];
            hi[k] = v[i][k] > hi[k] ? v[i][k] : hi[k];
            scale = fabs(v[i][k]) > scale ? fabs(v[i][k]) : scale;
        }
    double extent = 0;
    for (int k = 0; k < 3; k++)
        extent = hi[k] - lo[k] > extent ? hi[k] - lo[k] : extent;
    geom_planes pl = {al, &planes, 0, blvl__geom_tolerance(scale), 1, (const double *)v, nv};
    uint32_t at = 0;
    for (uint32_t i = 0; i < f->count; i++) {
        uint32_t sz = f->sizes[i];
        if (!sz)
            continue;
        if (!blvl__geom_add_plane(&pl, f->planes[i], f->planes[i][3]))
            goto done;
        for (uint32_t c = 0; c < sz; c++) {
            geom_edge e = {map[at + c], map[at + (c + 1) % sz]};
            if (e.a > e.b) {
                uint32_t t = e.a;
                e.a = e.b;
                e.b = t;
            }
            if (e.a != e.b && !blvl__geom_vec_push(al, &edges, &e))
                goto done;
        }
        at += sz;
    }
    if (!blvl__geom_add_axial(&pl, lo, hi) ||
        !blvl__geom_add_bevels(&pl, (const double *)v, nv, &edges, extent))
        goto done;
    if (planes.len > UINT32_MAX ||
        !copy_out(al, (void **)&out->planes, planes.data, planes.len, sizeof(blvl_Plane)))
        goto done;
    out->kind = blvl_Shape_Planes;
    out->plane_count = (uint32_t)planes.len;
    out->lo = (blvl_Vec3){(float)lo[0], (float)lo[1], (float)lo[2]};
    out->hi = (blvl_Vec3){(float)hi[0], (float)hi[1], (float)hi[2]};
    st = BLVL_OK;
done:
    blvl__geom_vec_free(al, &edges);
    blvl__geom_vec_free(al, &planes);
    blvl__dealloc(al, map, (size_t)n * sizeof map[0]);
    blvl__dealloc(al, v, (size_t)n * sizeof v[0]);
    return st;
}

blvl_status blvl__bake_convex_shape_brush(const blvl_allocator *al, const blvl_Plane *planes,
                                          uint32_t plane_count, bake_shape *out, bool *empty,
                                          blvl_error *err) {
    memset(out, 0, sizeof *out);
    *empty = true;
    bake_faces f;
    blvl_status st = blvl__bake_convex_brush_faces(al, planes, plane_count, &f, err);
    if (st != BLVL_OK)
        return st;
    if (f.state == BAKE_FACES_OK) {
        st = brush_planes(al, &f, out);
        if (st != BLVL_OK)
            blvl__nomem(err, "brush: its planes");
        else
            *empty = false;
    }
    blvl__bake_convex_brush_faces_free(al, &f);
    return st;
}

static int finite3(blvl_Vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

blvl_status blvl__bake_convex_shape_box_at(blvl_Vec3 lo, blvl_Vec3 hi, blvl_Plane *planes,
                                           bake_shape *out, bool *empty, blvl_error *err) {
    memset(out, 0, sizeof *out);
    *empty = true;
    if (!finite3(lo) || !finite3(hi))
        return blvl__fail(err, BLVL_E_ARGUMENT, "box: a corner is not finite");
    if (!(hi.x - lo.x >= BAKE_FLAT && hi.y - lo.y >= BAKE_FLAT && hi.z - lo.z >= BAKE_FLAT))
        return BLVL_OK;
    const blvl_Plane p[6] = {{{1, 0, 0}, hi.x},   {{-1, 0, 0}, -lo.x}, {{0, 1, 0}, hi.y},
                             {{0, -1, 0}, -lo.y}, {{0, 0, 1}, hi.z},   {{0, 0, -1}, -lo.z}};
    memcpy(planes, p, sizeof p);
    out->planes = planes;
    out->kind = blvl_Shape_Planes;
    out->plane_count = 6;
    out->lo = lo;
    out->hi = hi;
    *empty = false;
    return BLVL_OK;
}

blvl_status blvl__bake_convex_shape_box(const blvl_allocator *al, blvl_Vec3 lo, blvl_Vec3 hi,
                                        bake_shape *out, bool *empty, blvl_error *err) {
    blvl_Plane p[6];
    blvl_status st = blvl__bake_convex_shape_box_at(lo, hi, p, out, empty, err);
    if (st != BLVL_OK || *empty)
        return st;
    if (!copy_out(al, (void **)&out->planes, p, 6, sizeof p[0])) {
        memset(out, 0, sizeof *out);
        return blvl__nomem(err, "box: its planes");
    }
    return BLVL_OK;
}

blvl_status blvl__bake_convex_shape_triangle(const blvl_allocator *al, const blvl_Vec3 tri[3],
                                             float thickness, bake_shape *out, bool *empty,
                                             blvl_error *err) {
    memset(out, 0, sizeof *out);
    *empty = true;
    if (!finite3(tri[0]) || !finite3(tri[1]) || !finite3(tri[2]) || !isfinite(thickness))
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "triangle: a corner or the thickness is not finite");
    double p[3][3];
    for (int i = 0; i < 3; i++) {
        p[i][0] = tri[i].x;
        p[i][1] = tri[i].y;
        p[i][2] = tri[i].z;
    }
    double e1[3], e2[3], n[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = p[1][k] - p[0][k];
        e2[k] = p[2][k] - p[0][k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double a2 = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]); /* twice the area */
    /* Degenerate: some corner within BAKE_WELD of the line through the other two (its height,
     * a2 / the longest side, is below the weld distance), or no thickness. */
    double longest = 0;
    for (int i = 0; i < 3; i++) {
        const double *a = p[i], *b = p[(i + 1) % 3];
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        longest = l > longest ? l : longest;
    }
    if (!(longest > 0) || a2 / longest < BAKE_WELD || !(thickness >= BAKE_FLAT))
        return BLVL_OK;
    for (int k = 0; k < 3; k++)
        n[k] /= a2;
    blvl_Vec3 v[6];
    for (int i = 0; i < 3; i++) {
        v[i] = tri[i];
        v[i + 3] =
            (blvl_Vec3){(float)(p[i][0] - n[0] * thickness), (float)(p[i][1] - n[1] * thickness),
                        (float)(p[i][2] - n[2] * thickness)};
    }
    /* Front as given, back reversed, and each side walks its front edge the other way. */
    const uint32_t sizes[5] = {3, 3, 4, 4, 4};
    const uint32_t idx[18] = {0, 1, 2, 3, 5, 4, 1, 0, 3, 4, 2, 1, 4, 5, 0, 2, 5, 3};
    if (!copy_out(al, (void **)&out->vertices, v, 6, sizeof v[0]) ||
        !copy_out(al, (void **)&out->face_sizes, sizes, 5, sizeof sizes[0]) ||
        !copy_out(al, (void **)&out->face_indices, idx, 18, sizeof idx[0])) {
        blvl__dealloc(al, out->vertices, 6 * sizeof v[0]);
        blvl__dealloc(al, out->face_sizes, 5 * sizeof sizes[0]);
        memset(out, 0, sizeof *out);
        return blvl__nomem(err, "triangle: its prism");
    }
    out->kind = blvl_Shape_Hull;
    out->vertex_count = 6;
    out->face_count = 5;
    out->face_index_count = 18;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < 6; i++) {
        const float c[3] = {v[i].x, v[i].y, v[i].z};
        for (int k = 0; k < 3; k++) {
            lo[k] = c[k] < lo[k] ? c[k] : lo[k];
            hi[k] = c[k] > hi[k] ? c[k] : hi[k];
        }
    }
    out->lo = (blvl_Vec3){lo[0], lo[1], lo[2]};
    out->hi = (blvl_Vec3){hi[0], hi[1], hi[2]};
    *empty = false;
    return BLVL_OK;
}
