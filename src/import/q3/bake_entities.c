/* Step 4, entity semantics (docs/IMPORT-Q3.md, "Entities"): where brush models go, doors,
 * triggers and teleport destinations, hurt volumes, spawns, flag sites, match-type masks and
 * kill_y. Every entity is already in `entities` verbatim (bake.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake_entities.h"
#include "blvl/sections/sim.h"
#include "blvl/sections/sites.h"
#include "common/alloc.h"
#include "common/error.h"

#define Q3_GRAVITY 800.0f    /* g_gravity's default, qu/s^2 (the jump pad's arc) */
#define Q3_ITEM_RADIUS 15.0f /* an item's box half-size: the flag site */
#define Q3_KILL_BELOW 64.0f  /* kill_y this far below the world's lowest point */
#define Q3_DOOR_SPEED 400.0f /* func_door defaults */
#define Q3_DOOR_WAIT 2.0f
#define Q3_DOOR_LIP 8.0f
#define Q3_HURT_DMG 5.0f /* trigger_hurt's default dmg */
#define Q3_FRAME 0.1f    /* a server frame (sv_fps 10): trigger_hurt hits once a frame */
#define Q3_HURT_SLOW 16  /* spawnflags: once a second instead */
#define Q3_HURT_NO_PROTECTION 8
#define Q3_DOOR_START_OPEN 1
#define Q3_TELEPORT_SPECTATOR 1

bool blvl__import_q3_ent_vec(q3_ctx *c, const blvl_q3_entity *e, const char *key, float v[3]) {
    v[0] = v[1] = v[2] = 0;
    const char *s = blvl_q3_entity_get(e, key);
    if (!s)
        return false;
    for (int k = 0; k < 3; k++) {
        char *end;
        double d = strtod(s, &end);
        if (end == s)
            break; /* sscanf stops at the first field that is not a number */
        if (!isfinite((float)d)) {
            c->report->values_replaced++;
            d = 0;
        }
        v[k] = (float)d;
        s = end;
    }
    return true;
}

/* One number (atof), `def` when absent; a non-finite one reads as `def` (counted). */
static float key_float(q3_ctx *c, const blvl_q3_entity *e, const char *key, float def) {
    const char *s = blvl_q3_entity_get(e, key);
    if (!s)
        return def;
    double d = strtod(s, NULL);
    if (!isfinite((float)d)) {
        c->report->values_replaced++;
        return def;
    }
    return (float)d;
}

/* G_SpawnInt: atoi's reading (strtol saturates where atoi would overflow), 0 when absent. */
static long key_int(const blvl_q3_entity *e, const char *key) {
    const char *s = blvl_q3_entity_get(e, key);
    return s ? strtol(s, NULL, 10) : 0;
}

static const char *classname(const blvl_q3_entity *e) {
    const char *s = blvl_q3_entity_get(e, "classname");
    return s ? s : "";
}

/* The yaw the map gives (G_SpawnFloat "angle", or the second of "angles"), degrees. */
static float map_yaw(q3_ctx *c, const blvl_q3_entity *e) {
    float yaw = 0;
    for (uint32_t i = 0; i < e->pair_count; i++) {
        /* The game reads the pairs in order: a later one overrides an earlier one. */
        if (!strcmp(e->pairs[i].key, "angle")) {
            double d = strtod(e->pairs[i].value, NULL);
            yaw = isfinite((float)d) ? (float)d : (c->report->values_replaced++, 0.0f);
        } else if (!strcmp(e->pairs[i].key, "angles")) {
            blvl_q3_entity one = {.pair_count = 1, .pairs = &e->pairs[i]};
            float v[3];
            blvl__import_q3_ent_vec(c, &one, "angles", v);
            yaw = v[1];
        }
    }
    return yaw;
}

/* Quake 3 faces +X at yaw 0; blvl's camera faces -Z at 0 and turns toward -X. */
static float blvl_yaw(float q3_yaw) {
    return q3_yaw - 90.0f;
}

