/* The probe lattice (docs/ACOUSTICS.md, "Probes") and the rays each probe casts ("Rays"). The
 * lattice is found one row of columns per job and the rays one run of probes per job; every
 * job writes only its own slots, so the result does not depend on the thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake/acoustics/acoustics.h"
#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "common/pool.h"

static const blvl_trace_filter as_player = {.mover = BLVL_TRACE_AS_PLAYER};
static const blvl_trace_filter as_sound = {.mover = BLVL_TRACE_AS_SHOT};

void blvl__bake_acoustics_ray_dir(uint32_t i, float d[3]) {
    const double golden = 3.14159265358979323846 * (3.0 - sqrt(5.0));
    double y = 1.0 - (2.0 * i + 1.0) / AC_RAYS, r = sqrt(1.0 - y * y), phi = golden * i;
    d[0] = (float)(r * cos(phi));
    d[1] = (float)y;
    d[2] = (float)(r * sin(phi));
}

/* Does a player stand at floor point f (the trace's end, on a surface of normal n), and is the
 * ear above it free and dry? */
static bool stands(const bake_ac_worlds *w, const float f[3], const blvl_Plane *n) {
    float ny = n->normal.y,
          lift = 1.0f + AC_PLAYER_HALF * (fabsf(n->normal.x) + fabsf(n->normal.z)) / ny;
    const float mins[3] = {-AC_PLAYER_HALF, 0, -AC_PLAYER_HALF};
    const float maxs[3] = {AC_PLAYER_HALF, AC_PLAYER_TALL, AC_PLAYER_HALF};
    const float at[3] = {f[0], f[1] + lift, f[2]};
    blvl_trace_result r;
    blvl_trace_box(w->open, &as_player, at, at, mins, maxs, &r);
    if (r.startsolid)
        return false;
    const float low[3] = {f[0], f[1] + 1.0f, f[2]}, ear[3] = {f[0], f[1] + AC_EAR, f[2]};
    blvl_trace_ray(w->open, &as_player, low, ear, &r);
    if (r.startsolid || r.fraction < 1.0f)
        return false;
    return !blvl_trace_point_water(w->open, NULL, ear, NULL, NULL);
}

typedef struct lattice {
    const bake_ac_worlds *w;
    float spacing;
    int32_t x0, z0;      /* first column */
    uint32_t nx, nz;     /* columns */
    bake_ac_probe **row; /* per row: its probes (blvl__alloc_sized), count in row_n */
    uint32_t *row_n;
    const blvl_allocator *al;
} lattice;

uint32_t blvl__bake_acoustics_floors(const bake_ac_worlds *w, float x, float z,
                                     bake_ac_probe *out) {
    float y = w->hi[1] + 1.0f, bottom = w->lo[1] - 1.0f;
    uint32_t n = 0;
    for (uint32_t f = 0; f < AC_MAX_FLOORS && y > bottom; f++) {
        const float s[3] = {x, y, z}, e[3] = {x, bottom, z};
        blvl_trace_result r;
        blvl_trace_ray(w->open, &as_player, s, e, &r);
        if (r.allsolid || r.fraction >= 1.0f)
            break;
        if (r.plane.normal.y >= AC_WALK_NY && !(r.flags & BLVL_COLLIDER_SKY) &&
            stands(w, r.endpos, &r.plane)) {
            bake_ac_probe *p = &out[n++];
            memset(p, 0, sizeof *p);
            p->pos[0] = x, p->pos[1] = r.endpos[1] + AC_EAR, p->pos[2] = z;
        }
        y = fminf(r.endpos[1], y) - 1.0f;
    }
    return n;
}

/* One column of the lattice: its centre's floors. */
static uint32_t column(const lattice *L, int32_t cx, int32_t cz, bake_ac_probe *out) {
    float x = ((float)cx + 0.5f) * L->spacing, z = ((float)cz + 0.5f) * L->spacing;
    uint32_t n = blvl__bake_acoustics_floors(L->w, x, z, out);
    for (uint32_t i = 0; i < n; i++)
        out[i].col[0] = cx, out[i].col[1] = cz;
    return n;
}

