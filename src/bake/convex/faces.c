/* A convex brush's faces: each plane's base square clipped by every other plane, in double. */
#include <math.h>
#include <string.h>

#include "bake/convex/faces.h"
#include "common/alloc.h"
#include "common/error.h"
#include "geom/geom.h"

void blvl__bake_convex_brush_faces_free(const blvl_allocator *al, bake_faces *f) {
    blvl__dealloc(al, f->planes, (size_t)f->count * sizeof f->planes[0]);
    blvl__dealloc(al, f->sizes, (size_t)f->count * sizeof f->sizes[0]);
    blvl__dealloc(al, f->pts, (size_t)f->point_count * sizeof f->pts[0]);
    memset(f, 0, sizeof *f);
}

static double dot3(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Twice the polygon's area (Newell). */
static double area2(double (*p)[3], uint32_t n) {
    double a[3] = {0, 0, 0};
    for (uint32_t i = 0; i < n; i++) {
        const double *s = p[i], *t = p[(i + 1) % n];
        a[0] += (s[1] - t[1]) * (s[2] + t[2]);
        a[1] += (s[2] - t[2]) * (s[0] + t[0]);
        a[2] += (s[0] - t[0]) * (s[1] + t[1]);
    }
    return sqrt(dot3(a, a));
}

/* Drop corners within BAKE_WELD of the previous one. Returns the new count. */
static uint32_t collapse(double (*p)[3], uint32_t n) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m) {
            double d[3] = {p[i][0] - p[m - 1][0], p[i][1] - p[m - 1][1], p[i][2] - p[m - 1][2]};
            if (dot3(d, d) <= BAKE_WELD * BAKE_WELD)
                continue;
        }
        memmove(p[m++], p[i], sizeof p[0]);
    }
    while (m > 1) {
        double d[3] = {p[m - 1][0] - p[0][0], p[m - 1][1] - p[0][1], p[m - 1][2] - p[0][2]};
        if (dot3(d, d) > BAKE_WELD * BAKE_WELD)
            break;
        m--;
    }
    return m;
}