/* The BSP model an entity's "model" key names ("*N", N >= 1), or 0 when none. */
static uint32_t model_of(const q3_ctx *c, const blvl_q3_entity *e) {
    const char *s = blvl_q3_entity_get(e, "model");
    if (!s || s[0] != '*' || s[1] < '0' || s[1] > '9')
        return 0;
    char *end;
    unsigned long n = strtoul(s + 1, &end, 10);
    if (*end || n == 0 || n >= c->bsp->model_count)
        return 0;
    return (uint32_t)n;
}

/* The first entity whose targetname is `name` (G_PickTarget picks among them at random; a
 * bake must be deterministic), or -1. */
static int64_t find_target(const q3_ctx *c, const char *name) {
    if (!name || !*name)
        return -1;
    for (uint32_t i = 0; i < c->ents.count; i++) {
        const char *t = blvl_q3_entity_get(&c->ents.items[i], "targetname");
        if (t && !strcmp(t, name))
            return i;
    }
    return -1;
}

static bool is_trigger_class(const char *cls) {
    return !strncmp(cls, "trigger_", 8);
}

/* Pass 1: every brush model an entity names goes to the entity's origin, with its mask. */
static void place_models(q3_ctx *c) {
    for (uint32_t i = 0; i < c->ents.count; i++) {
        const blvl_q3_entity *e = &c->ents.items[i];
        uint32_t m = model_of(c, e);
        if (!m || c->model[m].entity != BLVL_BAKE_NONE)
            continue; /* the first entity naming a model owns it */
        float o[3];
        blvl__import_q3_ent_vec(c, e, "origin", o);
        q3_model_place *p = &c->model[m];
        p->offset = q3_axes(o);
        p->entity = c->entity_index[i];
        p->gametypes = blvl__import_q3_ent_gametypes(e);
        /* Trigger brushes become triggers and hurt volumes: neither drawn nor solid. */
        p->skip = is_trigger_class(classname(e));
    }
}

/* The planes of every brush of model m, one call of `fn` per brush that bounds a volume. */
typedef blvl_status (*brush_fn)(q3_ctx *c, const blvl_Plane *planes, uint32_t n, blvl_Vec3 lo,
                                blvl_Vec3 hi, void *arg);

static blvl_status each_brush(q3_ctx *c, uint32_t m, brush_fn fn, void *arg) {
    const blvl_q3_model *mod = &c->bsp->models[m];
    uint32_t room = blvl__import_q3_coll_max_sides(c);
    blvl_Plane *planes = blvl__calloc_n(&c->opt->allocator, room ? room : 1, sizeof *planes);
    if (!planes)
        return blvl__nomem(c->err, "the bake's scratch memory");
    blvl_status st = BLVL_OK;
    for (int32_t k = 0; st == BLVL_OK && k < mod->num_brushes; k++) {
        uint32_t n = blvl__import_q3_coll_brush_planes(c, (uint32_t)(mod->first_brush + k),
                                                       c->model[m].offset, planes);
        blvl_Vec3 lo, hi;
        if (n && blvl__import_q3_coll_planes_bounds(c, planes, n, &lo, &hi, &st))
            st = fn(c, planes, n, lo, hi, arg);
    }
    blvl__dealloc(&c->opt->allocator, planes, (size_t)(room ? room : 1) * sizeof *planes);
    return st;
}

/* ---- teleport destinations ----------------------------------------------------------- */

typedef struct dests {
    uint32_t *index; /* per entity: teleport dest index, NONE */
} dests;

static blvl_status add_dest(q3_ctx *c, dests *d, uint32_t i) {
    if (d->index[i] != BLVL_BAKE_NONE)
        return BLVL_OK;
    const blvl_q3_entity *e = &c->ents.items[i];
    float o[3];
    blvl__import_q3_ent_vec(c, e, "origin", o);
    return blvl_bake_add_teleport_dest(c->b, blvl_q3_entity_get(e, "targetname"), q3_axes(o),
                                       blvl_yaw(map_yaw(c, e)), &d->index[i], c->err);
}

