/* Record 0x0001: the layer definitions, the unknown u32 after them, then one zlib data block
 * per layer. A block must be one whole zlib stream filling its compressed_size exactly, and
 * inflate to exactly (w+1)(h+1)*4 vertex bytes + w*h*26 cell bytes; it is inflated into a
 * buffer of exactly that size, so a stream that would give more stops at the limit. */
#include <stdbool.h>
#include <string.h>
#include <zlib.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/riot/riot_internal.h"

uint64_t blvl__import_riot_layer_data_size(uint32_t width, uint32_t height) {
    uint64_t vw = (uint64_t)width + 1, vh = (uint64_t)height + 1;
    /* vw * vh <= cap keeps every product below 30 * cap */
    if (vw > BLVL_RIOT_MAX_LAYER_DATA / vh)
        return 0;
    uint64_t size = vw * vh * RT_VERTEX_SIZE + (uint64_t)width * height * RT_CELL_SIZE;
    return size > BLVL_RIOT_MAX_LAYER_DATA ? 0 : size;
}

static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
    if (size && items > SIZE_MAX / size)
        return Z_NULL;
    return blvl__alloc_sized(opaque, (size_t)items * size);
}
static void z_free(voidpf opaque, voidpf p) {
    blvl__free_sized(opaque, p);
}

void blvl__import_riot_zlib_alloc(z_stream *z, const blvl_allocator *a) {
    z->zalloc = z_alloc;
    z->zfree = z_free;
    /* zlib's opaque is not const; the allocator is only read through it */
    z->opaque = (voidpf)(uintptr_t)a;
}

static blvl_status def(blvl__cursor *c, blvl_riot_layer *l, uint32_t layer_count) {
    blvl_status st = BLVL_OK;
    uint64_t at_width = c->pos + 4;
    struct {
        const char *name;
        uint32_t *v;
    } head[] = {{"id", &l->id},     {"width", &l->width},      {"height", &l->height},
                {"type", &l->type}, {"originX", &l->origin_x}, {"originZ", &l->origin_z}};
    for (size_t i = 0; !st && i < sizeof head / sizeof *head; i++)
        st = blvl__cursor_u32(c, head[i].name, head[i].v);
    if (st)
        return st;
    if (!blvl__import_riot_layer_data_size(l->width, l->height))
        return blvl__cursor_fail(c, "width", at_width, "layer-size",
                                 "%u x %u cells need more than the %u bytes of layer data allowed",
                                 l->width, l->height, BLVL_RIOT_MAX_LAYER_DATA);
    if (l->type > 2)
        return blvl__cursor_fail(c, "type", at_width + 8, "layer-type",
                                 "%u; a layer is a floor (0), a ceiling (1) or between (2)",
                                 l->type);
    st = blvl__cursor_f32(c, "worldHeight", &l->world_height);
    if (!st)
        st = blvl__import_riot_str(c, "name", &l->name);
    if (!st)
        st = blvl__cursor_u32(c, "flags", &l->flags);
    if (!st)
        st = blvl__cursor_f32(c, "lightDirection", &l->light_direction);
    if (!st)
        st = blvl__cursor_f32(c, "lightAscension", &l->light_ascension);
    if (!st)
        st = blvl__import_riot_color(c, "lightColor", &l->light_color);
    if (!st)
        st = blvl__import_riot_color(c, "ambientColor", &l->ambient_color);
    if (!st)
        st = blvl__cursor_u32(c, "lightDropoff", &l->light_dropoff);
    uint64_t at = c->pos;
    uint32_t n = 0;
    if (!st)
        st = blvl__cursor_u32(c, "visibleCount", &n);
    if (st)
        return st;
    RT_ARRAY(c, "visibleCount", at, n, 4, l->visible);
    l->visible_count = n;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t p = c->pos;
        (void)blvl__cursor_u32(c, NULL, &l->visible[k]); /* known to fit */
        if (l->visible[k] >= layer_count) {
            blvl__cursor_enter(c, "visible", k);
            return blvl__cursor_fail(c, NULL, p, "visible-range",
                                     "layer index %u is past the record's %u layers", l->visible[k],
                                     layer_count);
        }
    }
    return BLVL_OK;
}

static void decode(const uint8_t *b, blvl_riot_layer *l) {
    uint64_t nv = ((uint64_t)l->width + 1) * ((uint64_t)l->height + 1);
    uint64_t nc = (uint64_t)l->width * l->height;
    for (uint64_t i = 0; i < nv; i++, b += RT_VERTEX_SIZE)
        l->vertices[i] = (blvl_riot_vertex){b[0], b[1], blvl_le16(b + 2)};
    for (uint64_t i = 0; i < nc; i++, b += RT_CELL_SIZE) {
        blvl_riot_cell *cell = &l->cells[i];
        cell->flags = blvl_le16(b);
        cell->texture[0] = blvl_le32(b + 2);
        cell->texture[1] = blvl_le32(b + 6);
        for (int k = 0; k < 8; k++)
            cell->uv[k] = blvl_le16(b + 10 + 2 * k);
    }
}

