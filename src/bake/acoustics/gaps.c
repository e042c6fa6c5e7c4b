/* Gap probes (docs/ACOUSTICS.md, "Openings"): where the lattice's graph falls into parts that a
 * finer lattice's probe hears both of, that probe is added, so an opening narrower than the
 * lattice sees (a slit between two of its lines) still joins the rooms on either side.
 *
 * The finer lattice has GAP_SUB x GAP_SUB points per column, searched only in the columns whose
 * neighbourhood (the edges' reach) holds probes of two or more parts. Candidates are found one row
 * of columns per job; which of them are kept is decided on one thread, in candidate order: a
 * candidate is kept when the parts it hears are not yet joined, and joins them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake/acoustics/acoustics.h"
#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "common/pool.h"

#define GAP_SUB 4u       /* finer points per lattice step */
#define GAP_MAX_PARTS 8u /* parts one candidate records at most */

typedef struct gap_cand {
    bake_ac_probe p;
    uint32_t part[GAP_MAX_PARTS];
    uint32_t parts;
} gap_cand;

typedef struct gap_rows {
    const bake_ac_worlds *w;
    float s;
    const bake_ac_probe *p;
    uint32_t n;
    const uint32_t *part; /* per probe: its part (the root probe) */
    int32_t x0, z0;
    uint32_t nx, nz;
    gap_cand **row;
    uint32_t *row_n;
    const blvl_allocator *al;
} gap_rows;

static uint32_t find(uint32_t *uf, uint32_t i) {
    while (uf[i] != i)
        i = uf[i] = uf[uf[i]];
    return i;
}

static void join(uint32_t *uf, uint32_t a, uint32_t b) {
    a = find(uf, a), b = find(uf, b);
    if (a != b)
        uf[a > b ? a : b] = a < b ? a : b; /* the lower root wins: order-free */
}

/* Do the probes within reach of column (cx, cz) belong to two parts or more? */
static bool mixed(const gap_rows *G, int32_t cx, int32_t cz) {
    uint32_t first = UINT32_MAX;
    for (int32_t dz = -AC_REACH_STEPS; dz <= AC_REACH_STEPS; dz++)
        for (int32_t dx = -AC_REACH_STEPS; dx <= AC_REACH_STEPS; dx++) {
            uint32_t q = blvl__bake_acoustics_column_start(G->p, G->n, cx + dx, cz + dz);
            for (; q < G->n && G->p[q].col[0] == cx + dx && G->p[q].col[1] == cz + dz; q++) {
                if (first == UINT32_MAX)
                    first = G->part[q];
                else if (G->part[q] != first)
                    return true;
            }
        }
    return false;
}

/* The parts candidate c (in column cx, cz) hears, one probe of each. */
static void hear_parts(const gap_rows *G, int32_t cx, int32_t cz, gap_cand *c) {
    c->parts = 0;
    for (int32_t dz = -AC_REACH_STEPS; dz <= AC_REACH_STEPS; dz++)
        for (int32_t dx = -AC_REACH_STEPS; dx <= AC_REACH_STEPS; dx++) {
            uint32_t q = blvl__bake_acoustics_column_start(G->p, G->n, cx + dx, cz + dz);
            for (; q < G->n && G->p[q].col[0] == cx + dx && G->p[q].col[1] == cz + dz; q++) {
                bool known = false;
                for (uint32_t k = 0; k < c->parts; k++)
                    known |= c->part[k] == G->part[q];
                if (known || c->parts == GAP_MAX_PARTS ||
                    fabsf(G->p[q].pos[1] - c->p.pos[1]) > AC_RAY_QU)
                    continue;
                if (blvl__bake_acoustics_hears(G->w, c->p.pos, G->p[q].pos))
                    c->part[c->parts++] = G->part[q];
            }
        }
}

