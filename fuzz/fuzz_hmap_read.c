/* Fuzz target: the Rockgrave .hmap reader (src/import/hmap/). A file that reads must write
 * back byte for byte; a refused one must be BLVL_E_SOURCE with a message of the documented
 * shape "<chunk>: <field> at offset N: <rule>: <problem>" (docs/IMPORT-HMAP.md). Seeds:
 * fuzz/corpus/hmap_read/, written by tests/data/hmap/make_hmap.py (the good and bad files). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/hmap.h"
#include "fuzz_source_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_hmap *m = NULL;
    blvl_error e;
    blvl_status st = blvl_hmap_read(&m, data, size, NULL, &e);
    if (st != BLVL_OK) {
        if (m != NULL)
            abort();
        fuzz_check_source_error(st, &e);
        return 0;
    }
    void *out = NULL;
    size_t n = 0;
    if (blvl_hmap_write(&out, &n, m, NULL, &e) != BLVL_OK)
        abort();
    if (n != size || memcmp(out, data, size) != 0)
        abort();
    blvl_free(NULL, out);
    blvl_hmap_free(m);
    return 0;
}
