/* sim from the sources (docs/IMPORT-HMAP.md, "Contents" and "Classnames"): one collider per
 * brush by its contents, brushes of trigger entities as trigger and hurt volumes, func_door as
 * a sliding door whose colliders name it, meshes as hulls or thick triangles. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bake/convex/convex.h"
#include "bake_internal.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/lighting.h"
#include "blvl/sections/sim.h"
#include "common/alloc.h"
#include "common/error.h"

#define HB_GRAVITY 800.0     /* qu/s^2, Quake's sv_gravity: trigger_push's apex rule */
#define HB_PUSH_SPEED 1000.0 /* qu/s, trigger_push without target or speed */
#define HB_DOOR_LIP 8.0      /* qu */
#define HB_DOOR_SPEED 100.0  /* qu/s */
#define HB_DOOR_WAIT 3.0     /* s */
#define HB_HURT_DMG 5.0f
#define HB_HURT_INTERVAL 1.0f

bool blvl__import_hmap_bake_is_volume(hb_class owner) {
    return owner == HB_PUSH || owner == HB_TELEPORT || owner == HB_HURT;
}

bool blvl__import_hmap_bake_is_drawn(uint32_t contents, hb_class owner) {
    if (blvl__import_hmap_bake_is_volume(owner) || owner == HB_TRIGGER_OTHER ||
        (contents & BLVL_HMAP_TRIGGER))
        return false;
    /* clip alone is invisible; clip on a solid or sky brush is drawn as the solid */
    if ((contents & BLVL_HMAP_CLIP) && !(contents & (BLVL_HMAP_SOLID | BLVL_HMAP_SKY)))
        return false;
    return true;
}

static hb_class owner_class(const hmap_bake *c, uint32_t entity) {
    return entity == BLVL_BAKE_NONE ? HB_WORLD : c->cls[entity];
}

static const char *targetname(const hmap_bake *c, uint32_t entity) {
    return entity == BLVL_BAKE_NONE
               ? NULL
               : blvl__import_hmap_bake_key(&c->map->entities[entity], "targetname", NULL);
}

/* The entity whose targetname is `name` (the first in ENTS order); BLVL_BAKE_NONE. */
static uint32_t find_target(const hmap_bake *c, const char *name) {
    for (uint32_t i = 0; i < c->map->entity_count; i++) {
        const char *t = blvl__import_hmap_bake_key(&c->map->entities[i], "targetname", NULL);
        if (t && strcmp(t, name) == 0)
            return i;
    }
    return BLVL_BAKE_NONE;
}

static void grow(blvl_Vec3 *lo, blvl_Vec3 *hi, blvl_Vec3 p) {
    lo->x = fminf(lo->x, p.x), lo->y = fminf(lo->y, p.y), lo->z = fminf(lo->z, p.z);
    hi->x = fmaxf(hi->x, p.x), hi->y = fmaxf(hi->y, p.y), hi->z = fmaxf(hi->z, p.z);
}

/* The bounds of a brush of planes in qu; false when it encloses nothing. */
static blvl_status brush_bounds(hmap_bake *c, const blvl_Plane *planes, uint32_t n, blvl_Vec3 *lo,
                                blvl_Vec3 *hi, bool *some) {
    blvl_bake_polygons poly;
    blvl_status st = blvl_bake_brush_polygons(&poly, planes, n, c->opt, c->err);
    if (st != BLVL_OK)
        return st;
    *some = poly.point_count > 0;
    for (uint32_t k = 0; k < poly.point_count; k++)
        grow(lo, hi, poly.points[k]);
    blvl_bake_polygons_free(&poly);
    return BLVL_OK;
}

blvl_status blvl__import_hmap_bake_brush_planes(hmap_bake *c, uint32_t i, blvl_Plane *out) {
    const blvl_hmap_brush *br = &c->map->brushes[i];
    for (uint32_t j = 0; j < br->face_count; j++)
        if (!blvl__import_hmap_bake_plane(c, br->faces[j].plane, &out[j])) {
            char field[64];
            snprintf(field, sizeof field, "brush[%u].face[%u].plane", i, j);
            return blvl__fail_source(c->err, "BRSH", field,
                                     blvl__import_hmap_bake_off_face(c->map, i, j), "plane",
                                     "the normal is zero or a number is not finite");
        }
    return BLVL_OK;
}

