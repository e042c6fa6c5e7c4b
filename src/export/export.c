/* One export: read the sections, run the steps (textures, materials, geometry, nodes,
 * collision), then put the document together (the JSON's top-level arrays were each built as
 * its own list) and wrap it as a .glb (glb.c) or hand out the .gltf's JSON and buffer. Nothing
 * is written anywhere until every step has passed, so a refused level leaves no output. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blvl/version.h"
#include "export/export_internal.h"

blvl_status xp_fail(xp *x, blvl_status code, const char *fmt, ...) {
    if (x->st != BLVL_OK)
        return x->st;
    char msg[sizeof x->err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    x->st = code;
    blvl__fail(x->err, code, "export: %s", msg);
    return code;
}

/* The JSON lists one export builds, into all[XP_LISTS]. */
#define XP_LISTS 12
static void lists(xp *x, xj *all[XP_LISTS]) {
    xj *l[XP_LISTS] = {&x->views,    &x->accessors, &x->meshes,   &x->materials,
                       &x->textures, &x->images,    &x->samplers, &x->nodes,
                       &x->cameras,  &x->lights,    &x->scene0,   &x->scene1};
    memcpy(all, l, sizeof l);
}

int xp_check(xp *x) {
    xj *all[XP_LISTS];
    lists(x, all);
    int nomem = x->bin.nomem, nonfinite = 0;
    for (size_t i = 0; i < XP_LISTS; i++)
        nomem |= all[i]->nomem, nonfinite |= all[i]->nonfinite;
    if (nomem)
        xp_fail(x, BLVL_E_NOMEM, "the glTF's text and buffer");
    else if (nonfinite)
        xp_fail(x, BLVL_E_ARGUMENT, "non-finite: a number glTF cannot spell");
    return x->st != BLVL_OK;
}

void xp_scene_node(xp *x, xj *scene) {
    xj_item(scene);
    xj_u64(scene, NULL, x->n_nodes++);
}

int xp_section(xp *x, const char *tag, blvl_bytes *b, const uint8_t **root) {
    blvl_error e;
    blvl_status st = blvl_level_section(x->level, tag, b, root, &e);
    if (st == BLVL_OK)
        return 1;
    if (st == BLVL_E_NOT_FOUND)
        return 0;
    if (x->st == BLVL_OK) {
        x->st = st;
        if (x->err)
            *x->err = e;
    }
    return -1;
}

static void xp_init(xp *x, blvl_level *level, const blvl_export_options *xo, blvl_error *err) {
    memset(x, 0, sizeof *x);
    x->xo = xo;
    x->al = &xo->base.allocator;
    x->level = level;
    x->err = err;
    x->bin.al = x->al;
    xj *all[XP_LISTS];
    lists(x, all);
    for (size_t i = 0; i < XP_LISTS; i++)
        xj_init(all[i], x->al);
    x->lightmap_texture = XP_NONE;
    x->light_scale = 1;
    x->lightmap_gain = 1;
}

static void xp_release(xp *x) {
    xj *all[XP_LISTS];
    lists(x, all);
    for (size_t i = 0; i < XP_LISTS; i++)
        xj_free(all[i]);
    xbuf_free(&x->bin);
    if (x->material_lightmapped)
        blvl__dealloc(x->al, x->material_lightmapped,
                      (size_t)x->level_materials * sizeof *x->material_lightmapped);
    blvl_bytes_free(&x->geo_bytes);
    blvl_bytes_free(&x->sim_bytes);
}

/* "key":[list] when the list has items. */
static void list(xj *doc, const char *key, const xj *l) {
    if (!l->items)
        return;
    xj_raw(doc, ",\"", 2);
    xj_raw(doc, key, strlen(key));
    xj_raw(doc, "\":[", 3);
    xj_raw(doc, l->p, l->len);
    xj_raw(doc, "]", 1);
}

static void scene(xj *doc, const char *name, const xj *nodes, int first) {
    if (!first)
        xj_raw(doc, ",", 1);
    xj_raw(doc, "{\"name\":\"", 9);
    xj_raw(doc, name, strlen(name));
    xj_raw(doc, "\"", 1);
    if (nodes->items) {
        xj_raw(doc, ",\"nodes\":[", 10);
        xj_raw(doc, nodes->p, nodes->len);
        xj_raw(doc, "]", 1);
    }
    xj_raw(doc, "}", 1);
}

