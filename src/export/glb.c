/* The .glb container: a 12-byte header (magic "glTF", version 2, total length), then the JSON
 * chunk padded with spaces to 4 bytes, then the BIN chunk padded with zeros; and the files an
 * export writes, each to a temporary name renamed over the target only once it is whole. */
#include <stdio.h>
#include <string.h>

#include "export/export_internal.h"

static void le32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16),
    p[3] = (uint8_t)(v >> 24);
}

blvl_status blvl__export_glb(gltf_export *x, const char *json, size_t json_len, uint8_t **out,
                             size_t *out_size) {
    size_t jpad = (json_len + 3) & ~(size_t)3, bpad = (x->bin.len + 3) & ~(size_t)3;
    uint64_t total = 12 + 8 + (uint64_t)jpad + (x->bin.len ? 8 + (uint64_t)bpad : 0);
    if (total > 0xFFFFFFFFu)
        return blvl__export_fail(x, BLVL_E_ARGUMENT,
                                 "too-large: the .glb would be %llu bytes, at most 4 GiB",
                                 (unsigned long long)total);
    uint8_t *p = blvl__alloc_sized(x->al, (size_t)total);
    if (!p)
        return blvl__export_fail(x, BLVL_E_NOMEM, "the .glb of %llu bytes",
                                 (unsigned long long)total);
    memcpy(p, "glTF", 4);
    le32(p + 4, 2);
    le32(p + 8, (uint32_t)total);
    le32(p + 12, (uint32_t)jpad);
    memcpy(p + 16, "JSON", 4);
    memcpy(p + 20, json, json_len);
    memset(p + 20 + json_len, ' ', jpad - json_len);
    if (x->bin.len) {
        uint8_t *b = p + 20 + jpad;
        le32(b, (uint32_t)bpad);
        memcpy(b + 4, "BIN\0", 4);
        memcpy(b + 8, x->bin.p, x->bin.len);
        memset(b + 8 + x->bin.len, 0, bpad - x->bin.len);
    }
    *out = p;
    *out_size = (size_t)total;
    return BLVL_OK;
}

blvl_status blvl_export_glb_file(blvl_level *level, const char *path, const blvl_export_options *xo,
                                 blvl_error *err) {
    if (!path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "export: no output path");
    void *glb;
    size_t n;
    blvl_status st = blvl_export_glb(&glb, &n, level, xo, err);
    if (st != BLVL_OK)
        return st;
    const blvl_allocator *al = xo ? &xo->base.allocator : NULL;
    st = blvl_file_write(path, glb, n, xo ? &xo->base : NULL, err);
    blvl__free_sized(al, glb);
    return st;
}

blvl_status blvl_export_gltf_files(blvl_level *level, const char *dir, const char *name,
                                   const blvl_export_options *xo, blvl_error *err) {
    if (!dir || !name || !*name || strchr(name, '/') || strpbrk(name, "\"\\%#?"))
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "export: the name must be a plain file name (no / \" \\ %% # ?)");
    const blvl_allocator *al = xo ? &xo->base.allocator : NULL;
    size_t dl = strlen(dir), nl = strlen(name), sz = dl + nl + 8;
    char *path = blvl__alloc(al, sz), *uri = blvl__alloc(al, nl + 5);
    if (!path || !uri) {
        if (path)
            blvl__dealloc(al, path, sz);
        if (uri)
            blvl__dealloc(al, uri, nl + 5);
        return blvl__nomem(err, "export: a file name");
    }
    snprintf(uri, nl + 5, "%s.bin", name);
    char *json = NULL;
    void *bin = NULL;
    size_t jn = 0, bn = 0;
    blvl_status st = blvl_export_gltf(&json, &jn, &bin, &bn, level, uri, xo, err);
    if (st == BLVL_OK) {
        snprintf(path, sz, "%s/%s.bin", dir, name);
        st = blvl_file_write(path, bin, bn, xo ? &xo->base : NULL, err);
    }
    if (st == BLVL_OK) {
        snprintf(path, sz, "%s/%s.gltf", dir, name);
        st = blvl_file_write(path, json, jn, xo ? &xo->base : NULL, err);
    }
    blvl__free_sized(al, json);
    blvl__free_sized(al, bin);
    blvl__dealloc(al, path, sz);
    blvl__dealloc(al, uri, nl + 5);
    return st;
}
