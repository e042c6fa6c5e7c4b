/* blvl_riot_write: the four records re-encoded from the level's fields into a working copy of
 * the level's container (each in place of the first record of its type; 0x0002 and 0x0020
 * dropped when has_groups / has_objects is false, added after everything else when the
 * container lacks them), then blvl_riot_srsc_write. A level without a container gets a new one:
 * version 0x0100, the records in type order, id and group 0. A layer whose `compressed` is NULL
 * is deflated here (zlib's default level) from its vertices and cells (NULL arrays: zeros). */
#include <string.h>
#include <zlib.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/riot/riot_internal.h"

static const uint16_t known[4] = {BLVL_RIOT_LEVEL, BLVL_RIOT_LAYERS, BLVL_RIOT_GROUPS,
                                  BLVL_RIOT_OBJECTS};

static bool str_ok(const blvl_riot_str *s) {
    return s->bytes || !s->text || strlen(s->text) <= 65534;
}

/* Strings the writer cannot store: a text over 65534 bytes (its length is a u16). */
static blvl_status check_strings(const blvl_riot_level *l, blvl_error *err) {
    bool ok = str_ok(&l->name);
    for (uint32_t i = 0; ok && l->dbrefs && i < l->dbref_count; i++)
        ok = str_ok(&l->dbrefs[i].path);
    for (uint32_t i = 0; ok && l->layers && i < l->layer_count; i++)
        ok = str_ok(&l->layers[i].name);
    for (uint32_t i = 0; ok && l->groups && i < l->group_count; i++)
        ok = str_ok(&l->groups[i].name);
    for (uint32_t i = 0; ok && l->objects && i < l->object_count; i++)
        for (uint32_t k = 0; ok && l->objects[i].param_defs && k < l->objects[i].param_count; k++)
            ok = str_ok(&l->objects[i].param_defs[k].name);
    return ok ? BLVL_OK
              : blvl__fail(err, BLVL_E_ARGUMENT, "blvl_riot_write: a text over 65534 bytes");
}

static void raw_layer(const blvl_riot_layer *y, uint8_t *b) {
    uint64_t nv = ((uint64_t)y->width + 1) * ((uint64_t)y->height + 1);
    uint64_t nc = (uint64_t)y->width * y->height;
    for (uint64_t i = 0; i < nv; i++, b += RT_VERTEX_SIZE) {
        blvl_riot_vertex v = y->vertices ? y->vertices[i] : (blvl_riot_vertex){0, 0, 0};
        b[0] = v.type, b[1] = v.constant;
        blvl_le_put16(b + 2, v.raw_height);
    }
    for (uint64_t i = 0; i < nc; i++, b += RT_CELL_SIZE) {
        blvl_riot_cell c = y->cells ? y->cells[i] : (blvl_riot_cell){0};
        blvl_le_put16(b, c.flags);
        blvl_le_put32(b + 2, c.texture[0]);
        blvl_le_put32(b + 6, c.texture[1]);
        for (int k = 0; k < 8; k++)
            blvl_le_put16(b + 10 + 2 * k, c.uv[k]);
    }
}

static blvl_status deflate_layer(const blvl_riot_layer *y, const blvl_allocator *a, uint8_t **out,
                                 uint32_t *out_size, blvl_error *err) {
    uint64_t raw = blvl__import_riot_layer_data_size(y->width, y->height);
    if (!raw)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "blvl_riot_write: a %u x %u layer is over the layer data limit", y->width,
                          y->height);
    uint8_t *in = blvl__alloc(a, (size_t)raw);
    if (!in)
        return blvl__nomem(err, "%llu bytes of layer data", (unsigned long long)raw);
    raw_layer(y, in);
    z_stream z;
    memset(&z, 0, sizeof z);
    blvl__import_riot_zlib_alloc(&z, a);
    blvl_status st = BLVL_OK;
    if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK) {
        blvl__dealloc(a, in, (size_t)raw);
        return blvl__nomem(err, "a zlib stream");
    }
    uLong bound = deflateBound(&z, (uLong)raw);
    uint8_t *buf = blvl__alloc_sized(a, bound);
    if (!buf)
        st = blvl__nomem(err, "%lu bytes of zlib output", (unsigned long)bound);
    if (!st) {
        z.next_in = in;
        z.avail_in = (uInt)raw;
        z.next_out = buf;
        z.avail_out = (uInt)bound;
        int ret = deflate(&z, Z_FINISH);
        if (ret != Z_STREAM_END) {
            blvl__free_sized(a, buf);
            st = ret == Z_MEM_ERROR
                     ? blvl__nomem(err, "deflating a layer")
                     : blvl__fail(err, BLVL_E_ARGUMENT, "deflating a layer: %d", ret);
        } else {
            *out = buf;
            *out_size = (uint32_t)z.total_out;
        }
    }
    deflateEnd(&z);
    blvl__dealloc(a, in, (size_t)raw);
    return st;
}

