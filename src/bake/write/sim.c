/* The sim section: colliders (their shapes from bake/convex/shapes.h), collider sources
 * deduplicated, doors (bounds from their colliders when not given), triggers, teleport
 * destinations, spawns, hurt volumes and kill_y. */
#include <string.h>

#include "bake/write/write.h"
#include "blvl/sections/sim_builder.h"
#include "common/alloc.h"
#include "common/error.h"
#include "fb_builder/reserve.h"

static uint64_t source_hash(const blvl_bake_collider *c) {
    uint64_t h = 1469598103934665603ull ^ c->source_kind;
    h = (h ^ c->source_entity) * 1099511628211ull;
    for (const char *s = c->source_name; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (h ^ (c->source_name != NULL)) * 1099511628211ull;
}

static bool same_source(const blvl_bake_collider *o, const blvl_bake_collider *c) {
    return o->source_kind == c->source_kind && o->source_entity == c->source_entity &&
           (o->source_name == NULL) == (c->source_name == NULL) &&
           (!c->source_name || strcmp(o->source_name, c->source_name) == 0);
}

/* collider_sources: (kind, name, entity) triples in first-seen order; out[i] = collider i's.
 * A level has few sources and long runs of colliders from one, so the table starts small and
 * grows with the sources, and a collider from its predecessor's source is not looked up. */
static blvl_status dedupe_sources(const blvl_bake *b, uint32_t *out, uint32_t *first_of,
                                  uint32_t *count, blvl_error *err) {
    uint32_t n = blvl__bake_model_collider_count(b), cap = 64, k = 0;
    uint32_t *slots = NULL;
    blvl_bake_collider prev = {0};
    for (uint32_t i = 0; i < n; i++) {
        const blvl_bake_collider ci = blvl__bake_model_collider_info(b, i), *c = &ci;
        if (i > 0 && same_source(&prev, c)) {
            out[i] = out[i - 1];
            continue;
        }
        prev = ci;
        if (!slots || (2u * (uint64_t)k >= cap && cap < (1u << 31))) { /* half full: grow */
            if (slots) {
                blvl__dealloc(b->al, slots, (size_t)cap * sizeof *slots);
                cap *= 2;
            }
            if (!(slots = blvl__alloc(b->al, (size_t)cap * sizeof *slots)))
                return blvl__nomem(err, "bake: naming collider sources");
            memset(slots, 0xFF, (size_t)cap * sizeof *slots);
            for (uint32_t j = 0; j < k; j++) {
                const blvl_bake_collider oj = blvl__bake_model_collider_info(b, first_of[j]);
                uint64_t h = source_hash(&oj);
                uint32_t at = (uint32_t)(h ^ (h >> 32)) & (cap - 1);
                while (slots[at] != BLVL_BAKE_NONE)
                    at = (at + 1) & (cap - 1);
                slots[at] = j;
            }
        }
        uint64_t h = source_hash(c);
        uint32_t at = (uint32_t)(h ^ (h >> 32)) & (cap - 1);
        for (;; at = (at + 1) & (cap - 1)) {
            if (slots[at] == BLVL_BAKE_NONE) {
                slots[at] = k;
                first_of[k++] = i;
                break;
            }
            const blvl_bake_collider oi = blvl__bake_model_collider_info(b, first_of[slots[at]]);
            if (same_source(&oi, c))
                break;
        }
        out[i] = slots[at];
    }
    blvl__dealloc(b->al, slots, (size_t)cap * sizeof *slots);
    *count = k;
    return BLVL_OK;
}

/* A prism's face loops are its template's (bake/convex/known_prism.c): written once per template,
 * then named by every hull of that shape (a FlatBuffers vector may be named from many tables; the
 * reader sees the same loops), so a million terrain prisms do not write a million copies. */
typedef struct shared_faces {
    bool made;
    blvl_fb_ref sizes, indices;
} shared_faces;

static blvl_fb_ref build_shape(const blvl_bake *b, blvl_fb_builder *fb, const bake_shape *s,
                               shared_faces *shared) {
    if (s->kind == blvl_Shape_Hull) {
        blvl_fb_ref v = blvl_Hull_vertices_create(fb, s->vertices, s->vertex_count);
        int t = -1;
        for (int k = 0; k < BAKE_PRISM_TEMPLATES && t < 0 && s->arena; k++)
            if (b->prisms[k].face_sizes && s->face_sizes == b->prisms[k].face_sizes)
                t = k;
        blvl_fb_ref sz, ix;
        if (t >= 0 && shared[t].made) {
            sz = shared[t].sizes, ix = shared[t].indices;
        } else {
            sz = blvl_Hull_face_sizes_create(fb, s->face_sizes, s->face_count);
            ix = blvl_Hull_face_indices_create(fb, s->face_indices, s->face_index_count);
            if (t >= 0)
                shared[t] = (shared_faces){true, sz, ix};
        }
        blvl_Hull_start(fb);
        blvl_Hull_add_vertices(fb, v);
        blvl_Hull_add_face_sizes(fb, sz);
        blvl_Hull_add_face_indices(fb, ix);
        return blvl_Hull_end(fb);
    }
    blvl_fb_ref p = blvl_Planes_planes_create(fb, s->planes, s->plane_count);
    blvl_Planes_start(fb);
    blvl_Planes_add_planes(fb, p);
    return blvl_Planes_end(fb);
}

static void grow_box(blvl_Vec3 *lo, blvl_Vec3 *hi, blvl_Vec3 a, blvl_Vec3 z, bool *any) {
    if (!*any) {
        *lo = a, *hi = z, *any = true;
        return;
    }
    lo->x = a.x < lo->x ? a.x : lo->x, lo->y = a.y < lo->y ? a.y : lo->y;
    lo->z = a.z < lo->z ? a.z : lo->z;
    hi->x = z.x > hi->x ? z.x : hi->x, hi->y = z.y > hi->y ? z.y : hi->y;
    hi->z = z.z > hi->z ? z.z : hi->z;
}

/* A door's bounds: as given, else the union of its colliders, else of its surfaces' vertices;
 * false when nothing names it (the bounds are then left out). */
static bool door_bounds(const blvl_bake *b, uint32_t d, blvl_Vec3 *lo, blvl_Vec3 *hi) {
    const blvl_bake_door *door = &b->doors.p[d];
    if (door->lo.x <= door->hi.x) {
        *lo = door->lo, *hi = door->hi;
        return true;
    }
    bool any = false;
    bake_collider_view v;
    for (uint32_t i = 0; i < blvl__bake_model_collider_count(b); i++)
        if (blvl__bake_model_collider_info(b, i).door == d) {
            const bake_collider *c = blvl__bake_model_collider_at(b, i, &v);
            grow_box(lo, hi, c->shape.lo, c->shape.hi, &any);
        }
    if (any)
        return true;
    for (uint32_t i = 0; i < b->surfaces.n; i++) {
        const bake_surface *s = &b->surfaces.p[i];
        if (s->door != d)
            continue;
        for (uint32_t k = 0; k < s->index_count; k++) {
            const float *p =
                b->vertices.p[s->first_vertex + b->indices.p[s->first_index + k]].position;
            blvl_Vec3 v = {p[0], p[1], p[2]};
            grow_box(lo, hi, v, v, &any);
        }
    }
    return any;
}

static blvl_fb_ref build_doors(const blvl_bake *b, blvl_fb_builder *fb, blvl_fb_ref *refs) {
    for (uint32_t i = 0; i < b->doors.n; i++) {
        const blvl_bake_door *d = &b->doors.p[i];
        blvl_fb_ref name = blvl__bake_write_fb_str(fb, d->name),
                    team = blvl__bake_write_fb_str(fb, d->team);
        blvl_Vec3 lo, hi;
        bool has = door_bounds(b, i, &lo, &hi);
        blvl_Door_start(fb);
        blvl_Door_add_name(fb, name);
        blvl_Door_add_kind(fb, d->kind);
        blvl_Door_add_trigger(fb, d->trigger);
        if (has) {
            blvl_Door_add_lo(fb, &lo);
            blvl_Door_add_hi(fb, &hi);
        }
        blvl_Door_add_direction(fb, &d->direction);
        blvl_Door_add_distance(fb, d->distance);
        blvl_Door_add_hinge_origin(fb, &d->hinge_origin);
        blvl_Door_add_hinge_axis(fb, &d->hinge_axis);
        blvl_Door_add_angle(fb, d->angle);
        blvl_Door_add_speed(fb, d->speed);
        blvl_Door_add_wait(fb, d->wait);
        blvl_Door_add_team(fb, team);
        blvl_Door_add_gametypes(fb, d->gametypes);
        refs[i] = blvl_Door_end(fb);
    }
    return b->doors.n ? blvl_fb_create_ref_vector(fb, refs, b->doors.n) : 0;
}

static blvl_fb_ref build_triggers(const blvl_bake *b, blvl_fb_builder *fb, blvl_fb_ref *refs) {
    for (uint32_t i = 0; i < b->triggers.n; i++) {
        const blvl_bake_trigger *t = &b->triggers.p[i];
        blvl_fb_ref planes =
            t->plane_count ? blvl_Trigger_planes_create(fb, t->planes, t->plane_count) : 0;
        blvl_Trigger_start(fb);
        blvl_Trigger_add_kind(fb, t->kind);
        blvl_Trigger_add_lo(fb, &t->lo);
        blvl_Trigger_add_hi(fb, &t->hi);
        blvl_Trigger_add_planes(fb, planes);
        blvl_Trigger_add_velocity(fb, &t->velocity);
        blvl_Trigger_add_teleport_dest(fb, t->teleport_dest);
        blvl_Trigger_add_gametypes(fb, t->gametypes);
        refs[i] = blvl_Trigger_end(fb);
    }
    return b->triggers.n ? blvl_fb_create_ref_vector(fb, refs, b->triggers.n) : 0;
}

static blvl_fb_ref build_teleports(const blvl_bake *b, blvl_fb_builder *fb, blvl_fb_ref *refs) {
    for (uint32_t i = 0; i < b->teleports.n; i++) {
        const bake_teleport *t = &b->teleports.p[i];
        blvl_fb_ref name = blvl__bake_write_fb_str(fb, t->name);
        blvl_TeleportDest_start(fb);
        blvl_TeleportDest_add_name(fb, name);
        blvl_TeleportDest_add_position(fb, &t->position);
        blvl_TeleportDest_add_yaw(fb, t->yaw);
        refs[i] = blvl_TeleportDest_end(fb);
    }
    return b->teleports.n ? blvl_fb_create_ref_vector(fb, refs, b->teleports.n) : 0;
}

static blvl_fb_ref build_spawns(const blvl_bake *b, blvl_fb_builder *fb, blvl_fb_ref *refs) {
    for (uint32_t i = 0; i < b->spawns.n; i++) {
        const bake_spawn *s = &b->spawns.p[i];
        blvl_fb_ref kind = blvl__bake_write_fb_str(fb, s->kind),
                    team = blvl__bake_write_fb_str(fb, s->team);
        blvl_Spawn_start(fb);
        blvl_Spawn_add_position(fb, &s->position);
        blvl_Spawn_add_yaw(fb, s->yaw);
        blvl_Spawn_add_kind(fb, kind);
        blvl_Spawn_add_team(fb, team);
        blvl_Spawn_add_gametypes(fb, s->gametypes);
        refs[i] = blvl_Spawn_end(fb);
    }
    return b->spawns.n ? blvl_fb_create_ref_vector(fb, refs, b->spawns.n) : 0;
}

static blvl_fb_ref build_hurts(const blvl_bake *b, blvl_fb_builder *fb, blvl_fb_ref *refs) {
    for (uint32_t i = 0; i < b->hurts.n; i++) {
        const blvl_bake_hurt *h = &b->hurts.p[i];
        blvl_fb_ref name = blvl__bake_write_fb_str(fb, h->name);
        blvl_fb_ref planes =
            h->plane_count ? blvl_HurtVolume_planes_create(fb, h->planes, h->plane_count) : 0;
        blvl_HurtVolume_start(fb);
        blvl_HurtVolume_add_name(fb, name);
        blvl_HurtVolume_add_kind(fb, h->kind);
        blvl_HurtVolume_add_lo(fb, &h->lo);
        blvl_HurtVolume_add_hi(fb, &h->hi);
        blvl_HurtVolume_add_planes(fb, planes);
        blvl_HurtVolume_add_amount(fb, h->amount);
        blvl_HurtVolume_add_interval(fb, h->interval);
        refs[i] = blvl_HurtVolume_end(fb);
    }
    return b->hurts.n ? blvl_fb_create_ref_vector(fb, refs, b->hurts.n) : 0;
}

static uint32_t max_count(const blvl_bake *b) {
    uint32_t m = blvl__bake_model_collider_count(b);
    uint32_t o[] = {b->doors.n, b->triggers.n, b->teleports.n, b->spawns.n, b->hurts.n};
    for (size_t i = 0; i < sizeof o / sizeof o[0]; i++)
        m = o[i] > m ? o[i] : m;
    return m;
}

/* Colliders [from, to) into fb, refs[i] collider i's table. */
static void build_colliders(const blvl_bake *b, blvl_fb_builder *fb, uint32_t from, uint32_t to,
                            const uint32_t *src, shared_faces *shared, blvl_fb_ref *refs) {
    bake_collider_view view;
    for (uint32_t i = from; i < to; i++) {
        const bake_collider *c = blvl__bake_model_collider_at(b, i, &view);
        blvl_fb_ref shape = build_shape(b, fb, &c->shape, shared);
        blvl_Collider_start(fb);
        blvl_Collider_add_lo(fb, &c->shape.lo);
        blvl_Collider_add_hi(fb, &c->shape.hi);
        blvl_Collider_add_flags(fb, c->c.flags);
        blvl_Collider_add_shape(fb, (blvl_Shape)c->shape.kind, shape);
        blvl_Collider_add_material(fb, c->c.material);
        blvl_Collider_add_door(fb, c->c.door);
        blvl_Collider_add_source(fb, src[i]);
        blvl_Collider_add_gametypes(fb, c->c.gametypes);
        refs[i] = blvl_Collider_end(fb);
    }
}

/* The colliders are built first, so they are the buffer's last bytes, and most of it (a Riot
 * level's 800,000 take 117 MiB). They are built a run at a time and dropped (fb_builder/reserve.h);
 * the rest of the section follows and goes to the sink, then each run is built again from its
 * mark, newest first, and goes to the sink: the builder never holds more than a run and the
 * front. */
enum { SIM_RUN = 4096 }; /* colliders a run: about 600 KiB */

typedef struct sim_run {
    blvl__fb_mark mark;
    shared_faces shared[BAKE_PRISM_TEMPLATES]; /* as they were when the run began */
} sim_run;

/* One past run r's last collider. */
static uint32_t run_end(uint32_t r, uint32_t n) {
    return n - r * SIM_RUN > SIM_RUN ? (r + 1) * SIM_RUN : n;
}

static blvl_status put_held(blvl_fb_builder *fb, const bake_sink *sink, blvl_error *err) {
    size_t size;
    const uint8_t *p = blvl__fb_builder_held(fb, &size);
    return size ? sink->put(sink->ctx, p, size, err) : BLVL_OK;
}

blvl_status blvl__bake_write_sim(const blvl_bake *b, blvl_fb_builder *fb, const bake_sink *sink,
                                 blvl_error *err) {
    uint32_t n = blvl__bake_model_collider_count(b), m = max_count(b);
    uint32_t nruns = (uint32_t)(((uint64_t)n + SIM_RUN - 1) / SIM_RUN);
    blvl_fb_ref *refs = blvl__bake_write_refs(b, m, err);
    uint32_t *src = n ? blvl__alloc(b->al, (size_t)n * sizeof *src) : NULL;
    uint32_t *first_of = n ? blvl__alloc(b->al, (size_t)n * sizeof *first_of) : NULL;
    sim_run *runs = blvl__alloc(b->al, ((size_t)nruns + 1) * sizeof *runs);
    blvl_status st = BLVL_OK;
    if ((m && !refs) || (n && (!src || !first_of)) || !runs) {
        st = blvl__nomem(err, "bake: writing sim");
        goto done;
    }
    uint32_t nsrc = 0;
    if (n && (st = dedupe_sources(b, src, first_of, &nsrc, err)) != BLVL_OK)
        goto done;
    blvl_fb_builder_reset(fb);
    shared_faces shared[BAKE_PRISM_TEMPLATES] = {{0}};
    for (uint32_t r = 0; r < nruns; r++) {
        runs[r].mark = blvl__fb_builder_mark_now(fb);
        memcpy(runs[r].shared, shared, sizeof shared);
        build_colliders(b, fb, r * SIM_RUN, run_end(r, n), src, shared, refs);
        blvl__fb_builder_forget(fb);
    }
    runs[nruns].mark = blvl__fb_builder_mark_now(fb);
    blvl_fb_ref colliders = n ? blvl_fb_create_ref_vector(fb, refs, n) : 0;
    for (uint32_t k = 0; k < nsrc; k++) {
        const blvl_bake_collider ci = blvl__bake_model_collider_info(b, first_of[k]), *c = &ci;
        blvl_fb_ref name = blvl__bake_write_fb_str(fb, c->source_name);
        blvl_ColliderSource_start(fb);
        blvl_ColliderSource_add_kind(fb, c->source_kind);
        blvl_ColliderSource_add_name(fb, name);
        blvl_ColliderSource_add_entity(fb, c->source_entity);
        refs[k] = blvl_ColliderSource_end(fb);
    }
    blvl_fb_ref sources = nsrc ? blvl_fb_create_ref_vector(fb, refs, nsrc) : 0;
    blvl_fb_ref doors = build_doors(b, fb, refs);
    blvl_fb_ref triggers = build_triggers(b, fb, refs);
    blvl_fb_ref teleports = build_teleports(b, fb, refs);
    blvl_fb_ref spawns = build_spawns(b, fb, refs);
    blvl_fb_ref hurts = build_hurts(b, fb, refs);
    blvl_Sim_start(fb);
    blvl_Sim_add_colliders(fb, colliders);
    blvl_Sim_add_collider_sources(fb, sources);
    blvl_Sim_add_doors(fb, doors);
    blvl_Sim_add_triggers(fb, triggers);
    blvl_Sim_add_teleport_dests(fb, teleports);
    blvl_Sim_add_spawns(fb, spawns);
    blvl_Sim_add_hurt_volumes(fb, hurts);
    blvl_Sim_add_kill_y(fb, b->kill_y);
    blvl_fb_ref root = blvl_Sim_end(fb);
    const uint8_t *front;
    size_t front_size;
    st = blvl_Sim_finish(fb, root, &front, &front_size, err); /* what the builder holds */
    if (st == BLVL_OK)
        st = sink->put(sink->ctx, front, front_size, err);
    for (uint32_t r = nruns; r-- > 0 && st == BLVL_OK;) {
        if (!blvl__fb_builder_rewind(fb, &runs[r].mark)) {
            st = blvl_fb_builder_status(fb, err);
            break;
        }
        memcpy(shared, runs[r].shared, sizeof shared);
        uint32_t to = run_end(r, n);
        build_colliders(b, fb, r * SIM_RUN, to, src, shared, refs);
        blvl__fb_mark now = blvl__fb_builder_mark_now(fb);
        if ((st = blvl_fb_builder_status(fb, err)) != BLVL_OK)
            break;
        if (now.used != runs[r + 1].mark.used || now.nvt != runs[r + 1].mark.nvt) {
            /* the same colliders must take the same bytes: a maker that changed its mind */
            st = blvl__fail(err, BLVL_E_ARGUMENT,
                            "bake: sim: colliders %u..%u built again to another size", r * SIM_RUN,
                            to - 1);
            break;
        }
        st = put_held(fb, sink, err);
    }
done:
    blvl__bake_write_refs_free(b, refs, m);
    blvl__bake_model_dealloc(b, src, (size_t)n * sizeof *src);
    blvl__bake_model_dealloc(b, first_of, (size_t)n * sizeof *first_of);
    blvl__bake_model_dealloc(b, runs, ((size_t)nruns + 1) * sizeof *runs);
    return st;
}