/* ---- triggers and hurt volumes --------------------------------------------------------- */

typedef struct trig_arg {
    blvl_bake_trigger t;
    blvl_bake_hurt h;
    bool hurt;
} trig_arg;

static blvl_status add_trigger_brush(q3_ctx *c, const blvl_Plane *planes, uint32_t n, blvl_Vec3 lo,
                                     blvl_Vec3 hi, void *arg) {
    trig_arg *a = arg;
    if (a->hurt) {
        blvl_bake_hurt h = a->h;
        h.lo = lo, h.hi = hi, h.planes = planes, h.plane_count = n;
        return blvl_bake_add_hurt(c->b, &h, c->err);
    }
    blvl_bake_trigger t = a->t;
    t.lo = lo, t.hi = hi, t.planes = planes, t.plane_count = n;
    return blvl_bake_add_trigger(c->b, &t, c->err);
}

/* trigger_push: AimAtTarget. The velocity reaching the target's height at the top of the arc
 * from the centre of the trigger's bounds; a target missing or not above it frees the entity
 * in the game, so nothing is added. */
static blvl_status push(q3_ctx *c, uint32_t i, uint32_t m) {
    const blvl_q3_entity *e = &c->ents.items[i];
    int64_t t = find_target(c, blvl_q3_entity_get(e, "target"));
    if (t < 0)
        return BLVL_OK;
    float dst[3];
    blvl__import_q3_ent_vec(c, &c->ents.items[t], "origin", dst);
    const blvl_q3_model *mod = &c->bsp->models[m];
    float mid[3];
    for (int k = 0; k < 3; k++)
        mid[k] = 0.5f * (mod->mins[k] + mod->maxs[k]);
    blvl_Vec3 off = c->model[m].offset; /* blvl axes: back to Quake's */
    mid[0] += off.x, mid[1] += -off.z, mid[2] += off.y;
    float height = dst[2] - mid[2];
    if (!(height > 0))
        return BLVL_OK;
    float time = sqrtf(height / (0.5f * Q3_GRAVITY));
    float dx = dst[0] - mid[0], dy = dst[1] - mid[1];
    float dist = sqrtf(dx * dx + dy * dy);
    float v[3] = {0, 0, time * Q3_GRAVITY};
    if (dist > 0) {
        v[0] = dx / dist * (dist / time);
        v[1] = dy / dist * (dist / time);
    }
    if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
        return BLVL_OK; /* a target a hair above: no speed a float holds */
    trig_arg a = {.t = {.kind = blvl_TriggerKind_Push,
                        .velocity = q3_axes(v),
                        .teleport_dest = BLVL_BAKE_NONE,
                        .gametypes = c->model[m].gametypes}};
    return each_brush(c, m, add_trigger_brush, &a);
}

static blvl_status teleport(q3_ctx *c, dests *d, uint32_t i, uint32_t m) {
    const blvl_q3_entity *e = &c->ents.items[i];
    if (key_int(e, "spawnflags") & Q3_TELEPORT_SPECTATOR)
        return BLVL_OK; /* moves spectators only: nothing a player meets */
    int64_t t = find_target(c, blvl_q3_entity_get(e, "target"));
    trig_arg a = {.t = {.kind = blvl_TriggerKind_Teleport,
                        .teleport_dest = BLVL_BAKE_NONE,
                        .gametypes = c->model[m].gametypes}};
    if (t >= 0) {
        blvl_status st = add_dest(c, d, (uint32_t)t);
        if (st)
            return st;
        a.t.teleport_dest = d->index[t];
    }
    return each_brush(c, m, add_trigger_brush, &a);
}

/* trigger_hurt: dmg (5) once a server frame, or once a second with SLOW. Kill when one hit
 * kills any player the game allows: 200 health behind 200 armour that takes two thirds of
 * each hit, the battle suit halving it (dmg >= 800); NO_PROTECTION ignores armour and suit
 * (dmg >= 200). */
