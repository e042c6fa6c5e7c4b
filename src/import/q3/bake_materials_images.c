/* Images of the materials, each added to the bake once: looked up as the engine does (the
 * extension swapped, image_size.c), TGA decoded to RGBA8 (stored as PNG by the bake), JPEG and
 * PNG carried with their size read from their headers. A name no file answers to is counted
 * once as missing; a file that does not read, once as bad; the material keeps its name. */
#include <string.h>

#include "bake_materials.h"
#include "blvl/sections/common.h"
#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"
#include "image_internal.h"

static const blvl_allocator *alloc_of(q3_materials *m) {
    return &m->c->opt->allocator;
}

static void lower(char *s) {
    for (; *s; s++)
        if (*s >= 'A' && *s <= 'Z')
            *s = (char)(*s + 32);
        else if (*s == '\\')
            *s = '/';
}

static q3m_image *cached(q3_materials *m, const char *key) {
    for (size_t i = 0; i < m->img_count; i++)
        if (!strcmp(m->img[i].key, key))
            return &m->img[i];
    return NULL;
}

static blvl_status remember(q3_materials *m, const char *key, uint32_t index) {
    if (m->img_count == m->img_cap) {
        void *n = m->img;
        if (!blvl__array_grow(alloc_of(m), &n, &m->img_cap, m->img_count, m->img_count + 1,
                              sizeof *m->img, 64))
            return blvl__nomem(m->c->err, "the bake's scratch memory");
        m->img = n;
    }
    char *k = blvl__strdup(alloc_of(m), key);
    if (!k)
        return blvl__nomem(m->c->err, "the bake's scratch memory");
    m->img[m->img_count].key = k;
    m->img[m->img_count].index = index;
    m->img_count++;
    return BLVL_OK;
}

/* Add the file `path` (found) to the bake. */
static blvl_status add_file(q3_materials *m, const char *path, uint32_t *index) {
    q3_ctx *c = m->c;
    *index = BLVL_BAKE_NONE;
    void *data = NULL;
    size_t size = 0;
    blvl_error e;
    blvl_status st = blvl_q3_fs_read(&data, &size, c->o->fs, path, &e);
    if (st == BLVL_E_NOMEM)
        return blvl__nomem(c->err, "the bake's scratch memory");
    if (st) { /* found but not readable (a bad archive entry): a bad image */
        c->report->bad_images++;
        return BLVL_OK;
    }
    uint32_t w = 0, h = 0;
    int kind = blvl__import_q3_img_kind(data, size);
    if (kind == Q3I_TGA) {
        uint8_t *rgba = NULL;
        st = blvl__import_q3_img_tga(data, size, path, alloc_of(m), &rgba, &w, &h, &e);
        if (st == BLVL_OK) {
            st = blvl_bake_add_image_rgba8(c->b, path, w, h, rgba, true, index, c->err);
            blvl__dealloc(alloc_of(m), rgba, (size_t)w * h * 4);
        }
    } else {
        st = kind == Q3I_JPEG ? blvl__import_q3_img_jpeg_size(data, size, path, &w, &h, &e)
                              : blvl__import_q3_img_png_size(data, size, path, &w, &h, &e);
        if (st == BLVL_OK)
            st = blvl_bake_add_image_encoded(c->b, path, w, h,
                                             kind == Q3I_JPEG ? blvl_ImageEncoding_Jpeg
                                                              : blvl_ImageEncoding_Png,
                                             blvl_ColorSpace_Srgb, data, size, index, c->err);
    }
    blvl_free(c->opt, data);
    if (st == BLVL_E_SOURCE) {
        c->report->bad_images++;
        *index = BLVL_BAKE_NONE;
        return BLVL_OK;
    }
    return st;
}

