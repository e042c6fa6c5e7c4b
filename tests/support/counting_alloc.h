/* An allocator for tests that counts what the library asks of it and checks every free: each
 * block carries its size, and a free whose size differs from the allocation's is counted. It
 * can refuse one call (the fail_at-th), for sweeps of every allocation failure. One thread. */
#ifndef BLVL_TESTS_COUNTING_ALLOC_H
#define BLVL_TESTS_COUNTING_ALLOC_H

#include "blvl/common.h"

typedef struct test_counter {
    long calls;   /* allocations asked for, the refused one included */
    long live;    /* blocks not yet freed */
    long fail_at; /* the fail_at-th call returns NULL (0 = none) */
    int bad_free; /* frees whose size is not the allocation's */
} test_counter;

/* Zeroes *c and gives options whose allocator counts into it. */
blvl_options test_counting(test_counter *c);

#endif
