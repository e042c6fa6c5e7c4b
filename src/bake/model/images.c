/* PNG encoding through stb_image_write (Debian's libstb-dev).
 *
 * stb allocates through the STBIW_MALLOC / STBIW_REALLOC_SIZED / STBIW_FREE macros, which take
 * no context. They reach the caller's allocator through `png_current`, a _Thread_local pointer
 * set only for the duration of one blvl__bake_png call (and cleared before it returns), so
 * threads encoding at the same time never share it and nothing outlives the call.
 *
 * stb's deflate does not survive an allocation failure (its growable buffers write past a
 * failed growth), so an allocation that fails never returns to stb: it longjmps back to
 * blvl__bake_png, which frees every block still live. Each block carries a header linking it
 * into the call's list of live blocks; a successful encode ends with only the PNG itself live. */
#include "bake/model/images.h"

#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"

typedef struct png_block {
    struct png_block *prev, *next;
    size_t size;
    size_t pad_; /* keeps the payload 16-byte aligned on LP64 */
} png_block;

typedef struct png_ctx {
    const blvl_allocator *al;
    png_block head; /* circular list of live blocks */
    jmp_buf fail;
} png_ctx;

static _Thread_local png_ctx *png_current;

static void *png_malloc(size_t n) {
    png_ctx *c = png_current;
    png_block *blk = n > SIZE_MAX - sizeof *blk ? NULL : blvl__alloc(c->al, sizeof *blk + n);
    if (!blk)
        longjmp(c->fail, 1);
    blk->size = n;
    blk->prev = &c->head;
    blk->next = c->head.next;
    c->head.next->prev = blk;
    c->head.next = blk;
    return blk + 1;
}

static void png_release(png_ctx *c, void *p) {
    if (!p)
        return;
    png_block *blk = (png_block *)p - 1;
    blk->prev->next = blk->next;
    blk->next->prev = blk->prev;
    blvl__dealloc(c->al, blk, sizeof *blk + blk->size);
}

static void png_dealloc(void *p) {
    png_release(png_current, p);
}

static void *png_realloc(void *p, size_t newsz) {
    void *q = png_malloc(newsz);
    if (p) {
        size_t old = ((png_block *)p - 1)->size;
        memcpy(q, p, old < newsz ? old : newsz);
        png_dealloc(p);
    }
    return q;
}

#define STBIW_MALLOC(sz) png_malloc(sz)
#define STBIW_REALLOC_SIZED(p, oldsz, newsz) png_realloc((p), (newsz))
#define STBIW_FREE(p) png_dealloc(p)
#define STBIW_ASSERT(x) ((void)0)
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
/* stb declares writers this file does not use (static, so unused here). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

/* Never inlined into encode(): stb's locals must live in a frame that setjmp's caller does not
 * own, or the compiler may keep them in registers the longjmp restores. */
static __attribute__((noinline)) unsigned char *png_to_mem(const uint8_t *rgba, int w, int h,
                                                           int *len) {
    return stbi_write_png_to_mem(rgba, w * 4, w, h, 4, len);
}

/* setjmp lives here, apart from the frame that owns the list, so nothing the longjmp skips
 * over is a local of the function that called setjmp. */
static unsigned char *encode(png_ctx *c, const uint8_t *rgba, int w, int h, int *len) {
    if (setjmp(c->fail))
        return NULL;
    return png_to_mem(rgba, w, h, len);
}

blvl_status blvl__bake_png(const blvl_allocator *al, uint32_t width, uint32_t height,
                           const uint8_t *rgba, uint8_t **png, size_t *size, blvl_error *err) {
    *png = NULL;
    *size = 0;
    if (width == 0 || height == 0 || width > BAKE_PNG_MAX_SIDE || height > BAKE_PNG_MAX_SIDE ||
        (uint64_t)width * height * 4u > BAKE_PNG_MAX_BYTES)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: image %ux%u is empty or past %u texels a side or %u MiB", width,
                          height, BAKE_PNG_MAX_SIDE, BAKE_PNG_MAX_BYTES >> 20);
    png_ctx c;
    c.al = al;
    c.head.prev = c.head.next = &c.head;
    png_ctx *saved = png_current;
    png_current = &c;
    int len = 0;
    unsigned char *out = encode(&c, rgba, (int)width, (int)height, &len);
    uint8_t *copy = out && len > 0 ? blvl__alloc_sized(al, (size_t)len) : NULL;
    if (copy) {
        memcpy(copy, out, (size_t)len);
        *png = copy;
        *size = (size_t)len;
    }
    while (c.head.next != &c.head) /* the PNG, or whatever a failed encode left */
        png_release(&c, c.head.next + 1);
    png_current = saved;
    if (!copy)
        return blvl__fail(err, BLVL_E_NOMEM, "bake: out of memory encoding a %ux%u PNG", width,
                          height);
    blvl__ok(err);
    return BLVL_OK;
}
