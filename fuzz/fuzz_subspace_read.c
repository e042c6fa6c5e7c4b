/* Fuzz target: the Subspace .lvl reader (src/import/subspace/). A file that reads must write
 * back byte for byte, and every region's rTIL (checked by the reader) must decode; a refused
 * one must be BLVL_E_SOURCE with a message of the documented shape
 * "<part>: <field> at offset N: <rule>: <problem>" (docs/IMPORT-SUBSPACE.md). Seeds:
 * fuzz/corpus/subspace_read/, written by tests/data/subspace/make_lvl.py (good and bad files). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/subspace.h"
#include "fuzz_source_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_subspace *m = NULL;
    blvl_error e;
    blvl_status st = blvl_subspace_read(&m, data, size, NULL, &e);
    if (st != BLVL_OK) {
        if (m != NULL)
            abort();
        fuzz_check_source_error(st, &e);
        return 0;
    }
    void *out = NULL;
    size_t n = 0;
    if (blvl_subspace_write(&out, &n, m, NULL, &e) != BLVL_OK)
        abort();
    if (n != size || memcmp(out, data, size) != 0)
        abort();
    blvl_free(NULL, out);
    if (m->elvl && m->elvl->region_count) {
        static uint8_t bits[BLVL_SUBSPACE_BITMAP_BYTES];
        for (uint32_t i = 0; i < m->elvl->region_count; i++)
            if (blvl_subspace_region_tiles(&m->elvl->regions[i], bits, &e) != BLVL_OK)
                abort();
    }
    blvl_subspace_free(m);
    return 0;
}
