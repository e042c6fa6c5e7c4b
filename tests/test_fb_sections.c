/* The section layer over a real level: typed reads, the version policy (unknown version drops
 * an optional section, refuses meta/sim), missing required sections, and a payload the
 * FlatBuffers verifier refuses inside an otherwise valid container. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "blvl/sections.h"

static uint8_t *from_sample(const char *tag, size_t *n) {
    char path[256];
    snprintf(path, sizeof path, "tests/data/sections/%s.json", tag);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char json[1 << 20];
    size_t len = fread(json, 1, sizeof json, f);
    fclose(f);
    void *out;
    blvl_error err;
    if (blvl_section_from_json(&out, n, tag, json, len, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s\n", err.message);
        return NULL;
    }
    return out;
}

static blvl_status open_with(blvl_section_in *in, size_t count, blvl_level **lv, void **file,
                             size_t *fsize) {
    blvl_error err;
    blvl_status st = blvl_write_memory(file, fsize, in, count, NULL, &err);
    if (st) {
        fprintf(stderr, "write: %s\n", err.message);
        return st;
    }
    return blvl_open_memory(lv, *file, *fsize, NULL, &err);
}

int main(void) {
    size_t nmeta, nsim, ngeo;
    uint8_t *meta = from_sample("meta", &nmeta), *sim = from_sample("sim", &nsim),
            *geo = from_sample("geometry", &ngeo);
    CHECK(meta && sim && geo);
    if (!meta || !sim || !geo)
        return check_report("test_fb_sections");
    blvl_section_in in[3] = {
        {"meta", 0, 1, meta, nmeta}, {"sim", 0, 1, sim, nsim}, {"geometry", 0, 1, geo, ngeo}};
    blvl_level *lv;
    void *file;
    size_t fsize;
    blvl_error err;
    CHECK_EQ_INT(open_with(in, 3, &lv, &file, &fsize), BLVL_OK);
    CHECK_EQ_INT(blvl_sections_verify(lv, &err), BLVL_OK);
    blvl_bytes s;
    blvl_Sim simt;
    CHECK_EQ_INT(blvl_level_sim(lv, &s, &simt, &err), BLVL_OK);
    CHECK(blvl_Sim_colliders_len(simt) > 0);
    blvl_bytes_free(&s);
    blvl_Geometry g;
    CHECK_EQ_INT(blvl_level_geometry(lv, &s, &g, &err), BLVL_OK);
    CHECK(blvl_Geometry_vertices_len(g) > 0);
    blvl_bytes_free(&s);
    blvl_Cameras cams;
    CHECK_EQ_INT(blvl_level_cameras(lv, &s, &cams, &err), BLVL_E_NOT_FOUND);
    CHECK_EQ_INT(blvl_Cameras_cameras_len(cams), 0); /* absent reads as empty */
    blvl_close(lv);
    blvl_free(NULL, file);

    /* geometry at an unknown version: dropped, the level still verifies */
    in[2].version = 3;
    CHECK_EQ_INT(open_with(in, 3, &lv, &file, &fsize), BLVL_OK);
    CHECK_EQ_INT(blvl_sections_verify(lv, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_level_geometry(lv, &s, &g, &err), BLVL_E_NOT_FOUND);
    CHECK(strstr(err.message, "dropped") != NULL);
    blvl_close(lv);
    blvl_free(NULL, file);
    in[2].version = 0;

    /* meta at an unknown version refuses the level */
    in[0].version = 1;
    CHECK_EQ_INT(open_with(in, 3, &lv, &file, &fsize), BLVL_OK);
    CHECK_EQ_INT(blvl_sections_verify(lv, &err), BLVL_E_SECTION_VERSION);
    blvl_close(lv);
    blvl_free(NULL, file);
    in[0].version = 0;

    /* no sim */
    blvl_section_in nosim[2] = {in[0], in[2]};
    CHECK_EQ_INT(open_with(nosim, 2, &lv, &file, &fsize), BLVL_OK);
    CHECK_EQ_INT(blvl_sections_verify(lv, &err), BLVL_E_REQUIRED);
    blvl_close(lv);
    blvl_free(NULL, file);

    /* a geometry payload that is not a valid FlatBuffer */
    uint8_t *bad = malloc(ngeo);
    memcpy(bad, geo, ngeo);
    bad[0] = 0x00, bad[1] = 0xFF, bad[2] = 0xFF, bad[3] = 0x00; /* root offset past the end */
    in[2].data = bad;
    CHECK_EQ_INT(open_with(in, 3, &lv, &file, &fsize), BLVL_OK);
    CHECK_EQ_INT(blvl_sections_verify(lv, &err), BLVL_E_FLATBUFFER);
    CHECK(strstr(err.message, "geometry") != NULL);
    blvl_close(lv);
    blvl_free(NULL, file);
    free(bad);

    /* The level rules run tag by tag (FORMAT.md §15): all three for meta, then for sim, then
     * for the optional tags in byte order. A meta the verifier refuses is reported before a
     * missing sim (rule by rule, sim's required-section would come first). */
    uint8_t junk[8] = {0x00, 0xFF, 0xFF, 0x00, 0, 0, 0, 0}; /* root offset past the end */
    in[2].data = geo;                                       /* the bad geometry above is freed */
    blvl_section_in badmeta[2] = {{"meta", 0, 1, junk, sizeof junk}, in[2]};
    CHECK_EQ_INT(open_with(badmeta, 2, &lv, &file, &fsize), BLVL_OK);
    CHECK_EQ_INT(blvl_sections_verify(lv, &err), BLVL_E_FLATBUFFER);
    CHECK(strstr(err.message, "section meta") != NULL);
    blvl_close(lv);
    blvl_free(NULL, file);
    CHECK_EQ_INT(blvl_sections_check(badmeta, 2, NULL, &err), BLVL_E_FLATBUFFER);
    CHECK(strstr(err.message, "section meta") != NULL);
    /* geometry and acoustics both bad, geometry first in the table: acoustics is reported */
    blvl_section_in two[4] = {in[0],
                              in[1],
                              {"geometry", 0, 1, junk, sizeof junk},
                              {"acoustics", 0, 1, junk, sizeof junk}};
    CHECK_EQ_INT(open_with(two, 4, &lv, &file, &fsize), BLVL_OK);
    CHECK_EQ_INT(blvl_sections_verify(lv, &err), BLVL_E_FLATBUFFER);
    CHECK(strstr(err.message, "section acoustics") != NULL);
    blvl_close(lv);
    blvl_free(NULL, file);
    CHECK_EQ_INT(blvl_sections_check(two, 4, NULL, &err), BLVL_E_FLATBUFFER);
    CHECK(strstr(err.message, "section acoustics") != NULL);
    /* the order is the registry's: meta, sim, then the other core tags by name */
    CHECK(blvl_core_tag_at(0) && !strcmp(blvl_core_tag_at(0), "meta"));
    CHECK(blvl_core_tag_at(1) && !strcmp(blvl_core_tag_at(1), "sim"));
    unsigned ntags = 2;
    for (; blvl_core_tag_at(ntags); ntags++)
        if (ntags > 2)
            CHECK(strcmp(blvl_core_tag_at(ntags - 1), blvl_core_tag_at(ntags)) < 0);
    CHECK_EQ_INT(ntags, 12); /* the seed's twelve core sections */

    /* JSON by tag */
    char *json;
    size_t jlen;
    CHECK_EQ_INT(blvl_section_to_json(&json, &jlen, "meta", meta, nmeta, 0, NULL, &err), BLVL_OK);
    CHECK(jlen > 2 && json[0] == '{');
    blvl_free(NULL, json);
    CHECK_EQ_INT(blvl_section_to_json(&json, &jlen, "eds.blocks", meta, nmeta, 0, NULL, &err),
                 BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl_section_verify_bytes("sim", sim, nsim, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_section_verify_bytes("sim", sim, 4, NULL, &err), BLVL_E_FLATBUFFER);
    blvl_free(NULL, meta);
    blvl_free(NULL, sim);
    blvl_free(NULL, geo);
    return check_report("test_fb_sections");
}
