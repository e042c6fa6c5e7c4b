/* What a bake fuzz target asks of a bake that succeeded: written to memory, the level opens
 * and passes the level rules (every core section verified), and the .bsym passes the
 * FlatBuffers verifier and opens against its level (every invariant of docs/SYMBOLS.md). Anything
 * else aborts: that is the finding. A write that fails (for want of memory, or a limit) is a clean
 * refusal and no finding. */
#ifndef BLVL_FUZZ_BAKE_CHECK_H
#define BLVL_FUZZ_BAKE_CHECK_H

#include <stdlib.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "blvl/sections/bsym.h"
#include "blvl/symbols.h"

static inline void fuzz_check_bake(blvl_bake *b, const blvl_options *opt) {
    void *level = NULL, *sym = NULL;
    size_t lsz = 0, ssz = 0;
    blvl_error err;
    if (blvl_bake_write_memory(b, &level, &lsz, &sym, &ssz, NULL, &err) != BLVL_OK)
        return;
    blvl_level *opened = NULL;
    if (blvl_open_memory(&opened, level, lsz, opt, &err) != BLVL_OK)
        abort(); /* the bake wrote a level that does not open */
    if (blvl_sections_verify(opened, &err) != BLVL_OK)
        abort(); /* ... or one that breaks the level rules */
    if (blvl_Symbols_verify(sym, ssz, &err) != BLVL_OK)
        abort(); /* ... or symbols the verifier refuses */
    blvl_symbols *s = NULL;
    blvl_status st = blvl_symbols_open_memory(&s, sym, ssz, opened, 0, opt, &err);
    if (st != BLVL_OK && st != BLVL_E_NOMEM)
        abort(); /* ... or symbols that break an invariant against their own level */
    blvl_symbols_free(s);
    blvl_close(opened);
    blvl_free(opt, level);
    blvl_free(opt, sym);
}

#endif
