/* libjpeg's memory manager, implemented over the caller's allocator. libjpeg reaches memory only
 * through the methods of cinfo->mem, so replacing them right after jpeg_create_decompress routes
 * every buffer whose size the picture decides (tables, rows, the coefficients of a progressive
 * picture) through blvl_allocator, under a cap. What jpeg_create_decompress made before the
 * swap (its own manager and a few fixed records, about 2 KiB) stays with libjpeg's manager,
 * which is destroyed after ours.
 *
 * Blocks and rows are aligned to 64 bytes and rows padded to 64, as libjpeg-turbo's own manager
 * does: its SIMD code loads aligned and writes whole vectors past a row's last sample. Virtual
 * arrays live wholly in memory, zeroed (libjpeg asks for zeros with pre_zero; for the others,
 * zeros in place of stale bytes cost nothing and read no uninitialised memory). */
#include "jpeg_memory.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <jerror.h>

#include "common/alloc.h"

#define ALIGN 64

struct blvl__jpeg_block {
    blvl__jpeg_block *next;
    size_t size; /* all of it, this header included, as given to the allocator */
};

/* A virtual array of either kind: its rows' bytes, its size, and the rows once realized. */
typedef struct virt {
    void *rows; /* a JSAMPARRAY or JBLOCKARRAY; NULL until realize_virt_arrays */
    size_t row_bytes;
    bool blocks;
    JDIMENSION height, maxaccess;
    struct virt *next;
} virt;

struct jvirt_sarray_control {
    virt v;
};

struct jvirt_barray_control {
    virt v;
};

static blvl__jpeg_mem *mem_of(j_common_ptr c) {
    return (blvl__jpeg_mem *)c->mem;
}

/* libjpeg's own error codes, through its error_exit (which longjmps out of the decode). */
static void stop(j_common_ptr c, int code, int parm) {
    c->err->msg_code = code;
    c->err->msg_parm.i[0] = parm;
    (*c->err->error_exit)(c);
}

