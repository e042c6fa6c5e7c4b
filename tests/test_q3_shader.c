/* The .shader parser on hand-written scripts: every keyword it reads, unknown keywords kept
 * verbatim, the duplicate-name rule, and every refusal (rule and offset). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/q3_shader.h"
#include "check.h"

static blvl_q3_shaders *set_of(const char *text, blvl_status *st, blvl_error *err) {
    blvl_q3_shaders *s = NULL;
    if ((*st = blvl_q3_shaders_new(&s, NULL, err)) != BLVL_OK)
        return NULL;
    *st = blvl_q3_shaders_add(s, "scripts/t.shader", text, strlen(text), err);
    return s;
}

static bool near(float a, float b) {
    return fabsf(a - b) < 1e-5f;
}

/* A refusal names its rule and the offset where it was found. */
static void refused(const char *text, const char *rule, unsigned offset) {
    blvl_error err;
    blvl_status st;
    blvl_q3_shaders *s = set_of(text, &st, &err);
    CHECK(s != NULL);
    CHECK_EQ_INT(st, BLVL_E_SOURCE);
    char want[96];
    snprintf(want, sizeof want, "scripts/t.shader: text at offset %u: %s: ", offset, rule);
    if (strncmp(err.message, want, strlen(want)) != 0) {
        fprintf(stderr, "want \"%s...\", got \"%s\"\n", want, err.message);
        CHECK(0);
    }
    CHECK_EQ_INT(blvl_q3_shaders_count(s), 0);
    blvl_q3_shaders_free(s);
}

