/* Riot levels built by hand for the bake's tests and benchmark (no reader involved): layers
 * with every vertex and cell set, objects, groups, database references. Memory from malloc;
 * riot_hand_free releases what these functions made. */
#ifndef BLVL_TEST_RIOT_HAND_H
#define BLVL_TEST_RIOT_HAND_H

#include <stdlib.h>
#include <string.h>

#include "blvl/riot.h"

static inline void *riot_hand_calloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        abort();
    return p;
}

static inline blvl_riot_str riot_hand_str(const char *s) {
    blvl_riot_str r;
    size_t n = strlen(s);
    r.size = (uint16_t)(n + (n & 1));
    r.text = riot_hand_calloc(n + 1, 1);
    memcpy(r.text, s, n);
    r.bytes = riot_hand_calloc(r.size + 1u, 1);
    memcpy(r.bytes, s, n);
    return r;
}

static inline void riot_hand_str_free(blvl_riot_str *s) {
    free(s->text);
    free(s->bytes);
}

/* A layer of w x h cells, every vertex at raw height 0x8000 (offset 0), constant byte 1, every
 * cell division 0 with both triangles `ref` and uv a=(0,0) b=(1,0) c=(0,1) d=(1,1). */
static inline void riot_hand_layer(blvl_riot_layer *l, uint32_t id, uint32_t type, uint32_t w,
                                   uint32_t h, uint32_t ox, uint32_t oz, float world_height,
                                   uint32_t ref) {
    memset(l, 0, sizeof *l);
    l->id = id;
    l->type = type;
    l->width = w;
    l->height = h;
    l->origin_x = ox;
    l->origin_z = oz;
    l->world_height = world_height;
    l->name = riot_hand_str("layer");
    l->light_ascension = 1.5707964f;
    l->light_color = (blvl_riot_color){255, 255, 255, 0};
    size_t nv = ((size_t)w + 1) * ((size_t)h + 1), nc = (size_t)w * h;
    l->vertices = riot_hand_calloc(nv, sizeof *l->vertices);
    l->cells = riot_hand_calloc(nc, sizeof *l->cells);
    for (size_t i = 0; i < nv; i++)
        l->vertices[i] = (blvl_riot_vertex){0, 1, 0x8000};
    for (size_t i = 0; i < nc; i++) {
        blvl_riot_cell *c = &l->cells[i];
        c->flags = 0;
        c->texture[0] = c->texture[1] = ref;
        /* Uc Ud Ub Ua Vc Vd Vb Va */
        const uint16_t uv[8] = {0, 0xFFFF, 0xFFFF, 0, 0xFFFF, 0xFFFF, 0, 0};
        memcpy(c->uv, uv, sizeof uv);
    }
}

static inline blvl_riot_vertex *riot_hand_vertex(blvl_riot_layer *l, uint32_t row, uint32_t col) {
    return &l->vertices[(size_t)row * (l->width + 1) + col];
}

static inline blvl_riot_cell *riot_hand_cell(blvl_riot_layer *l, uint32_t row, uint32_t col) {
    return &l->cells[(size_t)row * l->width + col];
}

static inline void riot_hand_free(blvl_riot_level *lv) {
    riot_hand_str_free(&lv->name);
    for (uint32_t i = 0; i < lv->dbref_count; i++)
        riot_hand_str_free(&lv->dbrefs[i].path);
    free(lv->dbrefs);
    for (uint32_t i = 0; i < lv->layer_count; i++) {
        blvl_riot_layer *l = &lv->layers[i];
        riot_hand_str_free(&l->name);
        free(l->visible);
        free(l->vertices);
        free(l->cells);
    }
    free(lv->layers);
    for (uint32_t i = 0; i < lv->group_count; i++) {
        riot_hand_str_free(&lv->groups[i].name);
        free(lv->groups[i].layers);
    }
    free(lv->groups);
    for (uint32_t i = 0; i < lv->object_count; i++) {
        blvl_riot_object *o = &lv->objects[i];
        free(o->links);
        free(o->param_data);
        free(o->param_indices);
        for (uint32_t k = 0; k < o->param_count; k++)
            riot_hand_str_free(&o->param_defs[k].name);
        free(o->param_defs);
    }
    free(lv->objects);
    memset(lv, 0, sizeof *lv);
}

#endif
