/* blvl_bake_write_file is atomic: the files it writes equal blvl_bake_write_memory's bytes;
 * when either target cannot be written, neither target changes and no temporary is left (the
 * symbols' directory missing, the level's path a directory, the level's directory missing). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "check.h"
#include "files.h"

static blvl_bake *make(void) {
    blvl_error err;
    blvl_bake *b = NULL;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    blvl_bake_meta m = {.name = "file test", .engine = blvl_Engine_Hmap};
    CHECK(blvl_bake_set_meta(b, &m, &err) == BLVL_OK);
    blvl_bake_collider c;
    blvl_bake_collider_init(&c);
    uint32_t i;
    CHECK(blvl_bake_add_box(b, &c, (blvl_Vec3){0, 0, 0}, (blvl_Vec3){64, 8, 64}, &i, &err) ==
          BLVL_OK);
    CHECK(blvl_bake_add_entity(b, "worldspawn", NULL, 0, &i, &err) == BLVL_OK);
    return b;
}

/* Names in `dir` holding ".tmp." (the writer's temporaries). */
static int temporaries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp."))
            n++;
    closedir(d);
    return n;
}

static int same_file(const char *path, const void *data, size_t size) {
    size_t n = 0;
    uint8_t *got = test_slurp(path, &n);
    int same = got && n == size && memcmp(got, data, size) == 0;
    free(got);
    return same;
}

int main(void) {
    blvl_error err;
    char dir[] = "/tmp/test_bake_file.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char lvp[256], syp[256], sub[256], bad[256];
    snprintf(lvp, sizeof lvp, "%s/level.blvl", dir);
    snprintf(syp, sizeof syp, "%s/level.bsym", dir);
    snprintf(sub, sizeof sub, "%s/adir", dir);
    snprintf(bad, sizeof bad, "%s/missing/level.bsym", dir);

    blvl_bake *b = make();
    void *lv = NULL, *sy = NULL;
    size_t ls = 0, ss = 0;
    CHECK(blvl_bake_write_memory(b, &lv, &ls, &sy, &ss, NULL, &err) == BLVL_OK);

    /* Old contents the failures below must leave alone. */
    CHECK(test_spit(lvp, "old level", 9) == 0);
    CHECK(test_spit(syp, "old symbols", 11) == 0);

    /* The symbols' directory does not exist: the level is not replaced either. */
    CHECK(blvl_bake_write_file(b, lvp, bad, NULL, &err) == BLVL_E_IO);
    CHECK(same_file(lvp, "old level", 9));
    CHECK_EQ_INT(temporaries(dir), 0);

    /* The level's path is a directory: refused (the out-file rule, docs/API.md) before any
     * work; the old symbols stay and no temporary is made. */
    CHECK(mkdir(sub, 0755) == 0);
    CHECK(blvl_bake_write_file(b, sub, syp, NULL, &err) == BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "is a directory") != NULL);
    CHECK(same_file(syp, "old symbols", 11));
    CHECK_EQ_INT(temporaries(dir), 0);
    struct stat sb;
    CHECK(stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode));

    /* The level's own directory does not exist. */
    snprintf(bad, sizeof bad, "%s/missing/level.blvl", dir);
    CHECK(blvl_bake_write_file(b, bad, syp, NULL, &err) == BLVL_E_IO);
    CHECK(same_file(syp, "old symbols", 11));
    CHECK_EQ_INT(temporaries(dir), 0);

    /* The same path for both is refused before any work. */
    CHECK(blvl_bake_write_file(b, lvp, lvp, NULL, &err) == BLVL_E_ARGUMENT);
    CHECK(same_file(lvp, "old level", 9));

    /* Success: both replaced, with write_memory's bytes; stats filled. */
    blvl_bake_stats st;
    CHECK(blvl_bake_write_file(b, lvp, syp, &st, &err) == BLVL_OK);
    CHECK(same_file(lvp, lv, ls));
    CHECK(same_file(syp, sy, ss));
    CHECK_EQ_INT(temporaries(dir), 0);
    CHECK_EQ_INT(st.colliders, 1);
    blvl_level *level = NULL;
    CHECK(blvl_open_file(&level, lvp, NULL, &err) == BLVL_OK);
    CHECK(blvl_verify(level, &err) == BLVL_OK);
    blvl_close(level);

    /* Without symbols: only the level is written, the old .bsym stays as it is. */
    CHECK(test_spit(syp, "old symbols", 11) == 0);
    CHECK(blvl_bake_write_file(b, lvp, NULL, NULL, &err) == BLVL_OK);
    CHECK(same_file(lvp, lv, ls));
    CHECK(same_file(syp, "old symbols", 11));

    blvl_free(NULL, lv);
    blvl_free(NULL, sy);
    blvl_bake_free(b);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(test_run(cmd) == 0);
    return check_report("test_bake_file");
}
