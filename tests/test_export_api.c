/* The export library (include/blvl/export.h) without the command line: a level built in memory
 * from the sample sections (the JSON files of tests/data/sections) exported through a counting
 * allocator (every byte back, every free with its size), under every allocation failure in turn
 * (each refused with out-of-memory, nothing leaked, no output); the .gltf form's JSON and buffer
 * agree with the .glb's chunks; a refused level leaves an existing file untouched and no temporary;
 * and hostile sections one at a time, each refused with its rule. The validator and the
 * independent reader are tests/test_export.sh's. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/export.h"
#include "blvl/sections.h"
#include "check.h"
#include "files.h"
#include "support/counting_alloc.h"

#define NTAGS 32 /* at most this many core tags */

/* The sample level (every core section tests/data/sections/ has), with section `tag` replaced
 * by `json` when given. */
static uint8_t *level_bytes(const char *tag, const char *json, size_t *n) {
    blvl_section_in in[NTAGS];
    void *buf[NTAGS] = {0};
    size_t k = 0;
    blvl_error e;
    const char *tags[NTAGS];
    size_t nt = 0;
    for (const char *t; nt < NTAGS && (t = blvl_core_tag_at((unsigned)nt)) != NULL;)
        tags[nt++] = t;
    for (size_t i = 0; i < nt; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/sections/%s.json", tags[i]);
        size_t jn;
        uint8_t *j =
            (tag && strcmp(tag, tags[i]) == 0) ? (uint8_t *)strdup(json) : test_slurp(path, &jn);
        if (!j)
            continue;
        size_t bn;
        if (blvl_section_from_json(&buf[k], &bn, tags[i], (const char *)j, strlen((const char *)j),
                                   NULL, &e) != BLVL_OK) {
            fprintf(stderr, "%s: %s\n", tags[i], e.message);
            free(j);
            continue;
        }
        free(j);
        in[k] = (blvl_section_in){tags[i], 0, 0, buf[k], bn};
        k++;
    }
    void *out = NULL;
    if (blvl_write_memory(&out, n, in, k, NULL, &e) != BLVL_OK)
        fprintf(stderr, "write: %s\n", e.message);
    for (size_t i = 0; i < k; i++)
        blvl_free(NULL, buf[i]);
    return out;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A sample section as text with `from` replaced by `to` (first occurrence). */
static char *edit(const char *tag, const char *from, const char *to) {
    char path[256];
    snprintf(path, sizeof path, "tests/data/sections/%s.json", tag);
    size_t n;
    char *s = (char *)test_slurp(path, &n);
    char *at = s ? strstr(s, from) : NULL;
    if (!at) {
        free(s);
        return NULL;
    }
    char *r = malloc(n + strlen(to) + 1);
    size_t pre = (size_t)(at - s);
    memcpy(r, s, pre);
    strcpy(r + pre, to);
    strcat(r, at + strlen(from));
    free(s);
    return r;
}

static void refused(const char *tag, const char *from, const char *to, const char *rule) {
    char *json = edit(tag, from, to);
    CHECK(json != NULL);
    if (!json)
        return;
    size_t n;
    uint8_t *bytes = level_bytes(tag, json, &n);
    free(json);
    CHECK(bytes != NULL);
    if (!bytes)
        return;
    blvl_level *lv;
    blvl_error e;
    CHECK_EQ_INT(blvl_open_memory(&lv, bytes, n, NULL, &e), BLVL_OK);
    void *glb = (uint8_t *)"x";
    size_t gn = 1;
    blvl_export_options xo = {0};
    xo.collision = true;
    CHECK_EQ_INT(blvl_export_glb(&glb, &gn, lv, &xo, &e), BLVL_E_ARGUMENT);
    CHECK(glb == NULL && gn == 0);
    if (!strstr(e.message, rule)) {
        fprintf(stderr, "expected %s, got: %s\n", rule, e.message);
        CHECK(0);
    }
    blvl_close(lv);
    blvl_free(NULL, bytes);
}

int main(void) {
    size_t n;
    uint8_t *bytes = level_bytes(NULL, NULL, &n);
    CHECK(bytes != NULL);
    if (!bytes)
        return check_report("test_export_api");
    blvl_level *lv;
    blvl_error e;
    CHECK_EQ_INT(blvl_open_memory(&lv, bytes, n, NULL, &e), BLVL_OK);

    /* 1. Through a counting allocator: everything back, sizes right. */
    test_counter c;
    blvl_options opt = test_counting(&c);
    blvl_export_options xo = {0};
    xo.base = opt;
    xo.collision = true;
    void *glb = NULL;
    size_t gn = 0;
    CHECK_EQ_INT(blvl_export_glb(&glb, &gn, lv, &xo, &e), BLVL_OK);
    const uint8_t *g = glb;
    CHECK(gn > 20 && memcmp(g, "glTF", 4) == 0 && le32(g + 4) == 2 && le32(g + 8) == gn);
    uint32_t jlen = le32(g + 12);
    CHECK(jlen % 4 == 0 && memcmp(g + 16, "JSON", 4) == 0);
    CHECK(memcmp(g + 20 + jlen + 4, "BIN\0", 4) == 0);
    CHECK(c.calls > 0);
    blvl_free(&opt, glb);
    CHECK(c.live == 0 && c.bad_free == 0);
    long total = c.calls;

    /* 2. Every allocation failure in turn: out-of-memory, nothing leaked, no output. */
    int sweep_ok = 1;
    for (long k = 1; k <= total; k++) {
        opt = test_counting(&c);
        xo.base = opt;
        c.fail_at = k;
        glb = (uint8_t *)"x";
        blvl_status st = blvl_export_glb(&glb, &gn, lv, &xo, &e);
        if (st == BLVL_OK) {
            blvl_free(&opt, glb);
        } else if (st != BLVL_E_NOMEM || glb != NULL) {
            fprintf(stderr, "failure at %ld: %s\n", k, e.message);
            sweep_ok = 0;
        }
        if (c.live != 0 || c.bad_free) {
            fprintf(stderr, "failure at %ld: %ld blocks left\n", k, c.live);
            sweep_ok = 0;
        }
    }
    CHECK(sweep_ok);

    /* 3. The .gltf form: the same JSON apart from the buffer's uri, the same buffer. */
    opt = test_counting(&c);
    xo.base = opt;
    CHECK_EQ_INT(blvl_export_glb(&glb, &gn, lv, &xo, &e), BLVL_OK);
    g = glb;
    char *json = NULL;
    void *bin = NULL;
    size_t jn = 0, bn = 0;
    CHECK_EQ_INT(blvl_export_gltf(&json, &jn, &bin, &bn, lv, "level.bin", &xo, &e), BLVL_OK);
    CHECK(json && strstr(json, "\"uri\":\"level.bin\"") != NULL);
    jlen = le32(g + 12);
    CHECK(bn <= le32(g + 20 + jlen) && memcmp(bin, g + 20 + jlen + 8, bn) == 0);
    size_t glb_json = jlen;
    while (glb_json > 0 && g[20 + glb_json - 1] == ' ')
        glb_json--;
    CHECK(jn == strlen(json) && jn == glb_json + strlen(",\"uri\":\"level.bin\""));
    blvl_free(&opt, json);
    blvl_free(&opt, bin);
    blvl_free(&opt, glb);
    CHECK(c.live == 0 && c.bad_free == 0);
    blvl_close(lv);
    blvl_free(NULL, bytes);

    /* 4. Files: a refused level keeps what was at the path and leaves no temporary. */
    char dir[] = "/tmp/blvl-export-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/out.glb", dir);
    CHECK(test_spit(path, "keep", 4) == 0);
    char *bad = edit("geometry", "\"material\": 0", "\"material\": 90");
    CHECK(bad != NULL);
    bytes = level_bytes("geometry", bad, &n);
    free(bad);
    CHECK_EQ_INT(blvl_open_memory(&lv, bytes, n, NULL, &e), BLVL_OK);
    xo.base = (blvl_options){0};
    CHECK_EQ_INT(blvl_export_glb_file(lv, path, &xo, &e), BLVL_E_ARGUMENT);
    size_t kn;
    uint8_t *kept = test_slurp(path, &kn);
    CHECK(kept && kn == 4 && memcmp(kept, "keep", 4) == 0);
    free(kept);
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *de; d && (de = readdir(d));)
        entries += de->d_name[0] != '.';
    if (d)
        closedir(d);
    CHECK_EQ_INT(entries, 1);
    unlink(path);
    rmdir(dir);
    blvl_close(lv);
    blvl_free(NULL, bytes);

    /* 5. One rule broken at a time. */
    refused("geometry", "\"material\": 6", "\"material\": 90", "index-range: geometry.batches[0]");
    refused("geometry", "\"index_count\": 12", "\"index_count\": 13",
            "index-range: geometry.batches");
    refused("geometry", "\"first_index\": 0", "\"first_index\": 999", "index-range");
    refused("cameras", "\"fov_x\": 100", "\"fov_x\": 180", "camera-fov");
    refused("lighting", "\"lightmap\": 0", "\"lightmap\": 9", "index-range: lighting.profiles[0]");
    /* PNG bytes embedded as stored pass the image layer's header walk first: no signature, or
     * an IDAT chunk whose length runs past the data, is refused. */
    refused("textures", "137, 80, 78, 71", "137, 81, 78, 71", "image-data: textures.images[0]");
    refused("textures", "0, 0, 0, 21, 73, 68, 65, 84", "0, 0, 1, 21, 73, 68, 65, 84",
            "image-data: textures.images[0]");
    return check_report("test_export_api");
}
