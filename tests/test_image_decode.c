/* The image layer (include/blvl/image.h) against Pillow, which we did not write: random BC1,
 * BC3, BC4, BC5, BC6H and BC7 blocks (every mode) put in DDS files that Pillow decodes, texel
 * for texel against ours (BC6H within one step: Pillow rounds down where we round to nearest,
 * and leaves out the interpolation's rounding term); PNGs we write read back by Pillow; PNGs
 * Pillow writes in six pixel formats and JPEGs of five kinds read by us. Then the sizes, the mip
 * chain's layout, the refusals, and every byte through the caller's allocator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/image.h"
#include "check.h"
#include "support/counting_alloc.h"
#include "files.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next32(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static int have_pillow(void) {
    return system("/usr/bin/python3 -c 'import PIL' 2>/dev/null") == 0;
}

static blvl_image_desc desc(uint32_t w, uint32_t h, uint32_t enc, uint32_t mips, uint32_t layers,
                            const void *data, size_t size) {
    blvl_image_desc d = {w, h, enc, mips, layers, 0, data, size};
    return d;
}

static void sizes(void) {
    blvl_error err;
    uint64_t n;
    blvl_image_desc d = desc(4, 4, BLVL_IMAGE_BC1, 1, 1, NULL, 0);
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_OK);
    CHECK_EQ_INT(n, 8);
    d = desc(5, 3, BLVL_IMAGE_BC7, 1, 1, NULL, 0); /* 2x1 blocks */
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_OK);
    CHECK_EQ_INT(n, 32);
    /* 256x128 BC1, full chain (9 levels), 6 layers: 64x32 + 32x16 + ... blocks */
    d = desc(256, 128, BLVL_IMAGE_BC1, 9, 6, NULL, 0);
    uint64_t want = 0;
    for (uint32_t m = 0; m < 9; m++) {
        uint64_t w = 256 >> m ? 256 >> m : 1, h = 128 >> m ? 128 >> m : 1;
        want += ((w + 3) / 4) * ((h + 3) / 4) * 8 * 6;
    }
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_OK);
    CHECK_EQ_INT(n, want);
    d = desc(3, 5, BLVL_IMAGE_RGBA8, 3, 2, NULL, 0); /* 3x5, 1x2, 1x1 */
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_OK);
    CHECK_EQ_INT(n, (15 + 2 + 1) * 4 * 2);
    d = desc(640, 480, BLVL_IMAGE_PNG, 1, 1, NULL, 0);
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_OK);
    CHECK_EQ_INT(n, 0);
    /* impossible descriptions */
    d = desc(4, 4, 9, 1, 1, NULL, 0);
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "encoding") != NULL);
    d = desc(0, 4, BLVL_IMAGE_BC1, 1, 1, NULL, 0);
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_E_ARGUMENT);
    d = desc(4, 4, BLVL_IMAGE_BC1, 1, 0, NULL, 0);
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_E_ARGUMENT);
    d = desc(4, 4, BLVL_IMAGE_BC1, 4, 1, NULL, 0); /* 4x4 has 3 levels */
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "mips") != NULL);
    d = desc(4, 4, BLVL_IMAGE_BC1, 0, 1, NULL, 0);
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_E_ARGUMENT);
    d = desc(4, 4, BLVL_IMAGE_JPEG, 2, 1, NULL, 0);
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_E_ARGUMENT);
    d = desc(0xFFFFFFFFu, 0xFFFFFFFFu, BLVL_IMAGE_RGBA8, 1, 1, NULL, 0);
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "overflow") != NULL);
    d = desc(1u << 30, 1u << 30, BLVL_IMAGE_RGBA8, 1, 0xFFFFFFFFu, NULL, 0);
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_E_ARGUMENT);
    d = desc(1u << 16, 1u << 16, BLVL_IMAGE_RGBA8, 17, 1, NULL, 0); /* 16 GiB: a size, not */
    CHECK_EQ_INT(blvl_image_expected_size(&n, &d, &err), BLVL_OK);  /* a decode */
    CHECK(n > (16ull << 30));
}

