/* The convex hull of a point set as a Hull collider: incremental hull of triangles in double,
 * then the triangles of one plane merged into one polygon face (the 2D hull of their corners),
 * so a box's hull has six quads and no point inside a face or on an edge is a corner. Rules in
 * docs/BAKE.md, "Colliders". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake/convex/faces.h"
#include "bake/convex/shapes.h"
#include "common/alloc.h"
#include "common/error.h"
#include "geom/geom.h"

#define HULL_MAX_POINTS 4096u /* the incremental hull is quadratic: 0.4 s for 4096 on a sphere */

typedef struct tri {
    uint32_t v[3];
    double n[3], d; /* outward unit normal, dot(n, p) = d */
    double area;
    int alive;
} tri;

typedef struct hull {
    const blvl_allocator *al;
    const double (*p)[3];
    double eps; /* a point this far in front of a face sees it */
    geom_vec tris;
    size_t alive; /* live triangles in tris */
} hull;

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

static int add_tri(hull *h, uint32_t a, uint32_t b, uint32_t c) {
    tri t = {{a, b, c}, {0, 0, 0}, 0, 0, 1};
    double ab[3], ac[3];
    sub3(h->p[b], h->p[a], ab);
    sub3(h->p[c], h->p[a], ac);
    cross3(ab, ac, t.n);
    double l = sqrt(dot3(t.n, t.n));
    t.area = l / 2;
    if (l > 0)
        for (int k = 0; k < 3; k++)
            t.n[k] /= l;
    t.d = dot3(t.n, h->p[a]);
    h->alive++;
    return blvl__geom_vec_push(h->al, &h->tris, &t);
}

static void compact(hull *h) {
    size_t live = 0;
    for (size_t f = 0; f < h->tris.len; f++)
        if (GEOM_AT(h->tris, tri, f).alive)
            GEOM_AT(h->tris, tri, live++) = GEOM_AT(h->tris, tri, f);
    h->tris.len = live;
}

/* Add point i: replace the faces it sees by a fan from their horizon. 0 = out of memory. */
static int add_point(hull *h, uint32_t i, geom_vec *edges) {
    edges->len = 0;
    size_t nt = h->tris.len;
    for (size_t f = 0; f < nt; f++) {
        tri *t = &GEOM_AT(h->tris, tri, f);
        if (!t->alive || dot3(t->n, h->p[i]) - t->d <= h->eps)
            continue;
        t->alive = 0;
        h->alive--;
        for (int k = 0; k < 3; k++) {
            geom_edge e = {t->v[k], t->v[(k + 1) % 3]};
            if (!blvl__geom_vec_push(h->al, edges, &e))
                return 0;
        }
    }
    /* The horizon: seen faces' edges whose other side is not seen. */
    size_t ne = edges->len;
    for (size_t a = 0; a < ne; a++) {
        geom_edge e = GEOM_AT(*edges, geom_edge, a);
        int inner = 0;
        for (size_t b = 0; b < ne && !inner; b++) {
            const geom_edge *o = &GEOM_AT(*edges, geom_edge, b);
            inner = o->a == e.b && o->b == e.a;
        }
        if (!inner && !add_tri(h, e.a, e.b, i))
            return 0;
    }
    if (h->tris.len > 2 * h->alive + 64) /* drop the dead, keeping the order */
        compact(h);
    return 1;
}

typedef struct by_area {
    double area;
    uint32_t index;
} by_area;

static int area_cmp(const void *x, const void *y) {
    const by_area *a = x, *b = y;
    if (a->area != b->area)
        return a->area < b->area ? 1 : -1;
    return (a->index > b->index) - (a->index < b->index);
}

typedef struct pt2 {
    double u, v;
    uint32_t i;
} pt2;

