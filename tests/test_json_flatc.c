/* Our JSON parser's verdict against flatc's (the reference parser) on JSON that is bad in the ways
 * a user's hand-edited section is: a value out of range, an unknown enum name, a struct missing a
 * member, input cut short, unknown fields, wrong types. Both must refuse, and our message must
 * name the path to the bad value and say what is wrong. The non-finite floats blvl dump prints as
 * strings ("nan", "inf", "-inf") must be accepted by both, and a section holding them must dump,
 * pack and dump again to the same values. Also the .bsym rules flatc cannot know. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "blvl/fb.h"
#include "blvl/sections_builder.h"
#include "check.h"
#include "files.h"
#include "blvl/sections.h"

typedef struct json_case {
    const char *tag;
    const char *json;
    const char *want; /* our message must contain this; NULL: both must accept */
} json_case;

static const json_case cases[] = {
    {"sim", "{\"colliders\": [{}, {}, {\"flags\": 4294967296}]}",
     "json: sim.colliders[2].flags: integer out of range"},
    {"sim", "{\"colliders\": [{\"flags\": -1}]}", "sim.colliders[0].flags: integer out of range"},
    {"sim", "{\"breakables\": [{\"kind\": \"Glas\"}]}",
     "sim.breakables[0].kind: unknown value 'Glas' of enum BreakableKind"},
    {"sim", "{\"colliders\": [{\"lo\": {\"x\": 1, \"y\": 2}}]}",
     "sim.colliders[0].lo: struct Vec3 without its member 'z'"},
    {"sim", "{\"colliders\": [{\"lo\": {\"x\": 1, \"y\": 2, \"z\": 3, \"w\": 4}}]}",
     "sim.colliders[0].lo: unknown member 'w' of struct Vec3"},
    {"sim", "{\"colliders\": [{\"lo\": {\"x\": \"one\", \"y\": 2, \"z\": 3}}]}",
     "sim.colliders[0].lo.x: expected a number"},
    {"sim", "{\"colliders\": [{\"flags\": 1}", "unexpected end of input"},
    {"sim", "{\"breakables\": [{\"name\": \"abc", "unexpected end of input"},
    {"sim", "{\"kill_y\": ", "unexpected end of input"},
    {"sim", "{\"colliderz\": []}", "sim: unknown field 'colliderz' of table Sim"},
    {"sim", "{\"kill_y\": \"abc\"}", "sim.kill_y: expected a number"},
    {"sim", "{\"spawns\": [{\"kind\": 7}]}", "sim.spawns[0].kind: expected a string"},
    {"sim", "{\"colliders\": [{\"shape_type\": \"Cube\", \"shape\": {}}]}",
     "sim.colliders[0].shape_type: unknown value 'Cube' of enum Shape"},
    {"meta", "{\"name\": \"x\", \"name\": \"y\"}", "meta: field 'name' given twice"},
    {"geometry", "{\"materials\": [{\"water\": {\"fog_color\": {\"x\": 1, \"y\": 1}}}]}",
     "geometry.materials[0].water.fog_color: struct Vec3 without its member 'z'"},
    /* accepted by both: non-finite floats as blvl dump prints them, and bare as flatc prints */
    {"sim", "{\"kill_y\": \"nan\"}", NULL},
    {"sim", "{\"kill_y\": \"-inf\"}", NULL},
    {"sim", "{\"kill_y\": -inf}", NULL},
    {"sim", "{\"colliders\": [{\"lo\": {\"x\": \"inf\", \"y\": \"nan\", \"z\": 0}}]}", NULL},
};

static int flatc_accepts(const char *dir, const char *tag, const char *json) {
    char path[512], cmd[1024];
    snprintf(path, sizeof path, "%s/%s.json", dir, tag);
    if (test_spit(path, json, strlen(json)) != 0)
        return -1;
    snprintf(cmd, sizeof cmd, "flatc -b -o %s schema/%s.fbs %s >/dev/null 2>&1", dir, tag, path);
    return system(cmd) == 0;
}

