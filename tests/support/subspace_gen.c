/* The Subspace .lvl generator (tests/support/subspace_gen.h). */
#include "subspace_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W BLVL_SUBSPACE_TILESET_W
#define H BLVL_SUBSPACE_TILESET_H
#define G BLVL_SUBSPACE_GRID

static const char *const names[SSG_CASES] = {"bare",    "bare_tail",    "elvl", "bmp_raw",
                                             "bmp_rle", "bmp_rle_elvl", "full"};

const char *ssg_case_name(ssg_case c) {
    return c < SSG_CASES ? names[c] : "?";
}

static void *xcalloc(size_t n, size_t s) {
    void *p = calloc(n ? n : 1, s ? s : 1);
    if (!p) {
        fprintf(stderr, "subspace_gen: out of memory\n");
        abort();
    }
    return p;
}

static void *dup(const void *p, size_t n) {
    void *q = xcalloc(n, 1);
    memcpy(q, p, n);
    return q;
}

/* ---- the tileset --------------------------------------------------------------------------- */

/* Per tile (t = 0..189 by columns of 19): t % 4 picks empty (zeros: deltas), a frame on zeros,
 * noise (absolute runs), or a solid colour (encoded runs). Tile row 5 is empty: whole zero rows
 * (deltas down). */
static uint8_t pixel(uint32_t x, uint32_t y) {
    uint32_t t = (y / 16u) * 19u + x / 16u, lx = x % 16u, ly = y % 16u;
    if (y / 16u == 5u)
        return 0;
    switch (t % 4u) {
    case 0:
        return 0;
    case 1:
        return (lx == 0 || ly == 0 || lx == 15 || ly == 15) ? (uint8_t)(t % 255u + 1u) : 0;
    case 2: {
        uint32_t h = (x * 2654435761u) ^ (y * 40503u) ^ (t * 97u);
        h ^= h >> 13;
        return (uint8_t)(h * 2246822519u >> 24);
    }
    default:
        return (uint8_t)((t * 7u) % 255u + 1u);
    }
}

void ssg_tileset(uint8_t *px) {
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            px[x + y * W] = pixel(x, y);
}

void ssg_palette(uint8_t pal[256][4]) {
    for (uint32_t i = 0; i < 256; i++) {
        pal[i][0] = (uint8_t)(i * 37u);
        pal[i][1] = (uint8_t)(i * 11u + 5u);
        pal[i][2] = (uint8_t)(255u - i);
        pal[i][3] = 0;
    }
    pal[0][0] = pal[0][1] = pal[0][2] = 0;
}

/* ---- RLE-8 --------------------------------------------------------------------------------- */

typedef struct out {
    uint8_t *p;
    size_t n;
} out;

static void b2(out *o, uint8_t a, uint8_t b) {
    if (o->p) {
        o->p[o->n] = a;
        o->p[o->n + 1] = b;
    }
    o->n += 2;
}

static uint32_t zeros_from(const uint8_t *row, uint32_t x) {
    uint32_t z = 0;
    while (x + z < W && row[x + z] == 0)
        z++;
    return z;
}

static uint32_t same_from(const uint8_t *row, uint32_t x) {
    uint32_t r = 1;
    while (x + r < W && row[x + r] == row[x])
        r++;
    return r;
}

/* Bottom-up: file row f is image row H-1-f. An end-of-line is never emitted at column 0 (some
 * decoders, Pillow among them, treat it as nothing there), so an all-zero row is skipped with a
 * delta down. The last row is filled to its end so every decoder sees every pixel. */
