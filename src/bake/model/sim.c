/* The model's sim adds: colliders (glue over shapes.h), doors, triggers, teleport destinations,
 * spawns and hurt volumes. */
#include <math.h>
#include <string.h>

#include "bake/model/fast.h"
#include "bake/model/model.h"
#include "common/alloc.h"
#include "common/error.h"

void blvl_bake_collider_init(blvl_bake_collider *c) {
    if (!c)
        return;
    memset(c, 0, sizeof *c);
    c->material = BLVL_BAKE_NONE;
    c->door = BLVL_BAKE_NONE;
    c->gametypes = BLVL_BAKE_ALL_GAMETYPES;
    c->source_kind = blvl_ColliderSourceKind_World;
    c->source_entity = BLVL_BAKE_NONE;
    c->symbol = BLVL_BAKE_NONE;
}

static blvl_status check_collider(blvl_bake *b, const blvl_bake_collider *c, blvl_error *err) {
    blvl_status st;
    if ((st =
             blvl__bake_model_check_index(c->material, b->materials.n, "collider material", err)) ||
        (st = blvl__bake_model_check_index(c->door, b->doors.n, "collider door", err)) ||
        (st = blvl__bake_model_check_index(c->source_entity, b->entities.n, "collider entity",
                                           err)) ||
        (st = blvl__bake_model_check_index(c->symbol, b->sources.n, "collider symbol", err)))
        return st;
    if (c->source_kind > blvl_ColliderSourceKind_Physics)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: collider source kind %u is unknown",
                          c->source_kind);
    return BLVL_OK;
}

