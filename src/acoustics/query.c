/* The acoustics queries: a point's probe (the grid searched in shells of cells around the point,
 * the nearest few tried for one that sees it) and the path between two points' probes (A* over
 * len_m plus the game's door costs, with a straight-line heuristic that never overshoots). Both
 * read the object only; a path writes its scratch and its result. */
#include <math.h>
#include <string.h>

#include "acoustics/acoustics_internal.h"
#include "common/alloc.h"
#include "common/error.h"

typedef struct candidates {
    uint32_t n, k;
    uint32_t probe[BLVL_ACOUSTICS_VISIBLE_TRIES];
    float d2[BLVL_ACOUSTICS_VISIBLE_TRIES];
} candidates;

static float dist2(blvl_Vec3 a, const float p[3]) {
    float dx = a.x - p[0], dy = a.y - p[1], dz = a.z - p[2];
    return dx * dx + dy * dy + dz * dz;
}

/* Keep the k nearest, by distance then index (so ties go the same way every time). */
static void offer(candidates *c, uint32_t probe, float d2) {
    uint32_t i = c->n;
    if (i == c->k) {
        if (d2 > c->d2[i - 1] || (d2 == c->d2[i - 1] && probe > c->probe[i - 1]))
            return;
        i--;
    } else {
        c->n++;
    }
    while (i > 0 && (c->d2[i - 1] > d2 || (c->d2[i - 1] == d2 && c->probe[i - 1] > probe))) {
        c->d2[i] = c->d2[i - 1];
        c->probe[i] = c->probe[i - 1];
        i--;
    }
    c->d2[i] = d2;
    c->probe[i] = probe;
}

static void scan_cell(const blvl_acoustics *ac, const float p[3], const int32_t cell[3], float r2,
                      candidates *c) {
    uint32_t b = blvl__acoustics_bucket(ac, cell[0], cell[1], cell[2]);
    for (uint32_t i = ac->bucket_start[b]; i < ac->bucket_start[b + 1]; i++) {
        uint32_t q = ac->bucket_items[i];
        blvl_Vec3 v = ac->probes[q].position;
        /* another cell hashed into this bucket: it is scanned as itself */
        if (blvl__acoustics_cell_of(v.x, ac->cell) != cell[0] ||
            blvl__acoustics_cell_of(v.y, ac->cell) != cell[1] ||
            blvl__acoustics_cell_of(v.z, ac->cell) != cell[2])
            continue;
        float d2 = dist2(v, p);
        if (d2 <= r2)
            offer(c, q, d2);
    }
}

/* The k nearest probes within the radius: shell s holds the cells s steps from the point's
 * (Chebyshev); a probe not yet seen after shell s is at least s cells away. */
static void gather(const blvl_acoustics *ac, const float p[3], candidates *c) {
    int32_t o[3] = {blvl__acoustics_cell_of(p[0], ac->cell),
                    blvl__acoustics_cell_of(p[1], ac->cell),
                    blvl__acoustics_cell_of(p[2], ac->cell)};
    float r2 = ac->radius * ac->radius;
    int32_t last = (int32_t)ceilf(ac->radius / ac->cell) + 1;
    for (int32_t s = 0; s <= last; s++) {
        for (int32_t dx = -s; dx <= s; dx++)
            for (int32_t dy = -s; dy <= s; dy++)
                for (int32_t dz = -s; dz <= s; dz++) {
                    int32_t m = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy, az = dz < 0 ? -dz : dz;
                    m = ay > m ? ay : m;
                    m = az > m ? az : m;
                    if (m != s) /* inner shells are done; skip straight across them */
                        continue;
                    int32_t cell[3] = {o[0] + dx, o[1] + dy, o[2] + dz};
                    scan_cell(ac, p, cell, r2, c);
                }
        float reach = (float)s * ac->cell;
        if (c->n == c->k && c->d2[c->n - 1] < reach * reach)
            return;
        if (reach > ac->radius)
            return;
    }
}

