/* The Quake 3 entities step on a hand-made map (boxes as brushes, an entity string written
 * here), read back from the baked level: spawns (yaw = angle - 90, team, kind, match types),
 * teleport destinations and teleporters, jump pads (AimAtTarget worked by hand), hurt volumes
 * (kill or damage, frame or slow), doors (direction, distance, use or touch, origin placement,
 * colliders naming them), flag sites, kill_y, the contents rules of brushes (solid, player
 * clip, bot clip dropped, ladder, sky, metal steps, water), and the gametype table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/q3.h"
#include "blvl/sections.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/registry.h"
#include "check.h"

#define MAX_BRUSH 32

typedef struct hand_map {
    blvl_q3_bsp bsp;
    blvl_q3_shader_ref shaders[16];
    blvl_q3_plane planes[6 * MAX_BRUSH];
    blvl_q3_brush brushes[MAX_BRUSH];
    blvl_q3_brush_side sides[6 * MAX_BRUSH];
    blvl_q3_model models[16];
} hand_map;

static int add_shader(hand_map *h, const char *name, uint32_t contents, uint32_t surface) {
    blvl_q3_shader_ref *s = &h->shaders[h->bsp.shader_count];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->contents = contents;
    s->surface_flags = surface;
    return (int)h->bsp.shader_count++;
}

/* A box brush, its six sides in the compiler's order (-x +x -y +y -z +z). */
static void add_box(hand_map *h, const float lo[3], const float hi[3], int shader) {
    blvl_q3_bsp *b = &h->bsp;
    blvl_q3_brush *br = &h->brushes[b->brush_count++];
    br->first_side = (int32_t)b->brush_side_count;
    br->num_sides = 6;
    br->shader = shader;
    for (int k = 0; k < 6; k++) {
        blvl_q3_plane *p = &h->planes[b->plane_count];
        memset(p, 0, sizeof *p);
        int axis = k / 2;
        p->normal[axis] = (k & 1) ? 1.0f : -1.0f;
        p->dist = (k & 1) ? hi[axis] : -lo[axis];
        h->sides[b->brush_side_count].plane = (int32_t)b->plane_count++;
        h->sides[b->brush_side_count++].shader = shader;
    }
}

/* A model of one box brush. */
static void add_model(hand_map *h, const float lo[3], const float hi[3], int shader) {
    blvl_q3_model *m = &h->models[h->bsp.model_count++];
    memset(m, 0, sizeof *m);
    memcpy(m->mins, lo, sizeof m->mins);
    memcpy(m->maxs, hi, sizeof m->maxs);
    m->first_brush = (int32_t)h->bsp.brush_count;
    m->num_brushes = 1;
    add_box(h, lo, hi, shader);
}

