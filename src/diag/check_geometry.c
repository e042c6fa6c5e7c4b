/* The world mesh: batch ranges and order, vertex indices, degenerate triangles, normals and
 * tangent signs. */
#include <math.h>

#include "diag/diag_internal.h"

#define NORMAL_TOLERANCE 0.01 /* |length - 1|: a float normal rounded from double is far closer */
#define MIN_AREA2 1e-12       /* squared doubled area, qu^4: below it a triangle draws nothing */

static void batches(diag_run *d) {
    uint32_t nb = blvl_Geometry_batches_len(d->geo), ni = blvl_Geometry_indices_len(d->geo);
    uint32_t nm = blvl_Geometry_materials_len(d->geo);
    /* docs/BAKE.md: ordered by (translucent = blend not Opaque, sort key) */
    int prev_tr = 0;
    float prev = -INFINITY;
    uint32_t prev_batch = 0;
    for (uint32_t i = 0; i < nb && !d->stop; i++) {
        blvl_Batch b = blvl_Geometry_batches_at(d->geo, i);
        uint64_t first = blvl_Batch_first_index(b), count = blvl_Batch_index_count(b);
        if (first + count > ni)
            blvl__diag_emit(d, DG_BATCH_RANGE, "geometry.batches", i, DG_SRC_BATCH, i,
                            "indices %llu..%llu past the %u indices", (unsigned long long)first,
                            (unsigned long long)(first + count), ni);
        else if (first % 3 || count % 3)
            blvl__diag_emit(d, DG_BATCH_RANGE, "geometry.batches", i, DG_SRC_BATCH, i,
                            "first_index %llu or index_count %llu is not a multiple of 3",
                            (unsigned long long)first, (unsigned long long)count);
        uint32_t m = blvl_Batch_material(b);
        if (m >= nm)
            continue; /* D0001's business; its sort key is unknown */
        blvl_Material mat = blvl_Geometry_materials_at(d->geo, m);
        float sort = blvl_Material_sort(mat);
        int tr = blvl_Material_blend(mat) != blvl_BlendMode_Opaque;
        if (tr < prev_tr || (tr == prev_tr && sort < prev))
            blvl__diag_emit(d, DG_BATCH_ORDER, "geometry.batches", i, DG_SRC_BATCH, i,
                            "material %u (%s, sort %g) comes after batch %u (%s, sort %g)", m,
                            tr ? "blended" : "opaque", (double)sort, prev_batch,
                            prev_tr ? "blended" : "opaque", (double)prev);
        if (sort == sort) {
            prev = sort;
            prev_tr = tr;
            prev_batch = i;
        }
    }
}

static void triangles(diag_run *d) {
    uint32_t ni = blvl_Geometry_indices_len(d->geo), nv = blvl_Geometry_vertices_len(d->geo);
    if (ni % 3)
        blvl__diag_emit(d, DG_INDEX_RANGE, "geometry.indices", BLVL_DIAG_NONE, DG_SRC_NONE, 0,
                        "%u indices is not a whole number of triangles", ni);
    for (uint32_t t = 0; t + 3 <= ni && !d->stop; t += 3) {
        uint32_t v[3];
        bool ok = true;
        for (int k = 0; k < 3; k++) {
            v[k] = blvl_Geometry_indices_at(d->geo, t + (uint32_t)k);
            if (v[k] >= nv) {
                ok = false;
                blvl__diag_emit(
                    d, DG_INDEX_RANGE, "geometry.indices", t + (uint32_t)k, DG_SRC_TRIANGLE, t / 3,
                    "triangle %u: vertex %u out of range (%u vertices)", t / 3, v[k], nv);
            }
        }
        if (!ok || !d->on[DG_DEGENERATE])
            continue;
        if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) {
            blvl__diag_emit(d, DG_DEGENERATE, "geometry.indices", t, DG_SRC_TRIANGLE, t / 3,
                            "triangle %u repeats a vertex (%u %u %u)", t / 3, v[0], v[1], v[2]);
            continue;
        }
        blvl_Vec3 p[3];
        for (int k = 0; k < 3; k++)
            p[k] = blvl_Geometry_vertices_at(d->geo, v[k]).position;
        double a[3] = {p[1].x - p[0].x, p[1].y - p[0].y, p[1].z - p[0].z};
        double b[3] = {p[2].x - p[0].x, p[2].y - p[0].y, p[2].z - p[0].z};
        double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                       a[0] * b[1] - a[1] * b[0]};
        double area2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        if (area2 <= MIN_AREA2) /* NaN positions are D0017's */
            blvl__diag_emit(d, DG_DEGENERATE, "geometry.indices", t, DG_SRC_TRIANGLE, t / 3,
                            "triangle %u has zero area", t / 3);
    }
}

static void vertices(diag_run *d) {
    uint32_t nv = blvl_Geometry_vertices_len(d->geo);
    for (uint32_t i = 0; i < nv && !d->stop; i++) {
        blvl_Vertex v = blvl_Geometry_vertices_at(d->geo, i);
        double l = sqrt((double)v.normal.x * v.normal.x + (double)v.normal.y * v.normal.y +
                        (double)v.normal.z * v.normal.z);
        if (d->on[DG_NORMAL_UNIT] && fabs(l - 1) > NORMAL_TOLERANCE && l == l)
            blvl__diag_emit(d, DG_NORMAL_UNIT, "geometry.vertices", i, DG_SRC_NONE, 0,
                            "normal (%g %g %g) has length %g", (double)v.normal.x,
                            (double)v.normal.y, (double)v.normal.z, l);
        int w = v.tangent.w;
        if (w != 32767 && w != -32767 && w != -32768)
            blvl__diag_emit(d, DG_TANGENT_SIGN, "geometry.vertices", i, DG_SRC_NONE, 0,
                            "tangent w is %d (snorm16 %g), not +1 or -1", w, w / 32767.0);
    }
}

void blvl__diag_check_geometry(diag_run *d) {
    if (blvl__diag_any(d, DG_BATCH_RANGE, DG_BATCH_ORDER))
        batches(d);
    if (blvl__diag_any(d, DG_INDEX_RANGE, DG_DEGENERATE))
        triangles(d);
    if (d->on[DG_NORMAL_UNIT] || d->on[DG_TANGENT_SIGN])
        vertices(d);
}