static bool finite3(const float p[3]) {
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

uint32_t blvl_acoustics_nearest(const blvl_acoustics *ac, const float point[3],
                                const blvl_acoustics_query *q) {
    if (!ac || !point || !finite3(point) || ac->probe_count == 0)
        return BLVL_ACOUSTICS_NONE;
    for (int k = 0; k < 3; k++)
        if (fabsf(point[k]) > BLVL_ACOUSTICS_MAX_COORD)
            return BLVL_ACOUSTICS_NONE;
    const blvl_trace_world *world = q ? q->world : NULL;
    candidates c = {0, world ? BLVL_ACOUSTICS_VISIBLE_TRIES : 1, {0}, {0}};
    gather(ac, point, &c);
    if (c.n == 0)
        return BLVL_ACOUSTICS_NONE;
    if (world) {
        blvl_trace_filter shot = {0};
        shot.mover = BLVL_TRACE_AS_SHOT;
        const blvl_trace_filter *f = q->filter ? q->filter : &shot;
        for (uint32_t i = 0; i < c.n; i++) {
            blvl_Vec3 v = ac->probes[c.probe[i]].position;
            float from[3] = {v.x, v.y, v.z};
            blvl_trace_result r;
            blvl_trace_ray(world, f, from, point, &r);
            if (r.fraction >= 1.0f && !r.startsolid)
                return c.probe[i];
        }
    }
    return c.probe[0];
}

/* ---- scratch ----------------------------------------------------------------------------- */

blvl_status blvl_acoustics_scratch_new(blvl_acoustics_scratch **out, const blvl_acoustics *ac,
                                       blvl_error *err) {
    if (!out || !ac)
        return blvl__fail(err, BLVL_E_ARGUMENT, "acoustics: no output or no object");
    *out = NULL;
    const blvl_allocator *al = &ac->opt.allocator;
    blvl_acoustics_scratch *s = blvl__calloc(al, sizeof *s);
    if (!s)
        return blvl__nomem(err, "acoustics: a scratch");
    s->owner = ac;
    s->opt = ac->opt;
    s->n = ac->probe_count;
    /* every push follows a settled probe's edge, each probe settles once: edges + 1 pushes */
    s->heap_cap = ac->edge_count + 1;
    size_t n = (size_t)s->n + 1;
    s->stamp = blvl__calloc_n(al, n, sizeof *s->stamp);
    s->settled = blvl__calloc_n(al, n, sizeof *s->settled);
    s->dist = blvl__calloc_n(al, n, sizeof *s->dist);
    s->h = blvl__calloc_n(al, n, sizeof *s->h);
    s->prev = blvl__calloc_n(al, n, sizeof *s->prev);
    s->heap = blvl__calloc_n(al, (size_t)s->heap_cap, sizeof *s->heap);
    if (!s->stamp || !s->settled || !s->dist || !s->h || !s->prev || !s->heap) {
        blvl_acoustics_scratch_free(s);
        return blvl__nomem(err, "acoustics: a scratch for %u probes", ac->probe_count);
    }
    *out = s;
    return BLVL_OK;
}

void blvl_acoustics_scratch_free(blvl_acoustics_scratch *s) {
    if (!s)
        return;
    blvl_options o = s->opt;
    size_t n = (size_t)s->n + 1;
    blvl__dealloc(&o.allocator, s->stamp, n * sizeof *s->stamp);
    blvl__dealloc(&o.allocator, s->settled, n * sizeof *s->settled);
    blvl__dealloc(&o.allocator, s->dist, n * sizeof *s->dist);
    blvl__dealloc(&o.allocator, s->h, n * sizeof *s->h);
    blvl__dealloc(&o.allocator, s->prev, n * sizeof *s->prev);
    blvl__dealloc(&o.allocator, s->heap, (size_t)s->heap_cap * sizeof *s->heap);
    blvl__dealloc(&o.allocator, s, sizeof *s);
}

/* ---- the walk ---------------------------------------------------------------------------- */

/* The walk's estimate of the cost left from a probe to the goal: never above the true cost (an
 * edge's len_m is at least h_scale times its probes' distance, door costs only add, and a
 * landmark's costs were taken with every door free), and consistent, so each probe is settled
 * once at its cheapest. Scaled down by a hair so the landmarks' float sums, added in another
 * order than the walk's, cannot overshoot by a rounding. */
typedef struct goal {
    float pos[3];
    uint32_t n;                                /* landmarks that reach the goal */
    uint16_t which[BLVL__ACOUSTICS_LANDMARKS]; /* their columns */
    float cost[BLVL__ACOUSTICS_LANDMARKS];     /* their costs to the goal */
} goal;

static void goal_init(const blvl_acoustics *ac, uint32_t to, goal *g) {
    blvl_Vec3 v = ac->probes[to].position;
    g->pos[0] = v.x;
    g->pos[1] = v.y;
    g->pos[2] = v.z;
    g->n = 0;
    for (uint32_t l = 0; l < ac->landmark_count; l++) {
        float d = ac->landmark[(size_t)to * BLVL__ACOUSTICS_LANDMARKS + l];
        if (isfinite(d)) {
            g->which[g->n] = (uint16_t)l;
            g->cost[g->n++] = d;
        }
    }
}

static float h_to(const blvl_acoustics *ac, uint32_t p, const goal *g) {
    float h = ac->h_scale * sqrtf(dist2(ac->probes[p].position, g->pos));
    if (g->n == 0)
        return h;
    const float *lm = ac->landmark + (size_t)p * BLVL__ACOUSTICS_LANDMARKS;
    for (uint32_t i = 0; i < g->n; i++) {
        /* cost(L, goal) <= cost(L, p) + cost(p, goal); an unreached p gives -inf, no bound */
        float b = g->cost[i] - lm[g->which[i]];
        if (b > h)
            h = b;
        if (ac->symmetric) { /* then cost(p, L) = cost(L, p) as well */
            b = lm[g->which[i]] - g->cost[i];
            if (b > h && isfinite(b))
                h = b;
        }
    }
    return h * 0.99999f;
}

/* The door's price, or a negative number when the door is not to be passed. */
static float door_price(const blvl_acoustics_query *q, uint16_t door) {
    if (door == BLVL_ACOUSTICS_NO_DOOR || !q || !q->door_cost)
        return 0;
    float c = q->door_cost(q->door_user, door);
    return isfinite(c) && c >= 0 ? c : -1.0f;
}

/* A* from probe `from` until probe `to` is settled; true when it is. Probes of two components
 * are not joined by any route: no walk. */
static bool walk(const blvl_acoustics *ac, blvl_acoustics_scratch *s, uint32_t from, uint32_t to,
                 const blvl_acoustics_query *q) {
    if (ac->component[from] != ac->component[to])
        return false;
    uint32_t gen = blvl__acoustics_begin(s);
    goal g;
    goal_init(ac, to, &g);
    s->stamp[from] = gen;
    s->dist[from] = 0;
    s->prev[from] = BLVL_ACOUSTICS_NONE;
    s->h[from] = h_to(ac, from, &g);
    blvl__acoustics_heap_push(s, s->h[from], from);
    while (s->heap_len) {
        uint32_t p = blvl__acoustics_heap_pop(s);
        if (s->settled[p] == gen)
            continue;
        s->settled[p] = gen;
        if (p == to)
            return true;
        for (uint32_t e = ac->first[p]; e < ac->first[p + 1]; e++) {
            const blvl_AcousticEdge *ed = &ac->edges[e];
            uint32_t t = ed->to;
            if (s->settled[t] == gen)
                continue;
            float price = door_price(q, ed->door);
            if (price < 0)
                continue;
            float nd = s->dist[p] + ed->len_m + price;
            if (s->stamp[t] != gen) { /* first reached: its estimate, once */
                s->stamp[t] = gen;
                s->h[t] = h_to(ac, t, &g);
            } else if (!(nd < s->dist[t])) {
                continue;
            }
            s->dist[t] = nd;
            s->prev[t] = e;
            blvl__acoustics_heap_push(s, nd + s->h[t], t);
        }
    }
    return false;
}

/* The route back from `to` along prev: its edges in order from the sound (kept in the heap's
 * memory, free once the walk is done), their length, doors and narrowness. */
static void trace_back(const blvl_acoustics *ac, blvl_acoustics_scratch *s, uint32_t from,
                       uint32_t to, blvl_acoustics_path *out) {
    uint32_t n = 0;
    for (uint32_t p = to; p != from && n < s->heap_cap;) {
        uint32_t e = s->prev[p];
        s->heap[n++].probe = e;
        /* the edge's owner: the last probe whose first edge is at or before e */
        uint32_t lo = 0, hi = ac->probe_count;
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (ac->first[mid] <= e)
                lo = mid;
            else
                hi = mid;
        }
        p = lo;
    }
    double len = 0;
    uint32_t last_door = BLVL_ACOUSTICS_NO_DOOR;
    for (uint32_t i = n; i-- > 0;) {
        const blvl_AcousticEdge *ed = &ac->edges[s->heap[i].probe];
        len += ed->len_m;
        out->narrow |= ed->narrow != 0;
        if (ed->door != BLVL_ACOUSTICS_NO_DOOR && ed->door != last_door) {
            if (out->door_count < BLVL_ACOUSTICS_MAX_DOORS)
                out->doors[out->door_count] = ed->door;
            out->door_count++;
        }
        last_door = ed->door;
    }
    out->hops = n;
    out->length_m += (float)len;
}

