/* Patch collision (docs/IMPORT-Q3.md, "Collision"): the engine's collision grid of a Bezier
 * patch (cm_patch.c's rules: subdivide each curve until its midpoint is within 16 qu of the
 * chord's, drop columns that collapsed to a line, both directions), then one facet per grid
 * quad (or two triangles when the quad is not flat), each a convex hull: the facet and its
 * copy `thickness` qu behind it. The engine's facets are one-sided planes of no thickness;
 * a hull needs volume, so it reaches behind the face. */
#include <math.h>
#include <string.h>

#include "bake_collide.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/sim.h"
#include "common/alloc.h"
#include "common/error.h"

#define SUBDIVIDE_DISTANCE 16.0f /* qu a curve may stray from its chord */
#define POINT_EPSILON 0.1f       /* columns this close everywhere are one */
#define NORMAL_EPSILON 0.0001f   /* two triangles of a quad on one plane: one facet */
#define DIST_EPSILON 0.02f

#define AT(p, i, j) (p)[(size_t)(i)*Q3_MAX_GRID + (size_t)(j)]

static bool needs_subdivision(const float a[3], const float b[3], const float c[3]) {
    float d[3];
    for (int k = 0; k < 3; k++) {
        float lmid = 0.5f * (a[k] + c[k]);
        float cmid = 0.5f * (0.5f * (a[k] + b[k]) + 0.5f * (b[k] + c[k]));
        d[k] = cmid - lmid;
    }
    return sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) >= SUBDIVIDE_DISTANCE;
}

static void remove_column(float (*p)[3], int *w, int h, int col) {
    for (int j = 0; j < h; j++)
        for (int k = col + 1; k < *w; k++)
            memcpy(AT(p, k - 1, j), AT(p, k, j), sizeof p[0]);
    (*w)--;
}

static void subdivide_columns(float (*p)[3], int *w, int h) {
    for (int i = 0; i < *w - 2;) {
        /* i and i + 2 lie on the curve, i + 1 is the control point between them */
        int j = 0;
        for (; j < h; j++)
            if (needs_subdivision(AT(p, i, j), AT(p, i + 1, j), AT(p, i + 2, j)))
                break;
        /* Flat enough, or no room left in the engine's grid: the chord stands for the curve. */
        if (j == h || *w + 2 > (int)Q3_MAX_GRID) {
            remove_column(p, w, h, i + 1);
            i++;
            continue;
        }
        for (j = 0; j < h; j++) {
            float prev[3], mid[3], next[3];
            memcpy(prev, AT(p, i, j), sizeof prev);
            memcpy(mid, AT(p, i + 1, j), sizeof mid);
            memcpy(next, AT(p, i + 2, j), sizeof next);
            for (int k = *w - 1; k > i + 1; k--)
                memcpy(AT(p, k + 2, j), AT(p, k, j), sizeof p[0]);
            for (int k = 0; k < 3; k++) {
                AT(p, i + 1, j)[k] = 0.5f * (prev[k] + mid[k]);
                AT(p, i + 3, j)[k] = 0.5f * (mid[k] + next[k]);
                AT(p, i + 2, j)[k] = 0.5f * (AT(p, i + 1, j)[k] + AT(p, i + 3, j)[k]);
            }
        }
        *w += 2; /* the new control point at i + 1 may need more: do not advance */
    }
}

static bool same_point(const float a[3], const float b[3]) {
    for (int k = 0; k < 3; k++)
        if (fabsf(a[k] - b[k]) > POINT_EPSILON)
            return false;
    return true;
}

static void remove_degenerate_columns(float (*p)[3], int *w, int h) {
    for (int i = 0; i < *w - 1; i++) {
        int j = 0;
        for (; j < h && same_point(AT(p, i, j), AT(p, i + 1, j)); j++)
            ;
        if (j != h)
            continue;
        remove_column(p, w, h, i + 1);
        i--;
    }
}

static void transpose(float (*p)[3], int *w, int *h) {
    int n = *w > *h ? *w : *h;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            float t[3];
            memcpy(t, AT(p, i, j), sizeof t);
            memcpy(AT(p, i, j), AT(p, j, i), sizeof t);
            memcpy(AT(p, j, i), t, sizeof t);
        }
    int t = *w;
    *w = *h;
    *h = t;
}

bool blvl__import_q3_coll_patch_grid(const float (*ctrl)[3], int width, int height, float (*pts)[3],
                                     int *out_w, int *out_h) {
    if (width < 3 || height < 3 || !(width & 1) || !(height & 1) || width > (int)Q3_MAX_GRID ||
        height > (int)Q3_MAX_GRID)
        return false;
    for (int i = 0; i < width; i++)
        for (int j = 0; j < height; j++)
            memcpy(AT(pts, i, j), ctrl[j * width + i], sizeof pts[0]);
    int w = width, h = height;
    subdivide_columns(pts, &w, h);
    remove_degenerate_columns(pts, &w, h);
    transpose(pts, &w, &h);
    subdivide_columns(pts, &w, h);
    remove_degenerate_columns(pts, &w, h);
    *out_w = w;
    *out_h = h;
    return true;
}