/* Stores a shape made by shapes.h (taking ownership), or reports NONE for an empty solid. */
static blvl_status store(blvl_bake *b, const blvl_bake_collider *c, bake_shape *shape, bool empty,
                         uint32_t *index, blvl_error *err) {
    if (index)
        *index = BLVL_BAKE_NONE;
    if (empty) {
        blvl__ok(err);
        return BLVL_OK;
    }
    bool ok = true;
    bake_collider k = {.c = *c, .shape = *shape};
    k.c.source_name = blvl__bake_model_str(b, c->source_name, &ok);
    blvl_status st =
        ok ? BAKE_RESERVE(b, b->colliders, 1, err) : blvl__nomem(err, "bake: copying a collider");
    if (st == BLVL_OK)
        st = BAKE_RESERVE(b, b->collider_order, 1, err);
    if (st != BLVL_OK) {
        blvl__bake_model_str_free(b, (char *)k.c.source_name);
        blvl__bake_convex_shape_free(b->al, shape);
        return st;
    }
    if (index)
        *index = b->collider_order.n;
    b->collider_order.p[b->collider_order.n++] = b->colliders.n;
    b->colliders.p[b->colliders.n++] = k;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl__bake_model_store_made_prism(blvl_bake *b, const blvl_bake_collider *c,
                                              uint32_t maker, const uint32_t key[4],
                                              uint8_t variant, uint32_t *index, blvl_error *err) {
    if (index)
        *index = BLVL_BAKE_NONE;
    blvl_status st = check_collider(b, c, err);
    if (st == BLVL_OK && b->made_prisms.n >= BAKE_MADE - 1u)
        st = blvl__fail(err, BLVL_E_ARGUMENT, "bake: over %u made prisms", BAKE_MADE - 1u);
    if (st == BLVL_OK)
        st = BAKE_RESERVE(b, b->made_prisms, 1, err);
    if (st == BLVL_OK)
        st = BAKE_RESERVE(b, b->collider_order, 1, err);
    if (st != BLVL_OK)
        return st;
    bake_made_prism m = {.key = {key[0], key[1], key[2], key[3]},
                         .flags = c->flags,
                         .material = c->material,
                         .door = c->door,
                         .gametypes = c->gametypes,
                         .source_entity = c->source_entity,
                         .symbol = c->symbol,
                         .maker = (uint16_t)maker,
                         .source_kind = c->source_kind,
                         .variant = variant};
    if (index)
        *index = b->collider_order.n;
    b->collider_order.p[b->collider_order.n++] = BAKE_MADE | b->made_prisms.n;
    b->made_prisms.p[b->made_prisms.n++] = m;
    blvl__ok(err);
    return BLVL_OK;
}

static blvl_bake_collider made_info(const bake_made_prism *m) {
    return (blvl_bake_collider){.flags = m->flags,
                                .material = m->material,
                                .door = m->door,
                                .gametypes = m->gametypes,
                                .source_kind = m->source_kind,
                                .source_name = NULL,
                                .source_entity = m->source_entity,
                                .symbol = m->symbol};
}

blvl_bake_collider blvl__bake_model_collider_info(const blvl_bake *b, uint32_t i) {
    uint32_t at = b->collider_order.p[i];
    return at & BAKE_MADE ? made_info(&b->made_prisms.p[at & ~BAKE_MADE]) : b->colliders.p[at].c;
}

const bake_collider *blvl__bake_model_collider_at(const blvl_bake *b, uint32_t i,
                                                  bake_collider_view *v) {
    uint32_t at = b->collider_order.p[i];
    if (!(at & BAKE_MADE))
        return &b->colliders.p[at];
    const bake_made_prism *m = &b->made_prisms.p[at & ~BAKE_MADE];
    const bake_prism_maker *mk = &b->prism_makers.p[m->maker];
    uint32_t n = m->variant < 2 ? 3u : 4u; /* bake/convex/known_prism.c's variants */
    mk->make(mk->ctx, m->key, n, v->corners);
    v->k.c = made_info(m);
    blvl__bake_model_prism_shape(v->corners, 2 * n, &b->prisms[m->variant], &v->k.shape);
    return &v->k;
}

#define COLLIDER_PRELUDE(b, c, err)                                                                \
    do {                                                                                           \
        if (!(b) || !(c))                                                                          \
            return blvl__fail((err), BLVL_E_ARGUMENT,                                              \
                              "bake: a collider needs a bake and a "                               \
                              "blvl_bake_collider");                                               \
        blvl_status st_ = check_collider((b), (c), (err));                                         \
        if (st_ != BLVL_OK)                                                                        \
            return st_;                                                                            \
    } while (0)

blvl_status blvl_bake_add_brush(blvl_bake *b, const blvl_bake_collider *c, const blvl_Plane *planes,
                                uint32_t plane_count, uint32_t *index, blvl_error *err) {
    COLLIDER_PRELUDE(b, c, err);
    if (plane_count && !planes)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_brush: planes is NULL");
    bake_shape s = {0};
    bool empty = false;
    blvl_status st = blvl__bake_convex_shape_brush(b->al, planes, plane_count, &s, &empty, err);
    return st != BLVL_OK ? st : store(b, c, &s, empty, index, err);
}

blvl_status blvl_bake_add_hull(blvl_bake *b, const blvl_bake_collider *c, const blvl_Vec3 *points,
                               uint32_t point_count, uint32_t *index, blvl_error *err) {
    COLLIDER_PRELUDE(b, c, err);
    if (point_count && !points)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_hull: points is NULL");
    bake_shape s = {0};
    bool empty = false;
    blvl_status st = blvl__bake_convex_shape_hull(b->al, points, point_count, &s, &empty, err);
    return st != BLVL_OK ? st : store(b, c, &s, empty, index, err);
}

blvl_status blvl__bake_model_add_known_hull(blvl_bake *b, const blvl_bake_collider *c,
                                            const blvl_Vec3 *points, uint32_t point_count,
                                            const uint8_t *face_sizes, uint32_t face_count,
                                            const uint8_t *face_indices, uint32_t *index,
                                            blvl_error *err) {
    COLLIDER_PRELUDE(b, c, err);
    if (point_count && !points)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_hull: points is NULL");
    bake_shape s = {0};
    if (blvl__bake_convex_known_ok(points, point_count, face_sizes, face_count, face_indices)) {
        /* in the bake's arena: one bump of a pointer, not an allocation per collider */
        void *block = blvl__bake_model_arena(
            b, blvl__bake_convex_known_size(point_count, face_sizes, face_count));
        if (!block)
            return blvl__nomem(err, "hull: a collider");
        blvl__bake_convex_known_fill(block, points, point_count, face_sizes, face_count,
                                     face_indices, &s);
        s.arena = true;
        return store(b, c, &s, false, index, err);
    }
    bool empty = false;
    blvl_status st = blvl__bake_convex_shape_hull(b->al, points, point_count, &s, &empty, err);
    return st != BLVL_OK ? st : store(b, c, &s, empty, index, err);
}

blvl_status blvl__bake_model_store_prism(blvl_bake *b, const blvl_bake_collider *c, blvl_Vec3 *v,
                                         uint32_t vertex_count, const bake_prism_template *t,
                                         uint32_t *index, blvl_error *err) {
    COLLIDER_PRELUDE(b, c, err);
    bake_shape s;
    blvl__bake_model_prism_shape(v, vertex_count, t, &s);
    return store(b, c, &s, false, index, err);
}

void blvl__bake_model_prism_shape(blvl_Vec3 *v, uint32_t vertex_count, const bake_prism_template *t,
                                  bake_shape *s) {
    memset(s, 0, sizeof *s);
    s->kind = blvl_Shape_Hull;
    s->vertices = v;
    s->vertex_count = vertex_count;
    s->face_sizes = t->face_sizes;
    s->face_count = t->face_count;
    s->face_indices = t->face_indices;
    s->face_index_count = t->face_index_count;
    blvl_Vec3 lo = v[0], hi = v[0];
    for (uint32_t i = 1; i < vertex_count; i++) {
        lo.x = v[i].x < lo.x ? v[i].x : lo.x, hi.x = v[i].x > hi.x ? v[i].x : hi.x;
        lo.y = v[i].y < lo.y ? v[i].y : lo.y, hi.y = v[i].y > hi.y ? v[i].y : hi.y;
        lo.z = v[i].z < lo.z ? v[i].z : lo.z, hi.z = v[i].z > hi.z ? v[i].z : hi.z;
    }
    s->lo = lo, s->hi = hi;
    s->arena = true; /* the corners: the arena's or the caller's; the faces the template's */
}

blvl_status blvl_bake_add_triangle(blvl_bake *b, const blvl_bake_collider *c,
                                   const blvl_Vec3 tri[3], float thickness, uint32_t *index,
                                   blvl_error *err) {
    COLLIDER_PRELUDE(b, c, err);
    if (!tri)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_triangle: tri is NULL");
    bake_shape s = {0};
    bool empty = false;
    blvl_status st = blvl__bake_convex_shape_triangle(b->al, tri, thickness, &s, &empty, err);
    return st != BLVL_OK ? st : store(b, c, &s, empty, index, err);
}

blvl_status blvl_bake_add_box(blvl_bake *b, const blvl_bake_collider *c, blvl_Vec3 lo, blvl_Vec3 hi,
                              uint32_t *index, blvl_error *err) {
    COLLIDER_PRELUDE(b, c, err);
    bake_shape s = {0};
    bool empty = false;
    /* six planes in the bake's arena: one bump of a pointer, not an allocation per box */
    blvl_Plane *planes = blvl__bake_model_arena(b, 6 * sizeof *planes);
    if (!planes)
        return blvl__nomem(err, "box: its planes");
    blvl_status st = blvl__bake_convex_shape_box_at(lo, hi, planes, &s, &empty, err);
    s.arena = !empty;
    return st != BLVL_OK ? st : store(b, c, &s, empty, index, err);
}

void blvl_bake_door_init(blvl_bake_door *d) {
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->lo = (blvl_Vec3){1, 1, 1};
    d->hi = (blvl_Vec3){-1, -1, -1};
    d->speed = 100.0f;
    d->wait = 2.0f;
    d->gametypes = BLVL_BAKE_ALL_GAMETYPES;
}

blvl_status blvl_bake_add_door(blvl_bake *b, const blvl_bake_door *d, uint32_t *index,
                               blvl_error *err) {
    if (!b || !d)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_door needs a bake and a door");
    if (!blvl__bake_model_finite3(d->lo) || !blvl__bake_model_finite3(d->hi) ||
        !blvl__bake_model_finite3(d->direction) || !blvl__bake_model_finite3(d->hinge_origin) ||
        !blvl__bake_model_finite3(d->hinge_axis) || !isfinite(d->distance) || !isfinite(d->angle) ||
        !isfinite(d->speed) || !isfinite(d->wait))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: door values are not finite");
    blvl_status st = BAKE_RESERVE(b, b->doors, 1, err);
    if (st != BLVL_OK)
        return st;
    bool ok = true;
    blvl_bake_door c = *d;
    c.name = blvl__bake_model_str(b, d->name, &ok);
    c.team = blvl__bake_model_str(b, d->team, &ok);
    if (!ok) {
        blvl__bake_model_str_free(b, (char *)c.name);
        blvl__bake_model_str_free(b, (char *)c.team);
        return blvl__nomem(err, "bake: copying a door");
    }
    if (index)
        *index = b->doors.n;
    b->doors.p[b->doors.n++] = c;
    blvl__ok(err);
    return BLVL_OK;
}

static blvl_status check_planes(const blvl_Plane *planes, uint32_t n, blvl_error *err) {
    if (n && !planes)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: planes is NULL");
    for (uint32_t i = 0; i < n; i++)
        if (!blvl__bake_model_finite3(planes[i].normal) || !isfinite(planes[i].dist))
            return blvl__fail(err, BLVL_E_ARGUMENT, "bake: plane %u is not finite", i);
    return BLVL_OK;
}

blvl_status blvl_bake_add_trigger(blvl_bake *b, const blvl_bake_trigger *t, blvl_error *err) {
    if (!b || !t)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_trigger needs a bake and a trigger");
    blvl_status st;
    if ((st = check_planes(t->planes, t->plane_count, err)) ||
        (st = blvl__bake_model_check_index(t->teleport_dest, b->teleports.n,
                                           "trigger teleport_dest", err)))
        return st;
    if (!blvl__bake_model_finite3(t->lo) || !blvl__bake_model_finite3(t->hi) ||
        !blvl__bake_model_finite3(t->velocity))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: trigger values are not finite");
    if ((st = BAKE_RESERVE(b, b->triggers, 1, err)) != BLVL_OK)
        return st;
    bool ok = true;
    blvl_bake_trigger c = *t;
    c.planes = blvl__bake_model_dup(b, t->planes, (size_t)t->plane_count * sizeof *t->planes, &ok);
    if (!ok)
        return blvl__nomem(err, "bake: copying a trigger");
    b->triggers.p[b->triggers.n++] = c;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_add_teleport_dest(blvl_bake *b, const char *name, blvl_Vec3 position,
                                        float yaw, uint32_t *index, blvl_error *err) {
    if (!b)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_teleport_dest needs a bake");
    if (!blvl__bake_model_finite3(position) || !isfinite(yaw))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: teleport destination is not finite");
    blvl_status st = BAKE_RESERVE(b, b->teleports, 1, err);
    if (st != BLVL_OK)
        return st;
    bool ok = true;
    bake_teleport t = {.position = position, .yaw = yaw};
    t.name = blvl__bake_model_str(b, name, &ok);
    if (!ok)
        return blvl__nomem(err, "bake: copying a teleport dest");
    if (index)
        *index = b->teleports.n;
    b->teleports.p[b->teleports.n++] = t;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_add_spawn(blvl_bake *b, blvl_Vec3 position, float yaw, const char *kind,
                                const char *team, uint32_t gametypes, blvl_error *err) {
    if (!b)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_spawn needs a bake");
    if (!blvl__bake_model_finite3(position) || !isfinite(yaw))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: spawn is not finite");
    blvl_status st = BAKE_RESERVE(b, b->spawns, 1, err);
    if (st != BLVL_OK)
        return st;
    bool ok = true;
    bake_spawn s = {.position = position, .yaw = yaw, .gametypes = gametypes};
    s.kind = blvl__bake_model_str(b, kind, &ok);
    s.team = blvl__bake_model_str(b, team, &ok);
    if (!ok) {
        blvl__bake_model_str_free(b, s.kind);
        blvl__bake_model_str_free(b, s.team);
        return blvl__nomem(err, "bake: copying a spawn");
    }
    b->spawns.p[b->spawns.n++] = s;
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_bake_add_hurt(blvl_bake *b, const blvl_bake_hurt *h, blvl_error *err) {
    if (!b || !h)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_hurt needs a bake and a volume");
    blvl_status st = check_planes(h->planes, h->plane_count, err);
    if (st != BLVL_OK)
        return st;
    if (!blvl__bake_model_finite3(h->lo) || !blvl__bake_model_finite3(h->hi) ||
        !isfinite(h->amount) || !isfinite(h->interval))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: hurt volume values are not finite");
    if ((st = BAKE_RESERVE(b, b->hurts, 1, err)) != BLVL_OK)
        return st;
    bool ok = true;
    blvl_bake_hurt c = *h;
    c.name = blvl__bake_model_str(b, h->name, &ok);
    c.planes = blvl__bake_model_dup(b, h->planes, (size_t)h->plane_count * sizeof *h->planes, &ok);
    if (!ok) {
        blvl__bake_model_str_free(b, (char *)c.name);
        blvl__bake_model_dealloc(b, (void *)c.planes, (size_t)h->plane_count * sizeof *h->planes);
        return blvl__nomem(err, "bake: copying a hurt volume");
    }
    b->hurts.p[b->hurts.n++] = c;
    blvl__ok(err);
    return BLVL_OK;
}