static void *take(j_common_ptr c, int pool, size_t n, bool zero) {
    blvl__jpeg_mem *m = mem_of(c);
    if (pool < 0 || pool >= JPOOL_NUMPOOLS) {
        stop(c, JERR_BAD_POOL_ID, pool);
        return NULL;
    }
    size_t head = (sizeof(blvl__jpeg_block) + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    /* head + n + ALIGN: the allocator's own alignment may be as low as 8 */
    if (n > m->cap - m->used || head + ALIGN > m->cap - m->used - n) {
        m->fault = BLVL__JPEG_MEM_CAP;
        stop(c, JERR_OUT_OF_MEMORY, 1);
        return NULL;
    }
    size_t total = head + n + ALIGN;
    uint8_t *raw = zero ? blvl__calloc(m->a, total) : blvl__alloc(m->a, total);
    if (!raw) {
        m->fault = BLVL__JPEG_MEM_NOMEM;
        stop(c, JERR_OUT_OF_MEMORY, 2);
        return NULL;
    }
    blvl__jpeg_block *b = (blvl__jpeg_block *)raw;
    b->next = m->pools[pool];
    b->size = total;
    m->pools[pool] = b;
    m->used += total;
    uintptr_t p = ((uintptr_t)(raw + sizeof *b) + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1);
    return (void *)p;
}

static void *alloc_small(j_common_ptr c, int pool, size_t n) {
    return take(c, pool, n, false);
}

/* Rows of `bytes` each (padded to 64), `count` of them, in one block; the row pointers in
 * another, stored as the kind libjpeg reads them as (samples' or blocks' rows). */
static void *take_rows(j_common_ptr c, int pool, size_t bytes, JDIMENSION count, bool blocks,
                       bool zero) {
    blvl__jpeg_mem *m = mem_of(c);
    size_t stride = (bytes + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    size_t rows = count ? count : 1;
    if (!stride)
        stride = ALIGN;
    if (stride > m->cap / rows) {
        m->fault = BLVL__JPEG_MEM_CAP;
        stop(c, JERR_OUT_OF_MEMORY, 3);
        return NULL;
    }
    void *ptrs = take(c, pool, rows * (blocks ? sizeof(JBLOCKROW) : sizeof(JSAMPROW)), false);
    uint8_t *data = take(c, pool, stride * rows, zero);
    for (size_t i = 0; i < rows; i++)
        if (blocks)
            ((JBLOCKARRAY)ptrs)[i] = (JBLOCKROW)(void *)(data + stride * i);
        else
            ((JSAMPARRAY)ptrs)[i] = data + stride * i;
    return ptrs;
}

static JSAMPARRAY alloc_sarray(j_common_ptr c, int pool, JDIMENSION samples, JDIMENSION rows) {
    return take_rows(c, pool, (size_t)samples * sizeof(JSAMPLE), rows, false, false);
}

static JBLOCKARRAY alloc_barray(j_common_ptr c, int pool, JDIMENSION blocks, JDIMENSION rows) {
    return take_rows(c, pool, (size_t)blocks * sizeof(JBLOCK), rows, true, false);
}

static virt *request_virt(j_common_ptr c, int pool, size_t size, size_t row_bytes, bool blocks,
                          JDIMENSION height, JDIMENSION maxaccess) {
    if (pool != JPOOL_IMAGE) {
        stop(c, JERR_BAD_POOL_ID, pool);
        return NULL;
    }
    virt *v = take(c, pool, size, true);
    v->row_bytes = row_bytes;
    v->blocks = blocks;
    v->height = height;
    v->maxaccess = maxaccess;
    v->next = mem_of(c)->virts;
    mem_of(c)->virts = v;
    return v;
}

static jvirt_sarray_ptr request_virt_sarray(j_common_ptr c, int pool, boolean pre_zero,
                                            JDIMENSION width, JDIMENSION height,
                                            JDIMENSION maxaccess) {
    (void)pre_zero;
    return (jvirt_sarray_ptr)request_virt(c, pool, sizeof(struct jvirt_sarray_control),
                                          (size_t)width * sizeof(JSAMPLE), false, height,
                                          maxaccess);
}

static jvirt_barray_ptr request_virt_barray(j_common_ptr c, int pool, boolean pre_zero,
                                            JDIMENSION width, JDIMENSION height,
                                            JDIMENSION maxaccess) {
    (void)pre_zero;
    return (jvirt_barray_ptr)request_virt(c, pool, sizeof(struct jvirt_barray_control),
                                          (size_t)width * sizeof(JBLOCK), true, height, maxaccess);
}

static void realize_virt_arrays(j_common_ptr c) {
    for (virt *v = mem_of(c)->virts; v; v = v->next)
        if (!v->rows)
            v->rows = take_rows(c, JPOOL_IMAGE, v->row_bytes, v->height, v->blocks, true);
}

/* The same checks as libjpeg's manager: realized, within the array, no more rows than asked
 * for. */
static bool access_ok(j_common_ptr c, const virt *v, JDIMENSION start, JDIMENSION count) {
    if (!v->rows || (uint64_t)start + count > v->height || count > v->maxaccess) {
        stop(c, JERR_BAD_VIRTUAL_ACCESS, 0);
        return false;
    }
    return true;
}

static JSAMPARRAY access_virt_sarray(j_common_ptr c, jvirt_sarray_ptr v, JDIMENSION start,
                                     JDIMENSION count, boolean writable) {
    (void)writable;
    return access_ok(c, &v->v, start, count) ? (JSAMPARRAY)v->v.rows + start : NULL;
}

static JBLOCKARRAY access_virt_barray(j_common_ptr c, jvirt_barray_ptr v, JDIMENSION start,
                                      JDIMENSION count, boolean writable) {
    (void)writable;
    return access_ok(c, &v->v, start, count) ? (JBLOCKARRAY)v->v.rows + start : NULL;
}

static void free_pool(j_common_ptr c, int pool) {
    blvl__jpeg_mem *m = mem_of(c);
    if (pool < 0 || pool >= JPOOL_NUMPOOLS) {
        stop(c, JERR_BAD_POOL_ID, pool);
        return;
    }
    if (pool == JPOOL_IMAGE) /* the arrays' records lived in this pool */
        m->virts = NULL;
    for (blvl__jpeg_block *b = m->pools[pool], *next; b; b = next) {
        next = b->next;
        m->used -= b->size;
        blvl__dealloc(m->a, b, b->size);
    }
    m->pools[pool] = NULL;
}

static void self_destruct(j_common_ptr c) {
    blvl__jpeg_mem *m = mem_of(c);
    for (int pool = JPOOL_NUMPOOLS - 1; pool >= JPOOL_PERMANENT; pool--)
        free_pool(c, pool);
    c->mem = m->own; /* libjpeg's manager frees itself and what it holds, and clears c->mem */
    (*c->mem->self_destruct)(c);
}

void blvl__image_jpeg_mem_install(j_common_ptr cinfo, blvl__jpeg_mem *m, const blvl_allocator *a,
                                  size_t cap) {
    memset(m, 0, sizeof *m);
    m->own = cinfo->mem;
    m->a = a;
    m->cap = cap;
    m->pub.alloc_small = alloc_small;
    m->pub.alloc_large = alloc_small;
    m->pub.alloc_sarray = alloc_sarray;
    m->pub.alloc_barray = alloc_barray;
    m->pub.request_virt_sarray = request_virt_sarray;
    m->pub.request_virt_barray = request_virt_barray;
    m->pub.realize_virt_arrays = realize_virt_arrays;
    m->pub.access_virt_sarray = access_virt_sarray;
    m->pub.access_virt_barray = access_virt_barray;
    m->pub.free_pool = free_pool;
    m->pub.self_destruct = self_destruct;
    m->pub.max_memory_to_use = (long)(cap < (size_t)LONG_MAX ? cap : (size_t)LONG_MAX);
    m->pub.max_alloc_chunk = m->pub.max_memory_to_use;
    cinfo->mem = &m->pub;
}
