/* The bake's baked light and material extensions (blvl_bake_set_lightmap, _set_light_grid,
 * _set_sky; a material's source_shader, unknown_keywords, vertex_lit, anim, surface_params,
 * emits): a bake with all of them is written and its bytes are checked by Debian's flatc and
 * Pillow (tests/data/bake/q3ext_check.py) against the values handed to the bake; two controls
 * (one lightmap texel changed, one tcmod argument expected wrong) must fail that check. Every
 * refusal changes nothing, a second write gives the same bytes, and a bake without any of them
 * writes no new section or table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "check.h"
#include "files.h"

#define LM_W 4
#define LM_H 4
#define LM_L 2
#define SKY 4
#define GW 3
#define GH 2
#define GL 2
#define CELLS (GW * GH * GL)

static uint8_t lightmap[LM_W * LM_H * LM_L * 4];
static uint8_t sky[SKY * SKY * 6 * 4];
static uint8_t ambient[CELLS * 3], directional[CELLS * 3];
static blvl_Vec3 direction[CELLS];

static void fill_inputs(void) {
    for (size_t i = 0; i < sizeof lightmap; i++)
        lightmap[i] = (i % 4 == 3) ? 255 : (uint8_t)(i * 37 + 11);
    for (size_t i = 0; i < sizeof sky; i++)
        sky[i] = (i % 4 == 3) ? 255 : (uint8_t)(i * 53 + 7);
    for (size_t i = 0; i < sizeof ambient; i++) {
        ambient[i] = (uint8_t)(i * 19 + 3);
        directional[i] = (uint8_t)(250 - i * 7);
    }
    /* Unit vectors, one past 1 (clamped), one zero (no light), and values that land between
     * bytes, so the rounding rule is what decides them. */
    static const float v[][3] = {{0.6f, -0.8f, 0},   {0, 0, 0},          {1, 0, 0},
                                 {0, -1, 0},         {0.3f, 0.4f, 0.5f}, {1.5f, -2, 0.1f},
                                 {0.001f, 0.5f, 0},  {-0.6f, 0, 0.8f},   {0, 0, 1},
                                 {0.2f, 0.2f, 0.2f}, {-1, -1, -1},       {0.7f, 0.7f, 0}};
    for (int i = 0; i < CELLS; i++)
        direction[i] = (blvl_Vec3){v[i][0], v[i][1], v[i][2]};
}

static const char *const unknown[] = {"q3map_lightimage textures/a/b.tga", "qer_trans 0.5",
                                      "q3map_flare flareShader"};
static const char *const params[] = {"nonsolid", "trans", "nolightmap"};
static const blvl_bake_tcmod tcmods[] = {
    {.kind = 3, .args = {0.5f, -0.25f, 0, 0}},
    {.kind = 4, .args = {2, 4, 0, 0}},
    {.kind = 5, .has_wave = true, .wave = {1, 1, 0.125f, 0, 0.5f}},
    {.kind = 6, .args = {-45, 0, 0, 0}},
    {.kind = 2, .args = {0, 0.25f, 0.5f, 0.0625f}},
};
static const uint32_t frames[] = {0, 1, 0};

/* The expectations q3ext_check.py reads: the same values as above, written by hand in the
 * schema's JSON spelling (enum names as flatc prints them). `wrong` changes one. */
