/* Fuzz target: a Subspace .lvl read and baked to memory (blvl_subspace_read, blvl_bake_new,
 * blvl_subspace_bake, blvl_bake_write_memory with one thread). Whatever the map, a bake that
 * succeeds must give a level that opens and passes the level rules (every core section
 * verified), and a .bsym that the FlatBuffers verifier accepts. Seeds (fuzz/corpus/
 * subspace_bake/): the good files of tests/data/subspace/good/ (the Python writer's). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/subspace.h"

#include "fuzz_bake_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = 1;
    blvl_error err;
    blvl_subspace *m = NULL;
    if (blvl_subspace_read(&m, data, size, &opt, &err) != BLVL_OK)
        return 0;
    blvl_bake *b = NULL;
    if (blvl_bake_new(&b, &opt, &err) == BLVL_OK) {
        if (blvl_subspace_bake(m, b, &(blvl_subspace_options){.name = "fuzz"}, &err) == BLVL_OK)
            fuzz_check_bake(b, &opt);
        blvl_bake_free(b);
    }
    blvl_subspace_free(m);
    return 0;
}
