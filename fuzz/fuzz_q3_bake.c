/* Fuzz target: a Quake 3 .bsp read and baked to memory (blvl_q3_bsp_read, blvl_q3_bake with no
 * archives, blvl_bake_write_memory with one thread). A bake that succeeds must give a level that
 * opens and passes the level rules (every core section verified) and a .bsym the FlatBuffers
 * verifier accepts. Seeds (fuzz/corpus/q3_bake/): the hand-built maps of
 * tests/test_q3_geometry.c (BLVL_Q3_SEED_DIR=fuzz/corpus/q3_bake build/test_q3_geometry). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/q3.h"
#include "blvl/sections.h"
#include "blvl/sections/bsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = 1;
    blvl_error err;
    blvl_q3_bsp *bsp = NULL;
    if (blvl_q3_bsp_read(data, size, &opt, &bsp, &err) != BLVL_OK)
        return 0;
    blvl_bake *b = NULL;
    if (blvl_bake_new(&b, &opt, &err) == BLVL_OK) {
        void *lv = NULL, *sym = NULL;
        size_t lsz = 0, ssz = 0;
        struct blvl_q3_bake_report rep;
        blvl_q3_bake_options o;
        blvl_q3_bake_options_init(&o);
        o.report = &rep;
        if (blvl_q3_bake(bsp, &o, b, &err) == BLVL_OK &&
            blvl_bake_write_memory(b, &lv, &lsz, &sym, &ssz, NULL, &err) == BLVL_OK) {
            blvl_level *level = NULL;
            if (blvl_open_memory(&level, lv, lsz, &opt, &err) != BLVL_OK)
                abort(); /* the bake wrote a level that does not open */
            if (blvl_sections_verify(level, &err) != BLVL_OK)
                abort(); /* ... or one that breaks the level rules */
            blvl_close(level);
            if (blvl_Symbols_verify(sym, ssz, &err) != BLVL_OK)
                abort(); /* ... or symbols the verifier refuses */
            blvl_free(&opt, lv);
            blvl_free(&opt, sym);
        }
        blvl_bake_free(b);
    }
    blvl_q3_bsp_free(bsp, &opt);
    return 0;
}
