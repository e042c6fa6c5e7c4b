#include "common/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* The default's large blocks (1 MiB and more: a bake's tables, a builder's buffer, a parsed
 * level's arrays) are mappings of their own on 2 MiB boundaries with a huge-page hint: malloc's
 * mappings start 16 bytes past a boundary, so their first and last 2 MiB take 4 KiB pages, and a
 * page fault costs the same whatever its size (on a virtual machine, microseconds: a 1.8 MiB
 * block in 4 KiB pages costs more than a whole huge page). A block takes at most twice its size.
 * Every free is sized (the contract above), so the size tells which blocks are mappings. Not
 * under AddressSanitizer, which must see every block. */
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
#define BLVL_BIG_BLOCKS 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#undef BLVL_BIG_BLOCKS
#endif
#endif

#ifdef BLVL_BIG_BLOCKS
#define HUGE_PAGE ((size_t)2 << 20)
#define BIG_BLOCK ((size_t)1 << 20)

static size_t big_length(size_t size) {
    return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

static void *big_alloc(size_t size) {
    size_t len = big_length(size);
    if (len < size || len > SIZE_MAX - HUGE_PAGE)
        return NULL;
    uint8_t *m =
        mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > m)
        munmap(m, (size_t)(p - m));
    if (m + len + HUGE_PAGE > p + len)
        munmap(p + len, (size_t)(m + len + HUGE_PAGE - (p + len)));
    (void)madvise(p, len, MADV_HUGEPAGE);
    return p;
}
#endif

/* The only place in src/ that calls the C library's allocator: the default when the caller's
 * allocator has no hooks. */
void *blvl__alloc(const blvl_allocator *a, size_t size) {
    if (size == 0)
        size = 1;
    if (a && a->alloc)
        return a->alloc(a->user, size);
#ifdef BLVL_BIG_BLOCKS
    if (size >= BIG_BLOCK)
        return big_alloc(size);
#endif
    return malloc(size);
}

void *blvl__calloc(const blvl_allocator *a, size_t size) {
    void *p = blvl__alloc(a, size);
#ifdef BLVL_BIG_BLOCKS
    if (p && size >= BIG_BLOCK && !(a && a->alloc))
        return p; /* a fresh mapping is zeros: touching it now would only fault it in early */
#endif
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
    if (a && a->free) {
        a->free(a->user, ptr, size ? size : 1);
        return;
    }
#ifdef BLVL_BIG_BLOCKS
    if (size >= BIG_BLOCK) {
        munmap(ptr, big_length(size));
        return;
    }
#endif
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