static const char entity_text[] =
    "{ \"classname\" \"worldspawn\" \"message\" \"Hand\" }\n"
    /* spawns */
    "{ \"classname\" \"info_player_deathmatch\" \"origin\" \"0 0 24\" \"angle\" \"90\" }\n"
    "{ \"classname\" \"info_player_deathmatch\" \"origin\" \"100 200 24\" \"angles\" \"0 180 0\" "
    "\"notfree\" \"1\" }\n"
    "{ \"classname\" \"team_CTF_redspawn\" \"origin\" \"10 20 30\" \"angle\" \"0\" }\n"
    "{ \"classname\" \"team_CTF_blueplayer\" \"origin\" \"-10 -20 30\" \"angle\" \"270\" "
    "\"gametype\" \"ctf_elimination\" }\n"
    "{ \"classname\" \"info_player_start\" \"origin\" \"0 0 24\" \"notteam\" \"1\" }\n"
    "{ \"classname\" \"info_player_deathmatch\" \"origin\" \"0 0 24\" \"notsingle\" \"1\" }\n"
    "{ \"classname\" \"info_player_deathmatch\" \"origin\" \"0 0 24\" \"gametype\" \"dom lms\" }\n"
    /* teleports: a misc_teleporter_dest, and an info_notnull named by a teleporter */
    "{ \"classname\" \"info_notnull\" \"targetname\" \"tp_notnull\" \"origin\" \"-300 0 40\" }\n"
    "{ \"classname\" \"misc_teleporter_dest\" \"targetname\" \"dest1\" \"origin\" \"300 0 40\" "
    "\"angle\" \"180\" }\n"
    "{ \"classname\" \"trigger_teleport\" \"model\" \"*2\" \"target\" \"dest1\" }\n"
    "{ \"classname\" \"trigger_teleport\" \"model\" \"*4\" \"target\" \"tp_notnull\" }\n"
    "{ \"classname\" \"trigger_teleport\" \"model\" \"*9\" \"target\" \"dest1\" \"spawnflags\" "
    "\"1\" }\n"
    /* jump pads: one aimed up at pad1, one at a target below it (the game frees it) */
    "{ \"classname\" \"target_position\" \"targetname\" \"pad1\" \"origin\" \"0 400 264\" }\n"
    "{ \"classname\" \"trigger_push\" \"model\" \"*3\" \"target\" \"pad1\" }\n"
    "{ \"classname\" \"target_position\" \"targetname\" \"low\" \"origin\" \"0 400 -100\" }\n"
    "{ \"classname\" \"trigger_push\" \"model\" \"*10\" \"target\" \"low\" }\n"
    /* hurt */
    "{ \"classname\" \"trigger_hurt\" \"model\" \"*5\" \"dmg\" \"1000\" }\n"
    "{ \"classname\" \"trigger_hurt\" \"model\" \"*6\" \"dmg\" \"10\" \"spawnflags\" \"16\" "
    "\"targetname\" \"slowpain\" }\n"
    "{ \"classname\" \"trigger_hurt\" \"model\" \"*7\" }\n"
    "{ \"classname\" \"trigger_hurt\" \"model\" \"*11\" \"dmg\" \"250\" \"spawnflags\" \"8\" }\n"
    /* doors */
    "{ \"classname\" \"func_door\" \"model\" \"*1\" \"angle\" \"90\" \"speed\" \"200\" "
    "\"origin\" \"0 0 8\" \"notteam\" \"1\" }\n"
    "{ \"classname\" \"func_door\" \"model\" \"*8\" \"angle\" \"-1\" \"targetname\" \"gate\" "
    "\"wait\" \"-1\" }\n"
    /* a flag */
    "{ \"classname\" \"team_CTF_redflag\" \"origin\" \"0 -400 16\" }\n";

/* The hand map: model 0 the world (a floor and the contents brushes), models 1.. as the
 * entities name them. */
