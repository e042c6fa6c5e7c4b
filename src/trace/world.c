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

blvl_status blvl_trace_world_new(blvl_trace_world **out, const blvl_trace_collider_desc *colliders,
                                 uint32_t count, const blvl_trace_options *opt, blvl_error *err) {
    if (!out || (count && !colliders) || count > (1u << 28)) {
        blvl__fail(err, BLVL_E_ARGUMENT, "trace: world: bad arguments");
        return BLVL_E_ARGUMENT;
    }
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
    build_ctx b = {w, {0}, 0, opt, 0};
    blvl__geom_vec_init(&b.reports, sizeof(blvl_trace_report));
    geom_vec planes, doors, dverts, dsizes, dindices, lsizes, lindices;
    blvl__geom_vec_init(&planes, sizeof(blvl_Plane));
    blvl__geom_vec_init(&doors, sizeof(tw_door_collider));
    blvl__geom_vec_init(&dverts, sizeof(blvl_Vec3));
    blvl__geom_vec_init(&dsizes, sizeof(uint32_t));
    blvl__geom_vec_init(&dindices, sizeof(uint32_t));
    blvl__geom_vec_init(&lsizes, sizeof(uint32_t));
    blvl__geom_vec_init(&lindices, sizeof(uint32_t));
    blvl_status st = BLVL_E_NOMEM;

    w->colliders = blvl__calloc_n(&al, count ? count : 1, sizeof(tw_collider));
    if (!w->colliders)
        goto fail;
    w->collider_count = count;
    /* The planes' room at once (stored planes, the axial planes a Planes collider may lack, a
     * hull's faces, axial planes and some bevels): growing it would copy every plane again. */
    size_t want = 0;
    for (uint32_t i = 0; i < count; i++) {
        const blvl_trace_collider_desc *d = &colliders[i];
        if (d->shape == BLVL_TRACE_SHAPE_PLANES && d->plane_count <= BLVL_TRACE_MAX_PLANES)
            want += d->plane_count + 6;
        else if (d->shape == BLVL_TRACE_SHAPE_HULL && d->face_count <= BLVL_TRACE_MAX_FACES)
            want += 3 * (size_t)d->face_count + 6;
    }
    if (!blvl__geom_vec_reserve(&al, &planes, want))
        goto fail;
    for (uint32_t i = 0; i < count; i++) {
        const blvl_trace_collider_desc *d = &colliders[i];
        tw_collider *c = &w->colliders[i];
        c->flags = d->flags;
        c->gametypes = d->gametypes;
        c->material = d->material;
        c->door = d->door;
        c->first_plane = (uint32_t)planes.len;
        for (int k = 0; k < 3; k++) {
            c->lo[k] = INFINITY;
            c->hi[k] = -INFINITY;
        }
        b.collider = i;
        int usable = 0, is_door = d->door != BLVL_TRACE_NONE;
        lsizes.len = lindices.len = 0;
        float lo[3], hi[3];
        if (d->shape == BLVL_TRACE_SHAPE_PLANES) {
            st = blvl__tw_use_planes(&al, d, &planes, lo, hi, &usable, on_report, &b);
        } else if (d->shape == BLVL_TRACE_SHAPE_HULL) {
            tw_hull_in in = {d->vertices,   d->vertex_count, d->face_sizes,
                             d->face_count, d->face_indices, d->face_index_count};
            st = blvl__tw_expand_hull(&al, &in, &planes, is_door ? &lsizes : NULL,
                                      is_door ? &lindices : NULL, lo, hi, &usable, on_report, &b);
        } else {
            on_report(&b, BLVL_TRACE_NONE, "collider has no shape");
            st = BLVL_OK;
        }
        if (st != BLVL_OK || b.nomem || planes.len - c->first_plane > UINT32_MAX / 2)
            goto fail;
        st = BLVL_E_NOMEM;
        if (!usable) {
            planes.len = c->first_plane;
            continue;
        }
        c->plane_count = (uint32_t)(planes.len - c->first_plane);
        memcpy(c->lo, lo, sizeof lo);
        memcpy(c->hi, hi, sizeof hi);
        if (!is_door)
            continue;
        /* Keep the closed-pose hull so a moved door can be re-bevelled. */
        tw_door_collider dc = {
            i, d->door, (uint32_t)dverts.len, 0, (uint32_t)dsizes.len, 0, (uint32_t)dindices.len,
            0};
        if (d->shape == BLVL_TRACE_SHAPE_HULL) {
            for (uint32_t v = 0; v < d->vertex_count; v++)
                if (!blvl__geom_vec_push(&al, &dverts, &d->vertices[v]))
                    goto fail;
        } else {
            geom_vec hv;
            blvl__geom_vec_init(&hv, sizeof(blvl_Vec3));
            blvl_status s2 =
                blvl__tw_planes_to_hull(&al, &GEOM_AT(planes, blvl_Plane, c->first_plane),
                                        c->plane_count, lo, hi, &hv, &lsizes, &lindices);
            int ok = s2 == BLVL_OK && blvl__geom_vec_reserve(&al, &dverts, dverts.len + hv.len);
            for (size_t v = 0; ok && v < hv.len; v++)
                blvl__geom_vec_push(&al, &dverts, &GEOM_AT(hv, blvl_Vec3, v));
            blvl__geom_vec_free(&al, &hv);
            if (!ok)
                goto fail;
        }
        dc.vertex_count = (uint32_t)(dverts.len - dc.first_vertex);
        dc.face_count = (uint32_t)lsizes.len;
        dc.index_count = (uint32_t)lindices.len;
        for (size_t k = 0; k < lsizes.len; k++)
            if (!blvl__geom_vec_push(&al, &dsizes, &GEOM_AT(lsizes, uint32_t, k)))
                goto fail;
        for (size_t k = 0; k < lindices.len; k++)
            if (!blvl__geom_vec_push(&al, &dindices, &GEOM_AT(lindices, uint32_t, k)))
                goto fail;
        if (!blvl__geom_vec_push(&al, &doors, &dc))
            goto fail;
    }
    if (doors.len)
        qsort(doors.data, doors.len, sizeof(tw_door_collider), door_cmp);
    size_t n;
    void *p;
    /* The planes' block is kept as it is (its size recorded for the free): no copy. */
    w->planes = planes.data;
    w->plane_count = planes.len;
    w->plane_cap = planes.cap;
    blvl__geom_vec_init(&planes, sizeof(blvl_Plane));
    if (!take(&al, &doors, &p, &n))
        goto fail;
    w->door_colliders = p;
    w->door_collider_count = (uint32_t)n;
    if (!take(&al, &dverts, &p, &w->door_vertex_count))
        goto fail;
    w->door_vertices = p;
    if (!take(&al, &dsizes, &p, &w->door_face_count))
        goto fail;
    w->door_face_sizes = p;
    if (!take(&al, &dindices, &p, &w->door_face_index_count))
        goto fail;
    w->door_face_indices = p;
    if (!take(&al, &b.reports, &p, &n))
        goto fail;
    w->reports = p;
    w->report_count = (uint32_t)n;
    blvl__geom_vec_free(&al, &lsizes);
    blvl__geom_vec_free(&al, &lindices);
    st = blvl__tw_bvh_build(w, err);
    if (st != BLVL_OK) {
        blvl_trace_world_free(w);
        return st;
    }
    *out = w;
    return BLVL_OK;
fail:
    blvl__geom_vec_free(&al, &planes);
    blvl__geom_vec_free(&al, &doors);
    blvl__geom_vec_free(&al, &dverts);
    blvl__geom_vec_free(&al, &dsizes);
    blvl__geom_vec_free(&al, &dindices);
    blvl__geom_vec_free(&al, &lsizes);
    blvl__geom_vec_free(&al, &lindices);
    blvl__geom_vec_free(&al, &b.reports);
    blvl_trace_world_free(w);
    /* the expansions fail only when the allocator does */
    return blvl__nomem(err, "trace: world");
}

void blvl__tw_world_set_no_backoff(blvl_trace_world *w, int off) {
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
