/* blvl_hmap_bake on the bundled sample (tests/data/hmap/sample.hmap, sample_compiled.hmap, both
 * written by tools/hmap_sample/make_sample.c): what the sim, lighting, geometry and symbols of
 * the baked level hold, checked against numbers worked by hand from the sample's description in
 * metres (unitsPerMeter 1: one map unit = 1 / 0.0254 qu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/hmap.h"
#include "blvl/sections.h"
#include "blvl/sections/bsym.h"
#include "check.h"

#define QU (1.0 / 0.0254) /* qu per metre */

static int near(double a, double b, double tol) {
    return fabs(a - b) <= tol;
}

static uint8_t *load(const char *name, size_t *size) {
    char path[512];
    const char *src = getenv("BLVL_SRC");
    snprintf(path, sizeof path, "%s/tests/data/hmap/%s", src ? src : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc((size_t)n);
    if (!d || fread(d, 1, (size_t)n, f) != (size_t)n)
        exit(1);
    fclose(f);
    *size = (size_t)n;
    return d;
}

typedef struct baked {
    void *level, *symbols;
    size_t level_size, symbols_size;
    blvl_level *lv;
    blvl_bytes sim_b, geo_b, light_b;
    blvl_Sim sim;
    blvl_Geometry geo;
    blvl_Lighting light;
    blvl_Symbols sym;
} baked;

static blvl_status bake_map(const blvl_hmap *map, baked *out, blvl_error *err) {
    memset(out, 0, sizeof *out);
    blvl_bake *b;
    blvl_options opt = {0};
    opt.threads = 1;
    blvl_status st = blvl_bake_new(&b, &opt, err);
    if (st != BLVL_OK)
        return st;
    st = blvl_hmap_bake(map, b, err);
    if (st == BLVL_OK)
        st = blvl_bake_write_memory(b, &out->level, &out->level_size, &out->symbols,
                                    &out->symbols_size, NULL, err);
    blvl_bake_free(b);
    if (st != BLVL_OK)
        return st;
    CHECK_EQ_INT(blvl_open_memory(&out->lv, out->level, out->level_size, NULL, err), BLVL_OK);
    CHECK_EQ_INT(blvl_level_sim(out->lv, &out->sim_b, &out->sim, err), BLVL_OK);
    CHECK_EQ_INT(blvl_level_geometry(out->lv, &out->geo_b, &out->geo, err), BLVL_OK);
    CHECK_EQ_INT(blvl_level_lighting(out->lv, &out->light_b, &out->light, err), BLVL_OK);
    CHECK_EQ_INT(blvl_section_verify_bytes("bsym", out->symbols, out->symbols_size, NULL, err),
                 BLVL_OK);
    out->sym = blvl_Symbols_root(out->symbols);
    return BLVL_OK;
}

static void baked_free(baked *k) {
    blvl_bytes_free(&k->sim_b);
    blvl_bytes_free(&k->geo_b);
    blvl_bytes_free(&k->light_b);
    blvl_close(k->lv);
    blvl_free(NULL, k->level);
    blvl_free(NULL, k->symbols);
}

static blvl_hmap *read_map(const char *name) {
    size_t size;
    uint8_t *d = load(name, &size);
    blvl_hmap *map = NULL;
    blvl_error err;
    if (blvl_hmap_read(&map, d, size, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        exit(1);
    }
    free(d);
    return map;
}

/* Colliders by flags: solid (0), sky (8), clip (16|32), water (64). */
static void count_flags(blvl_Sim sim, int *solid, int *sky, int *clip, int *water, int *other) {
    *solid = *sky = *clip = *water = *other = 0;
    for (uint32_t i = 0; i < blvl_Sim_colliders_len(sim); i++) {
        uint32_t f = blvl_Collider_flags(blvl_Sim_colliders_at(sim, i));
        if (f == 0)
            ++*solid;
        else if (f == blvl_ColliderFlag_Sky)
            ++*sky;
        else if (f == (blvl_ColliderFlag_Clip | blvl_ColliderFlag_ShotThrough))
            ++*clip;
        else if (f == blvl_ColliderFlag_Water)
            ++*water;
        else
            ++*other;
    }
}

static void check_sun(blvl_Lighting light) {
    /* light_sun angles (-60, 30, 0): forward = (-sin30 cos-60, sin-60, -cos30 cos-60); the sun
     * is the other way */
    CHECK(blvl_Lighting_profiles_len(light) >= 1);
    blvl_LightingProfile p = blvl_Lighting_profiles_at(light, 0);
    CHECK(blvl_LightingProfile_sun_present(p));
    blvl_Sun sun = blvl_LightingProfile_sun(p);
    CHECK(near(sun.direction.x, 0.25, 1e-5));
    CHECK(near(sun.direction.y, sqrt(3.0) / 2, 1e-5));
    CHECK(near(sun.direction.z, sqrt(3.0) / 4, 1e-5));
    CHECK(near(sun.intensity, 2, 1e-6));
}

/* Sim facts both samples share: doors, spawns, triggers, hurt volumes, teleport dests. */
static void check_shared_sim(blvl_Sim sim) {
    /* the door: one, sliding up 3 m minus its 0.125 m lip, 2 m/s, waits 4 s */
    CHECK_EQ_INT(blvl_Sim_doors_len(sim), 1);
    blvl_Door d = blvl_Sim_doors_at(sim, 0);
    blvl_Vec3 dir = blvl_Door_direction(d);
    CHECK(near(dir.x, 0, 1e-6) && near(dir.y, 1, 1e-6) && near(dir.z, 0, 1e-6));
    CHECK(near(blvl_Door_distance(d), 2.875 * QU, 1e-3));
    CHECK(near(blvl_Door_speed(d), 2 * QU, 1e-3));
    CHECK(near(blvl_Door_wait(d), 4, 1e-6));
    CHECK(strcmp(blvl_Door_name(d).ptr, "gate") == 0);
    CHECK(near(blvl_Door_lo(d).x, 8 * QU, 1e-3) && near(blvl_Door_hi(d).y, 3 * QU, 1e-3));
    int door_colliders = 0;
    for (uint32_t i = 0; i < blvl_Sim_colliders_len(sim); i++)
        if (blvl_Collider_door(blvl_Sim_colliders_at(sim, i)) == 0)
            door_colliders++;
    CHECK_EQ_INT(door_colliders, 1);

    /* spawns: (1, 0.75, 7) m yaw 0 and (13, 0.75, 3) m yaw 90 team red */
    CHECK_EQ_INT(blvl_Sim_spawns_len(sim), 2);
    blvl_Spawn s0 = blvl_Sim_spawns_at(sim, 0), s1 = blvl_Sim_spawns_at(sim, 1);
    blvl_Vec3 p0 = blvl_Spawn_position(s0), p1 = blvl_Spawn_position(s1);
    CHECK(near(p0.x, 39.370079, 1e-3) && near(p0.y, 29.527559, 1e-3) &&
          near(p0.z, 275.590551, 1e-3));
    CHECK(near(p1.x, 511.811024, 1e-3) && near(p1.z, 118.110236, 1e-3));
    CHECK(near(blvl_Spawn_yaw(s0), 0, 1e-6) && near(blvl_Spawn_yaw(s1), 90, 1e-6));
    CHECK(strcmp(blvl_Spawn_kind(s0).ptr, "info_player_start") == 0);
    CHECK(!blvl_Spawn_team_present(s0) && strcmp(blvl_Spawn_team(s1).ptr, "red") == 0);

    /* triggers in brush order: the teleporter (to "arrival") and the jump pad */
    CHECK_EQ_INT(blvl_Sim_triggers_len(sim), 2);
    CHECK_EQ_INT(blvl_Sim_teleport_dests_len(sim), 1);
    blvl_TeleportDest td = blvl_Sim_teleport_dests_at(sim, 0);
    CHECK(strcmp(blvl_TeleportDest_name(td).ptr, "arrival") == 0);
    CHECK(near(blvl_TeleportDest_position(td).x, 20.5 * QU, 1e-3));
    CHECK(near(blvl_TeleportDest_yaw(td), 90, 1e-6));
    int teleports = 0, pushes = 0;
    for (uint32_t i = 0; i < blvl_Sim_triggers_len(sim); i++) {
        blvl_Trigger t = blvl_Sim_triggers_at(sim, i);
        if (blvl_Trigger_kind(t) == blvl_TriggerKind_Teleport) {
            teleports++;
            CHECK_EQ_INT(blvl_Trigger_teleport_dest(t), 0);
            CHECK(near(blvl_Trigger_lo(t).x, 6 * QU, 1e-3) &&
                  near(blvl_Trigger_hi(t).y, 2 * QU, 1e-3));
        } else {
            pushes++;
            /* Quake 3's apex rule from the pad's centre (9.75, 0.125, 1.25) m to the target
             * (12, 3, 1.25) m, g = 800 qu/s^2 */
            double h = 2.875 * QU, time = sqrt(h / 400.0);
            blvl_Vec3 v = blvl_Trigger_velocity(t);
            CHECK(near(v.y, time * 800.0, 1e-2));
            CHECK(near(v.x, 2.25 * QU / time, 1e-2));
            CHECK(near(v.z, 0, 1e-3));
        }
    }
    CHECK_EQ_INT(teleports, 1);
    CHECK_EQ_INT(pushes, 1);
    CHECK_EQ_INT(blvl_Sim_hurt_volumes_len(sim), 1);
    blvl_HurtVolume hv = blvl_Sim_hurt_volumes_at(sim, 0);
    CHECK_EQ_INT(blvl_HurtVolume_kind(hv), blvl_HurtKind_Damage);
    CHECK(near(blvl_HurtVolume_amount(hv), 10, 1e-6));
    CHECK(near(blvl_HurtVolume_lo(hv).x, 22 * QU, 1e-3));
}

static void test_source_sample(void) {
    blvl_hmap *map = read_map("sample.hmap");
    baked k;
    blvl_error err;
    CHECK_EQ_INT(bake_map(map, &k, &err), BLVL_OK);
    /* 26 brushes: 3 trigger volumes are no colliders; the crate is one hull, the L-shaped step
     * (11 polygons, 24 fan triangles) 24 thick triangles */
    CHECK_EQ_INT(blvl_Sim_colliders_len(k.sim), 23 + 1 + 24);
    int solid, sky, clip, water, other;
    count_flags(k.sim, &solid, &sky, &clip, &water, &other);
    CHECK_EQ_INT(solid, 20 + 25);
    CHECK_EQ_INT(sky, 1);
    CHECK_EQ_INT(clip, 1);
    CHECK_EQ_INT(water, 1);
    CHECK_EQ_INT(other, 0);
    /* the water collider names the water material (MATS 4, "liquid/water") and is the brush
     * x 2.25..4.75 m */
    for (uint32_t i = 0; i < blvl_Sim_colliders_len(k.sim); i++) {
        blvl_Collider c = blvl_Sim_colliders_at(k.sim, i);
        if (blvl_Collider_flags(c) != blvl_ColliderFlag_Water)
            continue;
        CHECK_EQ_INT(blvl_Collider_material(c), 4);
        CHECK(near(blvl_Collider_lo(c).x, 2.25 * QU, 1e-3));
        CHECK(near(blvl_Collider_hi(c).y, 0.875 * QU, 1e-3));
        /* .bsym: the collider came from brush id 121 (the 22nd brush), contents water */
        uint32_t src = blvl_Symbols_colliders_at(k.sym, i);
        blvl_SymbolSource ss = blvl_Symbols_sources_at(k.sym, src);
        CHECK_EQ_INT(ss.kind, blvl_SourceKind_Brush);
        CHECK_EQ_INT(ss.index, 121);
        CHECK_EQ_INT(ss.contents_flags, BLVL_HMAP_WATER);
        blvl_Material m = blvl_Geometry_materials_at(k.geo, 4);
        CHECK(strcmp(blvl_Material_name(m).ptr, "liquid/water") == 0);
        CHECK(blvl_Material_water_present(m));
    }
    check_shared_sim(k.sim);
    /* lights from the entities: a point and a spot light; the sun from light_sun */
    CHECK_EQ_INT(blvl_Lighting_punctual_lights_len(k.light), 2);
    check_sun(k.light);
    /* geometry: 22 drawn brushes (not the 3 triggers, not the clip) x 6 quads, the crate's 6
     * quads and the step's 24 triangles */
    CHECK_EQ_INT(blvl_Geometry_indices_len(k.geo) / 3, 22 * 12 + 12 + 24);
    /* source vertices carry their material's colour */
    int tinted = 0;
    for (uint32_t i = 0; i < blvl_Geometry_vertices_len(k.geo); i++) {
        blvl_Vertex v = blvl_Geometry_vertices_at(k.geo, i);
        tinted += v.color.r != 255 || v.color.g != 255 || v.color.b != 255;
    }
    CHECK_EQ_INT(tinted, (int)blvl_Geometry_vertices_len(k.geo));
    /* UVs by the dominant-axis rule, in metres over the 2 x 2 m tiles: the floors' tops (+Y at
     * y 0) get (x, z) / 2, room A's west wall (+X at x 0) gets (-z, -y) / 2 */
    int floors = 0, walls = 0, uv_ok = 1;
    for (uint32_t i = 0; i < blvl_Geometry_vertices_len(k.geo); i++) {
        blvl_Vertex v = blvl_Geometry_vertices_at(k.geo, i);
        double x = v.position.x / QU, y = v.position.y / QU, z = v.position.z / QU;
        if (v.normal.y > 0.999f && fabs(y) < 1e-4) {
            floors++;
            uv_ok &= near(v.uv.x, x / 2, 1e-4) && near(v.uv.y, z / 2, 1e-4);
        } else if (v.normal.x > 0.999f && fabs(x) < 1e-4) {
            walls++;
            uv_ok &= near(v.uv.x, -z / 2, 1e-4) && near(v.uv.y, -y / 2, 1e-4);
        }
    }
    CHECK_EQ_INT(floors, 3 * 4);
    CHECK_EQ_INT(walls, 4);
    CHECK(uv_ok);
    baked_free(&k);

    /* the same map baked twice gives the same bytes */
    baked k2;
    CHECK_EQ_INT(bake_map(map, &k, &err), BLVL_OK);
    CHECK_EQ_INT(bake_map(map, &k2, &err), BLVL_OK);
    CHECK(k.level_size == k2.level_size && memcmp(k.level, k2.level, k.level_size) == 0);
    CHECK(k.symbols_size == k2.symbols_size && memcmp(k.symbols, k2.symbols, k.symbols_size) == 0);
    baked_free(&k);
    baked_free(&k2);
    blvl_hmap_free(map);
}

static void test_compiled_sample(void) {
    blvl_hmap *map = read_map("sample_compiled.hmap");
    CHECK(map->compiled && !map->has_brsh && !map->has_mesh && !map->meta);
    baked k;
    blvl_error err;
    CHECK_EQ_INT(bake_map(map, &k, &err), BLVL_OK);
    /* colliders from the models (22 world brushes and the door; the 3 trigger models become
     * volumes) and the mesh collision (the crate's 12 triangles welded and proved convex: one
     * hull; the step's 24 triangles) */
    CHECK_EQ_INT(blvl_Sim_colliders_len(k.sim), 23 + 1 + 24);
    int solid, sky, clip, water, other;
    count_flags(k.sim, &solid, &sky, &clip, &water, &other);
    CHECK_EQ_INT(solid, 20 + 25);
    CHECK_EQ_INT(sky + clip + water, 3);
    check_shared_sim(k.sim);
    /* geometry from the batches: their triangles, their baked colours */
    uint64_t tris = 0;
    for (uint32_t i = 0; i < map->compiled->batch_count; i++)
        tris += map->compiled->batches[i].index_count / 3;
    CHECK_EQ_INT(blvl_Geometry_indices_len(k.geo) / 3, tris);
    CHECK_EQ_INT(tris, 22 * 12 + 12 + 24);
    blvl_Vertex v0 = blvl_Geometry_vertices_at(k.geo, 0);
    CHECK(v0.color.r != 255 && v0.color.a == 255);
    /* lights from the CMPL table, the sun negated */
    CHECK_EQ_INT(blvl_Lighting_punctual_lights_len(k.light), 2);
    check_sun(k.light);
    baked_free(&k);

    /* baked = 0: the colours are white */
    map->compiled->baked = 0;
    CHECK_EQ_INT(bake_map(map, &k, &err), BLVL_OK);
    int white = 1;
    for (uint32_t i = 0; i < blvl_Geometry_vertices_len(k.geo); i++) {
        blvl_Vertex v = blvl_Geometry_vertices_at(k.geo, i);
        white &= v.color.r == 255 && v.color.g == 255 && v.color.b == 255 && v.color.a == 255;
    }
    CHECK(white);
    baked_free(&k);

    /* a model past the first with entityId 0 belongs to the world: it bakes (this once read
     * an entity's bounds at index BLVL_BAKE_NONE) */
    CHECK(map->compiled->model_count > 1);
    map->compiled->models[map->compiled->model_count - 1].entity_id = 0;
    CHECK_EQ_INT(bake_map(map, &k, &err), BLVL_OK);
    baked_free(&k);
    blvl_hmap_free(map);
}

/* A combined file (the sample's source chunks and its CMPL): sim from BRSH and MESH (the water
 * collider names its material, which only BRSH knows), geometry and lights from CMPL. */
static void test_combined(void) {
    blvl_hmap *src = read_map("sample.hmap"), *cmp = read_map("sample_compiled.hmap");
    blvl_hmap both = *src; /* borrows both maps' records; the writer lays the chunks out */
    both.chunk_count = 0;
    both.chunks = NULL;
    both.flags = BLVL_HMAP_FLAG_SOURCE | BLVL_HMAP_FLAG_COMPILED;
    both.compiled = cmp->compiled;
    void *bytes = NULL;
    size_t size = 0;
    blvl_error err;
    CHECK_EQ_INT(blvl_hmap_write(&bytes, &size, &both, NULL, &err), BLVL_OK);
    blvl_hmap *map = NULL;
    CHECK_EQ_INT(blvl_hmap_read(&map, bytes, size, NULL, &err), BLVL_OK);
    if (map) {
        baked k;
        CHECK_EQ_INT(bake_map(map, &k, &err), BLVL_OK);
        CHECK_EQ_INT(blvl_Sim_colliders_len(k.sim), 48);
        int water_material = -2;
        for (uint32_t i = 0; i < blvl_Sim_colliders_len(k.sim); i++) {
            blvl_Collider c = blvl_Sim_colliders_at(k.sim, i);
            if (blvl_Collider_flags(c) == blvl_ColliderFlag_Water)
                water_material = (int)blvl_Collider_material(c);
        }
        CHECK_EQ_INT(water_material, 4);
        check_shared_sim(k.sim);
        uint64_t tris = 0;
        for (uint32_t i = 0; i < map->compiled->batch_count; i++)
            tris += map->compiled->batches[i].index_count / 3;
        CHECK_EQ_INT(blvl_Geometry_indices_len(k.geo) / 3, tris);
        /* batch sources (one per batch), not face sources: 26 brushes, 2 meshes, 8 batches */
        CHECK_EQ_INT(blvl_Symbols_sources_len(k.sym), 26 + 2 + map->compiled->batch_count);
        CHECK_EQ_INT(blvl_Lighting_punctual_lights_len(k.light), 2);
        check_sun(k.light);
        baked_free(&k);
        blvl_hmap_free(map);
    }
    blvl_free(NULL, bytes);
    blvl_hmap_free(src);
    blvl_hmap_free(cmp);
}

/* unitsPerMeter: META's is refused when not positive and finite, naming the field and its
 * offset: the header (12) + META's tag and size (8) + its name (4 + 29) + ambient (12) +
 * gridSize (4) = 69. */
static void test_units(void) {
    blvl_hmap *map = read_map("sample.hmap");
    const float bad[] = {0.0f, -1.0f, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        map->meta->units_per_meter = bad[i];
        blvl_bake *b;
        blvl_error err;
        CHECK_EQ_INT(blvl_bake_new(&b, NULL, &err), BLVL_OK);
        CHECK_EQ_INT(blvl_hmap_bake(map, b, &err), BLVL_E_SOURCE);
        CHECK(strncmp(err.message, "META: unitsPerMeter at offset 69: units-per-meter: ", 51) == 0);
        blvl_bake_free(b);
    }
    /* 39.37 units per metre: one unit is an inch, so qu = map units (to float precision) */
    map->meta->units_per_meter = 1.0f / 0.0254f;
    baked k;
    blvl_error err;
    CHECK_EQ_INT(bake_map(map, &k, &err), BLVL_OK);
    blvl_Vec3 p0 = blvl_Spawn_position(blvl_Sim_spawns_at(k.sim, 0));
    CHECK(near(p0.x, 1, 1e-5) && near(p0.y, 0.75, 1e-5) && near(p0.z, 7, 1e-5));
    baked_free(&k);
    blvl_hmap_free(map);

    /* compiled-only: CMPL's unitsPerMeter, at header 12 + 8 + ambient 12 = 32 */
    map = read_map("sample_compiled.hmap");
    map->compiled->units_per_meter = -2;
    blvl_bake *b;
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_hmap_bake(map, b, &err), BLVL_E_SOURCE);
    char want[64];
    snprintf(want, sizeof want, "CMPL: unitsPerMeter at offset %llu: units-per-meter: ",
             (unsigned long long)(map->chunks[map->chunk_count - 1].offset + 8 + 12));
    CHECK(strncmp(err.message, want, strlen(want)) == 0);
    CHECK(memcmp(map->chunks[map->chunk_count - 1].tag, "CMPL", 4) == 0);
    blvl_bake_free(b);
    blvl_hmap_free(map);
}

/* A brush owned by an id no entity has is refused, naming the brush's owner field. */
static void test_owner(void) {
    blvl_hmap *map = read_map("sample.hmap");
    map->brushes[3].owner = 9999;
    blvl_bake *b;
    blvl_error err;
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_hmap_bake(map, b, &err), BLVL_E_SOURCE);
    /* BRSH is the third chunk; brushes are 20 + 6 * 44 = 284 bytes each */
    char want[96];
    snprintf(want, sizeof want, "BRSH: brush[3].owner at offset %llu: owner: no entity has id 9999",
             (unsigned long long)(map->chunks[2].offset + 8 + 4 + 3 * 284 + 4));
    CHECK(strcmp(err.message, want) == 0);
    blvl_bake_free(b);
    blvl_hmap_free(map);
}

