/* The tileset BMP (docs/IMPORT-SUBSPACE.md, "The file"): its two headers, the palette, and the
 * pixel stream, decoded whole (uncompressed or RLE-8) so that a bad stream is refused before
 * the map is returned. Every offset in a refusal counts from the file's start. */
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/subspace/subspace_internal.h"

#define W BLVL_SUBSPACE_TILESET_W
#define H BLVL_SUBSPACE_TILESET_H

/* Uncompressed rows: 4-byte aligned, bottom-up unless the height is negative. */
static blvl_status raw(const blvl_subspace_bmp *m, uint8_t *px, blvl_error *err) {
    uint32_t stride = (W + 3u) & ~3u;
    if ((uint64_t)stride * H > m->data_size)
        return blvl__fail_source(err, "BMP", "pixels", m->data_offset, "pixels-size",
                                 "%u rows of %u bytes need %u, the pixel stream has %u", H, stride,
                                 stride * H, m->data_size);
    for (uint32_t r = 0; r < H; r++) {
        uint32_t row = m->height > 0 ? H - 1u - r : r; /* the image row file row r holds */
        memcpy(px + (size_t)row * W, m->data + (size_t)r * stride, W);
    }
    return BLVL_OK;
}

/* RLE-8, bottom-up: y counts file rows from the bottom. Pixels never written stay index 0
 * (delta skips, rows an end-of-line leaves short, everything after end-of-bitmap). */
static blvl_status rle8(const blvl_subspace_bmp *m, uint8_t *px, blvl_error *err) {
    const uint8_t *d = m->data;
    uint32_t n = m->data_size, i = 0, x = 0, y = 0;
    uint64_t base = m->data_offset;
    for (;;) {
        if (n - i < 2)
            return blvl__fail_source(err, "BMP", "pixels", base + i, "rle-end",
                                     "the pixel stream ends without an end-of-bitmap code");
        uint32_t at = i, c = d[i], v = d[i + 1];
        i += 2;
        if (c > 0) { /* encoded mode: c pixels of index v */
            if (y >= H)
                return blvl__fail_source(err, "BMP", "pixels", base + at, "rle-image",
                                         "a run of %u pixels after the image's last row", c);
            if (c > W - x)
                return blvl__fail_source(err, "BMP", "pixels", base + at, "rle-row",
                                         "a run of %u pixels at column %u passes the row's "
                                         "end (%u)",
                                         c, x, W);
            memset(px + (size_t)(H - 1u - y) * W + x, (int)v, c);
            x += c;
        } else if (v == 0) { /* end of line: legal after the last row too, once */
            if (y >= H)
                return blvl__fail_source(err, "BMP", "pixels", base + at, "rle-image",
                                         "an end-of-line after the image's last row ended");
            x = 0;
            y++;
        } else if (v == 1) {
            return BLVL_OK;
        } else if (v == 2) {
            if (n - i < 2)
                return blvl__fail_source(err, "BMP", "pixels", base + at, "rle-end",
                                         "the pixel stream ends inside a delta code");
            uint32_t dx = d[i], dy = d[i + 1];
            i += 2;
            if (dx > W - x)
                return blvl__fail_source(err, "BMP", "pixels", base + at, "rle-row",
                                         "a delta of %u columns from column %u passes the "
                                         "row's end (%u)",
                                         dx, x, W);
            if (dy > H - y) /* y <= H here: nothing moves it past H */
                return blvl__fail_source(err, "BMP", "pixels", base + at, "rle-image",
                                         "a delta of %u rows from row %u passes the image's "
                                         "%u rows",
                                         dy, y, H);
            x += dx;
            y += dy;
        } else { /* absolute mode: v literal pixels, padded to a 16-bit word */
            uint32_t words = (v + 1u) & ~1u;
            if (y >= H)
                return blvl__fail_source(err, "BMP", "pixels", base + at, "rle-image",
                                         "%u literal pixels after the image's last row", v);
            if (v > W - x)
                return blvl__fail_source(err, "BMP", "pixels", base + at, "rle-row",
                                         "%u literal pixels at column %u pass the row's end "
                                         "(%u)",
                                         v, x, W);
            if (words > n - i)
                return blvl__fail_source(err, "BMP", "pixels", base + at, "rle-end",
                                         "%u literal pixels (%u bytes with the padding), %u "
                                         "bytes are left in the pixel stream",
                                         v, words, n - i);
            memcpy(px + (size_t)(H - 1u - y) * W + x, d + i, v);
            x += v;
            i += words;
        }
    }
}