static void refusals(void) {
    blvl_error err;
    blvl_image_rgba px;
    uint8_t buf[256] = {0};
    blvl_image_desc d = desc(4, 4, BLVL_IMAGE_BC1, 1, 1, buf, 100);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_E_ARGUMENT);
    CHECK(strcmp(err.message, "argument: image: bc1 data is 100 bytes, 4x4 with 1 mip needs 8") ==
          0);
    CHECK(px.pixels == NULL);
    d = desc(4, 4, BLVL_IMAGE_BC1, 1, 1, buf, 7);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_E_ARGUMENT);
    d = desc(4, 4, BLVL_IMAGE_BC1, 1, 1, buf, 8);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 1, NULL, &err), BLVL_E_ARGUMENT); /* mip past */
    CHECK(strstr(err.message, "mip 1 past") != NULL);
    d = desc(4, 4, BLVL_IMAGE_BC1, 1, 1, NULL, 8);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_E_ARGUMENT);
    /* absurd sizes are refused before a byte is read or allocated */
    d = desc(1u << 15, 1u << 15, BLVL_IMAGE_BC1, 1, 1, buf, sizeof buf);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "2^28") != NULL);
    d = desc(1u << 14, 1u << 14, BLVL_IMAGE_PNG, 1, 2, buf, sizeof buf);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_E_ARGUMENT);
    d = desc(8, 8, BLVL_IMAGE_PNG, 1, 1, buf, sizeof buf); /* no PNG signature */
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_E_ARGUMENT);
    d = desc(8, 8, BLVL_IMAGE_JPEG, 1, 1, buf, sizeof buf);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl_image_decode(&px, NULL, 0, NULL, &err), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl_image_write_png(NULL, NULL, NULL, 1, 1, NULL, &err), BLVL_E_ARGUMENT);
    void *png;
    size_t n;
    CHECK_EQ_INT(blvl_image_write_png(&png, &n, buf, 0, 1, NULL, &err), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl_image_write_png(&png, &n, buf, 1u << 15, 1u << 14, NULL, &err),
                 BLVL_E_ARGUMENT);
}

/* RGBA8 with 3 mips and 2 layers: every texel names its level and layer, so decoding each
 * level proves the layout level-major, layer-minor. */