blvl_status blvl__bake_convex_brush_faces(const blvl_allocator *al, const blvl_Plane *planes,
                                          uint32_t count, bake_faces *out, blvl_error *err) {
    memset(out, 0, sizeof *out);
    out->state = BAKE_FACES_EMPTY;
    if (count == 0)
        return BLVL_OK;
    if (!planes)
        return blvl__fail(err, BLVL_E_ARGUMENT, "brush: no planes array");
    if (count > BAKE_MAX_PLANES) /* the faces take count^2 clips and more */
        return blvl__fail(err, BLVL_E_ARGUMENT, "brush: %u planes, over the limit of %u", count,
                          (unsigned)BAKE_MAX_PLANES);
    for (uint32_t i = 0; i < count; i++) {
        const blvl_Plane *p = &planes[i];
        if (!isfinite(p->normal.x) || !isfinite(p->normal.y) || !isfinite(p->normal.z) ||
            !isfinite(p->dist))
            return blvl__fail(err, BLVL_E_ARGUMENT, "brush: plane %u is not finite", i);
    }
    size_t cap = (size_t)count + 4; /* a clip adds at most one corner */
    out->count = count;
    out->planes = blvl__calloc_n(al, count, sizeof out->planes[0]);
    out->sizes = blvl__calloc_n(al, count, sizeof out->sizes[0]);
    double(*p)[3] = blvl__calloc_n(al, cap, sizeof p[0]);
    double(*tmp)[3] = blvl__calloc_n(al, cap, sizeof tmp[0]);
    uint8_t *use = blvl__calloc_n(al, count, 1);
    geom_vec all; /* every face's corners, 3 doubles each */
    blvl__geom_vec_init(&all, sizeof p[0]);
    blvl_status st = BLVL_E_NOMEM;
    if (!out->planes || !out->sizes || !p || !tmp || !use)
        goto fail;

    /* Normalise; a zero normal is all space (d >= 0, no face) or none (d < 0). */
    int none = 0;
    for (uint32_t i = 0; i < count; i++) {
        double n[3] = {planes[i].normal.x, planes[i].normal.y, planes[i].normal.z};
        double l = sqrt(dot3(n, n));
        if (l < 1e-12) {
            none |= planes[i].dist < 0;
            continue;
        }
        for (int k = 0; k < 3; k++)
            out->planes[i][k] = n[k] / l;
        out->planes[i][3] = planes[i].dist / l;
        use[i] = 1;
        /* A later copy of an earlier plane has no face of its own. */
        for (uint32_t j = 0; j < i; j++)
            if (use[j] && dot3(out->planes[i], out->planes[j]) > 1 - 1e-9 &&
                fabs(out->planes[i][3] - out->planes[j][3]) <= BAKE_WELD) {
                use[i] = 0;
                break;
            }
    }
    if (none) {
        memset(out->sizes, 0, (size_t)count * sizeof out->sizes[0]);
        st = BLVL_OK;
        goto fail;
    }

    uint32_t faces = 0;
    int unbounded = 0;
    for (uint32_t i = 0; i < count && !unbounded; i++) {
        if (!use[i])
            continue;
        double sq[4][3];
        blvl__geom_base_square(out->planes[i], out->planes[i][3], BAKE_BASE_HALF, sq);
        memcpy(p, sq, sizeof sq);
        int m = 4;
        for (uint32_t j = 0; j < count && m >= 3; j++)
            if (j != i && use[j])
                m = blvl__geom_clip(p, m, tmp, (int)cap, out->planes[j], out->planes[j][3],
                                    BAKE_CLIP_EPS);
        uint32_t n = m >= 3 ? collapse(p, (uint32_t)m) : 0;
        if (n < 3 || area2(p, n) <= BAKE_WELD * BAKE_WELD)
            continue; /* bounds no face */
        for (uint32_t c = 0; c < n; c++)
            unbounded |= dot3(p[c], p[c]) >= (BAKE_BASE_HALF - 1) * (BAKE_BASE_HALF - 1);
        if (!blvl__geom_vec_reserve(al, &all, all.len + n))
            goto fail;
        memcpy((double(*)[3])all.data + all.len, p, n * sizeof p[0]);
        all.len += n;
        out->sizes[i] = n;
        faces++;
    }
    const double(*pts)[3] = all.data;
    size_t at = all.len;
    /* Enclosed volume: at least four faces, and no face with every corner within BAKE_FLAT of
     * its plane (a slab between two opposite planes). */
    int flat = faces < 4;
    for (uint32_t i = 0; i < count && !flat && !unbounded; i++) {
        if (!out->sizes[i])
            continue;
        double deep = 0;
        for (size_t c = 0; c < at; c++) {
            double t = out->planes[i][3] - dot3(out->planes[i], pts[c]);
            deep = t > deep ? t : deep;
        }
        flat |= deep < BAKE_FLAT;
    }
    if (unbounded || flat) {
        out->state = unbounded ? BAKE_FACES_UNBOUNDED : BAKE_FACES_EMPTY;
        memset(out->sizes, 0, (size_t)count * sizeof out->sizes[0]);
    } else {
        if (at > UINT32_MAX || !(out->pts = blvl__calloc_n(al, at, sizeof out->pts[0])))
            goto fail;
        memcpy(out->pts, pts, at * sizeof out->pts[0]);
        out->point_count = (uint32_t)at;
        out->state = BAKE_FACES_OK;
    }
    st = BLVL_OK;
fail:
    blvl__geom_vec_free(al, &all);
    blvl__dealloc(al, use, count);
    blvl__dealloc(al, tmp, cap * sizeof tmp[0]);
    blvl__dealloc(al, p, cap * sizeof p[0]);
    if (st != BLVL_OK) {
        blvl__bake_convex_brush_faces_free(al, out);
        return blvl__nomem(err, "brush: its faces");
    }
    return BLVL_OK;
}
