/* One export: read the sections, run the steps (textures, materials, geometry, nodes,
 * collision, acoustics), then put the document together (the JSON's top-level arrays were each
 * built as its own list) and wrap it as a .glb (glb.c) or hand out the .gltf's JSON and buffer.
 * Nothing is written anywhere until every step has passed, so a refused level leaves no output. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blvl/version.h"
#include "export/export_internal.h"

blvl_status blvl__export_fail(gltf_export *x, blvl_status code, const char *fmt, ...) {
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
#define XP_LISTS 13
static void lists(gltf_export *x, json_text *all[XP_LISTS]) {
    json_text *l[XP_LISTS] = {&x->views,  &x->accessors, &x->meshes, &x->materials, &x->textures,
                              &x->images, &x->samplers,  &x->nodes,  &x->cameras,   &x->lights,
                              &x->scene0, &x->scene1,    &x->scene2};
    memcpy(all, l, sizeof l);
}

int blvl__export_check(gltf_export *x) {
    json_text *all[XP_LISTS];
    lists(x, all);
    int nomem = x->bin.nomem, nonfinite = 0;
    for (size_t i = 0; i < XP_LISTS; i++)
        nomem |= all[i]->nomem, nonfinite |= all[i]->nonfinite;
    if (nomem)
        blvl__export_fail(x, BLVL_E_NOMEM, "the glTF's text and buffer");
    else if (nonfinite)
        blvl__export_fail(x, BLVL_E_ARGUMENT, "non-finite: a number glTF cannot spell");
    return x->st != BLVL_OK;
}

void blvl__export_scene_node(gltf_export *x, json_text *scene) {
    blvl__export_json_item(scene);
    blvl__export_json_u64(scene, NULL, x->n_nodes++);
}

int blvl__export_section(gltf_export *x, const char *tag, blvl_bytes *b, const uint8_t **root) {
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

static void xp_init(gltf_export *x, blvl_level *level, const blvl_export_options *xo,
                    blvl_error *err) {
    memset(x, 0, sizeof *x);
    x->xo = xo;
    x->al = &xo->base.allocator;
    x->level = level;
    x->err = err;
    x->bin.al = x->al;
    json_text *all[XP_LISTS];
    lists(x, all);
    for (size_t i = 0; i < XP_LISTS; i++)
        blvl__export_json_init(all[i], x->al);
    x->lightmap_texture = XP_NONE;
    x->light_scale = 1;
    x->lightmap_gain = 1;
}

static void xp_release(gltf_export *x) {
    json_text *all[XP_LISTS];
    lists(x, all);
    for (size_t i = 0; i < XP_LISTS; i++)
        blvl__export_json_free(all[i]);
    blvl__export_buf_free(&x->bin);
    if (x->material_lightmapped)
        blvl__dealloc(x->al, x->material_lightmapped,
                      (size_t)x->level_materials * sizeof *x->material_lightmapped);
    blvl_bytes_free(&x->geo_bytes);
    blvl_bytes_free(&x->sim_bytes);
}

/* "key":[list] when the list has items. */
static void list(json_text *doc, const char *key, const json_text *l) {
    if (!l->items)
        return;
    blvl__export_json_raw(doc, ",\"", 2);
    blvl__export_json_raw(doc, key, strlen(key));
    blvl__export_json_raw(doc, "\":[", 3);
    blvl__export_json_raw(doc, l->p, l->len);
    blvl__export_json_raw(doc, "]", 1);
}

static void scene(json_text *doc, const char *name, const json_text *nodes, int first) {
    if (!first)
        blvl__export_json_raw(doc, ",", 1);
    blvl__export_json_raw(doc, "{\"name\":\"", 9);
    blvl__export_json_raw(doc, name, strlen(name));
    blvl__export_json_raw(doc, "\"", 1);
    if (nodes->items) {
        blvl__export_json_raw(doc, ",\"nodes\":[", 10);
        blvl__export_json_raw(doc, nodes->p, nodes->len);
        blvl__export_json_raw(doc, "]", 1);
    }
    blvl__export_json_raw(doc, "}", 1);
}