static blvl_status hurt(q3_ctx *c, uint32_t i, uint32_t m) {
    const blvl_q3_entity *e = &c->ents.items[i];
    float dmg = (float)key_int(e, "dmg"); /* whole numbers, as the game reads it */
    if (dmg == 0)
        dmg = Q3_HURT_DMG;
    long flags = key_int(e, "spawnflags");
    float kill_at = (flags & Q3_HURT_NO_PROTECTION) ? 200.0f : 800.0f;
    const char *name = blvl_q3_entity_get(e, "targetname");
    trig_arg a = {.hurt = true,
                  .h = {.name = name ? name : classname(e),
                        .kind = dmg >= kill_at ? blvl_HurtKind_Kill : blvl_HurtKind_Damage,
                        .amount = dmg,
                        .interval = (flags & Q3_HURT_SLOW) ? 1.0f : Q3_FRAME}};
    return each_brush(c, m, add_trigger_brush, &a);
}

/* ---- doors ----------------------------------------------------------------------------- */

/* G_SetMovedir: angle -1 up, -2 down, else the yaw's forward (Quake axes). */
static void movedir(q3_ctx *c, const blvl_q3_entity *e, float dir[3]) {
    float yaw = map_yaw(c, e);
    dir[0] = dir[1] = dir[2] = 0;
    if (yaw == -1.0f)
        dir[2] = 1;
    else if (yaw == -2.0f)
        dir[2] = -1;
    else {
        double r = (double)yaw * (3.14159265358979323846 / 180.0);
        dir[0] = (float)cos(r);
        dir[1] = (float)sin(r);
    }
}

static blvl_status door(q3_ctx *c, uint32_t i, uint32_t m) {
    const blvl_q3_entity *e = &c->ents.items[i];
    const blvl_q3_model *mod = &c->bsp->models[m];
    float dir[3];
    movedir(c, e, dir);
    float lip = key_float(c, e, "lip", Q3_DOOR_LIP);
    float dist = -lip;
    for (int k = 0; k < 3; k++)
        dist += fabsf(dir[k]) * (mod->maxs[k] - mod->mins[k]);
    blvl_bake_door d;
    blvl_bake_door_init(&d);
    d.name = blvl_q3_entity_get(e, "targetname");
    d.kind = blvl_DoorKind_Slide;
    /* A named door (opened by a trigger or button) or one with health (shot open) is used;
     * the others open on touch (Think_SpawnNewDoorTrigger). */
    d.trigger =
        (d.name || key_int(e, "health") != 0) ? blvl_DoorTrigger_Use : blvl_DoorTrigger_Timer;
    d.direction = q3_axes(dir);
    d.distance = dist;
    float speed = key_float(c, e, "speed", 0), wait = key_float(c, e, "wait", 0);
    d.speed = speed != 0 ? speed : Q3_DOOR_SPEED;
    d.wait = wait != 0 ? wait : Q3_DOOR_WAIT;
    d.gametypes = c->model[m].gametypes;
    if (key_int(e, "spawnflags") & Q3_DOOR_START_OPEN) {
        /* START_OPEN: the door rests moved and closes toward the compiled pose. */
        blvl_Vec3 *o = &c->model[m].offset;
        blvl_Vec3 moved = {o->x + d.direction.x * dist, o->y + d.direction.y * dist,
                           o->z + d.direction.z * dist};
        if (isfinite(moved.x) && isfinite(moved.y) && isfinite(moved.z)) {
            *o = moved;
            d.direction = (blvl_Vec3){-d.direction.x, -d.direction.y, -d.direction.z};
        }
    }
    return blvl_bake_add_door(c->b, &d, &c->model[m].door, c->err);
}

/* ---- spawns and sites ------------------------------------------------------------------ */

