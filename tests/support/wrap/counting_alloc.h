/* The allocator tests' shared pieces (test_alloc_all, test_bake_alloc): a counting allocator
 * for blvl_options, and wraps of the C allocator that count the calls the library's own
 * objects make to it. Only programs linked with -Wl,--wrap=malloc,free,calloc,realloc,strdup,
 * strndup may use it (CMakeLists.txt adds counting_alloc.c to just those): the wraps call
 * __real_malloc and friends, which exist only then. */
#ifndef BLVL_TESTS_COUNTING_ALLOC_H
#define BLVL_TESTS_COUNTING_ALLOC_H

#include <stdatomic.h>
#include <stddef.h>

extern atomic_int armed;       /* a custom allocator is in use */
extern atomic_long bypass;     /* C allocator calls from the library while armed */
extern atomic_long libc_calls; /* all C allocator calls from this program's objects */

/* Every allocation carries its size in 16 bytes before it, so a free with another size is
 * counted (wrong_size). */
typedef struct counter {
    atomic_long live, bytes, calls, wrong_size, largest;
    long fail_at; /* refuse the fail_at-th allocation (1-based); 0 = never */
} counter;

/* blvl_allocator's alloc and free, `user` a counter. */
void *c_alloc(void *user, size_t size);
void c_free(void *user, void *ptr, size_t size);

#endif
