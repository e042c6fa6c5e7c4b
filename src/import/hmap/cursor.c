/* Reading fields through a cursor: every read checks the bytes left in its chunk first, loads
 * bytes one at a time (no unaligned access; floats through memcpy), and a refusal names the
 * chunk, the field's path and its file offset. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blvl/le.h"
#include "common/alloc.h"
#include "import/hmap/hmap_internal.h"

void blvl__hm_tag_text(const uint8_t tag[4], char *buf) {
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

void blvl__hm_path_text(const hm_path *p, const char *leaf, char *buf, size_t size) {
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->depth && n < size; i++) {
        int k =
            p->index[i] == HM_NO_INDEX
                ? snprintf(buf + n, size - n, "%s%s", i ? "." : "", p->name[i])
                : snprintf(buf + n, size - n, "%s%s[%u]", i ? "." : "", p->name[i], p->index[i]);
        if (k < 0)
            return;
        n += (size_t)k;
    }
    if (leaf && n < size)
        snprintf(buf + n, size - n, "%s%s", p->depth ? "." : "", leaf);
}

blvl_status blvl__hm_fail(const hm_cur *c, const char *leaf, uint64_t offset, const char *rule,
                          const char *fmt, ...) {
    char field[96], problem[160];
    blvl__hm_path_text(&c->path, leaf, field, sizeof field);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    return blvl__fail_source(c->err, c->part, field, offset, rule, "%s", problem);
}

blvl_status blvl__hm_need(hm_cur *c, const char *leaf, uint64_t n) {
    if (c->end - c->pos < n)
        return blvl__hm_fail(c, leaf, c->pos, "field-size",
                             "needs %llu bytes, %llu are left in the chunk", (unsigned long long)n,
                             (unsigned long long)(c->end - c->pos));
    return BLVL_OK;
}

static float f32_at(const uint8_t *p) {
    uint32_t u = blvl_le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

blvl_status blvl__hm_u8(hm_cur *c, const char *leaf, uint8_t *v) {
    blvl_status st = blvl__hm_need(c, leaf, 1);
    if (st)
        return st;
    *v = c->base[c->pos++];
    return BLVL_OK;
}

blvl_status blvl__hm_u32(hm_cur *c, const char *leaf, uint32_t *v) {
    blvl_status st = blvl__hm_need(c, leaf, 4);
    if (st)
        return st;
    *v = blvl_le32(c->base + c->pos);
    c->pos += 4;
    return BLVL_OK;
}

blvl_status blvl__hm_i32(hm_cur *c, const char *leaf, int32_t *v) {
    uint32_t u;
    blvl_status st = blvl__hm_u32(c, leaf, &u);
    if (!st)
        memcpy(v, &u, sizeof *v); /* two's complement, without an out-of-range conversion */
    return st;
}

blvl_status blvl__hm_f32(hm_cur *c, const char *leaf, float *v) {
    blvl_status st = blvl__hm_need(c, leaf, 4);
    if (st)
        return st;
    *v = f32_at(c->base + c->pos);
    c->pos += 4;
    return BLVL_OK;
}

static void floats(hm_cur *c, float *out, int n) {
    for (int i = 0; i < n; i++, c->pos += 4)
        out[i] = f32_at(c->base + c->pos);
}

blvl_status blvl__hm_vec2(hm_cur *c, const char *leaf, blvl_Vec2 *v) {
    blvl_status st = blvl__hm_need(c, leaf, 8);
    if (!st) {
        float f[2];
        floats(c, f, 2);
        v->x = f[0], v->y = f[1];
    }
    return st;
}

blvl_status blvl__hm_vec3(hm_cur *c, const char *leaf, blvl_Vec3 *v) {
    blvl_status st = blvl__hm_need(c, leaf, 12);
    if (!st)
        blvl__hm_take_vec3s(c, v, 1);
    return st;
}

blvl_status blvl__hm_plane(hm_cur *c, const char *leaf, blvl_Plane *v) {
    blvl_status st = blvl__hm_need(c, leaf, 16);
    if (!st)
        blvl__hm_take_planes(c, v, 1);
    return st;
}

