/* TGA decode against Pillow: tests/data/q3/make_images.py writes TGAs in every variant the
 * decoder reads (true colour 24/32, grey 8, colour-mapped, run-length or not, both row orders,
 * an id field, and by hand right-to-left rows and a run across rows) with the pixels Pillow
 * reads back; the decode must match them byte for byte. A control whose expected pixels predate
 * a one-pixel change must not match. Refusals (16-bit grey, an index past the colour map, a
 * truncated file) name their rule. JPEG and PNG sizes are read from their headers, and a JPEG's
 * refusals name their rule (by hand, no Pillow needed). Skips (77) without python3-pil. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "common/alloc.h"
#include "image/image_internal.h"
#include "import/q3/image_internal.h"

static char dir[] = "/tmp/blvl_q3tga_XXXXXX";

static uint8_t *load(const char *name, const char *ext, size_t *n) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    return test_slurp(path, n);
}

/* 1: decoded and equal, 0: decoded and different, -1: refused */
static int tga_matches(const char *name, uint32_t w, uint32_t h) {
    size_t n = 0, m = 0;
    uint8_t *file = load(name, "tga", &n), *want = load(name, "rgba", &m);
    CHECK(file && want);
    if (!file || !want)
        return -1;
    uint8_t *rgba = NULL;
    uint32_t gw, gh;
    blvl_error err;
    CHECK_EQ_INT(blvl__import_q3_img_kind(file, n), Q3I_TGA);
    int r = -1;
    if (blvl__import_q3_img_tga(file, n, name, NULL, &rgba, &gw, &gh, &err) == BLVL_OK) {
        r = gw == w && gh == h && m == (size_t)w * h * 4 && !memcmp(rgba, want, m);
        blvl__dealloc(NULL, rgba, (size_t)gw * gh * 4);
    } else {
        fprintf(stderr, "%s: %s\n", name, err.message);
    }
    free(file);
    free(want);
    return r;
}

static void refused(const char *name, const char *rule) {
    size_t n = 0;
    uint8_t *file = load(name, "tga", &n), *rgba = NULL;
    uint32_t w, h;
    blvl_error err;
    CHECK(file != NULL);
    CHECK_EQ_INT(blvl__import_q3_img_tga(file, n, name, NULL, &rgba, &w, &h, &err), BLVL_E_SOURCE);
    char want[64];
    snprintf(want, sizeof want, ": %s: ", rule);
    CHECK(strstr(err.message, want) != NULL && !strncmp(err.message, name, strlen(name)));
    CHECK(rgba == NULL);
    free(file);
}

/* JPEG sizes under the importer's rules (blvl__image_jpeg_walk stopping at the frame header): what
 * follows the frame header is not read, and each refusal names its rule. */
static void jpeg_rules(void) {
    /* a DHT of 510 symbols, then a 32x16 frame header: carried (its size read), though a whole
     * walk, the image layer's before stb, refuses the table */
    static const uint8_t huff[] = {0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x13, 0x00, 0xFF, 0xFF, 0,
                                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                                   0,    0,    0,    0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x10,
                                   0x00, 0x20, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9};
    uint32_t w, h;
    size_t at;
    blvl_error err;
    CHECK_EQ_INT(blvl__import_q3_img_jpeg_size(huff, sizeof huff, "huff", &w, &h, &err), BLVL_OK);
    CHECK(w == 32 && h == 16);
    CHECK_EQ_INT(blvl__image_jpeg_walk(huff, sizeof huff, true, &w, &h, &at), BLVL__JPEG_HUFFMAN);
    CHECK_EQ_INT(at, 4);
    static const struct {
        const char *name, *rule;
        uint8_t bytes[16];
        size_t n;
    } bad[] = {
        {"nosoi", ": SOI at offset 0: signature: ", {0xFF, 0xD9, 0xFF, 0xD9}, 4},
        {"scan", ": marker at offset 3: frame: ", {0xFF, 0xD8, 0xFF, 0xDA, 0, 2}, 6},
        {"end", ": marker at offset 3: frame: ", {0xFF, 0xD8, 0xFF, 0xD9}, 4},
        {"nomark", ": marker at offset 2: marker: ", {0xFF, 0xD8, 0x00, 0xFF}, 4},
        {"fill", ": marker at offset 5: truncated: ", {0xFF, 0xD8, 0xFF, 0xFF, 0xFF}, 5},
        {"nolen", ": segment at offset 4: truncated: ", {0xFF, 0xD8, 0xFF, 0xE0, 0}, 5},
        {"len", ": segment at offset 4: truncated: ", {0xFF, 0xD8, 0xFF, 0xE0, 0, 9, 0}, 7},
        {"sof", ": SOF at offset 4: frame: ", {0xFF, 0xD8, 0xFF, 0xC0, 0, 5, 8, 0, 1}, 9},
        {"big",
         ": SOF at offset 7: size: ",
         {0xFF, 0xD8, 0xFF, 0xC2, 0, 11, 8, 0, 1, 0x21, 0, 1, 1, 0x11, 0},
         15},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_INT(
            blvl__import_q3_img_jpeg_size(bad[i].bytes, bad[i].n, bad[i].name, &w, &h, &err),
            BLVL_E_SOURCE);
        if (!strstr(err.message, bad[i].rule))
            fprintf(stderr, "%s: \"%s\" lacks \"%s\"\n", bad[i].name, err.message, bad[i].rule);
        CHECK(strstr(err.message, bad[i].rule) != NULL);
    }
}

