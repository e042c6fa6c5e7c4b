/* Building a trace world: every collider expanded once (the per-level cache), door colliders set
 * aside with their closed-pose hulls, the hierarchy built over the rest. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_planes.h"

void blvl_trace_collider_desc_init(blvl_trace_collider_desc *d) {
    memset(d, 0, sizeof *d);
    d->material = d->breakable = d->door = d->source = BLVL_TRACE_NONE;
    d->gametypes = BLVL_TRACE_ALL_GAMETYPES;
}

typedef struct build_ctx {
    blvl_trace_world *w;
    geom_vec reports;
    uint32_t collider;
    const blvl_trace_options *opt;
    int nomem;
} build_ctx;

static void on_report(void *user, uint32_t face, const char *reason) {
    build_ctx *b = user;
    blvl_trace_report r;
    memset(&r, 0, sizeof r);
    r.collider = b->collider;
    r.face = face;
    snprintf(r.reason, sizeof r.reason, "%s", reason);
    if (b->opt && b->opt->report)
        b->opt->report(b->opt->report_user, &r);
    if (!blvl__geom_vec_push(&b->w->al, &b->reports, &r))
        b->nomem = 1;
}

void blvl_trace_world_free(blvl_trace_world *w) {
    if (!w)
        return;
    blvl_allocator al = w->al;
    blvl__dealloc(&al, w->colliders, (size_t)w->collider_count * sizeof(tw_collider));
    blvl__dealloc(&al, w->planes, w->plane_cap * sizeof(blvl_Plane));
    blvl__dealloc(&al, w->nodes, (size_t)w->node_cap * sizeof(tw_node4));
    blvl__dealloc(&al, w->items, (size_t)w->item_count * sizeof(tw_item));
    blvl__dealloc(&al, w->door_colliders,
                  (size_t)w->door_collider_count * sizeof(tw_door_collider));
    blvl__dealloc(&al, w->door_vertices, w->door_vertex_count * sizeof(blvl_Vec3));
    blvl__dealloc(&al, w->door_face_sizes, w->door_face_count * sizeof(uint32_t));
    blvl__dealloc(&al, w->door_face_indices, w->door_face_index_count * sizeof(uint32_t));
    blvl__dealloc(&al, w->reports, (size_t)w->report_count * sizeof(blvl_trace_report));
    blvl__dealloc(&al, w, sizeof *w);
}

/* Move a vector's contents into an exactly sized block owned by the world. */
static int take(const blvl_allocator *al, geom_vec *v, void **out, size_t *count) {
    *out = NULL;
    *count = v->len;
    if (v->len) {
        *out = blvl__alloc(al, v->len * v->elem);
        if (!*out)
            return 0;
        memcpy(*out, v->data, v->len * v->elem);
    }
    blvl__geom_vec_free(al, v);
    return 1;
}

static int door_cmp(const void *a, const void *b) {
    const tw_door_collider *x = a, *y = b;
    if (x->door != y->door)
        return (x->door > y->door) - (x->door < y->door);
    return (x->collider > y->collider) - (x->collider < y->collider);
}

/* What a build holds until the world takes it: the planes, the doors and their closed-pose hulls,
 * one collider's face loops (scratch) and, in `b`, the reports. */
typedef struct world_build {
    build_ctx b;
    const blvl_allocator *al;
    geom_vec planes, doors, dverts, dsizes, dindices, lsizes, lindices;
} world_build;

static void build_init(world_build *wb, blvl_trace_world *w, const blvl_trace_options *opt) {
    wb->b = (build_ctx){w, {0}, 0, opt, 0};
    wb->al = &w->al;
    blvl__geom_vec_init(&wb->b.reports, sizeof(blvl_trace_report));
    blvl__geom_vec_init(&wb->planes, sizeof(blvl_Plane));
    blvl__geom_vec_init(&wb->doors, sizeof(tw_door_collider));
    blvl__geom_vec_init(&wb->dverts, sizeof(blvl_Vec3));
    blvl__geom_vec_init(&wb->dsizes, sizeof(uint32_t));
    blvl__geom_vec_init(&wb->dindices, sizeof(uint32_t));
    blvl__geom_vec_init(&wb->lsizes, sizeof(uint32_t));
    blvl__geom_vec_init(&wb->lindices, sizeof(uint32_t));
}

