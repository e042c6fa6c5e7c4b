/* JPEG decoding: blvl_image_decode against libjpeg-turbo called directly, on every JPEG of the
 * given .pk3 archives (by default OpenArena's), the same bytes in the same run. The direct call
 * is what a program without our checks would do (the default memory manager, warnings ignored,
 * no marker walk first), so the ratio is the price of the walk, the caller's allocator and the
 * strictness. Both decodes must give the same texels (CMYK aside, which libjpeg leaves as inks).
 *
 *   bench_jpeg [--runs N] [PK3...]   median of N runs (default 5) of decoding every JPEG; with
 *                                    no archive, every .pk3 of /usr/share/games/openarena/baseoa
 *
 * The direct decode writes into one buffer kept warm from picture to picture; ours allocates
 * each picture's texels anew, as a caller receives them, first touches included. */
#include <dirent.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jpeglib.h>
#include <zip.h>

#include "bench_util.h"
#include "blvl/image.h"

typedef struct pic {
    uint8_t *data;
    size_t size;
    uint32_t w, h;
    int cmyk;
} pic;

typedef struct plain_fail {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} plain_fail;

static void plain_exit(j_common_ptr c) {
    longjmp(((plain_fail *)c->err)->jump, 1);
}

/* libjpeg as most programs call it; out holds w * h * 4 bytes. Returns 0 when it decoded. */
static int plain_decode(pic *p, uint8_t *out, int header_only) {
    struct jpeg_decompress_struct ci;
    plain_fail f;
    ci.err = jpeg_std_error(&f.pub);
    f.pub.error_exit = plain_exit;
    if (setjmp(f.jump)) {
        jpeg_destroy_decompress(&ci);
        return -1;
    }
    jpeg_create_decompress(&ci);
    jpeg_mem_src(&ci, p->data, (unsigned long)p->size);
    jpeg_read_header(&ci, TRUE);
    p->w = ci.image_width;
    p->h = ci.image_height;
    p->cmyk = ci.jpeg_color_space == JCS_CMYK || ci.jpeg_color_space == JCS_YCCK;
    if (header_only) {
        jpeg_destroy_decompress(&ci);
        return 0;
    }
    ci.out_color_space = p->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&ci);
    while (ci.output_scanline < ci.output_height) {
        JSAMPROW row = out + (size_t)ci.output_scanline * p->w * 4;
        jpeg_read_scanlines(&ci, &row, 1);
    }
    jpeg_finish_decompress(&ci);
    jpeg_destroy_decompress(&ci);
    return 0;
}

static int is_jpeg_name(const char *n) {
    size_t l = strlen(n);
    return (l > 4 && !strcasecmp(n + l - 4, ".jpg")) || (l > 5 && !strcasecmp(n + l - 5, ".jpeg"));
}

static size_t load(const char *path, pic **pics, size_t count, size_t *cap) {
    int e = 0;
    zip_t *z = zip_open(path, ZIP_RDONLY, &e);
    if (!z) {
        fprintf(stderr, "bench_jpeg: cannot open %s\n", path);
        return count;
    }
    zip_int64_t n = zip_get_num_entries(z, 0);
    for (zip_int64_t i = 0; i < n; i++) {
        zip_stat_t st;
        if (zip_stat_index(z, (zip_uint64_t)i, 0, &st) || !is_jpeg_name(st.name) || !st.size)
            continue;
        zip_file_t *f = zip_fopen_index(z, (zip_uint64_t)i, 0);
        uint8_t *d = f ? malloc(st.size) : NULL;
        if (!d || zip_fread(f, d, st.size) != (zip_int64_t)st.size) {
            free(d);
            if (f)
                zip_fclose(f);
            continue;
        }
        zip_fclose(f);
        if (count == *cap) {
            *cap = *cap ? *cap * 2 : 256;
            *pics = realloc(*pics, *cap * sizeof **pics);
        }
        pic p = {d, st.size, 0, 0, 0};
        if (plain_decode(&p, NULL, 1) == 0 && p.w && p.h)
            (*pics)[count++] = p;
        else
            free(d);
    }
    zip_close(z);
    return count;
}