size_t ssg_rle8(const uint8_t *px, bool deltas, uint8_t *dst, unsigned *forms) {
    out o = {dst, 0};
    unsigned f = 0;
    uint32_t x = 0;
    for (uint32_t fr = 0; fr < H; fr++) {
        const uint8_t *row = px + (size_t)(H - 1u - fr) * W;
        const uint8_t *next = fr + 1u < H ? px + (size_t)(H - 2u - fr) * W : NULL;
        bool moved = false;
        while (x < W) {
            uint32_t z = zeros_from(row, x);
            if (deltas && x + z == W && next) {
                uint32_t k = zeros_from(next, 0);
                if (k >= x && k - x <= 255u) {
                    uint32_t to = k < W ? k : W - 1u; /* stay on the next row */
                    if (to < x)
                        to = x;
                    b2(&o, 0, 2);
                    b2(&o, (uint8_t)(to - x), 1);
                    f |= SSG_RLE_DELTA_DOWN;
                    x = to;
                    moved = true;
                    break;
                }
            }
            if (deltas && z >= 4 && x + z < W) {
                uint32_t d = z > 255u ? 255u : z;
                b2(&o, 0, 2);
                b2(&o, (uint8_t)d, 0);
                f |= SSG_RLE_DELTA_ROW;
                x += d;
                continue;
            }
            uint32_t r = same_from(row, x);
            if (r >= 3 || row[x] == 0) {
                uint32_t n = r > 255u ? 255u : r;
                b2(&o, (uint8_t)n, row[x]);
                f |= SSG_RLE_RUN;
                x += n;
                continue;
            }
            /* literals until a run of 3 or a zero begins */
            uint32_t n = 0;
            while (x + n < W && n < 255u && row[x + n] != 0 && same_from(row, x + n) < 3)
                n++;
            if (n < 3) {
                b2(&o, 1, row[x]);
                f |= SSG_RLE_RUN;
                x += 1;
                continue;
            }
            b2(&o, 0, (uint8_t)n);
            for (uint32_t i = 0; i < n; i += 2)
                b2(&o, row[x + i], i + 1 < n ? row[x + i + 1] : 0);
            f |= SSG_RLE_ABSOLUTE | (n & 1u ? SSG_RLE_ABSOLUTE_ODD : 0);
            x += n;
        }
        if (!moved) {
            b2(&o, 0, 0); /* x == W here: also after the last row */
            f |= SSG_RLE_EOL;
            x = 0;
        }
    }
    b2(&o, 0, 1);
    if (forms)
        *forms = f;
    return o.n;
}

/* ---- rTIL ---------------------------------------------------------------------------------- */

static void code(out *o, unsigned kind, uint32_t n, unsigned *f) {
    while (n) {
        uint32_t k = n > 1024u ? 1024u : n;
        if (k <= 32u) {
            if (o->p)
                o->p[o->n] = (uint8_t)(kind << 6 | (k - 1u));
            o->n += 1;
            *f |= 1u << (kind << 1);
        } else {
            if (o->p) {
                o->p[o->n] = (uint8_t)(kind << 6 | 0x20u | (k - 1u) >> 8);
                o->p[o->n + 1] = (uint8_t)(k - 1u);
            }
            o->n += 2;
            *f |= 1u << (kind << 1 | 1u);
        }
        n -= k;
    }
}

static bool bit(const uint8_t *bits, uint32_t x, uint32_t y) {
    uint32_t i = x + y * G;
    return bits[i >> 3] >> (i & 7u) & 1u;
}

static bool row_empty(const uint8_t *bits, uint32_t y) {
    for (uint32_t i = 0; i < G / 8u; i++)
        if (bits[y * (G / 8u) + i])
            return false;
    return true;
}

static bool row_same(const uint8_t *bits, uint32_t a, uint32_t b) {
    return memcmp(bits + a * (G / 8u), bits + b * (G / 8u), G / 8u) == 0;
}

