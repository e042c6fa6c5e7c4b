/* Allocation helpers for blvl-trace: the caller's hooks, growable arrays. */
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

void blvl__tw_alloc_init(tw_alloc *al, const blvl_allocator *a) {
    memset(al, 0, sizeof *al);
    if (a && a->alloc && a->free)
        al->a = *a;
}

void *blvl__tw_malloc(const tw_alloc *al, size_t size) {
    if (size == 0)
        size = 1;
    return al->a.alloc ? al->a.alloc(al->a.user, size) : malloc(size);
}

void *blvl__tw_calloc(const tw_alloc *al, size_t n, size_t elem) {
    if (elem && n > SIZE_MAX / elem)
        return NULL;
    size_t bytes = n * elem;
    void *p = blvl__tw_malloc(al, bytes);
    if (p && bytes)
        memset(p, 0, bytes);
    return p;
}

void blvl__tw_free(const tw_alloc *al, void *p, size_t size) {
    if (!p)
        return;
    if (al->a.free)
        al->a.free(al->a.user, p, size ? size : 1);
    else
        free(p);
}

void blvl__tw_vec_init(tw_vec *v, size_t elem) {
    v->data = NULL;
    v->len = v->cap = 0;
    v->elem = elem;
}

int blvl__tw_vec_reserve(const tw_alloc *al, tw_vec *v, size_t want) {
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
    void *p = blvl__tw_malloc(al, cap * v->elem);
    if (!p)
        return 0;
    if (v->len)
        memcpy(p, v->data, v->len * v->elem);
    blvl__tw_free(al, v->data, v->cap * v->elem);
    v->data = p;
    v->cap = cap;
    return 1;
}

int blvl__tw_vec_push(const tw_alloc *al, tw_vec *v, const void *item) {
    if (v->len == v->cap && !blvl__tw_vec_reserve(al, v, v->len + 1))
        return 0;
    memcpy((char *)v->data + v->len * v->elem, item, v->elem);
    v->len++;
    return 1;
}

void blvl__tw_vec_free(const tw_alloc *al, tw_vec *v) {
    blvl__tw_free(al, v->data, v->cap * v->elem);
    v->data = NULL;
    v->len = v->cap = 0;
}
