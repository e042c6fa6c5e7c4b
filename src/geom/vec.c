/* Growable arrays, through the caller's allocator. */
#include <stdint.h>
#include <string.h>

#include "geom/geom.h"

void blvl__geom_vec_init(geom_vec *v, size_t elem) {
    v->data = NULL;
    v->len = v->cap = 0;
    v->elem = elem;
}

int blvl__geom_vec_reserve(const blvl_allocator *al, geom_vec *v, size_t want) {
    if (want <= v->cap)
        return 1;
    size_t cap = v->cap ? v->cap : 16;
    while (cap < want) {
        if (cap > SIZE_MAX / 2)
            return 0;
        cap *= 2;
    }
    if (cap > SIZE_MAX / v->elem)
        return 0;
    void *p = blvl__alloc(al, cap * v->elem);
    if (!p)
        return 0;
    if (v->len)
        memcpy(p, v->data, v->len * v->elem);
    blvl__dealloc(al, v->data, v->cap * v->elem);
    v->data = p;
    v->cap = cap;
    return 1;
}

int blvl__geom_vec_push(const blvl_allocator *al, geom_vec *v, const void *item) {
    if (v->len == v->cap && !blvl__geom_vec_reserve(al, v, v->len + 1))
        return 0;
    memcpy((char *)v->data + v->len * v->elem, item, v->elem);
    v->len++;
    return 1;
}

void blvl__geom_vec_free(const blvl_allocator *al, geom_vec *v) {
    blvl__dealloc(al, v->data, v->cap * v->elem);
    v->data = NULL;
    v->len = v->cap = 0;
}
