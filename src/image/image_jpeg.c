/* JPEG through libjpeg-turbo (Debian's libjpeg-dev): pictures of 1, 3 or 4 components, of any
 * process Debian's build reads (baseline, extended, progressive; Huffman or arithmetic coding),
 * to RGBA8.
 *
 * The data is treated as hostile. Before libjpeg sees it, its markers have been walked to the
 * end (blvl__image_decode_coded) and the frame's size is the described one, so no picture past
 * the texel limit is decoded. libjpeg then takes all its memory from the caller's allocator
 * (jpeg_memory.c), capped at what a picture of that size needs. Its warnings, which report
 * damaged data it would otherwise patch over with made-up texels (a scan cut short, a bad
 * Huffman code, bytes where a marker belongs), are refusals, as libjpeg's authors advise for
 * untrusted input; and a progressive picture may have at most 256 scans, since each scan is a
 * pass over every coefficient. */
#include <limits.h>
#include <setjmp.h>
#include <string.h>

#include <jerror.h>

#include "common/alloc.h"
#include "common/error.h"
#include "image_internal.h"
#include "jpeg_memory.h"

#define MAX_SCANS 256

typedef struct jpeg_fail {
    struct jpeg_error_mgr pub; /* first: libjpeg reaches it through cinfo->err */
    jmp_buf jump;
    int scans; /* set when the scan limit stopped the decode */
} jpeg_fail;

static void on_error(j_common_ptr c) {
    longjmp(((jpeg_fail *)c->err)->jump, 1);
}

/* Level -1 is a warning about the data; 0 and up are traces, which go nowhere. An unknown JFIF
 * revision says nothing about the texels. */
static void on_message(j_common_ptr c, int level) {
    if (level < 0 && c->err->msg_code != JWRN_JFIF_MAJOR)
        longjmp(((jpeg_fail *)c->err)->jump, 1);
}

static void on_progress(j_common_ptr c) {
    j_decompress_ptr d = (j_decompress_ptr)c;
    if (d->input_scan_number > MAX_SCANS) {
        ((jpeg_fail *)c->err)->scans = 1;
        longjmp(((jpeg_fail *)c->err)->jump, 1);
    }
}

/* Adobe's CMYK and YCCK pictures store their inks inverted (libjpeg turns YCCK into that CMYK):
 * each colour is the ink times the black, over 255, rounded. */
static uint8_t ink(uint32_t x, uint32_t k) {
    uint32_t t = x * k + 128;
    return (uint8_t)((t + (t >> 8)) >> 8);
}

static void cmyk_to_rgba(uint8_t *p, size_t texels) {
    for (size_t i = 0; i < texels; i++, p += 4) {
        uint8_t k = p[3];
        p[0] = ink(p[0], k);
        p[1] = ink(p[1], k);
        p[2] = ink(p[2], k);
        p[3] = 255;
    }
}

blvl_status blvl__image_jpeg_size(const uint8_t *d, size_t n, uint32_t *w, uint32_t *h,
                                  blvl_error *err) {
    size_t at;
    switch (blvl__image_jpeg_walk(d, n, true, w, h, &at)) {
    case BLVL__JPEG_OK:
        return BLVL_OK;
    case BLVL__JPEG_NO_SOI:
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg data is no JPEG (no FF D8)");
    case BLVL__JPEG_NO_MARKER:
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg data has no marker at offset %zu", at);
    case BLVL__JPEG_ENDS_IN_MARKER:
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg data ends in a marker");
    case BLVL__JPEG_SCAN_FIRST:
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg scan before a frame header");
    case BLVL__JPEG_END_FIRST:
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg data has no frame header");
    case BLVL__JPEG_NO_LENGTH:
    case BLVL__JPEG_LENGTH:
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "image: jpeg segment at offset %zu runs past the end", at);
    case BLVL__JPEG_SHORT_FRAME:
    case BLVL__JPEG_SECOND_FRAME:
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "image: jpeg frame header at offset %zu is short or not the first", at);
    case BLVL__JPEG_HUFFMAN:
    default:
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "image: jpeg Huffman table at offset %zu has over 256 symbols or runs "
                          "past its segment",
                          at);
    }
}

/* One decode's state, in the caller's frame: `run` holds the setjmp, and what libjpeg changes
 * before a longjmp lives outside that function, so its values stay determinate (C11 7.13.2.1). */
typedef struct jpeg_job {
    struct jpeg_decompress_struct ci;
    jpeg_fail fail;
    blvl__jpeg_mem mem;
    struct jpeg_progress_mgr progress;
    const blvl_image_desc *d;
    const blvl_allocator *a;
    uint32_t w, h;
    size_t cap, bytes;
    uint8_t *out;
    int components; /* set when the component count stopped the decode */
} jpeg_job;

