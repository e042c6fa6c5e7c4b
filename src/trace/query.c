/* Queries: box and ray traces through the hierarchy (static colliders) and the door list, point
 * contents, water. Nothing here allocates: the traversal stack is on the C stack and the world is
 * only read, so any number of threads may query one world. */
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "trace/trace_internal.h"

/* Nodes are widened by this much (beyond the box) before the slab test: at least the distance
 * epsilon, since a pulled-back hit lies up to that far outside the solid's bounds. */
#define CULL_MARGIN 0.125f

typedef struct ray {
    float s[3], inv[3], dir[3];
    float blo[3], bhi[3]; /* what widens a box [lo, hi] into the centre's space */
    float olo[3], ohi[3]; /* the same, less the start: (lo + olo) * inv is the entry parameter */
} ray;

static void ray_init(ray *r, const tw_trace *t) {
    for (int k = 0; k < 3; k++) {
        r->s[k] = t->start[k];
        r->dir[k] = t->end[k] - t->start[k];
        r->inv[k] = fabsf(r->dir[k]) > 1e-20f ? 1.0f / r->dir[k] : 1e30f;
        /* the box centre meets [lo, hi] while it is within [lo - maxs, hi - mins] */
        r->blo[k] = -t->maxs[k] - CULL_MARGIN;
        r->bhi[k] = -t->mins[k] + CULL_MARGIN;
        r->olo[k] = r->blo[k] - r->s[k];
        r->ohi[k] = r->bhi[k] - r->s[k];
    }
}

/* Does the swept box meet the box [lo, hi] before tmax? */
static inline int slab(const ray *r, const float lo[3], const float hi[3], float tmax) {
    float t0 = 0, t1 = tmax;
    for (int k = 0; k < 3; k++) {
        float a = (lo[k] + r->blo[k] - r->s[k]) * r->inv[k];
        float b = (hi[k] + r->bhi[k] - r->s[k]) * r->inv[k];
        if (a > b) {
            float x = a;
            a = b;
            b = x;
        }
        t0 = a > t0 ? a : t0;
        t1 = b < t1 ? b : t1;
        if (t0 > t1)
            return 0;
    }
    return 1;
}

/* The planes and bounds of a door collider in the pose the filter's doors give it. */
static const blvl_Plane *door_planes(const blvl_trace_world *w, const tw_filter *f, uint32_t di,
                                     uint32_t *count, const float **lo, const float **hi) {
    const tw_collider *c = &w->colliders[w->door_colliders[di].collider];
    if (f->doors && f->doors->poses[di].moved) {
        const tw_door_pose *p = &f->doors->poses[di];
        *count = (uint32_t)p->planes.len;
        *lo = p->lo;
        *hi = p->hi;
        return p->planes.data;
    }
    *lo = c->lo;
    *hi = c->hi;
    return blvl__tw_collider_planes(w, c, count);
}

static void trace_doors(const blvl_trace_world *w, const tw_filter *f, tw_trace *t, const ray *r) {
    for (uint32_t i = 0; i < w->door_collider_count; i++) {
        uint32_t ci = w->door_colliders[i].collider;
        if (!blvl__trace_filter_pass(f, &w->colliders[ci], ci))
            continue;
        uint32_t n;
        const float *lo, *hi;
        const blvl_Plane *pl = door_planes(w, f, i, &n, &lo, &hi);
        if (n && slab(r, lo, hi, t->fraction))
            blvl__trace_clip_box(t, pl, n, ci);
    }
}

/* Which of a node's four children the swept box meets before tmax: bit i for child i, and
 * each child's entry parameter in tnear. */