static int pt2_cmp(const void *x, const void *y) {
    const pt2 *a = x, *b = y;
    if (a->u != b->u)
        return a->u < b->u ? -1 : 1;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static double turn(const pt2 *o, const pt2 *a, const pt2 *b) {
    return (a->u - o->u) * (b->v - o->v) - (a->v - o->v) * (b->u - o->u);
}

/* Andrew's monotone chain, counter-clockwise, collinear points dropped (a turn whose height is
 * under BAKE_CLIP_EPS). `out` has room for 2n. Returns the corner count. */
static uint32_t hull2d(pt2 *p, uint32_t n, pt2 *out) {
    qsort(p, n, sizeof *p, pt2_cmp);
    uint32_t k = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t start = k;
        for (uint32_t j = 0; j < n; j++) {
            const pt2 *q = pass ? &p[n - 1 - j] : &p[j];
            while (k >= start + 2) {
                const pt2 *o = &out[k - 2], *a = &out[k - 1];
                double du = q->u - o->u, dv = q->v - o->v, l = sqrt(du * du + dv * dv);
                if (turn(o, a, q) > BAKE_CLIP_EPS * l)
                    break;
                k--;
            }
            out[k++] = *q;
        }
        k--; /* the last point starts the other chain */
    }
    return k;
}

typedef struct dedge {
    uint32_t a, b, t;
} dedge;

static int dedge_cmp(const void *x, const void *y) {
    const dedge *e = x, *f = y;
    if (e->a != f->a)
        return (e->a > f->a) - (e->a < f->a);
    return (e->b > f->b) - (e->b < f->b);
}

/* Whether triangle t lies on the plane of seed s: normals within 1e-6 (cosine), every corner
 * within BAKE_WELD of the seed's plane. */
static int coplanar(const hull *h, const tri *s, const tri *t) {
    if (dot3(t->n, s->n) < 1 - 1e-6)
        return 0;
    for (int k = 0; k < 3; k++)
        if (fabs(dot3(s->n, h->p[t->v[k]]) - s->d) > BAKE_WELD)
            return 0;
    return 1;
}

/* Merge the (live) triangles of one plane into polygon faces: seeds largest first, each grown
 * across shared edges to the triangles coplanar with it; each face is the 2D hull of its
 * triangles' corners on the seed's plane. Appends each face's size, corner indices and plane
 * (n, d), and marks its corners in `used`. 0 = out of memory. */