size_t ssg_rtil(const uint8_t *bits, uint8_t *dst, unsigned *forms) {
    out o = {dst, 0};
    unsigned f = 0;
    uint32_t y = 0;
    while (y < G) {
        uint32_t n = 1;
        if (row_empty(bits, y)) {
            while (y + n < G && row_empty(bits, y + n))
                n++;
            code(&o, 2, n, &f);
        } else if (y > 0 && row_same(bits, y, y - 1u)) {
            while (y + n < G && row_same(bits, y + n, y - 1u))
                n++;
            code(&o, 3, n, &f);
        } else {
            n = 1;
            for (uint32_t x = 0; x < G;) {
                bool v = bit(bits, x, y);
                uint32_t r = 1;
                while (x + r < G && bit(bits, x + r, y) == v)
                    r++;
                code(&o, v ? 1u : 0u, r, &f);
                x += r;
            }
        }
        y += n;
    }
    if (forms)
        *forms = f;
    return o.n;
}

/* ---- regions ------------------------------------------------------------------------------- */

#define REGIONS 4u

uint32_t ssg_region_count(void) {
    return REGIONS;
}

static void set_bit(uint8_t *bits, uint32_t x, uint32_t y) {
    uint32_t i = x + y * G;
    bits[i >> 3] |= (uint8_t)(1u << (i & 7u));
}

/* 0: every rTIL form (long and short empty rows, tile runs of both lengths, short and long
 * repeats); 1: a small block and lone tiles; 2: the whole grid (the longest codes); 3: none. */
void ssg_region_bits(uint32_t r, uint8_t *bits) {
    memset(bits, 0, BLVL_SUBSPACE_BITMAP_BYTES);
    if (r == 0) {
        for (uint32_t x = 5; x < 15; x++)
            set_bit(bits, x, 40);
        for (uint32_t x = 115; x < 315; x++)
            set_bit(bits, x, 40);
        set_bit(bits, 1023, 40);
        for (uint32_t y = 41; y < 46; y++)
            memcpy(bits + y * (G / 8u), bits + 40 * (G / 8u), G / 8u);
        for (uint32_t x = 0; x < 3; x++)
            set_bit(bits, x, 48);
        for (uint32_t y = 49; y < 149; y++)
            memcpy(bits + y * (G / 8u), bits + 48 * (G / 8u), G / 8u);
        set_bit(bits, 7, 1023);
    } else if (r == 1) {
        for (uint32_t y = 600; y < 605; y++)
            for (uint32_t x = 500; x < 510; x++)
                set_bit(bits, x, y);
        set_bit(bits, 0, 0);
        set_bit(bits, 1023, 1023);
        set_bit(bits, 512, 700);
    } else if (r == 2) {
        memset(bits, 0xFF, BLVL_SUBSPACE_BITMAP_BYTES);
    }
}

/* ---- the map ------------------------------------------------------------------------------- */

typedef struct recs {
    uint32_t *r;
    uint32_t n, cap;
} recs;

static void rec(recs *v, uint32_t tile, uint32_t x, uint32_t y) {
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2u : 1024u;
        uint32_t *p = realloc(v->r, (size_t)v->cap * 4u);
        if (!p)
            abort();
        v->r = p;
    }
    v->r[v->n++] = BLVL_SUBSPACE_RECORD(tile, x, y);
}

static void records(ssg_case c, recs *v) {
    if (c == SSG_FULL) {
        for (uint32_t y = 0; y < G; y++)
            for (uint32_t x = 0; x < G; x++)
                rec(v, 1u + (x * 7u + y * 13u) % 255u, x, y);
        return;
    }
    for (uint32_t t = 1; t < 256; t++)
        rec(v, t, (t * 4u) % G, (t * 37u) % G);
    rec(v, 1, 0, 0);
    rec(v, 190, 1023, 1023);
    rec(v, 5, 4, 37);   /* over tile 1's cell */
    rec(v, 162, 4, 37); /* and again: the last wins */
    if (c == SSG_BARE_TAIL || c == SSG_BMP_RLE_ELVL) {
        rec(v, 7, 1024, 3);  /* skipped: x over 1023 */
        rec(v, 7, 3, 4095);  /* skipped: y over 1023 */
        rec(v, 0, 100, 100); /* skipped: tile 0 */
        rec(v, 9, 4095, 4095);
    }
}

