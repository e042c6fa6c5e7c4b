/* Fuzz target: a Quake 3 .bsp read and baked to memory (blvl_q3_bsp_read, blvl_q3_bake with no
 * archives), checked as every bake target checks (fuzz_bake_check.h). Seeds (fuzz/corpus/q3_bake/):
 * the hand-built maps of tests/test_q3_geometry.c (BLVL_Q3_SEED_DIR=fuzz/corpus/q3_bake
 * build/test_q3_geometry). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/q3.h"

#include "fuzz_bake_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = 1;
    blvl_error err;
    blvl_q3_bsp *bsp = NULL;
    if (blvl_q3_bsp_read(&bsp, data, size, &opt, &err) != BLVL_OK)
        return 0;
    blvl_bake *b = NULL;
    if (blvl_bake_new(&b, &opt, &err) == BLVL_OK) {
        blvl_q3_bake_report rep;
        blvl_q3_bake_options o = {0};
        if (blvl_q3_bake(bsp, b, &rep, &o, &err) == BLVL_OK)
            fuzz_check_bake(b, &opt);
        blvl_bake_free(b);
    }
    blvl_q3_bsp_free(bsp);
    return 0;
}
