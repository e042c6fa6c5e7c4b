/* A whole bake written to memory: opened with blvl_open_memory, verified, every section read
 * through the generated readers and its fields checked; the same bake with 1, 2 and 4 threads
 * gives identical bytes; the PNG decodes with an independent decoder (stb_image) to the
 * pixels given; the .bsym names the level's identity and the right sources for colliders and
 * triangle runs, and reads back with flatc --json against schema/bsym.fbs; only the sections
 * the model fills are written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "check.h"
#include "files.h"

#define STBI_ONLY_PNG
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#define NONE BLVL_BAKE_NONE

static int streq(blvl_fb_str s, const char *c) {
    return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}
static int veq(blvl_Vec3 a, float x, float y, float z) {
    return a.x == x && a.y == y && a.z == z;
}

static uint8_t pixels[3 * 4 * 4]; /* 4 wide, 3 high */

static void quad(blvl_bake *b, float y, uint32_t material, uint32_t source) {
    blvl_bake_vertex v[4];
    memset(v, 0, sizeof v);
    const float p[4][3] = {{0, 0, 0}, {64, 0, 0}, {64, 0, -64}, {0, 0, -64}};
    for (int i = 0; i < 4; i++) {
        memcpy(v[i].position, p[i], sizeof p[i]);
        v[i].position[1] = y;
        v[i].normal[1] = 1;
        v[i].uv[0] = p[i][0] / 64;
        v[i].uv[1] = -p[i][2] / 64;
        v[i].color[0] = v[i].color[1] = v[i].color[2] = v[i].color[3] = 255;
    }
    static const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    blvl_bake_surface s;
    blvl_bake_surface_init(&s);
    s.vertices = v;
    s.vertex_count = 4;
    s.indices = idx;
    s.index_count = 6;
    s.material = material;
    s.source = source;
    blvl_error err;
    CHECK(blvl_bake_add_surface(b, &s, &err) == BLVL_OK);
}

