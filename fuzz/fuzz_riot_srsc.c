/* Fuzz target: the Riot SRSC container and the whole level (src/import/riot/). A container
 * that reads must write back byte for byte, and so must a level that reads; a refused file
 * must be BLVL_E_SOURCE with a message of the documented shape
 * "<part>: <field> at offset N: <rule>: <problem>" (docs/IMPORT-RIOT.md). Seeds:
 * fuzz/corpus/riot_srsc/, written by tests/data/riot/make_riot.py (the good and bad files). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"
#include "blvl/riot.h"
#include "fuzz_source_error.h"

static void same(const void *out, size_t n, const uint8_t *data, size_t size) {
    if (n != size || memcmp(out, data, size) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_error e;
    blvl_riot_srsc *c = NULL;
    blvl_status st = blvl_riot_srsc_read(&c, data, size, NULL, &e);
    if (st) {
        fuzz_check_source_error(st, &e);
        if (c)
            abort();
        return 0;
    }
    void *out = NULL;
    size_t n = 0;
    if (blvl_riot_srsc_write(&out, &n, c, NULL, &e) != BLVL_OK)
        abort();
    same(out, n, data, size);
    blvl_free(NULL, out);
    blvl_riot_srsc_free(c);

    blvl_riot_level *l = NULL;
    st = blvl_riot_read(&l, data, size, NULL, &e);
    if (st) {
        fuzz_check_source_error(st, &e);
        if (l)
            abort();
        return 0;
    }
    if (blvl_riot_write(&out, &n, l, NULL, &e) != BLVL_OK)
        abort();
    same(out, n, data, size);
    blvl_free(NULL, out);
    blvl_riot_free(l);
    return 0;
}
