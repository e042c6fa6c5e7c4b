/* blvl probe on a level built here with known walls (docs/PROBE.md):
 *
 * - a closed room (inside -256..256 in x and z, 0..256 in y), each of its six walls a box
 *   collider and an inward quad with a material of its own, and six cameras at the room's
 *   centre with yaw 0, 90, -90, 180 and pitch +45, -45: each camera's centre ray must hit the
 *   wall the convention says (yaw 0 looks down -Z, positive yaw toward -X, positive pitch up),
 *   at the distance worked out by hand, in the colliders and in the triangles, and the rendered
 *   centre pixel must be that wall's normal colour;
 * - a free-standing wall far from the room, seen from 1000 qu: the view ray hits it at 1000
 *   with its material and (from the bake's .bsym) its source brush and face; `blvl probe
 *   --json --png` of that pose parses in python3, and Pillow reads the wall's colour at the
 *   centre pixel and the background colour in the corners;
 * - usage errors exit 2, an unknown camera exits 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/bake.h"
#include "blvl/probe.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/cameras.h"
#include "blvl/sections/meta.h"
#include "check.h"
#include "files.h"

#define ROOM 256.0f
#define EYE_Y 128.0f
/* the free-standing wall: z = FAR_Z facing +Z, x -100..100, y 0..256; seen from FAR_Z + 1000 */
#define FAR_Z -3000.0f
#define FAR_SEEN (FAR_Z + 1000.0f)
#define WALL_BRUSH 7u /* its source brush number in the "source map" */
#define WALL_FACE 42u

static char dir[256], level_path[300], bsym_path[300];

