/* The counting allocator and the C allocator wraps (counting_alloc.h). */
#include "counting_alloc.h"

#include <stdint.h>
#include <string.h>

void *__real_malloc(size_t n);
void __real_free(void *p);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

atomic_int armed;
atomic_long bypass;
atomic_long libc_calls;

static void seen(void) {
    atomic_fetch_add(&libc_calls, 1);
    if (atomic_load(&armed))
        atomic_fetch_add(&bypass, 1);
}

/* The wraps need external names for --wrap: declared here, since no header should offer them. */
void *__wrap_malloc(size_t n);
void __wrap_free(void *p);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

void *__wrap_malloc(size_t n) {
    seen();
    return __real_malloc(n);
}
void __wrap_free(void *p) {
    if (p)
        seen();
    __real_free(p);
}
void *__wrap_calloc(size_t n, size_t m) {
    seen();
    return __real_calloc(n, m);
}
void *__wrap_realloc(void *p, size_t n) {
    seen();
    return __real_realloc(p, n);
}
char *__wrap_strdup(const char *s) {
    seen();
    return __real_strdup(s);
}
char *__wrap_strndup(const char *s, size_t n) {
    seen();
    return __real_strndup(s, n);
}

void *c_alloc(void *user, size_t size) {
    counter *c = user;
    long k = atomic_fetch_add(&c->calls, 1) + 1;
    if (c->fail_at && k == c->fail_at)
        return NULL;
    uint8_t *p = __real_malloc(size + 16);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    atomic_fetch_add(&c->live, 1);
    atomic_fetch_add(&c->bytes, (long)size);
    long l = atomic_load(&c->largest);
    while ((long)size > l && !atomic_compare_exchange_weak(&c->largest, &l, (long)size))
        ;
    return p + 16;
}

void c_free(void *user, void *ptr, size_t size) {
    counter *c = user;
    uint8_t *p = (uint8_t *)ptr - 16;
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != size)
        atomic_fetch_add(&c->wrong_size, 1);
    atomic_fetch_sub(&c->live, 1);
    atomic_fetch_sub(&c->bytes, (long)had);
    __real_free(p);
}
