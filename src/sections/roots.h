/* The registry of root schemas, generated from the schemas in schema/ into
 * src/sections/gen/registry.c: the core sections first (required ones first, then by tag), then
 * the files of their own (bsym). The only list of core tags in the library; see
 * docs/FLATBUFFERS.md. */
#ifndef BLVL_SECTIONS_ROOTS_H
#define BLVL_SECTIONS_ROOTS_H

#include "blvl/fb.h"

typedef struct blvl__root {
    const char *name;         /* the schema file's base name: a core section's tag, or "bsym" */
    const blvl_fb_type *type; /* its root table */
    int core;                 /* a section of a level (no file_identifier) */
    int required;             /* blvl_required_section: a level without it is refused */
} blvl__root;

extern const blvl__root blvl__sections_roots[];
extern const unsigned blvl__sections_root_count; /* all of them */
extern const unsigned
    blvl__sections_core_count; /* blvl__sections_roots[0 .. blvl__sections_core_count) are core */

#endif