static int merge_faces(hull *h, uint32_t m, geom_vec *sizes, geom_vec *indices, geom_vec *planes,
                       uint8_t *used) {
    const blvl_allocator *al = h->al;
    const size_t L = h->tris.len;
    const tri *T = h->tris.data;
    int ok = 0;
    dedge *e = blvl__calloc_n(al, 3 * L, sizeof *e);
    uint32_t *nb = blvl__calloc_n(al, 3 * L, sizeof *nb);
    by_area *order = blvl__calloc_n(al, L, sizeof *order);
    uint32_t *face = blvl__calloc_n(al, L, sizeof *face);
    uint32_t *queue = blvl__calloc_n(al, L, sizeof *queue);
    uint32_t *stamp = blvl__calloc_n(al, m, sizeof *stamp);
    pt2 *ps = blvl__calloc_n(al, m, sizeof *ps);
    pt2 *hs = blvl__calloc_n(al, 2 * (size_t)m + 2, sizeof *hs);
    if (!e || !nb || !order || !face || !queue || !stamp || !ps || !hs)
        goto done;
    /* The neighbour across each edge: the triangle holding the reverse edge. */
    for (size_t t = 0; t < L; t++)
        for (int k = 0; k < 3; k++)
            e[3 * t + k] = (dedge){T[t].v[k], T[t].v[(k + 1) % 3], (uint32_t)t};
    qsort(e, 3 * L, sizeof *e, dedge_cmp);
    for (size_t t = 0; t < L; t++)
        for (int k = 0; k < 3; k++) {
            dedge key = {T[t].v[(k + 1) % 3], T[t].v[k], 0};
            const dedge *f = bsearch(&key, e, 3 * L, sizeof *e, dedge_cmp);
            nb[3 * t + k] = f ? f->t : UINT32_MAX;
        }
    for (size_t t = 0; t < L; t++) {
        order[t] = (by_area){T[t].area, (uint32_t)t};
        face[t] = UINT32_MAX;
    }
    qsort(order, L, sizeof *order, area_cmp);
    uint32_t nf = 0;
    for (size_t o = 0; o < L; o++) {
        uint32_t seed = order[o].index;
        if (face[seed] != UINT32_MAX)
            continue;
        const tri *s = &T[seed];
        /* grow the face from its seed */
        size_t qn = 0, qi = 0;
        face[seed] = nf;
        queue[qn++] = seed;
        while (qi < qn) {
            uint32_t x = queue[qi++];
            for (int k = 0; k < 3; k++) {
                uint32_t y = nb[3 * (size_t)x + k];
                if (y != UINT32_MAX && face[y] == UINT32_MAX && coplanar(h, s, &T[y])) {
                    face[y] = nf;
                    queue[qn++] = y;
                }
            }
        }
        /* its corners, each once, on the seed's plane */
        double u[3], v[3], up[3] = {0, 0, 0};
        int k0 = fabs(s->n[0]) < fabs(s->n[1]) ? 0 : 1;
        k0 = fabs(s->n[2]) < fabs(s->n[k0]) ? 2 : k0;
        up[k0] = 1;
        cross3(s->n, up, u);
        double lu = sqrt(dot3(u, u));
        for (int k = 0; k < 3; k++)
            u[k] /= lu;
        cross3(s->n, u, v);
        uint32_t np = 0;
        for (size_t q = 0; q < qn; q++)
            for (int k = 0; k < 3; k++) {
                uint32_t vi = T[queue[q]].v[k];
                if (stamp[vi] == nf + 1)
                    continue;
                stamp[vi] = nf + 1;
                ps[np++] = (pt2){dot3(h->p[vi], u), dot3(h->p[vi], v), vi};
            }
        nf++;
        uint32_t nh = hull2d(ps, np, hs);
        if (nh < 3)
            continue;
        const double pl[4] = {s->n[0], s->n[1], s->n[2], s->d};
        if (!blvl__geom_vec_push(al, sizes, &nh) || !blvl__geom_vec_push(al, planes, pl))
            goto done;
        for (uint32_t q = 0; q < nh; q++) {
            used[hs[q].i] = 1;
            if (!blvl__geom_vec_push(al, indices, &hs[q].i))
                goto done;
        }
    }
    ok = 1;
done:
    blvl__dealloc(al, hs, (2 * (size_t)m + 2) * sizeof *hs);
    blvl__dealloc(al, ps, (size_t)m * sizeof *ps);
    blvl__dealloc(al, stamp, (size_t)m * sizeof *stamp);
    blvl__dealloc(al, queue, L * sizeof *queue);
    blvl__dealloc(al, face, L * sizeof *face);
    blvl__dealloc(al, order, L * sizeof *order);
    blvl__dealloc(al, nb, 3 * L * sizeof *nb);
    blvl__dealloc(al, e, 3 * L * sizeof *e);
    return ok;
}

/* The input's rules: a points array, at most HULL_MAX_POINTS, every coordinate finite. */
static blvl_status check_points(const blvl_Vec3 *points, uint32_t point_count, blvl_error *err) {
    if (point_count && !points)
        return blvl__fail(err, BLVL_E_ARGUMENT, "hull: no points array");
    if (point_count > HULL_MAX_POINTS)
        return blvl__fail(err, BLVL_E_ARGUMENT, "hull: %u points, over the limit of %u",
                          point_count, (unsigned)HULL_MAX_POINTS);
    for (uint32_t i = 0; i < point_count; i++)
        if (!isfinite(points[i].x) || !isfinite(points[i].y) || !isfinite(points[i].z))
            return blvl__fail(err, BLVL_E_ARGUMENT, "hull: point %u is not finite", i);
    return BLVL_OK;
}

/* The points in double, welded into p (map: each input point's); *eps the distance at which a
 * point sees a face, relative to the largest coordinate. Returns the welded count. */
static uint32_t weld_points(const blvl_Vec3 *points, uint32_t n, double (*in)[3], double (*p)[3],
                            uint32_t *map, double *eps) {
    for (uint32_t i = 0; i < n; i++) {
        in[i][0] = points[i].x;
        in[i][1] = points[i].y;
        in[i][2] = points[i].z;
    }
    uint32_t m = blvl__bake_convex_weld((const double(*)[3])in, n, p, map);
    double scale = 1;
    for (uint32_t i = 0; i < m; i++)
        for (int k = 0; k < 3; k++)
            scale = fabs(p[i][k]) > scale ? fabs(p[i][k]) : scale;
    *eps = 1e-9 * scale;
    return m;
}

/* The first tetrahedron: the lowest point, the one farthest from it, the one farthest from their
 * line, the one farthest from their plane (s[0..3]; nrm the plane's normal, not unit). Returns
 * the last one's distance from the plane (0 when the points are on one line). */
