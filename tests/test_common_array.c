/* The common growable array (src/common/array.h): growth doubles from the first capacity and
 * keeps the elements, a size that does not fit a size_t is refused before anything is
 * allocated, and an allocator that says no leaves the array as it was. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/alloc.h"
#include "common/array.h"

/* An allocator that fails after `budget` allocations and counts the bytes live. */
typedef struct counting {
    int budget, calls;
    long long live;
} counting;

static void *c_alloc(void *user, size_t size) {
    counting *c = user;
    c->calls++;
    if (c->budget-- <= 0)
        return NULL;
    void *p = malloc(size);
    if (p)
        c->live += (long long)size;
    return p;
}
static void c_free(void *user, void *p, size_t size) {
    counting *c = user;
    if (p)
        c->live -= (long long)size;
    free(p);
}

static void test_grown(void) {
    CHECK_EQ_INT(blvl__array_grown(0, 1, 16, 4), 16);
    CHECK_EQ_INT(blvl__array_grown(0, 17, 16, 4), 32);
    CHECK_EQ_INT(blvl__array_grown(16, 17, 16, 4), 32);
    CHECK_EQ_INT(blvl__array_grown(32, 1000, 16, 1), 1024);
    CHECK_EQ_INT(blvl__array_grown(0, 0, 0, 1), 1);
    /* doubling would wrap: refused */
    CHECK_EQ_INT(blvl__array_grown(16, SIZE_MAX, 16, 1), 0);
    CHECK_EQ_INT(blvl__array_grown((size_t)1 << (sizeof(size_t) * 8 - 1), SIZE_MAX, 1, 1), 0);
    /* count * elem would not fit */
    CHECK_EQ_INT(blvl__array_grown(0, SIZE_MAX / 8 + 1, 16, 8), 0);
    CHECK_EQ_INT(blvl__array_grown(0, 5, 16, 0), 0);
}

static void test_push_and_grow(void) {
    counting cc = {.budget = 1000};
    blvl_allocator a = {c_alloc, c_free, &cc};
    blvl__array v;
    blvl__array_init(&v, sizeof(uint32_t));
    for (uint32_t i = 0; i < 1000; i++)
        CHECK(blvl__array_push(&a, &v, &i));
    CHECK_EQ_INT(v.len, 1000);
    CHECK_EQ_INT(v.cap, 1024); /* 16, 32, ..., 1024 */
    CHECK_EQ_INT(cc.calls, 7);
    int same = 1;
    for (uint32_t i = 0; i < 1000; i++)
        same &= ((uint32_t *)v.data)[i] == i;
    CHECK(same);
    uint32_t *z = blvl__array_add(&a, &v, 100);
    CHECK(z != NULL);
    CHECK_EQ_INT(v.len, 1100);
    CHECK(z && z[0] == 0 && z[99] == 0);
    CHECK(((uint32_t *)v.data)[999] == 999);
    CHECK(blvl__array_add(&a, &v, SIZE_MAX) == NULL);     /* len + n wraps */
    CHECK(blvl__array_add(&a, &v, SIZE_MAX / 4) == NULL); /* n * elem does not fit */
    CHECK_EQ_INT(v.len, 1100);
    blvl__array_free(&a, &v);
    CHECK_EQ_INT(cc.live, 0);
    CHECK(v.data == NULL && v.len == 0 && v.cap == 0);
}

/* Every allocation refused in turn: the array keeps what it had, nothing leaks. */
static void test_allocator_failure(void) {
    for (int budget = 0; budget < 4; budget++) {
        counting cc = {.budget = budget};
        blvl_allocator a = {c_alloc, c_free, &cc};
        blvl__array v;
        blvl__array_init(&v, 8);
        uint64_t x = 0;
        int pushed = 0;
        for (; pushed < 100; pushed++, x++)
            if (!blvl__array_push(&a, &v, &x))
                break;
        CHECK_EQ_INT(pushed, budget == 0 ? 0 : budget == 1 ? 16 : budget == 2 ? 32 : 64);
        CHECK_EQ_INT(v.len, (size_t)pushed);
        int same = 1;
        for (int i = 0; i < pushed; i++)
            same &= ((uint64_t *)v.data)[i] == (uint64_t)i;
        CHECK(same);
        blvl__array_free(&a, &v);
        CHECK_EQ_INT(cc.live, 0);
    }
    /* a typed array through blvl__array_grow: refused growth leaves pointer and capacity */
    counting cc = {.budget = 1};
    blvl_allocator a = {c_alloc, c_free, &cc};
    void *p = NULL;
    size_t cap = 0;
    CHECK(blvl__array_grow(&a, &p, &cap, 0, 3, 2, 4));
    CHECK_EQ_INT(cap, 4);
    void *before = p;
    memset(p, 7, 8);
    CHECK(!blvl__array_grow(&a, &p, &cap, 4, 5, 2, 4));
    CHECK(p == before);
    CHECK_EQ_INT(cap, 4);
    CHECK(!blvl__array_grow(&a, &p, &cap, 4, SIZE_MAX, 2, 4)); /* refused before allocating */
    CHECK(blvl__array_grow(&a, &p, &cap, 4, 4, 2, 4));         /* already room: no call */
    CHECK_EQ_INT(cc.calls, 2);
    blvl__dealloc(&a, p, cap * 2);
    CHECK_EQ_INT(cc.live, 0);
    /* the sized variant frees with the sized free */
    cc = (counting){.budget = 10};
    p = NULL;
    cap = 0;
    CHECK(blvl__array_grow_sized(&a, &p, &cap, 0, 1, 4, 2));
    CHECK(blvl__array_grow_sized(&a, &p, &cap, 1, 3, 4, 2));
    CHECK_EQ_INT(cap, 4);
    blvl__free_sized(&a, p);
    CHECK_EQ_INT(cc.live, 0);
}

int main(void) {
    test_grown();
    test_push_and_grow();
    test_allocator_failure();
    return check_report("test_common_array");
}