static void verdicts(const char *dir) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const json_case *c = &cases[i];
        void *out = NULL;
        size_t n = 0;
        blvl_error err;
        memset(&err, 0, sizeof err);
        blvl_status st =
            blvl_section_from_json(&out, &n, c->tag, c->json, strlen(c->json), NULL, &err);
        int ours = st == BLVL_OK, theirs = flatc_accepts(dir, c->tag, c->json);
        if (ours != theirs || (c->want == NULL) != ours ||
            (c->want && (st != BLVL_E_FLATBUFFER || !strstr(err.message, c->want)))) {
            fprintf(stderr, "%s %s: ours %s (%s), flatc %s; wanted '%s'\n", c->tag, c->json,
                    ours ? "accepts" : "refuses", ours ? "" : err.message,
                    theirs ? "accepts" : "refuses", c->want ? c->want : "(accept)");
            CHECK(0);
        }
        if (out)
            blvl_free(NULL, out);
    }
}

/* A sim with NaN and infinities: dump prints strings, the dump parses (ours and flatc's) and
 * packs to the same values. */
static void non_finite(const char *dir) {
    blvl_fb_builder *b;
    blvl_error err;
    CHECK_EQ_INT(blvl_fb_builder_new(&b, NULL, &err), BLVL_OK);
    blvl_Collider_start(b);
    blvl_Vec3 lo = {NAN, INFINITY, -INFINITY};
    blvl_Collider_add_lo(b, &lo);
    blvl_fb_ref col = blvl_Collider_end(b);
    blvl_fb_ref cols = blvl_fb_create_ref_vector(b, &col, 1);
    blvl_Sim_start(b);
    blvl_Sim_add_colliders(b, cols);
    blvl_Sim_add_kill_y(b, -INFINITY);
    blvl_fb_ref root = blvl_Sim_end(b);
    const uint8_t *data;
    size_t size;
    CHECK_EQ_INT(blvl_Sim_finish(b, root, &data, &size, &err), BLVL_OK);
    char *json = NULL;
    size_t jlen = 0;
    CHECK_EQ_INT(blvl_section_to_json(&json, &jlen, "sim", data, size, 2, NULL, &err), BLVL_OK);
    blvl_fb_builder_free(b);
    if (!json)
        return;
    CHECK(strstr(json, "\"x\": \"nan\"") != NULL);
    CHECK(strstr(json, "\"y\": \"inf\"") != NULL);
    CHECK(strstr(json, "\"z\": \"-inf\"") != NULL);
    CHECK(strstr(json, "\"kill_y\": \"-inf\"") != NULL);
    /* valid JSON by a strict parser, and flatc reads it */
    char path[512], cmd[1024];
    snprintf(path, sizeof path, "%s/nf.json", dir);
    CHECK(test_spit(path, json, jlen) == 0);
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' %s", path);
    CHECK(test_run(cmd) == 0);
    CHECK(flatc_accepts(dir, "sim", json) == 1);
    void *again = NULL;
    size_t alen = 0;
    CHECK_EQ_INT(blvl_section_from_json(&again, &alen, "sim", json, jlen, NULL, &err), BLVL_OK);
    if (again) {
        CHECK_EQ_INT(blvl_Sim_verify(again, alen, &err), BLVL_OK);
        blvl_Sim s = blvl_Sim_root(again);
        blvl_Vec3 v = blvl_Collider_lo(blvl_Sim_colliders_at(s, 0));
        CHECK(isnan(v.x) && isinf(v.y) && v.y > 0 && isinf(v.z) && v.z < 0);
        CHECK(isinf(blvl_Sim_kill_y(s)) && blvl_Sim_kill_y(s) < 0);
        char *json2 = NULL;
        size_t jlen2 = 0;
        CHECK_EQ_INT(blvl_section_to_json(&json2, &jlen2, "sim", again, alen, 2, NULL, &err),
                     BLVL_OK);
        CHECK(json2 && jlen2 == jlen && memcmp(json, json2, jlen) == 0);
        blvl_free(NULL, json2);
        blvl_free(NULL, again);
    }
    blvl_free(NULL, json);
}

