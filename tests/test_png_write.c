/* The one PNG writer (src/image/png_write.c) gives the bytes stb_image_write 1.16 gives with its
 * defaults, which the bake used before and every baked level holds: on flat, gradient, noisy
 * (stored blocks) and repetitive pictures, one texel to wide rows. And it survives every
 * allocation failing in turn, with nothing leaked. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#define STBIW_ASSERT(x) ((void)0)
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include "check.h"
#include "common/alloc.h"
#include "image/png_write.h"

static uint32_t rng = 12345;
static uint32_t next32(void) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static uint8_t *picture(int kind, uint32_t w, uint32_t h) {
    uint8_t *p = malloc((size_t)w * h * 4);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *t = p + ((size_t)y * w + x) * 4;
            for (int c = 0; c < 4; c++)
                t[c] = kind == 0   ? 0x80
                       : kind == 1 ? (uint8_t)(x * 3 + y * 5 + c * 40)
                       : kind == 2 ? (uint8_t)next32()
                       : kind == 3 ? (uint8_t)((x / 4 + y / 3) % 7 * 30 + c)
                                   : (uint8_t)((x * y) >> (c + 1));
        }
    if (kind == 3) /* some noise, so every filter gets chosen somewhere */
        for (uint32_t i = 0; i < w * h / 16; i++)
            p[next32() % ((size_t)w * h * 4)] = (uint8_t)next32();
    return p;
}

static void same_as_stb(int kind, uint32_t w, uint32_t h) {
    uint8_t *px = picture(kind, w, h);
    int len = 0;
    unsigned char *ref = stbi_write_png_to_mem(px, (int)w * 4, (int)w, (int)h, 4, &len);
    uint8_t *ours = NULL;
    size_t n = 0;
    CHECK_EQ_INT(blvl__image_png_encode(NULL, px, w, h, &ours, &n), BLVL_OK);
    CHECK(ref != NULL);
    CHECK_EQ_INT(n, len);
    if (ref && ours && n == (size_t)len && memcmp(ours, ref, n))
        fprintf(stderr, "kind %d %ux%u: bytes differ\n", kind, w, h);
    if (ref && ours && n == (size_t)len)
        CHECK_MEM(ours, ref, n);
    free(ref);
    blvl__free_sized(NULL, ours);
    free(px);
}

typedef struct failing {
    long calls, fail_at, live;
} failing;
static void *f_alloc(void *user, size_t size) {
    failing *f = user;
    if (++f->calls == f->fail_at)
        return NULL;
    void *p = malloc(size);
    if (p)
        f->live++;
    return p;
}
static void f_free(void *user, void *p, size_t size) {
    failing *f = user;
    (void)size;
    if (p)
        f->live--;
    free(p);
}

int main(void) {
    static const uint32_t sizes[][2] = {{1, 1},   {2, 1},    {1, 3},    {5, 7},
                                        {64, 64}, {300, 17}, {1024, 40}};
    for (int kind = 0; kind < 5; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            same_as_stb(kind, sizes[s][0], sizes[s][1]);
    /* a long repetitive picture: matches across the 32K window and full hash buckets */
    same_as_stb(3, 512, 300);
    same_as_stb(4, 2000, 70);

    uint8_t *px = picture(3, 200, 50);
    for (long k = 1; k < 64; k++) {
        failing f = {.fail_at = k};
        blvl_allocator a = {f_alloc, f_free, &f};
        uint8_t *png = NULL;
        size_t n = 0;
        blvl_status st = blvl__image_png_encode(&a, px, 200, 50, &png, &n);
        CHECK(st == BLVL_OK || st == BLVL_E_NOMEM);
        CHECK(st == BLVL_OK ? png != NULL : png == NULL);
        if (png)
            blvl__free_sized(&a, png);
        CHECK_EQ_INT(f.live, 0);
    }
    free(px);
    return check_report("test_png_write");
}
