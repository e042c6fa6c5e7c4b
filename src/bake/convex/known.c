/* A Hull collider from corners and face loops the caller already knows to be convex (a prism
 * over a terrain cell, a merged rectangle): checked cheaply, then stored as given, without the
 * incremental hull. Everything the general hull (hull.c) would decide differently is a refusal
 * here, and the caller falls back to the general hull, so both paths give one solid:
 * - every corner finite, no two within BAKE_WELD (the hull would weld them), each used by a face;
 * - every edge shared by exactly two faces in opposite directions, and V - E + F = 2;
 * - each face planar (corners within BAKE_WELD of its Newell plane), its loop counter-clockwise
 *   seen from outside, no corner within BAKE_WELD of the line through its neighbours (the hull
 *   keeps no point on an edge), every other corner behind its plane;
 * - no two faces the hull would merge (normals within 1e-6 and corners within BAKE_WELD);
 * - every face plane with the solid at least BAKE_FLAT deep behind it. */
#include <math.h>
#include <string.h>

#include "bake/convex/faces.h"
#include "bake/convex/known.h"
#include "common/alloc.h"

static double dot3(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void sub3(const double a[3], const double b[3], double o[3]) {
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}

static void cross3(const double a[3], const double b[3], double o[3]) {
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* The checks above; plane[f] gets face f's unit outward normal and distance. */
static bool check(const double (*p)[3], uint32_t nv, const uint8_t *sizes, uint32_t nf,
                  const uint8_t *idx, double (*plane)[4]) {
    double scale = 1;
    for (uint32_t i = 0; i < nv; i++)
        for (int k = 0; k < 3; k++) {
            if (!isfinite(p[i][k]))
                return false;
            scale = fabs(p[i][k]) > scale ? fabs(p[i][k]) : scale;
        }
    const double eps = 1e-9 * scale; /* hull.c's "a point this far in front sees the face" */
    for (uint32_t i = 0; i < nv; i++)
        for (uint32_t j = i + 1; j < nv; j++) {
            double d[3];
            sub3(p[i], p[j], d);
            if (dot3(d, d) <= BAKE_WELD * BAKE_WELD)
                return false;
        }
    /* edges: each directed edge once, its reverse once */
    uint8_t count[BAKE_KNOWN_MAX][BAKE_KNOWN_MAX];
    uint16_t face_of[BAKE_KNOWN_MAX] = {0}; /* which faces hold each corner, one bit each */
    memset(count, 0, sizeof count);
    uint32_t total = 0, first[BAKE_KNOWN_MAX];
    for (uint32_t f = 0; f < nf; f++) {
        if (sizes[f] < 3 || total + sizes[f] > BAKE_KNOWN_MAX * 4u)
            return false;
        first[f] = total;
        for (uint32_t k = 0; k < sizes[f]; k++) {
            uint8_t a = idx[total + k], b = idx[total + (k + 1) % sizes[f]];
            if (a >= nv || b >= nv || (face_of[a] >> f & 1u))
                return false; /* out of range, or a corner twice in one loop */
            face_of[a] |= (uint16_t)(1u << f);
            if (++count[a][b] > 1)
                return false;
        }
        total += sizes[f];
    }
    for (uint32_t a = 0; a < nv; a++) {
        if (!face_of[a])
            return false;
        for (uint32_t b = 0; b < nv; b++)
            if (count[a][b] != count[b][a])
                return false;
    }
    if ((int64_t)nv - (int64_t)(total / 2) + (int64_t)nf != 2)
        return false;
    for (uint32_t f = 0; f < nf; f++) {
        const uint8_t *loop = idx + first[f];
        uint32_t n = sizes[f];
        double nrm[3] = {0, 0, 0}, c[3] = {0, 0, 0};
        for (uint32_t k = 0; k < n; k++) { /* Newell */
            const double *a = p[loop[k]], *b = p[loop[(k + 1) % n]];
            nrm[0] += (a[1] - b[1]) * (a[2] + b[2]);
            nrm[1] += (a[2] - b[2]) * (a[0] + b[0]);
            nrm[2] += (a[0] - b[0]) * (a[1] + b[1]);
            for (int j = 0; j < 3; j++)
                c[j] += a[j] / n;
        }
        double len = sqrt(dot3(nrm, nrm));
        if (!(len > 0))
            return false;
        for (int j = 0; j < 3; j++)
            plane[f][j] = nrm[j] / len;
        plane[f][3] = dot3(plane[f], c);
        double deep = 0;
        for (uint32_t i = 0; i < nv; i++) {
            double s = dot3(plane[f], p[i]) - plane[f][3];
            bool on = face_of[i] >> f & 1u;
            if (on ? fabs(s) > BAKE_WELD : s > eps)
                return false;
            deep = -s > deep ? -s : deep;
        }
        if (deep < BAKE_FLAT)
            return false;
        for (uint32_t k = 0; k < n; k++) { /* a convex corner, counter-clockwise, off the line */
            const double *a = p[loop[(k + n - 1) % n]], *b = p[loop[k]], *d = p[loop[(k + 1) % n]];
            double ab[3], bd[3], ad[3], x[3];
            sub3(b, a, ab);
            sub3(d, b, bd);
            sub3(d, a, ad);
            cross3(ab, bd, x);
            double lad = sqrt(dot3(ad, ad));
            if (!(lad > 0) || dot3(x, plane[f]) / lad <= BAKE_WELD)
                return false;
        }
    }
    for (uint32_t f = 0; f < nf; f++)
        for (uint32_t g = f + 1; g < nf; g++) {
            if (dot3(plane[f], plane[g]) < 1 - 1e-6)
                continue;
            bool near = true;
            for (uint32_t k = 0; k < sizes[g] && near; k++)
                near = fabs(dot3(plane[f], p[idx[first[g] + k]]) - plane[f][3]) <= BAKE_WELD;
            if (near)
                return false;
        }
    return true;
}

bool blvl__bake_convex_known_ok(const blvl_Vec3 *points, uint32_t point_count,
                                const uint8_t *face_sizes, uint32_t face_count,
                                const uint8_t *face_indices) {
    if (!points || !face_sizes || !face_indices || point_count < 4 ||
        point_count > BAKE_KNOWN_MAX || face_count < 4 || face_count > BAKE_KNOWN_MAX)
        return false;
    double p[BAKE_KNOWN_MAX][3], plane[BAKE_KNOWN_MAX][4];
    for (uint32_t i = 0; i < point_count; i++)
        p[i][0] = points[i].x, p[i][1] = points[i].y, p[i][2] = points[i].z;
    return check((const double(*)[3])p, point_count, face_sizes, face_count, face_indices, plane);
}

size_t blvl__bake_convex_known_size(uint32_t point_count, const uint8_t *face_sizes,
                                    uint32_t face_count) {
    uint32_t total = 0;
    for (uint32_t f = 0; f < face_count; f++)
        total += face_sizes[f];
    return blvl__bake_convex_shape_packed_size(point_count, face_count, total);
}

void blvl__bake_convex_known_fill(void *block, const blvl_Vec3 *points, uint32_t point_count,
                                  const uint8_t *face_sizes, uint32_t face_count,
                                  const uint8_t *face_indices, bake_shape *out) {
    memset(out, 0, sizeof *out);
    uint32_t total = 0;
    for (uint32_t f = 0; f < face_count; f++)
        total += face_sizes[f];
    /* vertices (12 bytes each, 4-aligned), then sizes, then indices */
    out->vertex_count = point_count;
    out->face_count = face_count;
    out->face_index_count = total;
    out->vertices = block;
    out->face_sizes = (uint32_t *)(void *)((uint8_t *)block + point_count * sizeof(blvl_Vec3));
    out->face_indices = out->face_sizes + face_count;
    blvl_Vec3 lo = points[0], hi = points[0];
    for (uint32_t i = 0; i < point_count; i++) {
        const blvl_Vec3 v = points[i];
        out->vertices[i] = v;
        lo.x = v.x < lo.x ? v.x : lo.x, hi.x = v.x > hi.x ? v.x : hi.x;
        lo.y = v.y < lo.y ? v.y : lo.y, hi.y = v.y > hi.y ? v.y : hi.y;
        lo.z = v.z < lo.z ? v.z : lo.z, hi.z = v.z > hi.z ? v.z : hi.z;
    }
    for (uint32_t f = 0; f < face_count; f++)
        out->face_sizes[f] = face_sizes[f];
    for (uint32_t q = 0; q < total; q++)
        out->face_indices[q] = face_indices[q];
    out->kind = blvl_Shape_Hull;
    out->lo = lo;
    out->hi = hi;
}

blvl_status blvl__bake_convex_shape_known(const blvl_allocator *al, const blvl_Vec3 *points,
                                          uint32_t point_count, const uint8_t *face_sizes,
                                          uint32_t face_count, const uint8_t *face_indices,
                                          bake_shape *out, bool *known) {
    memset(out, 0, sizeof *out);
    *known = false;
    if (!blvl__bake_convex_known_ok(points, point_count, face_sizes, face_count, face_indices))
        return BLVL_OK;
    void *block =
        blvl__alloc(al, blvl__bake_convex_known_size(point_count, face_sizes, face_count));
    if (!block)
        return BLVL_E_NOMEM;
    blvl__bake_convex_known_fill(block, points, point_count, face_sizes, face_count, face_indices,
                                 out);
    out->packed = true;
    *known = true;
    return BLVL_OK;
}
