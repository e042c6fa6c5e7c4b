/* blvl-diag's library API: the catalogue (codes D0000.. in order, unique, found by code), a
 * small level with known defects collected with every option (only, max_per_check, a callback
 * that stops), damaged sections (a digest, a chunk index, the FlatBuffers verifier: one D0000
 * naming the rule, the checks that need the section skipped), the argument refusals, and every
 * allocation failure of a run under a counting allocator: each refused with BLVL_E_NOMEM (or
 * finishing), nothing leaked, every free sized. */
#include <stdio.h>
#include <string.h>

#include "blvl/diag.h"
#include "blvl/sections.h"
#include "check.h"
#include "container_fixture.h"
#include "support/counting_alloc.h"

static const char meta_json[] = "{\"name\": \"diag api\"}";
/* A floor below y = 0 (x and z in -64..64), a spawn standing on it, a spawn 500 qu above it (the
 * game drops that player onto the floor: no finding), and a spawn beside it with nothing below
 * (D0033). */
static const char sim_json[] =
    "{\"colliders\": [{\"lo\": {\"x\": -64, \"y\": -16, \"z\": -64}, \"hi\": {\"x\": 64, \"y\": 0, "
    "\"z\": 64}, \"shape_type\": \"Planes\", \"shape\": {\"planes\": ["
    "{\"normal\": {\"x\": 1, \"y\": 0, \"z\": 0}, \"dist\": 64},"
    "{\"normal\": {\"x\": -1, \"y\": 0, \"z\": 0}, \"dist\": 64},"
    "{\"normal\": {\"x\": 0, \"y\": 1, \"z\": 0}, \"dist\": 0},"
    "{\"normal\": {\"x\": 0, \"y\": -1, \"z\": 0}, \"dist\": 16},"
    "{\"normal\": {\"x\": 0, \"y\": 0, \"z\": 1}, \"dist\": 64},"
    "{\"normal\": {\"x\": 0, \"y\": 0, \"z\": -1}, \"dist\": 64}]}}],"
    "\"spawns\": [{\"position\": {\"x\": 0, \"y\": 24, \"z\": 0}},"
    "{\"position\": {\"x\": 0, \"y\": 500, \"z\": 0}},"
    "{\"position\": {\"x\": 200, \"y\": 24, \"z\": 0}}]}";
#define VERT(x, z, ny)                                                                             \
    "{\"position\": {\"x\": " #x ", \"y\": 0, \"z\": " #z "}, \"normal\": {\"x\": 0, \"y\": " #ny  \
    ", \"z\": 0}, \"uv\": {\"x\": 0, \"y\": 0}, \"lightmap_uv\": {\"x\": 0, \"y\": 0}, "           \
    "\"color\": "                                                                                  \
    "{\"r\": 0, \"g\": 0, \"b\": 0, \"a\": 0}, \"tangent\": {\"x\": 32767, \"y\": 0, \"z\": 0, "   \
    "\"w\": 32767}}"
/* Two vertices with normals of length 2 (D0018 twice), a batch naming material 5 of 1 (D0001). */
static const char geometry_json[] = "{\"vertices\": [" VERT(0, 0, 2) "," VERT(0, 10, 2) "," VERT(
    10, 10, 1) "],"
               "\"indices\": [0, 1, 2], \"materials\": [{\"name\": \"m\"}],"
               "\"batches\": [{\"first_index\": 0, \"index_count\": 3, \"material\": 5}]}";

static void *level_bytes;
static size_t level_size;

static void make_level(void) {
    const char *tags[3] = {"meta", "sim", "geometry"};
    const char *json[3] = {meta_json, sim_json, geometry_json};
    void *fb[3];
    size_t fb_size[3];
    blvl_section_in in[3];
    blvl_error err;
    for (int i = 0; i < 3; i++) {
        if (blvl_section_from_json(&fb[i], &fb_size[i], tags[i], json[i], strlen(json[i]), NULL,
                                   &err) != BLVL_OK) {
            fprintf(stderr, "%s: %s\n", tags[i], err.message);
            CHECK(0);
        }
        in[i] = (blvl_section_in){tags[i], 0, 0, fb[i], fb_size[i]};
    }
    CHECK(blvl_write_memory(&level_bytes, &level_size, in, 3, NULL, &err) == BLVL_OK);
    for (int i = 0; i < 3; i++)
        blvl_free(NULL, fb[i]);
}