typedef struct work {
    blvl_riot_srsc c;   /* the container written: records' bytes point into bodies */
    uint8_t *bodies[4]; /* the four encoded records */
    uint64_t sizes[4];
    rt_deflated d;
    uint32_t layers;   /* entries of d */
    uint32_t capacity; /* entries of c.records */
} work;

static void work_free(work *w, const blvl_allocator *a) {
    for (int k = 0; k < 4; k++)
        blvl__dealloc(a, w->bodies[k], (size_t)w->sizes[k]);
    for (uint32_t i = 0; w->d.bytes && i < w->layers; i++)
        blvl__free_sized(a, w->d.bytes[i]);
    blvl__dealloc(a, w->d.bytes, (size_t)w->layers * sizeof *w->d.bytes);
    blvl__dealloc(a, w->d.size, (size_t)w->layers * sizeof *w->d.size);
    blvl__dealloc(a, w->c.records, (size_t)w->capacity * sizeof *w->c.records);
}

static bool present(const blvl_riot_level *l, int k) {
    return k < 2 || (k == 2 ? l->has_groups : l->has_objects);
}

static blvl_status encode(const blvl_riot_level *l, const blvl_allocator *a, work *w,
                          blvl_error *err) {
    uint32_t n = l->layers ? l->layer_count : 0;
    if (n) {
        w->d.bytes = blvl__calloc_n(a, n, sizeof *w->d.bytes);
        w->d.size = blvl__calloc_n(a, n, sizeof *w->d.size);
        w->layers = n;
        if (!w->d.bytes || !w->d.size)
            return blvl__nomem(err, "%u layers", n);
    }
    for (uint32_t i = 0; i < n; i++)
        if (!l->layers[i].compressed) {
            blvl_status st = deflate_layer(&l->layers[i], a, &w->d.bytes[i], &w->d.size[i], err);
            if (st)
                return st;
        }
    for (int k = 0; k < 4; k++) {
        if (!present(l, k))
            continue;
        uint64_t s = blvl__import_riot_size_record(l, known[k], &w->d);
        if (s > UINT32_MAX)
            return blvl__fail(err, BLVL_E_ARGUMENT,
                              "blvl_riot_write: record 0x%04x of %llu bytes, past 4 GiB", known[k],
                              (unsigned long long)s);
        w->bodies[k] = blvl__alloc(a, (size_t)s);
        if (!w->bodies[k])
            return blvl__nomem(err, "a %llu-byte record", (unsigned long long)s);
        w->sizes[k] = s;
        blvl__import_riot_encode_record(l, known[k], &w->d, w->bodies[k]);
    }
    return BLVL_OK;
}

/* The records of the working container: the old ones with the four replaced or dropped, then
 * the four the old container lacks. */
static blvl_status container(const blvl_riot_level *l, const blvl_allocator *a, work *w,
                             blvl_error *err) {
    const blvl_riot_srsc *old = l->srsc;
    uint32_t n = old && old->records ? old->record_count : 0;
    w->c.records = blvl__calloc_n(a, (size_t)n + 4, sizeof *w->c.records);
    if (!w->c.records)
        return blvl__nomem(err, "%u records", n + 4);
    w->capacity = n + 4;
    w->c.version = old ? old->version : 0x0100;
    w->c.dir_offset = old ? old->dir_offset : 0;
    if (old) {
        w->c.fill_count = old->fill_count;
        w->c.fills = old->fills;
    }
    bool placed[4] = {0};
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        blvl_riot_record r = old->records[i];
        int k = 0;
        while (k < 4 && known[k] != r.type)
            k++;
        if (k < 4 && !placed[k]) {
            placed[k] = true;
            if (!present(l, k))
                continue;
            r.bytes = w->bodies[k];
            r.size = (uint32_t)w->sizes[k];
        }
        w->c.records[m++] = r;
    }
    for (int k = 0; k < 4; k++)
        if (present(l, k) && !placed[k])
            w->c.records[m++] = (blvl_riot_record){
                .type = known[k],
                .offset = w->c.dir_offset ? UINT32_MAX : 0, /* after all, or in type order */
                .size = (uint32_t)w->sizes[k],
                .bytes = w->bodies[k]};
    if (m > UINT16_MAX)
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_riot_write: %u records, over 65535", m);
    w->c.record_count = (uint16_t)m;
    return BLVL_OK;
}

blvl_status blvl_riot_write(void **out, size_t *size, const blvl_riot_level *level,
                            const blvl_options *opt, blvl_error *err) {
    blvl__ok(err);
    if (!level || !out || !size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_riot_write: NULL argument");
    *out = NULL;
    *size = 0;
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    work w;
    memset(&w, 0, sizeof w);
    blvl_status st = check_strings(level, err);
    if (!st)
        st = encode(level, a, &w, err);
    if (!st)
        st = container(level, a, &w, err);
    if (!st)
        st = blvl_riot_srsc_write(out, size, &w.c, opt, err);
    work_free(&w, a);
    return st;
}