/* The steps, then the document's JSON into *doc (set up by the caller). */
static blvl_status run(xp *x, const char *bin_uri, xj *doc) {
    int g = xp_section(x, "geometry", &x->geo_bytes, &x->geo.p_);
    if (g > 0)
        x->have_geo = 1;
    if (x->st == BLVL_OK)
        xp_section(x, "sim", &x->sim_bytes, &x->sim.p_); /* required: absent is refused */
    if (x->st == BLVL_OK)
        xp_textures(x);
    if (x->st == BLVL_OK)
        xp_materials(x);
    if (x->st == BLVL_OK)
        xp_geometry(x);
    if (x->st == BLVL_OK)
        xp_nodes(x);
    if (x->st == BLVL_OK)
        xp_collision(x);
    if (x->st == BLVL_OK)
        xp_check(x);
    if (x->st != BLVL_OK)
        return x->st;
    if (x->bin.len > 0xFFFFFFFFu - (1u << 24))
        return xp_fail(x, BLVL_E_ARGUMENT, "too-large: %zu bytes of buffer, a .glb holds 4 GiB",
                       x->bin.len);

    blvl_info info;
    blvl_get_info(x->level, &info);
    char hex[33];
    blvl_hex(info.identity, hex);
    const char *head =
        "{\"asset\":{\"version\":\"2.0\",\"generator\":\"blvl " BLVL_VERSION_STRING "\"}";
    xj_raw(doc, head, strlen(head));
    if (x->any_lights) {
        const char *ext = ",\"extensionsUsed\":[\"KHR_lights_punctual\"],\"extensions\":{"
                          "\"KHR_lights_punctual\":{\"lights\":[";
        xj_raw(doc, ext, strlen(ext));
        xj_raw(doc, x->lights.p, x->lights.len);
        xj_raw(doc, "]}}", 3);
    }
    xj_raw(doc, ",\"scene\":0,\"scenes\":[", 21);
    scene(doc, "level", &x->scene0, 1);
    if (x->any_collision)
        scene(doc, "collision", &x->scene1, 0);
    xj_raw(doc, "]", 1);
    list(doc, "nodes", &x->nodes);
    list(doc, "meshes", &x->meshes);
    list(doc, "materials", &x->materials);
    list(doc, "textures", &x->textures);
    list(doc, "images", &x->images);
    list(doc, "samplers", &x->samplers);
    list(doc, "cameras", &x->cameras);
    list(doc, "accessors", &x->accessors);
    list(doc, "bufferViews", &x->views);
    if (x->bin.len) {
        char b[64];
        snprintf(b, sizeof b, ",\"buffers\":[{\"byteLength\":%zu", x->bin.len);
        xj_raw(doc, b, strlen(b));
        if (bin_uri) {
            xj_raw(doc, ",", 1);
            xj_str(doc, "uri", bin_uri); /* depth 0: no comma of its own */
        }
        xj_raw(doc, "}]", 2);
    }
    /* The document's own extras: where it came from and the units. */
    char tail[160];
    snprintf(
        tail, sizeof tail,
        ",\"extras\":{\"blvl\":{\"identity\":\"%s\",\"metres_per_qu\":0.0254,\"lightmap\":", hex);
    xj_raw(doc, tail, strlen(tail));
    if (x->lightmap_texture != XP_NONE)
        xj_u64(doc, NULL, x->lightmap_texture);
    else
        xj_raw(doc, "null", 4);
    xj_raw(doc, "}}}", 3);
    if (doc->nomem)
        return xp_fail(x, BLVL_E_NOMEM, "the glTF's text");
    return BLVL_OK;
}

/* Both forms: the options (none given: the defaults), the level, the steps and the document's
 * JSON into *doc. x and *doc are set up whatever happens; finish releases them. */
static blvl_status begin(xp *x, xj *doc, blvl_level *level, const blvl_export_options *xo,
                         const char *bin_uri, blvl_error *err) {
    static const blvl_export_options none = {0};
    xp_init(x, level, xo ? xo : &none, err);
    xj_init(doc, x->al);
    if (!level)
        return blvl__fail(err, BLVL_E_ARGUMENT, "export: no level");
    return run(x, bin_uri, doc);
}

static blvl_status finish(xp *x, xj *doc, blvl_status st, blvl_error *err) {
    xj_free(doc);
    xp_release(x);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}

blvl_status blvl_export_glb(void **out, size_t *out_size, blvl_level *level,
                            const blvl_export_options *xo, blvl_error *err) {
    if (!out || !out_size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "export: no output");
    *out = NULL;
    *out_size = 0;
    xp x;
    xj doc;
    blvl_status st = begin(&x, &doc, level, xo, NULL, err);
    uint8_t *glb = NULL;
    if (st == BLVL_OK)
        st = xp_glb(&x, doc.p, doc.len, &glb, out_size);
    *out = glb;
    return finish(&x, &doc, st, err);
}

blvl_status blvl_export_gltf(char **json, size_t *json_size, void **bin, size_t *bin_size,
                             blvl_level *level, const char *bin_uri, const blvl_export_options *xo,
                             blvl_error *err) {
    if (!json || !json_size || !bin || !bin_size || !bin_uri)
        return blvl__fail(err, BLVL_E_ARGUMENT, "export: no output");
    *json = NULL, *bin = NULL, *json_size = *bin_size = 0;
    xp x;
    xj doc;
    blvl_status st = begin(&x, &doc, level, xo, bin_uri, err);
    if (st == BLVL_OK) {
        *json = blvl__alloc_sized(x.al, doc.len + 1);
        *bin = blvl__alloc_sized(x.al, x.bin.len ? x.bin.len : 1);
        if (!*json || !*bin) {
            blvl__free_sized(x.al, *json);
            blvl__free_sized(x.al, *bin);
            *json = NULL, *bin = NULL;
            st = blvl__nomem(err, "export: the glTF and its buffer");
        } else {
            memcpy(*json, doc.p, doc.len);
            (*json)[doc.len] = 0;
            *json_size = doc.len;
            if (x.bin.len)
                memcpy(*bin, x.bin.p, x.bin.len);
            *bin_size = x.bin.len;
        }
    }
    return finish(&x, &doc, st, err);
}