static int write_expect(const char *dir, int wrong) {
    char path[512], text[4096];
    snprintf(path, sizeof path, "%s/expect.json", dir);
    int n = snprintf(
        text, sizeof text,
        "{\"lightmap\": {\"width\": %d, \"height\": %d, \"layers\": %d, \"encoding\": \"Gamma8\","
        " \"gain\": 2.0},\n"
        " \"sky\": {\"name\": \"env/sky1\", \"size\": %d},\n"
        " \"grid\": {\"origin\": [-64.0, 32.0, 128.0], \"cell_size\": [64.0, 128.0, 64.0],"
        " \"width\": %d, \"height\": %d, \"layers\": %d, \"encoding\": \"Gamma8\","
        " \"gain\": 2.0},\n"
        " \"material\": {\"shader\": \"scripts/test.shader\","
        " \"unknown\": [\"%s\", \"%s\", \"%s\"],"
        " \"surface_params\": [\"nonsolid\", \"trans\", \"nolightmap\"],"
        " \"emit_color\": [1.0, 0.5, 0.25], \"emit_intensity\": 300.0,"
        " \"tcmods\": [[\"Scroll\", [%s, -0.25, 0.0, 0.0], null],"
        " [\"Scale\", [2.0, 4.0, 0.0, 0.0], null],"
        " [\"Stretch\", [0.0, 0.0, 0.0, 0.0], [\"Sin\", 1.0, 0.125, 0.0, 0.5]],"
        " [\"Rotate\", [-45.0, 0.0, 0.0, 0.0], null],"
        " [\"Turb\", [0.0, 0.25, 0.5, 0.0625], null]],"
        " \"rgb_wave\": [\"Triangle\", 0.5, 0.5, 0.25, 2.0],"
        " \"frames\": [0, 1, 0], \"fps\": 8.0,"
        " \"deform\": [\"Move\", 0.0, [\"Sawtooth\", 0.0, 1.0, 0.0, 0.25], [0.0, 3.0, 0.0],"
        " null],"
        " \"deform3\": [\"Bulge\", 0.0, null, null, [4.0, 2.0, 1.0]]}}\n",
        LM_W, LM_H, LM_L, SKY, GW, GH, GL, unknown[0], unknown[1], unknown[2],
        wrong ? "0.75" : "0.5");
    return n < 0 || (size_t)n >= sizeof text ? 1 : test_spit(path, text, (size_t)n);
}

static void add_materials(blvl_bake *b) {
    blvl_error err;
    uint8_t px[4 * 4] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    CHECK(blvl_bake_add_image_rgba8(b, "a", 2, 2, px, true, NULL, &err) == BLVL_OK);
    CHECK(blvl_bake_add_image_rgba8(b, "b", 2, 2, px, true, NULL, &err) == BLVL_OK);
    blvl_bake_material m;
    blvl_bake_material_init(&m);
    m.name = "plain";
    m.texture = 0;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_OK);

    blvl_bake_anim a = {
        .tcmods = tcmods,
        .tcmod_count = 5,
        .has_rgb_wave = true,
        .rgb_wave = {3, 0.5f, 0.5f, 0.25f, 2},
        .frames = frames,
        .frame_count = 3,
        .fps = 8,
        .has_deform = true,
        .deform = {.kind = 4, .has_wave = true, .wave = {4, 0, 1, 0, 0.25f}, .vector = {0, 3, 0}}};
    blvl_bake_material_init(&m);
    m.name = "textures/test/ext";
    m.source_shader = "scripts/test.shader";
    m.unknown_keywords = unknown;
    m.unknown_keyword_count = 3;
    m.vertex_lit = true;
    m.anim = &a;
    m.surface_params = params;
    m.surface_param_count = 3;
    m.emits = true;
    m.emit_color = (blvl_Vec3){1, 0.5f, 0.25f};
    m.emit_intensity = 300;
    uint32_t index = 0;
    CHECK(blvl_bake_add_material(b, &m, &index, &err) == BLVL_OK);
    CHECK_EQ_INT(index, 1);
    /* The bake copied everything: scribbling over the caller's anim changes nothing. */
    memset(&a, 0x5A, sizeof a);

    blvl_bake_material_init(&m);
    m.name = "vertexlit";
    m.vertex_lit = true;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_OK);

    blvl_bake_anim bulge = {
        .has_deform = true,
        .deform = {
            .kind = 3, .has_bulge = true, .bulge_width = 4, .bulge_height = 2, .bulge_speed = 1}};
    blvl_bake_material_init(&m);
    m.name = "bulge";
    m.anim = &bulge;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_OK);
}