static void general(void) {
    const char *text = "// a comment\n"
                       "textures/a/b\n"
                       "{\n"
                       "  qer_editorimage textures/a/b_ed.tga\n"
                       "  q3map_lightimage textures/a/light.tga\n"
                       "  surfaceparm nomarks\n"
                       "  surfaceparm trans /* inline */\n"
                       "  cull none\n"
                       "  sort additive\n"
                       "  polygonOffset\n"
                       "  nopicmip\n"
                       "  nomipmaps\n"
                       "  entityMergable\n"
                       "  deformVertexes wave 64 sin 0 2.5 0 0.5\n"
                       "  deformVertexes move 0 0 1 sawtooth 0 3 0.25 1\n"
                       "  deformVertexes bulge 3 10 1\n"
                       "  deformVertexes autosprite2\n" /* a fourth: kept, the engine ignores it */
                       "  fogparms ( 0.5 0.25 1 ) 512\n"
                       "  skyParms env/sky 256 -\n"
                       "  q3map_sun 1 .9 .8 200 45 60\n"
                       "  q3map_surfacelight 3000\n"
                       "  q3map_tessSize 128\n"
                       "  q3map_flare flareShader\n"
                       "  qer_trans 0.5\n"
                       "  cull sideways\n"
                       "}\n"
                       "\"quoted/name\" { sort 6.5 cull back deformVertexes text3 }\n"
                       "textures/glued{ portal deformVertexes normal 0.5 2 }\n";
    blvl_error err;
    blvl_status st;
    blvl_q3_shaders *s = set_of(text, &st, &err);
    CHECK_EQ_INT(st, BLVL_OK);
    CHECK_EQ_INT(blvl_q3_shaders_count(s), 3);
    const blvl_q3_shader *a = blvl_q3_shaders_find(s, "TEXTURES/A/B");
    CHECK(a != NULL);
    if (a) {
        CHECK(!strcmp(a->name, "textures/a/b"));
        CHECK(!strcmp(a->script, "scripts/t.shader"));
        CHECK_EQ_INT(a->offset, 13);
        CHECK(!strcmp(a->editor_image, "textures/a/b_ed.tga"));
        CHECK(!strcmp(a->light_image, "textures/a/light.tga"));
        CHECK_EQ_INT(a->surface_param_count, 2);
        CHECK(a->surface_param_count == 2 && !strcmp(a->surface_params[1], "trans"));
        CHECK_EQ_INT(a->cull, BLVL_Q3_CULL_NONE);
        CHECK(a->has_sort && near(a->sort, 10));
        CHECK(a->polygon_offset && a->nopicmip && a->nomipmaps && a->entity_mergable);
        CHECK(!a->portal);
        CHECK_EQ_INT(a->deform_count, 3);
        CHECK_EQ_INT(a->deforms[0].kind, BLVL_Q3_DEFORM_WAVE);
        CHECK(near(a->deforms[0].spread, 1.0f / 64));
        CHECK_EQ_INT(a->deforms[0].wave.func, BLVL_Q3_WAVE_SIN);
        CHECK(near(a->deforms[0].wave.amp, 2.5f) && near(a->deforms[0].wave.freq, 0.5f));
        CHECK_EQ_INT(a->deforms[1].kind, BLVL_Q3_DEFORM_MOVE);
        CHECK(near(a->deforms[1].vector[2], 1) && near(a->deforms[1].wave.phase, 0.25f));
        CHECK_EQ_INT(a->deforms[1].wave.func, BLVL_Q3_WAVE_SAWTOOTH);
        CHECK_EQ_INT(a->deforms[2].kind, BLVL_Q3_DEFORM_BULGE);
        CHECK(near(a->deforms[2].bulge_width, 3) && near(a->deforms[2].bulge_height, 10) &&
              near(a->deforms[2].bulge_speed, 1));
        CHECK(a->has_fog && near(a->fog_color[1], 0.25f) && near(a->fog_depth, 512));
        CHECK(a->has_sky && !strcmp(a->sky_farbox, "env/sky") && !a->sky_nearbox);
        CHECK(near(a->sky_cloud_height, 256));
        CHECK(a->has_sun && near(a->sun_color[1], 0.9f) && near(a->sun_intensity, 200) &&
              near(a->sun_degrees, 45) && near(a->sun_elevation, 60));
        CHECK(a->has_surface_light && near(a->surface_light, 3000));
        CHECK_EQ_INT(a->tess_size, 128);
        CHECK_EQ_INT(a->stage_count, 0);
        CHECK_EQ_INT(a->unknown_count, 4);
        if (a->unknown_count == 4) {
            CHECK(!strcmp(a->unknown[0], "deformVertexes autosprite2"));
            CHECK(!strcmp(a->unknown[1], "q3map_flare flareShader"));
            CHECK(!strcmp(a->unknown[2], "qer_trans 0.5"));
            CHECK(!strcmp(a->unknown[3], "cull sideways"));
        }
    }
    const blvl_q3_shader *q = blvl_q3_shaders_find(s, "quoted/name");
    CHECK(q && q->has_sort && near(q->sort, 6.5f) && q->cull == BLVL_Q3_CULL_BACK);
    CHECK(q && q->deform_count == 1 && q->deforms[0].kind == BLVL_Q3_DEFORM_TEXT0 + 3);
    const blvl_q3_shader *g = blvl_q3_shaders_find(s, "textures/glued");
    CHECK(g && g->portal && g->deform_count == 1);
    CHECK(g && g->deforms[0].kind == BLVL_Q3_DEFORM_NORMAL && near(g->deforms[0].wave.amp, 0.5f));
    CHECK(blvl_q3_shaders_find(s, "textures/glued{") == NULL);
    CHECK(blvl_q3_shaders_find(s, "textures/a") == NULL);
    blvl_q3_shaders_free(s);
}