void ssg_grid(ssg_case c, uint8_t *grid) {
    recs v = {0};
    records(c, &v);
    memset(grid, 0, (size_t)G * G);
    for (uint32_t i = 0; i < v.n; i++) {
        uint32_t r = v.r[i], x = r & 0xFFFu, y = r >> 12 & 0xFFFu, t = r >> 24;
        if (x < G && y < G && t)
            grid[x + y * G] = (uint8_t)t;
    }
    free(v.r);
}

static void set_chunk(blvl_subspace_chunk *ch, const char *type, const void *bytes, uint32_t size) {
    memcpy(ch->type, type, 4);
    ch->size = size;
    ch->bytes = size ? dup(bytes, size) : NULL;
}

static blvl_subspace_elvl *elvl(void) {
    blvl_subspace_elvl *e = xcalloc(1, sizeof *e);
    /* ATTR NAME (bytes), ATTR FLAG (no '='), DCME (unknown, 7 bytes), REGN x4, ATTR built from
     * attrs (no bytes), an unknown chunk of 0 bytes */
    e->chunk_count = 9;
    e->chunks = xcalloc(e->chunk_count, sizeof *e->chunks);
    set_chunk(&e->chunks[0], "ATTR", "NAME=Generated Map", 18);
    set_chunk(&e->chunks[1], "ATTR", "FLAG", 4);
    set_chunk(&e->chunks[2], "DCME", "\x01\x02\x03\x04\x05\x06\x07", 7);
    set_chunk(&e->chunks[7], "ATTR", NULL, 0);
    set_chunk(&e->chunks[8], "ZZZZ", NULL, 0);
    e->attr_count = 3;
    e->attrs = xcalloc(3, sizeof *e->attrs);
    e->attrs[0] = (blvl_subspace_attr){dup("NAME", 5), dup("Generated Map", 14), 0};
    e->attrs[1] = (blvl_subspace_attr){dup("FLAG", 5), NULL, 1};
    e->attrs[2] = (blvl_subspace_attr){dup("VERSION", 8), dup("1.2=x", 6), 7};
    e->region_count = REGIONS;
    e->regions = xcalloc(REGIONS, sizeof *e->regions);
    uint8_t *bits = xcalloc(BLVL_SUBSPACE_BITMAP_BYTES, 1);
    for (uint32_t r = 0; r < REGIONS; r++) {
        blvl_subspace_region *g = &e->regions[r];
        set_chunk(&e->chunks[3 + r], "REGN", NULL, 0);
        g->chunk = 3 + r;
        g->tiles_sub = g->code_sub = UINT32_MAX;
        g->subs = xcalloc(10, sizeof *g->subs);
        uint32_t n = 0;
        char name[32];
        int len = snprintf(name, sizeof name, "Region %u", r);
        set_chunk(&g->subs[n++], "rNAM", name, (uint32_t)len + (r & 1u)); /* r odd: with NUL */
        if (r != 3) {
            ssg_region_bits(r, bits);
            size_t sz = ssg_rtil(bits, NULL, NULL);
            uint8_t *code = xcalloc(sz, 1);
            ssg_rtil(bits, code, NULL);
            g->tiles_sub = n;
            set_chunk(&g->subs[n++], "rTIL", code, (uint32_t)sz);
            free(code);
        }
        if (r == 0) {
            set_chunk(&g->subs[n++], "rBSE", NULL, 0);
            set_chunk(&g->subs[n++], "rNAW", NULL, 0);
            set_chunk(&g->subs[n++], "rNWP", NULL, 0);
            set_chunk(&g->subs[n++], "rNFL", NULL, 0);
            set_chunk(&g->subs[n++], "rAWP",
                      "\x00\x02\xff\xff"
                      "duel",
                      8);
            g->code_sub = n;
            set_chunk(&g->subs[n++], "rPYC", "pass\n", 5);
            set_chunk(&g->subs[n++], "rZZZ", "\x09", 1);
        } else if (r == 1) {
            set_chunk(&g->subs[n++], "rAWP", "\x0a\x00\x14\x00", 4);
        }
        g->sub_count = n;
    }
    free(bits);
    return e;
}