static void build(hand_map *h) {
    memset(h, 0, sizeof *h);
    int solid = add_shader(h, "textures/test/floor", BLVL_Q3_CONTENTS_SOLID, 0);
    int trig = add_shader(h, "textures/common/trigger", BLVL_Q3_CONTENTS_TRIGGER, 0);
    int clip = add_shader(h, "textures/common/clip", BLVL_Q3_CONTENTS_PLAYERCLIP, 0);
    int botclip = add_shader(h, "textures/common/botclip", BLVL_Q3_CONTENTS_BOTCLIP, 0);
    int ladder = add_shader(h, "textures/common/ladder", BLVL_Q3_CONTENTS_PLAYERCLIP,
                            BLVL_Q3_SURF_LADDER | BLVL_Q3_SURF_NODRAW);
    int sky = add_shader(h, "textures/skies/sky", BLVL_Q3_CONTENTS_SOLID,
                         BLVL_Q3_SURF_SKY | BLVL_Q3_SURF_NOIMPACT);
    int metal =
        add_shader(h, "textures/test/grate", BLVL_Q3_CONTENTS_SOLID, BLVL_Q3_SURF_METALSTEPS);
    int water = add_shader(h, "textures/liquids/water", BLVL_Q3_CONTENTS_WATER, 0);
    int lava = add_shader(h, "textures/liquids/lava", BLVL_Q3_CONTENTS_LAVA, 0);
    int nodraw =
        add_shader(h, "textures/common/caulk", BLVL_Q3_CONTENTS_SOLID, BLVL_Q3_SURF_NODRAW);
    /* model 0: eight brushes */
    blvl_q3_model *w = &h->models[h->bsp.model_count++];
    w->first_brush = 0;
    const float box[][2][3] = {
        {{-512, -512, -64}, {512, 512, 0}},   /* floor, solid */
        {{-512, -512, 0}, {-496, 512, 128}},  /* player clip */
        {{496, -512, 0}, {512, 512, 128}},    /* bot clip: dropped */
        {{0, 496, 0}, {32, 512, 128}},        /* ladder */
        {{-512, -512, 256}, {512, 512, 272}}, /* sky */
        {{100, 100, 0}, {132, 132, 8}},       /* metal steps */
        {{-200, -200, -64}, {-100, -100, 0}}, /* water: no collider volume overlap matters */
        {{200, -200, -64}, {300, -100, 0}},   /* lava: a hurt volume too */
        {{-40, -40, 0}, {-24, -24, 16}},      /* nodraw solid */
    };
    const int shader[] = {solid, clip, botclip, ladder, sky, metal, water, lava, nodraw};
    for (size_t i = 0; i < sizeof shader / sizeof shader[0]; i++)
        add_box(h, box[i][0], box[i][1], shader[i]);
    w->num_brushes = (int32_t)h->bsp.brush_count;
    w->mins[0] = -512, w->mins[1] = -512, w->mins[2] = -64;
    w->maxs[0] = 512, w->maxs[1] = 512, w->maxs[2] = 272;
    int door = solid;
    add_model(h, (float[]){0, 0, 0}, (float[]){16, 128, 96}, door);       /* *1 door */
    add_model(h, (float[]){280, -16, 0}, (float[]){320, 16, 8}, trig);    /* *2 teleporter */
    add_model(h, (float[]){-32, -32, 0}, (float[]){32, 32, 16}, trig);    /* *3 jump pad */
    add_model(h, (float[]){-320, -16, 0}, (float[]){-280, 16, 8}, trig);  /* *4 teleporter */
    add_model(h, (float[]){-64, -64, -64}, (float[]){64, 64, -32}, trig); /* *5 hurt kill */
    add_model(h, (float[]){0, 0, 0}, (float[]){8, 8, 8}, trig);           /* *6 hurt slow */
    add_model(h, (float[]){0, 0, 0}, (float[]){8, 8, 8}, trig);           /* *7 hurt default */
    add_model(h, (float[]){64, 0, 0}, (float[]){192, 16, 96}, door);      /* *8 gate */
    add_model(h, (float[]){0, 0, 0}, (float[]){8, 8, 8}, trig);           /* *9 spectators */
    add_model(h, (float[]){0, 0, 0}, (float[]){8, 8, 8}, trig);           /* *10 pad aimed down */
    add_model(h, (float[]){0, 0, 0}, (float[]){8, 8, 8}, trig);           /* *11 no protection */
    blvl_q3_bsp *b = &h->bsp;
    b->shaders = h->shaders;
    b->planes = h->planes;
    b->brushes = h->brushes;
    b->brush_sides = h->sides;
    b->models = h->models;
    b->entities = (char *)entity_text;
    b->entities_size = sizeof entity_text - 1;
}

static bool near(float a, float b, float tol) {
    return fabsf(a - b) <= tol;
}
static bool vnear(blvl_Vec3 a, float x, float y, float z, float tol) {
    return near(a.x, x, tol) && near(a.y, y, tol) && near(a.z, z, tol);
}
static bool str_is(blvl_fb_str s, const char *want) {
    return s.ptr && s.len == strlen(want) && !memcmp(s.ptr, want, s.len);
}