blvl_status blvl__import_q3_mat_image(q3_materials *m, const char *name, uint32_t *index) {
    q3_ctx *c = m->c;
    *index = BLVL_BAKE_NONE;
    if (!name || !*name)
        return BLVL_OK;
    char key[Q3I_MAX_NAME + 8], found[Q3I_MAX_NAME + 8];
    size_t n = strlen(name);
    if (n > Q3I_MAX_NAME) { /* no file can have it: missing, once */
        n = Q3I_MAX_NAME;
    }
    memcpy(key, name, n);
    key[n] = 0;
    lower(key);
    const q3m_image *hit = cached(m, key);
    if (hit) {
        *index = hit->index;
        return BLVL_OK;
    }
    blvl_status st;
    /* No search path: nothing is looked up, so every image is missing (the material keeps its
     * name); the report says so, and the caller can tell the user where images come from. */
    if (!c->o->fs || strlen(name) > Q3I_MAX_NAME ||
        !blvl__import_q3_img_find(c->o->fs, name, found, sizeof found)) {
        /* "x.tga" and "x" try the same files: one missing image. The stem's entry starts
         * with a byte no name holds. */
        char stem[Q3I_MAX_NAME + 8];
        stem[0] = 1;
        memcpy(stem + 1, key, strlen(key) + 1);
        char *dot = strrchr(stem, '.');
        if (dot && !strchr(dot, '/') &&
            (!strcmp(dot, ".tga") || !strcmp(dot, ".jpg") || !strcmp(dot, ".jpeg") ||
             !strcmp(dot, ".png")))
            *dot = 0;
        if (!cached(m, stem)) {
            c->report->missing_images++;
            if ((st = remember(m, stem, BLVL_BAKE_NONE)))
                return st;
        }
        return remember(m, key, BLVL_BAKE_NONE);
    }
    lower(found);
    hit = cached(m, found); /* "x.tga" and "x" can name one file */
    if (hit) {
        *index = hit->index;
        return remember(m, key, hit->index);
    }
    if ((st = add_file(m, found, index)))
        return st;
    if ((st = remember(m, found, *index)))
        return st;
    return strcmp(found, key) ? remember(m, key, *index) : BLVL_OK;
}

blvl_status blvl__import_q3_mat_pixels(q3_materials *m, const char *name, uint8_t **rgba,
                                       uint32_t *w, uint32_t *h) {
    q3_ctx *c = m->c;
    *rgba = NULL;
    *w = *h = 0;
    char found[Q3I_MAX_NAME + 8];
    if (!c->o->fs || !name || !blvl__import_q3_img_find(c->o->fs, name, found, sizeof found))
        return BLVL_OK;
    void *data = NULL;
    size_t size = 0;
    blvl_error e;
    blvl_status st = blvl_q3_fs_read(&data, &size, c->o->fs, found, &e);
    if (st == BLVL_E_NOMEM)
        return blvl__nomem(c->err, "the bake's scratch memory");
    if (st)
        return BLVL_OK;
    st = blvl__import_q3_img_decode(data, size, found, alloc_of(m), rgba, w, h, &e);
    blvl_free(c->opt, data);
    if (st == BLVL_E_NOMEM)
        return blvl__nomem(c->err, "the bake's scratch memory");
    return BLVL_OK;
}

blvl_status blvl__import_q3_mat_keyword(q3_materials *m, const char *text) {
    size_t n = strcspn(text, " ");
    char word[64];
    if (n >= sizeof word)
        n = sizeof word - 1;
    memcpy(word, text, n);
    word[n] = 0;
    lower(word);
    for (size_t i = 0; i < m->kw_count; i++)
        if (!strcmp(m->kw[i], word))
            return BLVL_OK;
    if (m->kw_count == m->kw_cap) {
        void *k = m->kw;
        if (!blvl__array_grow(alloc_of(m), &k, &m->kw_cap, m->kw_count, m->kw_count + 1,
                              sizeof *m->kw, 32))
            return blvl__nomem(m->c->err, "the bake's scratch memory");
        m->kw = k;
    }
    if (!(m->kw[m->kw_count] = blvl__strdup(alloc_of(m), word)))
        return blvl__nomem(m->c->err, "the bake's scratch memory");
    m->kw_count++;
    m->c->report->unknown_keywords++;
    return BLVL_OK;
}

void blvl__import_q3_mat_images_free(q3_materials *m) {
    for (size_t i = 0; i < m->img_count; i++)
        blvl__free_sized(alloc_of(m), m->img[i].key);
    if (m->img)
        blvl__dealloc(alloc_of(m), m->img, m->img_cap * sizeof *m->img);
    for (size_t i = 0; i < m->kw_count; i++)
        blvl__free_sized(alloc_of(m), m->kw[i]);
    if (m->kw)
        blvl__dealloc(alloc_of(m), m->kw, m->kw_cap * sizeof *m->kw);
}
