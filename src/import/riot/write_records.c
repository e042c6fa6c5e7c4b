/* The four record bodies from a level's fields: their sizes, then their bytes, one truth for
 * both (the writer allocates once). Counts are written as they stand; an array that is NULL
 * contributes no elements, so a hand-built level can say what a reader would refuse. */
#include <string.h>

#include "blvl/le.h"
#include "import/riot/riot_internal.h"

/* A string's stored bytes: `bytes` when set, else the text with one zero after an odd one. */
static uint32_t str_size(const blvl_riot_str *s) {
    if (s->bytes)
        return s->size;
    size_t n = s->text ? strlen(s->text) : 0;
    return (uint32_t)(n + (n & 1));
}

static uint64_t size_level(const blvl_riot_level *l) {
    uint64_t n = 2 + str_size(&l->name) + 12;
    for (uint32_t i = 0; l->dbrefs && i < l->dbref_count; i++)
        n += 4 + 2 + str_size(&l->dbrefs[i].path);
    return n;
}

static uint64_t size_layers(const blvl_riot_level *l, const rt_deflated *d) {
    uint64_t n = 4 + 4;
    for (uint32_t i = 0; l->layers && i < l->layer_count; i++) {
        const blvl_riot_layer *y = &l->layers[i];
        n += 28 + 2 + str_size(&y->name) + 28;
        if (y->visible)
            n += 4ull * y->visible_count;
        n += 4 + (y->compressed ? y->compressed_size : d->size[i]);
    }
    return n;
}

static uint64_t size_groups(const blvl_riot_level *l) {
    uint64_t n = 4;
    for (uint32_t i = 0; l->groups && i < l->group_count; i++) {
        n += 2 + str_size(&l->groups[i].name) + 4;
        if (l->groups[i].layers)
            n += 4ull * l->groups[i].layer_count;
    }
    return n;
}

static uint64_t size_objects(const blvl_riot_level *l) {
    uint64_t n = 2;
    for (uint32_t i = 0; l->objects && i < l->object_count; i++) {
        const blvl_riot_object *o = &l->objects[i];
        n += 46 + (o->flags & BLVL_RIOT_SCALED ? 12 : 0);
        if (o->links)
            n += 2ull * o->link_count;
        if (o->param_data)
            n += 4ull * o->data_size;
        if (o->param_indices)
            n += 2ull * o->param_count;
        for (uint32_t k = 0; o->param_defs && k < o->param_count; k++)
            n += 4 + 2 + str_size(&o->param_defs[k].name);
    }
    return n;
}

uint64_t blvl__import_riot_size_record(const blvl_riot_level *level, uint16_t type,
                                       const rt_deflated *d) {
    switch (type) {
    case BLVL_RIOT_LEVEL:
        return size_level(level);
    case BLVL_RIOT_LAYERS:
        return size_layers(level, d);
    case BLVL_RIOT_GROUPS:
        return size_groups(level);
    default:
        return size_objects(level);
    }
}

typedef struct out {
    uint8_t *p;
} out;

static void u8(out *o, uint8_t v) {
    *o->p++ = v;
}
static void u16(out *o, uint16_t v) {
    blvl_le_put16(o->p, v);
    o->p += 2;
}
static void u32(out *o, uint32_t v) {
    blvl_le_put32(o->p, v);
    o->p += 4;
}
static void f32(out *o, float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u32(o, u);
}
static void bytes(out *o, const void *b, size_t n) {
    if (n)
        memcpy(o->p, b, n);
    o->p += n;
}
static void str(out *o, const blvl_riot_str *s) {
    uint32_t n = str_size(s);
    u16(o, (uint16_t)n);
    if (s->bytes) {
        bytes(o, s->bytes, n);
        return;
    }
    size_t t = s->text ? strlen(s->text) : 0;
    bytes(o, s->text, t);
    if (t & 1)
        u8(o, 0);
}
static void color(out *o, blvl_riot_color c) {
    u8(o, c.r), u8(o, c.g), u8(o, c.b), u8(o, c.pad);
}

