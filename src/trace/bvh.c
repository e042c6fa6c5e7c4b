/* The hierarchy over the static colliders: a 4-wide bounding-volume hierarchy. Each node takes
 * its range of colliders and splits it in two, then splits the larger half (or both) again, by
 * the surface-area heuristic over 12 bins of the centroids along their longest spread; four
 * children per node halve the depth of a binary tree, and the SAH keeps the boxes a short trace
 * meets small. A split's halves take their bounds from the bins, so each split is two passes
 * over its range (bin, partition). Past TW_BVH_SAH_DEPTH splits along a path the split is at the
 * median, so the depth stays bounded whatever the input. O(n log n) over the whole tree. Leaves
 * hold up to TW_BVH_LEAF_SIZE colliders, copied into the world's item array in leaf order. */
#include <math.h>
#include <string.h>

#include "trace/trace_internal.h"

#define BINS 12
#define SMALL 16

/* Bounds are finite (the build checked every plane and vertex): plain comparisons, not the
 * library calls fminf and fmaxf with their NaN rules. */
#define MINF(a, b) ((a) < (b) ? (a) : (b))
#define MAXF(a, b) ((a) > (b) ? (a) : (b))

/* Four-float vectors for the build's bounds (lanes x, y, z and one unused). */
#if defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 f4;
static inline f4 f4_load(const float *p) {
    return _mm_loadu_ps(p);
}
static inline void f4_store(float *p, f4 a) {
    _mm_storeu_ps(p, a);
}
static inline f4 f4_min(f4 a, f4 b) {
    return _mm_min_ps(a, b);
}
static inline f4 f4_max(f4 a, f4 b) {
    return _mm_max_ps(a, b);
}
static inline f4 f4_add(f4 a, f4 b) {
    return _mm_add_ps(a, b);
}
static inline f4 f4_set1(float x) {
    return _mm_set1_ps(x);
}
#else
typedef struct f4 {
    float v[4];
} f4;
static inline f4 f4_load(const float *p) {
    f4 r = {{p[0], p[1], p[2], p[3]}};
    return r;
}
static inline void f4_store(float *p, f4 a) {
    memcpy(p, a.v, sizeof a.v);
}
static inline f4 f4_min(f4 a, f4 b) {
    for (int i = 0; i < 4; i++)
        a.v[i] = MINF(a.v[i], b.v[i]);
    return a;
}
static inline f4 f4_max(f4 a, f4 b) {
    for (int i = 0; i < 4; i++)
        a.v[i] = MAXF(a.v[i], b.v[i]);
    return a;
}
static inline f4 f4_add(f4 a, f4 b) {
    for (int i = 0; i < 4; i++)
        a.v[i] += b.v[i];
    return a;
}
static inline f4 f4_set1(float x) {
    f4 r = {{x, x, x, x}};
    return r;
}
#endif

/* A collider's bounds as the build reads them: lo x y z, 0, hi x y z, 0. Centroids are kept
 * doubled (lo + hi): only their order and spread matter. */
typedef struct bbox {
    float lo[4], hi[4];
} bbox;

typedef struct bvh_build {
    blvl_trace_world *w;
    uint32_t *ref;  /* collider indices, partitioned in place */
    bbox *box;      /* per collider index */
    tw_item *items; /* the output, in leaf order */
    uint32_t item_next;
} bvh_build;

/* A range of ref with its bounds and the bounds of its (doubled) centroids. */
typedef struct range {
    uint32_t first, count;
    unsigned depth;
    float lo[4], hi[4], clo[4], chi[4];
} range;

static float cen(const bvh_build *b, uint32_t ci, int axis) {
    return b->box[ci].lo[axis] + b->box[ci].hi[axis];
}

static float half_area(const float lo[4], const float hi[4]) {
    float dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
    return dx * dy + dy * dz + dz * dx;
}

static void range_measure(const bvh_build *b, range *r) {
    f4 lo = f4_set1(INFINITY), hi = f4_set1(-INFINITY), clo = lo, chi = hi;
    for (uint32_t i = r->first; i < r->first + r->count; i++) {
        const bbox *x = &b->box[b->ref[i]];
        f4 a = f4_load(x->lo), c = f4_load(x->hi), m = f4_add(a, c);
        lo = f4_min(lo, a);
        hi = f4_max(hi, c);
        clo = f4_min(clo, m);
        chi = f4_max(chi, m);
    }
    f4_store(r->lo, lo);
    f4_store(r->hi, hi);
    f4_store(r->clo, clo);
    f4_store(r->chi, chi);
}