static blvl_status row_job(void *ctx, unsigned worker, size_t job, blvl_error *err) {
    (void)worker;
    lattice *L = ctx;
    bake_ac_probe col[AC_MAX_FLOORS];
    void *row = NULL;
    size_t n = 0, cap = 0;
    for (uint32_t i = 0; i < L->nx; i++) {
        uint32_t k = column(L, L->x0 + (int32_t)i, L->z0 + (int32_t)job, col);
        if (!k)
            continue;
        if (!blvl__array_grow_sized(L->al, &row, &cap, n, n + k, sizeof *col, 64)) {
            blvl__free_sized(L->al, row);
            return blvl__nomem(err, "acoustics: a lattice row");
        }
        memcpy((bake_ac_probe *)row + n, col, (size_t)k * sizeof *col);
        n += k;
    }
    L->row[job] = row;
    L->row_n[job] = (uint32_t)n;
    return BLVL_OK;
}

/* The rows' probes one after the other (row order: z, then x, then top down). */
static blvl_status gather(lattice *L, bake_ac_probe **out, uint32_t *count, blvl_error *err) {
    uint64_t total = 0;
    for (uint32_t j = 0; j < L->nz; j++)
        total += L->row_n[j];
    if (total > AC_MAX_PROBES)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "acoustics: %llu probes (at most %u; a larger "
                          "--acoustics-spacing gives fewer)",
                          (unsigned long long)total, AC_MAX_PROBES);
    *count = (uint32_t)total;
    if (!total)
        return BLVL_OK;
    *out = blvl__alloc_sized(L->al, (size_t)total * sizeof **out);
    if (!*out)
        return blvl__nomem(err, "acoustics: the probes");
    size_t at = 0;
    for (uint32_t j = 0; j < L->nz; j++) {
        if (L->row_n[j])
            memcpy(*out + at, L->row[j], (size_t)L->row_n[j] * sizeof **out);
        at += L->row_n[j];
    }
    return BLVL_OK;
}

/* Is there a probe within `spacing` of (x, z) horizontally and AC_EAR + 64 qu of y that hears
 * the point (a probe on the other side of a wall, or on the floor above, does not stand for it)? */
static bool covered(const bake_ac_worlds *w, const bake_ac_probe *p, uint32_t n, float s,
                    const float at[3]) {
    int32_t cx = (int32_t)floorf(at[0] / s), cz = (int32_t)floorf(at[2] / s);
    for (int32_t dz = -1; dz <= 1; dz++)
        for (int32_t dx = -1; dx <= 1; dx++) {
            uint32_t q = blvl__bake_acoustics_column_start(p, n, cx + dx, cz + dz);
            for (; q < n && p[q].col[0] == cx + dx && p[q].col[1] == cz + dz; q++) {
                float hx = p[q].pos[0] - at[0], hz = p[q].pos[2] - at[2];
                if (hx * hx + hz * hz <= s * s && fabsf(p[q].pos[1] - at[1]) <= AC_EAR + 64.0f &&
                    blvl__bake_acoustics_hears(w, at, p[q].pos))
                    return true;
            }
        }
    return false;
}

/* Spawn probes: a spawn with no probe within a lattice step that hears it gets one on the floor
 * below it (where players are sure to stand: a spawn in a nook between the lattice's columns). */
