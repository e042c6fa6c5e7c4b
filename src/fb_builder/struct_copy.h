/* Copy a struct member by member so the padding bytes come out zero (canonical bytes). */
#ifndef BLVL_FB_STRUCT_COPY_H
#define BLVL_FB_STRUCT_COPY_H
#include "blvl/fb.h"

void blvl_fb__struct_copy(const blvl_fb_type *t, uint8_t *dst, const void *src);
#endif
