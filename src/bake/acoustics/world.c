/* The acoustics step's trace worlds, built from the colliders the sim section is written from:
 * one without the doors (held open) and one of the door colliders alone (their closed pose). */
#include <string.h>

#include "bake/acoustics/acoustics.h"
#include "common/alloc.h"
#include "common/error.h"

/* A door's team as the section names it: the lowest index of the doors sharing its team name. */
static uint32_t door_team(const blvl_bake *b, uint32_t d) {
    const char *t = b->doors.p[d].team;
    if (!t || !*t)
        return d;
    for (uint32_t j = 0; j < d; j++)
        if (b->doors.p[j].team && strcmp(b->doors.p[j].team, t) == 0)
            return j;
    return d;
}

static void describe(const bake_collider *k, blvl_trace_collider_desc *d) {
    blvl_trace_collider_desc_init(d);
    d->lo = k->shape.lo;
    d->hi = k->shape.hi;
    d->flags = k->c.flags;
    d->gametypes = k->c.gametypes;
    if (k->shape.kind == blvl_Shape_Hull) {
        d->shape = BLVL_TRACE_SHAPE_HULL;
        d->vertices = k->shape.vertices;
        d->vertex_count = k->shape.vertex_count;
        d->face_sizes = k->shape.face_sizes;
        d->face_count = k->shape.face_count;
        d->face_indices = k->shape.face_indices;
        d->face_index_count = k->shape.face_index_count;
    } else {
        d->shape = BLVL_TRACE_SHAPE_PLANES;
        d->planes = k->shape.planes;
        d->plane_count = k->shape.plane_count;
    }
}

static void grow_bounds(bake_ac_worlds *w, const bake_collider *k) {
    const float lo[3] = {k->shape.lo.x, k->shape.lo.y, k->shape.lo.z};
    const float hi[3] = {k->shape.hi.x, k->shape.hi.y, k->shape.hi.z};
    for (int a = 0; a < 3; a++) {
        if (w->empty || lo[a] < w->lo[a])
            w->lo[a] = lo[a];
        if (w->empty || hi[a] > w->hi[a])
            w->hi[a] = hi[a];
    }
    w->empty = false;
}

typedef struct descs {
    blvl_trace_collider_desc *open, *doors;
    uint32_t n_open, n_doors;
    blvl_Vec3 (*corners)[8]; /* made prisms' corners, one slot per collider */
} descs;

/* Every collider into one of the two lists; made prisms' corners kept in d->corners. */
static void sort_colliders(const blvl_bake *b, bake_ac_worlds *w, descs *d) {
    uint32_t n = blvl__bake_model_collider_count(b);
    bake_collider_view v;
    w->empty = true;
    for (uint32_t i = 0; i < n; i++) {
        const bake_collider *k = blvl__bake_model_collider_at(b, i, &v);
        bake_collider copy;
        if (k == &v.k) { /* made: its corners live in v until the next call */
            memcpy(d->corners[i], v.corners, sizeof v.corners);
            copy = v.k;
            copy.shape.vertices = d->corners[i];
            k = &copy;
        }
        bool water = (k->c.flags & BLVL_COLLIDER_WATER) != 0;
        if (!water)
            grow_bounds(w, k);
        if (k->c.flags & BLVL_COLLIDER_SKY)
            w->sealed = true;
        if (k->c.door != BLVL_BAKE_NONE) {
            w->door_team[d->n_doors] = door_team(b, k->c.door);
            describe(k, &d->doors[d->n_doors++]);
        } else { /* water too: never swept, but the probes ask whether they stand in it */
            describe(k, &d->open[d->n_open++]);
        }
    }
}

blvl_status blvl__bake_acoustics_worlds(const blvl_bake *b, bake_ac_worlds *w, blvl_error *err) {
    memset(w, 0, sizeof *w);
    uint32_t n = blvl__bake_model_collider_count(b);
    descs d = {0};
    size_t one = n ? n : 1;
    d.open = blvl__alloc_sized(b->al, one * sizeof *d.open);
    d.doors = blvl__alloc_sized(b->al, one * sizeof *d.doors);
    d.corners = blvl__alloc_sized(b->al, one * sizeof *d.corners);
    w->door_team = blvl__alloc_sized(b->al, one * sizeof *w->door_team);
    blvl_status st = BLVL_OK;
    if (!d.open || !d.doors || !d.corners || !w->door_team)
        st = blvl__nomem(err, "acoustics: the trace world's colliders");
    if (st == BLVL_OK) {
        sort_colliders(b, w, &d);
        blvl_trace_options to = {.base = b->opt};
        st = blvl_trace_world_new(&w->open, d.open, d.n_open, &to, err);
        if (st == BLVL_OK)
            st = blvl_trace_world_new(&w->doors, d.doors, d.n_doors, &to, err);
    }
    blvl__free_sized(b->al, d.open);
    blvl__free_sized(b->al, d.doors);
    blvl__free_sized(b->al, d.corners);
    if (st != BLVL_OK)
        blvl__bake_acoustics_worlds_free(b, w);
    return st;
}

void blvl__bake_acoustics_worlds_free(const blvl_bake *b, bake_ac_worlds *w) {
    blvl_trace_world_free(w->open);
    blvl_trace_world_free(w->doors);
    blvl__free_sized(b->al, w->door_team);
    memset(w, 0, sizeof *w);
}