static void layout(void) {
    uint8_t data[(12 + 2 + 1) * 4 * 2];
    size_t at = 0;
    uint32_t sides[3][2] = {{4, 3}, {2, 1}, {1, 1}};
    for (uint32_t m = 0; m < 3; m++)
        for (uint32_t l = 0; l < 2; l++)
            for (uint32_t t = 0; t < sides[m][0] * sides[m][1]; t++, at += 4)
                memcpy(data + at, (uint8_t[4]){(uint8_t)m, (uint8_t)l, (uint8_t)t, 7}, 4);
    CHECK_EQ_INT(at, sizeof data);
    blvl_image_desc d = desc(4, 3, BLVL_IMAGE_RGBA8, 3, 2, data, sizeof data);
    for (uint32_t m = 0; m < 3; m++) {
        blvl_image_rgba px;
        blvl_error err;
        CHECK_EQ_INT(blvl_image_decode(&px, &d, m, NULL, &err), BLVL_OK);
        CHECK_EQ_INT(px.width, sides[m][0]);
        CHECK_EQ_INT(px.height, sides[m][1]);
        CHECK_EQ_INT(px.layers, 2);
        int good = 1;
        for (uint32_t l = 0; l < 2; l++)
            for (uint32_t t = 0; t < px.width * px.height; t++) {
                const uint8_t *p = px.pixels + (l * px.width * px.height + t) * 4;
                good &= p[0] == m && p[1] == l && p[2] == t;
            }
        CHECK(good);
        blvl_image_rgba_free(&px);
    }
    /* BC1, 8x8 with 4 mips and 2 layers: level 2 of layer 1 is block 1 of the level's pair,
     * which sits after 4+4 (level 0) and 1+1 (level 1) blocks. */
    uint8_t bc[(4 + 1 + 1 + 1) * 2 * 8];
    for (size_t i = 0; i < sizeof bc; i++)
        bc[i] = (uint8_t)next32();
    d = desc(8, 8, BLVL_IMAGE_BC1, 4, 2, bc, sizeof bc);
    blvl_image_rgba px;
    blvl_error err;
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 2, NULL, &err), BLVL_OK);
    blvl_image_desc one = desc(4, 4, BLVL_IMAGE_BC1, 1, 1, bc + (8 + 2 + 1) * 8, 8);
    blvl_image_rgba ref;
    CHECK_EQ_INT(blvl_image_decode(&ref, &one, 0, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(px.width, 2);
    CHECK_EQ_INT(px.height, 2);
    if (px.pixels && ref.pixels) {
        CHECK_MEM(px.pixels + 16, ref.pixels, 8);      /* layer 1, row 0 */
        CHECK_MEM(px.pixels + 24, ref.pixels + 16, 8); /* layer 1, row 1 */
    }
    blvl_image_rgba_free(&px);
    blvl_image_rgba_free(&ref);
}

/* --- Pillow -------------------------------------------------------------------------------- */
static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* A DDS of one level: a FourCC, or "DX10" with a DXGI format. */
static int write_dds(const char *path, uint32_t w, uint32_t h, const char *fourcc, uint32_t dxgi,
                     const uint8_t *blocks, size_t n) {
    uint8_t hdr[4 + 124 + 20] = {'D', 'D', 'S', ' '};
    put32(hdr + 4, 124);
    put32(hdr + 8, 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000);
    put32(hdr + 12, h);
    put32(hdr + 16, w);
    put32(hdr + 20, (uint32_t)n);
    put32(hdr + 76, 32);  /* pixel format size */
    put32(hdr + 80, 0x4); /* FourCC */
    memcpy(hdr + 84, fourcc, 4);
    put32(hdr + 108, 0x1000);
    size_t hn = 128;
    if (dxgi) {
        put32(hdr + 128, dxgi);
        put32(hdr + 132, 3); /* 2D */
        put32(hdr + 140, 1); /* array size */
        hn += 20;
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(hdr, 1, hn, f) == hn && fwrite(blocks, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

typedef struct bc_case {
    uint32_t enc;
    const char *name, *fourcc, *channels;
    uint32_t dxgi, block, tol;
} bc_case;

/* A random block; BC6H and BC7 cycle through their modes (BC6H's reserved ones included). */
static void random_block(uint32_t enc, uint32_t i, uint8_t *b, uint32_t n) {
    for (uint32_t k = 0; k < n; k++)
        b[k] = (uint8_t)next32();
    if (enc == BLVL_IMAGE_BC7) {
        uint32_t mode = i % 8;
        b[0] = (uint8_t)((b[0] << (mode + 1)) | (1u << mode));
    } else if (enc == BLVL_IMAGE_BC6H) {
        static const uint8_t heads[18] = {0x00, 0x01, 0x02, 0x06, 0x0A, 0x0E, 0x12, 0x16, 0x1A,
                                          0x1E, 0x03, 0x07, 0x0B, 0x0F, 0x13, 0x17, 0x1B, 0x1F};
        uint32_t hd = heads[i % 18];
        b[0] = (uint8_t)((b[0] & (hd < 2 ? 0xFC : 0xE0)) | hd);
    }
}

static void bcn_vs_pillow(const char *dir) {
    static const bc_case cases[] = {
        {BLVL_IMAGE_BC1, "bc1", "DXT1", "rgba", 0, 8, 0},
        {BLVL_IMAGE_BC3, "bc3", "DXT5", "rgba", 0, 16, 0},
        {BLVL_IMAGE_BC4, "bc4", "ATI1", "l", 0, 8, 0},
        {BLVL_IMAGE_BC5, "bc5", "ATI2", "rgb", 0, 16, 0},
        {BLVL_IMAGE_BC6H, "bc6h", "DX10", "rgb", 95, 16, 1},
        {BLVL_IMAGE_BC7, "bc7", "DX10", "rgba", 98, 16, 0},
    };
    static const uint32_t dims[][2] = {{64, 72}, {13, 7}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (size_t s = 0; s < 2; s++) {
            uint32_t w = dims[s][0], h = dims[s][1], nb = ((w + 3) / 4) * ((h + 3) / 4);
            size_t n = (size_t)nb * cases[c].block;
            uint8_t *blocks = malloc(n);
            for (uint32_t i = 0; i < nb; i++)
                random_block(cases[c].enc, i, blocks + (size_t)i * cases[c].block, cases[c].block);
            if (cases[c].enc == BLVL_IMAGE_BC7 && nb > 20)
                memset(blocks + 20 * 16, 0, 16); /* a reserved block: Pillow gives alpha 255 */
            blvl_image_desc d = desc(w, h, cases[c].enc, 1, 1, blocks, n);
            blvl_image_rgba px;
            blvl_error err;
            CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_OK);
            if (!px.pixels) {
                free(blocks);
                continue;
            }
            if (cases[c].enc == BLVL_IMAGE_BC7 && nb > 20) {
                /* ours is 0 in every channel there (D3D11); make Pillow's alpha agree */
                const uint8_t zero[16] = {0};
                for (uint32_t y = 0; y < 4; y++) {
                    uint8_t *p =
                        px.pixels + ((size_t)(20 / (w / 4) * 4 + y) * w + (20 % (w / 4)) * 4) * 4;
                    for (uint32_t x = 0; x < 4; x++) {
                        CHECK_MEM(p + x * 4, zero, 4);
                        p[x * 4 + 3] = 255;
                    }
                }
            }
            char dds[256], ours[256], cmd[1024];
            snprintf(dds, sizeof dds, "%s/%s_%zu.dds", dir, cases[c].name, s);
            snprintf(ours, sizeof ours, "%s/%s_%zu.rgba", dir, cases[c].name, s);
            CHECK(write_dds(dds, w, h, cases[c].fourcc, cases[c].dxgi, blocks, n) == 0);
            CHECK(test_spit(ours, px.pixels, (size_t)w * h * 4) == 0);
            snprintf(cmd, sizeof cmd,
                     "/usr/bin/python3 tests/image/pil_check.py dds %s %u %u %s %s %u", dds, w, h,
                     ours, cases[c].channels, cases[c].tol);
            CHECK(test_run(cmd) == 0);
            /* BC4 and BC5 fill the channels the header names */
            int fill = 1;
            for (uint32_t t = 0; t < w * h; t++) {
                const uint8_t *p = px.pixels + t * 4;
                if (cases[c].enc == BLVL_IMAGE_BC4)
                    fill &= p[1] == p[0] && p[2] == p[0] && p[3] == 255;
                if (cases[c].enc == BLVL_IMAGE_BC5 || cases[c].enc == BLVL_IMAGE_BC6H)
                    fill &= (cases[c].enc == BLVL_IMAGE_BC6H || p[2] == 0) && p[3] == 255;
            }
            CHECK(fill);
            blvl_image_rgba_free(&px);
            free(blocks);
        }
    }
}

static uint8_t *pattern(uint32_t w, uint32_t h) {
    uint8_t *p = malloc((size_t)w * h * 4);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *t = p + ((size_t)y * w + x) * 4;
            t[0] = (uint8_t)(x * 255 / (w - 1));
            t[1] = (uint8_t)(y * 255 / (h - 1));
            t[2] = (uint8_t)((x + y) * 4);
            t[3] = (uint8_t)(255 - x * 3);
        }
    return p;
}

static void png_both_ways(const char *dir) {
    char path[256], ref[256], cmd[1024];
    uint32_t w = 37, h = 46; /* two layers of 37x23 */
    uint8_t *src = pattern(w, h);
    for (uint32_t i = 0; i < 200; i++) /* some noise, so every filter gets chosen */
        src[next32() % (w * h * 4)] = (uint8_t)next32();
    test_counter cnt;
    blvl_options opt = test_counting(&cnt);
    void *png;
    size_t n;
    blvl_error err;
    CHECK_EQ_INT(blvl_image_write_png(&png, &n, src, w, h, &opt, &err), BLVL_OK);
    snprintf(path, sizeof path, "%s/ours.png", dir);
    snprintf(ref, sizeof ref, "%s/ours.rgba", dir);
    CHECK(test_spit(path, png, n) == 0);
    CHECK(test_spit(ref, src, (size_t)w * h * 4) == 0);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/image/pil_check.py png %s %u %u %s", path, w,
             h, ref);
    CHECK(test_run(cmd) == 0);
    /* ours back through our decoder, as two layers of 37x23 */
    blvl_image_desc d = desc(w, h / 2, BLVL_IMAGE_PNG, 1, 2, png, n);
    blvl_image_rgba px;
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, &opt, &err), BLVL_OK);
    CHECK_EQ_INT(px.layers, 2);
    CHECK_EQ_INT(px.height, h / 2);
    if (px.pixels)
        CHECK_MEM(px.pixels, src, (size_t)w * h * 4);
    blvl_image_rgba_free(&px);
    /* described with another size: refused */
    d = desc(w, h / 2, BLVL_IMAGE_PNG, 1, 1, png, n);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, &opt, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "described") != NULL);
    /* damaged: the data cut short */
    d = desc(w, h / 2, BLVL_IMAGE_PNG, 1, 2, png, n / 2);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, &opt, &err), BLVL_E_ARGUMENT);
    /* every allocation failing in turn: NOMEM or a refusal, never a leak */
    for (long k = 1; k < 40; k++) {
        test_counter fail;
        blvl_options fo = test_counting(&fail);
        fail.fail_at = k;
        d = desc(w, h / 2, BLVL_IMAGE_PNG, 1, 2, png, n);
        blvl_status st = blvl_image_decode(&px, &d, 0, &fo, &err);
        if (st == BLVL_OK)
            blvl_image_rgba_free(&px);
        void *again = NULL;
        size_t an;
        fail.calls = 0;
        if (blvl_image_write_png(&again, &an, src, w, h, &fo, &err) == BLVL_OK)
            blvl_free(&fo, again);
        CHECK_EQ_INT(fail.live, 0);
        CHECK_EQ_INT(fail.bad_free, 0);
    }
    blvl_free(&opt, png);
    CHECK_EQ_INT(cnt.live, 0);
    CHECK_EQ_INT(cnt.bad_free, 0);

    /* PNGs Pillow writes, in six pixel formats */
    static const char *const modes[] = {"RGBA", "RGB", "L", "LA", "P", "I;16"};
    snprintf(path, sizeof path, "%s/src.rgba", dir);
    CHECK(test_spit(path, src, (size_t)w * h * 4) == 0);
    for (size_t m = 0; m < 6; m++) {
        char out[256];
        snprintf(out, sizeof out, "%s/pil_%zu.png", dir, m);
        snprintf(ref, sizeof ref, "%s/pil_%zu.rgba", dir, m);
        snprintf(cmd, sizeof cmd,
                 "/usr/bin/python3 tests/image/pil_check.py mkpng %s %u %u '%s' %s %s", path, w, h,
                 modes[m], out, ref);
        CHECK(test_run(cmd) == 0);
        size_t fn, rn;
        uint8_t *file = test_slurp(out, &fn), *want = test_slurp(ref, &rn);
        CHECK(file && want && rn == (size_t)w * h * 4);
        if (file && want) {
            d = desc(w, h, BLVL_IMAGE_PNG, 1, 1, file, fn);
            CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, &opt, &err), BLVL_OK);
            if (px.pixels) {
                if (memcmp(px.pixels, want, rn) != 0)
                    fprintf(stderr, "png from Pillow in mode %s decodes differently\n", modes[m]);
                CHECK_MEM(px.pixels, want, rn);
            }
            blvl_image_rgba_free(&px);
        }
        free(file);
        free(want);
    }
    CHECK_EQ_INT(cnt.live, 0);
    CHECK_EQ_INT(cnt.bad_free, 0);
    free(src);
}