blvl_status blvl__import_hmap_bake_mesh_points(hmap_bake *c, uint32_t i, blvl_Vec3 *out) {
    const blvl_hmap_mesh *me = &c->map->meshes[i];
    for (uint32_t v = 0; v < me->vertex_count; v++) {
        out[v] = blvl__import_hmap_bake_point(c, me->vertices[v]);
        if (!blvl__import_hmap_bake_finite3(me->vertices[v]) ||
            !blvl__import_hmap_bake_finite3(out[v]) || fabsf(out[v].x) > 1e30f ||
            fabsf(out[v].y) > 1e30f || fabsf(out[v].z) > 1e30f) {
            char field[64];
            snprintf(field, sizeof field, "mesh[%u].vertex[%u]", i, v);
            return blvl__fail_source(c->err, "MESH", field,
                                     blvl__import_hmap_bake_off_mesh_vertex(c->map, i, v), "vertex",
                                     "a coordinate is not finite (or too large in qu)");
        }
    }
    return BLVL_OK;
}

/* A door from a func_door entity and the bounds of its brushes (qu). */
blvl_status blvl__import_hmap_bake_add_door(hmap_bake *c, uint32_t e) {
    blvl_bake_door d;
    blvl_bake_door_init(&d);
    const blvl_hmap_entity *ent = &c->map->entities[e];
    float angle, lip, speed, wait;
    bool has_angle, has_lip, has_speed;
    blvl_status st;
    if ((st = blvl__import_hmap_bake_key_float(c, e, "angle", 0, &angle, &has_angle)) != BLVL_OK ||
        (st = blvl__import_hmap_bake_key_float(c, e, "lip", 0, &lip, &has_lip)) != BLVL_OK ||
        (st = blvl__import_hmap_bake_key_float(c, e, "speed", 0, &speed, &has_speed)) != BLVL_OK ||
        (st = blvl__import_hmap_bake_key_float(c, e, "wait", (float)HB_DOOR_WAIT, &wait, NULL)) !=
            BLVL_OK)
        return st;
    blvl_Vec3 dir;
    if (has_angle && angle == -1.0f)
        dir = (blvl_Vec3){0, 1, 0};
    else if (has_angle && angle == -2.0f)
        dir = (blvl_Vec3){0, -1, 0};
    else if (has_angle)
        dir = blvl__import_hmap_bake_forward((blvl_Vec3){0, angle, 0});
    else
        dir = blvl__import_hmap_bake_forward(ent->angles);
    blvl_Vec3 lo = c->ent_lo[e], hi = c->ent_hi[e];
    /* Quake: travel = |movedir . size| - lip */
    double size = fabs(dir.x * (double)(hi.x - lo.x) + dir.y * (double)(hi.y - lo.y) +
                       dir.z * (double)(hi.z - lo.z));
    double lip_qu = has_lip ? lip * c->s : HB_DOOR_LIP;
    d.name = targetname(c, e);
    d.kind = blvl_DoorKind_Slide;
    d.trigger = blvl_DoorTrigger_Timer;
    d.lo = lo;
    d.hi = hi;
    d.direction = dir;
    d.distance = (float)fmax(0.0, size - lip_qu);
    d.speed = (float)(has_speed ? speed * c->s : HB_DOOR_SPEED);
    d.wait = wait;
    d.team = blvl__import_hmap_bake_key(ent, "team", NULL);
    if (!isfinite(d.distance) || !isfinite(d.speed))
        return blvl__fail_source(c->err, "ENTS", "func_door lip or speed",
                                 blvl__import_hmap_bake_off_entity(c->map, e), "entity-key",
                                 "too large once converted to qu");
    st = blvl_bake_add_door(c->b, &d, &c->door[e], c->err);
    return st;
}

static blvl_status add_dest(hmap_bake *c, uint32_t e) {
    const blvl_hmap_entity *ent = &c->map->entities[e];
    if (c->dest[e] != BLVL_BAKE_NONE)
        return BLVL_OK;
    blvl_status st = blvl_bake_add_teleport_dest(c->b, targetname(c, e),
                                                 blvl__import_hmap_bake_point(c, ent->origin),
                                                 ent->angles.y, &c->dest[e], c->err);
    return st;
}

/* Teleport destinations (every destination entity, in ENTS order) and doors (every func_door
 * that owns a brush), once the entities' bounds are known. */