/* Whatever the build still holds (a vector the world took is empty). */
static void build_free(world_build *wb) {
    blvl__geom_vec_free(wb->al, &wb->planes);
    blvl__geom_vec_free(wb->al, &wb->doors);
    blvl__geom_vec_free(wb->al, &wb->dverts);
    blvl__geom_vec_free(wb->al, &wb->dsizes);
    blvl__geom_vec_free(wb->al, &wb->dindices);
    blvl__geom_vec_free(wb->al, &wb->lsizes);
    blvl__geom_vec_free(wb->al, &wb->lindices);
    blvl__geom_vec_free(wb->al, &wb->b.reports);
}

/* The planes' room at once (stored planes, the axial planes a Planes collider may lack, a hull's
 * faces, axial planes and some bevels): growing it would copy every plane again. */
static const blvl_trace_collider_desc *source_at(const tw_source *src, uint32_t i,
                                                 blvl_trace_collider_desc *tmp) {
    return src->array ? &src->array[i] : src->get(src->user, i, tmp);
}

static int reserve_planes(world_build *wb, const tw_source *src, uint32_t count) {
    size_t want = 0;
    for (uint32_t i = 0; i < count; i++) {
        blvl_trace_collider_desc tmp;
        const blvl_trace_collider_desc *d = source_at(src, i, &tmp);
        if (!d)
            return 0;
        if (d->shape == BLVL_TRACE_SHAPE_PLANES && d->plane_count <= BLVL_TRACE_MAX_PLANES)
            want += d->plane_count + 6;
        else if (d->shape == BLVL_TRACE_SHAPE_HULL && d->face_count <= BLVL_TRACE_MAX_FACES)
            want += 3 * (size_t)d->face_count + 6;
    }
    return blvl__geom_vec_reserve(wb->al, &wb->planes, want);
}

/* Keep door collider i's closed-pose hull (its vertices and face loops) so a moved door can be
 * re-bevelled. 0 when out of memory. */
static int keep_door_hull(world_build *wb, const blvl_trace_collider_desc *d, uint32_t i,
                          const tw_collider *c, const float lo[3], const float hi[3]) {
    const blvl_allocator *al = wb->al;
    tw_door_collider dc = {i,
                           d->door,
                           (uint32_t)wb->dverts.len,
                           0,
                           (uint32_t)wb->dsizes.len,
                           0,
                           (uint32_t)wb->dindices.len,
                           0};
    if (d->shape == BLVL_TRACE_SHAPE_HULL) {
        for (uint32_t v = 0; v < d->vertex_count; v++)
            if (!blvl__geom_vec_push(al, &wb->dverts, &d->vertices[v]))
                return 0;
    } else {
        geom_vec hv;
        blvl__geom_vec_init(&hv, sizeof(blvl_Vec3));
        blvl_status s2 =
            blvl__trace_planes_to_hull(al, &GEOM_AT(wb->planes, blvl_Plane, c->first_plane),
                                       c->plane_count, lo, hi, &hv, &wb->lsizes, &wb->lindices);
        int ok = s2 == BLVL_OK && blvl__geom_vec_reserve(al, &wb->dverts, wb->dverts.len + hv.len);
        for (size_t v = 0; ok && v < hv.len; v++)
            blvl__geom_vec_push(al, &wb->dverts, &GEOM_AT(hv, blvl_Vec3, v));
        blvl__geom_vec_free(al, &hv);
        if (!ok)
            return 0;
    }
    dc.vertex_count = (uint32_t)(wb->dverts.len - dc.first_vertex);
    dc.face_count = (uint32_t)wb->lsizes.len;
    dc.index_count = (uint32_t)wb->lindices.len;
    for (size_t k = 0; k < wb->lsizes.len; k++)
        if (!blvl__geom_vec_push(al, &wb->dsizes, &GEOM_AT(wb->lsizes, uint32_t, k)))
            return 0;
    for (size_t k = 0; k < wb->lindices.len; k++)
        if (!blvl__geom_vec_push(al, &wb->dindices, &GEOM_AT(wb->lindices, uint32_t, k)))
            return 0;
    return blvl__geom_vec_push(al, &wb->doors, &dc);
}