static blvl_bake *make(void) {
    blvl_bake *b = NULL;
    blvl_error err;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    add_materials(b);
    CHECK(blvl_bake_set_lightmap(b, LM_W, LM_H, LM_L, lightmap, 1, 2.0f, &err) == BLVL_OK);
    blvl_bake_light_grid g = {.origin = {-64, 32, 128},
                              .cell_size = {64, 128, 64},
                              .width = GW,
                              .height = GH,
                              .layers = GL,
                              .ambient = ambient,
                              .directional = directional,
                              .direction = direction,
                              .encoding = 1,
                              .gain = 2.0f};
    CHECK(blvl_bake_set_light_grid(b, &g, &err) == BLVL_OK);
    CHECK(blvl_bake_set_sky(b, "env/sky1", SKY, sky, &err) == BLVL_OK);
    return b;
}

/* Writes the level's sections, the .bsym and the inputs into dir. */
static void dump(blvl_bake *b, const char *dir, int flip) {
    void *level = NULL, *symbols = NULL;
    size_t lsize = 0, ssize = 0;
    blvl_error err;
    CHECK(blvl_bake_write_memory(b, &level, &lsize, &symbols, &ssize, NULL, &err) == BLVL_OK);
    if (!level)
        return;
    blvl_level *lv = NULL;
    CHECK(blvl_open_memory(&lv, level, lsize, NULL, &err) == BLVL_OK);
    CHECK(blvl_sections_verify(lv, &err) == BLVL_OK);
    char path[512];
    static const char *const tags[] = {"lightmaps", "cubemaps", "lighting", "geometry"};
    for (int i = 0; i < 4; i++) {
        blvl_bytes bytes = {0};
        CHECK(blvl_read(lv, tags[i], &bytes, &err) == BLVL_OK);
        snprintf(path, sizeof path, "%s/%s.bin", dir, tags[i]);
        CHECK(test_spit(path, bytes.data, bytes.size) == 0);
        blvl_bytes_free(&bytes);
    }
    blvl_close(lv);
    snprintf(path, sizeof path, "%s/level.bsym", dir);
    CHECK(test_spit(path, symbols, ssize) == 0);
    /* Our own verifier and generated reader agree with what flatc reads below. */
    CHECK(blvl_Symbols_verify(symbols, ssize, &err) == BLVL_OK);
    blvl_SymbolMaterial sm = blvl_Symbols_materials_at(blvl_Symbols_root(symbols), 1);
    CHECK_EQ_INT(blvl_SymbolMaterial_unknown_len(sm), 3);
    for (uint32_t i = 0; i < 3 && i < blvl_SymbolMaterial_unknown_len(sm); i++) {
        blvl_fb_str u = blvl_SymbolMaterial_unknown_at(sm, i);
        CHECK(u.len == strlen(unknown[i]) && memcmp(u.ptr, unknown[i], u.len) == 0);
    }
    CHECK_EQ_INT(
        blvl_SymbolMaterial_unknown_len(blvl_Symbols_materials_at(blvl_Symbols_root(symbols), 0)),
        0);
    blvl_free(NULL, level);
    blvl_free(NULL, symbols);
    uint8_t lm[sizeof lightmap];
    memcpy(lm, lightmap, sizeof lm);
    if (flip)
        lm[4 * (LM_W * LM_H + 5) + 1] ^= 1; /* one channel of one texel of page 1 */
    snprintf(path, sizeof path, "%s/lightmap.rgba", dir);
    CHECK(test_spit(path, lm, sizeof lm) == 0);
    snprintf(path, sizeof path, "%s/sky.rgba", dir);
    CHECK(test_spit(path, sky, sizeof sky) == 0);
    snprintf(path, sizeof path, "%s/grid_ambient.rgb", dir);
    CHECK(test_spit(path, ambient, sizeof ambient) == 0);
    snprintf(path, sizeof path, "%s/grid_directional.rgb", dir);
    CHECK(test_spit(path, directional, sizeof directional) == 0);
    float f[CELLS * 3]; /* little-endian host: the floats as they are */
    for (int i = 0; i < CELLS; i++)
        f[3 * i] = direction[i].x, f[3 * i + 1] = direction[i].y, f[3 * i + 2] = direction[i].z;
    snprintf(path, sizeof path, "%s/grid_direction.f32", dir);
    CHECK(test_spit(path, f, sizeof f) == 0);
}

