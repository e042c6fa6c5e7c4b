/* Bounding-volume hierarchy over a world's static colliders, built once per level: binary,
 * split at the median centroid along the longest axis of the centroids' spread, so its depth is
 * at most log2(n) + 1 whatever the input and a query's fixed stack cannot overflow. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "trace/trace_internal.h"

typedef struct bvh_build {
    blvl_trace_world *w;
    uint32_t *items;
    float *centroid; /* 3 per collider */
    uint32_t node_count;
} bvh_build;

static float cen(const bvh_build *b, uint32_t item, int axis) {
    return b->centroid[3 * (size_t)item + axis];
}

/* Quickselect: items[lo..hi) partitioned so position k holds the median along axis. */
static void select_kth(bvh_build *b, uint32_t *it, uint32_t n, uint32_t k, int axis) {
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

static void build_node(bvh_build *b, uint32_t node, uint32_t first, uint32_t count,
                       unsigned depth) {
    tw_node *nd = &b->w->nodes[node];
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    float clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = first; i < first + count; i++) {
        const tw_collider *c = &b->w->colliders[b->items[i]];
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], c->lo[k]);
            hi[k] = fmaxf(hi[k], c->hi[k]);
            float m = cen(b, b->items[i], k);
            clo[k] = fminf(clo[k], m);
            chi[k] = fmaxf(chi[k], m);
        }
    }
    memcpy(nd->lo, lo, sizeof lo);
    memcpy(nd->hi, hi, sizeof hi);
    if (count <= TW_BVH_LEAF_SIZE || depth + 1 >= TW_BVH_MAX_DEPTH) {
        nd->first = first;
        nd->count = count;
        return;
    }
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (chi[k] - clo[k] > chi[axis] - clo[axis])
            axis = k;
    uint32_t half = count / 2;
    select_kth(b, b->items + first, count, half, axis);
    uint32_t child = b->node_count;
    b->node_count += 2;
    nd->first = child;
    nd->count = 0;
    build_node(b, child, first, half, depth + 1);
    build_node(b, child + 1, first + half, count - half, depth + 1);
}

blvl_status blvl__tw_bvh_build(blvl_trace_world *w, blvl_error *err) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < w->collider_count; i++) {
        const tw_collider *c = &w->colliders[i];
        if (c->plane_count && c->door == BLVL_TRACE_NONE)
            n++;
    }
    w->item_count = n;
    w->node_count = 0;
    if (n == 0)
        return BLVL_OK;
    bvh_build b = {w, NULL, NULL, 1};
    w->items = blvl__calloc_n(&w->al, n, sizeof(uint32_t));
    w->nodes = blvl__calloc_n(&w->al, 2 * (size_t)n, sizeof(tw_node));
    w->node_count = (uint32_t)(2 * (size_t)n); /* the allocation's size, for the free */
    b.centroid = blvl__calloc_n(&w->al, 3 * (size_t)w->collider_count, sizeof(float));
    if (!w->items || !w->nodes || !b.centroid) {
        blvl__dealloc(&w->al, b.centroid, 3 * (size_t)w->collider_count * sizeof(float));
        return blvl__fail(err, BLVL_E_NOMEM, "trace: hierarchy: out of memory");
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->collider_count; i++) {
        const tw_collider *c = &w->colliders[i];
        if (!c->plane_count || c->door != BLVL_TRACE_NONE)
            continue;
        w->items[k++] = i;
        for (int a = 0; a < 3; a++)
            b.centroid[3 * (size_t)i + a] = 0.5f * c->lo[a] + 0.5f * c->hi[a];
    }
    b.items = w->items;
    build_node(&b, 0, 0, n, 0);
    blvl__dealloc(&w->al, b.centroid, 3 * (size_t)w->collider_count * sizeof(float));
    return BLVL_OK;
}
