/* The section list the section-splicing fuzz targets (fuzz_diag, fuzz_export) index: every core
 * tag but meta, in registry order, as tests/support/diag_levels.py writes their seeds. */
#ifndef BLVL_FUZZ_TAGS_H
#define BLVL_FUZZ_TAGS_H

#include <string.h>

#include "blvl/sections.h"

/* Fills tags with at most max tags; returns how many. */
static inline unsigned fuzz_core_tags_but_meta(const char **tags, unsigned max) {
    unsigned n = 0;
    const char *tag;
    for (unsigned t = 0; (tag = blvl_core_tag_at(t)) != NULL && n < max; t++)
        if (strcmp(tag, "meta") != 0)
            tags[n++] = tag;
    return n;
}

#endif