static blvl_subspace_bmp *bmp(bool rle) {
    blvl_subspace_bmp *m = xcalloc(1, sizeof *m);
    m->width = W;
    m->height = H;
    m->planes = 1;
    m->bits = 8;
    m->compression = rle ? 1u : 0u;
    m->x_ppm = m->y_ppm = 2835;
    m->palette_count = 256;
    m->palette = xcalloc(256, 4);
    ssg_palette(m->palette);
    m->pixels = xcalloc((size_t)W * H, 1);
    ssg_tileset(m->pixels);
    if (rle) {
        size_t n = ssg_rle8(m->pixels, true, NULL, NULL);
        m->data_size = (uint32_t)n + 6u; /* padding after end-of-bitmap */
        m->data = xcalloc(m->data_size, 1);
        ssg_rle8(m->pixels, true, m->data, NULL);
        m->image_size = (uint32_t)n;
    } else {
        m->data_size = W * H;
        m->data = xcalloc(m->data_size, 1);
        for (uint32_t f = 0; f < H; f++)
            memcpy(m->data + (size_t)f * W, m->pixels + (size_t)(H - 1u - f) * W, W);
        m->image_size = W * H;
    }
    return m;
}

blvl_subspace *ssg_build(ssg_case c) {
    blvl_subspace *m = xcalloc(1, sizeof *m);
    if (c == SSG_BMP_RAW || c == SSG_BMP_RLE || c == SSG_BMP_RLE_ELVL)
        m->bmp = bmp(c != SSG_BMP_RAW);
    if (c == SSG_BMP_RLE_ELVL)
        m->bmp->reserved = BLVL_SUBSPACE_ELVL_AT;
    if (c == SSG_ELVL || c == SSG_BMP_RLE_ELVL)
        m->elvl = elvl();
    recs v = {0};
    records(c, &v);
    m->records = v.r;
    m->record_count = v.n;
    if (c == SSG_BARE_TAIL) {
        m->tail_size = 3;
        memcpy(m->tail, "\x01\x02\x03", 3);
    }
    return m;
}

static void free_subs(blvl_subspace_chunk *c, uint32_t n) {
    for (uint32_t i = 0; c && i < n; i++)
        free(c[i].bytes);
    free(c);
}

void ssg_free(blvl_subspace *m) {
    if (!m)
        return;
    if (m->bmp) {
        free(m->bmp->header_extra);
        free(m->bmp->palette);
        free(m->bmp->gap);
        free(m->bmp->data);
        free(m->bmp->pixels);
        free(m->bmp);
    }
    if (m->elvl) {
        blvl_subspace_elvl *e = m->elvl;
        for (uint32_t i = 0; i < e->attr_count; i++) {
            free(e->attrs[i].key);
            free(e->attrs[i].value);
        }
        free(e->attrs);
        for (uint32_t i = 0; i < e->region_count; i++) {
            free_subs(e->regions[i].subs, e->regions[i].sub_count);
            free(e->regions[i].name);
            free(e->regions[i].warp_arena);
        }
        free(e->regions);
        free_subs(e->chunks, e->chunk_count);
        free(e);
    }
    free(m->gap);
    free(m->records);
    free(m);
}

blvl_status ssg_write(ssg_case c, const blvl_options *opt, void **out, size_t *size) {
    blvl_subspace *m = ssg_build(c);
    blvl_error err = {0};
    blvl_status st = blvl_subspace_write(out, size, m, opt, &err);
    ssg_free(m);
    return st;
}
