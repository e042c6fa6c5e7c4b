/* Bridges (docs/ACOUSTICS.md, "Bridges"): parts of the graph that the lattice's reach leaves
 * apart but that hear each other across open space (two islands over a void, a yard seen across
 * a chasm) get one edge: the closest pair of probes, of the AC_BRIDGE_TRIES closest, whose ears
 * see each other within 45 m. Parts are taken in order of their lowest probe and joined as they
 * are bridged, on one thread: the same for any thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake/acoustics/acoustics.h"
#include "common/alloc.h"
#include "common/error.h"

static uint32_t find(uint32_t *uf, uint32_t i) {
    while (uf[i] != i)
        i = uf[i] = uf[uf[i]];
    return i;
}

static int pair_order(const void *pa, const void *pb) {
    const bake_ac_pair *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

typedef struct try_pair {
    float d2;
    uint32_t i, j;
} try_pair;

/* Up to AC_BRIDGE_SAMPLE probes of part `root`, evenly spread over its probe order. */
static uint32_t sample(const uint32_t *part, uint32_t n, uint32_t root, uint32_t size,
                       uint32_t *out) {
    uint32_t step = size > AC_BRIDGE_SAMPLE ? (size + AC_BRIDGE_SAMPLE - 1) / AC_BRIDGE_SAMPLE : 1;
    uint32_t k = 0, seen = 0;
    for (uint32_t i = 0; i < n && k < AC_BRIDGE_SAMPLE; i++)
        if (part[i] == root && seen++ % step == 0)
            out[k++] = i;
    return k;
}

/* The closest pairs between two samples, nearest first (insertion into a short list). */
static uint32_t closest(const bake_ac_probe *p, const uint32_t *sa, uint32_t na, const uint32_t *sb,
                        uint32_t nb, try_pair *best) {
    uint32_t k = 0;
    for (uint32_t x = 0; x < na; x++)
        for (uint32_t y = 0; y < nb; y++) {
            const float *a = p[sa[x]].pos, *c = p[sb[y]].pos;
            float dx = a[0] - c[0], dy = a[1] - c[1], dz = a[2] - c[2];
            float d2 = dx * dx + dy * dy + dz * dz;
            if (d2 > AC_RAY_QU * AC_RAY_QU || (k == AC_BRIDGE_TRIES && d2 >= best[k - 1].d2))
                continue;
            uint32_t at = k < AC_BRIDGE_TRIES ? k++ : k - 1;
            while (at > 0 && best[at - 1].d2 > d2) {
                best[at] = best[at - 1];
                at--;
            }
            best[at] = (try_pair){d2, sa[x] < sb[y] ? sa[x] : sb[y], sa[x] < sb[y] ? sb[y] : sa[x]};
        }
    return k;
}

blvl_status blvl__bake_acoustics_bridges(const blvl_bake *b, const bake_ac_worlds *w,
                                         const bake_ac_probe *p, uint32_t n, bake_ac_pair **pairs,
                                         uint32_t *np, blvl_error *err) {
    uint32_t *uf = blvl__alloc_sized(b->al, (size_t)n * 4 * sizeof *uf);
    if (!uf)
        return blvl__nomem(err, "acoustics: the bridges");
    uint32_t *part = uf + n, *size = part + n, *roots = size + n, nroots = 0;
    for (uint32_t i = 0; i < n; i++)
        uf[i] = i, size[i] = 0;
    for (uint32_t k = 0; k < *np; k++) {
        uint32_t x = find(uf, (*pairs)[k].a), y = find(uf, (*pairs)[k].b);
        if (x != y)
            uf[x > y ? x : y] = x < y ? x : y;
    }
    for (uint32_t i = 0; i < n; i++) {
        part[i] = find(uf, i);
        if (size[part[i]]++ == 0)
            roots[nroots++] = part[i];
    }
    /* the AC_BRIDGE_PARTS largest parts of AC_BRIDGE_MIN probes or more, largest first */
    uint32_t keep = 0;
    for (uint32_t r = 0; r < nroots; r++)
        if (size[roots[r]] >= AC_BRIDGE_MIN)
            roots[keep++] = roots[r];
    nroots = keep;
    for (uint32_t r = 1; r < nroots; r++) /* insertion sort: by size, then root */
        for (uint32_t q = r;
             q > 0 && (size[roots[q - 1]] < size[roots[q]] ||
                       (size[roots[q - 1]] == size[roots[q]] && roots[q - 1] > roots[q]));
             q--) {
            uint32_t t = roots[q];
            roots[q] = roots[q - 1], roots[q - 1] = t;
        }
    nroots = nroots < AC_BRIDGE_PARTS ? nroots : AC_BRIDGE_PARTS;
    uint32_t(*samples)[AC_BRIDGE_SAMPLE] =
        blvl__alloc_sized(b->al, ((size_t)nroots + 1) * sizeof *samples);
    uint32_t ns[AC_BRIDGE_PARTS];
    if (!samples) {
        blvl__free_sized(b->al, uf);
        return blvl__nomem(err, "acoustics: the bridges");
    }
    for (uint32_t r = 0; r < nroots; r++)
        ns[r] = sample(part, n, roots[r], size[roots[r]], samples[r]);
    bake_ac_pair add[AC_BRIDGE_PARTS];
    uint32_t added = 0;
    try_pair best[AC_BRIDGE_TRIES];
    for (uint32_t x = 0; x < nroots; x++)
        for (uint32_t y = x + 1; y < nroots; y++) {
            if (find(uf, roots[x]) == find(uf, roots[y]))
                continue;
            uint32_t k = closest(p, samples[x], ns[x], samples[y], ns[y], best);
            for (uint32_t t = 0; t < k; t++) {
                bake_ac_pair e = {.a = best[t].i, .b = best[t].j};
                if (!blvl__bake_acoustics_link(w, p[e.a].pos, p[e.b].pos, &e))
                    continue;
                add[added++] = e;
                uint32_t r0 = find(uf, roots[x]), r1 = find(uf, roots[y]);
                uf[r0 > r1 ? r0 : r1] = r0 < r1 ? r0 : r1;
                break;
            }
        }
    blvl_status st = BLVL_OK;
    if (added) {
        bake_ac_pair *g = blvl__alloc_sized(b->al, ((size_t)*np + added) * sizeof *g);
        if (!g) {
            st = blvl__nomem(err, "acoustics: the bridges");
        } else {
            if (*np)
                memcpy(g, *pairs, (size_t)*np * sizeof *g);
            memcpy(g + *np, add, (size_t)added * sizeof *g);
            *np += added;
            qsort(g, *np, sizeof *g, pair_order);
            blvl__free_sized(b->al, *pairs);
            *pairs = g;
        }
    }
    blvl__free_sized(b->al, samples);
    blvl__free_sized(b->al, uf);
    return st;
}