static void catalogue(void) {
    uint32_t n = 0;
    const blvl_diag_check *c = blvl_diag_catalogue(&n);
    CHECK_EQ_INT(n, 47);
    for (uint32_t i = 0; i < n; i++) {
        char want[16];
        snprintf(want, sizeof want, "D%04u", i);
        CHECK(strcmp(c[i].code, want) == 0);
        CHECK(blvl_diag_check_find(want) == &c[i]);
        CHECK(c[i].title[0] && c[i].section[0]);
    }
    CHECK(blvl_diag_check_find("D0047") == NULL);
    CHECK(blvl_diag_check_find("d0001") == NULL);
    CHECK(strcmp(blvl_diag_severity_name(BLVL_DIAG_WARNING), "warning") == 0);
}

static int stop_first(void *user, const blvl_diag_finding *f) {
    (void)f;
    ++*(int *)user;
    return 1;
}

static void findings(void) {
    blvl_level *lv;
    blvl_error err;
    CHECK(blvl_open_memory(&lv, level_bytes, level_size, NULL, &err) == BLVL_OK);
    blvl_diag_findings *f = NULL;
    CHECK(blvl_diag_collect(&f, lv, NULL, &err) == BLVL_OK);
    CHECK_EQ_INT(f->count, 4);
    CHECK(f->count == 4 && strcmp(f->items[0].code, "D0001") == 0 && f->items[0].index == 0);
    CHECK(f->count == 4 && strcmp(f->items[1].code, "D0018") == 0 && f->items[1].index == 0);
    CHECK(f->count == 4 && strcmp(f->items[2].code, "D0018") == 0 && f->items[2].index == 1);
    CHECK(f->count == 4 && strcmp(f->items[3].code, "D0033") == 0 && f->items[3].index == 2);
    CHECK(f->count && strcmp(f->items[0].section, "geometry.batches") == 0);
    CHECK(f->count && strstr(f->items[0].message, "material 5 out of range (1 materials)"));
    CHECK(f->count && f->items[0].source[0] == '\0');
    CHECK_EQ_INT(f->counts.errors, 2);
    CHECK_EQ_INT(f->counts.warnings, 2);
    blvl_diag_findings_free(f);

    blvl_diag_options d = {0};
    d.max_per_check = 1;
    CHECK(blvl_diag_collect(&f, lv, &d, &err) == BLVL_OK);
    CHECK_EQ_INT(f->count, 3);           /* one D0018 shown ... */
    CHECK_EQ_INT(f->counts.warnings, 2); /* ... both counted */
    blvl_diag_findings_free(f);

    const char *only[] = {"D0018"};
    d.max_per_check = 0;
    d.only = only;
    d.only_count = 1;
    CHECK(blvl_diag_collect(&f, lv, &d, &err) == BLVL_OK);
    CHECK_EQ_INT(f->count, 2);
    CHECK_EQ_INT(f->counts.errors, 0);
    blvl_diag_findings_free(f);

    const char *bad[] = {"D0018", "D9"};
    d.only = bad;
    d.only_count = 2;
    CHECK(blvl_diag_collect(&f, lv, &d, &err) == BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "D9") != NULL);
    CHECK(f == NULL);

    int calls = 0;
    blvl_diag_counts counts;
    CHECK(blvl_diag_run(&counts, lv, stop_first, &calls, NULL, &err) == BLVL_OK);
    CHECK_EQ_INT(calls, 1);
    CHECK(blvl_diag_run(&counts, NULL, NULL, NULL, NULL, &err) == BLVL_E_ARGUMENT);
    CHECK(blvl_diag_collect(NULL, lv, NULL, &err) == BLVL_E_ARGUMENT);
    blvl_close(lv);
}

/* ---- damaged sections ---------------------------------------------------------------------- */

/* One material naming texture 0 and the one image it needs: healthy, no finding of their own. */
static const char geometry_tex_json[] =
    "{\"vertices\": [" VERT(0, 0, 1) "," VERT(0, 10, 1) "," VERT(
        10, 10, 1) "], \"indices\": [0, 1, 2], \"materials\": [{\"name\": \"m\", \"texture\": 0}],"
                   "\"batches\": [{\"first_index\": 0, \"index_count\": 3, \"material\": 0}]}";
static const char textures_json[] =
    "{\"images\": [{\"width\": 1, \"height\": 1, \"encoding\": \"Rgba8\", \"data\": [1, 2, 3, "
    "4]}]}";