/* Every byte of a bake comes from the caller's allocator and comes back: the sample baked (and
 * written) with an allocator that counts, then with one that refuses its k-th call for k
 * across the whole run; each run either bakes or fails for want of memory, and frees all. */
typedef struct counting {
    long calls, refuse_at;
    long long live;
} counting;

static void *c_alloc(void *user, size_t size) {
    counting *c = user;
    if (++c->calls == c->refuse_at)
        return NULL;
    void *p = malloc(size);
    if (p)
        c->live += (long long)size;
    return p;
}

static void c_free(void *user, void *ptr, size_t size) {
    counting *c = user;
    if (ptr)
        c->live -= (long long)size;
    free(ptr);
}

static blvl_status alloc_run(const blvl_hmap *map, counting *c) {
    blvl_options opt = {0};
    opt.allocator = (blvl_allocator){c_alloc, c_free, c};
    opt.threads = 1;
    blvl_bake *b = NULL;
    blvl_error err;
    blvl_status st = blvl_bake_new(&b, &opt, &err);
    if (st == BLVL_OK)
        st = blvl_hmap_bake(map, b, &err);
    if (st == BLVL_OK) {
        void *level = NULL, *sym = NULL;
        size_t ln, sn;
        st = blvl_bake_write_memory(b, &level, &ln, &sym, &sn, NULL, &err);
        blvl_free(&opt, level);
        blvl_free(&opt, sym);
    }
    blvl_bake_free(b);
    if (st != BLVL_OK && st != BLVL_E_NOMEM && st != BLVL_E_ZSTD)
        fprintf(stderr, "alloc_run: %s\n", err.message);
    return st;
}

