/* What the build adds to the checked graph so a path query stays short (docs/ACOUSTICS.md, "The
 * runtime query"): every probe's component, so a pair with no route is answered without a walk;
 * and a few landmarks with each probe's cost from them, so the walk's estimate of the way left
 * is the better of the straight line and a landmark's triangle inequality (ALT). */
#include <math.h>
#include <string.h>

#include "acoustics/acoustics_internal.h"
#include "common/alloc.h"
#include "common/error.h"

uint32_t blvl__acoustics_begin(blvl_acoustics_scratch *s) {
    if (++s->generation == 0) { /* the stamps wrapped: start them over */
        memset(s->stamp, 0, (size_t)s->n * sizeof *s->stamp);
        memset(s->settled, 0, (size_t)s->n * sizeof *s->settled);
        s->generation = 1;
    }
    s->heap_len = 0;
    return s->generation;
}

static uint32_t root_of(uint32_t *parent, uint32_t x) {
    while (parent[x] != x) { /* path halving */
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Union-find over the edges taken both ways, the smaller tree under the larger (size: scratch
 * of probe_count); each probe's label is then its root, and size[root] the component's size. */
static void label_components(blvl_acoustics *ac, uint32_t *size) {
    uint32_t *c = ac->component;
    for (uint32_t p = 0; p < ac->probe_count; p++) {
        c[p] = p;
        size[p] = 1;
    }
    for (uint32_t p = 0; p < ac->probe_count; p++)
        for (uint32_t e = ac->first[p]; e < ac->first[p + 1]; e++) {
            uint32_t a = root_of(c, p), b = root_of(c, ac->edges[e].to);
            if (a == b)
                continue;
            if (size[a] < size[b] || (size[a] == size[b] && b < a)) {
                uint32_t t = a;
                a = b;
                b = t;
            }
            c[b] = a;
            size[a] += size[b];
        }
    for (uint32_t p = 0; p < ac->probe_count; p++)
        c[p] = root_of(c, p);
}

/* One edge as (to, len_m's bits), for the symmetry check; a probe's edges stand together. */
typedef struct arc {
    uint32_t to, len;
} arc;

static bool arc_less(arc x, arc y) {
    return x.to != y.to ? x.to < y.to : x.len < y.len;
}

/* Heapsort: O(n log n) whatever the input, no memory beyond the records. */
static void sift_down(arc *v, size_t i, size_t n) {
    arc x = v[i];
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && arc_less(v[c], v[c + 1]))
            c++;
        if (!arc_less(x, v[c]))
            break;
        v[i] = v[c];
    }
    v[i] = x;
}

