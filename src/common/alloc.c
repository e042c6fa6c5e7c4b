#include "common/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The only place in src/ that calls the C library's allocator: the default when the caller's
 * allocator has no hooks. */
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

void *blvl__calloc_n(const blvl_allocator *a, size_t n, size_t elem) {
    if (elem && n > SIZE_MAX / elem)
        return NULL;
    return blvl__calloc(a, n * elem);
}

void blvl__dealloc(const blvl_allocator *a, void *ptr, size_t size) {
    if (!ptr)
        return;
    if (a && a->free)
        a->free(a->user, ptr, size ? size : 1);
    else
        free(ptr);
}

#define PREFIX 16u

void *blvl__alloc_sized(const blvl_allocator *a, size_t size) {
    if (size > SIZE_MAX - PREFIX)
        return NULL;
    uint8_t *p = blvl__alloc(a, size + PREFIX);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    return p + PREFIX;
}

void blvl__free_sized(const blvl_allocator *a, void *ptr) {
    if (!ptr)
        return;
    uint8_t *p = (uint8_t *)ptr - PREFIX;
    size_t size;
    memcpy(&size, p, sizeof size);
    blvl__dealloc(a, p, size + PREFIX);
}

char *blvl__strdup(const blvl_allocator *a, const char *s) {
    size_t n = strlen(s) + 1;
    char *d = blvl__alloc_sized(a, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void blvl_free(const blvl_options *opt, void *ptr) {
    blvl__free_sized(opt ? &opt->allocator : NULL, ptr);
}