static void test_alloc(void) {
    const char *names[] = {"sample.hmap", "sample_compiled.hmap"};
    for (int n = 0; n < 2; n++) {
        blvl_hmap *map = read_map(names[n]);
        counting c = {0, 0, 0};
        CHECK_EQ_INT(alloc_run(map, &c), BLVL_OK);
        CHECK_EQ_INT(c.live, 0);
        long calls = c.calls;
        CHECK(calls > 100);
        int refused = 0;
        for (long k = 1; k <= calls; k += 1 + calls / 150) {
            counting f = {0, k, 0};
            blvl_status st = alloc_run(map, &f);
            /* zstd reports its own allocation failures, which the container writer passes on
             * as zstd-frame */
            if (st == BLVL_E_ZSTD)
                st = BLVL_E_NOMEM;
            if (st != BLVL_OK && st != BLVL_E_NOMEM)
                fprintf(stderr, "%s: allocation %ld refused: status %d\n", names[n], k, (int)st);
            CHECK(st == BLVL_OK || st == BLVL_E_NOMEM);
            refused += st == BLVL_E_NOMEM;
            if (f.live != 0) {
                fprintf(stderr, "%s: allocation %ld refused: %lld bytes not returned\n", names[n],
                        k, f.live);
                CHECK(f.live == 0);
            }
        }
        CHECK(refused > 0);
        blvl_hmap_free(map);
    }
}