/* A JPEG that Pillow writes, and Pillow's own decode of it as RGBA (the reference). */
static int pil_jpeg(const char *dir, const uint8_t *pix, uint32_t w, uint32_t h, const char *kind,
                    uint8_t **file, size_t *fn, uint8_t **want) {
    char src[256], jpg[256], ref[256], cmd[1024];
    size_t rn = 0;
    snprintf(src, sizeof src, "%s/j.rgba", dir);
    snprintf(jpg, sizeof jpg, "%s/j_%s.jpg", dir, kind);
    snprintf(ref, sizeof ref, "%s/j_%s.rgba", dir, kind);
    *file = *want = NULL;
    if (test_spit(src, pix, (size_t)w * h * 4) != 0)
        return -1;
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/image/pil_check.py mkjpeg %s %u %u %s %s %s",
             src, w, h, jpg, ref, kind);
    if (test_run(cmd) != 0)
        return -1;
    *file = test_slurp(jpg, fn);
    *want = test_slurp(ref, &rn);
    return *file && *want && rn == (size_t)w * h * 4 ? 0 : -1;
}

/* JPEGs from Pillow in five kinds. Pillow decodes through the same libjpeg-turbo, so ours must
 * equal its texels exactly: what is ours to get right is the setup (colour space, upsampling,
 * rows in order, every byte from the caller's allocator) and CMYK, which Pillow leaves as inks
 * and the reference turns to RGB by the documented rule. */
