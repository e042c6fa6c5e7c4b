#include "counting_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { HEADER = 16 }; /* keeps the block as aligned as malloc's */

static void *c_alloc(void *user, size_t size) {
    test_counter *c = user;
    c->calls++;
    if (c->fail_at && c->calls == c->fail_at)
        return NULL;
    uint8_t *p = malloc(size + HEADER);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    c->live++;
    return p + HEADER;
}

static void c_free(void *user, void *ptr, size_t size) {
    test_counter *c = user;
    uint8_t *p = (uint8_t *)ptr - HEADER;
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != size)
        c->bad_free++;
    c->live--;
    free(p);
}

blvl_options test_counting(test_counter *c) {
    memset(c, 0, sizeof *c);
    blvl_options o = {0};
    o.allocator.alloc = c_alloc;
    o.allocator.free = c_free;
    o.allocator.user = c;
    return o;
}