static void stages(void) {
    const char *text =
        "s\n{\n"
        " { map $lightmap\n tcGen lightmap }\n"
        " {\n  clampMap textures/x.tga\n  blendFunc GL_DST_COLOR GL_ONE_MINUS_DST_ALPHA\n"
        "  rgbGen wave triangle 0.5 0.5 0 2\n  alphaGen wave inversesawtooth 0 1 0 1\n"
        "  tcMod scroll 0.5 -1\n  tcMod scale 2 2\n  tcMod rotate 30\n  tcMod turb 0 .1 0 .5\n"
        "  depthWrite\n  depthFunc equal\n  alphaFunc GE128\n  detail\n }\n"
        " { animMap 10 a.tga b.tga c.tga d.tga e.tga f.tga g.tga h.tga i.tga\n"
        "   blendFunc add\n rgbGen const ( 1 0.5 0.25 )\n alphaGen const 0.75\n"
        "   tcGen environment\n tcMod stretch noise 1 0.2 0 3\n"
        "   tcMod transform 1 0 0 1 0.5 0.25\n tcMod entityTranslate\n }\n"
        " { map $whiteimage\n blendFunc filter\n rgbGen vertex\n alphaGen portal 256\n"
        "   tcGen vector ( 1 0 0 ) ( 0 1 0 )\n alphaFunc GT0\n depthFunc lequal }\n"
        " { map x.jpg\n blendFunc blend\n rgbGen identityLighting\n alphaGen lightingSpecular\n"
        "   alphaFunc LT128\n blendFunc GL_ONE GL_BOGUS\n rgbGen wave sin 1 2\n"
        "   tcMod spin 3\n videoMap x.roq\n }\n"
        " { map\n rgbGen exactVertex\n alphaGen oneMinusVertex\n}\n"
        "}\n"
        /* several keywords on one line, as real scripts write them: each takes its own */
        "one { surfaceparm nodraw cull none\n"
        " { map $lightmap blendfunc filter rgbGen identity alphaGen const 0.5 tcGen lightmap }\n"
        " { map a.tga blendFunc GL_ONE GL_ZERO rgbGen wave sin 0 1 0 1 depthWrite detail }\n"
        "}\n";
    blvl_error err;
    blvl_status st;
    blvl_q3_shaders *s = set_of(text, &st, &err);
    CHECK_EQ_INT(st, BLVL_OK);
    const blvl_q3_shader *sh = blvl_q3_shaders_find(s, "S");
    CHECK(sh && sh->stage_count == 6);
    if (sh && sh->stage_count == 6) {
        const blvl_q3_stage *t = sh->stages;
        CHECK_EQ_INT(t[0].map_kind, BLVL_Q3_MAP_LIGHTMAP);
        CHECK_EQ_INT(t[0].tc_gen, BLVL_Q3_TCGEN_LIGHTMAP);
        CHECK_EQ_INT(t[0].offset, 5);
        CHECK_EQ_INT(t[1].map_kind, BLVL_Q3_MAP_IMAGE);
        CHECK(t[1].clamp && !strcmp(t[1].map, "textures/x.tga"));
        CHECK_EQ_INT(t[1].blend_src, BLVL_Q3_GL_DST_COLOR);
        CHECK_EQ_INT(t[1].blend_dst, BLVL_Q3_GL_ONE_MINUS_DST_ALPHA);
        CHECK_EQ_INT(t[1].rgb_gen, BLVL_Q3_RGB_WAVE);
        CHECK(t[1].rgb_wave.func == BLVL_Q3_WAVE_TRIANGLE && near(t[1].rgb_wave.freq, 2));
        CHECK_EQ_INT(t[1].alpha_gen, BLVL_Q3_ALPHA_WAVE);
        CHECK_EQ_INT(t[1].alpha_wave.func, BLVL_Q3_WAVE_INVERSE_SAWTOOTH);
        CHECK_EQ_INT(t[1].tcmod_count, 4);
        CHECK(t[1].tcmods[0].kind == BLVL_Q3_TCMOD_SCROLL && near(t[1].tcmods[0].args[1], -1));
        CHECK(t[1].tcmods[1].kind == BLVL_Q3_TCMOD_SCALE && near(t[1].tcmods[1].args[0], 2));
        CHECK(t[1].tcmods[2].kind == BLVL_Q3_TCMOD_ROTATE && near(t[1].tcmods[2].args[0], 30));
        CHECK(t[1].tcmods[3].kind == BLVL_Q3_TCMOD_TURB && near(t[1].tcmods[3].args[1], 0.1f) &&
              near(t[1].tcmods[3].args[3], 0.5f));
        CHECK(t[1].depth_write && t[1].depth_equal && t[1].detail);
        CHECK_EQ_INT(t[1].alpha_func, BLVL_Q3_AFUNC_GE128);
        CHECK_EQ_INT(t[1].unknown_count, 0);
        CHECK_EQ_INT(t[2].map_kind, BLVL_Q3_MAP_ANIM);
        CHECK_EQ_INT(t[2].frame_count, 8); /* the ninth frame dropped, as the engine does */
        CHECK(near(t[2].fps, 10) && !strcmp(t[2].frames[7], "h.tga"));
        CHECK(t[2].blend_src == BLVL_Q3_GL_ONE && t[2].blend_dst == BLVL_Q3_GL_ONE);
        CHECK(t[2].rgb_gen == BLVL_Q3_RGB_CONST && near(t[2].rgb_const[2], 0.25f));
        CHECK(t[2].alpha_gen == BLVL_Q3_ALPHA_CONST && near(t[2].alpha_const, 0.75f));
        CHECK_EQ_INT(t[2].tc_gen, BLVL_Q3_TCGEN_ENVIRONMENT);
        CHECK_EQ_INT(t[2].tcmod_count, 3);
        CHECK(t[2].tcmods[0].kind == BLVL_Q3_TCMOD_STRETCH &&
              t[2].tcmods[0].wave.func == BLVL_Q3_WAVE_NOISE &&
              near(t[2].tcmods[0].wave.amp, 0.2f));
        CHECK(t[2].tcmods[1].kind == BLVL_Q3_TCMOD_TRANSFORM &&
              near(t[2].tcmods[1].args[5], 0.25f));
        CHECK_EQ_INT(t[2].tcmods[2].kind, BLVL_Q3_TCMOD_ENTITY_TRANSLATE);
        CHECK_EQ_INT(t[3].map_kind, BLVL_Q3_MAP_WHITE);
        CHECK(t[3].blend_src == BLVL_Q3_GL_DST_COLOR && t[3].blend_dst == BLVL_Q3_GL_ZERO);
        CHECK_EQ_INT(t[3].rgb_gen, BLVL_Q3_RGB_VERTEX);
        CHECK(t[3].alpha_gen == BLVL_Q3_ALPHA_PORTAL && near(t[3].alpha_const, 256));
        CHECK(t[3].tc_gen == BLVL_Q3_TCGEN_VECTOR && near(t[3].tc_vector[1][1], 1) &&
              near(t[3].tc_vector[0][0], 1) && near(t[3].tc_vector[0][1], 0));
        CHECK(t[3].alpha_func == BLVL_Q3_AFUNC_GT0 && !t[3].depth_equal);
        CHECK(t[4].blend_src == BLVL_Q3_GL_SRC_ALPHA &&
              t[4].blend_dst == BLVL_Q3_GL_ONE_MINUS_SRC_ALPHA);
        CHECK_EQ_INT(t[4].rgb_gen, BLVL_Q3_RGB_IDENTITY_LIGHTING);
        CHECK_EQ_INT(t[4].alpha_gen, BLVL_Q3_ALPHA_LIGHTING_SPECULAR);
        CHECK_EQ_INT(t[4].alpha_func, BLVL_Q3_AFUNC_LT128);
        CHECK_EQ_INT(t[4].unknown_count, 4);
        if (t[4].unknown_count == 4) {
            CHECK(!strcmp(t[4].unknown[0], "blendFunc GL_ONE GL_BOGUS"));
            CHECK(!strcmp(t[4].unknown[1], "rgbGen wave sin 1 2"));
            CHECK(!strcmp(t[4].unknown[2], "tcMod spin 3"));
            CHECK(!strcmp(t[4].unknown[3], "videoMap x.roq"));
        }
        CHECK_EQ_INT(t[5].map_kind, BLVL_Q3_MAP_NONE);
        CHECK(t[5].unknown_count == 1 && !strcmp(t[5].unknown[0], "map"));
        CHECK_EQ_INT(t[5].rgb_gen, BLVL_Q3_RGB_EXACT_VERTEX);
        CHECK_EQ_INT(t[5].alpha_gen, BLVL_Q3_ALPHA_ONE_MINUS_VERTEX);
    }
    const blvl_q3_shader *one = blvl_q3_shaders_find(s, "one");
    CHECK(one && one->stage_count == 2 && one->cull == BLVL_Q3_CULL_NONE);
    CHECK(one && one->surface_param_count == 1 && one->unknown_count == 0);
    if (one && one->stage_count == 2) {
        const blvl_q3_stage *t = one->stages;
        CHECK(t[0].map_kind == BLVL_Q3_MAP_LIGHTMAP && t[0].blend_src == BLVL_Q3_GL_DST_COLOR);
        CHECK(t[0].rgb_gen == BLVL_Q3_RGB_IDENTITY && t[0].alpha_gen == BLVL_Q3_ALPHA_CONST);
        CHECK(t[0].tc_gen == BLVL_Q3_TCGEN_LIGHTMAP && t[0].unknown_count == 0);
        CHECK(t[1].blend_src == BLVL_Q3_GL_ONE && t[1].blend_dst == BLVL_Q3_GL_ZERO);
        CHECK(t[1].rgb_gen == BLVL_Q3_RGB_WAVE && t[1].depth_write && t[1].detail);
    }
    blvl_q3_shaders_free(s);
}