static void jpeg_kinds(const char *dir) {
    static const char *const kinds[] = {"rgb", "444", "progressive", "grey", "cmyk"};
    uint32_t w = 48, h = 40;
    uint8_t *pix = pattern(w, h);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        uint8_t *file, *want;
        size_t fn;
        CHECK(pil_jpeg(dir, pix, w, h, kinds[k], &file, &fn, &want) == 0);
        if (file && want) {
            test_counter cnt;
            blvl_options opt = test_counting(&cnt);
            blvl_image_desc d = desc(w, h, BLVL_IMAGE_JPEG, 1, 1, file, fn);
            blvl_image_rgba px;
            blvl_error err;
            CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, &opt, &err), BLVL_OK);
            if (px.pixels && memcmp(px.pixels, want, (size_t)w * h * 4) != 0) {
                fprintf(stderr, "jpeg of kind %s decodes differently from Pillow\n", kinds[k]);
                CHECK_MEM(px.pixels, want, (size_t)w * h * 4);
            }
            blvl_image_rgba_free(&px);
            CHECK(cnt.calls > 2); /* libjpeg's buffers came from the caller's allocator */
            CHECK_EQ_INT(cnt.live, 0);
            CHECK_EQ_INT(cnt.bad_free, 0);
        }
        free(file);
        free(want);
    }
    free(pix);
}