/* A quad facing `n`, wound counter-clockwise seen from the front whatever order it is given. */
static void add_quad(blvl_bake *b, const float c[4][3], const float n[3], uint32_t material,
                     uint32_t source) {
    blvl_bake_vertex v[4];
    memset(v, 0, sizeof v);
    for (int i = 0; i < 4; i++) {
        memcpy(v[i].position, c[i], sizeof v[i].position);
        memcpy(v[i].normal, n, sizeof v[i].normal);
        v[i].uv[0] = (float)(i == 1 || i == 2);
        v[i].uv[1] = (float)(i >= 2);
        memset(v[i].color, 255, 4);
    }
    float e1[3], e2[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = c[1][k] - c[0][k];
        e2[k] = c[2][k] - c[0][k];
    }
    float cr[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    bool ccw = cr[0] * n[0] + cr[1] * n[1] + cr[2] * n[2] > 0;
    uint32_t idx_ccw[6] = {0, 1, 2, 0, 2, 3}, idx_cw[6] = {0, 2, 1, 0, 3, 2};
    blvl_bake_surface s;
    blvl_bake_surface_init(&s);
    s.vertices = v;
    s.vertex_count = 4;
    s.indices = ccw ? idx_ccw : idx_cw;
    s.index_count = 6;
    s.material = material;
    s.source = source;
    CHECK(blvl_bake_add_surface(b, &s, NULL) == BLVL_OK);
}

typedef struct wall {
    const char *name;
    float n[3];         /* inward normal */
    float lo[3], hi[3]; /* the box collider */
    float quad[4][3];   /* the inward face */
} wall;

static const float T = 16; /* wall thickness */
static wall walls[6];

static void make_walls(void) {
    const float R = ROOM, H = 256;
    wall w[6] = {
        {"room/north",
         {0, 0, 1},
         {-R, 0, -R - T},
         {R, H, -R},
         {{-R, 0, -R}, {R, 0, -R}, {R, H, -R}, {-R, H, -R}}},
        {"room/south",
         {0, 0, -1},
         {-R, 0, R},
         {R, H, R + T},
         {{-R, 0, R}, {R, 0, R}, {R, H, R}, {-R, H, R}}},
        {"room/west",
         {1, 0, 0},
         {-R - T, 0, -R},
         {-R, H, R},
         {{-R, 0, -R}, {-R, 0, R}, {-R, H, R}, {-R, H, -R}}},
        {"room/east",
         {-1, 0, 0},
         {R, 0, -R},
         {R + T, H, R},
         {{R, 0, -R}, {R, 0, R}, {R, H, R}, {R, H, -R}}},
        {"room/floor",
         {0, 1, 0},
         {-R, -T, -R},
         {R, 0, R},
         {{-R, 0, -R}, {R, 0, -R}, {R, 0, R}, {-R, 0, R}}},
        {"room/ceiling",
         {0, -1, 0},
         {-R, H, -R},
         {R, H + T, R},
         {{-R, H, -R}, {R, H, -R}, {R, H, R}, {-R, H, R}}},
    };
    memcpy(walls, w, sizeof walls);
}

static blvl_Vec3 v3(const float f[3]) {
    return (blvl_Vec3){f[0], f[1], f[2]};
}

static int build(void) {
    blvl_bake *b;
    blvl_error err;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    blvl_bake_meta meta = {"probe test", NULL, NULL, 0, blvl_Engine_Hmap};
    CHECK(blvl_bake_set_meta(b, &meta, &err) == BLVL_OK);
    uint32_t ent;
    CHECK(blvl_bake_add_entity(b, "worldspawn", NULL, 0, &ent, &err) == BLVL_OK);
    make_walls();
    for (int i = 0; i < 6; i++) {
        blvl_bake_material m;
        blvl_bake_material_init(&m);
        m.name = walls[i].name;
        uint32_t mi, ci;
        CHECK(blvl_bake_add_material(b, &m, &mi, &err) == BLVL_OK);
        blvl_bake_collider c;
        blvl_bake_collider_init(&c);
        c.material = mi;
        CHECK(blvl_bake_add_box(b, &c, v3(walls[i].lo), v3(walls[i].hi), &ci, &err) == BLVL_OK);
        add_quad(b, walls[i].quad, walls[i].n, mi, BLVL_BAKE_NONE);
    }
    /* the far wall, with its sources */
    blvl_bake_material m;
    blvl_bake_material_init(&m);
    m.name = "far/known";
    m.source_shader = "scripts/probe.shader";
    uint8_t texels[4 * 4 * 4];
    for (int i = 0; i < 16; i++)
        memcpy(texels + 4 * i, (const uint8_t[4]){200, 40, 40, 255}, 4);
    CHECK(blvl_bake_add_image_rgba8(b, "far/red", 4, 4, texels, true, &m.texture, &err) == BLVL_OK);
    uint32_t mi, brush_src, face_src, ci;
    CHECK(blvl_bake_add_material(b, &m, &mi, &err) == BLVL_OK);
    blvl_bake_source s = {blvl_SourceKind_Brush, WALL_BRUSH, 0, 1, ent, mi};
    CHECK(blvl_bake_add_source(b, &s, &brush_src, &err) == BLVL_OK);
    s.kind = blvl_SourceKind_Face;
    s.index = WALL_FACE;
    CHECK(blvl_bake_add_source(b, &s, &face_src, &err) == BLVL_OK);
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    c.material = mi;
    c.symbol = brush_src;
    CHECK(blvl_bake_add_box(b, &c, (blvl_Vec3){-100, 0, FAR_Z - T}, (blvl_Vec3){100, 256, FAR_Z},
                            &ci, &err) == BLVL_OK);
    const float fq[4][3] = {
        {-100, 0, FAR_Z}, {100, 0, FAR_Z}, {100, 256, FAR_Z}, {-100, 256, FAR_Z}};
    const float fn[3] = {0, 0, 1};
    add_quad(b, fq, fn, mi, face_src);
    /* a spawn on the room's floor, and the six cameras at the room's centre */
    CHECK(blvl_bake_add_spawn(b, (blvl_Vec3){64, 24, 0}, 0, "info_player_start", NULL,
                              BLVL_BAKE_ALL_GAMETYPES, &err) == BLVL_OK);
    const blvl_Vec3 eye = {0, EYE_Y, 0};
    CHECK(blvl_bake_add_camera(b, "yaw0", blvl_CameraPurpose_Thumbnail, eye, 0, 0, 0, 90, &err) ==
          BLVL_OK);
    CHECK(blvl_bake_add_camera(b, "yaw90", blvl_CameraPurpose_Overview, eye, 90, 0, 0, 90, &err) ==
          BLVL_OK);
    CHECK(blvl_bake_add_camera(b, "yawm90", blvl_CameraPurpose_Menu, eye, -90, 0, 0, 90, &err) ==
          BLVL_OK);
    CHECK(blvl_bake_add_camera(b, "yaw180", blvl_CameraPurpose_Other, eye, 180, 0, 0, 90, &err) ==
          BLVL_OK);
    CHECK(blvl_bake_add_camera(b, "up45", blvl_CameraPurpose_Other, eye, 0, 45, 0, 90, &err) ==
          BLVL_OK);
    CHECK(blvl_bake_add_camera(b, "down45", blvl_CameraPurpose_Other, eye, 0, -45, 0, 90, &err) ==
          BLVL_OK);
    blvl_status st = blvl_bake_write_file(b, level_path, bsym_path, NULL, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "bake: %s\n", err.message);
    CHECK(st == BLVL_OK);
    blvl_bake_free(b);
    return st == BLVL_OK ? 0 : -1;
}

static bool near(float a, float b, float tol) {
    return fabsf(a - b) <= tol;
}

/* The camera's centre ray hits `want` at `dist`; the rendered centre pixel is its normal colour. */
static void camera_case(blvl_probe *p, const char *cam, int want, float dist) {
    blvl_probe_pose pose;
    bool framed = true;
    blvl_error err;
    CHECK(blvl_probe_camera(p, cam, &pose, &framed, &err) == BLVL_OK);
    CHECK(!framed);
    blvl_probe_result r;
    blvl_probe_look(p, &pose, &r);
    const char *got = blvl_probe_material_name(p, r.tri.material);
    if (strcmp(got, walls[want].name) != 0)
        fprintf(stderr, "camera %s: hit '%s', expected '%s'\n", cam, got, walls[want].name);
    CHECK(r.tri.hit && strcmp(got, walls[want].name) == 0);
    CHECK(near(r.tri.distance, dist, 0.01f));
    CHECK(r.tri.front);
    CHECK(r.view.collider != BLVL_TRACE_NONE);
    CHECK(strcmp(blvl_probe_material_name(p, r.view.material), walls[want].name) == 0);
    CHECK(near(r.view_distance, dist, 0.1f));
    for (int k = 0; k < 3; k++)
        CHECK(near(r.tri.normal[k], walls[want].n[k], 1e-4f));
    uint8_t px[64 * 48 * 4];
    CHECK(blvl_probe_render(p, &pose, 64, 48, 0, px, &err) == BLVL_OK);
    const uint8_t *c = px + (24 * 64 + 32) * 4;
    for (int k = 0; k < 3; k++) {
        /* docs/PROBE.md: normal as colour times the headlight 0.6 + 0.4 |n . view| */
        float lit = 0.6f + 0.4f * fabsf(walls[want].n[0] * r.dir[0] + walls[want].n[1] * r.dir[1] +
                                        walls[want].n[2] * r.dir[2]);
        int expect = (int)((walls[want].n[k] * 0.5f + 0.5f) * lit * 255.0f + 0.5f);
        if (abs(c[k] - expect) > 2)
            fprintf(stderr, "camera %s: centre channel %d is %d, expected %d\n", cam, k, c[k],
                    expect);
        CHECK(abs(c[k] - expect) <= 2);
    }
}

static void library_checks(void) {
    blvl_level *lv;
    blvl_error err;
    CHECK(blvl_open_file(&lv, level_path, NULL, &err) == BLVL_OK);
    blvl_probe *p;
    CHECK(blvl_probe_new(&p, lv, NULL, &err) == BLVL_OK);
    /* 0 north (-Z), 1 south (+Z), 2 west (-X), 3 east (+X), 4 floor, 5 ceiling */
    float diag = (ROOM - EYE_Y) * sqrtf(2.0f); /* pitch 45: 128 up or down along a diagonal */
    camera_case(p, "yaw0", 0, ROOM);
    camera_case(p, "yaw90", 2, ROOM);
    camera_case(p, "yawm90", 3, ROOM);
    camera_case(p, "yaw180", 1, ROOM);
    camera_case(p, "up45", 5, diag);
    camera_case(p, "down45", 4, EYE_Y * sqrtf(2.0f));
    (void)diag;
    /* a purpose finds the first camera with it */
    blvl_probe_pose pose;
    CHECK(blvl_probe_camera(p, "overview", &pose, NULL, &err) == BLVL_OK);
    CHECK(pose.yaw == 90);
    CHECK(blvl_probe_camera(p, "nosuch", &pose, NULL, &err) == BLVL_E_NOT_FOUND);

    /* the collider outlines (wire.c): from the room's centre the solid boxes' face polygons have
     * edges in view, drawn in the solid colour; every other pixel is the plain picture's */
    static uint8_t plain[64 * 48 * 4], wire[64 * 48 * 4];
    CHECK(blvl_probe_camera(p, "yaw0", &pose, NULL, &err) == BLVL_OK);
    CHECK(blvl_probe_render(p, &pose, 64, 48, 0, plain, &err) == BLVL_OK);
    CHECK(blvl_probe_render(p, &pose, 64, 48, BLVL_PROBE_RENDER_COLLIDERS, wire, &err) == BLVL_OK);
    int outlined = 0, other = 0;
    for (size_t i = 0; i < 64 * 48; i++) {
        const uint8_t *w = wire + 4 * i;
        if (memcmp(w, plain + 4 * i, 4) == 0)
            continue;
        if (w[0] == 255 && w[1] == 220 && w[2] == 0)
            outlined++;
        else
            other++;
    }
    CHECK(outlined > 0 && other == 0);

    /* standing in the room: eye 128 up, feet 50 below it; the floor 78 - 50 = 28 below the feet
     * less the trace's 1/32; the spawn at (64, 24, 0) from the origin (0, 102, 0) */
    blvl_probe_pose in = {{0, EYE_Y, 0}, 0, 0, 0, 90};
    blvl_probe_result r;
    blvl_probe_look(p, &in, &r);
    CHECK(r.at_eye.count == 0 && r.at_feet.count == 0);
    CHECK(near(r.at_feet.point[1], EYE_Y - 50, 1e-4f));
    CHECK(r.floor_hit && near(r.floor_distance, EYE_Y - 50 - BLVL_TRACE_DIST_EPSILON, 0.01f));
    CHECK(near(r.floor_normal[1], 1, 1e-4f));
    CHECK(r.spawn == 0 && near(r.spawn_distance, sqrtf(64 * 64 + 78 * 78), 0.01f));
    CHECK(strcmp(blvl_probe_spawn_kind(p, r.spawn), "info_player_start") == 0);
    /* inside the floor brush: the feet are in solid */
    blvl_probe_pose low = {{0, 40, 0}, 0, 0, 0, 90};
    blvl_probe_look(p, &low, &r);
    CHECK(r.at_feet.count == 1 && r.at_eye.count == 0);

    /* the far wall from 1000 qu */
    blvl_probe_pose far = {{0, EYE_Y, FAR_SEEN}, 0, 0, 0, 90};
    blvl_probe_look(p, &far, &r);
    CHECK(r.tri.hit && near(r.tri.distance, 1000, 0.01f));
    CHECK(strcmp(blvl_probe_material_name(p, r.tri.material), "far/known") == 0);
    CHECK(near(r.view_distance, 1000, 0.1f));
    CHECK(strcmp(blvl_probe_material_name(p, r.view.material), "far/known") == 0);
    blvl_probe_free(p);
    blvl_close(lv);
}

/* A level without cameras is framed whole: its centre ray meets the middle of its bounds (here
 * the middle of a lone wall facing +Z, seen from the +X +Y +Z side). */
static void framing_check(void) {
    blvl_bake *b;
    blvl_error err;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    blvl_bake_meta meta = {"lone wall", NULL, NULL, 0, blvl_Engine_Hmap};
    CHECK(blvl_bake_set_meta(b, &meta, &err) == BLVL_OK);
    const float q[4][3] = {{-100, 0, 0}, {100, 0, 0}, {100, 256, 0}, {-100, 256, 0}},
                n[3] = {0, 0, 1};
    add_quad(b, q, n, BLVL_BAKE_NONE, BLVL_BAKE_NONE);
    void *lvb = NULL;
    size_t lsz = 0;
    CHECK(blvl_bake_write_memory(b, &lvb, &lsz, NULL, NULL, NULL, &err) == BLVL_OK);
    blvl_bake_free(b);
    blvl_level *lv;
    blvl_probe *p;
    if (!lvb || blvl_open_memory(&lv, lvb, lsz, NULL, &err) != BLVL_OK) {
        CHECK(0);
        return;
    }
    CHECK(blvl_probe_new(&p, lv, NULL, &err) == BLVL_OK);
    blvl_probe_pose pose;
    bool framed = false;
    CHECK(blvl_probe_camera(p, "thumbnail", &pose, &framed, &err) == BLVL_OK && framed);
    CHECK(pose.pos[0] > 100 && pose.pos[1] > 256 && pose.pos[2] > 0);
    blvl_probe_result r;
    blvl_probe_look(p, &pose, &r);
    CHECK(r.tri.hit && r.tri.front && near(r.tri.point[0], 0, 0.01f) &&
          near(r.tri.point[1], 128, 0.01f) && near(r.tri.point[2], 0, 0.01f));
    blvl_probe_free(p);
    blvl_close(lv);
    blvl_free(NULL, lvb);
}

/* ---- damaged sections: sim and geometry refuse the level, the others are gone on without -- */

/* The room level with one bit flipped in the middle of section `tag`'s stored bytes (its digest
 * fails); malloc'd, *size bytes. */
static uint8_t *room_flipped(const char *tag, size_t *size) {
    uint8_t *bytes = test_slurp(level_path, size);
    blvl_level *lv;
    blvl_error err;
    if (!bytes || blvl_open_memory(&lv, bytes, *size, NULL, &err) != BLVL_OK) {
        CHECK(0);
        free(bytes);
        return NULL;
    }
    const blvl_entry *e = blvl_find(lv, tag);
    CHECK(e != NULL);
    uint64_t at = e ? e->offset + e->packed_size / 2 : 0;
    blvl_close(lv);
    if (at < *size)
        bytes[at] ^= 0x10;
    return bytes;
}

/* Exactly one damaged section, `tag`, refused by section-digest. */
static void one_damage(const blvl_probe *p, const char *tag) {
    uint32_t n = 99;
    const blvl_probe_damage *d = blvl_probe_damaged(p, &n);
    CHECK_EQ_INT(n, 1);
    if (n == 1 && d) {
        CHECK(strcmp(d[0].section, tag) == 0);
        CHECK(d[0].error.code == BLVL_E_SECTION_DIGEST);
        CHECK(strncmp(d[0].error.message, "section-digest: ", 16) == 0);
    }
}

static void damaged_checks(void) {
    size_t size = 0;
    blvl_level *lv;
    blvl_probe *p;
    blvl_error err;
    uint8_t px[64 * 48 * 4];
    const blvl_probe_pose far = {{0, EYE_Y, FAR_SEEN}, 0, 0, 0, 90};

    /* textures: the probe builds, and says so once the pictures are loaded; the far wall is
     * drawn by its normal instead of its red texels */
    uint8_t *bytes = room_flipped("textures", &size);
    if (bytes && blvl_open_memory(&lv, bytes, size, NULL, &err) == BLVL_OK) {
        CHECK(blvl_probe_new(&p, lv, NULL, &err) == BLVL_OK);
        uint32_t n = 99;
        CHECK(blvl_probe_damaged(p, &n) == NULL && n == 0); /* not read yet */
        CHECK(blvl_probe_load_pictures(p, &err) == BLVL_OK);
        one_damage(p, "textures");
        CHECK(blvl_probe_render(p, &far, 64, 48, 0, px, &err) == BLVL_OK);
        const uint8_t *c = px + (24 * 64 + 32) * 4;
        CHECK(abs(c[0] - 128) <= 2 && abs(c[1] - 128) <= 2 && abs(c[2] - 255) <= 2);
        blvl_probe_free(p);
        blvl_close(lv);
    }
    free(bytes);

    /* cameras: a pose still works; asking for a camera names the section's rule */
    bytes = room_flipped("cameras", &size);
    if (bytes && blvl_open_memory(&lv, bytes, size, NULL, &err) == BLVL_OK) {
        CHECK(blvl_probe_new(&p, lv, NULL, &err) == BLVL_OK);
        one_damage(p, "cameras");
        blvl_probe_pose pose;
        bool framed = true;
        CHECK(blvl_probe_camera(p, "yaw0", &pose, &framed, &err) == BLVL_E_SECTION_DIGEST);
        CHECK(!framed && strstr(err.message, "cameras") && strstr(err.message, "section-digest"));
        blvl_probe_result r;
        blvl_probe_look(p, &far, &r);
        CHECK(r.tri.hit && near(r.tri.distance, 1000, 0.01f));
        blvl_probe_free(p);
        blvl_close(lv);
    }
    free(bytes);

    /* sim and geometry: the probe cannot work without them, the build fails with the rule */
    const char *fatal[] = {"sim", "geometry"};
    for (int i = 0; i < 2; i++) {
        bytes = room_flipped(fatal[i], &size);
        if (bytes && blvl_open_memory(&lv, bytes, size, NULL, &err) == BLVL_OK) {
            CHECK(blvl_probe_new(&p, lv, NULL, &err) == BLVL_E_SECTION_DIGEST);
            CHECK(strncmp(err.message, "section-digest: ", 16) == 0);
            blvl_close(lv);
        }
        free(bytes);
    }
}

/* The CLI on the room with damaged textures: exit 0, a warning on stderr naming the section and
 * the rule, and --json's "damaged" list. */
static void cli_damaged(const char *bin) {
    char cmd[4096], path[320], png[320], js[320], errs[320];
    size_t size = 0;
    uint8_t *bytes = room_flipped("textures", &size);
    snprintf(path, sizeof path, "%s/tex_bad.blvl", dir);
    snprintf(png, sizeof png, "%s/tex_bad.png", dir);
    snprintf(js, sizeof js, "%s/tex_bad.json", dir);
    snprintf(errs, sizeof errs, "%s/tex_bad.err", dir);
    CHECK(bytes && test_spit(path, bytes, size) == 0);
    free(bytes);
    snprintf(cmd, sizeof cmd,
             "'%s' probe '%s' --pose 0 %g %g 0 0 --json --png '%s' --size 64x48 >'%s' 2>'%s' && "
             "grep -q 'warning: section textures is damaged, surfaces are shaded by their normal: "
             "section-digest: ' '%s' && /usr/bin/python3 -c 'import json, sys; "
             "d = json.load(open(sys.argv[1]))[\"damaged\"]; "
             "assert [(x[\"section\"], x[\"rule\"]) for x in d] == [(\"textures\", "
             "\"section-digest\")], d; "
             "assert d[0][\"message\"].startswith(\"section-digest: \"), d' '%s'",
             bin, path, (double)EYE_Y, (double)FAR_SEEN, png, js, errs, errs, js);
    CHECK(test_run(cmd) == 0);
    /* the healthy level: an empty list, no warning */
    snprintf(cmd, sizeof cmd,
             "'%s' probe '%s' --pose 0 %g %g 0 0 --json --png '%s' --size 64x48 >'%s' 2>'%s' && "
             "! grep -q warning '%s' && /usr/bin/python3 -c 'import json, sys; "
             "assert json.load(open(sys.argv[1]))[\"damaged\"] == []' '%s'",
             bin, level_path, (double)EYE_Y, (double)FAR_SEEN, png, js, errs, errs, js);
    CHECK(test_run(cmd) == 0);
}

/* The CLI: JSON through python3's json, the picture through Pillow. */
static void cli_checks(const char *bin) {
    char cmd[4096], png[320], js[320];
    snprintf(png, sizeof png, "%s/far.png", dir);
    snprintf(js, sizeof js, "%s/far.json", dir);
    snprintf(cmd, sizeof cmd,
             "'%s' probe '%s' --pose 0 %g %g 0 0 --symbols '%s' --json --png '%s' --size 320x240 "
             "--no-textures > '%s'",
             bin, level_path, (double)EYE_Y, (double)FAR_SEEN, bsym_path, png, js);
    CHECK(test_run(cmd) == 0);
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 - '%s' '%s' <<'EOF'\n"
             "import json, sys\n"
             "from PIL import Image\n"
             "d = json.load(open(sys.argv[1]))\n"
             "v, g = d['view'], d['geometry']\n"
             "assert v['hit'] == 1 and abs(v['distance'] - 1000) < 0.1, v\n"
             "assert v['material_name'] == 'far/known', v\n"
             "assert v['source']['kind'] == 'brush' and v['source']['index'] == %u, v\n"
             "assert g['hit'] == 1 and abs(g['distance'] - 1000) < 0.01, g\n"
             "assert g['material_name'] == 'far/known', g\n"
             "assert g['source']['kind'] == 'face' and g['source']['index'] == %u, g\n"
             "assert g['source']['material']['shader'] == 'scripts/probe.shader', g\n"
             "im = Image.open(sys.argv[2]).convert('RGB')\n"
             "assert im.size == (320, 240), im.size\n"
             "c = im.getpixel((160, 120))\n"
             "assert all(abs(a - b) <= 2 for a, b in zip(c, (128, 128, 255))), c\n"
             "for xy in ((0, 0), (319, 0), (0, 239), (319, 239)):\n"
             "    assert im.getpixel(xy) == (%u, %u, %u), (xy, im.getpixel(xy))\n"
             "EOF",
             js, png, WALL_BRUSH, WALL_FACE, BLVL_PROBE_BACKGROUND_R, BLVL_PROBE_BACKGROUND_G,
             BLVL_PROBE_BACKGROUND_B);
    CHECK(test_run(cmd) == 0);
    /* textured (the default): the wall's texel, lit by the headlight (1 facing the eye) */
    snprintf(cmd, sizeof cmd,
             "'%s' probe '%s' --pose 0 %g %g 0 0 --png '%s' --size 64x48 >/dev/null && "
             "/usr/bin/python3 -c 'import sys; from PIL import Image; "
             "im = Image.open(sys.argv[1]).convert(\"RGB\"); c = im.getpixel((32, 24)); "
             "assert all(abs(a - b) <= 2 for a, b in zip(c, (200, 40, 40))), c; "
             "assert im.getpixel((0, 0)) == (%u, %u, %u), im.getpixel((0, 0))' '%s'",
             bin, level_path, (double)EYE_Y, (double)FAR_SEEN, png, BLVL_PROBE_BACKGROUND_R,
             BLVL_PROBE_BACKGROUND_G, BLVL_PROBE_BACKGROUND_B, png);
    CHECK(test_run(cmd) == 0);
    /* the text form names the same hit */
    snprintf(cmd, sizeof cmd, "'%s' probe '%s' --camera yaw90 | grep -q 'material_name room/west'",
             bin, level_path);
    CHECK(test_run(cmd) == 0);
    /* usage errors exit 2; an unknown camera is refused (1) */
    const char *bad[] = {"",
                         "--pose 0 0 0 0",
                         "--pose 0 0 0 0 0 --camera yaw0",
                         "--pose 0 0 0 0 x",
                         "--pose 0 0 0 0 0 --size 0x10 --png x.png",
                         "--pose 0 0 0 0 0 --colliders",
                         "--pose 0 0 0 0 0 --fov 0",
                         "--pose 0 0 0 0 0 --bogus"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(cmd, sizeof cmd, "'%s' probe '%s' %s >/dev/null 2>&1", bin, level_path, bad[i]);
        int rc = system(cmd);
        CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
    }
    snprintf(cmd, sizeof cmd, "'%s' probe '%s' --camera nosuch >/dev/null 2>&1", bin, level_path);
    int rc = system(cmd);
    CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 1);
}

int main(void) {
    const char *bin = getenv("BLVL_BIN");
    snprintf(dir, sizeof dir, "%s/blvl_probe_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(level_path, sizeof level_path, "%s/room.blvl", dir);
    snprintf(bsym_path, sizeof bsym_path, "%s/room.bsym", dir);
    if (build() == 0) {
        library_checks();
        framing_check();
        damaged_checks();
        if (!bin)
            fprintf(stderr, "BLVL_BIN unset: the command-line checks are skipped\n");
        else if (system("/usr/bin/python3 -c 'import PIL' 2>/dev/null") != 0)
            fprintf(stderr, "no Pillow: the command-line checks are skipped\n");
        else
            cli_checks(bin);
        if (bin)
            cli_damaged(bin);
    }
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (!getenv("BLVL_PROBE_KEEP") && system(cmd) != 0) /* set it to look at the files */
        fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_probe");
}