static inline unsigned slab4(const ray *r, const tw_node4 *nd, float tmax, float tnear[4]) {
#if defined(__SSE2__)
    __m128 t0 = _mm_setzero_ps(), t1 = _mm_set1_ps(tmax);
    for (int k = 0; k < 3; k++) {
        __m128 inv = _mm_set1_ps(r->inv[k]);
        __m128 a = _mm_mul_ps(_mm_add_ps(_mm_loadu_ps(nd->lo[k]), _mm_set1_ps(r->olo[k])), inv);
        __m128 b = _mm_mul_ps(_mm_add_ps(_mm_loadu_ps(nd->hi[k]), _mm_set1_ps(r->ohi[k])), inv);
        t0 = _mm_max_ps(t0, _mm_min_ps(a, b));
        t1 = _mm_min_ps(t1, _mm_max_ps(a, b));
    }
    _mm_storeu_ps(tnear, t0);
    return (unsigned)_mm_movemask_ps(_mm_cmple_ps(t0, t1));
#else
    unsigned mask = 0;
    for (int i = 0; i < 4; i++) {
        float t0 = 0, t1 = tmax;
        for (int k = 0; k < 3; k++) {
            float a = (nd->lo[k][i] + r->olo[k]) * r->inv[k];
            float b = (nd->hi[k][i] + r->ohi[k]) * r->inv[k];
            t0 = fmaxf(t0, fminf(a, b));
            t1 = fminf(t1, fmaxf(a, b));
        }
        tnear[i] = t0;
        mask |= (unsigned)(t0 <= t1) << i;
    }
    return mask;
#endif
}

/* Inlined into both entry points: with stats a constant NULL the counting compiles away. */
static inline __attribute__((always_inline)) void trace_tree(const blvl_trace_world *w,
                                                             const tw_filter *f, tw_trace *t,
                                                             const ray *r, blvl_trace_stats *st) {
    if (!w->item_count)
        return;
    /* Each entry carries the parameter where the box meets it: an entry the box meets only
     * past the fraction found since it was pushed is dropped unopened. */
    uint32_t stack[TW_BVH_STACK];
    float stack_t[TW_BVH_STACK];
    unsigned sp = 0;
    stack[sp] = 0;
    stack_t[sp++] = 0;
    while (sp) {
        sp--;
        if (stack_t[sp] > t->fraction)
            continue;
        const tw_node4 *nd = &w->nodes[stack[sp]];
        float tn[4];
        unsigned mask = slab4(r, nd, t->fraction, tn);
        if (!mask)
            continue;
        unsigned leaves = mask & nd->leaves, inner = mask & nd->inner;
        /* Leaves now, nearest first (a hit found early drops the farther ones). */
        while (leaves) {
            int i = __builtin_ctz(leaves);
            for (unsigned m = leaves & (leaves - 1); m; m &= m - 1) {
                int j = __builtin_ctz(m);
                i = tn[j] < tn[i] ? j : i;
            }
            leaves &= ~(1u << i);
            if (tn[i] > t->fraction)
                continue;
            if (st)
                st->nodes++;
            const tw_item *it = &w->items[nd->child[i] & ~TW_LEAF];
            /* a leaf of one collider was just tested by its own bounds */
            const int one = nd->count[i] == 1;
            for (uint32_t j = 0; j < nd->count[i]; j++, it++) {
                if (!blvl__trace_filter_pass_bits(f, it->flags, it->gametypes, it->collider) ||
                    (!one && !slab(r, it->lo, it->hi, t->fraction)))
                    continue;
                if (st)
                    st->colliders++;
                blvl__trace_clip_box(t, w->planes + it->first_plane, it->plane_count, it->collider);
            }
        }
        /* Inner nodes pushed farthest first, so the nearest is opened next. */
        while (inner) {
            int i = __builtin_ctz(inner);
            for (unsigned m = inner & (inner - 1); m; m &= m - 1) {
                int j = __builtin_ctz(m);
                i = tn[j] > tn[i] ? j : i;
            }
            inner &= ~(1u << i);
            if (st)
                st->nodes++;
            stack[sp] = nd->child[i];
            stack_t[sp++] = tn[i];
        }
    }
}