/* What the reader takes and the bake cannot use is refused with BLVL_E_SOURCE, naming it. */
static void test_refusals(void) {
    blvl_hmap *map = read_map("sample.hmap");
    blvl_bake *b;
    blvl_error err;
    /* a func_door "speed" that is no number: entity 1's pair 3 ("speed" "2") */
    blvl_hmap_pair *speed = &map->entities[1].pairs[3];
    CHECK(strcmp(speed->key.bytes, "speed") == 0);
    speed->value.bytes[0] = 'x';
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_hmap_bake(map, b, &err), BLVL_E_SOURCE);
    CHECK(strstr(err.message, "ENTS: entity[1].speed at offset ") == err.message);
    CHECK(strstr(err.message, ": entity-key: \"x\" is not one finite number") != NULL);
    blvl_bake_free(b);
    speed->value.bytes[0] = '2';
    /* a spawn's origin that is not finite */
    map->entities[10].origin.y = NAN;
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_hmap_bake(map, b, &err), BLVL_E_SOURCE);
    CHECK(strstr(err.message, "ENTS: entity[10].origin at offset ") == err.message);
    blvl_bake_free(b);
    map->entities[10].origin.y = 0.75f;
    /* a brush plane with a zero normal */
    map->brushes[5].faces[2].plane.normal = (blvl_Vec3){0, 0, 0};
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_hmap_bake(map, b, &err), BLVL_E_SOURCE);
    CHECK(strstr(err.message, "BRSH: brush[5].face[2].plane at offset ") == err.message);
    blvl_bake_free(b);
    blvl_hmap_free(map);
}

