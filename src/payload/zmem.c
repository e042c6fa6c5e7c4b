#include "payload/zmem.h"

#include "common/alloc.h"

/* zstd frees without a size; blvl__alloc_sized keeps it for the allocator's free hook. */
static void *zalloc(void *opaque, size_t size) {
    return blvl__alloc_sized(opaque, size);
}

static void zfree(void *opaque, void *ptr) {
    blvl__free_sized(opaque, ptr);
}

ZSTD_customMem blvl__payload_zstd_mem(const blvl_allocator *a) {
    ZSTD_customMem mem = {zalloc, zfree, (void *)a};
    return mem;
}