/* The model every check below reads. */
static blvl_bake *make(unsigned threads) {
    blvl_options opt = {0};
    opt.threads = threads;
    blvl_error err;
    blvl_bake *b = NULL;
    CHECK(blvl_bake_new(&b, &opt, &err) == BLVL_OK);
    blvl_bake_meta meta = {"Crossing", "someone", "two rooms", 1700000000u, blvl_Engine_Hmap};
    CHECK(blvl_bake_set_meta(b, &meta, &err) == BLVL_OK);
    blvl_bake_pair wpairs[2] = {{"message", "hello"}, {"message", "again"}};
    uint32_t e0, e1;
    CHECK(blvl_bake_add_entity(b, "worldspawn", wpairs, 2, &e0, &err) == BLVL_OK);
    blvl_bake_pair dpairs[1] = {{"targetname", "door1"}};
    CHECK(blvl_bake_add_entity(b, "func_door", dpairs, 1, &e1, &err) == BLVL_OK);
    CHECK(e0 == 0 && e1 == 1);

    for (int i = 0; i < 12; i++) {
        pixels[4 * i + 0] = (uint8_t)(i * 20);
        pixels[4 * i + 1] = (uint8_t)(255 - i * 7);
        pixels[4 * i + 2] = (uint8_t)(i * i);
        pixels[4 * i + 3] = (uint8_t)(i % 2 ? 255 : 128);
    }
    uint32_t img0, img1;
    CHECK(blvl_bake_add_image_rgba8(b, "textures/stone", 4, 3, pixels, true, &img0, &err) ==
          BLVL_OK);
    const uint8_t raw[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    CHECK(blvl_bake_add_image_encoded(b, "raw", 2, 2, blvl_ImageEncoding_Rgba8,
                                      blvl_ColorSpace_Linear, raw, sizeof raw, &img1,
                                      &err) == BLVL_OK);
    blvl_bake_material m;
    blvl_bake_material_init(&m);
    m.name = "stone";
    m.texture = img0;
    m.source_name = "Stone_01";
    m.source_texture = "tex/stone.png";
    uint32_t m0, m1;
    CHECK(blvl_bake_add_material(b, &m, &m0, &err) == BLVL_OK);
    blvl_bake_material_init(&m);
    m.name = "water";
    m.water = true;
    m.blend = blvl_BlendMode_Alpha;
    m.two_sided = true;
    CHECK(blvl_bake_add_material(b, &m, &m1, &err) == BLVL_OK);

    blvl_bake_source src = {blvl_SourceKind_Brush, 42, 0, 1, e1, NONE};
    uint32_t s0, s1;
    CHECK(blvl_bake_add_source(b, &src, &s0, &err) == BLVL_OK);
    src = (blvl_bake_source){blvl_SourceKind_Face, 3, 8, 0, e0, m0};
    CHECK(blvl_bake_add_source(b, &src, &s1, &err) == BLVL_OK);
    quad(b, 0, m1, NONE); /* water, translucent: written last */
    quad(b, 10, m0, s1);

    blvl_bake_door d;
    blvl_bake_door_init(&d);
    d.name = "door1";
    d.direction = (blvl_Vec3){0, 1, 0};
    d.distance = 96;
    d.wait = -1;
    uint32_t door;
    CHECK(blvl_bake_add_door(b, &d, &door, &err) == BLVL_OK);

    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    c.door = door;
    c.source_kind = blvl_ColliderSourceKind_Entity;
    c.source_name = "door1";
    c.source_entity = e1;
    c.symbol = s0;
    uint32_t ci;
    CHECK(blvl_bake_add_box(b, &c, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){8, 96, 64}, &ci, &err) ==
          BLVL_OK);
    CHECK(ci == 0);
    blvl_bake_collider_init(&c);
    c.flags = 16 | 32;
    CHECK(blvl_bake_add_box(b, &c, (blvl_Vec3){-512, -16, -512}, (blvl_Vec3){512, 0, 512}, &ci,
                            &err) == BLVL_OK);
    CHECK(ci == 1);
    blvl_bake_collider_init(&c); /* same (kind, name, entity) as collider 0: one source */
    c.door = door;
    c.source_kind = blvl_ColliderSourceKind_Entity;
    c.source_name = "door1";
    c.source_entity = e1;
    c.symbol = s0;
    CHECK(blvl_bake_add_box(b, &c, (blvl_Vec3){8, 0, 0}, (blvl_Vec3){16, 100, 64}, &ci, &err) ==
          BLVL_OK);
    CHECK(ci == 2);
    /* An empty box adds nothing. */
    CHECK(blvl_bake_add_box(b, &c, (blvl_Vec3){8, 0, 0}, (blvl_Vec3){8, 100, 64}, &ci, &err) ==
          BLVL_OK);
    CHECK(ci == NONE);

    uint32_t dest;
    CHECK(blvl_bake_add_teleport_dest(b, "dest1", (blvl_Vec3){100, 24, -100}, 90, &dest, &err) ==
          BLVL_OK);
    blvl_Plane tp[1] = {{{0, 1, 0}, 64}};
    blvl_bake_trigger t = {blvl_TriggerKind_Push, {0, 0, 0}, {32, 64, 32},           tp, 1,
                           {0, 800, 0},           NONE,      BLVL_BAKE_ALL_GAMETYPES};
    CHECK(blvl_bake_add_trigger(b, &t, &err) == BLVL_OK);
    t = (blvl_bake_trigger){
        blvl_TriggerKind_Teleport, {64, 0, 0}, {96, 64, 32}, NULL, 0, {0, 0, 0}, dest, 3};
    CHECK(blvl_bake_add_trigger(b, &t, &err) == BLVL_OK);
    CHECK(blvl_bake_add_spawn(b, (blvl_Vec3){0, 24, 0}, 180, "info_player_deathmatch", "red", 1,
                              &err) == BLVL_OK);
    blvl_bake_hurt h = {
        "trigger_hurt", blvl_HurtKind_Damage, {0, -64, 0}, {64, -32, 64}, NULL, 0, 10, 0.5f};
    CHECK(blvl_bake_add_hurt(b, &h, &err) == BLVL_OK);
    blvl_bake_set_kill_y(b, -2048);
    CHECK(blvl_bake_add_site(b, "A", blvl_SiteKind_Bombsite, (blvl_Vec3){0, 0, 0},
                             (blvl_Vec3){128, 64, 128}, &err) == BLVL_OK);
    CHECK(blvl_bake_add_camera(b, "thumb", blvl_CameraPurpose_Thumbnail, (blvl_Vec3){0, 64, 0}, 45,
                               -10, 0, 0, &err) == BLVL_OK);
    blvl_bake_set_ambient(b, (blvl_Vec3){0.1f, 0.2f, 0.3f});
    blvl_bake_set_sun(b, (blvl_Vec3){0, 1, 0}, (blvl_Vec3){1, 0.9f, 0.8f}, 150);
    blvl_bake_light l = {
        blvl_PunctualKind_Spot, {0, 96, 0}, {0, -1, 0}, {1, 1, 1}, 300, 512, 20, 40, true};
    CHECK(blvl_bake_add_light(b, &l, &err) == BLVL_OK);
    uint32_t fog;
    CHECK(blvl_bake_add_fog_volume(b, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){64, 64, 64},
                                   (blvl_Vec3){0.5f, 0.5f, 0.5f}, 256, &fog, &err) == BLVL_OK);
    return b;
}