static double first_tetrahedron(const double (*p)[3], uint32_t m, uint32_t s[4], double nrm[3]) {
    uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (uint32_t i = 1; i < m; i++)
        if (p[i][0] < p[s0][0] ||
            (p[i][0] == p[s0][0] &&
             (p[i][1] < p[s0][1] || (p[i][1] == p[s0][1] && p[i][2] < p[s0][2]))))
            s0 = i;
    double best = 0, t[3], c[3];
    for (uint32_t i = 0; i < m; i++) {
        sub3(p[i], p[s0], t);
        if (dot3(t, t) > best)
            best = dot3(t, t), s1 = i;
    }
    double dir[3];
    sub3(p[s1], p[s0], dir);
    best = 0;
    for (uint32_t i = 0; i < m; i++) {
        sub3(p[i], p[s0], t);
        cross3(dir, t, c);
        if (dot3(c, c) > best)
            best = dot3(c, c), s2 = i;
    }
    double e2[3];
    sub3(p[s2], p[s0], e2);
    cross3(dir, e2, nrm);
    double ln = sqrt(dot3(nrm, nrm));
    best = 0;
    if (ln > 0)
        for (uint32_t i = 0; i < m; i++) {
            sub3(p[i], p[s0], t);
            double dist = fabs(dot3(nrm, t)) / ln;
            if (dist > best)
                best = dist, s3 = i;
        }
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
    return best;
}

/* The tetrahedron's four triangles facing out, then every other point added. 0 when out of
 * memory. */
static int grow_hull(hull *h, const uint32_t s[4], const double nrm[3], uint32_t m,
                     geom_vec *edges) {
    uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    double t[3];
    sub3(h->p[s3], h->p[s0], t);
    int ok = dot3(nrm, t) < 0 ? add_tri(h, s0, s1, s2) && add_tri(h, s0, s3, s1) &&
                                    add_tri(h, s1, s3, s2) && add_tri(h, s2, s3, s0)
                              : add_tri(h, s0, s2, s1) && add_tri(h, s0, s1, s3) &&
                                    add_tri(h, s1, s2, s3) && add_tri(h, s2, s0, s3);
    if (!ok)
        return 0;
    for (uint32_t i = 0; i < m; i++)
        if (i != s0 && i != s1 && i != s2 && i != s3 && !add_point(h, i, edges))
            return 0;
    return 1;
}

/* Whether every face plane has the hull's used corners at least BAKE_FLAT deep behind it. */
static bool deep_enough(const geom_vec *planes, const double (*p)[3], const uint8_t *used,
                        uint32_t m) {
    for (size_t j = 0; j < planes->len; j++) {
        const double *q = (const double *)planes->data + 4 * j;
        double deep = 0;
        for (uint32_t i = 0; i < m; i++)
            if (used[i] && q[3] - dot3(q, p[i]) > deep)
                deep = q[3] - dot3(q, p[i]);
        if (deep < BAKE_FLAT)
            return false;
    }
    return true;
}

/* The Hull shape: the used corners in input order (remap: each welded point's corner), the merged
 * faces' loops renumbered to them, the bounds. BLVL_E_NOMEM (out freed) or BLVL_OK. */