/* ---- refusal offsets, found from the bytes -------------------------------------------------
 * A refusal names the offset of its field's first byte. The expected offset is found without
 * the bake's arithmetic: the map is changed in that field alone, written, and compared with the
 * file it was read from (read -> write is byte-identical); the first byte that differs is the
 * field's. */

/* A NaN whose first (low) byte differs from v's, so the file changes first at v's first byte. */
static float nan_unlike(float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    uint32_t n = 0x7FC00000u | ((u & 0xFFu) ^ 0xFFu);
    float f;
    memcpy(&f, &n, sizeof f);
    return f;
}

/* The first offset where `map`, written, differs from `orig`. */
static unsigned long long first_change_from(const blvl_hmap *map, const uint8_t *orig, size_t n) {
    size_t m = 0;
    void *out = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl_hmap_write(&out, &m, map, NULL, &err), BLVL_OK);
    const uint8_t *w = out;
    size_t i = 0;
    while (i < n && i < m && orig[i] == w[i])
        i++;
    CHECK(i < n && i < m);
    blvl_free(NULL, out);
    return (unsigned long long)i;
}

/* The bake refuses `map` with "<field> at offset <at>: <rule>: ...". */
static void refused_at(const blvl_hmap *map, const char *field, unsigned long long at,
                       const char *rule) {
    blvl_bake *b;
    blvl_error err;
    char want[160];
    snprintf(want, sizeof want, "%s at offset %llu: %s: ", field, at, rule);
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_hmap_bake(map, b, &err), BLVL_E_SOURCE);
    if (strncmp(err.message, want, strlen(want)) != 0)
        fprintf(stderr, "want \"%s...\", got \"%s\"\n", want, err.message);
    CHECK(strncmp(err.message, want, strlen(want)) == 0);
    blvl_bake_free(b);
}

