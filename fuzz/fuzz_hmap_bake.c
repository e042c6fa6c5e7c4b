/* Fuzz target: a .hmap read and baked to memory (blvl_hmap_read, blvl_bake_new,
 * blvl_hmap_bake, blvl_bake_write_memory with one thread). Whatever the map, a
 * bake that succeeds must give a level that opens and passes the level rules
 * (every core section verified), and a .bsym that the FlatBuffers verifier
 * accepts. Seeds (fuzz/corpus/hmap_bake/): the two bundled sample maps and
 * one-room generated maps of each kind, written by bench_bake --write
 * gen_source.hmap --rooms 1 --meshes 2 --seed 31 bench_bake --write
 * gen_compiled.hmap --rooms 1 --meshes 2 --seed 32 --parts compiled --no-meta
 *   bench_bake --write gen_both.hmap --rooms 1 --meshes 2 --seed 33 --parts
 * both --mats-after-brsh
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/hmap.h"

#include "fuzz_bake_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = 1;
    blvl_error err;
    blvl_hmap *m = NULL;
    if (blvl_hmap_read(&m, data, size, &opt, &err) != BLVL_OK)
        return 0;
    blvl_bake *b = NULL;
    if (blvl_bake_new(&b, &opt, &err) == BLVL_OK) {
        if (blvl_hmap_bake(m, b, &err) == BLVL_OK)
            fuzz_check_bake(b, &opt);
        blvl_bake_free(b);
    }
    blvl_hmap_free(m);
    return 0;
}
