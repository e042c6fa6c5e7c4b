/* Round trips against flatc for every section sample in tests/data/sections/<tag>.json:
 *   JSON -> flatc -b -> our verifier + JSON printer == flatc --json of the same bytes;
 *   JSON -> our parser + builder -> flatc --json == flatc's own JSON of the sample;
 *   our bytes are canonical: print(parse(x)) parsed again gives identical bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "blvl/fb_json.h"
#include "check.h"
#include "files.h"
#include "sections/roots.h"

static char dir[64];

static void one(const char *tag, const blvl_fb_type *root) {
    char cmd[2048], path[512];
    blvl_error err;
    snprintf(cmd, sizeof cmd, "flatc -b -o %s/a schema/%s.fbs tests/data/sections/%s.json", dir,
             tag, tag);
    if (test_run(cmd)) {
        CHECK(!"flatc -b");
        return;
    }
    /* flatc's bytes: verify, print, compare with flatc's own JSON. */
    size_t n;
    snprintf(path, sizeof path, "%s/a/%s.bin", dir, tag);
    uint8_t *bin = test_slurp(path, &n);
    CHECK(bin != NULL);
    if (!bin)
        return;
    CHECK_EQ_INT(blvl_fb_verify(bin, n, root, NULL, &err), BLVL_OK);
    char *json;
    size_t jlen;
    CHECK_EQ_INT(blvl_fb_to_json(&json, &jlen, bin, n, root, 2, NULL, &err), BLVL_OK);
    snprintf(path, sizeof path, "%s/a/%s.ours.json", dir, tag);
    CHECK(test_spit(path, json, jlen) == 0);
    blvl_free(NULL, json);
    snprintf(cmd, sizeof cmd,
             "flatc --json --strict-json --raw-binary -o %s/a schema/%s.fbs -- %s/a/%s.bin && "
             "/usr/bin/python3 tests/fb/jsoncmp.py %s/a/%s.json %s/a/%s.ours.json",
             dir, tag, dir, tag, dir, tag, dir, tag);
    CHECK(test_run(cmd) == 0);
    free(bin);

    /* Our builder: parse the sample, let flatc print our bytes. */
    uint8_t *src = test_slurp(
        ((void)snprintf(path, sizeof path, "tests/data/sections/%s.json", tag), path), &n);
    CHECK(src != NULL);
    if (!src)
        return;
    void *ours;
    size_t olen;
    blvl_status st = blvl_fb_from_json(&ours, &olen, (const char *)src, n, root, NULL, &err);
    CHECK_EQ_INT(st, BLVL_OK);
    if (st) {
        fprintf(stderr, "%s: %s\n", tag, err.message);
        free(src);
        return;
    }
    CHECK_EQ_INT(blvl_fb_verify(ours, olen, root, NULL, &err), BLVL_OK);
    snprintf(path, sizeof path, "%s/b/%s.bin", dir, tag);
    CHECK(test_spit(path, ours, olen) == 0);
    snprintf(cmd, sizeof cmd,
             "flatc --json --strict-json --raw-binary -o %s/b schema/%s.fbs -- %s/b/%s.bin && "
             "/usr/bin/python3 tests/fb/jsoncmp.py %s/a/%s.json %s/b/%s.json",
             dir, tag, dir, tag, dir, tag, dir, tag);
    CHECK(test_run(cmd) == 0);

    /* Canonical: our JSON of our bytes builds the very same bytes again. */
    CHECK_EQ_INT(blvl_fb_to_json(&json, &jlen, ours, olen, root, 0, NULL, &err), BLVL_OK);
    void *again;
    size_t alen;
    CHECK_EQ_INT(blvl_fb_from_json(&again, &alen, json, jlen, root, NULL, &err), BLVL_OK);
    CHECK(alen == olen && memcmp(again, ours, olen) == 0);
    blvl_free(NULL, again);
    blvl_free(NULL, json);
    blvl_free(NULL, ours);
    free(src);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/blvl-fbrt-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/a %s/b", dir, dir);
    if (test_run(cmd))
        return 1;
    /* every root schema of the generated registry: the core sections and bsym */
    for (unsigned i = 0; i < blvl__sections_root_count; i++)
        one(blvl__sections_roots[i].name, blvl__sections_roots[i].type);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd);
    return check_report("test_fb_roundtrip");
}