static void enc_level(out *o, const blvl_riot_level *l) {
    str(o, &l->name);
    u32(o, l->max_width);
    u32(o, l->max_height);
    u32(o, l->dbref_count);
    for (uint32_t i = 0; l->dbrefs && i < l->dbref_count; i++) {
        u16(o, l->dbrefs[i].index);
        u16(o, l->dbrefs[i].unknown);
        str(o, &l->dbrefs[i].path);
    }
}

static void enc_layers(out *o, const blvl_riot_level *l, const rt_deflated *d) {
    u32(o, l->layer_count);
    for (uint32_t i = 0; l->layers && i < l->layer_count; i++) {
        const blvl_riot_layer *y = &l->layers[i];
        u32(o, y->id), u32(o, y->width), u32(o, y->height), u32(o, y->type);
        u32(o, y->origin_x), u32(o, y->origin_z);
        f32(o, y->world_height);
        str(o, &y->name);
        u32(o, y->flags);
        f32(o, y->light_direction);
        f32(o, y->light_ascension);
        color(o, y->light_color);
        color(o, y->ambient_color);
        u32(o, y->light_dropoff);
        u32(o, y->visible_count);
        for (uint32_t k = 0; y->visible && k < y->visible_count; k++)
            u32(o, y->visible[k]);
    }
    u32(o, l->layers_unknown);
    for (uint32_t i = 0; l->layers && i < l->layer_count; i++) {
        const blvl_riot_layer *y = &l->layers[i];
        if (y->compressed) {
            u32(o, y->compressed_size);
            bytes(o, y->compressed, y->compressed_size);
        } else {
            u32(o, d->size[i]);
            bytes(o, d->bytes[i], d->size[i]);
        }
    }
}

static void enc_groups(out *o, const blvl_riot_level *l) {
    u32(o, l->group_count);
    for (uint32_t i = 0; l->groups && i < l->group_count; i++) {
        const blvl_riot_group *g = &l->groups[i];
        str(o, &g->name);
        u32(o, g->layer_count);
        for (uint32_t k = 0; g->layers && k < g->layer_count; k++)
            u32(o, g->layers[k]);
    }
}

static void enc_objects(out *o, const blvl_riot_level *l) {
    u16(o, l->object_count);
    for (uint32_t i = 0; l->objects && i < l->object_count; i++) {
        const blvl_riot_object *b = &l->objects[i];
        u32(o, b->id);
        u16(o, b->class_id), u16(o, b->class_db);
        u32(o, b->lighting_layer);
        f32(o, b->position[0]), f32(o, b->position[1]), f32(o, b->position[2]);
        u32(o, b->flags);
        u16(o, b->initial_event_count);
        u16(o, b->link_count);
        for (uint32_t k = 0; b->links && k < b->link_count; k++)
            u16(o, b->links[k]);
        u16(o, b->rotation[0]), u16(o, b->rotation[1]), u16(o, b->rotation[2]);
        if (b->flags & BLVL_RIOT_SCALED)
            f32(o, b->scale[0]), f32(o, b->scale[1]), f32(o, b->scale[2]);
        u32(o, b->data_size);
        u32(o, b->param_count);
        for (uint32_t k = 0; b->param_data && k < b->data_size; k++)
            u32(o, b->param_data[k]);
        for (uint32_t k = 0; b->param_indices && k < b->param_count; k++)
            u16(o, b->param_indices[k]);
        for (uint32_t k = 0; b->param_defs && k < b->param_count; k++) {
            u32(o, b->param_defs[k].type);
            str(o, &b->param_defs[k].name);
        }
    }
}

void blvl__import_riot_encode_record(const blvl_riot_level *level, uint16_t type,
                                     const rt_deflated *d, uint8_t *p) {
    out o = {p};
    switch (type) {
    case BLVL_RIOT_LEVEL:
        enc_level(&o, level);
        break;
    case BLVL_RIOT_LAYERS:
        enc_layers(&o, level, d);
        break;
    case BLVL_RIOT_GROUPS:
        enc_groups(&o, level);
        break;
    default:
        enc_objects(&o, level);
    }
}