/* The float *f made a NaN: the bake refuses `map` naming `field` at the offset where its
 * written bytes first differ from `base` (the float's first byte). *f is put back. */
static void nan_refused(const blvl_hmap *map, float *f, const uint8_t *base, size_t n,
                        const char *field, const char *rule) {
    float keep = *f;
    *f = nan_unlike(keep);
    refused_at(map, field, first_change_from(map, base, n), rule);
    *f = keep;
}

/* Refusals of the source chunks: a brush face's plane, a mesh vertex, an entity's origin, a
 * key's value (a string's offset is its length prefix, 4 bytes before its first byte), against
 * the bytes `base` the map was read from or is written as. */
static void source_offsets(blvl_hmap *map, const uint8_t *base, size_t n) {
    char field[96];
    nan_refused(map, &map->brushes[5].faces[2].plane.normal.x, base, n,
                "BRSH: brush[5].face[2].plane", "plane");
    CHECK(map->mesh_count > 0);
    uint32_t mi = map->mesh_count - 1;
    blvl_hmap_mesh *me = &map->meshes[mi];
    snprintf(field, sizeof field, "MESH: mesh[%u].vertex[%u]", mi, me->vertex_count - 1);
    nan_refused(map, &me->vertices[me->vertex_count - 1].x, base, n, field, "vertex");
    nan_refused(map, &map->entities[10].origin.x, base, n, "ENTS: entity[10].origin", "entity");
    blvl_hmap_pair *speed = &map->entities[1].pairs[3];
    CHECK(strcmp(speed->key.bytes, "speed") == 0);
    speed->value.bytes[0] = 'x';
    refused_at(map, "ENTS: entity[1].speed", first_change_from(map, base, n) - 4, "entity-key");
    speed->value.bytes[0] = '2';
}

