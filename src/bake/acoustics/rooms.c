/* The acoustics step as a whole (docs/ACOUSTICS.md): worlds, probes, edges, then the rooms and
 * their reverberation. */
#include <math.h>
#include <string.h>

#include "bake/acoustics/acoustics.h"
#include "common/alloc.h"
#include "common/error.h"

/* Rooms: a probe joins the room growing next to it when its enclosed share is within this of
 * the room's mean, and its size within AC_ALIKE_SIZE of the room's mean size (at least
 * AC_ALIKE_SIZE_M metres). */
#define AC_ALIKE_ENCLOSED 38.0f /* of 255: 0.15 */
#define AC_ALIKE_SIZE 0.3f
#define AC_ALIKE_SIZE_M 2.0f
#define AC_WALL_ABSORPTION 0.15f /* a surface's absorption (Eyring's alpha of a hard wall) */

void blvl__bake_acoustics_reverb(float enclosed, float size_m, float *rt60_s, float *damping) {
    /* Eyring: T = 0.161 V / (-S ln(1 - a)), V / S = l / 4 with l the mean free path. A ray that
     * escaped (no hit, or the sky) counted 45 m in size_m and took its energy with it: l is the
     * mean run of the rays that hit, and the share kept per reflection is the enclosed share
     * times what a wall keeps. */
    float ray_m = AC_RAY_QU * AC_QU_M;
    float l = enclosed > 1e-3f ? (size_m - (1.0f - enclosed) * ray_m) / enclosed : 0.0f;
    l = l > 0.5f ? l : 0.5f;
    float keep = enclosed * (1.0f - AC_WALL_ABSORPTION);
    float t = keep > 1e-4f ? 0.161f * (l / 4.0f) / -logf(keep) : 0.0f;
    *rt60_s = t < 0.01f ? 0.01f : t > 20.0f ? 20.0f : t;
    *damping = keep;
}

/* Each probe's edges, both directions, in (from, to) order: CSR over the undirected pairs. */
static blvl_status directed(const blvl_bake *b, const bake_ac_pair *pr, uint32_t np,
                            uint32_t probes, bake_ac *ac, uint32_t *first, blvl_error *err) {
    ac->edge_count = 2 * np;
    if (np && !(ac->edges = blvl__alloc_sized(b->al, (size_t)2 * np * sizeof *ac->edges)))
        return blvl__nomem(err, "acoustics: the edges");
    memset(first, 0, ((size_t)probes + 1) * sizeof *first);
    for (uint32_t k = 0; k < np; k++)
        first[pr[k].a + 1]++, first[pr[k].b + 1]++;
    for (uint32_t i = 0; i < probes; i++)
        first[i + 1] += first[i];
    /* pairs are in (a, b) order: the edges into a probe (from lower a) come first, in a order,
     * then those out of it (to higher b), in b order: every run sorted by `to`. */
    uint32_t *fill = blvl__alloc_sized(b->al, ((size_t)probes + 1) * sizeof *fill);
    if (!fill)
        return blvl__nomem(err, "acoustics: the edges");
    memcpy(fill, first, ((size_t)probes + 1) * sizeof *fill);
    for (uint32_t k = 0; k < np; k++) {
        const bake_ac_pair *e = &pr[k];
        blvl_AcousticEdge x = {.to = e->a, .door = e->door, .narrow = e->narrow};
        ac->edges[fill[e->b]++] = x;
    }
    for (uint32_t k = 0; k < np; k++) {
        const bake_ac_pair *e = &pr[k];
        blvl_AcousticEdge x = {.to = e->b, .door = e->door, .narrow = e->narrow};
        ac->edges[fill[e->a]++] = x;
    }
    blvl__free_sized(b->al, fill);
    return BLVL_OK;
}

static bool alike(const bake_ac_probe *q, double enc, double size) {
    float tol = (float)(size * AC_ALIKE_SIZE);
    return fabs(q->enclosed - enc) <= AC_ALIKE_ENCLOSED &&
           fabs(q->size_m - size) <= (tol > AC_ALIKE_SIZE_M ? tol : AC_ALIKE_SIZE_M);
}

/* Rooms by growing: the lowest unassigned probe seeds a room; a probe joins over a non-narrow,
 * doorless edge when alike to the room's running mean; first come, first served. */