/* The position a fraction stands for: exactly start or end at 0 and 1. */
static void pos_at(const tw_trace *t, float fraction, float out[3]) {
    for (int k = 0; k < 3; k++)
        out[k] = fraction == 1.0f   ? t->end[k]
                 : fraction == 0.0f ? t->start[k]
                                    : t->start[k] + fraction * (t->end[k] - t->start[k]);
}

static void trace_begin(tw_trace *t, const float start[3], const float end[3], const float mins[3],
                        const float maxs[3]);

/* The planes of collider ci as the filter's doors pose it. */
static const blvl_Plane *collider_planes(const blvl_trace_world *w, const tw_filter *f, uint32_t ci,
                                         uint32_t *count) {
    const tw_collider *c = &w->colliders[ci];
    if (c->door != BLVL_TRACE_NONE)
        for (uint32_t i = 0; i < w->door_collider_count; i++)
            if (w->door_colliders[i].collider == ci) {
                const float *lo, *hi;
                return door_planes(w, f, i, count, &lo, &hi);
            }
    return blvl__tw_collider_planes(w, c, count);
}

/* A solid the box at a stop is inside: the lowest collider index among them, whatever order
 * the trace clipped them in (so the hierarchy and brute force agree), and its planes. */
typedef struct tw_solid {
    uint32_t collider, count;
    const blvl_Plane *planes;
} tw_solid;

/* Would a trace starting at pos start in solid? From the colliders this trace clipped, or, when
 * it clipped too many to keep, by a stationary trace (through the hierarchy or by brute
 * force, as the trace itself went). Returns 1 and the solid in *in when it would. */
static int stop_in_solid(const blvl_trace_world *w, const tw_filter *f, const tw_trace *t,
                         const float pos[3], int brute, tw_solid *in) {
    in->collider = BLVL_TRACE_NONE;
    in->count = 0;
    in->planes = NULL;
    if (t->touched <= TW_TOUCH_MAX) {
        for (unsigned i = 0; i < t->touched; i++)
            if (t->touch_colliders[i] < in->collider &&
                blvl__trace_box_inside(t->touch_planes[i], t->touch_counts[i], pos, t->mins,
                                       t->maxs)) {
                in->collider = t->touch_colliders[i];
                in->planes = t->touch_planes[i];
                in->count = t->touch_counts[i];
            }
        return in->collider != BLVL_TRACE_NONE;
    }
    tw_trace q;
    ray r;
    trace_begin(&q, pos, pos, t->mins, t->maxs);
    ray_init(&r, &q);
    if (brute) {
        for (uint32_t ci = 0; ci < w->collider_count; ci++) {
            const tw_collider *c = &w->colliders[ci];
            if (c->door == BLVL_TRACE_NONE && c->plane_count && blvl__trace_filter_pass(f, c, ci) &&
                slab(&r, c->lo, c->hi, q.fraction))
                blvl__trace_clip_box(&q, w->planes + c->first_plane, c->plane_count, ci);
        }
    } else {
        trace_tree(w, f, &q, &r, NULL);
    }
    trace_doors(w, f, &q, &r);
    if (!q.startsolid)
        return 0;
    /* a stationary box inside a solid never gets out of it: allsolid, the lowest index named */
    in->collider = q.collider;
    in->planes = collider_planes(w, f, q.collider, &in->count);
    return 1;
}

/* A backed-off stop's distance from the solid it touches: the bisection stops within
 * BACKOFF_NEAR of it, then the stop moves back to DIST_EPSILON off its plane (as a clipped hit
 * stops) where the box is free there. */
#define BACKOFF_NEAR (BLVL_TRACE_DIST_EPSILON * 0.5f)

/* The stop at fraction lo is free and the box at hi is inside `in`: name that solid and the
 * plane the box at lo lies nearest in front of, moved back to DIST_EPSILON off it if free. */
