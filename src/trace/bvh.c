/* The hierarchy over the static colliders: a 4-wide bounding-volume hierarchy. Each node takes
 * its range of colliders and splits it in two, then splits the larger half (or both) again, by
 * the surface-area heuristic over 12 bins of the centroids on each axis; four children per node
 * halve the depth of a binary tree, and the SAH keeps the boxes a short trace meets small. Past
 * TW_BVH_SAH_DEPTH splits along a path the split is at the median, so the depth stays bounded
 * whatever the input. The build is linear per level (binning, partition in place), so
 * O(n log n) over the whole tree. Leaves hold up to TW_BVH_LEAF_SIZE colliders, copied into
 * the world's item array in leaf order. */
#include <math.h>
#include <string.h>

#include "trace/trace_internal.h"

#define BINS 12

/* Bounds are finite (the build checked every plane and vertex): plain comparisons, not the
 * library calls fminf and fmaxf with their NaN rules. */
#define MINF(a, b) ((a) < (b) ? (a) : (b))
#define MAXF(a, b) ((a) > (b) ? (a) : (b))

typedef struct bvh_build {
    blvl_trace_world *w;
    uint32_t *ref;   /* collider indices, partitioned in place */
    float *centroid; /* 3 per collider */
    tw_item *items;  /* the output, in leaf order */
    uint32_t item_next;
} bvh_build;

static float cen(const bvh_build *b, uint32_t ci, int axis) {
    return b->centroid[3 * (size_t)ci + axis];
}

static float half_area(const float lo[3], const float hi[3]) {
    float dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
    return dx * dy + dy * dz + dz * dx;
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

/* Split ref[first..first+count) in two; returns the size of the first part (1..count-1). */
static uint32_t split(bvh_build *b, uint32_t first, uint32_t count, unsigned depth) {
    uint32_t *it = b->ref + first;
    float clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < count; i++)
        for (int k = 0; k < 3; k++) {
            float m = cen(b, it[i], k);
            clo[k] = MINF(clo[k], m);
            chi[k] = MAXF(chi[k], m);
        }
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (chi[k] - clo[k] > chi[axis] - clo[axis])
            axis = k;
    if (!(chi[axis] > clo[axis]))
        return count / 2; /* every centroid in one point: any split is as good */
    if (depth < TW_BVH_SAH_DEPTH) {
        float best = INFINITY;
        int best_axis = -1, best_bin = 0;
        /* The longest axis of the centroids' spread only: three times cheaper to build, and
         * on level geometry the other axes seldom win by much. */
        for (int k = axis; k == axis; k++) {
            float ext = chi[k] - clo[k];
            float scale = (float)BINS / ext;
            uint32_t n[BINS] = {0};
            float blo[BINS][3], bhi[BINS][3];
            for (int j = 0; j < BINS; j++)
                for (int a = 0; a < 3; a++)
                    blo[j][a] = INFINITY, bhi[j][a] = -INFINITY;
            for (uint32_t i = 0; i < count; i++) {
                int j = (int)((cen(b, it[i], k) - clo[k]) * scale);
                j = j < 0 ? 0 : j >= BINS ? BINS - 1 : j;
                const tw_collider *c = &b->w->colliders[it[i]];
                n[j]++;
                for (int a = 0; a < 3; a++) {
                    blo[j][a] = MINF(blo[j][a], c->lo[a]);
                    bhi[j][a] = MAXF(bhi[j][a], c->hi[a]);
                }
            }
            /* cost of cutting after bin j: left area x count + right area x count */
            float right[BINS];
            float rlo[3] = {INFINITY, INFINITY, INFINITY},
                  rhi[3] = {-INFINITY, -INFINITY, -INFINITY};
            uint32_t rn = 0;
            for (int j = BINS - 1; j > 0; j--) {
                rn += n[j];
                for (int a = 0; a < 3; a++)
                    rlo[a] = MINF(rlo[a], blo[j][a]), rhi[a] = MAXF(rhi[a], bhi[j][a]);
                right[j] = rn ? half_area(rlo, rhi) * (float)rn : 0;
            }
            float llo[3] = {INFINITY, INFINITY, INFINITY},
                  lhi[3] = {-INFINITY, -INFINITY, -INFINITY};
            uint32_t ln = 0;
            for (int j = 0; j < BINS - 1; j++) {
                ln += n[j];
                for (int a = 0; a < 3; a++)
                    llo[a] = MINF(llo[a], blo[j][a]), lhi[a] = MAXF(lhi[a], bhi[j][a]);
                if (!ln || ln == count)
                    continue;
                float cost = half_area(llo, lhi) * (float)ln + right[j + 1];
                if (cost < best)
                    best = cost, best_axis = k, best_bin = j;
            }
        }
        if (best_axis >= 0) {
            int k = best_axis;
            float scale = (float)BINS / (chi[k] - clo[k]);
            uint32_t i = 0, j = count;
            while (i < j) {
                int bin = (int)((cen(b, it[i], k) - clo[k]) * scale);
                bin = bin < 0 ? 0 : bin >= BINS ? BINS - 1 : bin;
                if (bin <= best_bin) {
                    i++;
                } else {
                    uint32_t t = it[i];
                    it[i] = it[--j];
                    it[j] = t;
                }
            }
            if (i > 0 && i < count)
                return i;
        }
    }
    uint32_t half = count / 2;
    select_kth(b, it, count, half, axis);
    return half;
}

