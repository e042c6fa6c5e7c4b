#include "container/alloc.h"

#include <stdlib.h>
#include <string.h>

void *blvl__alloc(const blvl_allocator *a, size_t size) {
    if (size == 0)
        size = 1;
    if (a && a->alloc)
        return a->alloc(a->user, size);
    return malloc(size);
}

void *blvl__calloc(const blvl_allocator *a, size_t size) {
    void *p = blvl__alloc(a, size);
    if (p)
        memset(p, 0, size ? size : 1);
    return p;
}

void blvl__dealloc(const blvl_allocator *a, void *ptr, size_t size) {
    if (!ptr)
        return;
    if (a && a->free)
        a->free(a->user, ptr, size ? size : 1);
    else
        free(ptr);
}

void blvl_free(const blvl_allocator *allocator, void *ptr, size_t size) {
    blvl__dealloc(allocator, ptr, size);
}