/* A later script wins; within one script the first definition wins; a refused script leaves
 * the set as it was. */
static void duplicates(void) {
    blvl_error err;
    blvl_q3_shaders *s = NULL;
    CHECK_EQ_INT(blvl_q3_shaders_new(&s, NULL, &err), BLVL_OK);
    const char *one = "x { sort 1 }\nX { sort 2 }\ny { sort 5 }\n";
    const char *two = "x { sort 3 }\nx { sort 4 }\n";
    const char *bad = "y { sort 9 }\nz { sort 9 \n";
    CHECK_EQ_INT(blvl_q3_shaders_add(s, "scripts/a.shader", one, strlen(one), &err), BLVL_OK);
    const blvl_q3_shader *x = blvl_q3_shaders_find(s, "x");
    CHECK(x && near(x->sort, 1));
    CHECK_EQ_INT(blvl_q3_shaders_add(s, "scripts/b.shader", two, strlen(two), &err), BLVL_OK);
    x = blvl_q3_shaders_find(s, "X");
    CHECK(x && near(x->sort, 3) && !strcmp(x->script, "scripts/b.shader"));
    CHECK_EQ_INT(blvl_q3_shaders_add(s, "scripts/c.shader", bad, strlen(bad), &err), BLVL_E_SOURCE);
    const blvl_q3_shader *y = blvl_q3_shaders_find(s, "y");
    CHECK(y && near(y->sort, 5));
    CHECK(blvl_q3_shaders_find(s, "z") == NULL);
    CHECK_EQ_INT(blvl_q3_shaders_count(s), 2);
    /* The text ends at its first NUL, as the engine's does. */
    const char nul[] = "w { sort 7 }\0v { }";
    CHECK_EQ_INT(blvl_q3_shaders_add(s, "scripts/d.shader", nul, sizeof nul, &err), BLVL_OK);
    CHECK(blvl_q3_shaders_find(s, "w") && !blvl_q3_shaders_find(s, "v"));
    /* Many names: the table grows. */
    char buf[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(buf, sizeof buf, "n%d { }", i);
        CHECK_EQ_INT(blvl_q3_shaders_add(s, "scripts/e.shader", buf, strlen(buf), &err), BLVL_OK);
    }
    CHECK(blvl_q3_shaders_find(s, "N2999") && blvl_q3_shaders_find(s, "n0"));
    CHECK_EQ_INT(blvl_q3_shaders_count(s), 3003);
    blvl_q3_shaders_free(s);
}