static void settle_plane(const blvl_trace_world *w, const tw_filter *f, tw_trace *t, int brute,
                         float lo, const tw_solid *in) {
    float pos[3], d, d2;
    pos_at(t, lo, pos);
    const blvl_Plane *p =
        blvl__trace_box_nearest_plane(in->planes, in->count, pos, t->mins, t->maxs, &d);
    /* how fast the box nears the plane per unit of fraction */
    float rate =
        -(p->normal.x * (t->end[0] - t->start[0]) + p->normal.y * (t->end[1] - t->start[1]) +
          p->normal.z * (t->end[2] - t->start[2]));
    if (d < BLVL_TRACE_DIST_EPSILON && rate > 0 && lo > 0) {
        float back = lo - (BLVL_TRACE_DIST_EPSILON - d) / rate;
        back = back > 0 ? back : 0;
        tw_solid other;
        pos_at(t, back, pos);
        const blvl_Plane *q =
            blvl__trace_box_nearest_plane(in->planes, in->count, pos, t->mins, t->maxs, &d2);
        if (d2 > 0 && d2 <= 4 * BLVL_TRACE_DIST_EPSILON &&
            (back == 0 || !stop_in_solid(w, f, t, pos, brute, &other)))
            lo = back, p = q;
    }
    t->fraction = lo;
    t->plane = p;
    t->collider = in->collider;
}

/* Every stop is free: the box pulled back DIST_EPSILON along the plane that stopped it can
 * still overlap another solid by a hair (a corner where two solids meet at an angle, or a solid
 * the box grazed by less than DIST_EPSILON on its way), and the next trace from there would
 * start in solid. Such a stop backs off along the trace, 1/32 unit and then twice as far each
 * time, until the box is free there (the start, fraction 0, is free whenever the trace did not
 * start in solid), then bisects back towards the solid it was in until within BACKOFF_NEAR of
 * it; the result names that solid and its plane nearest the box, so the plane reported touches
 * the box at the stop. Returns 1 when it backed off. */
static int settle(const blvl_trace_world *w, const tw_filter *f, tw_trace *t, int brute) {
    float pos[3];
    tw_solid in, at;
    pos_at(t, t->fraction, pos);
    if (w->no_backoff || t->fraction == 0.0f || !stop_in_solid(w, f, t, pos, brute, &in))
        return 0;
    double len = 0;
    for (int k = 0; k < 3; k++)
        len += ((double)t->end[k] - t->start[k]) * ((double)t->end[k] - t->start[k]);
    len = sqrt(len);
    float step = len > 0 ? (float)(BLVL_TRACE_DIST_EPSILON / len) : 1.0f;
    float hi = t->fraction, lo;
    for (;;) {
        lo = hi > step ? hi - step : 0.0f;
        step *= 2;
        if (lo == 0.0f)
            break;
        pos_at(t, lo, pos);
        if (!stop_in_solid(w, f, t, pos, brute, &at))
            break;
        hi = lo, in = at;
    }
    /* the box is free at lo and inside `in` at hi: the distance from it at lo is at most
     * (hi - lo) * len (a unit normal) */
    while ((hi - lo) * len > BACKOFF_NEAR) {
        float mid = lo + (hi - lo) * 0.5f;
        if (mid <= lo || mid >= hi)
            break;
        pos_at(t, mid, pos);
        if (stop_in_solid(w, f, t, pos, brute, &at))
            hi = mid, in = at;
        else
            lo = mid;
    }
    settle_plane(w, f, t, brute, lo, &in);
    return 1;
}

static void trace_begin(tw_trace *t, const float start[3], const float end[3], const float mins[3],
                        const float maxs[3]) {
    for (int k = 0; k < 3; k++) {
        t->start[k] = start[k];
        t->end[k] = end[k];
        t->mins[k] = mins ? mins[k] : 0.0f;
        t->maxs[k] = maxs ? maxs[k] : 0.0f;
    }
    t->fraction = 1.0f;
    t->startsolid = t->allsolid = 0;
    t->plane = NULL;
    t->collider = BLVL_TRACE_NONE;
    t->touched = 0;
}