static void test_refusal_offsets(void) {
    size_t n;
    uint8_t *file = load("sample.hmap", &n);
    blvl_hmap *map = read_map("sample.hmap");
    source_offsets(map, file, n);
    free(file);
    /* the same map as if built by hand (no chunk list): offsets where blvl_hmap_write puts the
     * chunks, in its own order */
    uint32_t chunks = map->chunk_count;
    map->chunk_count = 0;
    void *canon = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl_hmap_write(&canon, &n, map, NULL, &err), BLVL_OK);
    source_offsets(map, canon, n);
    blvl_free(NULL, canon);
    map->chunk_count = chunks;
    blvl_hmap_free(map);

    /* CMPL: a batch vertex, a collision brush's plane, a mesh-collision vertex; the last of
     * each, so every record before it is walked */
    char field[96];
    file = load("sample_compiled.hmap", &n);
    map = read_map("sample_compiled.hmap");
    blvl_hmap_compiled *cm = map->compiled;
    CHECK(cm->batch_count > 0 && cm->model_count > 0 && cm->mesh_coll_count > 0);
    uint32_t bi = cm->batch_count - 1;
    blvl_hmap_batch *ba = &cm->batches[bi];
    CHECK(ba->index_count > 0 && ba->vertex_count > 0);
    snprintf(field, sizeof field, "CMPL: batch[%u].vertex[%u]", bi, ba->vertex_count - 1);
    nan_refused(map, &ba->vertices[ba->vertex_count - 1].pos.x, file, n, field, "vertex");
    uint32_t mi = cm->model_count - 1;
    blvl_hmap_model *mo = &cm->models[mi];
    CHECK(mo->brush_count > 0 && mo->brushes[mo->brush_count - 1].plane_count > 0);
    blvl_hmap_cbrush *cb = &mo->brushes[mo->brush_count - 1];
    snprintf(field, sizeof field, "CMPL: model[%u].brush[%u].plane[%u]", mi, mo->brush_count - 1,
             cb->plane_count - 1);
    nan_refused(map, &cb->planes[cb->plane_count - 1].normal.x, file, n, field, "plane");
    uint32_t oi = cm->mesh_coll_count - 1;
    blvl_hmap_mesh_coll *mc = &cm->mesh_colls[oi];
    CHECK(mc->vertex_count > 0);
    snprintf(field, sizeof field, "CMPL: meshColl[%u].vertex[%u]", oi, mc->vertex_count - 1);
    nan_refused(map, &mc->vertices[mc->vertex_count - 1].x, file, n, field, "vertex");
    free(file);
    blvl_hmap_free(map);
}

int main(void) {
    test_refusals();
    test_refusal_offsets();
    test_alloc();
    test_source_sample();
    test_compiled_sample();
    test_combined();
    test_units();
    test_owner();
    return check_report("test_hmap_bake");
}
