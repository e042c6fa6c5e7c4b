/* One growable array, through the caller's allocator: element size, count, capacity. Growth
 * doubles the capacity (from a first size), every size product is checked for overflow, and a
 * refused growth (overflow or the allocator saying no) leaves the array as it was. Arrays held
 * as a typed pointer + count + capacity grow through blvl__array_grow, the same rule. */
#ifndef BLVL_COMMON_ARRAY_H
#define BLVL_COMMON_ARRAY_H

#include <stddef.h>

#include "blvl/common.h"

typedef struct blvl__array {
    void *data; /* cap * elem bytes from blvl__alloc, or NULL */
    size_t len; /* elements in use */
    size_t cap; /* elements allocated */
    size_t elem;
} blvl__array;

#define BLVL__ARRAY_FIRST 16 /* the first capacity of a blvl__array */

void blvl__array_init(blvl__array *v, size_t elem);
/* Room for `want` elements. 1 = done; 0 = refused, the array unchanged. */
int blvl__array_reserve(const blvl_allocator *a, blvl__array *v, size_t want);
/* A copy of `item` (elem bytes) at the end. 1 = done; 0 = refused. */
int blvl__array_push(const blvl_allocator *a, blvl__array *v, const void *item);
/* `n` zeroed elements at the end; their address, or NULL (refused, the array unchanged). */
void *blvl__array_add(const blvl_allocator *a, blvl__array *v, size_t n);
void blvl__array_free(const blvl_allocator *a, blvl__array *v);

/* The capacity that holds `want` elements of `elem` bytes: `cap` doubled (from `first` when 0)
 * until it does, or 0 when no such size fits in a size_t. */
size_t blvl__array_grown(size_t cap, size_t want, size_t first, size_t elem);
/* A typed array: *data (*cap elements of `elem` bytes, the first `len` in use, from blvl__alloc)
 * grows to hold at least `want` (capacity by blvl__array_grown); the new tail is zeroed. 1 =
 * done; 0 = refused, *data and *cap unchanged. Free with blvl__dealloc(a, *data, *cap * elem). */
int blvl__array_grow(const blvl_allocator *a, void **data, size_t *cap, size_t len, size_t want,
                     size_t elem, size_t first);
/* The same for a block from blvl__alloc_sized (freed with blvl__free_sized). */
int blvl__array_grow_sized(const blvl_allocator *a, void **data, size_t *cap, size_t len,
                           size_t want, size_t elem, size_t first);

#endif