/* Inflates `size` bytes at c->pos into `buf` of exactly `want` bytes. */
static blvl_status inflate_block(blvl__cursor *c, const blvl_riot_layer *l, uint32_t size,
                                 uint8_t *buf, uint64_t want) {
    z_stream z;
    memset(&z, 0, sizeof z);
    blvl__import_riot_zlib_alloc(&z, c->a);
    uint64_t at = c->pos;
    const uint8_t *in = c->base + c->pos;
    if (size < 2)
        return blvl__cursor_fail(c, "data", at, "zlib", "%u bytes, too short for a zlib header",
                                 size);
    if ((in[0] & 0x0f) != 8 || (in[0] >> 4) > 7 || ((in[0] << 8) | in[1]) % 31 != 0)
        return blvl__cursor_fail(
            c, "data", at, "zlib",
            "the block starts %02x %02x, not a zlib header (78 01, 78 9c, ...)", in[0], in[1]);
    int ret = inflateInit(&z);
    if (ret == Z_MEM_ERROR)
        return blvl__nomem(c->err, "a zlib stream");
    if (ret != Z_OK)
        return blvl__fail(c->err, BLVL_E_ARGUMENT, "inflateInit: %d", ret);
    z.next_in = (Bytef *)(uintptr_t)in; /* zlib's next_in is not const; it only reads */
    z.avail_in = size;
    z.next_out = buf;
    z.avail_out = (uInt)want;
    ret = inflate(&z, Z_FINISH);
    uint64_t got = want - z.avail_out;
    bool more = false;
    if (z.avail_out == 0 && (ret == Z_OK || ret == Z_BUF_ERROR)) {
        /* the buffer is full but the stream goes on: one more byte, or only its end? */
        uint8_t probe;
        z.next_out = &probe;
        z.avail_out = 1;
        ret = inflate(&z, Z_FINISH);
        more = z.avail_out == 0;
    }
    uint64_t used = size - z.avail_in;
    blvl_status st = BLVL_OK;
    if (more) {
        st = blvl__cursor_fail(c, "data", at, "inflate-size",
                               "inflates to more than the %llu bytes", (unsigned long long)want);
    } else if (ret == Z_STREAM_END) {
        if (got != want)
            st = blvl__cursor_fail(
                c, "data", at, "inflate-size", "inflates to %llu bytes, %u x %u cells need %llu",
                (unsigned long long)got, l->width, l->height, (unsigned long long)want);
        else if (used != size)
            st = blvl__cursor_fail(c, "data", at, "zlib",
                                   "the zlib stream ends after %llu of the block's %u bytes",
                                   (unsigned long long)used, size);
    } else if (ret == Z_MEM_ERROR) {
        st = blvl__nomem(c->err, "inflating a layer");
    } else if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT) {
        st = blvl__cursor_fail(c, "data", at, "zlib",
                               "not a valid zlib stream (%s, after %llu bytes)",
                               z.msg ? z.msg : "a preset dictionary", (unsigned long long)used);
    } else {
        st = blvl__cursor_fail(c, "data", at, "zlib",
                               "the zlib stream is cut short: %u bytes give %llu of %llu", size,
                               (unsigned long long)got, (unsigned long long)want);
    }
    inflateEnd(&z);
    return st;
}

/* The inflated bytes of one layer at a time, kept for the next (layers are often one size). */
typedef struct scratch {
    uint8_t *p;
    size_t cap;
} scratch;

static blvl_status block(blvl__cursor *c, blvl_riot_layer *l, scratch *k) {
    uint64_t at = c->pos;
    uint32_t size;
    blvl_status st = blvl__cursor_u32(c, "compressedSize", &size);
    if (st)
        return st;
    if (size > blvl__cursor_left(c))
        return blvl__cursor_fail(c, "compressedSize", at, "field-size",
                                 "a %u-byte block, %llu bytes are left in the record", size,
                                 (unsigned long long)blvl__cursor_left(c));
    uint64_t want = blvl__import_riot_layer_data_size(l->width, l->height); /* checked in def() */
    uint64_t nv = ((uint64_t)l->width + 1) * ((uint64_t)l->height + 1);
    uint64_t nc = (uint64_t)l->width * l->height;
    if (want > k->cap) {
        blvl__dealloc(c->a, k->p, k->cap);
        k->cap = 0;
        if (!(k->p = blvl__alloc(c->a, (size_t)want)))
            return blvl__nomem(c->err, "%llu bytes of layer data", (unsigned long long)want);
        k->cap = (size_t)want;
    }
    uint8_t *buf = k->p;
    st = inflate_block(c, l, size, buf, want);
    if (!st) {
        l->compressed = blvl__alloc(c->a, size);
        /* not zeroed: decode() sets every field of every element (tens of MiB in a big level) */
        l->vertices = blvl__alloc(c->a, (size_t)nv * sizeof *l->vertices);
        l->cells = nc ? blvl__alloc(c->a, (size_t)nc * sizeof *l->cells) : NULL;
        if (!l->compressed || !l->vertices || (nc && !l->cells))
            st = blvl__nomem(c->err, "%llu bytes of layer data", (unsigned long long)want);
        l->compressed_size = size;
    }
    if (!st) {
        memcpy(l->compressed, c->base + c->pos, size);
        decode(buf, l);
        c->pos += size;
    }
    return st;
}

blvl_status blvl__import_riot_parse_layers(blvl__cursor *c, blvl_riot_level *level) {
    uint32_t n;
    blvl_status st = blvl__cursor_u32(c, "layerCount", &n);
    if (st)
        return st;
    RT_ARRAY(c, "layerCount", 0, n, RT_LAYER_DEF_MIN + RT_DATA_BLOCK_MIN, level->layers);
    level->layer_count = n;
    for (uint32_t i = 0; i < n; i++) {
        blvl__cursor_enter(c, "layer", i);
        st = def(c, &level->layers[i], n);
        if (st)
            return st;
        blvl__cursor_leave(c);
    }
    st = blvl__cursor_u32(c, "unknown", &level->layers_unknown);
    scratch k = {NULL, 0};
    for (uint32_t i = 0; !st && i < n; i++) {
        blvl__cursor_enter(c, "layer", i);
        st = block(c, &level->layers[i], &k);
        blvl__cursor_leave(c);
    }
    blvl__dealloc(c->a, k.p, k.cap);
    return st ? st : blvl__cursor_end(c);
}