/* Collider i expanded once into the shared planes (a Planes collider's planes, a hull's faces,
 * axial planes and bevels), its bounds set, a door's closed-pose hull kept. BLVL_OK also for a
 * collider that is not usable (reported, no planes); else the status the build fails with. */
static blvl_status expand_collider(world_build *wb, const blvl_trace_collider_desc *d, uint32_t i) {
    const blvl_allocator *al = wb->al;
    tw_collider *c = &wb->b.w->colliders[i];
    c->flags = d->flags;
    c->gametypes = d->gametypes;
    c->material = d->material;
    c->door = d->door;
    c->first_plane = (uint32_t)wb->planes.len;
    for (int k = 0; k < 3; k++) {
        c->lo[k] = INFINITY;
        c->hi[k] = -INFINITY;
    }
    wb->b.collider = i;
    int usable = 0, is_door = d->door != BLVL_TRACE_NONE;
    wb->lsizes.len = wb->lindices.len = 0;
    float lo[3], hi[3];
    blvl_status st;
    if (d->shape == BLVL_TRACE_SHAPE_PLANES) {
        st = blvl__trace_use_planes(al, d, &wb->planes, lo, hi, &usable, on_report, &wb->b);
    } else if (d->shape == BLVL_TRACE_SHAPE_HULL) {
        tw_hull_in in = {d->vertices,   d->vertex_count, d->face_sizes,
                         d->face_count, d->face_indices, d->face_index_count};
        st = blvl__trace_expand_hull(al, &in, &wb->planes, is_door ? &wb->lsizes : NULL,
                                     is_door ? &wb->lindices : NULL, lo, hi, &usable, on_report,
                                     &wb->b);
    } else {
        on_report(&wb->b, BLVL_TRACE_NONE, "collider has no shape");
        st = BLVL_OK;
    }
    if (st != BLVL_OK)
        return st;
    if (wb->b.nomem || wb->planes.len - c->first_plane > UINT32_MAX / 2)
        return BLVL_E_NOMEM;
    if (!usable) {
        wb->planes.len = c->first_plane;
        return BLVL_OK;
    }
    c->plane_count = (uint32_t)(wb->planes.len - c->first_plane);
    memcpy(c->lo, lo, sizeof lo);
    memcpy(c->hi, hi, sizeof hi);
    if (!is_door)
        return BLVL_OK;
    return keep_door_hull(wb, d, i, c, lo, hi) ? BLVL_OK : BLVL_E_NOMEM;
}

/* The doors sorted by (door, collider), then every vector moved into the world: the planes'
 * block as it is (its size recorded for the free: no copy), the rest into exactly sized blocks.
 * 0 when out of memory. */
static int move_into_world(world_build *wb) {
    blvl_trace_world *w = wb->b.w;
    const blvl_allocator *al = wb->al;
    if (wb->doors.len)
        qsort(wb->doors.data, wb->doors.len, sizeof(tw_door_collider), door_cmp);
    size_t n;
    void *p;
    w->planes = wb->planes.data;
    w->plane_count = wb->planes.len;
    w->plane_cap = wb->planes.cap;
    blvl__geom_vec_init(&wb->planes, sizeof(blvl_Plane));
    if (!take(al, &wb->doors, &p, &n))
        return 0;
    w->door_colliders = p;
    w->door_collider_count = (uint32_t)n;
    if (!take(al, &wb->dverts, &p, &w->door_vertex_count))
        return 0;
    w->door_vertices = p;
    if (!take(al, &wb->dsizes, &p, &w->door_face_count))
        return 0;
    w->door_face_sizes = p;
    if (!take(al, &wb->dindices, &p, &w->door_face_index_count))
        return 0;
    w->door_face_indices = p;
    if (!take(al, &wb->b.reports, &p, &n))
        return 0;
    w->reports = p;
    w->report_count = (uint32_t)n;
    return 1;
}