static void bail(jpeg_job *j) {
    longjmp(j->fail.jump, 1);
}

static blvl_status refused(jpeg_job *j, blvl_error *err) {
    char why[JMSG_LENGTH_MAX];
    (*j->ci.err->format_message)((j_common_ptr)&j->ci, why);
    if (j->out)
        blvl__dealloc(j->a, j->out, j->bytes);
    j->out = NULL;
    jpeg_destroy_decompress(&j->ci);
    /* libjpeg's own manager, made by jpeg_create_decompress before ours, fails the same way */
    if (j->mem.fault == BLVL__JPEG_MEM_NOMEM ||
        (!j->mem.fault && j->ci.err->msg_code == JERR_OUT_OF_MEMORY))
        return blvl__nomem(err, "image: jpeg decode's working memory");
    if (j->mem.fault == BLVL__JPEG_MEM_CAP)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "image: jpeg decode needs over %zu bytes, more than a %ux%u picture "
                          "does",
                          j->cap, j->w, j->h);
    if (j->fail.scans)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg data has over %d scans", MAX_SCANS);
    if (j->components)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "image: jpeg data has %d components (1, 3 or 4 decode)", j->components);
    if (j->ci.output_width && (j->ci.output_width != j->w || j->ci.output_height != j->h))
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg data decodes to %ux%u, not %ux%u",
                          j->ci.output_width, j->ci.output_height, j->w, j->h);
    return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg data does not decode: %s", why);
}

static blvl_status run(jpeg_job *j, blvl_error *err) {
    j_decompress_ptr ci = &j->ci;
    ci->err = jpeg_std_error(&j->fail.pub);
    j->fail.pub.error_exit = on_error;
    j->fail.pub.emit_message = on_message;
    if (setjmp(j->fail.jump))
        return refused(j, err);
    jpeg_create_decompress(ci);
    blvl__image_jpeg_mem_install((j_common_ptr)ci, &j->mem, j->a, j->cap);
    j->progress.progress_monitor = on_progress;
    ci->progress = &j->progress;
    jpeg_mem_src(ci, j->d->data, (unsigned long)j->d->size);
    jpeg_read_header(ci, TRUE);
    if (ci->num_components != 1 && ci->num_components != 3 && ci->num_components != 4) {
        j->components = ci->num_components;
        bail(j);
    }
    int cmyk = ci->jpeg_color_space == JCS_CMYK || ci->jpeg_color_space == JCS_YCCK;
    ci->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(ci);
    /* the walk and libjpeg read the same frame header: not expected, but never written past */
    if (ci->output_width != j->w || ci->output_height != j->h || ci->output_components != 4)
        bail(j);
    j->out = blvl__alloc(j->a, j->bytes);
    if (!j->out) {
        j->mem.fault = BLVL__JPEG_MEM_NOMEM;
        bail(j);
    }
    while (ci->output_scanline < j->h) {
        JSAMPROW rows[16];
        JDIMENSION n = 0;
        for (; n < 16 && ci->output_scanline + n < j->h; n++)
            rows[n] = j->out + ((size_t)ci->output_scanline + n) * j->w * 4;
        if (!jpeg_read_scanlines(ci, rows, n)) { /* a memory source never suspends */
            ci->err->msg_code = JERR_INPUT_EMPTY;
            bail(j);
        }
    }
    jpeg_finish_decompress(ci); /* reads on to EOI: damage past the last row is refused too */
    jpeg_destroy_decompress(ci);
    if (cmyk)
        cmyk_to_rgba(j->out, (size_t)j->w * j->h);
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl__image_decode_jpeg(const blvl_image_desc *d, uint32_t height,
                                    const blvl_allocator *a, uint8_t **pixels, blvl_error *err) {
    *pixels = NULL;
    uint32_t w = d->width, h = height;
    if (d->size > ULONG_MAX)
        return blvl__fail(err, BLVL_E_ARGUMENT, "image: jpeg data over %lu bytes", ULONG_MAX);
    jpeg_job j;
    memset(&j, 0, sizeof j);
    j.d = d;
    j.a = a;
    j.w = w;
    j.h = h;
    j.bytes = (size_t)w * h * 4;
    /* Coefficients of up to four components at 2 bytes each, padded to whole MCUs of up to
     * 32x32 texels, with room to spare; the tables and rows fit in the 4 MiB. */
    j.cap = 16 * ((size_t)w + 64) * ((size_t)h + 64) + ((size_t)4 << 20);
    blvl_status st = run(&j, err);
    if (st == BLVL_OK)
        *pixels = j.out;
    return st;
}