static void trace_finish(const blvl_trace_world *w, const tw_trace *t, blvl_trace_result *out) {
    memset(out, 0, sizeof *out);
    out->fraction = t->fraction;
    pos_at(t, t->fraction, out->endpos);
    if (t->plane)
        out->plane = *t->plane;
    out->startsolid = t->startsolid;
    out->allsolid = t->allsolid;
    out->collider = t->collider;
    out->material = BLVL_TRACE_NONE;
    if (t->collider != BLVL_TRACE_NONE) {
        out->flags = w->colliders[t->collider].flags;
        out->material = w->colliders[t->collider].material;
    }
}

/* A NaN or infinite coordinate would make every plane test false; such a trace is answered as
 * stuck (all solid, nothing named) instead of whatever the comparisons happen to give. */
static int trace_finite(const tw_trace *t) {
    for (int k = 0; k < 3; k++)
        if (!isfinite(t->start[k]) || !isfinite(t->end[k]) || !isfinite(t->mins[k]) ||
            !isfinite(t->maxs[k]))
            return 0;
    return 1;
}

static inline __attribute__((always_inline)) void
trace_box(const blvl_trace_world *w, const blvl_trace_filter *filter, const float start[3],
          const float end[3], const float mins[3], const float maxs[3], blvl_trace_result *out,
          blvl_trace_stats *st) {
    tw_trace t;
    tw_filter f;
    ray r;
    trace_begin(&t, start, end, mins, maxs);
    if (w && !trace_finite(&t)) {
        t.fraction = 0;
        t.startsolid = t.allsolid = 1;
        trace_finish(w, &t, out);
    } else if (w) {
        blvl__trace_filter_compile(filter, &f);
        ray_init(&r, &t);
        trace_tree(w, &f, &t, &r, st);
        trace_doors(w, &f, &t, &r);
        if (!t.startsolid && settle(w, &f, &t, 0) && st)
            st->backoffs++;
        trace_finish(w, &t, out);
    } else {
        memset(out, 0, sizeof *out);
        out->fraction = 1;
        memcpy(out->endpos, end, sizeof out->endpos);
        out->collider = out->material = BLVL_TRACE_NONE;
    }
}

void blvl_trace_box(const blvl_trace_world *w, const blvl_trace_filter *filter,
                    const float start[3], const float end[3], const float mins[3],
                    const float maxs[3], blvl_trace_result *out) {
    trace_box(w, filter, start, end, mins, maxs, out, NULL);
}

void blvl_trace_box_stats(const blvl_trace_world *w, const blvl_trace_filter *filter,
                          const float start[3], const float end[3], const float mins[3],
                          const float maxs[3], blvl_trace_result *out, blvl_trace_stats *st) {
    if (st)
        st->traces++;
    trace_box(w, filter, start, end, mins, maxs, out, st);
}

void blvl_trace_ray(const blvl_trace_world *w, const blvl_trace_filter *filter,
                    const float start[3], const float end[3], blvl_trace_result *out) {
    blvl_trace_box(w, filter, start, end, NULL, NULL, out);
}

void blvl_trace_box_brute(const blvl_trace_world *w, const blvl_trace_filter *filter,
                          const float start[3], const float end[3], const float mins[3],
                          const float maxs[3], blvl_trace_result *out) {
    tw_trace t;
    tw_filter f;
    ray r;
    trace_begin(&t, start, end, mins, maxs);
    if (!w || !trace_finite(&t)) {
        blvl_trace_box(w, filter, start, end, mins, maxs, out);
        return;
    }
    blvl__trace_filter_compile(filter, &f);
    ray_init(&r, &t);
    for (uint32_t ci = 0; ci < w->collider_count; ci++) {
        const tw_collider *c = &w->colliders[ci];
        if (c->door != BLVL_TRACE_NONE || !c->plane_count || !blvl__trace_filter_pass(&f, c, ci) ||
            !slab(&r, c->lo, c->hi, t.fraction))
            continue;
        blvl__trace_clip_box(&t, w->planes + c->first_plane, c->plane_count, ci);
    }
    trace_doors(w, &f, &t, &r);
    if (!t.startsolid)
        settle(w, &f, &t, 1);
    trace_finish(w, &t, out);
}