static blvl_status anchors(const blvl_bake *b, const bake_ac_worlds *w, float s, bake_ac_probe **p,
                           uint32_t *count, blvl_error *err) {
    uint32_t n = *count, added = 0;
    bake_ac_probe *all = blvl__alloc_sized(b->al, ((size_t)n + b->spawns.n + 1) * sizeof *all);
    if (!all)
        return blvl__nomem(err, "acoustics: the spawn probes");
    if (n)
        memcpy(all, *p, (size_t)n * sizeof *all);
    for (uint32_t i = 0; i < b->spawns.n; i++) {
        const float at[3] = {b->spawns.p[i].position.x, b->spawns.p[i].position.y,
                             b->spawns.p[i].position.z};
        if (covered(w, all, n, s, at)) /* the lattice's probes: the spawn probes stay apart */
            continue;
        bake_ac_probe found[AC_MAX_FLOORS];
        uint32_t f = blvl__bake_acoustics_floors(w, at[0], at[2], found), best = f;
        for (uint32_t k = 0; k < f; k++) /* the highest floor not above the spawn */
            if (found[k].pos[1] - AC_EAR <= at[1] + 1.0f &&
                (best == f || found[k].pos[1] > found[best].pos[1]))
                best = k;
        if (best == f)
            continue;
        bake_ac_probe *q = &all[n + added++];
        *q = found[best];
        q->col[0] = (int32_t)floorf(at[0] / s), q->col[1] = (int32_t)floorf(at[2] / s);
    }
    /* two spawns on one spot: keep one probe */
    qsort(all, (size_t)n + added, sizeof *all, blvl__bake_acoustics_order);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n + added; i++)
        if (!m || blvl__bake_acoustics_order(&all[m - 1], &all[i]) != 0)
            all[m++] = all[i];
    blvl__free_sized(b->al, *p);
    *p = all;
    *count = m;
    return BLVL_OK;
}

typedef struct rays {
    const bake_ac_worlds *w;
    bake_ac_probe *p;
    uint32_t count;
} rays;

#define RAY_RUN 64u /* probes per job */

/* On a sealed level, does a ray that ran its 45 m from `from` to `e` (direction d) without a hit
 * go on out of the level's bounds without meeting anything, not even the sky? Then the probe
 * stands outside the map's shell (on its outer roof, beside its outer wall). */
static bool escapes(const bake_ac_worlds *w, const float from[3], const float d[3],
                    const float e[3]) {
    float t = INFINITY;
    for (int a = 0; a < 3; a++) {
        if (e[a] < w->lo[a] || e[a] > w->hi[a])
            return true;
        if (d[a] > 1e-6f)
            t = fminf(t, (w->hi[a] - from[a]) / d[a]);
        else if (d[a] < -1e-6f)
            t = fminf(t, (w->lo[a] - from[a]) / d[a]);
    }
    float out[3];
    for (int a = 0; a < 3; a++)
        out[a] = from[a] + d[a] * (t + 1.0f);
    blvl_trace_result r;
    blvl_trace_ray(w->open, &as_sound, e, out, &r);
    return !r.startsolid && (r.fraction >= 1.0f || r.collider == BLVL_TRACE_NONE);
}

/* What the probe's rays see. A sky hit is no hit: the sound leaves there (it runs 45 m). */
static void cast(const bake_ac_worlds *w, bake_ac_probe *p) {
    uint32_t hits = 0;
    double run = 0;
    bool sky = false;
    for (uint32_t i = 0; i < AC_RAYS; i++) {
        float d[3], e[3];
        blvl__bake_acoustics_ray_dir(i, d);
        for (int a = 0; a < 3; a++)
            e[a] = p->pos[a] + d[a] * AC_RAY_QU;
        blvl_trace_result r;
        blvl_trace_ray(w->open, &as_sound, p->pos, e, &r);
        bool hit = r.fraction < 1.0f && r.collider != BLVL_TRACE_NONE;
        if (hit && (r.flags & BLVL_COLLIDER_SKY)) {
            sky = true;
            hit = false;
        } else if (!hit) {
            for (int a = 0; a < 3; a++)
                sky = sky || e[a] < w->lo[a] || e[a] > w->hi[a];
            if (w->sealed && !p->outside)
                p->outside = escapes(w, p->pos, d, e);
        }
        hits += hit;
        run += hit ? (double)r.fraction * AC_RAY_QU : AC_RAY_QU;
    }
    double m = run / AC_RAYS * AC_QU_M;
    p->enclosed = (uint8_t)((hits * 255u + AC_RAYS / 2) / AC_RAYS);
    p->size_m = (uint8_t)(m >= 255.0 ? 255 : (uint32_t)lround(m));
    p->sky = sky;
}