/* .bsym: the file identifier is written by every builder (ours, flatc) and required by the
 * verifier; the level hash is exactly 16 bytes; bsym is no section of a level. */
static void bsym(const char *dir) {
    size_t n;
    uint8_t *sample = test_slurp("tests/data/sections/bsym.json", &n);
    CHECK(sample != NULL);
    if (!sample)
        return;
    void *ours = NULL;
    size_t olen = 0;
    blvl_error err;
    CHECK_EQ_INT(blvl_section_from_json(&ours, &olen, "bsym", (const char *)sample, n, NULL, &err),
                 BLVL_OK);
    CHECK(ours && olen > 8 && memcmp((uint8_t *)ours + 4, "BSYM", 4) == 0);
    CHECK(flatc_accepts(dir, "bsym", (const char *)sample) == 1);
    char path[512];
    snprintf(path, sizeof path, "%s/bsym.bin", dir);
    uint8_t *theirs = test_slurp(path, &n);
    CHECK(theirs && n > 8 && memcmp(theirs + 4, "BSYM", 4) == 0);
    if (theirs)
        CHECK_EQ_INT(blvl_section_verify_bytes("bsym", theirs, n, NULL, &err), BLVL_OK);
    free(theirs);
    if (ours) {
        CHECK_EQ_INT(blvl_Symbols_verify(ours, olen, &err), BLVL_OK);
        /* another identifier is refused, naming it */
        ((uint8_t *)ours)[4] = 'X';
        CHECK_EQ_INT(blvl_Symbols_verify(ours, olen, &err), BLVL_E_FLATBUFFER);
        CHECK(strstr(err.message, "file identifier is not \"BSYM\"") != NULL);
        blvl_free(NULL, ours);
    }
    free(sample);
    /* a level hash of 15 or 17 bytes: refused by the parser and, built by hand, the verifier */
    static const char *const bad[] = {
        "{\"level\": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15], \"version\": 1}",
        "{\"level\": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17], \"version\": 1}",
        "{\"level\": []}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ours = NULL;
        CHECK_EQ_INT(
            blvl_section_from_json(&ours, &olen, "bsym", bad[i], strlen(bad[i]), NULL, &err),
            BLVL_E_FLATBUFFER);
        CHECK(strstr(err.message, "bsym.level: ") != NULL &&
              strstr(err.message, "exactly 16") != NULL);
    }
    blvl_fb_builder *b;
    CHECK_EQ_INT(blvl_fb_builder_new(&b, NULL, &err), BLVL_OK);
    uint8_t id[15] = {0};
    blvl_fb_ref level = blvl_Symbols_level_create(b, id, sizeof id);
    blvl_Symbols_start(b);
    blvl_Symbols_add_level(b, level);
    blvl_fb_ref root = blvl_Symbols_end(b);
    const uint8_t *data;
    CHECK_EQ_INT(blvl_Symbols_finish(b, root, &data, &olen, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_Symbols_verify(data, olen, &err), BLVL_E_FLATBUFFER);
    CHECK(strstr(err.message, "flatbuffer: Symbols.level: 15 elements where the schema wants "
                              "exactly 16") != NULL);
    /* an absent level is still legal (absent means empty, and the reader calls it stale) */
    blvl_fb_builder_reset(b);
    blvl_Symbols_start(b);
    blvl_Symbols_add_version(b, 1);
    root = blvl_Symbols_end(b);
    CHECK_EQ_INT(blvl_Symbols_finish(b, root, &data, &olen, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_Symbols_verify(data, olen, &err), BLVL_OK);
    blvl_fb_builder_free(b);
    /* not a core section of a level */
    CHECK(blvl_section_type("bsym", NULL) == NULL);
    CHECK(blvl_schema_type("bsym") == &blvl_Symbols_type);
    for (unsigned i = 0; blvl_core_tag_at(i); i++)
        CHECK(strcmp(blvl_core_tag_at(i), "bsym") != 0);
}

int main(void) {
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/blvl-jsonflatc-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    verdicts(dir);
    non_finite(dir);
    bsym(dir);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return check_report("test_json_flatc");
}