static blvl_status headers(const uint8_t *b, size_t size, blvl_subspace_bmp *m, blvl_error *err) {
    if (size < SS_BMP_FILE_HEADER + SS_BMP_INFO_MIN)
        return blvl__fail_source(err, "BMP", "headers", 0, "bmp-header",
                                 "the file has %zu bytes, the BMP headers need %u", size,
                                 SS_BMP_FILE_HEADER + SS_BMP_INFO_MIN);
    m->file_size = blvl_le32(b + 2);
    m->reserved = blvl_le32(b + 6);
    m->data_offset = blvl_le32(b + 10);
    m->header_size = blvl_le32(b + 14);
    m->width = (int32_t)blvl_le32(b + 18);
    m->height = (int32_t)blvl_le32(b + 22);
    m->planes = blvl_le16(b + 26);
    m->bits = blvl_le16(b + 28);
    m->compression = blvl_le32(b + 30);
    m->image_size = blvl_le32(b + 34);
    m->x_ppm = blvl_le32(b + 38);
    m->y_ppm = blvl_le32(b + 42);
    m->colors_used = blvl_le32(b + 46);
    m->colors_important = blvl_le32(b + 50);
    if (m->header_size < SS_BMP_INFO_MIN || m->header_size > size - SS_BMP_FILE_HEADER)
        return blvl__fail_source(err, "BMP", "biSize", 14, "bmp-info-size",
                                 "%u bytes; it must be at least 40 and fit in the file's %zu",
                                 m->header_size, size);
    if (m->width != (int32_t)W)
        return blvl__fail_source(err, "BMP", "biWidth", 18, "bmp-dimensions",
                                 "%d pixels, a tileset is %u wide", m->width, W);
    if (m->height != (int32_t)H && m->height != -(int32_t)H)
        return blvl__fail_source(err, "BMP", "biHeight", 22, "bmp-dimensions",
                                 "%d pixels, a tileset is %u high", m->height, H);
    if (m->planes != 1)
        return blvl__fail_source(err, "BMP", "biPlanes", 26, "bmp-planes", "%u, not 1", m->planes);
    if (m->bits != 8)
        return blvl__fail_source(err, "BMP", "biBitCount", 28, "bmp-bits",
                                 "%u bits per pixel, a tileset has 8", m->bits);
    if (m->compression > 1)
        return blvl__fail_source(err, "BMP", "biCompression", 30, "bmp-compression",
                                 "%u; only 0 (BI_RGB) and 1 (BI_RLE8) are read", m->compression);
    if (m->compression == 1 && m->height < 0)
        return blvl__fail_source(err, "BMP", "biHeight", 22, "bmp-compression",
                                 "%d: an RLE-8 image cannot run top to bottom", m->height);
    if (m->colors_used > 256)
        return blvl__fail_source(err, "BMP", "biClrUsed", 46, "bmp-palette",
                                 "%u colours, an 8-bit palette has at most 256", m->colors_used);
    m->palette_count = m->colors_used ? m->colors_used : 256u;
    uint64_t pal_at = SS_BMP_FILE_HEADER + (uint64_t)m->header_size;
    uint64_t pal_end = pal_at + 4u * (uint64_t)m->palette_count;
    if (pal_end > size)
        return blvl__fail_source(err, "BMP", "palette", pal_at, "bmp-palette",
                                 "%u colours need %u bytes, %llu are left in the file",
                                 m->palette_count, 4u * m->palette_count,
                                 (unsigned long long)(size - pal_at));
    if (m->file_size > size)
        return blvl__fail_source(err, "BMP", "bfSize", 2, "bmp-size",
                                 "%u bytes, past the end of the file (%zu bytes)", m->file_size,
                                 size);
    if (m->data_offset < pal_end)
        return blvl__fail_source(err, "BMP", "bfOffBits", 10, "bmp-offset",
                                 "%u is inside the headers and palette, which end at %llu",
                                 m->data_offset, (unsigned long long)pal_end);
    uint32_t next = m->reserved ? m->reserved : m->file_size;
    if (m->data_offset > next)
        return blvl__fail_source(err, "BMP", "bfOffBits", 10, "bmp-offset",
                                 "%u is past where the pixel stream must end (%s %u)",
                                 m->data_offset, m->reserved ? "the eLVL offset" : "bfSize", next);
    if (m->reserved && m->reserved > m->file_size)
        return blvl__fail_source(err, "BMP", "bfReserved", 6, "bmp-size",
                                 "the eLVL offset %u is past bfSize %u, where the tile records "
                                 "start",
                                 m->reserved, m->file_size);
    m->gap_size = m->data_offset - (uint32_t)pal_end;
    m->data_size = next - m->data_offset;
    return BLVL_OK;
}

