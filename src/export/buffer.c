/* The glTF buffer (the .glb's BIN chunk, or the .bin beside a .gltf) and the JSON entries that
 * describe parts of it: buffer views and accessors. Every view starts on a 4-byte boundary, which
 * is what glTF asks of a vertex attribute and what every component type needs. */
#include <string.h>

#include "common/array.h"
#include "export/export_internal.h"

void xbuf_free(xbuf *b) {
    if (b->p)
        blvl__dealloc(b->al, b->p, b->cap);
    b->p = NULL;
    b->len = b->cap = 0;
}

uint8_t *xbuf_take(xbuf *b, size_t n, size_t *offset) {
    if (b->nomem)
        return NULL;
    size_t at = (b->len + 3) & ~(size_t)3;
    if (at < b->len || n > SIZE_MAX - at - 4) {
        b->nomem = 1;
        return NULL;
    }
    void *p = b->p;
    if (!blvl__array_grow(b->al, &p, &b->cap, b->len, at + n, 1, 65536)) {
        b->nomem = 1;
        return NULL;
    }
    b->p = p;
    memset(b->p + b->len, 0, at - b->len);
    b->len = at + n;
    *offset = at;
    return b->p + at;
}

uint32_t xp_view(xp *x, size_t offset, size_t size, uint32_t stride, uint32_t target) {
    xj *j = &x->views;
    xj_item(j);
    xj_obj(j, NULL);
    xj_u64(j, "buffer", 0);
    if (offset)
        xj_u64(j, "byteOffset", offset);
    xj_u64(j, "byteLength", size);
    if (stride)
        xj_u64(j, "byteStride", stride);
    if (target)
        xj_u64(j, "target", target);
    xj_end(j);
    return x->n_views++;
}

uint32_t xp_accessor(xp *x, uint32_t view, size_t offset, uint32_t component, int normalized,
                     uint32_t count, const char *type, const double *min, const double *max,
                     int n) {
    xj *j = &x->accessors;
    xj_item(j);
    xj_obj(j, NULL);
    xj_u64(j, "bufferView", view);
    if (offset)
        xj_u64(j, "byteOffset", offset);
    xj_u64(j, "componentType", component);
    if (normalized)
        xj_bool(j, "normalized", 1);
    xj_u64(j, "count", count);
    xj_str(j, "type", type);
    if (min && max) {
        xj_vec(j, "min", min, n);
        xj_vec(j, "max", max, n);
    }
    xj_end(j);
    return x->n_accessors++;
}
