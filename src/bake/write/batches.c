/* Batches: surfaces with the same material, door, breakable, fog volume, match types and
 * lightmap layer share one batch. Batches are ordered by (translucent, material sort key, the
 * order their first surface was added); a batch's surfaces keep the order they were added. The
 * order is a function of the add calls alone (a hash table finds groups, but the order comes
 * from first-seen numbers, never from hash positions). */
#include "bake/write/batches.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"

bool blvl__bake_write_translucent(const blvl_bake *b, uint32_t material) {
    return material != BLVL_BAKE_NONE && b->materials.p[material].blend != 0;
}

static float sort_key(const blvl_bake *b, uint32_t material) {
    return material == BLVL_BAKE_NONE ? 3.0f : b->materials.p[material].sort;
}

static bool same_key(const bake_surface *a, const bake_batch *k) {
    return a->material == k->material && a->door == k->door && a->breakable == k->breakable &&
           a->fog == k->fog && a->gametypes == k->gametypes &&
           a->lightmap_layer == k->lightmap_layer;
}

static uint64_t hash_key(const bake_surface *s) {
    uint64_t h = 1469598103934665603ull;
    uint32_t f[6] = {s->material, s->door, s->breakable, s->fog, s->gametypes, s->lightmap_layer};
    for (int i = 0; i < 6; i++) {
        h ^= f[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

typedef struct rank {
    uint32_t group;
    bool translucent;
    float sort;
} rank;

static int cmp_rank(const void *pa, const void *pb) {
    const rank *a = pa, *b = pb;
    if (a->translucent != b->translucent)
        return a->translucent ? 1 : -1;
    if (a->sort != b->sort)
        return a->sort < b->sort ? -1 : 1;
    return a->group < b->group ? -1 : a->group > b->group; /* first seen first */
}

blvl_status blvl__bake_write_plan(const blvl_bake *b, bake_plan *plan, blvl_error *err) {
    memset(plan, 0, sizeof *plan);
    const blvl_allocator *al = b->al;
    uint32_t ns = b->surfaces.n;
    uint32_t cap = 16;
    while (cap < 2u * (uint64_t)ns && cap < (1u << 31))
        cap <<= 1;
    uint32_t *slots = blvl__alloc(al, (size_t)cap * sizeof *slots);
    uint32_t *group_of = blvl__alloc(al, ((size_t)ns + 1) * sizeof *group_of);
    bake_batch *groups = blvl__calloc_n(al, (size_t)ns + 1, sizeof *groups);
    rank *ranks = blvl__alloc(al, ((size_t)ns + 1) * sizeof *ranks);
    uint32_t *pos = blvl__alloc(al, ((size_t)ns + 1) * sizeof *pos);
    plan->order = blvl__alloc(al, ((size_t)ns + 1) * sizeof *plan->order);
    blvl_status st = BLVL_OK;
    if (!slots || !group_of || !groups || !ranks || !pos || !plan->order) {
        st = blvl__nomem(err, "bake: batching %u surfaces", ns);
        goto done;
    }
    memset(slots, 0xFF, (size_t)cap * sizeof *slots);
    uint32_t ng = 0;
    for (uint32_t i = 0; i < ns; i++) {
        const bake_surface *s = &b->surfaces.p[i];
        group_of[i] = BLVL_BAKE_NONE;
        if (s->index_count == 0)
            continue;
        uint32_t h = (uint32_t)hash_key(s) & (cap - 1);
        while (slots[h] != BLVL_BAKE_NONE && !same_key(s, &groups[slots[h]]))
            h = (h + 1) & (cap - 1);
        if (slots[h] == BLVL_BAKE_NONE) {
            slots[h] = ng;
            groups[ng] = (bake_batch){.material = s->material,
                                      .door = s->door,
                                      .breakable = s->breakable,
                                      .fog = s->fog,
                                      .gametypes = s->gametypes,
                                      .lightmap_layer = s->lightmap_layer};
            ng++;
        }
        group_of[i] = slots[h];
        groups[slots[h]].count++;
        groups[slots[h]].index_count += s->index_count;
    }
    for (uint32_t g = 0; g < ng; g++)
        ranks[g] = (rank){g, blvl__bake_write_translucent(b, groups[g].material),
                          sort_key(b, groups[g].material)};
    qsort(ranks, ng, sizeof *ranks, cmp_rank);
    plan->batches = blvl__alloc(al, ((size_t)ns + 1) * sizeof *plan->batches);
    if (!plan->batches) {
        st = blvl__nomem(err, "bake: batching %u surfaces", ns);
        goto done;
    }
    uint32_t first = 0;
    uint64_t first_index = 0;
    for (uint32_t r = 0; r < ng; r++) {
        bake_batch bt = groups[ranks[r].group];
        bt.first = first;
        bt.first_index = (uint32_t)first_index;
        pos[ranks[r].group] = first;
        first += bt.count;
        first_index += bt.index_count;
        plan->batches[r] = bt;
    }
    plan->batch_count = ng;
    uint32_t tail = first;
    for (uint32_t i = 0; i < ns; i++) {
        if (group_of[i] == BLVL_BAKE_NONE)
            plan->order[tail++] = i;
        else
            plan->order[pos[group_of[i]]++] = i;
    }
    plan->order_count = ns;
done:
    blvl__bake_model_dealloc(b, slots, (size_t)cap * sizeof *slots);
    blvl__bake_model_dealloc(b, group_of, ((size_t)ns + 1) * sizeof *group_of);
    blvl__bake_model_dealloc(b, groups, ((size_t)ns + 1) * sizeof *groups);
    blvl__bake_model_dealloc(b, ranks, ((size_t)ns + 1) * sizeof *ranks);
    blvl__bake_model_dealloc(b, pos, ((size_t)ns + 1) * sizeof *pos);
    if (st != BLVL_OK)
        blvl__bake_write_plan_free(b, plan);
    return st;
}

void blvl__bake_write_plan_free(const blvl_bake *b, bake_plan *plan) {
    size_t ns = (size_t)b->surfaces.n + 1;
    if (plan->order)
        blvl__dealloc(b->al, plan->order, ns * sizeof *plan->order);
    if (plan->batches)
        blvl__dealloc(b->al, plan->batches, ns * sizeof *plan->batches);
    memset(plan, 0, sizeof *plan);
}