/* Damaged JPEGs are refused, never patched over; every allocation failing in turn. */
static void jpeg_damage(const char *dir) {
    uint32_t w = 48, h = 40;
    uint8_t *pix = pattern(w, h), *file, *want;
    size_t fn;
    CHECK(pil_jpeg(dir, pix, w, h, "progressive", &file, &fn, &want) == 0);
    if (!file || !want) {
        free(file);
        free(want);
        free(pix);
        return;
    }
    test_counter cnt;
    blvl_options opt = test_counting(&cnt);
    blvl_image_rgba px;
    blvl_error err;
    blvl_image_desc d = desc(w, h + 1, BLVL_IMAGE_JPEG, 1, 1, file, fn); /* another size */
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, &opt, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "described") != NULL);
    /* cut short anywhere, without EOI: refused by the walk (a segment past the end) or the
     * decoder (no EOI), never patched over */
    size_t refused = 0;
    for (size_t cut = 4; cut < fn; cut += 7) {
        d = desc(w, h, BLVL_IMAGE_JPEG, 1, 1, file, cut);
        refused += blvl_image_decode(&px, &d, 0, &opt, &err) == BLVL_E_ARGUMENT && !px.pixels &&
                   strstr(err.message, "jpeg") != NULL;
    }
    CHECK_EQ_INT(refused, (fn - 4 + 6) / 7);

    /* Each scan cut to half its data and closed by EOI: the decoder runs out of bits in the
     * middle of a scan and meets a marker (stb_image, which decoded JPEG here before, shifted
     * by 32 there). */
    uint8_t *cut = malloc(fn + 2);
    size_t scans = 0;
    for (size_t i = 2; cut && i + 4 < fn; i++) {
        if (file[i] != 0xFF || file[i + 1] != 0xDA)
            continue;
        size_t data = i + 2 + ((size_t)file[i + 2] << 8 | file[i + 3]), end = data;
        while (end + 1 < fn && !(file[end] == 0xFF && file[end + 1] && file[end + 1] < 0xD0))
            end++;
        size_t keep = data + (end - data) / 2;
        memcpy(cut, file, keep);
        cut[keep] = 0xFF;
        cut[keep + 1] = 0xD9;
        d = desc(w, h, BLVL_IMAGE_JPEG, 1, 1, cut, keep + 2);
        CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, &opt, &err), BLVL_E_ARGUMENT);
        CHECK(strstr(err.message, "does not decode") != NULL);
        scans++;
    }
    CHECK(scans >= 6); /* a progressive colour picture has several scans */
    printf("jpeg: %zu scans cut short, each refused (%s)\n", scans, err.message);
    free(cut);

    /* every allocation failing in turn: NOMEM, never a refusal of the data, never a leak */
    long nomem = 0, k;
    for (k = 1; k < 400; k++) {
        test_counter fail;
        blvl_options fo = test_counting(&fail);
        fail.fail_at = k;
        d = desc(w, h, BLVL_IMAGE_JPEG, 1, 1, file, fn);
        blvl_status st = blvl_image_decode(&px, &d, 0, &fo, &err);
        if (st == BLVL_OK)
            blvl_image_rgba_free(&px);
        else
            nomem++;
        CHECK(st == BLVL_OK || st == BLVL_E_NOMEM);
        CHECK_EQ_INT(fail.live, 0);
        CHECK_EQ_INT(fail.bad_free, 0);
        if (fail.calls < k) /* this run made fewer allocations than k: all were tried */
            break;
    }
    CHECK(k < 400);
    CHECK_EQ_INT(nomem, k - 1);
    printf("jpeg: %ld allocations, each failing in turn gives nomem\n", k - 1);

    /* a Huffman table whose counts sum past 256 symbols: refused before the decoder reads it */
    for (size_t i = 0; i + 21 < fn; i++)
        if (file[i] == 0xFF && file[i + 1] == 0xC4) {
            memset(file + i + 5, 0xFF, 16);
            break;
        }
    d = desc(w, h, BLVL_IMAGE_JPEG, 1, 1, file, fn);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, &opt, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "Huffman") != NULL);
    CHECK_EQ_INT(cnt.live, 0);
    CHECK_EQ_INT(cnt.bad_free, 0);
    free(file);
    free(want);
    free(pix);
}