int main(void) {
    static hand_map h;
    build(&h);
    blvl_error err;
    blvl_bake *b = NULL;
    blvl_q3_bake_report rep;
    blvl_q3_bake_options o = {0};
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    blvl_status st = blvl_q3_bake(&h.bsp, b, &rep, &o, &err);
    if (st)
        fprintf(stderr, "bake: %s\n", err.message);
    CHECK_EQ_INT(st, BLVL_OK);
    void *lv = NULL, *sy = NULL;
    size_t ls = 0, ss = 0;
    CHECK(blvl_bake_write_memory(b, &lv, &ls, &sy, &ss, NULL, &err) == BLVL_OK);
    blvl_level *level = NULL;
    CHECK(blvl_open_memory(&level, lv, ls, NULL, &err) == BLVL_OK);
    CHECK(blvl_sections_verify(level, &err) == BLVL_OK);
    blvl_bytes by = {0}, sby = {0};
    blvl_Sim sim = {0};
    blvl_Sites sites = {0};
    CHECK(blvl_level_sim(level, &by, &sim, &err) == BLVL_OK);
    CHECK(blvl_level_sites(level, &sby, &sites, &err) == BLVL_OK);

    const uint32_t ALL = BLVL_BAKE_ALL_GAMETYPES;
    const uint32_t mapped = blvl_Gametype_FreeForAll | blvl_Gametype_LastManStanding |
                            blvl_Gametype_TeamDeathmatch | blvl_Gametype_TeamSurvivor |
                            blvl_Gametype_CaptureAndHold | blvl_Gametype_CaptureTheFlag;
    /* spawns, in entity order */
    CHECK_EQ_INT(blvl_Sim_spawns_len(sim), 7);
    struct {
        float x, y, z, yaw;
        const char *kind, *team;
        uint32_t gametypes;
    } want[] = {
        {0, 24, 0, 0, "info_player_deathmatch", NULL, ALL},
        {100, 24, -200, 90, "info_player_deathmatch", NULL,
         ALL & ~(uint32_t)(blvl_Gametype_FreeForAll | blvl_Gametype_LastManStanding)},
        {10, 30, -20, -90, "team_CTF_redspawn", "red", ALL},
        {-10, 30, 20, 180, "team_CTF_blueplayer", "blue",
         (ALL & ~mapped) | blvl_Gametype_CaptureTheFlag | blvl_Gametype_TeamSurvivor},
        {0, 24, 0, -90, "info_player_start", NULL,
         (ALL & ~mapped) | blvl_Gametype_FreeForAll | blvl_Gametype_LastManStanding},
        /* notsingle: ffa and tournament keep the FreeForAll bit */
        {0, 24, 0, -90, "info_player_deathmatch", NULL, ALL},
        {0, 24, 0, -90, "info_player_deathmatch", NULL,
         (ALL & ~mapped) | blvl_Gametype_LastManStanding | blvl_Gametype_CaptureAndHold},
    };
    for (uint32_t i = 0; i < 7 && i < blvl_Sim_spawns_len(sim); i++) {
        blvl_Spawn s = blvl_Sim_spawns_at(sim, i);
        CHECK(vnear(blvl_Spawn_position(s), want[i].x, want[i].y, want[i].z, 1e-4f));
        CHECK(near(blvl_Spawn_yaw(s), want[i].yaw, 1e-4f));
        CHECK(str_is(blvl_Spawn_kind(s), want[i].kind));
        CHECK(want[i].team ? str_is(blvl_Spawn_team(s), want[i].team)
                           : !blvl_Spawn_team_present(s));
        CHECK_EQ_INT(blvl_Spawn_gametypes(s), want[i].gametypes);
    }

    /* teleport destinations: the misc_teleporter_dest first, then the info_notnull a
     * teleporter named; the spectator teleporter adds nothing */
    CHECK_EQ_INT(blvl_Sim_teleport_dests_len(sim), 2);
    blvl_TeleportDest d0 = blvl_Sim_teleport_dests_at(sim, 0),
                      d1 = blvl_Sim_teleport_dests_at(sim, 1);
    CHECK(str_is(blvl_TeleportDest_name(d0), "dest1"));
    CHECK(vnear(blvl_TeleportDest_position(d0), 300, 40, 0, 1e-4f));
    CHECK(near(blvl_TeleportDest_yaw(d0), 90, 1e-4f));
    CHECK(str_is(blvl_TeleportDest_name(d1), "tp_notnull"));
    CHECK(vnear(blvl_TeleportDest_position(d1), -300, 40, 0, 1e-4f));

    /* triggers: teleport *2 -> 0, teleport *4 -> 1, push *3; the push aimed down: nothing */
    CHECK_EQ_INT(blvl_Sim_triggers_len(sim), 3);
    blvl_Trigger t0 = blvl_Sim_triggers_at(sim, 0), t1 = blvl_Sim_triggers_at(sim, 1),
                 t2 = blvl_Sim_triggers_at(sim, 2);
    CHECK_EQ_INT(blvl_Trigger_kind(t0), blvl_TriggerKind_Teleport);
    CHECK_EQ_INT(blvl_Trigger_teleport_dest(t0), 0);
    CHECK(vnear(blvl_Trigger_lo(t0), 280, 0, -16, 1e-3f));
    CHECK(vnear(blvl_Trigger_hi(t0), 320, 8, 16, 1e-3f));
    CHECK(blvl_Trigger_planes_len(t0) >= 6);
    CHECK_EQ_INT(blvl_Trigger_kind(t1), blvl_TriggerKind_Teleport);
    CHECK_EQ_INT(blvl_Trigger_teleport_dest(t1), 1);
    /* the pad: centre (0 0 8), target 256 up and 400 along +y: t = sqrt(256 / 400) = 0.8 s,
     * 400 / 0.8 = 500 qu/s along, 0.8 * 800 = 640 up; Quake (0 500 640) -> blvl (0 640 -500) */
    CHECK_EQ_INT(blvl_Trigger_kind(t2), blvl_TriggerKind_Push);
    CHECK(vnear(blvl_Trigger_velocity(t2), 0, 640, -500, 1e-2f));

    /* hurt volumes: kill, slow damage, default damage, no-protection kill, then the lava */
    CHECK_EQ_INT(blvl_Sim_hurt_volumes_len(sim), 5);
    blvl_HurtVolume h0 = blvl_Sim_hurt_volumes_at(sim, 0), h1 = blvl_Sim_hurt_volumes_at(sim, 1),
                    h2 = blvl_Sim_hurt_volumes_at(sim, 2), h3 = blvl_Sim_hurt_volumes_at(sim, 3),
                    h4 = blvl_Sim_hurt_volumes_at(sim, 4);
    CHECK_EQ_INT(blvl_HurtVolume_kind(h0), blvl_HurtKind_Kill);
    CHECK(near(blvl_HurtVolume_amount(h0), 1000, 0));
    CHECK(str_is(blvl_HurtVolume_name(h0), "trigger_hurt"));
    CHECK(vnear(blvl_HurtVolume_lo(h0), -64, -64, -64, 1e-3f));
    CHECK_EQ_INT(blvl_HurtVolume_kind(h1), blvl_HurtKind_Damage);
    CHECK(near(blvl_HurtVolume_amount(h1), 10, 0) && near(blvl_HurtVolume_interval(h1), 1, 0));
    CHECK(str_is(blvl_HurtVolume_name(h1), "slowpain"));
    CHECK_EQ_INT(blvl_HurtVolume_kind(h2), blvl_HurtKind_Damage);
    CHECK(near(blvl_HurtVolume_amount(h2), 5, 0) &&
          near(blvl_HurtVolume_interval(h2), 0.1f, 1e-6f));
    CHECK_EQ_INT(blvl_HurtVolume_kind(h3), blvl_HurtKind_Kill);
    CHECK_EQ_INT(blvl_HurtVolume_kind(h4), blvl_HurtKind_Damage);
    CHECK(near(blvl_HurtVolume_amount(h4), 30, 0) &&
          near(blvl_HurtVolume_interval(h4), 0.7f, 1e-6f));
    CHECK(str_is(blvl_HurtVolume_name(h4), "textures/liquids/lava"));

    /* doors: *1 slides toward Quake +y (blvl -z) by 128 - 8, touch-opened, at origin 0 0 8;
     * *8 named "gate": used, up 96 - 8, stays open */
    CHECK_EQ_INT(blvl_Sim_doors_len(sim), 2);
    blvl_Door dr = blvl_Sim_doors_at(sim, 0), gate = blvl_Sim_doors_at(sim, 1);
    CHECK(vnear(blvl_Door_direction(dr), 0, 0, -1, 1e-6f));
    CHECK(near(blvl_Door_distance(dr), 120, 1e-4f));
    CHECK(near(blvl_Door_speed(dr), 200, 0) && near(blvl_Door_wait(dr), 2, 0));
    CHECK_EQ_INT(blvl_Door_trigger(dr), blvl_DoorTrigger_Timer);
    CHECK_EQ_INT(blvl_Door_gametypes(dr),
                 (ALL & ~mapped) | blvl_Gametype_FreeForAll | blvl_Gametype_LastManStanding);
    CHECK(vnear(blvl_Door_lo(dr), 0, 8, -128, 1e-3f)); /* the brush moved up by the origin */
    CHECK(str_is(blvl_Door_name(gate), "gate"));
    CHECK(vnear(blvl_Door_direction(gate), 0, 1, 0, 1e-6f));
    CHECK(near(blvl_Door_distance(gate), 88, 1e-4f));
    CHECK(near(blvl_Door_speed(gate), 400, 0) && near(blvl_Door_wait(gate), -1, 0));
    CHECK_EQ_INT(blvl_Door_trigger(gate), blvl_DoorTrigger_Use);

    /* colliders: world brushes first (bot clip dropped, no collider for the trigger brushes),
     * then the doors' */
    uint32_t nc = blvl_Sim_colliders_len(sim);
    CHECK_EQ_INT(nc, 10);
    const uint32_t want_flags[] = {
        0,
        blvl_ColliderFlag_Clip | blvl_ColliderFlag_ShotThrough,
        blvl_ColliderFlag_Clip | blvl_ColliderFlag_ShotThrough | blvl_ColliderFlag_Ladder,
        blvl_ColliderFlag_Sky,
        (uint32_t)blvl_Surface_Metal << 1,
        blvl_ColliderFlag_Water,
        blvl_ColliderFlag_Water,
        0, /* nodraw solid stays solid */
        0,
        0,
    };
    for (uint32_t i = 0; i < nc && i < 10; i++)
        CHECK_EQ_INT(blvl_Collider_flags(blvl_Sim_colliders_at(sim, i)), want_flags[i]);
    if (nc == 10) {
        blvl_Collider c8 = blvl_Sim_colliders_at(sim, 8), c9 = blvl_Sim_colliders_at(sim, 9);
        CHECK_EQ_INT(blvl_Collider_door(c8), 0);
        CHECK_EQ_INT(blvl_Collider_door(c9), 1);
        CHECK_EQ_INT(blvl_Collider_gametypes(c8), blvl_Door_gametypes(dr));
        CHECK(near(blvl_Collider_lo(c8).y, 8, 1e-3f));
        uint32_t src = blvl_Collider_source(c9);
        CHECK(src < blvl_Sim_collider_sources_len(sim));
        if (src < blvl_Sim_collider_sources_len(sim)) {
            blvl_ColliderSource cs = blvl_Sim_collider_sources_at(sim, src);
            CHECK_EQ_INT(blvl_ColliderSource_kind(cs), blvl_ColliderSourceKind_Entity);
            CHECK(str_is(blvl_ColliderSource_name(cs), "gate"));
        }
        CHECK_EQ_INT(blvl_Collider_door(blvl_Sim_colliders_at(sim, 0)), BLVL_BAKE_NONE);
    }
    /* .bsym: every collider names its brush (the bot clip brush makes none, so collider 2 is
     * brush 3, the ladder), its contents and surface flags, and the door's its entity (21) */
    CHECK_EQ_INT(blvl_section_verify_bytes("bsym", sy, ss, NULL, &err), BLVL_OK);
    blvl_Symbols sym = blvl_Symbols_root(sy);
    CHECK_EQ_INT(blvl_Symbols_colliders_len(sym), nc);
    if (blvl_Symbols_colliders_len(sym) == 10) {
        const uint32_t brush_of[10] = {0, 1, 3, 4, 5, 6, 7, 8, 9, 16};
        for (uint32_t i = 0; i < 10; i++) {
            blvl_SymbolSource src = blvl_Symbols_sources_at(sym, blvl_Symbols_colliders_at(sym, i));
            CHECK_EQ_INT(src.kind, blvl_SourceKind_Brush);
            CHECK_EQ_INT(src.index, brush_of[i]);
        }
        blvl_SymbolSource lad = blvl_Symbols_sources_at(sym, blvl_Symbols_colliders_at(sym, 2));
        CHECK_EQ_INT(lad.contents_flags, BLVL_Q3_CONTENTS_PLAYERCLIP);
        CHECK_EQ_INT(lad.surface_flags, BLVL_Q3_SURF_LADDER | BLVL_Q3_SURF_NODRAW);
        CHECK_EQ_INT(lad.entity, BLVL_BAKE_NONE);
        blvl_SymbolSource dsrc = blvl_Symbols_sources_at(sym, blvl_Symbols_colliders_at(sym, 8));
        CHECK_EQ_INT(dsrc.entity, 21);
    }
    CHECK_EQ_INT(rep.brushes, 10);
    CHECK_EQ_INT(rep.brushes_dropped, 0);

    /* the flag and kill_y (64 below the world's lowest point, -64) */
    CHECK_EQ_INT(blvl_Sites_sites_len(sites), 1);
    if (blvl_Sites_sites_len(sites) == 1) {
        blvl_Site f = blvl_Sites_sites_at(sites, 0);
        CHECK_EQ_INT(blvl_Site_kind(f), blvl_SiteKind_Flag);
        CHECK(str_is(blvl_Site_name(f), "team_CTF_redflag"));
        CHECK(vnear(blvl_Site_lo(f), -15, 1, 385, 1e-4f));
        CHECK(vnear(blvl_Site_hi(f), 15, 31, 415, 1e-4f));
    }
    CHECK(near(blvl_Sim_kill_y(sim), -128, 0));

    /* hostile numbers: out-of-range integers saturate, non-finite floats read as their
     * default and are counted, a door moved past what a float holds stays put */
    static const char hostile[] =
        "{ \"classname\" \"worldspawn\" }\n"
        "{ \"classname\" \"info_player_deathmatch\" \"origin\" \"1e39 nan 24\" \"angle\" "
        "\"inf\" }\n"
        "{ \"classname\" \"trigger_hurt\" \"model\" \"*5\" \"dmg\" \"1e30\" \"spawnflags\" "
        "\"99999999999999999999999\" }\n"
        "{ \"classname\" \"func_door\" \"model\" \"*1\" \"lip\" \"-3e38\" \"spawnflags\" \"1\" "
        "\"health\" \"1e40\" }\n"
        "{ \"classname\" \"team_CTF_blueflag\" \"origin\" \"3e38 0 0\" }\n"
        "{ \"classname\" \"target_position\" \"targetname\" \"t\" \"origin\" \"0 0 8.000001\" }\n"
        "{ \"classname\" \"trigger_push\" \"model\" \"*3\" \"target\" \"t\" }\n";
    hand_map *hm = &h;
    hm->bsp.entities = (char *)hostile;
    hm->bsp.entities_size = sizeof hostile - 1;
    blvl_bake *b3 = NULL;
    CHECK(blvl_bake_new(&b3, NULL, &err) == BLVL_OK);
    st = blvl_q3_bake(&hm->bsp, b3, &rep, &o, &err);
    if (st)
        fprintf(stderr, "hostile bake: %s\n", err.message);
    CHECK_EQ_INT(st, BLVL_OK);
    CHECK(rep.values_replaced >= 3);
    void *lv3 = NULL;
    size_t ls3 = 0;
    blvl_level *level3 = NULL;
    CHECK(blvl_bake_write_memory(b3, &lv3, &ls3, NULL, NULL, NULL, &err) == BLVL_OK);
    CHECK(blvl_open_memory(&level3, lv3, ls3, NULL, &err) == BLVL_OK);
    CHECK(blvl_sections_verify(level3, &err) == BLVL_OK);
    blvl_close(level3);
    blvl_free(NULL, lv3);
    blvl_bake_free(b3);
    hm->bsp.entities = (char *)entity_text;
    hm->bsp.entities_size = sizeof entity_text - 1;

    /* refused: a negative patch thickness */
    blvl_bake *b2 = NULL;
    CHECK(blvl_bake_new(&b2, NULL, &err) == BLVL_OK);
    o.patch_thickness = -1;
    CHECK_EQ_INT(blvl_q3_bake(&h.bsp, b2, &rep, &o, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "patch-thickness") != NULL);
    blvl_bake_free(b2);

    blvl_bytes_free(&sby);
    blvl_bytes_free(&by);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_free(NULL, sy);
    blvl_bake_free(b);
    return check_report("test_q3_entities");
}
