/* Hull expansion: the planes a swept-box trace needs from a hull's vertices and face loops.
 *
 * Each face's plane is read off the loop's own area (Newell's method). A loop listed corner by
 * corner crosses itself and encloses (almost) nothing, so every loop is also wound around its
 * face by angle; when the given order encloses less area than that winding, the winding is used.
 * Faces are oriented away from the hull's centre (the solid is convex), so either winding
 * convention works. Then the six axial planes and, for every edge crossed with each box axis,
 * the bevel plane where it bounds the solid (every vertex behind it). Computed in double. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

typedef struct angle_item {
    double angle;
    uint32_t index;
} angle_item;

static int angle_cmp(const void *a, const void *b) {
    const angle_item *x = a, *y = b;
    if (x->angle < y->angle)
        return -1;
    if (x->angle > y->angle)
        return 1;
    return (x->index > y->index) - (x->index < y->index);
}

static double dot3(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double o[3]) {
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static double len3(const double a[3]) {
    return sqrt(dot3(a, a));
}

/* Newell's method: twice the loop's vector area. */
static void newell(const double *pts, const uint32_t *loop, uint32_t n, double out[3]) {
    out[0] = out[1] = out[2] = 0;
    for (uint32_t i = 0; i < n; i++) {
        const double *p = pts + 3 * (size_t)loop[i];
        const double *q = pts + 3 * (size_t)loop[(i + 1) % n];
        out[0] += (p[1] - q[1]) * (p[2] + q[2]);
        out[1] += (p[2] - q[2]) * (p[0] + q[0]);
        out[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
}

typedef struct expander {
    const blvl_allocator *al;
    geom_planes pl; /* this hull's planes, and the distance tolerance (units) */
    double tol;
    /* The hull, in double, and what the face pass hands the bevels. */
    const double *pts;
    uint32_t nv;
    double centre[3];
    double extent; /* the widest side of the bounds */
    double tiny_area;
    uint32_t *loop;    /* scratch: one face's re-wound loop */
    angle_item *items; /* scratch: its corners by angle */
    geom_vec edges;    /* every face edge, low index first */
    tw_report_fn report;
    void *ru;
} expander;

/* One face's plane, its loop (when asked for) and its edges. A face that gives no plane is
 * reported and skipped. Returns 0 only when out of memory. */
static int add_face(expander *x, uint32_t f, const uint32_t *idx, uint32_t sz, geom_vec *loop_sizes,
                    geom_vec *loop_indices) {
    const double *pts = x->pts;
    uint32_t *loop = x->loop;
    angle_item *items = x->items;
    if (sz < 3) {
        x->report(x->ru, f, "face has fewer than three corners");
        return 1;
    }
    int bad = 0;
    for (uint32_t i = 0; i < sz; i++)
        bad |= idx[i] >= x->nv;
    if (bad) {
        x->report(x->ru, f, "face names a vertex index out of range");
        return 1;
    }
    /* An order-independent plane: the widest triangle found greedily. */
    const double *a = pts + 3 * (size_t)idx[0];
    uint32_t bi = idx[0], ci = idx[0];
    double best = 0, ab[3], n0[3];
    for (uint32_t i = 1; i < sz; i++) {
        const double *p = pts + 3 * (size_t)idx[i];
        double dv[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
        double l = dot3(dv, dv);
        if (l > best)
            best = l, bi = idx[i];
    }
    const double *b = pts + 3 * (size_t)bi;
    for (int k = 0; k < 3; k++)
        ab[k] = b[k] - a[k];
    best = 0;
    for (uint32_t i = 0; i < sz; i++) {
        const double *p = pts + 3 * (size_t)idx[i];
        double ac[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]}, c[3];
        cross3(ab, ac, c);
        double l = len3(c);
        if (l > best)
            best = l, ci = idx[i];
    }
    if (best <= x->tiny_area || bi == idx[0] || ci == idx[0]) {
        x->report(x->ru, f, "face corners coincident or collinear: the loop encloses no area");
        return 1;
    }
    {
        const double *c = pts + 3 * (size_t)ci;
        double ac[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        cross3(ab, ac, n0);
    }
    /* Wind the corners around the face centre by angle. */
    double fc[3] = {0, 0, 0}, u[3], v[3];
    for (uint32_t i = 0; i < sz; i++)
        for (int k = 0; k < 3; k++)
            fc[k] += pts[3 * (size_t)idx[i] + k] / sz;
    double lab = len3(ab), ln0 = len3(n0);
    for (int k = 0; k < 3; k++) {
        u[k] = ab[k] / lab;
        n0[k] /= ln0;
    }
    cross3(n0, u, v);
    for (uint32_t i = 0; i < sz; i++) {
        const double *p = pts + 3 * (size_t)idx[i];
        double r[3] = {p[0] - fc[0], p[1] - fc[1], p[2] - fc[2]};
        items[i].angle = atan2(dot3(r, v), dot3(r, u));
        items[i].index = idx[i];
    }
    qsort(items, sz, sizeof *items, angle_cmp);
    for (uint32_t i = 0; i < sz; i++)
        loop[i] = items[i].index;
    double ns[3], no[3];
    newell(pts, loop, sz, ns);
    newell(pts, idx, sz, no);
    const uint32_t *use = loop; /* re-wound unless the given loop encloses as much */
    double *nn = ns;
    if (len3(no) >= 0.999 * len3(ns)) {
        use = idx;
        nn = no;
    }
    double area = len3(nn);
    if (area <= x->tiny_area) {
        x->report(x->ru, f, "face loop encloses no area");
        return 1;
    }
    double n[3] = {nn[0] / area, nn[1] / area, nn[2] / area};
    double side = dot3(n, x->centre) - dot3(n, fc);
    if (fabs(side) <= x->tol * 0.01) {
        x->report(x->ru, f, "face plane passes through the hull's centre: the hull is flat");
        return 1;
    }
    if (side > 0)
        n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
    double d = -INFINITY;
    for (uint32_t i = 0; i < sz; i++) {
        double t = dot3(n, pts + 3 * (size_t)use[i]);
        d = t > d ? t : d;
    }
    if (!blvl__geom_add_plane(&x->pl, n, d))
        return 0;
    if (loop_sizes && (!blvl__geom_vec_push(x->al, loop_sizes, &sz) ||
                       !blvl__geom_vec_reserve(x->al, loop_indices, loop_indices->len + sz)))
        return 0;
    for (uint32_t i = 0; i < sz; i++) {
        if (loop_indices)
            blvl__geom_vec_push(x->al, loop_indices, &use[i]); /* reserved above */
        geom_edge e = {use[i], use[(i + 1) % sz]};
        if (e.a > e.b) {
            uint32_t t = e.a;
            e.a = e.b;
            e.b = t;
        }
        if (e.a != e.b && !blvl__geom_vec_push(x->al, &x->edges, &e))
            return 0;
    }
    return 1;
}

/* Every face's plane, in the order given. Returns 0 only when out of memory. */
static int add_face_planes(expander *x, const tw_hull_in *in, geom_vec *loop_sizes,
                           geom_vec *loop_indices) {
    size_t off = 0;
    for (uint32_t f = 0; f < in->face_count; f++) {
        uint32_t sz = in->face_sizes[f];
        if (sz > in->face_index_count - off) {
            x->report(x->ru, f, "face runs past the end of face_indices");
            continue;
        }
        const uint32_t *idx = in->face_indices + off;
        off += sz;
        if (!add_face(x, f, idx, sz, loop_sizes, loop_indices))
            return 0;
    }
    return 1;
}

blvl_status blvl__trace_expand_hull(const blvl_allocator *al, const tw_hull_in *in,
                                    geom_vec *planes, geom_vec *loop_sizes, geom_vec *loop_indices,
                                    float lo[3], float hi[3], int *usable, tw_report_fn report,
                                    void *ru) {
    const uint32_t nv = in->vertex_count;
    *usable = 0;
    if (nv == 0 || !in->vertices) {
        report(ru, BLVL_TRACE_NONE, "hull has no vertices");
        return BLVL_OK;
    }
    if (nv > BLVL_TRACE_MAX_VERTICES || in->face_count > BLVL_TRACE_MAX_FACES ||
        in->face_index_count > BLVL_TRACE_MAX_FACE_INDICES) {
        report(ru, BLVL_TRACE_NONE, "hull over the size limits (vertices, faces, face_indices)");
        return BLVL_OK;
    }
    if ((in->face_count && !in->face_sizes) || (in->face_index_count && !in->face_indices)) {
        report(ru, BLVL_TRACE_NONE, "hull face arrays missing");
        return BLVL_OK;
    }

    blvl_status st = BLVL_E_NOMEM;
    double *pts = blvl__calloc_n(al, (size_t)nv * 3, sizeof(double));
    uint32_t *loop = blvl__calloc_n(al, (size_t)in->face_index_count + 1, sizeof(uint32_t));
    angle_item *items = blvl__calloc_n(al, (size_t)in->face_index_count + 1, sizeof(angle_item));
    expander x;
    memset(&x, 0, sizeof x);
    blvl__geom_vec_init(&x.edges, sizeof(geom_edge));
    if (!pts || !loop || !items)
        goto done;

    double blo[3] = {INFINITY, INFINITY, INFINITY}, bhi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double centre[3] = {0, 0, 0}, scale = 1.0;
    for (uint32_t i = 0; i < nv; i++) {
        const double p[3] = {in->vertices[i].x, in->vertices[i].y, in->vertices[i].z};
        for (int k = 0; k < 3; k++) {
            if (!isfinite(p[k]) || fabs(p[k]) > TW_COORD_MAX) {
                report(ru, BLVL_TRACE_NONE, "hull vertex not finite or out of range");
                st = BLVL_OK;
                goto done;
            }
            pts[3 * (size_t)i + k] = p[k];
            blo[k] = p[k] < blo[k] ? p[k] : blo[k];
            bhi[k] = p[k] > bhi[k] ? p[k] : bhi[k];
            centre[k] += p[k] / nv;
            scale = fabs(p[k]) > scale ? fabs(p[k]) : scale;
        }
    }
    double extent = 0;
    for (int k = 0; k < 3; k++)
        extent = bhi[k] - blo[k] > extent ? bhi[k] - blo[k] : extent;

    x.al = al;
    x.tol = blvl__geom_tolerance(scale);
    x.pl.al = al;
    x.pl.planes = planes;
    x.pl.first = planes->len;
    x.pl.tol = x.tol;
    x.pl.unit = 0; /* the trace's historical comparison: see geom.h */
    x.pts = pts;
    x.nv = nv;
    memcpy(x.centre, centre, sizeof centre);
    x.extent = extent;
    x.tiny_area = 1e-10 * (extent * extent) + 1e-12;
    x.loop = loop;
    x.items = items;
    x.report = report;
    x.ru = ru;

    if (!add_face_planes(&x, in, loop_sizes, loop_indices) ||
        !blvl__geom_add_axial(&x.pl, blo, bhi) ||
        !blvl__geom_add_bevels(&x.pl, pts, nv, &x.edges, extent))
        goto done;

    for (int k = 0; k < 3; k++) {
        lo[k] = (float)blo[k];
        hi[k] = (float)bhi[k];
    }
    *usable = 1;
    st = BLVL_OK;
done:
    blvl__geom_vec_free(al, &x.edges);
    blvl__dealloc(al, items, ((size_t)in->face_index_count + 1) * sizeof(angle_item));
    blvl__dealloc(al, loop, ((size_t)in->face_index_count + 1) * sizeof(uint32_t));
    blvl__dealloc(al, pts, (size_t)nv * 3 * sizeof(double));
    return st;
}