/* An 8x8 grey progressive JPEG made by hand, every coefficient zero: the DC and each of the 63
 * AC coefficients in a scan of its own, first with its low `al` bits left out, then refined a
 * bit a scan, so 64 * (al + 1) scans. Both Huffman tables hold one code, "0", for symbol 0 (a
 * DC difference of 0; an end of band), so each scan's data is one bit padded to 0x7F. */
static size_t progressive_zeros(uint8_t *out, int al) {
    size_t n = 0;
    static const uint8_t head[] = {0xFF, 0xD8,                                         /* SOI */
                                   0xFF, 0xC2, 0, 11, 8,    0, 8, 0, 8, 1, 1, 0x11, 0, /* SOF2 */
                                   0xFF, 0xC4, 0, 20, 0x00, 1, 0, 0, 0, 0, 0, 0,    0,
                                   0,    0,    0, 0,  0,    0, 0, 0, 0, /* DHT: DC 0 */
                                   0xFF, 0xC4, 0, 20, 0x10, 1, 0, 0, 0, 0, 0, 0,    0,
                                   0,    0,    0, 0,  0,    0, 0, 0, 0, /* DHT: AC 0 */
                                   0xFF, 0xDB, 0, 67, 0};               /* DQT 0, then 64 ones */
    memcpy(out, head, sizeof head);
    n = sizeof head;
    memset(out + n, 1, 64);
    n += 64;
    for (int k = 0; k < 64; k++)
        for (int ah = 0; ah <= al; ah++) {
            /* first scan: Ah 0, Al al; then Ah = Al + 1 each time, down to Al 0 */
            int hi = ah ? al - ah + 1 : 0, lo = al - ah;
            uint8_t sos[] = {0xFF, 0xDA, 0,          8,          1,
                             1,    0x00, (uint8_t)k, (uint8_t)k, (uint8_t)(hi << 4 | lo),
                             0x7F};
            memcpy(out + n, sos, sizeof sos);
            n += sizeof sos;
        }
    out[n++] = 0xFF;
    out[n++] = 0xD9;
    return n;
}

static void jpeg_scans(void) {
    static uint8_t buf[16384];
    blvl_image_rgba px;
    blvl_error err;
    size_t n = progressive_zeros(buf, 3); /* 256 scans: the most decoded */
    blvl_image_desc d = desc(8, 8, BLVL_IMAGE_JPEG, 1, 1, buf, n);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_OK);
    if (px.pixels) {
        int flat = 1;
        for (size_t i = 0; i < 64 * 4; i++)
            flat &= px.pixels[i] == (i % 4 == 3 ? 255 : 128); /* zero DC: mid grey */
        CHECK(flat);
    }
    blvl_image_rgba_free(&px);
    n = progressive_zeros(buf, 4); /* 320 scans */
    d = desc(8, 8, BLVL_IMAGE_JPEG, 1, 1, buf, n);
    CHECK_EQ_INT(blvl_image_decode(&px, &d, 0, NULL, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "over 256 scans") != NULL);
    CHECK(px.pixels == NULL);
}

int main(void) {
    sizes();
    refusals();
    layout();
    jpeg_scans();
    if (!have_pillow()) {
        printf("test_image_decode: no Pillow (python3-pil): skipped\n");
        return 77;
    }
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/blvl-image-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    bcn_vs_pillow(dir);
    png_both_ways(dir);
    jpeg_kinds(dir);
    jpeg_damage(dir);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return check_report("test_image_decode");
}