static void refusals(void) {
    refused("a { /* never closed", "comment", 4);
    refused("a { map \"x.tga }", "quote", 8);
    refused("{ }", "name", 0);
    refused("a }", "brace", 2);
    refused("a", "brace", 0);
    refused("a {\n map x\n", "brace", 0);
    refused("a {\n { map x\n", "brace", 5);
    refused("a { { { map x } } }", "nesting", 6);
    refused("a { { } { } { } { } { } { } { } { } { } }", "stages", 36);
    refused("a { { tcMod scroll 1 1\n tcMod scroll 1 1\n tcMod scroll 1 1\n tcMod scroll 1 1\n"
            " tcMod scale 1 1 } }",
            "tcmods", 78);
    char name[80];
    memset(name, 'n', 64);
    strcpy(name + 64, " { }");
    refused(name, "name", 0);
    char *big = malloc(2048);
    memset(big, 'k', 1024);
    strcpy(big + 1024, " { }");
    refused(big, "token", 0);
    /* 65 arguments on one line */
    strcpy(big, "a { k");
    for (int i = 0; i < 65; i++)
        strcat(big, " 1");
    strcat(big, " }");
    refused(big, "args", 134);
    free(big);
    /* 257 unknown keywords in one shader, 257 in one stage, 257 surfaceparms */
    const char *lines[] = {"u 1\n", "surfaceparm x\n"};
    for (int k = 0; k < 3; k++) {
        size_t n = 16 + 257 * 16;
        char *t = malloc(n);
        strcpy(t, k == 1 ? "a { {\n" : "a {\n");
        for (int i = 0; i < 257; i++)
            strcat(t, lines[k == 2]);
        strcat(t, k == 1 ? "} }" : "}");
        size_t at = (k == 1 ? 6 : 4) + 256 * strlen(lines[k == 2]);
        refused(t, "list", (unsigned)at);
        free(t);
    }
    /* more shaders than a script may hold */
    size_t n = (BLVL_Q3_SHADER_MAX_SHADERS + 1) * 6 + 1;
    char *many = malloc(n);
    for (size_t i = 0; i <= BLVL_Q3_SHADER_MAX_SHADERS; i++)
        memcpy(many + i * 6, "a { }\n", 6);
    many[n - 1] = 0;
    refused(many, "shaders", BLVL_Q3_SHADER_MAX_SHADERS * 6);
    free(many);
    /* a script over the size limit */
    blvl_error err;
    blvl_q3_shaders *s = NULL;
    CHECK_EQ_INT(blvl_q3_shaders_new(&s, NULL, &err), BLVL_OK);
    char *huge = calloc(BLVL_Q3_SHADER_MAX_SCRIPT + 1, 1);
    CHECK_EQ_INT(
        blvl_q3_shaders_add(s, "scripts/t.shader", huge, BLVL_Q3_SHADER_MAX_SCRIPT + 1, &err),
        BLVL_E_SOURCE);
    CHECK(strstr(err.message, ": size: ") != NULL);
    free(huge);
    /* more scripts than a set may hold */
    blvl_status st = BLVL_OK;
    for (unsigned i = 0; i <= BLVL_Q3_SHADER_MAX_SCRIPTS && st == BLVL_OK; i++)
        st = blvl_q3_shaders_add(s, "scripts/e.shader", "", 0, &err);
    CHECK_EQ_INT(st, BLVL_E_SOURCE);
    CHECK(strstr(err.message, ": scripts: ") != NULL);
    blvl_q3_shaders_free(s);
    /* control: the same shapes, within the limits, read */
    CHECK(blvl_q3_shaders_new(&s, NULL, &err) == BLVL_OK);
    const char *ok = "a { { } { } { } { } { } { } { } { } }\n\"a b\" { /* x */ }\n";
    CHECK_EQ_INT(blvl_q3_shaders_add(s, "scripts/t.shader", ok, strlen(ok), &err), BLVL_OK);
    CHECK(blvl_q3_shaders_find(s, "a") && blvl_q3_shaders_find(s, "a")->stage_count == 8);
    CHECK(blvl_q3_shaders_find(s, "A B") != NULL);
    blvl_q3_shaders_free(s);
}

int main(void) {
    general();
    stages();
    duplicates();
    refusals();
    return check_report("test_q3_shader");
}