/* CM_PlaneFromPoints: normal (c - a) x (b - a), unit; false when the points are in line. */
static bool plane_of(const float a[3], const float b[3], const float c[3], float pl[4]) {
    float d1[3], d2[3];
    for (int k = 0; k < 3; k++)
        d1[k] = b[k] - a[k], d2[k] = c[k] - a[k];
    pl[0] = d2[1] * d1[2] - d2[2] * d1[1];
    pl[1] = d2[2] * d1[0] - d2[0] * d1[2];
    pl[2] = d2[0] * d1[1] - d2[1] * d1[0];
    float l = sqrtf(pl[0] * pl[0] + pl[1] * pl[1] + pl[2] * pl[2]);
    if (l == 0)
        return false;
    for (int k = 0; k < 3; k++)
        pl[k] /= l;
    pl[3] = a[0] * pl[0] + a[1] * pl[1] + a[2] * pl[2];
    return true;
}

static bool plane_equal(const float a[4], const float b[4]) {
    return fabsf(a[0] - b[0]) < NORMAL_EPSILON && fabsf(a[1] - b[1]) < NORMAL_EPSILON &&
           fabsf(a[2] - b[2]) < NORMAL_EPSILON && fabsf(a[3] - b[3]) < DIST_EPSILON;
}

typedef struct facet_ctx {
    q3_ctx *c;
    const blvl_bake_collider *k;
    blvl_Vec3 offset;
    float thickness;
} facet_ctx;

/* One facet of n corners (Quake axes) with front normal nrm: its hull. */
static blvl_status facet(facet_ctx *f, const float *const *corner, int n, const float nrm[4]) {
    blvl_Vec3 pts[8];
    for (int i = 0; i < n; i++) {
        float back[3];
        for (int k = 0; k < 3; k++)
            back[k] = corner[i][k] - f->thickness * nrm[k];
        blvl_Vec3 a = q3_axes(corner[i]), b = q3_axes(back);
        pts[i] = (blvl_Vec3){a.x + f->offset.x, a.y + f->offset.y, a.z + f->offset.z};
        pts[n + i] = (blvl_Vec3){b.x + f->offset.x, b.y + f->offset.y, b.z + f->offset.z};
        if (!isfinite(pts[i].x + pts[i].y + pts[i].z + pts[n + i].x + pts[n + i].y + pts[n + i].z))
            return BLVL_OK; /* placed past what a float holds: not placed (as brushes) */
    }
    uint32_t index = BLVL_BAKE_NONE;
    blvl_status st = blvl_bake_add_hull(f->c->b, f->k, pts, (uint32_t)(2 * n), &index, f->c->err);
    if (st == BLVL_OK && index != BLVL_BAKE_NONE)
        f->c->report->patch_hulls++;
    return st;
}

blvl_status blvl__import_q3_coll_patch(q3_ctx *c, uint32_t surface, blvl_Vec3 offset,
                                       const blvl_bake_collider *base, float thickness,
                                       float (*grid)[3]) {
    const blvl_q3_bsp *bsp = c->bsp;
    const blvl_q3_surface *s = &bsp->surfaces[surface];
    const blvl_q3_shader_ref *sh = &bsp->shaders[s->shader];
    uint32_t flags;
    /* Liquid patches: the engine's point contents never look at patches. */
    if (!blvl__import_q3_coll_flags(sh->contents, sh->surface_flags, &flags) ||
        (flags & blvl_ColliderFlag_Water))
        return BLVL_OK;
    const blvl_allocator *al = &c->opt->allocator;
    float(*ctrl)[3] = blvl__calloc_n(al, (size_t)s->num_verts, sizeof ctrl[0]);
    blvl_status st = BLVL_OK;
    if (!ctrl) {
        st = blvl__nomem(c->err, "the bake's scratch memory");
        goto done;
    }
    for (int32_t i = 0; i < s->num_verts; i++)
        memcpy(ctrl[i], bsp->draw_verts[s->first_vert + i].xyz, sizeof ctrl[0]);
    int w, h;
    if (!blvl__import_q3_coll_patch_grid((const float(*)[3])ctrl, s->patch_width, s->patch_height,
                                         grid, &w, &h))
        goto done;
    blvl_bake_source src = {.kind = blvl_SourceKind_Patch,
                            .index = surface,
                            .surface_flags = sh->surface_flags,
                            .contents_flags = sh->contents,
                            .entity = base->source_entity,
                            .material = c->shader[s->shader].source_material};
    blvl_bake_collider k = *base;
    k.flags = flags;
    if (k.source_kind == blvl_ColliderSourceKind_World)
        k.source_kind = blvl_ColliderSourceKind_Patch;
    if ((st = blvl_bake_add_source(c->b, &src, &k.symbol, c->err)))
        goto done;
    facet_ctx f = {c, &k, offset, thickness};
    for (int i = 0; st == BLVL_OK && i < w - 1; i++)
        for (int j = 0; st == BLVL_OK && j < h - 1; j++) {
            const float *p00 = AT(grid, i, j), *p10 = AT(grid, i + 1, j),
                        *p11 = AT(grid, i + 1, j + 1), *p01 = AT(grid, i, j + 1);
            float pl0[4], pl1[4];
            bool ok0 = plane_of(p00, p10, p11, pl0), ok1 = plane_of(p11, p01, p00, pl1);
            if (ok0 && ok1 && plane_equal(pl0, pl1)) {
                const float *quad[4] = {p00, p10, p11, p01};
                st = facet(&f, quad, 4, pl0);
                continue;
            }
            const float *t0[3] = {p00, p10, p11}, *t1[3] = {p11, p01, p00};
            if (ok0)
                st = facet(&f, t0, 3, pl0);
            if (st == BLVL_OK && ok1)
                st = facet(&f, t1, 3, pl1);
        }
done:
    if (ctrl)
        blvl__dealloc(al, ctrl, (size_t)s->num_verts * sizeof ctrl[0]);
    return st;
}