/* Every refusal is BLVL_E_ARGUMENT and leaves the model as it was. */
static void refusals(void) {
    blvl_bake *b = NULL;
    blvl_error err;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    CHECK(blvl_bake_set_lightmap(b, LM_W, LM_H, 0, lightmap, 1, 2, &err) == BLVL_E_ARGUMENT);
    CHECK(blvl_bake_set_lightmap(b, LM_W, LM_H, LM_L, lightmap, 2, 2, &err) == BLVL_E_ARGUMENT);
    CHECK(blvl_bake_set_lightmap(b, LM_W, LM_H, LM_L, lightmap, 1, NAN, &err) == BLVL_E_ARGUMENT);
    CHECK(blvl_bake_set_lightmap(b, LM_W, 8192, 3, lightmap, 1, 2, &err) == BLVL_E_ARGUMENT);
    CHECK(blvl_bake_set_lightmap(b, LM_W, LM_H, LM_L, NULL, 1, 2, &err) == BLVL_E_ARGUMENT);
    CHECK(blvl_bake_set_lightmap(b, LM_W, LM_H, LM_L, lightmap, 1, 2, &err) == BLVL_OK);
    CHECK(blvl_bake_set_lightmap(b, LM_W, LM_H, LM_L, lightmap, 1, 2, &err) == BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "twice") != NULL);

    blvl_bake_light_grid g = {.cell_size = {64, 64, 64},
                              .width = GW,
                              .height = GH,
                              .layers = GL,
                              .ambient = ambient,
                              .directional = directional,
                              .direction = direction,
                              .gain = 1};
    blvl_bake_light_grid bad = g;
    bad.cell_size.y = 0;
    CHECK(blvl_bake_set_light_grid(b, &bad, &err) == BLVL_E_ARGUMENT);
    bad = g;
    bad.layers = 0;
    CHECK(blvl_bake_set_light_grid(b, &bad, &err) == BLVL_E_ARGUMENT);
    bad = g;
    bad.width = 1, bad.height = 1, bad.layers = 70000;
    CHECK(blvl_bake_set_light_grid(b, &bad, &err) == BLVL_E_ARGUMENT);
    bad = g;
    bad.directional = NULL;
    CHECK(blvl_bake_set_light_grid(b, &bad, &err) == BLVL_E_ARGUMENT);
    blvl_Vec3 nan_dir[CELLS];
    memcpy(nan_dir, direction, sizeof nan_dir);
    nan_dir[7].y = NAN;
    bad = g;
    bad.direction = nan_dir;
    CHECK(blvl_bake_set_light_grid(b, &bad, &err) == BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "direction 7") != NULL);
    CHECK(blvl_bake_set_light_grid(b, &g, &err) == BLVL_OK);
    CHECK(blvl_bake_set_light_grid(b, &g, &err) == BLVL_E_ARGUMENT);

    CHECK(blvl_bake_set_sky(b, "s", 0, sky, &err) == BLVL_E_ARGUMENT);
    CHECK(blvl_bake_set_sky(b, "s", 4000, sky, &err) == BLVL_E_ARGUMENT);
    CHECK(blvl_bake_set_sky(b, "s", SKY, sky, &err) == BLVL_OK);
    CHECK(blvl_bake_set_sky(b, "s", SKY, sky, &err) == BLVL_E_ARGUMENT);

    /* Materials: an extension out of range refuses the whole material. */
    blvl_bake_material m;
    blvl_bake_tcmod t1 = {.kind = 1};
    blvl_bake_anim a = {.tcmods = &t1, .tcmod_count = 1};
    blvl_bake_material_init(&m);
    m.name = "x";
    m.anim = &a;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_E_ARGUMENT);
    t1.kind = 3;
    t1.args[2] = INFINITY;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_E_ARGUMENT);
    t1.args[2] = 0;
    t1.has_wave = true;
    t1.wave.func = 7;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_E_ARGUMENT);
    t1.has_wave = false;
    uint32_t frame = 0; /* no image added */
    a.frames = &frame;
    a.frame_count = 1;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_E_ARGUMENT);
    a.frame_count = 0;
    a.has_deform = true;
    a.deform.kind = 16;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_E_ARGUMENT);
    a.has_deform = false;
    const char *holes[] = {"a", NULL};
    m.unknown_keywords = holes;
    m.unknown_keyword_count = 2;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_E_ARGUMENT);
    m.unknown_keyword_count = 1;
    m.surface_params = NULL;
    m.surface_param_count = 1;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_E_ARGUMENT);
    m.surface_param_count = 0;
    m.emits = true;
    m.emit_intensity = NAN;
    CHECK(blvl_bake_add_material(b, &m, NULL, &err) == BLVL_E_ARGUMENT);
    m.emits = false;
    uint32_t index = 99;
    CHECK(blvl_bake_add_material(b, &m, &index, &err) == BLVL_OK);
    CHECK_EQ_INT(index, 0); /* the refused ones added nothing */
    blvl_bake_free(b);
}

