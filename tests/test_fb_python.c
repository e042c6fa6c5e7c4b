/* python3-flatbuffers (an independent implementation) against libblvl, for sim and geometry:
 * our builder's bytes read back in Python with every value of the sample, and the bytes
 * Python's builder packs from them verify and print (our JSON printer) as the sample. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "blvl/fb_json.h"
#include "check.h"
#include "files.h"
#include "blvl/sections.h"

static void one(const char *dir, const char *tag, const char *root_name, const blvl_fb_type *root) {
    char cmd[2048], path[512];
    blvl_error err;
    size_t n;
    snprintf(path, sizeof path, "tests/data/sections/%s.json", tag);
    uint8_t *src = test_slurp(path, &n);
    CHECK(src != NULL);
    if (!src)
        return;
    void *ours;
    size_t olen;
    CHECK_EQ_INT(blvl_fb_from_json(&ours, &olen, (const char *)src, n, root, NULL, &err), BLVL_OK);
    snprintf(path, sizeof path, "%s/%s.ours.bin", dir, tag);
    CHECK(test_spit(path, ours, olen) == 0);
    blvl_free(NULL, ours);
    free(src);
    snprintf(cmd, sizeof cmd,
             "flatc --python --gen-object-api --gen-all -o %s/py schema/%s.fbs && "
             "/usr/bin/python3 tests/fb/pycheck.py %s/py %s tests/data/sections/%s.json "
             "%s/%s.ours.bin %s/%s.py.bin",
             dir, tag, dir, root_name, tag, dir, tag, dir, tag);
    CHECK(system(cmd) == 0);
    snprintf(path, sizeof path, "%s/%s.py.bin", dir, tag);
    uint8_t *py = test_slurp(path, &n);
    CHECK(py != NULL);
    if (!py)
        return;
    char *json;
    size_t jlen;
    blvl_status st = blvl_fb_to_json(&json, &jlen, py, n, root, 2, NULL, &err);
    CHECK_EQ_INT(st, BLVL_OK);
    if (st == BLVL_OK) {
        snprintf(path, sizeof path, "%s/%s.py.json", dir, tag);
        CHECK(test_spit(path, json, jlen) == 0);
        blvl_free(NULL, json);
        /* flatc's JSON of the sample is the reference (it drops what the sample spells as a
         * default, as every builder does). */
        snprintf(cmd, sizeof cmd,
                 "flatc -b -o %s schema/%s.fbs tests/data/sections/%s.json && "
                 "flatc --json --strict-json --raw-binary -o %s schema/%s.fbs -- %s/%s.bin && "
                 "/usr/bin/python3 tests/fb/jsoncmp.py %s/%s.json %s/%s.py.json",
                 dir, tag, tag, dir, tag, dir, tag, dir, tag, dir, tag);
        CHECK(system(cmd) == 0);
    }
    free(py);
}

int main(void) {
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/blvl-fbpy-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    one(dir, "sim", "Sim", &blvl_Sim_type);
    one(dir, "geometry", "Geometry", &blvl_Geometry_type);
    one(dir, "meta", "Meta", &blvl_Meta_type);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return check_report("test_fb_python");
}