/* Quickselect: it[0..n) partitioned so position k holds the median along axis. */
static void select_kth(const bvh_build *b, uint32_t *it, uint32_t n, uint32_t k, int axis) {
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        float pivot = cen(b, it[lo + (hi - lo) / 2], axis);
        uint32_t i = lo, j = hi;
        while (i <= j) {
            while (cen(b, it[i], axis) < pivot)
                i++;
            while (cen(b, it[j], axis) > pivot)
                j--;
            if (i <= j) {
                uint32_t t = it[i];
                it[i] = it[j];
                it[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
}

/* The SAH split of r along `axis` over BINS bins: 1 with *l and *rr filled (bounds from the
 * bins, no second pass), 0 when no bin boundary separates anything. */
static int split_sah(bvh_build *b, const range *r, int axis, range *l, range *rr) {
    uint32_t *it = b->ref + r->first;
    float base = r->clo[axis], scale = (float)BINS / (r->chi[axis] - r->clo[axis]);
    uint32_t n[BINS] = {0};
    f4 blo[BINS], bhi[BINS], bclo[BINS], bchi[BINS];
    for (int j = 0; j < BINS; j++)
        blo[j] = bclo[j] = f4_set1(INFINITY), bhi[j] = bchi[j] = f4_set1(-INFINITY);
    for (uint32_t i = 0; i < r->count; i++) {
        const bbox *x = &b->box[it[i]];
        int j = (int)((x->lo[axis] + x->hi[axis] - base) * scale);
        j = j < 0 ? 0 : j >= BINS ? BINS - 1 : j;
        f4 a = f4_load(x->lo), c = f4_load(x->hi), m = f4_add(a, c);
        n[j]++;
        blo[j] = f4_min(blo[j], a);
        bhi[j] = f4_max(bhi[j], c);
        bclo[j] = f4_min(bclo[j], m);
        bchi[j] = f4_max(bchi[j], m);
    }
    /* cost of cutting after bin j: left area x count + right area x count */
    float right[BINS], tmp_lo[4], tmp_hi[4];
    f4 alo = f4_set1(INFINITY), ahi = f4_set1(-INFINITY);
    uint32_t acc = 0;
    for (int j = BINS - 1; j > 0; j--) {
        acc += n[j];
        alo = f4_min(alo, blo[j]);
        ahi = f4_max(ahi, bhi[j]);
        f4_store(tmp_lo, alo);
        f4_store(tmp_hi, ahi);
        right[j] = acc ? half_area(tmp_lo, tmp_hi) * (float)acc : 0;
    }
    float best = INFINITY;
    int cut = -1;
    alo = f4_set1(INFINITY), ahi = f4_set1(-INFINITY), acc = 0;
    for (int j = 0; j < BINS - 1; j++) {
        acc += n[j];
        alo = f4_min(alo, blo[j]);
        ahi = f4_max(ahi, bhi[j]);
        if (!acc || acc == r->count)
            continue;
        f4_store(tmp_lo, alo);
        f4_store(tmp_hi, ahi);
        float cost = half_area(tmp_lo, tmp_hi) * (float)acc + right[j + 1];
        if (cost < best)
            best = cost, cut = j;
    }
    if (cut < 0)
        return 0;
    uint32_t i = 0, k = r->count;
    while (i < k) {
        const bbox *x = &b->box[it[i]];
        int j = (int)((x->lo[axis] + x->hi[axis] - base) * scale);
        j = j < 0 ? 0 : j >= BINS ? BINS - 1 : j;
        if (j <= cut) {
            i++;
        } else {
            uint32_t t = it[i];
            it[i] = it[--k];
            it[k] = t;
        }
    }
    if (i == 0 || i == r->count)
        return 0; /* (the bins said otherwise; never trust a float twice) */
    f4 llo = f4_set1(INFINITY), lhi = f4_set1(-INFINITY), lclo = llo, lchi = lhi;
    f4 rlo = llo, rhi = lhi, rclo = llo, rchi = lhi;
    for (int j = 0; j < BINS; j++) {
        if (j <= cut) {
            llo = f4_min(llo, blo[j]), lhi = f4_max(lhi, bhi[j]);
            lclo = f4_min(lclo, bclo[j]), lchi = f4_max(lchi, bchi[j]);
        } else {
            rlo = f4_min(rlo, blo[j]), rhi = f4_max(rhi, bhi[j]);
            rclo = f4_min(rclo, bclo[j]), rchi = f4_max(rchi, bchi[j]);
        }
    }
    l->first = r->first, l->count = i, l->depth = r->depth + 1;
    rr->first = r->first + i, rr->count = r->count - i, rr->depth = r->depth + 1;
    f4_store(l->lo, llo), f4_store(l->hi, lhi), f4_store(l->clo, lclo), f4_store(l->chi, lchi);
    f4_store(rr->lo, rlo), f4_store(rr->hi, rhi), f4_store(rr->clo, rclo);
    f4_store(rr->chi, rchi);
    return 1;
}

/* Split r in two (both non-empty). */
static void split(bvh_build *b, const range *r, range *l, range *rr) {
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (r->chi[k] - r->clo[k] > r->chi[axis] - r->clo[axis])
            axis = k;
    /* The longest axis of the centroids' spread only: three times cheaper to build, and on
     * level geometry the other axes seldom win by much. */
    /* A small range is cut at its median: binning would cost more than it finds. */
    if (r->count > SMALL && r->chi[axis] > r->clo[axis] && r->depth < TW_BVH_SAH_DEPTH &&
        split_sah(b, r, axis, l, rr))
        return;
    uint32_t half = r->count / 2;
    if (r->chi[axis] > r->clo[axis])
        select_kth(b, b->ref + r->first, r->count, half, axis);
    /* else every centroid in one point: any split is as good */
    l->first = r->first, l->count = half, l->depth = r->depth + 1;
    rr->first = r->first + half, rr->count = r->count - half, rr->depth = r->depth + 1;
    range_measure(b, l);
    range_measure(b, rr);
}

static void build_node(bvh_build *b, uint32_t node, const range *whole) {
    range r[4];
    r[0] = *whole;
    int nr = 1;
    /* Split the largest range that is over the leaf size until there are four. */
    while (nr < 4) {
        int pick = -1;
        for (int i = 0; i < nr; i++)
            if (r[i].count > TW_BVH_LEAF_SIZE && (pick < 0 || r[i].count > r[pick].count))
                pick = i;
        if (pick < 0)
            break;
        range a, c;
        split(b, &r[pick], &a, &c);
        r[pick] = a;
        r[nr++] = c;
    }
    tw_node4 *nd = &b->w->nodes[node];
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 3; k++)
            nd->lo[k][i] = INFINITY, nd->hi[k][i] = -INFINITY;
        nd->child[i] = TW_LEAF;
        nd->count[i] = 0;
    }
    nd->leaves = nd->inner = nd->pad = 0;
    for (int i = 0; i < nr; i++) {
        for (int k = 0; k < 3; k++)
            nd->lo[k][i] = r[i].lo[k], nd->hi[k][i] = r[i].hi[k];
        if (r[i].count <= TW_BVH_LEAF_SIZE) {
            nd->child[i] = TW_LEAF | b->item_next;
            nd->count[i] = (uint8_t)r[i].count;
            nd->leaves |= r[i].count ? 1u << i : 0u;
            for (uint32_t j = r[i].first; j < r[i].first + r[i].count; j++) {
                uint32_t ci = b->ref[j];
                const tw_collider *c = &b->w->colliders[ci];
                tw_item *t = &b->items[b->item_next++];
                memcpy(t->lo, c->lo, sizeof t->lo);
                memcpy(t->hi, c->hi, sizeof t->hi);
                t->first_plane = c->first_plane;
                t->plane_count = c->plane_count;
                t->collider = ci;
                t->flags = c->flags;
                t->gametypes = c->gametypes;
                t->pad = 0;
            }
        } else {
            uint32_t child = b->w->node_count++;
            nd->child[i] = child;
            nd->inner |= 1u << i;
            build_node(b, child, &r[i]);
        }
    }
}

blvl_status blvl__trace_bvh_build(blvl_trace_world *w, blvl_error *err) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < w->collider_count; i++) {
        const tw_collider *c = &w->colliders[i];
        if (c->plane_count && c->door == BLVL_TRACE_NONE)
            n++;
    }
    w->item_count = 0;
    w->node_count = w->node_cap = 0;
    if (n == 0)
        return BLVL_OK;
    /* A node keeps splitting while it has fewer than four children and one of them is over
     * the leaf size (one collider), so a node with an inner child has four children, and one
     * whose children are all leaves holds at least two colliders (B <= n / 2 of them): inner
     * nodes I with n leaves then satisfy 3 I <= n - 1 + 2 B, so I < n + 1. */
    bvh_build b = {w, NULL, NULL, NULL, 0};
    b.ref = blvl__calloc_n(&w->al, n, sizeof(uint32_t));
    b.box = blvl__calloc_n(&w->al, w->collider_count, sizeof(bbox));
    w->items = blvl__calloc_n(&w->al, n, sizeof(tw_item));
    w->nodes = blvl__calloc_n(&w->al, n + 1, sizeof(tw_node4));
    if (w->items)
        w->item_count = n; /* the allocation's size, for the free */
    if (w->nodes)
        w->node_cap = n + 1;
    if (!b.ref || !b.box || !w->items || !w->nodes) {
        blvl__dealloc(&w->al, b.ref, (size_t)n * sizeof(uint32_t));
        blvl__dealloc(&w->al, b.box, (size_t)w->collider_count * sizeof(bbox));
        return blvl__nomem(err, "trace: hierarchy");
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->collider_count; i++) {
        const tw_collider *c = &w->colliders[i];
        if (!c->plane_count || c->door != BLVL_TRACE_NONE)
            continue;
        b.ref[k++] = i;
        for (int a = 0; a < 3; a++)
            b.box[i].lo[a] = c->lo[a], b.box[i].hi[a] = c->hi[a];
    }
    b.items = w->items;
    w->node_count = 1;
    range all = {0, n, 0, {0}, {0}, {0}, {0}};
    range_measure(&b, &all);
    build_node(&b, 0, &all);
    blvl__dealloc(&w->al, b.ref, (size_t)n * sizeof(uint32_t));
    blvl__dealloc(&w->al, b.box, (size_t)w->collider_count * sizeof(bbox));
    return BLVL_OK;
}
