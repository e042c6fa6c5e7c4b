/* tests/support/q3_map.h. */
#include "support/q3_map.h"

#include <stdio.h>
#include <string.h>

int test_q3_maps_open(const char *test, blvl_q3_fs **fs) {
    *fs = NULL;
    FILE *f = fopen(TEST_Q3_PK3, "rb");
    if (!f) {
        printf("%s: skipped: %s is not installed (openarena-081-maps)\n", test, TEST_Q3_PK3);
        return 77;
    }
    fclose(f);
    blvl_error err;
    if (blvl_q3_fs_new(fs, NULL, &err) != BLVL_OK ||
        blvl_q3_fs_add(*fs, TEST_Q3_PK3, &err) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", test, err.message);
        return 1;
    }
    return 0;
}

blvl_status test_q3_map_bake(test_q3_map *m, blvl_q3_fs *fs, const char *name) {
    memset(m, 0, sizeof *m);
    blvl_error err;
    blvl_q3_bake_options o = {0};
    o.map_name = name;
    blvl_status st = blvl_q3_fs_read(&m->bsp_bytes, &m->bsp_size, fs, name, &err);
    if (st == BLVL_OK)
        st = blvl_q3_bsp_read(&m->bsp, m->bsp_bytes, m->bsp_size, NULL, &err);
    if (st == BLVL_OK)
        st = blvl_bake_new(&m->bake, NULL, &err);
    if (st == BLVL_OK)
        st = blvl_q3_bake(m->bsp, m->bake, NULL, &o, &err);
    if (st == BLVL_OK)
        st = blvl_bake_write_memory(m->bake, &m->level_bytes, &m->level_size, NULL, NULL, NULL,
                                    &err);
    if (st == BLVL_OK)
        st = blvl_open_memory(&m->level, m->level_bytes, m->level_size, NULL, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "%s: %s\n", name, err.message);
    return st;
}

void test_q3_map_free(test_q3_map *m) {
    blvl_close(m->level);
    blvl_free(NULL, m->level_bytes);
    blvl_bake_free(m->bake);
    blvl_q3_bsp_free(m->bsp);
    blvl_free(NULL, m->bsp_bytes);
    memset(m, 0, sizeof *m);
}