static uint8_t *fb_of(const char *tag, const char *json, size_t *size) {
    void *fb = NULL;
    blvl_error err;
    if (blvl_section_from_json(&fb, size, tag, json, strlen(json), NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", tag, err.message);
        CHECK(0);
    }
    return fb;
}

/* meta, sim, geometry_tex and, when `tex` is given, a textures section of those bytes (the
 * container writer does not verify them: junk is written as it is). */
static uint8_t *textured_level(const void *tex, size_t tex_size, size_t *size) {
    const char *tags[3] = {"meta", "sim", "geometry"};
    const char *json[3] = {meta_json, sim_json, geometry_tex_json};
    void *fb[3], *out = NULL;
    blvl_section_in in[4];
    for (int i = 0; i < 3; i++) {
        size_t n = 0;
        fb[i] = fb_of(tags[i], json[i], &n);
        in[i] = (blvl_section_in){tags[i], 0, 0, fb[i], n};
    }
    in[3] = (blvl_section_in){"textures", 0, 0, tex, tex_size};
    blvl_error err;
    CHECK(blvl_write_memory(&out, size, in, tex ? 4 : 3, NULL, &err) == BLVL_OK);
    for (int i = 0; i < 3; i++)
        blvl_free(NULL, fb[i]);
    return out;
}

/* Flip one bit in the middle of section `tag`'s stored bytes. */
static void flip_in(uint8_t *bytes, size_t size, const char *tag) {
    blvl_level *lv;
    blvl_error err;
    CHECK(blvl_open_memory(&lv, bytes, size, NULL, &err) == BLVL_OK);
    const blvl_entry *e = blvl_find(lv, tag);
    CHECK(e != NULL);
    uint64_t at = e ? e->offset + e->packed_size / 2 : 0;
    blvl_close(lv);
    CHECK(at < size);
    if (at < size)
        bytes[at] ^= 0x10;
}

static uint32_t count_code(const blvl_diag_findings *f, const char *code) {
    uint32_t n = 0;
    for (size_t i = 0; i < f->count; i++)
        n += strcmp(f->items[i].code, code) == 0;
    return n;
}

/* Diag of the level in bytes: the findings (caller frees); the run itself must succeed. */
static void collect(const uint8_t *bytes, size_t size, const blvl_diag_options *d,
                    blvl_diag_findings **f) {
    blvl_level *lv;
    blvl_error err;
    *f = NULL;
    CHECK(blvl_open_memory(&lv, bytes, size, NULL, &err) == BLVL_OK);
    blvl_status st = blvl_diag_collect(f, lv, d, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "diag: %s\n", err.message);
    CHECK(st == BLVL_OK);
    blvl_close(lv);
}

/* Exactly one D0000, about `section`, its message starting with the rule's name. */
static void one_damaged(const blvl_diag_findings *f, const char *section, const char *rule) {
    CHECK_EQ_INT(count_code(f, "D0000"), 1);
    for (size_t i = 0; i < f->count; i++) {
        if (strcmp(f->items[i].code, "D0000") != 0)
            continue;
        CHECK(strcmp(f->items[i].section, section) == 0);
        CHECK(f->items[i].index == BLVL_DIAG_NONE);
        CHECK(f->items[i].severity == BLVL_DIAG_ERROR);
        CHECK(strncmp(f->items[i].message, rule, strlen(rule)) == 0 &&
              f->items[i].message[strlen(rule)] == ':');
        if (strcmp(f->items[i].section, section) != 0 ||
            strncmp(f->items[i].message, rule, strlen(rule)))
            fprintf(stderr, "D0000 %s: %s (wanted %s, %s)\n", f->items[i].section,
                    f->items[i].message, section, rule);
    }
}

/* The textured level by the fixture (its payloads each one raw chunk), textures claiming one
 * raw byte more than its chunk index holds: chunk-index, with every digest right. */
static uint8_t *chunk_index_level(size_t *size) {
    const char *tags[4] = {"meta", "sim", "geometry", "textures"};
    const char *json[4] = {meta_json, sim_json, geometry_tex_json, textures_json};
    fx_file f;
    memset(&f, 0, sizeof f);
    memcpy(f.magic, "BLVL\r\n\x1a\n", 8);
    f.version = 1;
    f.floor = 4096;
    f.count = f.nentries = 4;
    f.table_offset = 64;
    uint8_t *payload[4];
    uint64_t at = 4096;
    for (int i = 0; i < 4; i++) {
        size_t n = 0;
        uint8_t *fb = fb_of(tags[i], json[i], &n);
        payload[i] = malloc(n + 16);
        CHECK(payload[i] != NULL);
        size_t packed = fx_raw_payload(payload[i], fb, (uint32_t)n);
        blvl_free(NULL, fb);
        fx_tag(&f.e[i], tags[i]);
        f.e[i].offset = at;
        f.e[i].packed = packed;
        f.e[i].raw = n + (i == 3);
        f.e[i].flags = 1; /* core sections are in identity */
        f.payload[i] = payload[i];
        f.size = at + packed;
        at = (at + packed + 63) / 64 * 64;
    }
    uint8_t *out = fx_emit(&f);
    *size = (size_t)f.size;
    for (int i = 0; i < 4; i++)
        free(payload[i]);
    return out;
}

static void damaged_sections(void) {
    size_t tex_size = 0, size = 0;
    uint8_t *tex = fb_of("textures", textures_json, &tex_size);
    blvl_diag_findings *f = NULL;

    /* controls: no textures section, every texture index is out of range; with it, none */
    uint8_t *lv = textured_level(NULL, 0, &size);
    collect(lv, size, NULL, &f);
    CHECK_EQ_INT(count_code(f, "D0004"), 1);
    CHECK_EQ_INT(count_code(f, "D0000"), 0);
    blvl_diag_findings_free(f);
    blvl_free(NULL, lv);
    lv = textured_level(tex, tex_size, &size);
    collect(lv, size, NULL, &f);
    CHECK_EQ_INT(count_code(f, "D0004"), 0);
    CHECK_EQ_INT(count_code(f, "D0000"), 0);
    CHECK_EQ_INT(count_code(f, "D0033"), 1);
    blvl_diag_findings_free(f);

    /* textures failing their digest: one D0000, no D0004 over an empty table */
    flip_in(lv, size, "textures");
    collect(lv, size, NULL, &f);
    one_damaged(f, "textures", "section-digest");
    CHECK_EQ_INT(count_code(f, "D0004"), 0);
    CHECK_EQ_INT(count_code(f, "D0033"), 1); /* sim's checks still run */
    CHECK_EQ_INT(f->counts.errors, 2);
    blvl_diag_findings_free(f);
    /* D0000 whatever `only` asks for: the asked check cannot judge a damaged section */
    const char *only[] = {"D0004"};
    blvl_diag_options d = {0};
    d.only = only;
    d.only_count = 1;
    collect(lv, size, &d, &f);
    one_damaged(f, "textures", "section-digest");
    CHECK_EQ_INT(f->count, 1);
    blvl_diag_findings_free(f);
    blvl_free(NULL, lv);

    /* sim failing its digest: a finding, not a failed run; no spawn or collider check runs */
    lv = textured_level(tex, tex_size, &size);
    flip_in(lv, size, "sim");
    collect(lv, size, NULL, &f);
    one_damaged(f, "sim", "section-digest");
    CHECK_EQ_INT(f->count, 1);
    blvl_diag_findings_free(f);
    blvl_free(NULL, lv);

    /* geometry failing its digest: the material and batch checks skipped, sim's still run */
    lv = textured_level(tex, tex_size, &size);
    flip_in(lv, size, "geometry");
    collect(lv, size, NULL, &f);
    one_damaged(f, "geometry", "section-digest");
    CHECK_EQ_INT(count_code(f, "D0008"), 0);
    CHECK_EQ_INT(count_code(f, "D0033"), 1);
    CHECK_EQ_INT(f->count, 2);
    blvl_diag_findings_free(f);
    blvl_free(NULL, lv);

    /* textures the FlatBuffers verifier refuses */
    static const char junk[] = "not a FlatBuffer, just 40 bytes of text!";
    lv = textured_level(junk, sizeof junk - 1, &size);
    collect(lv, size, NULL, &f);
    one_damaged(f, "textures", "flatbuffer");
    CHECK_EQ_INT(count_code(f, "D0004"), 0);
    blvl_diag_findings_free(f);
    blvl_free(NULL, lv);

    /* textures whose chunk index disagrees with the entry */
    lv = chunk_index_level(&size);
    collect(lv, size, NULL, &f);
    one_damaged(f, "textures", "chunk-index");
    CHECK_EQ_INT(count_code(f, "D0004"), 0);
    CHECK_EQ_INT(count_code(f, "D0033"), 1);
    blvl_diag_findings_free(f);
    free(lv);
    blvl_free(NULL, tex);
}

/* Every allocation of open + collect refused in turn. */
static void allocation_failures(void) {
    bool finished = false;
    for (long n = 1; n < 100000 && !finished; n++) {
        test_counter c;
        blvl_options opt = test_counting(&c);
        opt.threads = 1;
        c.fail_at = n;
        blvl_level *lv = NULL;
        blvl_error err;
        blvl_status st = blvl_open_memory(&lv, level_bytes, level_size, &opt, &err);
        if (st == BLVL_OK) {
            blvl_diag_findings *f = NULL;
            st = blvl_diag_collect(&f, lv, &(blvl_diag_options){.base = opt}, &err);
            if (st == BLVL_OK) {
                finished = c.calls < n; /* nothing left to refuse */
                CHECK(f->count == 4 || !finished);
                blvl_diag_findings_free(f);
            }
            blvl_close(lv);
        }
        CHECK(st == BLVL_OK || st == BLVL_E_NOMEM);
        CHECK_EQ_INT(c.live, 0);
        CHECK_EQ_INT(c.bad_free, 0);
    }
    CHECK(finished);
}

int main(void) {
    make_level();
    catalogue();
    findings();
    damaged_sections();
    allocation_failures();
    blvl_free(NULL, level_bytes);
    return check_report("test_diag_api");
}