blvl_status blvl__hm_box(hm_cur *c, const char *leaf, blvl_hmap_box *v) {
    blvl_status st = blvl__hm_need(c, leaf, 24);
    if (!st) {
        blvl__hm_take_vec3s(c, &v->min, 1);
        blvl__hm_take_vec3s(c, &v->max, 1);
    }
    return st;
}

blvl_status blvl__hm_uv(hm_cur *c, const char *leaf, blvl_hmap_uv *v) {
    blvl_status st = blvl__hm_need(c, leaf, 20);
    if (!st) {
        float f[5];
        floats(c, f, 5);
        v->offset.x = f[0], v->offset.y = f[1];
        v->scale.x = f[2], v->scale.y = f[3];
        v->rotation = f[4];
    }
    return st;
}

void blvl__hm_take_u32s(hm_cur *c, uint32_t *out, uint32_t n) {
    for (uint32_t i = 0; i < n; i++, c->pos += 4)
        out[i] = blvl_le32(c->base + c->pos);
}

blvl_status blvl__hm_take_indices(hm_cur *c, uint32_t *out, uint32_t n, uint32_t limit,
                                  const char *rule, const char *owner) {
    uint64_t first = c->pos;
    blvl__hm_take_u32s(c, out, n);
    for (uint32_t k = 0; k < n; k++)
        if (out[k] >= limit) {
            hm_enter(c, "index", k);
            blvl_status st = blvl__hm_fail(c, NULL, first + 4ull * k, rule,
                                           "%u is past the %s's %u vertices", out[k], owner, limit);
            hm_leave(c);
            return st;
        }
    return BLVL_OK;
}

void blvl__hm_take_vec3s(hm_cur *c, blvl_Vec3 *out, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        float f[3];
        floats(c, f, 3);
        out[i].x = f[0], out[i].y = f[1], out[i].z = f[2];
    }
}

void blvl__hm_take_planes(hm_cur *c, blvl_Plane *out, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        float f[4];
        floats(c, f, 4);
        out[i].normal.x = f[0], out[i].normal.y = f[1], out[i].normal.z = f[2];
        out[i].dist = f[3];
    }
}

blvl_status blvl__hm_str(hm_cur *c, const char *leaf, blvl_hmap_str *s) {
    uint64_t at = c->pos;
    uint32_t n;
    blvl_status st = blvl__hm_u32(c, leaf, &n);
    if (st)
        return st;
    if (n > c->end - c->pos)
        return blvl__hm_fail(c, leaf, at, "field-size",
                             "a %u-byte string, %llu bytes are left in the chunk", n,
                             (unsigned long long)(c->end - c->pos));
    const uint8_t *b = c->base + c->pos;
    const void *nul = memchr(b, 0, n);
    if (nul)
        return blvl__hm_fail(c, leaf, at, "string-nul", "byte %u of %u is a NUL",
                             (unsigned)((const uint8_t *)nul - b), n);
    uint32_t bad;
    const char *why = blvl__hm_utf8_error(b, n, &bad);
    if (why)
        return blvl__hm_fail(c, leaf, at, "utf8", "byte %u of %u (0x%02x): %s", bad, n, b[bad],
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

blvl_status blvl__hm_array(hm_cur *c, const char *leaf, uint32_t min, size_t elem, uint32_t *count,
                           void **arr) {
    uint64_t at = c->pos;
    uint32_t n;
    blvl_status st = blvl__hm_u32(c, leaf, &n);
    if (st)
        return st;
    uint64_t need = (uint64_t)n * min;
    if (need > c->end - c->pos)
        return blvl__hm_fail(
            c, leaf, at, "count-size",
            "%u records of at least %u bytes need %llu, %llu are left in the chunk", n, min,
            (unsigned long long)need, (unsigned long long)(c->end - c->pos));
    *arr = NULL;
    if (n) {
        *arr = blvl__calloc_n(c->a, n, elem);
        if (!*arr)
            return blvl__nomem(c->err, "%u records of %zu bytes", n, elem);
    }
    *count = n;
    return BLVL_OK;
}

blvl_status blvl__hm_end(hm_cur *c) {
    if (c->pos != c->end) {
        c->path.depth = 0;
        return blvl__hm_fail(c, "end", c->pos, "leftover",
                             "%llu bytes are left after the chunk's last field",
                             (unsigned long long)(c->end - c->pos));
    }
    return BLVL_OK;
}
