/* The edges (docs/ACOUSTICS.md, "Edges"): each probe against the probes of the columns within
 * AC_REACH_STEPS lattice steps that come after it in probe order; one run of probes per job,
 * each job's edges kept apart and joined in job order, so the result is the same for any
 * thread count. */
#include <math.h>
#include <string.h>

#include "bake/acoustics/acoustics.h"
#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "common/pool.h"

static const blvl_trace_filter as_player = {.mover = BLVL_TRACE_AS_PLAYER};
static const blvl_trace_filter as_sound = {.mover = BLVL_TRACE_AS_SHOT};
static const blvl_trace_filter any_door = {.mover = BLVL_TRACE_AS_CUSTOM};

#define EDGE_RUN 64u

typedef struct edge_job {
    bake_ac_pair *p;
    uint32_t n;
    size_t cap;
} edge_job;

typedef struct edges {
    const bake_ac_worlds *w;
    const bake_ac_probe *p;
    uint32_t count;
    float spacing;
    edge_job *jobs;
    const blvl_allocator *al;
} edges;

uint32_t blvl__bake_acoustics_column_start(const bake_ac_probe *p, uint32_t count, int32_t cx,
                                           int32_t cz) {
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const int32_t *c = p[mid].col;
        if (c[1] < cz || (c[1] == cz && c[0] < cx))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool blvl__bake_acoustics_hears(const bake_ac_worlds *w, const float *a, const float *b) {
    blvl_trace_result r;
    blvl_trace_ray(w->open, &as_sound, a, b, &r);
    return !r.startsolid && r.fraction >= 1.0f;
}

/* Does a 72 x 72 box pass from a to b? Along the segment, or beside it (shifted sideways by
 * AC_NARROW_SHIFT either way): a probe near a wall has open space on its other side. */
static bool box_passes(const bake_ac_worlds *w, const float *a, const float *b) {
    static const float mins[3] = {-AC_NARROW_HALF, -AC_NARROW_TALL, -AC_NARROW_HALF};
    static const float maxs[3] = {AC_NARROW_HALF, AC_NARROW_TALL, AC_NARROW_HALF};
    float sx = b[2] - a[2], sz = a[0] - b[0], l = sqrtf(sx * sx + sz * sz);
    if (l < 1e-3f)
        sx = 1.0f, sz = 0.0f, l = 1.0f;
    sx *= AC_NARROW_SHIFT / l;
    sz *= AC_NARROW_SHIFT / l;
    for (int k = 0; k < 3; k++) {
        float m = k == 0 ? 0.0f : k == 1 ? 1.0f : -1.0f;
        const float s[3] = {a[0] + m * sx, a[1], a[2] + m * sz};
        const float e[3] = {b[0] + m * sx, b[1], b[2] + m * sz};
        blvl_trace_result r;
        blvl_trace_box(w->open, &as_player, s, e, mins, maxs, &r);
        if (!r.startsolid && r.fraction >= 1.0f)
            return true;
    }
    return false;
}

/* Does sound pass from a to b with the doors open? Which door's closed pose does it cross, and
 * does a player-sized opening let it through (narrow)? */
bool blvl__bake_acoustics_link(const bake_ac_worlds *w, const float *a, const float *b,
                               bake_ac_pair *e) {
    if (!blvl__bake_acoustics_hears(w, a, b))
        return false;
    blvl_trace_result r;
    e->door = AC_NO_DOOR;
    blvl_trace_ray(w->doors, &any_door, a, b, &r);
    if (r.fraction < 1.0f && r.collider != BLVL_TRACE_NONE) {
        uint32_t t = w->door_team[r.collider];
        e->door = (uint16_t)(t < AC_NO_DOOR ? t : AC_NO_DOOR - 1u);
    }
    e->narrow = !box_passes(w, a, b);
    return true;
}

static blvl_status push(edges *E, edge_job *j, const bake_ac_pair *e, blvl_error *err) {
    void *g = j->p;
    if (!blvl__array_grow_sized(E->al, &g, &j->cap, j->n, (size_t)j->n + 1, sizeof *e, 256))
        return blvl__nomem(err, "acoustics: the edges");
    j->p = g;
    j->p[j->n++] = *e;
    return BLVL_OK;
}

/* Probe i's edges to the later probes within reach, in probe order. */
static blvl_status probe_edges(edges *E, edge_job *j, uint32_t i, blvl_error *err) {
    const bake_ac_probe *a = &E->p[i];
    const float reach_y = AC_RAY_QU; /* a drop from a balcony: as far down as a ray runs */
    for (int32_t dz = 0; dz <= AC_REACH_STEPS; dz++) {
        int32_t dx0 = dz == 0 ? 0 : -AC_REACH_STEPS;
        for (int32_t dx = dx0; dx <= AC_REACH_STEPS; dx++) {
            int32_t cx = a->col[0] + dx, cz = a->col[1] + dz;
            uint32_t q = blvl__bake_acoustics_column_start(E->p, E->count, cx, cz);
            for (; q < E->count && E->p[q].col[0] == cx && E->p[q].col[1] == cz; q++) {
                if (q <= i || fabsf(E->p[q].pos[1] - a->pos[1]) > reach_y)
                    continue;
                bake_ac_pair e = {.a = i, .b = q};
                if (blvl__bake_acoustics_link(E->w, a->pos, E->p[q].pos, &e)) {
                    blvl_status st = push(E, j, &e, err);
                    if (st != BLVL_OK)
                        return st;
                }
            }
        }
    }
    return BLVL_OK;
}

static blvl_status edge_job_run(void *ctx, unsigned worker, size_t job, blvl_error *err) {
    (void)worker;
    edges *E = ctx;
    uint32_t end = (uint32_t)job * EDGE_RUN + EDGE_RUN;
    for (uint32_t i = (uint32_t)job * EDGE_RUN; i < end && i < E->count; i++) {
        blvl_status st = probe_edges(E, &E->jobs[job], i, err);
        if (st != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

blvl_status blvl__bake_acoustics_pairs(const blvl_bake *b, const bake_ac_worlds *w, float spacing,
                                       const bake_ac_probe *p, uint32_t count, bake_ac_pair **out,
                                       uint32_t *pair_count, blvl_error *err) {
    *out = NULL;
    *pair_count = 0;
    size_t njobs = (count + EDGE_RUN - 1) / EDGE_RUN;
    edges E = {.w = w, .p = p, .count = count, .spacing = spacing, .al = b->al};
    E.jobs = blvl__calloc(b->al, (njobs ? njobs : 1) * sizeof *E.jobs);
    if (!E.jobs)
        return blvl__nomem(err, "acoustics: the edge jobs");
    blvl_status st = blvl__pool_run(blvl__threads(b->opt.threads), njobs, edge_job_run, &E, 1, err);
    uint64_t total = 0;
    for (size_t j = 0; j < njobs; j++)
        total += E.jobs[j].n;
    if (st == BLVL_OK && total > 0x3FFFFFFFu)
        st = blvl__fail(err, BLVL_E_ARGUMENT,
                        "acoustics: %llu edges (a larger "
                        "--acoustics-spacing gives fewer)",
                        (unsigned long long)total);
    if (st == BLVL_OK && total) {
        *out = blvl__alloc_sized(b->al, (size_t)total * sizeof **out);
        if (!*out)
            st = blvl__nomem(err, "acoustics: the edges");
    }
    size_t at = 0;
    for (size_t j = 0; j < njobs; j++) {
        if (st == BLVL_OK && E.jobs[j].n)
            memcpy(*out + at, E.jobs[j].p, (size_t)E.jobs[j].n * sizeof **out);
        at += E.jobs[j].n;
        blvl__free_sized(b->al, E.jobs[j].p);
    }
    blvl__dealloc(b->al, E.jobs, (njobs ? njobs : 1) * sizeof *E.jobs);
    if (st == BLVL_OK)
        *pair_count = (uint32_t)total;
    return st;
}