static void range_bounds(const bvh_build *b, uint32_t first, uint32_t count, float lo[3],
                         float hi[3]) {
    for (int k = 0; k < 3; k++)
        lo[k] = INFINITY, hi[k] = -INFINITY;
    for (uint32_t i = first; i < first + count; i++) {
        const tw_collider *c = &b->w->colliders[b->ref[i]];
        for (int k = 0; k < 3; k++) {
            lo[k] = MINF(lo[k], c->lo[k]);
            hi[k] = MAXF(hi[k], c->hi[k]);
        }
    }
}

typedef struct range {
    uint32_t first, count;
    unsigned depth;
} range;

static void build_node(bvh_build *b, uint32_t node, uint32_t first, uint32_t count,
                       unsigned depth) {
    range r[4] = {{first, count, depth}};
    int nr = 1;
    /* Split the largest range that is over the leaf size until there are four. */
    while (nr < 4) {
        int pick = -1;
        for (int i = 0; i < nr; i++)
            if (r[i].count > TW_BVH_LEAF_SIZE && (pick < 0 || r[i].count > r[pick].count))
                pick = i;
        if (pick < 0)
            break;
        uint32_t left = split(b, r[pick].first, r[pick].count, r[pick].depth);
        range right = {r[pick].first + left, r[pick].count - left, r[pick].depth + 1};
        r[pick].count = left;
        r[pick].depth++;
        r[nr++] = right;
    }
    tw_node4 *nd = &b->w->nodes[node];
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 3; k++)
            nd->lo[k][i] = INFINITY, nd->hi[k][i] = -INFINITY;
        nd->child[i] = TW_LEAF;
        nd->count[i] = 0;
    }
    for (int i = 0; i < nr; i++) {
        float lo[3], hi[3];
        range_bounds(b, r[i].first, r[i].count, lo, hi);
        for (int k = 0; k < 3; k++)
            nd->lo[k][i] = lo[k], nd->hi[k][i] = hi[k];
        if (r[i].count <= TW_BVH_LEAF_SIZE) {
            nd->child[i] = TW_LEAF | b->item_next;
            nd->count[i] = r[i].count;
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
            build_node(b, child, r[i].first, r[i].count, r[i].depth);
            nd = &b->w->nodes[node]; /* (the array never moves; kept for clarity) */
        }
    }
}

blvl_status blvl__tw_bvh_build(blvl_trace_world *w, blvl_error *err) {
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
     * the leaf size, so a node with an inner child has four children, and one whose children
     * are all leaves holds at least five colliders: inner nodes I and leaves L (L <= n) then
     * satisfy 3 I <= L + 2 n / 5, so I < n / 2 + 2. */
    bvh_build b = {w, NULL, NULL, NULL, 0};
    b.ref = blvl__calloc_n(&w->al, n, sizeof(uint32_t));
    b.centroid = blvl__calloc_n(&w->al, 3 * (size_t)w->collider_count, sizeof(float));
    w->items = blvl__calloc_n(&w->al, n, sizeof(tw_item));
    w->nodes = blvl__calloc_n(&w->al, n / 2 + 2, sizeof(tw_node4));
    if (w->items)
        w->item_count = n; /* the allocation's size, for the free */
    if (w->nodes)
        w->node_cap = n / 2 + 2;
    if (!b.ref || !b.centroid || !w->items || !w->nodes) {
        blvl__dealloc(&w->al, b.ref, (size_t)n * sizeof(uint32_t));
        blvl__dealloc(&w->al, b.centroid, 3 * (size_t)w->collider_count * sizeof(float));
        return blvl__fail(err, BLVL_E_NOMEM, "trace: hierarchy: out of memory");
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->collider_count; i++) {
        const tw_collider *c = &w->colliders[i];
        if (!c->plane_count || c->door != BLVL_TRACE_NONE)
            continue;
        b.ref[k++] = i;
        for (int a = 0; a < 3; a++)
            b.centroid[3 * (size_t)i + a] = 0.5f * c->lo[a] + 0.5f * c->hi[a];
    }
    b.items = w->items;
    w->node_count = 1;
    build_node(&b, 0, 0, n, 0);
    blvl__dealloc(&w->al, b.ref, (size_t)n * sizeof(uint32_t));
    blvl__dealloc(&w->al, b.centroid, 3 * (size_t)w->collider_count * sizeof(float));
    return BLVL_OK;
}
