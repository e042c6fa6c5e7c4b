/* The .hmap fields read through the common cursor (common/cursor.h): vectors, planes, boxes,
 * UV transforms, UTF-8 strings and counted arrays, each bounds-checked before it is read. */
#include <stdio.h>
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

void blvl__import_hmap_tag_text(const uint8_t tag[4], char *buf) {
    size_t n = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t b = tag[i];
        if (b >= 0x20 && b < 0x7f && b != '\\')
            buf[n++] = (char)b;
        else
            n += (size_t)snprintf(buf + n, 5, "\\x%02x", b);
    }
    buf[n] = '\0';
}

static void floats(blvl__cursor *c, float *out, int n) {
    for (int i = 0; i < n; i++, c->pos += 4)
        out[i] = blvl__le_f32(c->base + c->pos);
}

blvl_status blvl__import_hmap_vec2(blvl__cursor *c, const char *leaf, blvl_Vec2 *v) {
    blvl_status st = blvl__cursor_need(c, leaf, 8);
    if (!st) {
        float f[2];
        floats(c, f, 2);
        v->x = f[0], v->y = f[1];
    }
    return st;
}

blvl_status blvl__import_hmap_vec3(blvl__cursor *c, const char *leaf, blvl_Vec3 *v) {
    blvl_status st = blvl__cursor_need(c, leaf, 12);
    if (!st)
        blvl__import_hmap_take_vec3s(c, v, 1);
    return st;
}

blvl_status blvl__import_hmap_plane(blvl__cursor *c, const char *leaf, blvl_Plane *v) {
    blvl_status st = blvl__cursor_need(c, leaf, 16);
    if (!st)
        blvl__import_hmap_take_planes(c, v, 1);
    return st;
}

blvl_status blvl__import_hmap_box(blvl__cursor *c, const char *leaf, blvl_hmap_box *v) {
    blvl_status st = blvl__cursor_need(c, leaf, 24);
    if (!st) {
        blvl__import_hmap_take_vec3s(c, &v->min, 1);
        blvl__import_hmap_take_vec3s(c, &v->max, 1);
    }
    return st;
}

blvl_status blvl__import_hmap_uv(blvl__cursor *c, const char *leaf, blvl_hmap_uv *v) {
    blvl_status st = blvl__cursor_need(c, leaf, 20);
    if (!st) {
        float f[5];
        floats(c, f, 5);
        v->offset.x = f[0], v->offset.y = f[1];
        v->scale.x = f[2], v->scale.y = f[3];
        v->rotation = f[4];
    }
    return st;
}

void blvl__import_hmap_take_u32s(blvl__cursor *c, uint32_t *out, uint32_t n) {
    for (uint32_t i = 0; i < n; i++, c->pos += 4)
        out[i] = blvl_le32(c->base + c->pos);
}

blvl_status blvl__import_hmap_take_indices(blvl__cursor *c, uint32_t *out, uint32_t n,
                                           uint32_t limit, const char *rule, const char *owner) {
    uint64_t first = c->pos;
    blvl__import_hmap_take_u32s(c, out, n);
    for (uint32_t k = 0; k < n; k++)
        if (out[k] >= limit) {
            blvl__cursor_enter(c, "index", k);
            blvl_status st =
                blvl__cursor_fail(c, NULL, first + 4ull * k, rule,
                                  "%u is past the %s's %u vertices", out[k], owner, limit);
            blvl__cursor_leave(c);
            return st;
        }
    return BLVL_OK;
}

void blvl__import_hmap_take_vec3s(blvl__cursor *c, blvl_Vec3 *out, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        float f[3];
        floats(c, f, 3);
        out[i].x = f[0], out[i].y = f[1], out[i].z = f[2];
    }
}

void blvl__import_hmap_take_planes(blvl__cursor *c, blvl_Plane *out, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        float f[4];
        floats(c, f, 4);
        out[i].normal.x = f[0], out[i].normal.y = f[1], out[i].normal.z = f[2];
        out[i].dist = f[3];
    }
}

blvl_status blvl__import_hmap_str(blvl__cursor *c, const char *leaf, blvl_hmap_str *s) {
    uint64_t at = c->pos;
    uint32_t n;
    blvl_status st = blvl__cursor_u32(c, leaf, &n);
    if (st)
        return st;
    if (n > c->end - c->pos)
        return blvl__cursor_fail(c, leaf, at, "field-size",
                                 "a %u-byte string, %llu bytes are left in the chunk", n,
                                 (unsigned long long)(c->end - c->pos));
    const uint8_t *b = c->base + c->pos;
    const void *nul = memchr(b, 0, n);
    if (nul)
        return blvl__cursor_fail(c, leaf, at, "string-nul", "byte %u of %u is a NUL",
                                 (unsigned)((const uint8_t *)nul - b), n);
    uint32_t bad;
    const char *why = blvl__import_hmap_utf8_error(b, n, &bad);
    if (why)
        return blvl__cursor_fail(c, leaf, at, "utf8", "byte %u of %u (0x%02x): %s", bad, n, b[bad],
                                 why);
    s->bytes = blvl__alloc(c->a, (size_t)n + 1);
    if (!s->bytes)
        return blvl__nomem(c->err, "a %u-byte string", n);
    s->size = n;
    memcpy(s->bytes, b, n);
    s->bytes[n] = '\0';
    c->pos += n;
    return BLVL_OK;
}

blvl_status blvl__import_hmap_array(blvl__cursor *c, const char *leaf, uint32_t min, size_t elem,
                                    uint32_t *count, void **arr) {
    uint64_t at = c->pos;
    uint32_t n;
    *arr = NULL;
    blvl_status st = blvl__cursor_u32(c, leaf, &n);
    if (!st)
        st = blvl__cursor_array(c, leaf, at, n, min, elem, arr);
    if (!st)
        *count = n;
    return st;
}
