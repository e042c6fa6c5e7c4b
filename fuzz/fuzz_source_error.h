/* What an importer's fuzz target asks of a refusal: BLVL_E_SOURCE, the code in the error too,
 * and a message of the shape every importer documents, "<part>: <field> at offset N: <rule>:
 * <problem>" (docs/IMPORT-HMAP.md, IMPORT-SUBSPACE.md, IMPORT-RIOT.md): a part before the offset, a
 * colon before " at offset ", and the rule after it. Anything else aborts: that is the finding. */
#ifndef BLVL_FUZZ_SOURCE_ERROR_H
#define BLVL_FUZZ_SOURCE_ERROR_H

#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"

static inline void fuzz_check_source_error(blvl_status st, const blvl_error *e) {
    if (st != BLVL_E_SOURCE || e->code != st)
        abort();
    const char *at = strstr(e->message, " at offset ");
    const char *colon = strchr(e->message, ':');
    if (!at || at == e->message || !colon || colon > at || !strstr(at, ": "))
        abort();
}
#endif
