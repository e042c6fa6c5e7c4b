/* The caller's allocator, or malloc/free when none was given. */
#ifndef BLVL_CONTAINER_ALLOC_H
#define BLVL_CONTAINER_ALLOC_H
#include "blvl/blvl.h"

void *blvl__alloc(const blvl_allocator *a, size_t size);
void *blvl__calloc(const blvl_allocator *a, size_t size);
void blvl__dealloc(const blvl_allocator *a, void *ptr, size_t size);
#endif