blvl_status blvl__import_hmap_bake_sim_entities(hmap_bake *c) {
    blvl_status st;
    for (uint32_t e = 0; e < c->map->entity_count; e++) {
        if (c->cls[e] == HB_DEST && (st = add_dest(c, e)) != BLVL_OK)
            return st;
        if (c->cls[e] == HB_DOOR && c->ent_lo[e].x <= c->ent_hi[e].x &&
            (st = blvl__import_hmap_bake_add_door(c, e)) != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

blvl_status blvl__import_hmap_bake_sim_prepare(hmap_bake *c) {
    const blvl_hmap *m = c->map;
    blvl_status st = BLVL_OK;
    uint32_t most = 0;
    for (uint32_t i = 0; i < m->brush_count; i++)
        most = m->brushes[i].face_count > most ? m->brushes[i].face_count : most;
    blvl_Plane *planes = blvl__calloc_n(c->al, most ? most : 1, sizeof *planes);
    if (!planes)
        return blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t i = 0; i < m->brush_count && st == BLVL_OK; i++) {
        const blvl_hmap_brush *br = &m->brushes[i];
        uint32_t e;
        if (!blvl__import_hmap_bake_owner(c, br->owner, &e)) {
            char field[48], problem[96];
            snprintf(field, sizeof field, "brush[%u].owner", i);
            snprintf(problem, sizeof problem, "no entity has id %u", br->owner);
            st =
                blvl__fail_source(c->err, "BRSH", field, blvl__import_hmap_bake_off_brush(m, i) + 4,
                                  "owner", "%s", problem);
            break;
        }
        if ((st = blvl__import_hmap_bake_brush_planes(c, i, planes)) != BLVL_OK ||
            e == BLVL_BAKE_NONE)
            continue;
        bool some;
        st = brush_bounds(c, planes, br->face_count, &c->ent_lo[e], &c->ent_hi[e], &some);
    }
    blvl__dealloc(c->al, planes, (most ? most : 1) * sizeof *planes);
    for (uint32_t i = 0; i < m->mesh_count && st == BLVL_OK; i++) {
        const blvl_hmap_mesh *me = &m->meshes[i];
        uint32_t e;
        if (!blvl__import_hmap_bake_owner(c, me->owner, &e)) {
            char field[48], problem[96];
            snprintf(field, sizeof field, "mesh[%u].owner", i);
            snprintf(problem, sizeof problem, "no entity has id %u", me->owner);
            st = blvl__fail_source(c->err, "MESH", field, blvl__import_hmap_bake_off_mesh(m, i) + 4,
                                   "owner", "%s", problem);
            break;
        }
        for (uint32_t v = 0; v < me->vertex_count && e != BLVL_BAKE_NONE; v++)
            if (blvl__import_hmap_bake_finite3(me->vertices[v]))
                grow(&c->ent_lo[e], &c->ent_hi[e],
                     blvl__import_hmap_bake_point(c, me->vertices[v]));
    }
    return st;
}

/* The trigger or hurt volume of one brush of a trigger entity. */
static blvl_status add_volume(hmap_bake *c, uint32_t e, const blvl_Plane *planes, uint32_t n) {
    blvl_Vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    bool some;
    blvl_status st = brush_bounds(c, planes, n, &lo, &hi, &some);
    if (st != BLVL_OK || !some)
        return st;
    const blvl_hmap_entity *ent = &c->map->entities[e];
    if (c->cls[e] == HB_HURT) {
        blvl_bake_hurt h = {0};
        float dmg, interval;
        if ((st = blvl__import_hmap_bake_key_float(c, e, "dmg", HB_HURT_DMG, &dmg, NULL)) !=
                BLVL_OK ||
            (st = blvl__import_hmap_bake_key_float(c, e, "interval", HB_HURT_INTERVAL, &interval,
                                                   NULL)) != BLVL_OK)
            return st;
        h.name = targetname(c, e) ? targetname(c, e) : ent->classname.bytes;
        h.kind = dmg >= 1000.0f ? blvl_HurtKind_Kill : blvl_HurtKind_Damage;
        h.lo = lo, h.hi = hi, h.planes = planes, h.plane_count = n;
        h.amount = dmg;
        h.interval = interval > 0 ? interval : HB_HURT_INTERVAL;
        st = blvl_bake_add_hurt(c->b, &h, c->err);
        return st;
    }
    blvl_bake_trigger t = {0};
    t.lo = lo, t.hi = hi, t.planes = planes, t.plane_count = n;
    t.teleport_dest = BLVL_BAKE_NONE;
    t.gametypes = BLVL_BAKE_ALL_GAMETYPES;
    const char *target = blvl__import_hmap_bake_key(ent, "target", NULL);
    uint32_t te = target ? find_target(c, target) : BLVL_BAKE_NONE;
    if (c->cls[e] == HB_TELEPORT) {
        t.kind = blvl_TriggerKind_Teleport;
        if (te != BLVL_BAKE_NONE) {
            if ((st = add_dest(c, te)) != BLVL_OK)
                return st;
            t.teleport_dest = c->dest[te];
        }
    } else {
        t.kind = blvl_TriggerKind_Push;
        /* Quake 3's AimAtTarget: the apex of the jump is the target; from the centre of the
         * entity's brushes, time = sqrt(height / (g / 2)), vertical = time * g, horizontal =
         * distance / time. Without a target above the trigger: `speed` along the angles. */
        blvl_Vec3 o = {(c->ent_lo[e].x + c->ent_hi[e].x) / 2, (c->ent_lo[e].y + c->ent_hi[e].y) / 2,
                       (c->ent_lo[e].z + c->ent_hi[e].z) / 2};
        blvl_Vec3 tp =
            te != BLVL_BAKE_NONE ? blvl__import_hmap_bake_point(c, c->map->entities[te].origin) : o;
        double height = (double)tp.y - o.y;
        if (te != BLVL_BAKE_NONE && height > 0) {
            double time = sqrt(height / (0.5 * HB_GRAVITY));
            t.velocity.x = (float)((tp.x - (double)o.x) / time);
            t.velocity.z = (float)((tp.z - (double)o.z) / time);
            t.velocity.y = (float)(time * HB_GRAVITY);
        } else {
            float speed;
            bool has;
            if ((st = blvl__import_hmap_bake_key_float(c, e, "speed", 0, &speed, &has)) != BLVL_OK)
                return st;
            double v = has ? speed * c->s : HB_PUSH_SPEED;
            blvl_Vec3 f = blvl__import_hmap_bake_forward(ent->angles);
            t.velocity = (blvl_Vec3){(float)(f.x * v), (float)(f.y * v), (float)(f.z * v)};
        }
        if (!blvl__import_hmap_bake_finite3(t.velocity))
            return blvl__fail_source(c->err, "ENTS", "trigger_push speed",
                                     blvl__import_hmap_bake_off_entity(c->map, e), "entity-key",
                                     "the velocity is too large once converted to qu");
    }
    st = blvl_bake_add_trigger(c->b, &t, c->err);
    return st;
}

blvl_status blvl__import_hmap_bake_sim_brush(hmap_bake *c, uint32_t contents, uint32_t e,
                                             uint32_t material, const blvl_Plane *planes,
                                             uint32_t n, uint32_t symbol) {
    hb_class cls = owner_class(c, e);
    if (blvl__import_hmap_bake_is_volume(cls))
        return add_volume(c, e, planes, n);
    if (cls == HB_TRIGGER_OTHER || (contents & BLVL_HMAP_TRIGGER))
        return BLVL_OK;
    blvl_bake_collider col;
    blvl_bake_collider_init(&col);
    if (contents & (BLVL_HMAP_SOLID | BLVL_HMAP_SKY))
        col.flags = (contents & BLVL_HMAP_SKY) ? blvl_ColliderFlag_Sky : 0;
    else if (contents & BLVL_HMAP_CLIP)
        col.flags = blvl_ColliderFlag_Clip | blvl_ColliderFlag_ShotThrough;
    else if (contents & BLVL_HMAP_WATER) {
        col.flags = blvl_ColliderFlag_Water;
        col.material = material;
    } else
        return BLVL_OK; /* no contents that hold anything: drawn only */
    col.door = (cls == HB_DOOR && e != BLVL_BAKE_NONE) ? c->door[e] : BLVL_BAKE_NONE;
    col.source_kind =
        (cls == HB_WORLD) ? blvl_ColliderSourceKind_World : blvl_ColliderSourceKind_Entity;
    col.source_name = targetname(c, e);
    col.source_entity = e;
    col.symbol = symbol;
    uint32_t index;
    blvl_status st = blvl_bake_add_brush(c->b, &col, planes, n, &index, c->err);
    return st;
}

blvl_status blvl__import_hmap_bake_sim_brushes(hmap_bake *c, const uint32_t *brush_source) {
    const blvl_hmap *m = c->map;
    uint32_t most = 1;
    for (uint32_t i = 0; i < m->brush_count; i++)
        most = m->brushes[i].face_count > most ? m->brushes[i].face_count : most;
    blvl_Plane *planes = blvl__calloc_n(c->al, most, sizeof *planes);
    if (!planes)
        return blvl__nomem(c->err, "the bake's scratch memory");
    blvl_status st = BLVL_OK;
    for (uint32_t i = 0; i < m->brush_count && st == BLVL_OK; i++) {
        const blvl_hmap_brush *br = &m->brushes[i];
        uint32_t e;
        blvl__import_hmap_bake_owner(c, br->owner,
                                     &e); /* checked by blvl__import_hmap_bake_sim_prepare */
        if ((st = blvl__import_hmap_bake_brush_planes(c, i, planes)) != BLVL_OK)
            break;
        uint32_t mat = br->face_count ? blvl__import_hmap_bake_material(c, br->faces[0].material)
                                      : BLVL_BAKE_NONE;
        st = blvl__import_hmap_bake_sim_brush(c, br->contents, e, mat, planes, br->face_count,
                                              brush_source[i]);
    }
    blvl__dealloc(c->al, planes, most * sizeof *planes);
    return st;
}

blvl_status blvl__import_hmap_bake_sim_polys(hmap_bake *c, const blvl_bake_collider *col,
                                             const blvl_Vec3 *points, uint32_t point_count,
                                             const uint32_t *sizes, uint32_t poly_count,
                                             const uint32_t *indices, uint32_t index_count) {
    uint32_t index;
    blvl_status st;
    if (blvl__bake_convex_mesh_is_convex(c->al, points, point_count, sizes, poly_count, indices,
                                         index_count)) {
        st = blvl_bake_add_hull(c->b, col, points, point_count, &index, c->err);
        return st;
    }
    uint32_t at = 0;
    for (uint32_t p = 0; p < poly_count; p++) {
        for (uint32_t k = 2; k < sizes[p]; k++) {
            blvl_Vec3 tri[3] = {points[indices[at]], points[indices[at + k - 1]],
                                points[indices[at + k]]};
            st = blvl_bake_add_triangle(c->b, col, tri, HB_TRIANGLE_THICKNESS, &index, c->err);
            if (st != BLVL_OK)
                return st;
        }
        at += sizes[p];
    }
    return BLVL_OK;
}

blvl_status blvl__import_hmap_bake_sim_meshes(hmap_bake *c, const uint32_t *mesh_source) {
    const blvl_hmap *m = c->map;
    blvl_status st = BLVL_OK;
    for (uint32_t i = 0; i < m->mesh_count && st == BLVL_OK; i++) {
        const blvl_hmap_mesh *me = &m->meshes[i];
        uint32_t e;
        blvl__import_hmap_bake_owner(c, me->owner, &e);
        hb_class cls = owner_class(c, e);
        if (blvl__import_hmap_bake_is_volume(cls) || cls == HB_TRIGGER_OTHER)
            continue; /* a trigger entity's mesh is neither solid nor a volume */
        uint64_t idx = 0;
        for (uint32_t p = 0; p < me->poly_count; p++)
            idx += me->polys[p].index_count;
        if (idx > UINT32_MAX)
            return blvl__fail_source(c->err, "MESH", "polys",
                                     blvl__import_hmap_bake_off_mesh_vertex(m, i, 0), "mesh-size",
                                     "more than 2^32 polygon corners in one mesh");
        size_t np = me->vertex_count ? me->vertex_count : 1,
               ns = me->poly_count ? me->poly_count : 1, ni = idx ? (size_t)idx : 1;
        blvl_Vec3 *pts = blvl__calloc_n(c->al, np, sizeof *pts);
        uint32_t *sizes = blvl__calloc_n(c->al, ns, sizeof *sizes);
        uint32_t *ind = blvl__calloc_n(c->al, ni, sizeof *ind);
        if (!pts || !sizes || !ind)
            st = blvl__nomem(c->err, "the bake's scratch memory");
        else if ((st = blvl__import_hmap_bake_mesh_points(c, i, pts)) == BLVL_OK) {
            uint32_t at = 0;
            for (uint32_t p = 0; p < me->poly_count; p++) {
                sizes[p] = me->polys[p].index_count;
                memcpy(ind + at, me->polys[p].indices, sizes[p] * sizeof *ind);
                at += sizes[p];
            }
            blvl_bake_collider col;
            blvl_bake_collider_init(&col);
            col.door = (cls == HB_DOOR && e != BLVL_BAKE_NONE) ? c->door[e] : BLVL_BAKE_NONE;
            col.source_kind =
                cls == HB_WORLD ? blvl_ColliderSourceKind_Mesh : blvl_ColliderSourceKind_Entity;
            col.source_name = cls == HB_WORLD ? me->name.bytes : targetname(c, e);
            col.source_entity = e;
            col.symbol = mesh_source[i];
            st = blvl__import_hmap_bake_sim_polys(c, &col, pts, me->vertex_count, sizes,
                                                  me->poly_count, ind, (uint32_t)idx);
        }
        blvl__dealloc(c->al, pts, np * sizeof *pts);
        blvl__dealloc(c->al, sizes, ns * sizeof *sizes);
        blvl__dealloc(c->al, ind, ni * sizeof *ind);
    }
    return st;
}