static int in_box(const float lo[3], const float hi[3], const float p[3]) {
    return p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1] && p[2] >= lo[2] &&
           p[2] <= hi[2];
}

/* Every collider the filter passes that holds the point: count, flags ORed, lowest index. */
static uint32_t point_query(const blvl_trace_world *w, const tw_filter *f, const float p[3],
                            uint32_t *flags, uint32_t *first) {
    uint32_t n = 0, fl = 0, lowest = BLVL_TRACE_NONE;
    if (w && w->item_count) {
        uint32_t stack[TW_BVH_STACK];
        unsigned sp = 0;
        stack[sp++] = 0;
        while (sp) {
            const tw_node4 *nd = &w->nodes[stack[--sp]];
            for (int i = 0; i < 4; i++) {
                if (!(p[0] >= nd->lo[0][i] && p[0] <= nd->hi[0][i] && p[1] >= nd->lo[1][i] &&
                      p[1] <= nd->hi[1][i] && p[2] >= nd->lo[2][i] && p[2] <= nd->hi[2][i]))
                    continue;
                if (!(nd->child[i] & TW_LEAF)) {
                    stack[sp++] = nd->child[i];
                    continue;
                }
                const tw_item *it = &w->items[nd->child[i] & ~TW_LEAF];
                for (uint32_t j = 0; j < nd->count[i]; j++, it++) {
                    if (blvl__trace_filter_pass_bits(f, it->flags, it->gametypes, it->collider) &&
                        in_box(it->lo, it->hi, p) &&
                        blvl__trace_point_inside(w->planes + it->first_plane, it->plane_count, p)) {
                        n++;
                        fl |= it->flags;
                        lowest = it->collider < lowest ? it->collider : lowest;
                    }
                }
            }
        }
    }
    for (uint32_t i = 0; w && i < w->door_collider_count; i++) {
        uint32_t ci = w->door_colliders[i].collider, cnt;
        const tw_collider *c = &w->colliders[ci];
        const float *lo, *hi;
        if (!blvl__trace_filter_pass(f, c, ci))
            continue;
        const blvl_Plane *pl = door_planes(w, f, i, &cnt, &lo, &hi);
        if (in_box(lo, hi, p) && blvl__trace_point_inside(pl, cnt, p)) {
            n++;
            fl |= c->flags;
            lowest = ci < lowest ? ci : lowest;
        }
    }
    if (flags)
        *flags = fl;
    if (first)
        *first = lowest;
    return n;
}

uint32_t blvl_trace_point_contents(const blvl_trace_world *w, const blvl_trace_filter *filter,
                                   const float point[3], uint32_t *flags, uint32_t *collider) {
    tw_filter f;
    blvl__trace_filter_compile(filter, &f);
    return point_query(w, &f, point, flags, collider);
}

bool blvl_trace_point_water(const blvl_trace_world *w, const blvl_trace_filter *filter,
                            const float point[3], uint32_t *material, uint32_t *collider) {
    tw_filter f;
    uint32_t ci;
    blvl__trace_filter_compile_water(filter, &f);
    int in = point_query(w, &f, point, NULL, &ci) > 0;
    if (material)
        *material = in ? w->colliders[ci].material : BLVL_TRACE_NONE;
    if (collider)
        *collider = in ? ci : BLVL_TRACE_NONE;
    return in;
}
