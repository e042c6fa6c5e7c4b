/* The glTF buffer (the .glb's BIN chunk, or the .bin beside a .gltf) and the JSON entries that
 * describe parts of it: buffer views and accessors. Every view starts on a 4-byte boundary, which
 * is what glTF asks of a vertex attribute and what every component type needs. */
#include <string.h>

#include "common/array.h"
#include "export/export_internal.h"

void blvl__export_buf_free(bin_buffer *b) {
    if (b->p)
        blvl__dealloc(b->al, b->p, b->cap);
    b->p = NULL;
    b->len = b->cap = 0;
}

uint8_t *blvl__export_buf_take(bin_buffer *b, size_t n, size_t *offset) {
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

void blvl__export_buf_trim(bin_buffer *b, size_t len) {
    if (len < b->len)
        b->len = len;
}

uint32_t blvl__export_view(gltf_export *x, size_t offset, size_t size, uint32_t stride,
                           uint32_t target) {
    json_text *j = &x->views;
    blvl__export_json_item(j);
    blvl__export_json_obj(j, NULL);
    blvl__export_json_u64(j, "buffer", 0);
    if (offset)
        blvl__export_json_u64(j, "byteOffset", offset);
    blvl__export_json_u64(j, "byteLength", size);
    if (stride)
        blvl__export_json_u64(j, "byteStride", stride);
    if (target)
        blvl__export_json_u64(j, "target", target);
    blvl__export_json_end(j);
    return x->n_views++;
}

uint32_t blvl__export_accessor(gltf_export *x, uint32_t view, size_t offset, uint32_t component,
                               int normalized, uint32_t count, const char *type, const double *min,
                               const double *max, int n) {
    json_text *j = &x->accessors;
    blvl__export_json_item(j);
    blvl__export_json_obj(j, NULL);
    blvl__export_json_u64(j, "bufferView", view);
    if (offset)
        blvl__export_json_u64(j, "byteOffset", offset);
    blvl__export_json_u64(j, "componentType", component);
    if (normalized)
        blvl__export_json_bool(j, "normalized", 1);
    blvl__export_json_u64(j, "count", count);
    blvl__export_json_str(j, "type", type);
    if (min && max) {
        blvl__export_json_vec(j, "min", min, n);
        blvl__export_json_vec(j, "max", max, n);
    }
    blvl__export_json_end(j);
    return x->n_accessors++;
}