static blvl_status store_hull(const blvl_allocator *al, const double (*p)[3], uint32_t m,
                              const uint8_t *used, uint32_t *remap, const geom_vec *sizes,
                              geom_vec *indices, bake_shape *out) {
    uint32_t nv = 0;
    for (uint32_t i = 0; i < m; i++)
        remap[i] = used[i] ? nv++ : UINT32_MAX;
    for (size_t q = 0; q < indices->len; q++)
        GEOM_AT(*indices, uint32_t, q) = remap[GEOM_AT(*indices, uint32_t, q)];
    out->vertices = blvl__calloc_n(al, nv, sizeof out->vertices[0]);
    out->face_sizes = blvl__calloc_n(al, sizes->len, sizeof(uint32_t));
    out->face_indices = blvl__calloc_n(al, indices->len, sizeof(uint32_t));
    out->vertex_count = nv;
    out->face_count = (uint32_t)sizes->len;
    out->face_index_count = (uint32_t)indices->len;
    if (!out->vertices || !out->face_sizes || !out->face_indices) {
        blvl__bake_convex_shape_free(al, out);
        return BLVL_E_NOMEM;
    }
    memcpy(out->face_sizes, sizes->data, sizes->len * sizeof(uint32_t));
    memcpy(out->face_indices, indices->data, indices->len * sizeof(uint32_t));
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0, o = 0; i < m; i++) {
        if (!used[i])
            continue;
        const float f[3] = {(float)p[i][0], (float)p[i][1], (float)p[i][2]};
        out->vertices[o++] = (blvl_Vec3){f[0], f[1], f[2]};
        for (int k = 0; k < 3; k++) {
            lo[k] = f[k] < lo[k] ? f[k] : lo[k];
            hi[k] = f[k] > hi[k] ? f[k] : hi[k];
        }
    }
    out->kind = blvl_Shape_Hull;
    out->lo = (blvl_Vec3){lo[0], lo[1], lo[2]};
    out->hi = (blvl_Vec3){hi[0], hi[1], hi[2]};
    return BLVL_OK;
}

/* The phases: the input checked, the points welded, the first tetrahedron, the incremental hull,
 * its triangles merged into faces, the depth check, the shape stored. A flat or degenerate set
 * is empty, not a failure; every scratch block is freed on every path. */
blvl_status blvl__bake_convex_shape_hull(const blvl_allocator *al, const blvl_Vec3 *points,
                                         uint32_t point_count, bake_shape *out, bool *empty,
                                         blvl_error *err) {
    memset(out, 0, sizeof *out);
    *empty = true;
    blvl_status st = check_points(points, point_count, err);
    if (st != BLVL_OK || point_count < 4)
        return st;

    uint32_t n = point_count;
    st = BLVL_E_NOMEM;
    double(*in)[3] = blvl__calloc_n(al, n, sizeof in[0]);
    double(*p)[3] = blvl__calloc_n(al, n, sizeof p[0]);
    uint32_t *map = blvl__calloc_n(al, n, sizeof map[0]);
    uint32_t *remap = blvl__calloc_n(al, n, sizeof remap[0]);
    hull h = {al, (const double(*)[3])p, 0, {0}, 0};
    geom_vec edges, sizes, indices, planes;
    blvl__geom_vec_init(&h.tris, sizeof(tri));
    blvl__geom_vec_init(&edges, sizeof(geom_edge));
    blvl__geom_vec_init(&sizes, sizeof(uint32_t));
    blvl__geom_vec_init(&indices, sizeof(uint32_t));
    blvl__geom_vec_init(&planes, sizeof(double[4]));
    if (!in || !p || !map || !remap)
        goto done;
    uint32_t m = weld_points(points, n, in, p, map, &h.eps);
    uint32_t s[4];
    double nrm[3];
    if (m < 4 || first_tetrahedron(h.p, m, s, nrm) < BAKE_FLAT) {
        st = BLVL_OK; /* flat (or all one point, or on one line) */
        goto done;
    }
    if (!grow_hull(&h, s, nrm, m, &edges))
        goto done;
    compact(&h);
    uint8_t *used = (uint8_t *)in; /* scratch: n doubles * 3 is room for m flags */
    memset(used, 0, m);
    if (!merge_faces(&h, m, &sizes, &indices, &planes, used))
        goto done;
    if (!deep_enough(&planes, h.p, used, m) || sizes.len < 4) {
        st = BLVL_OK;
        goto done;
    }
    st = store_hull(al, h.p, m, used, remap, &sizes, &indices, out);
    if (st == BLVL_OK)
        *empty = false;
done:
    blvl__geom_vec_free(al, &planes);
    blvl__geom_vec_free(al, &indices);
    blvl__geom_vec_free(al, &sizes);
    blvl__geom_vec_free(al, &edges);
    blvl__geom_vec_free(al, &h.tris);
    blvl__dealloc(al, remap, (size_t)n * sizeof remap[0]);
    blvl__dealloc(al, map, (size_t)n * sizeof map[0]);
    blvl__dealloc(al, p, (size_t)n * sizeof p[0]);
    blvl__dealloc(al, in, (size_t)n * sizeof in[0]);
    if (st != BLVL_OK)
        return blvl__nomem(err, "hull: %u points' working arrays", n);
    return BLVL_OK;
}