blvl_status blvl_trace_world_new(blvl_trace_world **out, const blvl_trace_collider_desc *colliders,
                                 uint32_t count, const blvl_trace_options *opt, blvl_error *err) {
    if (!out || (count && !colliders) || count > (1u << 28)) {
        blvl__fail(err, BLVL_E_ARGUMENT, "trace: world: bad arguments");
        return BLVL_E_ARGUMENT;
    }
    tw_source src = {colliders, NULL, NULL};
    return blvl__trace_world_build(out, &src, count, opt, err);
}

/* The phases: the colliders' table and the planes' room, each collider expanded, the build
 * moved into the world, the hierarchy built. Every failure frees what the build and the world
 * hold. */
blvl_status blvl__trace_world_build(blvl_trace_world **out, const tw_source *src, uint32_t count,
                                    const blvl_trace_options *opt, blvl_error *err) {
    *out = NULL;
    blvl_allocator al = {0};
    if (opt)
        al = opt->base.allocator;
    blvl_trace_world *w = blvl__calloc_n(&al, 1, sizeof *w);
    if (!w) {
        blvl__nomem(err, "trace: world");
        return BLVL_E_NOMEM;
    }
    w->al = al;
    world_build wb;
    build_init(&wb, w, opt);
    blvl_status st = BLVL_E_NOMEM;

    w->colliders = blvl__calloc_n(&al, count ? count : 1, sizeof(tw_collider));
    if (!w->colliders)
        goto fail;
    w->collider_count = count;
    if (!reserve_planes(&wb, src, count))
        goto fail;
    for (uint32_t i = 0; i < count; i++) {
        blvl_trace_collider_desc tmp;
        const blvl_trace_collider_desc *d = source_at(src, i, &tmp);
        st = d ? expand_collider(&wb, d, i) : BLVL_E_NOMEM;
        if (st != BLVL_OK)
            goto fail;
    }
    st = BLVL_E_NOMEM;
    if (!move_into_world(&wb))
        goto fail;
    build_free(&wb); /* the scratch face loops; the rest is the world's now */
    st = blvl__trace_bvh_build(w, err);
    if (st != BLVL_OK) {
        blvl_trace_world_free(w);
        return st;
    }
    *out = w;
    return BLVL_OK;
fail:
    build_free(&wb);
    blvl_trace_world_free(w);
    /* the expansions fail only when the allocator does */
    return blvl__nomem(err, "trace: world");
}

void blvl__trace_world_set_no_backoff(blvl_trace_world *w, int off) {
    if (w)
        w->no_backoff = off != 0;
}

const blvl_trace_report *blvl_trace_world_reports(const blvl_trace_world *w, uint32_t *count) {
    *count = w ? w->report_count : 0;
    return w ? w->reports : NULL;
}

uint32_t blvl_trace_world_collider_count(const blvl_trace_world *w) {
    return w ? w->collider_count : 0;
}

const blvl_Plane *blvl_trace_world_planes(const blvl_trace_world *w, uint32_t collider,
                                          uint32_t *count) {
    *count = 0;
    if (!w || collider >= w->collider_count)
        return NULL;
    return blvl__tw_collider_planes(w, &w->colliders[collider], count);
}

bool blvl_trace_world_bounds(const blvl_trace_world *w, uint32_t collider, float lo[3],
                             float hi[3]) {
    if (!w || collider >= w->collider_count || !w->colliders[collider].plane_count)
        return 0;
    memcpy(lo, w->colliders[collider].lo, 3 * sizeof(float));
    memcpy(hi, w->colliders[collider].hi, 3 * sizeof(float));
    return 1;
}