static bool is_spawn(const char *cls, const char **team) {
    *team = NULL;
    if (!strcmp(cls, "info_player_deathmatch") || !strcmp(cls, "info_player_start"))
        return true;
    static const char *const team_classes[][2] = {{"team_CTF_redspawn", "red"},
                                                  {"team_CTF_bluespawn", "blue"},
                                                  {"team_CTF_redplayer", "red"},
                                                  {"team_CTF_blueplayer", "blue"}};
    for (size_t k = 0; k < sizeof team_classes / sizeof team_classes[0]; k++)
        if (!strcmp(cls, team_classes[k][0])) {
            *team = team_classes[k][1];
            return true;
        }
    return false;
}

static bool is_flag(const char *cls) {
    return !strcmp(cls, "team_CTF_redflag") || !strcmp(cls, "team_CTF_blueflag") ||
           !strcmp(cls, "team_CTF_neutralflag");
}

static blvl_status point_entity(q3_ctx *c, uint32_t i) {
    const blvl_q3_entity *e = &c->ents.items[i];
    const char *cls = classname(e), *team;
    float o[3];
    blvl__import_q3_ent_vec(c, e, "origin", o);
    blvl_Vec3 p = q3_axes(o);
    if (is_spawn(cls, &team))
        return blvl_bake_add_spawn(c->b, p, blvl_yaw(map_yaw(c, e)), cls, team,
                                   blvl__import_q3_ent_gametypes(e), c->err);
    if (is_flag(cls) && fabsf(p.x) < 1e30f && fabsf(p.y) < 1e30f && fabsf(p.z) < 1e30f) {
        const float r = Q3_ITEM_RADIUS;
        return blvl_bake_add_site(c->b, cls, blvl_SiteKind_Flag,
                                  (blvl_Vec3){p.x - r, p.y - r, p.z - r},
                                  (blvl_Vec3){p.x + r, p.y + r, p.z + r}, c->err);
    }
    return BLVL_OK;
}

blvl_status blvl__import_q3_ent_entities(q3_ctx *c) {
    const blvl_allocator *al = &c->opt->allocator;
    uint32_t n = c->ents.count;
    place_models(c);
    dests d = {blvl__calloc_n(al, n ? n : 1, sizeof *d.index)};
    if (!d.index)
        return blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t i = 0; i < n; i++)
        d.index[i] = BLVL_BAKE_NONE;
    blvl_status st = BLVL_OK;
    /* Every misc_teleporter_dest is a destination, in entity order; other targets of a
     * teleporter become one when a teleporter first names them. */
    for (uint32_t i = 0; st == BLVL_OK && i < n; i++)
        if (!strcmp(classname(&c->ents.items[i]), "misc_teleporter_dest"))
            st = add_dest(c, &d, i);
    for (uint32_t i = 0; st == BLVL_OK && i < n; i++) {
        const blvl_q3_entity *e = &c->ents.items[i];
        const char *cls = classname(e);
        uint32_t m = model_of(c, e);
        if (m && c->model[m].entity != c->entity_index[i])
            m = 0; /* a second entity naming the same model adds nothing */
        if (m && !strcmp(cls, "trigger_push"))
            st = push(c, i, m);
        else if (m && !strcmp(cls, "trigger_teleport"))
            st = teleport(c, &d, i, m);
        else if (m && !strcmp(cls, "trigger_hurt"))
            st = hurt(c, i, m);
        else if (m && !strcmp(cls, "func_door"))
            st = door(c, i, m);
        else if (!m)
            st = point_entity(c, i);
    }
    blvl__dealloc(al, d.index, (size_t)(n ? n : 1) * sizeof *d.index);
    if (st != BLVL_OK)
        return st;
    /* Quake 3 has no kill height: a player falling out of the map falls forever. */
    float low = c->bsp->models[0].mins[2];
    if (isfinite(low - Q3_KILL_BELOW))
        blvl_bake_set_kill_y(c->b, low - Q3_KILL_BELOW);
    return BLVL_OK;
}