static float metres(blvl_Vec3 a, const float p[3]) {
    return sqrtf(dist2(a, p)) * BLVL_ACOUSTICS_METRES_PER_QU;
}

blvl_status blvl_acoustics_path_find(const blvl_acoustics *ac, const float sound[3],
                                     const float listener[3], const blvl_acoustics_query *q,
                                     blvl_acoustics_scratch *scratch, blvl_acoustics_path *out,
                                     blvl_error *err) {
    if (!ac || !out || !sound || !listener)
        return blvl__fail(err, BLVL_E_ARGUMENT, "acoustics: path: no object, points or result");
    memset(out, 0, sizeof *out);
    out->room.index = out->sound_probe = out->listener_probe = BLVL_ACOUSTICS_NONE;
    if (!finite3(sound) || !finite3(listener))
        return blvl__fail(err, BLVL_E_ARGUMENT, "acoustics: path: a point is not finite");
    if (scratch && scratch->owner != ac)
        return blvl__fail(err, BLVL_E_ARGUMENT, "acoustics: path: the scratch is another's");
    blvl_Vec3 sv = {sound[0], sound[1], sound[2]};
    out->straight_m = metres(sv, listener);
    uint32_t sp = out->sound_probe = blvl_acoustics_nearest(ac, sound, q);
    uint32_t lp = out->listener_probe = blvl_acoustics_nearest(ac, listener, q);
    if (lp != BLVL_ACOUSTICS_NONE)
        out->room = ac->rooms[ac->probes[lp].room];
    if (sp == BLVL_ACOUSTICS_NONE || lp == BLVL_ACOUSTICS_NONE)
        return BLVL_OK;
    if (sp == lp) { /* one neighbourhood: the sound comes straight */
        out->found = true;
        out->length_m = out->cost_m = out->straight_m;
        return BLVL_OK;
    }
    blvl_acoustics_scratch *s = scratch;
    if (!s) {
        blvl_status st = blvl_acoustics_scratch_new(&s, ac, err);
        if (st != BLVL_OK)
            return st;
    }
    if (walk(ac, s, sp, lp, q)) {
        float legs =
            metres(ac->probes[sp].position, sound) + metres(ac->probes[lp].position, listener);
        out->found = true;
        out->length_m = legs;
        out->cost_m = legs + s->dist[lp];
        trace_back(ac, s, sp, lp, out);
    }
    if (!scratch)
        blvl_acoustics_scratch_free(s);
    return BLVL_OK;
}