/* The steps, then the document's JSON into *doc (set up by the caller). */
static blvl_status run(gltf_export *x, const char *bin_uri, json_text *doc) {
    int g = blvl__export_section(x, "geometry", &x->geo_bytes, &x->geo.p_);
    if (g > 0)
        x->have_geo = 1;
    if (x->st == BLVL_OK)
        blvl__export_section(x, "sim", &x->sim_bytes, &x->sim.p_); /* required: absent is refused */
    if (x->st == BLVL_OK)
        blvl__export_textures(x);
    if (x->st == BLVL_OK)
        blvl__export_materials(x);
    if (x->st == BLVL_OK)
        blvl__export_geometry(x);
    if (x->st == BLVL_OK)
        blvl__export_nodes(x);
    if (x->st == BLVL_OK)
        blvl__export_collision(x);
    if (x->st == BLVL_OK)
        blvl__export_acoustics(x);
    if (x->st == BLVL_OK)
        blvl__export_check(x);
    if (x->st != BLVL_OK)
        return x->st;
    if (x->bin.len > 0xFFFFFFFFu - (1u << 24))
        return blvl__export_fail(x, BLVL_E_ARGUMENT,
                                 "too-large: %zu bytes of buffer, a .glb holds 4 GiB", x->bin.len);

    blvl_info info;
    blvl_get_info(x->level, &info);
    char hex[33];
    blvl_hex(info.identity, hex);
    const char *head =
        "{\"asset\":{\"version\":\"2.0\",\"generator\":\"blvl " BLVL_VERSION_STRING "\"}";
    blvl__export_json_raw(doc, head, strlen(head));
    if (x->any_lights) {
        const char *ext = ",\"extensionsUsed\":[\"KHR_lights_punctual\"],\"extensions\":{"
                          "\"KHR_lights_punctual\":{\"lights\":[";
        blvl__export_json_raw(doc, ext, strlen(ext));
        blvl__export_json_raw(doc, x->lights.p, x->lights.len);
        blvl__export_json_raw(doc, "]}}", 3);
    }
    blvl__export_json_raw(doc, ",\"scene\":0,\"scenes\":[", 21);
    scene(doc, "level", &x->scene0, 1);
    if (x->any_collision)
        scene(doc, "collision", &x->scene1, 0);
    if (x->any_acoustics)
        scene(doc, "acoustics", &x->scene2, 0);
    blvl__export_json_raw(doc, "]", 1);
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
        blvl__export_json_raw(doc, b, strlen(b));
        if (bin_uri) {
            blvl__export_json_raw(doc, ",", 1);
            blvl__export_json_str(doc, "uri", bin_uri); /* depth 0: no comma of its own */
        }
        blvl__export_json_raw(doc, "}]", 2);
    }
    /* The document's own extras: where it came from and the units. */
    char tail[160];
    snprintf(
        tail, sizeof tail,
        ",\"extras\":{\"blvl\":{\"identity\":\"%s\",\"metres_per_qu\":0.0254,\"lightmap\":", hex);
    blvl__export_json_raw(doc, tail, strlen(tail));
    if (x->lightmap_texture != XP_NONE)
        blvl__export_json_u64(doc, NULL, x->lightmap_texture);
    else
        blvl__export_json_raw(doc, "null", 4);
    blvl__export_json_raw(doc, "}}}", 3);
    if (doc->nomem)
        return blvl__export_fail(x, BLVL_E_NOMEM, "the glTF's text");
    return BLVL_OK;
}

/* Both forms: the options (none given: the defaults), the level, the steps and the document's
 * JSON into *doc. x and *doc are set up whatever happens; finish releases them. */
static blvl_status begin(gltf_export *x, json_text *doc, blvl_level *level,
                         const blvl_export_options *xo, const char *bin_uri, blvl_error *err) {
    static const blvl_export_options none = {0};
    xp_init(x, level, xo ? xo : &none, err);
    blvl__export_json_init(doc, x->al);
    if (!level)
        return blvl__fail(err, BLVL_E_ARGUMENT, "export: no level");
    return run(x, bin_uri, doc);
}

static blvl_status finish(gltf_export *x, json_text *doc, blvl_status st, blvl_error *err) {
    blvl__export_json_free(doc);
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
    gltf_export x;
    json_text doc;
    blvl_status st = begin(&x, &doc, level, xo, NULL, err);
    uint8_t *glb = NULL;
    if (st == BLVL_OK)
        st = blvl__export_glb(&x, doc.p, doc.len, &glb, out_size);
    *out = glb;
    return finish(&x, &doc, st, err);
}

blvl_status blvl_export_gltf(char **json, size_t *json_size, void **bin, size_t *bin_size,
                             blvl_level *level, const char *bin_uri, const blvl_export_options *xo,
                             blvl_error *err) {
    if (!json || !json_size || !bin || !bin_size || !bin_uri)
        return blvl__fail(err, BLVL_E_ARGUMENT, "export: no output");
    *json = NULL, *bin = NULL, *json_size = *bin_size = 0;
    gltf_export x;
    json_text doc;
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