static uint8_t *copy(const blvl_allocator *a, const uint8_t *src, uint32_t n) {
    uint8_t *p = blvl__alloc(a, n);
    if (p)
        memcpy(p, src, n);
    return p;
}

blvl_status blvl__import_subspace_read_bmp(const uint8_t *b, size_t size, const blvl_allocator *a,
                                           blvl_subspace_bmp **out, uint64_t *elvl_at,
                                           uint64_t *tiles_at, blvl_error *err) {
    blvl_subspace_bmp *m = blvl__calloc(a, sizeof *m);
    if (!m)
        return blvl__nomem(err, "the BMP's %s", "header");
    blvl_status st = headers(b, size, m, err);
    if (st != BLVL_OK) {
        blvl__import_subspace_free_bmp(a, m);
        return st;
    }
    uint64_t pal_at = SS_BMP_FILE_HEADER + (uint64_t)m->header_size;
    uint32_t extra = m->header_size - SS_BMP_INFO_MIN;
    if ((extra && !(m->header_extra = copy(a, b + 54, extra))) ||
        !(m->palette = (uint8_t(*)[4])copy(a, b + pal_at, 4u * m->palette_count)) ||
        (m->gap_size && !(m->gap = copy(a, b + pal_at + 4u * m->palette_count, m->gap_size))) ||
        (m->data_size && !(m->data = copy(a, b + m->data_offset, m->data_size))) ||
        !(m->pixels = blvl__calloc(a, (size_t)W * H))) {
        blvl__import_subspace_free_bmp(a, m);
        return blvl__nomem(err, "the BMP's %s", "arrays");
    }
    st = m->compression == 1 ? rle8(m, m->pixels, err) : raw(m, m->pixels, err);
    if (st != BLVL_OK) {
        blvl__import_subspace_free_bmp(a, m);
        return st;
    }
    *elvl_at = m->reserved;
    *tiles_at = m->file_size;
    *out = m;
    return BLVL_OK;
}

void blvl__import_subspace_free_bmp(const blvl_allocator *a, blvl_subspace_bmp *m) {
    if (!m)
        return;
    if (m->header_size > SS_BMP_INFO_MIN)
        blvl__dealloc(a, m->header_extra, m->header_size - SS_BMP_INFO_MIN);
    blvl__dealloc(a, m->palette, 4u * (size_t)m->palette_count);
    blvl__dealloc(a, m->gap, m->gap_size);
    blvl__dealloc(a, m->data, m->data_size);
    /* width * |height| (a hand-built BMP may have other dimensions than a read one) */
    uint64_t w = m->width < 0 ? 0u - (uint64_t)m->width : (uint64_t)m->width;
    uint64_t h = m->height < 0 ? 0u - (uint64_t)(int64_t)m->height : (uint64_t)m->height;
    blvl__dealloc(a, m->pixels, (size_t)(w * h));
    blvl__dealloc(a, m, sizeof *m);
}