static blvl_status ray_job(void *ctx, unsigned worker, size_t job, blvl_error *err) {
    (void)worker, (void)err;
    rays *R = ctx;
    uint32_t end = (uint32_t)job * RAY_RUN + RAY_RUN;
    for (uint32_t i = (uint32_t)job * RAY_RUN; i < end && i < R->count; i++)
        cast(R->w, &R->p[i]);
    return BLVL_OK;
}

blvl_status blvl__bake_acoustics_cast(const blvl_bake *b, const bake_ac_worlds *w, bake_ac_probe *p,
                                      uint32_t count, blvl_error *err) {
    rays R = {w, p, count};
    return blvl__pool_run(blvl__threads(b->opt.threads), (count + RAY_RUN - 1) / RAY_RUN, ray_job,
                          &R, 1, err);
}

blvl_status blvl__bake_acoustics_probes(const blvl_bake *b, const bake_ac_worlds *w, float spacing,
                                        bake_ac_probe **out, uint32_t *count, blvl_error *err) {
    *out = NULL;
    *count = 0;
    if (w->empty)
        return BLVL_OK;
    lattice L = {.w = w, .spacing = spacing, .al = b->al};
    L.x0 = (int32_t)floorf(w->lo[0] / spacing);
    L.z0 = (int32_t)floorf(w->lo[2] / spacing);
    double nx = floor(w->hi[0] / spacing) - L.x0 + 1, nz = floor(w->hi[2] / spacing) - L.z0 + 1;
    if (nx * nz > 64.0 * AC_MAX_PROBES)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "acoustics: a lattice of %.0f x %.0f columns (a "
                          "larger --acoustics-spacing gives fewer)",
                          nx, nz);
    L.nx = (uint32_t)nx, L.nz = (uint32_t)nz;
    L.row = blvl__calloc(b->al, (size_t)L.nz * sizeof *L.row);
    L.row_n = blvl__calloc(b->al, (size_t)L.nz * sizeof *L.row_n);
    blvl_status st = BLVL_OK;
    if (!L.row || !L.row_n)
        st = blvl__nomem(err, "acoustics: the lattice rows");
    unsigned threads = blvl__threads(b->opt.threads);
    if (st == BLVL_OK)
        st = blvl__pool_run(threads, L.nz, row_job, &L, 1, err);
    if (st == BLVL_OK)
        st = gather(&L, out, count, err);
    if (st == BLVL_OK)
        st = anchors(b, w, spacing, out, count, err);
    for (uint32_t j = 0; L.row && j < L.nz; j++)
        blvl__free_sized(b->al, L.row[j]);
    if (L.row)
        blvl__dealloc(b->al, L.row, (size_t)L.nz * sizeof *L.row);
    if (L.row_n)
        blvl__dealloc(b->al, L.row_n, (size_t)L.nz * sizeof *L.row_n);
    if (st == BLVL_OK && *count)
        st = blvl__bake_acoustics_cast(b, w, *out, *count, err);
    if (st == BLVL_OK) { /* outside a sealed level's shell: no probe (order kept) */
        uint32_t m = 0;
        for (uint32_t i = 0; i < *count; i++)
            if (!(*out)[i].outside)
                (*out)[m++] = (*out)[i];
        *count = m;
    }
    if (st != BLVL_OK) {
        blvl__free_sized(b->al, *out);
        *out = NULL;
        *count = 0;
    }
    return st;
}
