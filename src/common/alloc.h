/* Every byte the library allocates goes through these, and so through the caller's allocator
 * (blvl_options.allocator), or malloc/free when its fields are zero. Nothing else in src/ may
 * call malloc, calloc, realloc, strdup or free (tests/test_layers.sh greps for them). */
#ifndef BLVL_COMMON_ALLOC_H
#define BLVL_COMMON_ALLOC_H
#include <stddef.h>

#include "blvl/common.h"

/* `size` bytes (at least 1). `a` may be NULL: malloc/free. */
void *blvl__alloc(const blvl_allocator *a, size_t size);
/* The same, zeroed. */
void *blvl__calloc(const blvl_allocator *a, size_t size);
/* n * elem bytes, zeroed; NULL when the product overflows. */
void *blvl__calloc_n(const blvl_allocator *a, size_t n, size_t elem);
/* Frees what blvl__alloc gave; `size` must be the size asked for (the free hook gets it). */
void blvl__dealloc(const blvl_allocator *a, void *ptr, size_t size);

/* Buffers whose size the freeing side does not know (handed to the caller, freed with
 * blvl_free; zstd's contexts, whose free hook has no size): the size rides in a 16-byte prefix,
 * so the pointer keeps the allocator's alignment up to 16. */
void *blvl__alloc_sized(const blvl_allocator *a, size_t size);
void blvl__free_sized(const blvl_allocator *a, void *ptr);
/* A copy of the C string `s`, freed with blvl__free_sized. */
char *blvl__strdup(const blvl_allocator *a, const char *s);
#endif