/* Without the new calls, the level has neither lightmaps nor cubemaps, and no lighting at all
 * when nothing else lights it. */
static void absent(void) {
    blvl_bake *b = NULL;
    blvl_error err;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    void *level = NULL;
    size_t size = 0;
    CHECK(blvl_bake_write_memory(b, &level, &size, NULL, NULL, NULL, &err) == BLVL_OK);
    blvl_level *lv = NULL;
    CHECK(blvl_open_memory(&lv, level, size, NULL, &err) == BLVL_OK);
    if (lv) {
        CHECK(blvl_find(lv, "lightmaps") == NULL);
        CHECK(blvl_find(lv, "cubemaps") == NULL);
        CHECK(blvl_find(lv, "lighting") == NULL);
        blvl_close(lv);
    }
    blvl_free(NULL, level);
    blvl_bake_free(b);
}

int main(void) {
    fill_inputs();
    refusals();
    absent();
    char dir[] = "/tmp/blvl_q3ext_XXXXXX", flip[] = "/tmp/blvl_q3ext_flip_XXXXXX",
         wrong[] = "/tmp/blvl_q3ext_wrong_XXXXXX";
    CHECK(mkdtemp(dir) && mkdtemp(flip) && mkdtemp(wrong));
    blvl_bake *b = make();
    dump(b, dir, 0);
    dump(b, flip, 1);
    dump(b, wrong, 0);
    blvl_bake_free(b);
    /* A write leaves the model unchanged: writing it again gives the same bytes. */
    static const char *const files[] = {"lightmaps.bin", "cubemaps.bin", "lighting.bin",
                                        "geometry.bin", "level.bsym"};
    for (int i = 0; i < 5; i++) {
        char p1[512], p2[512];
        size_t n1 = 0, n2 = 0;
        snprintf(p1, sizeof p1, "%s/%s", dir, files[i]);
        snprintf(p2, sizeof p2, "%s/%s", wrong, files[i]);
        uint8_t *a = test_slurp(p1, &n1), *c = test_slurp(p2, &n2);
        CHECK(a && c && n1 == n2 && memcmp(a, c, n1) == 0);
        free(a);
        free(c);
    }
    CHECK(write_expect(dir, 0) == 0);
    CHECK(write_expect(flip, 0) == 0);
    CHECK(write_expect(wrong, 1) == 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/data/bake/q3ext_check.py %s", dir);
    CHECK_EQ_INT(test_run(cmd), 0);
    printf("the controls must fail:\n");
    fflush(stdout);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/data/bake/q3ext_check.py %s", flip);
    CHECK(test_run(cmd) != 0);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/data/bake/q3ext_check.py %s", wrong);
    CHECK(test_run(cmd) != 0);
    if (getenv("Q3EXT_KEEP")) {
        printf("kept %s %s %s\n", dir, flip, wrong);
    } else {
        snprintf(cmd, sizeof cmd, "rm -rf %s %s %s", dir, flip, wrong);
        test_run(cmd);
    }
    return check_report("test_bake_q3ext");
}