int main(int argc, char **argv) {
    int runs = 5;
    pic *pics = NULL;
    size_t count = 0, cap = 0, archives = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else {
            count = load(argv[i], &pics, count, &cap);
            archives++;
        }
    }
    if (!archives) { /* every archive of OpenArena's */
        const char *dir = "/usr/share/games/openarena/baseoa";
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            size_t l = strlen(e->d_name);
            char path[512];
            if (l > 4 && !strcmp(e->d_name + l - 4, ".pk3") &&
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
                count = load(path, &pics, count, &cap);
        }
        if (d)
            closedir(d);
    }
    if (!count || runs < 1) {
        fprintf(stderr, "bench_jpeg: no JPEG found (give .pk3 archives)\n");
        return 1;
    }
    size_t biggest = 0, texels = 0, bytes = 0;
    for (size_t i = 0; i < count; i++) {
        size_t t = (size_t)pics[i].w * pics[i].h;
        biggest = t > biggest ? t : biggest;
        texels += t;
        bytes += pics[i].size;
    }
    uint8_t *ref = malloc(biggest * 4);
    double *ours = calloc((size_t)runs, sizeof(double)),
           *theirs = calloc((size_t)runs, sizeof(double));
    size_t refused = 0, differ = 0;
    for (int r = 0; r < runs; r++) {
        double t0 = bench_cpu();
        for (size_t i = 0; i < count; i++)
            plain_decode(&pics[i], ref, 0);
        theirs[r] = bench_cpu() - t0;
        t0 = bench_cpu();
        for (size_t i = 0; i < count; i++) {
            blvl_image_desc d = {pics[i].w, pics[i].h, BLVL_IMAGE_JPEG, 1,
                                 1,         0,         pics[i].data,    pics[i].size};
            blvl_image_rgba px;
            blvl_error err;
            if (blvl_image_decode(&px, &d, 0, NULL, &err) != BLVL_OK) {
                refused += r == 0;
                if (r == 0)
                    fprintf(stderr, "jpeg %zu refused: %s\n", i, err.message);
                continue;
            }
            blvl_image_rgba_free(&px);
        }
        ours[r] = bench_cpu() - t0;
    }
    /* the texels, once, outside the timing */
    for (size_t i = 0; i < count; i++) {
        blvl_image_desc d = {pics[i].w, pics[i].h, BLVL_IMAGE_JPEG, 1,
                             1,         0,         pics[i].data,    pics[i].size};
        blvl_image_rgba px;
        blvl_error err;
        if (pics[i].cmyk || blvl_image_decode(&px, &d, 0, NULL, &err) != BLVL_OK)
            continue;
        plain_decode(&pics[i], ref, 0);
        differ += memcmp(px.pixels, ref, (size_t)pics[i].w * pics[i].h * 4) != 0;
        blvl_image_rgba_free(&px);
    }
    double mo = bench_median(ours, (size_t)runs), mt = bench_median(theirs, (size_t)runs);
    printf("jpeg: %zu pictures, %.1f MB, %.1f Mtexels; CPU medians of %d runs\n", count,
           (double)bytes / 1e6, (double)texels / 1e6, runs);
    printf("  libjpeg-turbo called directly   %.3f s  (%.0f Mtexels/s)\n", mt,
           (double)texels / 1e6 / mt);
    printf("  blvl_image_decode               %.3f s  (%.0f Mtexels/s)\n", mo,
           (double)texels / 1e6 / mo);
    printf("  ratio blvl / direct             %.2f\n", mo / mt);
    printf("  refused %zu, texels differing from the direct decode %zu\n", refused, differ);
    for (size_t i = 0; i < count; i++)
        free(pics[i].data);
    free(pics);
    free(ref);
    free(ours);
    free(theirs);
    return refused || differ ? 1 : 0;
}
