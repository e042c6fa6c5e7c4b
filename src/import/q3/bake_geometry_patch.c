/* Bezier patches (docs/IMPORT-Q3.md, "Geometry"): a patch is a grid of 3 x 3-point quadratic
 * spans. Each span is cut into N segments along u and along v: N from the option, or the
 * fewest segments whose chords stay within BLVL_Q3G_ERROR qu of the curve. Spans that share a
 * boundary curve (the same three control points, either way round) get the largest N of the
 * group, and every curve is evaluated in one canonical direction, so two patches that share an
 * edge put bit-identical vertices along it: no cracks. */
#include <math.h>
#include <string.h>

#include "bake_geometry.h"
#include "common/alloc.h"
#include "common/error.h"

/* ---- levels -------------------------------------------------------------------------- */

static uint32_t find(uint32_t *parent, uint32_t i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static void unite(uint32_t *parent, uint32_t a, uint32_t b) {
    a = find(parent, a), b = find(parent, b);
    if (a < b)
        parent[b] = a;
    else if (b < a)
        parent[a] = b;
}

/* Segments a quadratic span needs: chords of 1/N of it leave the curve by at most
 * |p0 - 2 p1 + p2| / (4 N^2). */
static uint32_t need(const float *p0, const float *p1, const float *p2) {
    double d2 = 0;
    for (int k = 0; k < 3; k++) {
        double d = (double)p0[k] - 2.0 * p1[k] + p2[k];
        d2 += d * d;
    }
    double n = ceil(sqrt(sqrt(d2) / (4.0 * BLVL_Q3G_ERROR)));
    return n < 1 ? 1 : n > BLVL_Q3G_SPAN_MAX ? BLVL_Q3G_SPAN_MAX : (uint32_t)n;
}

/* A boundary curve's key: its three points, endpoints in canonical order, -0 read as +0. */
typedef struct curve_key {
    float v[9];
    uint32_t span;
    bool used;
} curve_key;

static bool less3(const float *a, const float *b) {
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return a[k] < b[k];
    return false;
}

static void make_key(const float *p0, const float *p1, const float *p2, curve_key *k) {
    if (less3(p2, p0)) {
        const float *t = p0;
        p0 = p2, p2 = t;
    }
    for (int i = 0; i < 3; i++) {
        k->v[i] = p0[i] + 0.0f, k->v[3 + i] = p1[i] + 0.0f, k->v[6 + i] = p2[i] + 0.0f;
    }
}

static uint64_t hash_key(const curve_key *k) {
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)k->v;
    for (size_t i = 0; i < sizeof k->v; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* Join span `span` with every span seen before on the same curve. */
static void insert(curve_key *tab, size_t mask, uint32_t *parent, const curve_key *k,
                   uint32_t span) {
    for (size_t i = (size_t)hash_key(k) & mask;; i = (i + 1) & mask) {
        if (!tab[i].used) {
            tab[i] = *k;
            tab[i].span = span;
            tab[i].used = true;
            return;
        }
        if (!memcmp(tab[i].v, k->v, sizeof k->v)) {
            unite(parent, tab[i].span, span);
            return;
        }
    }
}

void blvl__import_q3_geo_levels_free(q3_ctx *c, q3g_levels *l) {
    const blvl_allocator *a = &c->opt->allocator;
    uint32_t n = c->bsp->surface_count;
    if (l->level)
        blvl__dealloc(a, l->level, (size_t)(l->span_count ? l->span_count : 1) * sizeof(uint32_t));
    if (l->first)
        blvl__dealloc(a, l->first, (size_t)(n ? n : 1) * sizeof(uint32_t));
    memset(l, 0, sizeof *l);
}

blvl_status blvl__import_q3_geo_levels(const q3_geometry *g, q3g_levels *out) {
    q3_ctx *c = g->c;
    const blvl_allocator *a = &c->opt->allocator;
    const blvl_q3_bsp *bsp = c->bsp;
    int fixed = c->o->patch_subdivisions;
    if (fixed < 0 || fixed > (int)BLVL_Q3G_SUBDIV_MAX)
        return blvl__fail(c->err, BLVL_E_ARGUMENT,
                          "patch_subdivisions: patch-subdivisions: %d is not 0..%u", fixed,
                          BLVL_Q3G_SUBDIV_MAX);
    uint32_t n = bsp->surface_count;
    memset(out, 0, sizeof *out);
    out->first = blvl__calloc_n(a, n ? n : 1, sizeof(uint32_t));
    if (!out->first)
        return blvl__nomem(c->err, "the bake's scratch memory");
    uint32_t spans = 0;
    for (uint32_t i = 0; i < n; i++) {
        const blvl_q3_surface *s = &bsp->surfaces[i];
        if (s->type != BLVL_Q3_MST_PATCH || !blvl__import_q3_geo_drawn(g, i))
            continue;
        out->first[i] = spans;
        spans += (uint32_t)(s->patch_width - 1) / 2 + (uint32_t)(s->patch_height - 1) / 2;
    }
    out->span_count = spans;
    out->level = blvl__calloc_n(a, spans ? spans : 1, sizeof(uint32_t));
    uint32_t *parent = blvl__calloc_n(a, spans ? spans : 1, sizeof(uint32_t));
    size_t cap = 16;
    while (cap < (size_t)spans * 4)
        cap *= 2;
    curve_key *tab = blvl__calloc_n(a, cap, sizeof *tab);
    blvl_status st = BLVL_OK;
    if (!out->level || !parent || !tab) {
        st = blvl__nomem(c->err, "the bake's scratch memory");
        goto out;
    }
    for (uint32_t i = 0; i < spans; i++)
        parent[i] = i;
    for (uint32_t i = 0; i < n; i++) {
        const blvl_q3_surface *s = &bsp->surfaces[i];
        if (s->type != BLVL_Q3_MST_PATCH || !blvl__import_q3_geo_drawn(g, i))
            continue;
        uint32_t w = (uint32_t)s->patch_width, h = (uint32_t)s->patch_height;
        uint32_t nu = (w - 1) / 2, nv = (h - 1) / 2, base = out->first[i];
        const blvl_q3_draw_vert *P = bsp->draw_verts + s->first_vert;
#define XYZ(r, col) (P[(size_t)(r)*w + (col)].xyz)
        for (uint32_t sp = 0; sp < nu; sp++) { /* along u: every control row */
            uint32_t l = 1;
            for (uint32_t r = 0; r < h; r++) {
                uint32_t x = need(XYZ(r, 2 * sp), XYZ(r, 2 * sp + 1), XYZ(r, 2 * sp + 2));
                l = x > l ? x : l;
            }
            out->level[base + sp] = fixed ? (uint32_t)fixed : l;
            for (uint32_t r = 0; r < h; r += h - 1) {
                curve_key k;
                make_key(XYZ(r, 2 * sp), XYZ(r, 2 * sp + 1), XYZ(r, 2 * sp + 2), &k);
                insert(tab, cap - 1, parent, &k, base + sp);
            }
        }
        for (uint32_t sp = 0; sp < nv; sp++) { /* along v: every control column */
            uint32_t l = 1;
            for (uint32_t col = 0; col < w; col++) {
                uint32_t x = need(XYZ(2 * sp, col), XYZ(2 * sp + 1, col), XYZ(2 * sp + 2, col));
                l = x > l ? x : l;
            }
            out->level[base + nu + sp] = fixed ? (uint32_t)fixed : l;
            for (uint32_t col = 0; col < w; col += w - 1) {
                curve_key k;
                make_key(XYZ(2 * sp, col), XYZ(2 * sp + 1, col), XYZ(2 * sp + 2, col), &k);
                insert(tab, cap - 1, parent, &k, base + nu + sp);
            }
        }
#undef XYZ
    }
    /* Each group takes its largest level. */
    for (uint32_t i = 0; i < spans; i++) {
        uint32_t r = find(parent, i);
        out->level[r] = out->level[i] > out->level[r] ? out->level[i] : out->level[r];
    }
    for (uint32_t i = 0; i < spans; i++)
        out->level[i] = out->level[find(parent, i)];
    uint64_t tris = 0;
    for (uint32_t i = 0; i < n; i++) {
        const blvl_q3_surface *s = &bsp->surfaces[i];
        if (s->type != BLVL_Q3_MST_PATCH || !blvl__import_q3_geo_drawn(g, i))
            continue;
        uint32_t nu = (uint32_t)(s->patch_width - 1) / 2, nv = (uint32_t)(s->patch_height - 1) / 2;
        uint64_t su = 0, sv = 0;
        for (uint32_t k = 0; k < nu; k++)
            su += out->level[out->first[i] + k];
        for (uint32_t k = 0; k < nv; k++)
            sv += out->level[out->first[i] + nu + k];
        tris += 2 * su * sv;
    }
    if (tris > BLVL_Q3G_PATCH_TRIS_MAX)
        st = blvl__fail_source(c->err, "lump surfaces", "patch_width",
                               bsp->offset[BLVL_Q3_LUMP_SURFACES], "patch-tessellation",
                               "the patches tessellate to %llu triangles, more than %u",
                               (unsigned long long)tris, BLVL_Q3G_PATCH_TRIS_MAX);
out:
    if (parent)
        blvl__dealloc(a, parent, (size_t)(spans ? spans : 1) * sizeof(uint32_t));
    if (tab)
        blvl__dealloc(a, tab, cap * sizeof *tab);
    return st;
}

/* ---- tessellation -------------------------------------------------------------------- */

static bool lessd(const double *a, const double *b) {
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return a[k] < b[k];
    return false;
}

/* Point k of N along the quadratic a, b, c, always computed from the endpoint that sorts
 * first, so a curve shared by two patches gives the same bits from either. */
static void curve(const q3g_vert *a, const q3g_vert *b, const q3g_vert *c, uint32_t k, uint32_t n,
                  q3g_vert *o) {
    if (lessd(c->p, a->p)) {
        const q3g_vert *t = a;
        a = c, c = t;
        k = n - k;
    }
    double s = (double)(n - k) / n, t = (double)k / n;
    double w0 = s * s, w1 = 2 * s * t, w2 = t * t;
    const double *pa = &a->p[0], *pb = &b->p[0], *pc = &c->p[0];
    double *po = &o->p[0];
    for (size_t i = 0; i < sizeof(q3g_vert) / sizeof(double); i++)
        po[i] = w0 * pa[i] + w1 * pb[i] + w2 * pc[i];
}

/* For grid line g: its span and its step in that span. */
static void locate(const uint32_t *lv, uint32_t spans, uint32_t *span, uint32_t *k) {
    uint32_t g = *k, s = 0;
    while (s + 1 < spans && g >= lv[s]) {
        g -= lv[s];
        s++;
    }
    *span = s, *k = g;
}

blvl_status blvl__import_q3_geo_tessellate(q3_ctx *c, uint32_t si, const q3_model_place *m,
                                           const uint32_t *lu, const uint32_t *lv,
                                           blvl_bake_vertex **verts, uint32_t *vn, uint32_t **idx,
                                           uint32_t *tn) {
    const blvl_allocator *a = &c->opt->allocator;
    const blvl_q3_surface *s = &c->bsp->surfaces[si];
    uint32_t w = (uint32_t)s->patch_width, h = (uint32_t)s->patch_height;
    uint32_t nu = (w - 1) / 2, nv = (h - 1) / 2, gw = 1, gh = 1;
    for (uint32_t i = 0; i < nu; i++)
        gw += lu[i];
    for (uint32_t i = 0; i < nv; i++)
        gh += lv[i];
    q3g_vert *ctrl = blvl__calloc_n(a, (size_t)w * h, sizeof *ctrl);
    *verts = blvl__calloc_n(a, (size_t)gw * gh, sizeof **verts);
    *idx = blvl__calloc_n(a, (size_t)(gw - 1) * (gh - 1) * 6, sizeof **idx);
    if (!ctrl || !*verts || !*idx) {
        if (ctrl)
            blvl__dealloc(a, ctrl, (size_t)w * h * sizeof *ctrl);
        *vn = gw * gh, *tn = (gw - 1) * (gh - 1) * 2; /* what the caller frees */
        return blvl__nomem(c->err, "the bake's scratch memory");
    }
    for (uint32_t i = 0; i < w * h; i++)
        blvl__import_q3_geo_vert(c, s, m, &c->bsp->draw_verts[s->first_vert + i], &ctrl[i]);
    for (uint32_t y = 0; y < gh; y++) {
        uint32_t sv, kv = y;
        locate(lv, nv, &sv, &kv);
        for (uint32_t x = 0; x < gw; x++) {
            uint32_t su, ku = x;
            locate(lu, nu, &su, &ku);
            q3g_vert col[3], v;
            for (uint32_t j = 0; j < 3; j++) {
                uint32_t cx = 2 * su + j;
                curve(&ctrl[(2 * sv) * w + cx], &ctrl[(2 * sv + 1) * w + cx],
                      &ctrl[(2 * sv + 2) * w + cx], kv, lv[sv], &col[j]);
            }
            curve(&col[0], &col[1], &col[2], ku, lu[su], &v);
            blvl__import_q3_geo_out(&v, &(*verts)[y * gw + x]);
        }
    }
    /* The engine's two triangles per cell, (v2 v3 v1) (v1 v3 v4) clockwise, turned. */
    uint32_t *o = *idx;
    for (uint32_t y = 0; y + 1 < gh; y++)
        for (uint32_t x = 0; x + 1 < gw; x++) {
            uint32_t v2 = y * gw + x, v1 = v2 + 1, v3 = v2 + gw, v4 = v3 + 1;
            *o++ = v2, *o++ = v1, *o++ = v3;
            *o++ = v1, *o++ = v4, *o++ = v3;
        }
    blvl__dealloc(a, ctrl, (size_t)w * h * sizeof *ctrl);
    *vn = gw * gh;
    *tn = (gw - 1) * (gh - 1) * 2;
    return BLVL_OK;
}
