/* blvl_bake_mesh_is_convex: whether one hull of a mesh's vertices stands for the mesh. Edges are
 * matched by sorting (memory from the given allocator; the public call, which has no options,
 * uses the default); when that memory is not there, by a quadratic scan, so the answer never
 * depends on memory. */
#include <math.h>
#include <stdlib.h>

#include "bake/convex/convex.h"
#include "bake/convex/faces.h"
#include "common/alloc.h"

typedef struct dedge {
    uint32_t a, b;
} dedge;

static int dedge_cmp(const void *p, const void *q) {
    const dedge *x = p, *y = q;
    if (x->a != y->a)
        return (x->a > y->a) - (x->a < y->a);
    return (x->b > y->b) - (x->b < y->b);
}

/* Occurrences of (a, b) in the sorted list. */
static size_t count_sorted(const dedge *e, size_t n, uint32_t a, uint32_t b) {
    dedge key = {a, b};
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (dedge_cmp(&e[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t c = 0;
    while (lo + c < n && e[lo + c].a == a && e[lo + c].b == b)
        c++;
    return c;
}

/* Every directed edge once, and its reverse once. */
static int closed(const blvl_allocator *al, const uint32_t *sizes, uint32_t poly_count,
                  const uint32_t *indices, uint32_t index_count) {
    dedge *e = blvl__calloc_n(al, index_count, sizeof *e);
    size_t n = 0;
    for (uint32_t f = 0, at = 0; f < poly_count; at += sizes[f], f++)
        for (uint32_t i = 0; i < sizes[f]; i++) {
            dedge d = {indices[at + i], indices[at + (i + 1) % sizes[f]]};
            if (d.a == d.b)
                goto no;
            if (e)
                e[n++] = d;
        }
    if (e) {
        qsort(e, n, sizeof *e, dedge_cmp);
        for (size_t i = 0; i < n; i++)
            if ((i && dedge_cmp(&e[i], &e[i - 1]) == 0) || count_sorted(e, n, e[i].b, e[i].a) != 1)
                goto no;
        blvl__dealloc(al, e, (size_t)index_count * sizeof *e);
        return 1;
    }
    /* Quadratic: count each edge and its reverse over every polygon. */
    for (uint32_t f = 0, at = 0; f < poly_count; at += sizes[f], f++)
        for (uint32_t i = 0; i < sizes[f]; i++) {
            uint32_t a = indices[at + i], b = indices[at + (i + 1) % sizes[f]];
            size_t same = 0, back = 0;
            for (uint32_t g = 0, bt = 0; g < poly_count; bt += sizes[g], g++)
                for (uint32_t j = 0; j < sizes[g]; j++) {
                    uint32_t c = indices[bt + j], d = indices[bt + (j + 1) % sizes[g]];
                    same += c == a && d == b;
                    back += c == b && d == a;
                }
            if (same != 1 || back != 1)
                return 0;
        }
    return 1;
no:
    blvl__dealloc(al, e, (size_t)index_count * sizeof *e);
    return 0;
}

bool blvl__bake_convex_mesh_is_convex(const blvl_allocator *al, const blvl_Vec3 *vertices,
                                      uint32_t vertex_count, const uint32_t *sizes,
                                      uint32_t poly_count, const uint32_t *indices,
                                      uint32_t index_count) {
    if (!vertices || !sizes || !indices || vertex_count < 4 || poly_count < 4)
        return false;
    uint64_t total = 0;
    for (uint32_t f = 0; f < poly_count; f++) {
        if (sizes[f] < 3)
            return false;
        total += sizes[f];
    }
    if (total != index_count)
        return false;
    for (uint32_t i = 0; i < index_count; i++)
        if (indices[i] >= vertex_count)
            return false;
    for (uint32_t i = 0; i < vertex_count; i++)
        if (!isfinite(vertices[i].x) || !isfinite(vertices[i].y) || !isfinite(vertices[i].z))
            return false;
    if (!closed(al, sizes, poly_count, indices, index_count))
        return false;
    for (uint32_t f = 0, at = 0; f < poly_count; at += sizes[f], f++) {
        /* The polygon's plane: Newell's normal through its centre. */
        double n[3] = {0, 0, 0}, c[3] = {0, 0, 0};
        uint32_t sz = sizes[f];
        for (uint32_t i = 0; i < sz; i++) {
            const blvl_Vec3 *p = &vertices[indices[at + i]],
                            *q = &vertices[indices[at + (i + 1) % sz]];
            n[0] += ((double)p->y - q->y) * ((double)p->z + q->z);
            n[1] += ((double)p->z - q->z) * ((double)p->x + q->x);
            n[2] += ((double)p->x - q->x) * ((double)p->y + q->y);
            c[0] += p->x / (double)sz;
            c[1] += p->y / (double)sz;
            c[2] += p->z / (double)sz;
        }
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(l > 0))
            return false;
        double d = (n[0] * c[0] + n[1] * c[1] + n[2] * c[2]) / l;
        for (int k = 0; k < 3; k++)
            n[k] /= l;
        for (uint32_t i = 0; i < sz; i++) { /* planar */
            const blvl_Vec3 *p = &vertices[indices[at + i]];
            if (fabs(n[0] * p->x + n[1] * p->y + n[2] * p->z - d) > BAKE_FLAT)
                return false;
        }
        for (uint32_t i = 0; i < vertex_count; i++) { /* every vertex on or behind */
            const blvl_Vec3 *p = &vertices[i];
            if (n[0] * p->x + n[1] * p->y + n[2] * p->z - d > BAKE_FLAT)
                return false;
        }
    }
    return true;
}

bool blvl_bake_mesh_is_convex(const blvl_Vec3 *vertices, uint32_t vertex_count,
                              const uint32_t *sizes, uint32_t poly_count, const uint32_t *indices,
                              uint32_t index_count) {
    return blvl__bake_convex_mesh_is_convex(NULL, vertices, vertex_count, sizes, poly_count,
                                            indices, index_count);
}