static blvl_status push(const gap_rows *G, gap_cand **row, uint32_t *n, size_t *cap,
                        const gap_cand *c, blvl_error *err) {
    void *g = *row;
    if (!blvl__array_grow_sized(G->al, &g, cap, *n, (size_t)*n + 1, sizeof *c, 16))
        return blvl__nomem(err, "acoustics: the gap candidates");
    *row = g;
    (*row)[(*n)++] = *c;
    return BLVL_OK;
}

static blvl_status gap_row(void *ctx, unsigned worker, size_t job, blvl_error *err) {
    (void)worker;
    gap_rows *G = ctx;
    int32_t cz = G->z0 + (int32_t)job;
    uint32_t n = 0;
    size_t cap = 0;
    gap_cand *row = NULL;
    bake_ac_probe found[AC_MAX_FLOORS];
    blvl_status st = BLVL_OK;
    for (uint32_t i = 0; i < G->nx && st == BLVL_OK; i++) {
        int32_t cx = G->x0 + (int32_t)i;
        if (!mixed(G, cx, cz))
            continue;
        for (uint32_t k = 0; k < GAP_SUB * GAP_SUB && st == BLVL_OK; k++) {
            float x = ((float)cx + ((float)(k % GAP_SUB) + 0.5f) / GAP_SUB) * G->s;
            float z = ((float)cz + ((float)(k / GAP_SUB) + 0.5f) / GAP_SUB) * G->s;
            uint32_t f = blvl__bake_acoustics_floors(G->w, x, z, found);
            for (uint32_t j = 0; j < f && st == BLVL_OK; j++) {
                gap_cand c = {.p = found[j]};
                c.p.col[0] = cx, c.p.col[1] = cz;
                hear_parts(G, cx, cz, &c);
                if (c.parts >= 2)
                    st = push(G, &row, &n, &cap, &c, err);
            }
        }
    }
    G->row[job] = row;
    G->row_n[job] = n;
    return st;
}

/* Column order (z, x), then top down, then x, z: the order the lattice's probes already have. */
int blvl__bake_acoustics_order(const void *pa, const void *pb) {
    const bake_ac_probe *a = pa, *b = pb;
    if (a->col[1] != b->col[1])
        return a->col[1] < b->col[1] ? -1 : 1;
    if (a->col[0] != b->col[0])
        return a->col[0] < b->col[0] ? -1 : 1;
    for (int k = 0; k < 3; k++) {
        float u = k == 0 ? b->pos[1] : a->pos[k == 1 ? 0 : 2];
        float v = k == 0 ? a->pos[1] : b->pos[k == 1 ? 0 : 2];
        if (u != v)
            return u < v ? -1 : 1;
    }
    return 0;
}

/* The kept candidates in candidate order (row by row), each joining parts not yet joined. */
static uint32_t choose(gap_rows *G, uint32_t *uf, bake_ac_probe *keep) {
    uint32_t kept = 0;
    for (uint32_t j = 0; j < G->nz; j++)
        for (uint32_t i = 0; i < G->row_n[j]; i++) {
            const gap_cand *c = &G->row[j][i];
            uint32_t r0 = find(uf, c->part[0]);
            bool apart = false;
            for (uint32_t k = 1; k < c->parts; k++)
                apart |= find(uf, c->part[k]) != r0;
            if (!apart)
                continue;
            for (uint32_t k = 1; k < c->parts; k++)
                join(uf, c->part[0], c->part[k]);
            keep[kept++] = c->p;
        }
    return kept;
}

