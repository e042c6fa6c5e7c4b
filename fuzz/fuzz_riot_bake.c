/* Fuzz target: a Riot .lvl read and baked to memory (blvl_riot_read, blvl_bake_new,
 * blvl_riot_bake, blvl_bake_write_memory with one thread). Whatever the file, a bake that
 * succeeds must give a level that opens and passes the level rules (every core section
 * verified), and a .bsym the FlatBuffers verifier accepts. Seeds (fuzz/corpus/riot_bake/): the
 * good files of tests/data/riot/good (written by tests/data/riot/make_riot.py). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/riot.h"

#include "fuzz_bake_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = 1;
    blvl_error err;
    blvl_riot_level *lv = NULL;
    if (blvl_riot_read(&lv, data, size, &opt, &err) != BLVL_OK)
        return 0;
    blvl_bake *b = NULL;
    if (blvl_bake_new(&b, &opt, &err) == BLVL_OK) {
        if (blvl_riot_bake(lv, b, &err) == BLVL_OK)
            fuzz_check_bake(b, &opt);
        blvl_bake_free(b);
    }
    blvl_riot_free(lv);
    return 0;
}