static blvl_status rooms(const blvl_bake *b, const bake_ac_probe *p, uint32_t n,
                         const uint32_t *first, bake_ac *ac, blvl_error *err) {
    uint32_t *room = blvl__alloc_sized(b->al, (size_t)n * sizeof *room);
    uint32_t *queue = blvl__alloc_sized(b->al, (size_t)n * sizeof *queue);
    ac->rooms = blvl__alloc_sized(b->al, (size_t)n * sizeof *ac->rooms);
    if (!room || !queue || !ac->rooms) {
        blvl__free_sized(b->al, room);
        blvl__free_sized(b->al, queue);
        return blvl__nomem(err, "acoustics: the rooms");
    }
    for (uint32_t i = 0; i < n; i++)
        room[i] = UINT32_MAX;
    for (uint32_t s = 0; s < n; s++) {
        if (room[s] != UINT32_MAX)
            continue;
        uint32_t r = ac->room_count < 65535u ? ac->room_count++ : 65534u, head = 0, tail = 0;
        double enc = 0, size = 0, sky = 0, count = 0;
        room[s] = r, queue[tail++] = s;
        while (head < tail) {
            uint32_t i = queue[head++];
            enc += p[i].enclosed, size += p[i].size_m, sky += p[i].sky, count += 1;
            for (uint32_t e = first[i]; e < first[i + 1]; e++) {
                const blvl_AcousticEdge *x = &ac->edges[e];
                if (x->narrow || x->door != AC_NO_DOOR || room[x->to] != UINT32_MAX ||
                    !alike(&p[x->to], enc / count, size / count))
                    continue;
                room[x->to] = r, queue[tail++] = x->to;
            }
        }
        bake_ac_room *R = &ac->rooms[r];
        blvl__bake_acoustics_reverb((float)(enc / count / 255.0), (float)(size / count), &R->rt60_s,
                                    &R->damping);
        R->outdoor = sky * 2 > count;
    }
    for (uint32_t i = 0; i < n; i++)
        ac->probes[i].room = (uint16_t)room[i];
    blvl__free_sized(b->al, room);
    blvl__free_sized(b->al, queue);
    return BLVL_OK;
}

static void lengths(const bake_ac_probe *p, uint32_t n, const uint32_t *first, bake_ac *ac) {
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t e = first[i]; e < first[i + 1]; e++) {
            const float *a = p[i].pos, *c = p[ac->edges[e].to].pos;
            double dx = (double)c[0] - a[0], dy = (double)c[1] - a[1], dz = (double)c[2] - a[2];
            ac->edges[e].len_m = (float)(sqrt(dx * dx + dy * dy + dz * dz) * AC_QU_M);
        }
}

static blvl_status assemble(const blvl_bake *b, const bake_ac_probe *p, uint32_t n,
                            const bake_ac_pair *pr, uint32_t np, bake_ac *ac, blvl_error *err) {
    uint32_t *first = blvl__alloc_sized(b->al, ((size_t)n + 1) * sizeof *first);
    ac->probes = blvl__alloc_sized(b->al, (size_t)n * sizeof *ac->probes);
    if (!first || !ac->probes) {
        blvl__free_sized(b->al, first);
        return blvl__nomem(err, "acoustics: the probes");
    }
    ac->probe_count = n;
    blvl_status st = directed(b, pr, np, n, ac, first, err);
    if (st == BLVL_OK) {
        lengths(p, n, first, ac);
        for (uint32_t i = 0; i < n; i++) {
            blvl_AcousticProbe *o = &ac->probes[i];
            memset(o, 0, sizeof *o);
            o->position = (blvl_Vec3){p[i].pos[0], p[i].pos[1], p[i].pos[2]};
            o->first_edge = first[i];
            o->enclosed = p[i].enclosed;
            o->size_m = p[i].size_m;
        }
        st = rooms(b, p, n, first, ac, err);
    }
    blvl__free_sized(b->al, first);
    return st;
}

blvl_status blvl__bake_acoustics_build(const blvl_bake *b, bake_ac *out, blvl_error *err) {
    memset(out, 0, sizeof *out);
    if (!b->acoustics)
        return BLVL_OK;
    double t0 = blvl__bake_model_now();
    bake_ac_worlds w;
    bake_ac_probe *p = NULL;
    bake_ac_pair *pr = NULL;
    uint32_t n = 0, np = 0;
    float s = b->acoustics_spacing;
    blvl_status st = blvl__bake_acoustics_worlds(b, &w, err);
    if (st == BLVL_OK)
        st = blvl__bake_acoustics_probes(b, &w, s, &p, &n, err);
    if (st == BLVL_OK && n)
        st = blvl__bake_acoustics_pairs(b, &w, s, p, n, &pr, &np, err);
    bool added = false;
    if (st == BLVL_OK && n)
        st = blvl__bake_acoustics_gaps(b, &w, s, &p, &n, pr, np, &added, err);
    if (st == BLVL_OK && added) { /* the edges again, the gap probes among the others */
        blvl__free_sized(b->al, pr);
        pr = NULL;
        st = blvl__bake_acoustics_pairs(b, &w, s, p, n, &pr, &np, err);
    }
    if (st == BLVL_OK && n)
        st = blvl__bake_acoustics_bridges(b, &w, p, n, &pr, &np, err);
    if (st == BLVL_OK && n)
        st = assemble(b, p, n, pr, np, out, err);
    blvl__free_sized(b->al, p);
    blvl__free_sized(b->al, pr);
    blvl__bake_acoustics_worlds_free(b, &w);
    if (st != BLVL_OK)
        blvl__bake_acoustics_free(b, out);
    out->seconds = blvl__bake_model_now() - t0;
    return st;
}

void blvl__bake_acoustics_free(const blvl_bake *b, bake_ac *ac) {
    blvl__free_sized(b->al, ac->probes);
    blvl__free_sized(b->al, ac->edges);
    blvl__free_sized(b->al, ac->rooms);
    memset(ac, 0, sizeof *ac);
}