static void sort_arcs(arc *v, size_t n) {
    for (size_t i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (size_t end = n; end-- > 1;) {
        arc t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift_down(v, 0, end);
    }
}

static bool has_arc(const arc *v, size_t lo, size_t end, arc k) {
    size_t hi = end;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (arc_less(v[mid], k))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end && v[lo].to == k.to && v[lo].len == k.len;
}

/* Whether every edge has an opposite of the same len_m (then a route's cost is the same both
 * ways and a landmark bounds in both directions): each probe's edges sorted, each edge's
 * opposite looked up among its target's. O(edges log degree). */
static blvl_status check_symmetry(blvl_acoustics *ac, blvl_error *err) {
    const blvl_allocator *al = &ac->opt.allocator;
    size_t m = ac->edge_count;
    arc *v = blvl__calloc_n(al, m + 1, sizeof *v);
    if (!v)
        return blvl__nomem(err, "acoustics: the symmetry of %u edges", ac->edge_count);
    for (uint32_t p = 0; p < ac->probe_count; p++) {
        for (uint32_t e = ac->first[p]; e < ac->first[p + 1]; e++) {
            float len = ac->edges[e].len_m + 0.0f; /* -0 as +0 */
            v[e].to = ac->edges[e].to;
            memcpy(&v[e].len, &len, sizeof len);
        }
        sort_arcs(v + ac->first[p], ac->first[p + 1] - ac->first[p]);
    }
    ac->symmetric = true;
    for (uint32_t p = 0; p < ac->probe_count && ac->symmetric; p++)
        for (uint32_t e = ac->first[p]; e < ac->first[p + 1] && ac->symmetric; e++) {
            uint32_t t = v[e].to;
            ac->symmetric = has_arc(v, ac->first[t], ac->first[t + 1], (arc){p, v[e].len});
        }
    blvl__dealloc(al, v, (m + 1) * sizeof *v);
    return BLVL_OK;
}

/* Dijkstra from `from` over len_m alone (every door free) until every reachable probe is
 * settled: s->dist holds the costs where s->stamp is the returned stamp. */
static uint32_t settle_all(const blvl_acoustics *ac, blvl_acoustics_scratch *s, uint32_t from) {
    uint32_t gen = blvl__acoustics_begin(s);
    s->stamp[from] = gen;
    s->dist[from] = 0;
    blvl__acoustics_heap_push(s, 0, from);
    while (s->heap_len) {
        uint32_t p = blvl__acoustics_heap_pop(s);
        if (s->settled[p] == gen)
            continue;
        s->settled[p] = gen;
        for (uint32_t e = ac->first[p]; e < ac->first[p + 1]; e++) {
            uint32_t t = ac->edges[e].to;
            float nd = s->dist[p] + ac->edges[e].len_m;
            if (s->settled[t] != gen && (s->stamp[t] != gen || nd < s->dist[t])) {
                s->stamp[t] = gen;
                s->dist[t] = nd;
                blvl__acoustics_heap_push(s, nd, t);
            }
        }
    }
    return gen;
}

/* The probe of largest `score` (INFINITY highest, negative never; ties: the lowest index), or
 * BLVL_ACOUSTICS_NONE when every score is 0 or below. */
static uint32_t farthest(const float *score, uint32_t n) {
    uint32_t best = BLVL_ACOUSTICS_NONE;
    for (uint32_t p = 0; p < n; p++)
        if (score[p] > 0 && (best == BLVL_ACOUSTICS_NONE || score[p] > score[best]))
            best = p;
    return best;
}

/* Farthest-point landmarks: the first is the probe farthest from the largest component's first
 * probe, each next the one farthest from its nearest landmark (a large component not reached
 * yet first), among the probes of components of at least BLVL__ACOUSTICS_LANDMARK_MIN. */
static void choose_landmarks(blvl_acoustics *ac, blvl_acoustics_scratch *s, const uint32_t *size,
                             float *score) {
    uint32_t n = ac->probe_count, big = 0, K = BLVL__ACOUSTICS_LANDMARKS;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t sz = size[ac->component[p]];
        score[p] = sz >= BLVL__ACOUSTICS_LANDMARK_MIN ? INFINITY : -1.0f;
        if (sz > size[ac->component[big]])
            big = p;
    }
    uint32_t gen = settle_all(ac, s, big);
    for (uint32_t p = 0; p < n; p++)
        if (s->stamp[p] == gen && s->dist[p] > s->dist[big])
            big = p;
    uint32_t next = score[big] > 0 ? big : BLVL_ACOUSTICS_NONE;
    for (uint32_t l = 0; l < K && next != BLVL_ACOUSTICS_NONE; l++) {
        gen = settle_all(ac, s, next);
        for (uint32_t p = 0; p < n; p++) {
            float d = s->stamp[p] == gen ? s->dist[p] : INFINITY;
            ac->landmark[(size_t)p * K + l] = d;
            if (score[p] >= 0 && d < score[p])
                score[p] = d;
        }
        ac->landmark_count = l + 1;
        next = farthest(score, n);
    }
}

blvl_status blvl__acoustics_index(blvl_acoustics *ac, blvl_error *err) {
    const blvl_allocator *al = &ac->opt.allocator;
    size_t n = (size_t)ac->probe_count + 1;
    ac->component = blvl__calloc_n(al, n, sizeof *ac->component);
    uint32_t *size = blvl__calloc_n(al, n, sizeof *size);
    if (!ac->component || !size) {
        blvl__dealloc(al, size, n * sizeof *size);
        return blvl__nomem(err, "acoustics: components of %u probes", ac->probe_count);
    }
    label_components(ac, size);
    blvl_status st = BLVL_OK;
    if (ac->probe_count >= BLVL__ACOUSTICS_LANDMARK_MIN)
        st = check_symmetry(ac, err);
    if (st == BLVL_OK && ac->probe_count >= BLVL__ACOUSTICS_LANDMARK_MIN) {
        blvl_acoustics_scratch *s = NULL;
        float *score = blvl__calloc_n(al, n, sizeof *score);
        ac->landmark = blvl__calloc_n(al, n, BLVL__ACOUSTICS_LANDMARKS * sizeof *ac->landmark);
        if (!score || !ac->landmark || blvl_acoustics_scratch_new(&s, ac, err) != BLVL_OK)
            st = blvl__nomem(err, "acoustics: landmarks over %u probes", ac->probe_count);
        else
            choose_landmarks(ac, s, size, score);
        blvl_acoustics_scratch_free(s);
        blvl__dealloc(al, score, n * sizeof *score);
        if (ac->landmark_count == 0) { /* no component big enough: the memory back */
            blvl__dealloc(al, ac->landmark, n * BLVL__ACOUSTICS_LANDMARKS * sizeof *ac->landmark);
            ac->landmark = NULL;
        }
    }
    blvl__dealloc(al, size, n * sizeof *size);
    return st;
}

void blvl__acoustics_index_free(blvl_acoustics *ac) {
    const blvl_allocator *al = &ac->opt.allocator;
    size_t n = (size_t)ac->probe_count + 1;
    blvl__dealloc(al, ac->component, n * sizeof *ac->component);
    blvl__dealloc(al, ac->landmark, n * BLVL__ACOUSTICS_LANDMARKS * sizeof *ac->landmark);
}
