/* blvl-diag's library API: the catalogue (codes D0001.. in order, unique, found by code), a
 * small level with known defects collected with every option (only, max_per_check, a callback
 * that stops), the argument refusals, and every allocation failure of a run under a counting
 * allocator: each refused with BLVL_E_NOMEM (or finishing), nothing leaked, every free sized. */
#include <stdio.h>
#include <string.h>

#include "blvl/diag.h"
#include "blvl/sections.h"
#include "check.h"
#include "support/counting_alloc.h"

static const char meta_json[] = "{\"name\": \"diag api\"}";
/* A floor below y = 0, a spawn standing on it, a spawn in mid-air (D0033). */
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
    "{\"position\": {\"x\": 0, \"y\": 500, \"z\": 0}}]}";
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

static uint8_t *level_bytes;
static size_t level_size;

static void make_level(void) {
    const char *tags[3] = {"meta", "sim", "geometry"};
    const char *json[3] = {meta_json, sim_json, geometry_json};
    uint8_t *fb[3];
    size_t fb_size[3];
    blvl_section_in in[3];
    blvl_error err;
    for (int i = 0; i < 3; i++) {
        if (blvl_section_from_json(tags[i], json[i], strlen(json[i]), NULL, &fb[i], &fb_size[i],
                                   &err) != BLVL_OK) {
            fprintf(stderr, "%s: %s\n", tags[i], err.message);
            CHECK(0);
        }
        in[i] = (blvl_section_in){tags[i], 0, 0, fb[i], fb_size[i]};
    }
    CHECK(blvl_write_memory(in, 3, NULL, &level_bytes, &level_size, &err) == BLVL_OK);
    for (int i = 0; i < 3; i++)
        blvl_free(NULL, fb[i]);
}

static void catalogue(void) {
    uint32_t n = 0;
    const blvl_diag_check *c = blvl_diag_catalogue(&n);
    CHECK_EQ_INT(n, 38);
    for (uint32_t i = 0; i < n; i++) {
        char want[16];
        snprintf(want, sizeof want, "D%04u", i + 1);
        CHECK(strcmp(c[i].code, want) == 0);
        CHECK(blvl_diag_check_find(want) == &c[i]);
        CHECK(c[i].title[0] && c[i].section[0]);
    }
    CHECK(blvl_diag_check_find("D0000") == NULL);
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
    blvl_diag_findings f;
    CHECK(blvl_diag_collect(lv, NULL, NULL, &f, &err) == BLVL_OK);
    CHECK_EQ_INT(f.count, 4);
    CHECK(f.count == 4 && strcmp(f.items[0].code, "D0001") == 0 && f.items[0].index == 0);
    CHECK(f.count == 4 && strcmp(f.items[1].code, "D0018") == 0 && f.items[1].index == 0);
    CHECK(f.count == 4 && strcmp(f.items[2].code, "D0018") == 0 && f.items[2].index == 1);
    CHECK(f.count == 4 && strcmp(f.items[3].code, "D0033") == 0 && f.items[3].index == 1);
    CHECK(f.count && strcmp(f.items[0].section, "geometry.batches") == 0);
    CHECK(f.count && strstr(f.items[0].message, "material 5 out of range (1 materials)"));
    CHECK(f.count && f.items[0].source[0] == '\0');
    CHECK_EQ_INT(f.counts.errors, 2);
    CHECK_EQ_INT(f.counts.warnings, 2);
    blvl_diag_findings_free(&f);

    blvl_diag_options d = {0};
    d.max_per_check = 1;
    CHECK(blvl_diag_collect(lv, &d, NULL, &f, &err) == BLVL_OK);
    CHECK_EQ_INT(f.count, 3);           /* one D0018 shown ... */
    CHECK_EQ_INT(f.counts.warnings, 2); /* ... both counted */
    blvl_diag_findings_free(&f);

    const char *only[] = {"D0018"};
    d.max_per_check = 0;
    d.only = only;
    d.only_count = 1;
    CHECK(blvl_diag_collect(lv, &d, NULL, &f, &err) == BLVL_OK);
    CHECK_EQ_INT(f.count, 2);
    CHECK_EQ_INT(f.counts.errors, 0);
    blvl_diag_findings_free(&f);

    const char *bad[] = {"D0018", "D9"};
    d.only = bad;
    d.only_count = 2;
    CHECK(blvl_diag_collect(lv, &d, NULL, &f, &err) == BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "D9") != NULL);
    CHECK(f.count == 0 && f.items == NULL);

    int calls = 0;
    blvl_diag_counts counts;
    CHECK(blvl_diag_run(lv, NULL, stop_first, &calls, &counts, NULL, &err) == BLVL_OK);
    CHECK_EQ_INT(calls, 1);
    CHECK(blvl_diag_run(NULL, NULL, NULL, NULL, &counts, NULL, &err) == BLVL_E_ARGUMENT);
    CHECK(blvl_diag_collect(lv, NULL, NULL, NULL, &err) == BLVL_E_ARGUMENT);
    blvl_close(lv);
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
            blvl_diag_findings f;
            st = blvl_diag_collect(lv, NULL, &opt, &f, &err);
            if (st == BLVL_OK) {
                finished = c.calls < n; /* nothing left to refuse */
                CHECK(f.count == 4 || !finished);
                blvl_diag_findings_free(&f);
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
    allocation_failures();
    blvl_free(NULL, level_bytes);
    return check_report("test_diag_api");
}