static blvl_status grow_probes(const blvl_bake *b, const bake_ac_worlds *w, bake_ac_probe **p,
                               uint32_t *count, bake_ac_probe *keep, uint32_t kept,
                               blvl_error *err) {
    blvl_status st = blvl__bake_acoustics_cast(b, w, keep, kept, err);
    if (st != BLVL_OK)
        return st;
    bake_ac_probe *all = blvl__alloc_sized(b->al, ((size_t)*count + kept) * sizeof *all);
    if (!all)
        return blvl__nomem(err, "acoustics: the gap probes");
    memcpy(all, *p, (size_t)*count * sizeof *all);
    memcpy(all + *count, keep, (size_t)kept * sizeof *all);
    qsort(all, (size_t)*count + kept, sizeof *all, blvl__bake_acoustics_order);
    blvl__free_sized(b->al, *p);
    *p = all;
    *count += kept;
    return BLVL_OK;
}

blvl_status blvl__bake_acoustics_gaps(const blvl_bake *b, const bake_ac_worlds *w, float spacing,
                                      bake_ac_probe **p, uint32_t *count, const bake_ac_pair *pairs,
                                      uint32_t pair_count, bool *added, blvl_error *err) {
    *added = false;
    uint32_t n = *count;
    gap_rows G = {.w = w, .s = spacing, .p = *p, .n = n, .al = b->al};
    uint32_t *uf = blvl__alloc_sized(b->al, (size_t)n * sizeof *uf);
    uint32_t *part = blvl__alloc_sized(b->al, (size_t)n * sizeof *part);
    G.z0 = (*p)[0].col[1], G.nz = (uint32_t)((*p)[n - 1].col[1] - G.z0 + 1);
    G.x0 = INT32_MAX;
    int32_t x1 = INT32_MIN;
    for (uint32_t i = 0; i < n; i++) {
        G.x0 = (*p)[i].col[0] < G.x0 ? (*p)[i].col[0] : G.x0;
        x1 = (*p)[i].col[0] > x1 ? (*p)[i].col[0] : x1;
    }
    G.nx = (uint32_t)(x1 - G.x0 + 1);
    G.row = blvl__calloc(b->al, (size_t)G.nz * sizeof *G.row);
    G.row_n = blvl__calloc(b->al, (size_t)G.nz * sizeof *G.row_n);
    blvl_status st = BLVL_OK;
    if (!uf || !part || !G.row || !G.row_n)
        st = blvl__nomem(err, "acoustics: the gap search");
    if (st == BLVL_OK) {
        for (uint32_t i = 0; i < n; i++)
            uf[i] = i;
        for (uint32_t k = 0; k < pair_count; k++)
            join(uf, pairs[k].a, pairs[k].b);
        for (uint32_t i = 0; i < n; i++)
            part[i] = find(uf, i);
        G.part = part;
        st = blvl__pool_run(blvl__threads(b->opt.threads), G.nz, gap_row, &G, 1, err);
    }
    uint32_t total = 0;
    for (uint32_t j = 0; st == BLVL_OK && j < G.nz; j++)
        total += G.row_n[j];
    bake_ac_probe *keep = NULL;
    if (st == BLVL_OK && total) {
        keep = blvl__alloc_sized(b->al, (size_t)total * sizeof *keep);
        if (!keep)
            st = blvl__nomem(err, "acoustics: the gap probes");
    }
    uint32_t kept = st == BLVL_OK && total ? choose(&G, uf, keep) : 0;
    if (st == BLVL_OK && kept && (uint64_t)n + kept > AC_MAX_PROBES)
        kept = 0; /* no room: the lattice stands as it is */
    if (st == BLVL_OK && kept)
        st = grow_probes(b, w, p, count, keep, kept, err);
    *added = st == BLVL_OK && kept > 0;
    for (uint32_t j = 0; G.row && j < G.nz; j++)
        blvl__free_sized(b->al, G.row[j]);
    if (G.row)
        blvl__dealloc(b->al, G.row, (size_t)G.nz * sizeof *G.row);
    if (G.row_n)
        blvl__dealloc(b->al, G.row_n, (size_t)G.nz * sizeof *G.row_n);
    blvl__free_sized(b->al, keep);
    blvl__free_sized(b->al, uf);
    blvl__free_sized(b->al, part);
    return st;
}
