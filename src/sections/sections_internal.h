/* Shared by the sections layer's files. */
#ifndef BLVL_SECTIONS_INTERNAL_H
#define BLVL_SECTIONS_INTERNAL_H

#include "blvl/sections.h"

/* The root type of a core tag or "bsym"; NULL with BLVL_E_ARGUMENT set in err otherwise. */
const blvl_fb_type *blvl__sections_type_or_fail(const char *tag, blvl_error *err);

#endif