int main(void) {
    jpeg_rules();
    const char *py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s -c 'import PIL' 2>/dev/null", py);
    if (system(cmd) != 0) {
        printf("test_q3_tga: SKIP (python3-pil is not installed)\n");
        return 77;
    }
    CHECK(mkdtemp(dir) != NULL);
    snprintf(cmd, sizeof cmd, "%s tests/data/q3/make_images.py %s", py, dir);
    CHECK_EQ_INT(test_run(cmd), 0);
    size_t ln = 0;
    char *list = (char *)load("list", "txt", &ln);
    CHECK(list != NULL);
    int tgas = 0, others = 0;
    for (char *line = list ? strtok(list, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        char name[64], kind[8];
        unsigned w, h;
        if (sscanf(line, "%63s %7s %u %u", name, kind, &w, &h) != 4) {
            CHECK(0);
            continue;
        }
        if (!strcmp(kind, "tga")) {
            int r = tga_matches(name, w, h);
            if (r != 1)
                fprintf(stderr, "%s: does not match Pillow\n", name);
            CHECK_EQ_INT(r, 1);
            tgas++;
            continue;
        }
        size_t n = 0;
        uint8_t *file = load(name, kind, &n);
        uint32_t gw = 0, gh = 0;
        blvl_error err;
        bool jpg = !strcmp(kind, "jpg");
        CHECK_EQ_INT(blvl__import_q3_img_kind(file, n), jpg ? Q3I_JPEG : Q3I_PNG);
        blvl_status st = jpg ? blvl__import_q3_img_jpeg_size(file, n, name, &gw, &gh, &err)
                             : blvl__import_q3_img_png_size(file, n, name, &gw, &gh, &err);
        CHECK_EQ_INT(st, BLVL_OK);
        CHECK(gw == w && gh == h);
        /* cut before the frame header: refused */
        if (jpg) {
            CHECK_EQ_INT(blvl__import_q3_img_jpeg_size(file, 20, name, &gw, &gh, &err),
                         BLVL_E_SOURCE);
            CHECK(strstr(err.message, ": truncated: ") || strstr(err.message, ": marker: "));
        }
        free(file);
        others++;
    }
    free(list);
    CHECK_EQ_INT(tgas, 12);
    CHECK_EQ_INT(others, 3);
    printf("the control must not match:\n");
    CHECK_EQ_INT(tga_matches("ctl", 16, 16), 0);
    refused("bad_depth", "depth");
    refused("bad_index", "index");
    refused("bad_short", "truncated");
    /* sizes past the limits */
    uint8_t hdr[18] = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x21, 1, 0, 32, 0}; /* 8448 wide */
    uint8_t *rgba;
    uint32_t w, h;
    blvl_error err;
    CHECK_EQ_INT(blvl__import_q3_img_tga(hdr, sizeof hdr, "big", NULL, &rgba, &w, &h, &err),
                 BLVL_E_SOURCE);
    CHECK(strstr(err.message, ": size: ") != NULL);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd);
    return check_report("test_q3_tga");
}
