/* The growable array (array.h). */
#include "common/array.h"

#include <stdint.h>
#include <string.h>

#include "common/alloc.h"

size_t blvl__array_grown(size_t cap, size_t want, size_t first, size_t elem) {
    if (!elem)
        return 0;
    size_t c = cap ? cap : first ? first : 1;
    while (c < want) {
        if (c > SIZE_MAX / 2)
            return 0;
        c *= 2;
    }
    return c > SIZE_MAX / elem ? 0 : c;
}

static int grow(const blvl_allocator *a, void **data, size_t *cap, size_t len, size_t want,
                size_t elem, size_t first, int sized) {
    if (want <= *cap)
        return 1;
    size_t c = blvl__array_grown(*cap, want, first, elem);
    if (!c || len > *cap)
        return 0;
    uint8_t *p = sized ? blvl__alloc_sized(a, c * elem) : blvl__alloc(a, c * elem);
    if (!p)
        return 0;
    if (len)
        memcpy(p, *data, len * elem);
    memset(p + len * elem, 0, (c - len) * elem);
    if (*data && sized)
        blvl__free_sized(a, *data);
    else if (*data)
        blvl__dealloc(a, *data, *cap * elem);
    *data = p;
    *cap = c;
    return 1;
}

int blvl__array_grow(const blvl_allocator *a, void **data, size_t *cap, size_t len, size_t want,
                     size_t elem, size_t first) {
    return grow(a, data, cap, len, want, elem, first, 0);
}

int blvl__array_grow_sized(const blvl_allocator *a, void **data, size_t *cap, size_t len,
                           size_t want, size_t elem, size_t first) {
    return grow(a, data, cap, len, want, elem, first, 1);
}

void blvl__array_init(blvl__array *v, size_t elem) {
    v->data = NULL;
    v->len = v->cap = 0;
    v->elem = elem;
}

int blvl__array_reserve(const blvl_allocator *a, blvl__array *v, size_t want) {
    return blvl__array_grow(a, &v->data, &v->cap, v->len, want, v->elem, BLVL__ARRAY_FIRST);
}

int blvl__array_push(const blvl_allocator *a, blvl__array *v, const void *item) {
    if (v->len == v->cap && (v->len == SIZE_MAX || !blvl__array_reserve(a, v, v->len + 1)))
        return 0;
    memcpy((char *)v->data + v->len * v->elem, item, v->elem);
    v->len++;
    return 1;
}

void *blvl__array_add(const blvl_allocator *a, blvl__array *v, size_t n) {
    if (n > SIZE_MAX - v->len || !blvl__array_reserve(a, v, v->len + n))
        return NULL;
    char *p = (char *)v->data + v->len * v->elem;
    memset(p, 0, n * v->elem);
    v->len += n;
    return p;
}

void blvl__array_free(const blvl_allocator *a, blvl__array *v) {
    if (v->data)
        blvl__dealloc(a, v->data, v->cap * v->elem);
    v->data = NULL;
    v->len = v->cap = 0;
}