static void check_sim(blvl_level *level) {
    blvl_error err;
    blvl_bytes by = {0};
    blvl_Sim s = {0};
    CHECK(blvl_level_sim(level, &by, &s, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Sim_colliders_len(s), 3);
    CHECK_EQ_INT(blvl_Sim_collider_sources_len(s), 2);
    blvl_ColliderSource cs0 = blvl_Sim_collider_sources_at(s, 0);
    CHECK_EQ_INT(blvl_ColliderSource_kind(cs0), blvl_ColliderSourceKind_Entity);
    CHECK(streq(blvl_ColliderSource_name(cs0), "door1"));
    CHECK_EQ_INT(blvl_ColliderSource_entity(cs0), 1);
    blvl_ColliderSource cs1 = blvl_Sim_collider_sources_at(s, 1);
    CHECK_EQ_INT(blvl_ColliderSource_kind(cs1), blvl_ColliderSourceKind_World);
    CHECK(!blvl_ColliderSource_name_present(cs1));
    CHECK_EQ_INT(blvl_ColliderSource_entity(cs1), NONE);
    const uint32_t want_src[3] = {0, 1, 0}, want_door[3] = {0, NONE, 0}, want_flags[3] = {0, 48, 0};
    for (uint32_t i = 0; i < 3; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(s, i);
        CHECK_EQ_INT(blvl_Collider_source(c), want_src[i]);
        CHECK_EQ_INT(blvl_Collider_door(c), want_door[i]);
        CHECK_EQ_INT(blvl_Collider_flags(c), want_flags[i]);
        CHECK_EQ_INT(blvl_Collider_shape_type(c), blvl_Shape_Planes);
        CHECK_EQ_INT(blvl_Planes_planes_len(blvl_Collider_shape_as_Planes(c)), 6);
    }
    CHECK(veq(blvl_Collider_lo(blvl_Sim_colliders_at(s, 1)), -512, -16, -512));
    CHECK(veq(blvl_Collider_hi(blvl_Sim_colliders_at(s, 1)), 512, 0, 512));
    CHECK_EQ_INT(blvl_Sim_doors_len(s), 1);
    blvl_Door d = blvl_Sim_doors_at(s, 0);
    CHECK(streq(blvl_Door_name(d), "door1"));
    CHECK(veq(blvl_Door_lo(d), 0, 0, 0)); /* the union of colliders 0 and 2 */
    CHECK(veq(blvl_Door_hi(d), 16, 100, 64));
    CHECK(veq(blvl_Door_direction(d), 0, 1, 0));
    CHECK(blvl_Door_distance(d) == 96 && blvl_Door_wait(d) == -1 && blvl_Door_speed(d) == 100);
    CHECK_EQ_INT(blvl_Sim_triggers_len(s), 2);
    blvl_Trigger t0 = blvl_Sim_triggers_at(s, 0), t1 = blvl_Sim_triggers_at(s, 1);
    CHECK_EQ_INT(blvl_Trigger_kind(t0), blvl_TriggerKind_Push);
    CHECK(veq(blvl_Trigger_velocity(t0), 0, 800, 0));
    CHECK_EQ_INT(blvl_Trigger_planes_len(t0), 1);
    CHECK(blvl_Trigger_planes_at(t0, 0).dist == 64);
    CHECK_EQ_INT(blvl_Trigger_kind(t1), blvl_TriggerKind_Teleport);
    CHECK_EQ_INT(blvl_Trigger_teleport_dest(t1), 0);
    CHECK_EQ_INT(blvl_Trigger_gametypes(t1), 3);
    CHECK_EQ_INT(blvl_Sim_teleport_dests_len(s), 1);
    blvl_TeleportDest td = blvl_Sim_teleport_dests_at(s, 0);
    CHECK(streq(blvl_TeleportDest_name(td), "dest1") && blvl_TeleportDest_yaw(td) == 90);
    CHECK(veq(blvl_TeleportDest_position(td), 100, 24, -100));
    CHECK_EQ_INT(blvl_Sim_spawns_len(s), 1);
    blvl_Spawn sp = blvl_Sim_spawns_at(s, 0);
    CHECK(streq(blvl_Spawn_kind(sp), "info_player_deathmatch"));
    CHECK(streq(blvl_Spawn_team(sp), "red"));
    CHECK(blvl_Spawn_yaw(sp) == 180 && blvl_Spawn_gametypes(sp) == 1);
    CHECK_EQ_INT(blvl_Sim_hurt_volumes_len(s), 1);
    blvl_HurtVolume hv = blvl_Sim_hurt_volumes_at(s, 0);
    CHECK(streq(blvl_HurtVolume_name(hv), "trigger_hurt"));
    CHECK(blvl_HurtVolume_kind(hv) == blvl_HurtKind_Damage && blvl_HurtVolume_amount(hv) == 10 &&
          blvl_HurtVolume_interval(hv) == 0.5f);
    CHECK(blvl_Sim_kill_y(s) == -2048);
    blvl_bytes_free(&by);
}

static void check_geometry(blvl_level *level) {
    blvl_error err;
    blvl_bytes by = {0};
    blvl_Geometry g = {0};
    CHECK(blvl_level_geometry(level, &by, &g, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Geometry_materials_len(g), 2);
    blvl_Material m0 = blvl_Geometry_materials_at(g, 0), m1 = blvl_Geometry_materials_at(g, 1);
    CHECK(streq(blvl_Material_name(m0), "stone"));
    CHECK_EQ_INT(blvl_Material_texture(m0), 0);
    CHECK(!blvl_Material_water_present(m0));
    CHECK(streq(blvl_Material_name(m1), "water"));
    CHECK(blvl_Material_water_present(m1));
    CHECK(blvl_Material_two_sided(m1) && blvl_Material_blend(m1) == blvl_BlendMode_Alpha);
    CHECK(blvl_Material_depth_write(m1) && blvl_Material_sort(m1) == 3);
    CHECK_EQ_INT(blvl_Geometry_batches_len(g), 2);
    CHECK_EQ_INT(blvl_Batch_material(blvl_Geometry_batches_at(g, 0)), 0); /* opaque first */
    CHECK_EQ_INT(blvl_Batch_material(blvl_Geometry_batches_at(g, 1)), 1);
    CHECK_EQ_INT(blvl_Geometry_vertices_len(g), 8);
    for (uint32_t i = 0; i < blvl_Geometry_vertices_len(g); i++) {
        blvl_Vertex v = blvl_Geometry_vertices_at(g, i);
        CHECK(v.tangent.x == 32767 && v.tangent.y == 0 && v.tangent.z == 0 && v.tangent.w == 32767);
        CHECK(v.color.r == 255 && v.color.a == 255);
    }
    /* The opaque quad (y = 10) comes first. */
    CHECK(blvl_Geometry_vertices_at(g, 0).position.y == 10);
    CHECK(blvl_Geometry_vertices_at(g, 4).position.y == 0);
    CHECK_EQ_INT(blvl_Geometry_indices_at(g, 6), 4);
    blvl_bytes_free(&by);
}

static void check_textures(blvl_level *level) {
    blvl_error err;
    blvl_bytes by = {0};
    blvl_Textures t = {0};
    CHECK(blvl_level_textures(level, &by, &t, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Textures_images_len(t), 2);
    blvl_Image im = blvl_Textures_images_at(t, 0);
    CHECK(streq(blvl_Image_name(im), "textures/stone"));
    CHECK(blvl_Image_width(im) == 4 && blvl_Image_height(im) == 3);
    CHECK(blvl_Image_encoding(im) == blvl_ImageEncoding_Png);
    CHECK(blvl_Image_color_space(im) == blvl_ColorSpace_Srgb);
    blvl_fb_vec png = blvl_Image_data_vec(im);
    int w = 0, h = 0, n = 0;
    uint8_t *dec = stbi_load_from_memory(png.data, (int)png.len, &w, &h, &n, 4);
    CHECK(dec != NULL);
    CHECK(w == 4 && h == 3 && n == 4);
    CHECK(dec && memcmp(dec, pixels, sizeof pixels) == 0);
    stbi_image_free(dec);
    blvl_Image raw = blvl_Textures_images_at(t, 1);
    CHECK(blvl_Image_encoding(raw) == blvl_ImageEncoding_Rgba8);
    blvl_fb_vec rv = blvl_Image_data_vec(raw);
    CHECK(rv.len == 16 && rv.data[0] == 1 && rv.data[15] == 16);
    blvl_bytes_free(&by);
}

static void check_rest(blvl_level *level) {
    blvl_error err;
    blvl_bytes by = {0};
    blvl_Meta m = {0};
    CHECK(blvl_level_meta(level, &by, &m, &err) == BLVL_OK);
    CHECK(streq(blvl_Meta_name(m), "Crossing") && streq(blvl_Meta_author(m), "someone"));
    CHECK(streq(blvl_Meta_description(m), "two rooms"));
    CHECK(streq(blvl_Meta_tool(m), "blvl " BLVL_VERSION_STRING));
    CHECK(blvl_Meta_created(m) == 1700000000u && blvl_Meta_engine(m) == blvl_Engine_Hmap);
    blvl_bytes_free(&by);

    blvl_Lighting l = {0};
    CHECK(blvl_level_lighting(level, &by, &l, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Lighting_profiles_len(l), 1);
    blvl_LightingProfile p = blvl_Lighting_profiles_at(l, 0);
    CHECK(streq(blvl_LightingProfile_name(p), "authored"));
    CHECK(veq(blvl_LightingProfile_ambient(p), 0.1f, 0.2f, 0.3f));
    CHECK(blvl_LightingProfile_sun_present(p));
    blvl_Sun sun = blvl_LightingProfile_sun(p);
    CHECK(veq(sun.direction, 0, 1, 0) && veq(sun.color, 1, 0.9f, 0.8f) && sun.intensity == 150);
    CHECK_EQ_INT(blvl_Lighting_punctual_lights_len(l), 1);
    blvl_PunctualLight pl = blvl_Lighting_punctual_lights_at(l, 0);
    CHECK(blvl_PunctualLight_kind(pl) == blvl_PunctualKind_Spot);
    CHECK(blvl_PunctualLight_range(pl) == 512 && blvl_PunctualLight_outer_cone(pl) == 40);
    CHECK(blvl_PunctualLight_baked_diffuse(pl));
    CHECK_EQ_INT(blvl_Lighting_fog_volumes_len(l), 1);
    CHECK(blvl_FogVolume_depth(blvl_Lighting_fog_volumes_at(l, 0)) == 256);
    blvl_bytes_free(&by);

    blvl_Entities e = {0};
    CHECK(blvl_level_entities(level, &by, &e, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Entities_entities_len(e), 2);
    blvl_Entity e0 = blvl_Entities_entities_at(e, 0);
    CHECK(streq(blvl_Entity_classname(e0), "worldspawn"));
    CHECK_EQ_INT(blvl_Entity_pairs_len(e0), 2);
    CHECK(streq(blvl_KeyValue_value(blvl_Entity_pairs_at(e0, 1)), "again"));
    CHECK(streq(blvl_KeyValue_key(blvl_Entity_pairs_at(blvl_Entities_entities_at(e, 1), 0)),
                "targetname"));
    blvl_bytes_free(&by);

    blvl_Sites st = {0};
    CHECK(blvl_level_sites(level, &by, &st, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Sites_sites_len(st), 1);
    CHECK(streq(blvl_Site_name(blvl_Sites_sites_at(st, 0)), "A"));
    CHECK(veq(blvl_Site_hi(blvl_Sites_sites_at(st, 0)), 128, 64, 128));
    blvl_bytes_free(&by);

    blvl_Cameras cm = {0};
    CHECK(blvl_level_cameras(level, &by, &cm, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_Cameras_cameras_len(cm), 1);
    blvl_Camera c = blvl_Cameras_cameras_at(cm, 0);
    CHECK(streq(blvl_Camera_name(c), "thumb") && blvl_Camera_yaw(c) == 45);
    CHECK(blvl_Camera_pitch(c) == -10 && blvl_Camera_fov_x(c) == 90);
    blvl_bytes_free(&by);
}

static void check_symbols(const uint8_t *lv, const uint8_t *sy, size_t ss) {
    blvl_error err;
    CHECK(blvl_Symbols_verify(sy, ss, &err) == BLVL_OK);
    CHECK(blvl_section_verify_bytes("bsym", sy, ss, NULL, &err) == BLVL_OK);
    CHECK(memcmp(sy + 4, "BSYM", 4) == 0);
    blvl_Symbols s = blvl_Symbols_root(sy);
    CHECK_EQ_INT(blvl_Symbols_level_len(s), 16);
    for (uint32_t i = 0; i < 16 && i < blvl_Symbols_level_len(s); i++)
        CHECK(blvl_Symbols_level_at(s, i) == lv[48 + i]);
    CHECK_EQ_INT(blvl_Symbols_version(s), 1);
    CHECK_EQ_INT(blvl_Symbols_colliders_len(s), 3);
    CHECK_EQ_INT(blvl_Symbols_colliders_at(s, 0), 0);
    CHECK_EQ_INT(blvl_Symbols_colliders_at(s, 1), NONE);
    CHECK_EQ_INT(blvl_Symbols_colliders_at(s, 2), 0);
    CHECK_EQ_INT(blvl_Symbols_sources_len(s), 2);
    blvl_SymbolSource s0 = blvl_Symbols_sources_at(s, 0), s1 = blvl_Symbols_sources_at(s, 1);
    CHECK(s0.kind == blvl_SourceKind_Brush && s0.index == 42 && s0.contents_flags == 1 &&
          s0.entity == 1 && s0.material == NONE);
    CHECK(s1.kind == blvl_SourceKind_Face && s1.index == 3 && s1.surface_flags == 8 &&
          s1.entity == 0 && s1.material == 0);
    /* The stone quad (source 1) first, then the water quad (no source). */
    CHECK_EQ_INT(blvl_Symbols_tri_runs_len(s), 2);
    CHECK(blvl_Symbols_tri_runs_at(s, 0).first_tri == 0 &&
          blvl_Symbols_tri_runs_at(s, 0).source == 1);
    CHECK(blvl_Symbols_tri_runs_at(s, 1).first_tri == 2 &&
          blvl_Symbols_tri_runs_at(s, 1).source == NONE);
    CHECK_EQ_INT(blvl_Symbols_materials_len(s), 2);
    blvl_SymbolMaterial m0 = blvl_Symbols_materials_at(s, 0);
    CHECK(streq(blvl_SymbolMaterial_name(m0), "Stone_01"));
    CHECK(streq(blvl_SymbolMaterial_texture(m0), "tex/stone.png"));
    CHECK_EQ_INT(blvl_SymbolMaterial_baked(m0), 0);
    blvl_SymbolMaterial m1 = blvl_Symbols_materials_at(s, 1);
    CHECK(streq(blvl_SymbolMaterial_name(m1), "water"));
    CHECK_EQ_INT(blvl_SymbolMaterial_baked(m1), 1);

    /* flatc, which knows nothing of blvl, reads the same facts. */
    char dir[] = "/tmp/test_bake_write.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/level.bsym", dir);
    CHECK(test_spit(path, sy, ss) == 0);
    const char *src = getenv("BLVL_SRC") ? getenv("BLVL_SRC") : ".";
    snprintf(cmd, sizeof cmd,
             "flatc --json --strict-json --raw-binary -o %s %s/schema/bsym.fbs -- %s", dir, src,
             path);
    CHECK(test_run(cmd) == 0);
    snprintf(path, sizeof path, "%s/level.json", dir);
    size_t n = 0;
    char *json = (char *)test_slurp(path, &n);
    CHECK(json != NULL);
    if (json) {
        CHECK(strstr(json, "\"version\": 1") != NULL);
        CHECK(strstr(json, "\"index\": 42") != NULL);
        CHECK(strstr(json, "\"kind\": \"Face\"") != NULL);
        CHECK(strstr(json, "\"name\": \"Stone_01\"") != NULL);
        CHECK(strstr(json, "\"texture\": \"tex/stone.png\"") != NULL);
        CHECK(strstr(json, "\"first_tri\": 2") != NULL);
        CHECK(strstr(json, "\"source\": 4294967295") != NULL);
        free(json);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(test_run(cmd) == 0);
}

/* blvl_bake_set_draft: the same sections but meta (its tool marked), another identity; off again,
 * the release bytes. */
static void check_draft(const void *rel, size_t rel_size) {
    blvl_error err;
    CHECK(blvl_bake_set_draft(NULL, true, &err) == BLVL_E_ARGUMENT);
    blvl_bake *b = make(2);
    CHECK(blvl_bake_set_draft(b, true, &err) == BLVL_OK);
    void *dl = NULL, *again = NULL;
    size_t ds = 0, as = 0;
    CHECK(blvl_bake_write_memory(b, &dl, &ds, NULL, NULL, NULL, &err) == BLVL_OK);
    CHECK(blvl_bake_set_draft(b, false, &err) == BLVL_OK);
    CHECK(blvl_bake_write_memory(b, &again, &as, NULL, NULL, NULL, &err) == BLVL_OK);
    CHECK(as == rel_size && memcmp(again, rel, as) == 0);
    blvl_level *d = NULL, *r = NULL;
    CHECK(blvl_open_memory(&d, dl, ds, NULL, &err) == BLVL_OK);
    CHECK(blvl_open_memory(&r, rel, rel_size, NULL, &err) == BLVL_OK);
    CHECK(blvl_verify(d, &err) == BLVL_OK && blvl_sections_verify(d, &err) == BLVL_OK);
    blvl_info di, ri;
    blvl_get_info(d, &di);
    blvl_get_info(r, &ri);
    CHECK(memcmp(di.identity, ri.identity, sizeof di.identity) != 0);
    CHECK_EQ_INT(blvl_count(d), blvl_count(r));
    for (uint32_t i = 0; i < blvl_count(r); i++) {
        const char *tag = blvl_entry_at(r, i)->tag;
        blvl_bytes x, y;
        const uint8_t *xr = NULL, *yr = NULL;
        CHECK(blvl_level_section(r, tag, &x, &xr, &err) == BLVL_OK);
        CHECK(blvl_level_section(d, tag, &y, &yr, &err) == BLVL_OK);
        if (strcmp(tag, "meta") == 0) {
            blvl_Meta mr, md;
            mr.p_ = xr, md.p_ = yr;
            blvl_fb_str tr = blvl_Meta_tool(mr), td = blvl_Meta_tool(md);
            CHECK(td.len == tr.len + 6 && memcmp(td.ptr, tr.ptr, tr.len) == 0 &&
                  memcmp(td.ptr + tr.len, " draft", 6) == 0);
        } else {
            CHECK(x.size == y.size && memcmp(x.data, y.data, x.size) == 0);
        }
        blvl_bytes_free(&x);
        blvl_bytes_free(&y);
    }
    blvl_close(d);
    blvl_close(r);
    blvl_free(NULL, dl);
    blvl_free(NULL, again);
    blvl_bake_free(b);
}

int main(void) {
    blvl_error err;
    void *lv[3] = {0}, *sy[3] = {0};
    size_t ls[3] = {0}, ss[3] = {0};
    const unsigned threads[3] = {1, 2, 4};
    for (int i = 0; i < 3; i++) {
        blvl_bake *b = make(threads[i]);
        blvl_bake_stats st;
        CHECK(blvl_bake_write_memory(b, &lv[i], &ls[i], &sy[i], &ss[i], &st, &err) == BLVL_OK);
        CHECK(st.colliders == 3 && st.planes == 18 && st.triangles == 4 && st.batches == 2);
        CHECK(st.materials == 2 && st.images == 2 && st.entities == 2);
        CHECK(st.seconds_model >= 0 && st.seconds_compress >= 0);
        blvl_bake_free(b);
    }
    for (int i = 1; i < 3; i++) {
        CHECK(ls[i] == ls[0] && memcmp(lv[i], lv[0], ls[0]) == 0);
        CHECK(ss[i] == ss[0] && memcmp(sy[i], sy[0], ss[0]) == 0);
    }

    blvl_level *level = NULL;
    CHECK(blvl_open_memory(&level, lv[0], ls[0], NULL, &err) == BLVL_OK);
    CHECK(blvl_verify(level, &err) == BLVL_OK);
    CHECK(blvl_sections_verify(level, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_count(level), 8);
    /* Every entry a core section; the check_* functions below read each of the eight. */
    for (uint32_t i = 0; i < blvl_count(level); i++) {
        bool core = false;
        CHECK(blvl_tag_valid(blvl_entry_at(level, i)->tag, &core) && core);
    }
    check_sim(level);
    check_geometry(level);
    check_textures(level);
    check_rest(level);
    check_symbols(lv[0], sy[0], ss[0]);
    blvl_close(level);
    check_draft(lv[0], ls[0]);

    /* An empty model: meta (the tool alone) and an empty sim, nothing else. */
    blvl_bake *e = NULL;
    CHECK(blvl_bake_new(&e, NULL, &err) == BLVL_OK);
    void *el = NULL;
    size_t es = 0;
    CHECK(blvl_bake_write_memory(e, &el, &es, NULL, NULL, NULL, &err) == BLVL_OK);
    CHECK(blvl_open_memory(&level, el, es, NULL, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_count(level), 2);
    CHECK(blvl_sections_verify(level, &err) == BLVL_OK);
    blvl_close(level);
    blvl_free(NULL, el);
    /* Lighting alone from an ambient. */
    blvl_bake_set_ambient(e, (blvl_Vec3){1, 1, 1});
    CHECK(blvl_bake_write_memory(e, &el, &es, NULL, NULL, NULL, &err) == BLVL_OK);
    CHECK(blvl_open_memory(&level, el, es, NULL, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_count(level), 3);
    CHECK(blvl_find(level, "lighting") != NULL);
    blvl_close(level);
    blvl_free(NULL, el);
    blvl_bake_free(e);

    for (int i = 0; i < 3; i++) {
        blvl_free(NULL, lv[i]);
        blvl_free(NULL, sy[i]);
    }
    return check_report("test_bake_write");
}
