/* The Riot level generator (tests/support/riot_gen.h). */
#include "riot_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t next(rng *r) {
    /* splitmix64: small, and the same on every platform */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}
static uint32_t below(rng *r, uint32_t n) {
    return n ? next(r) % n : 0;
}
static float frac(rng *r) {
    return (float)(next(r) >> 8) / (float)(1u << 24);
}

uint16_t riot_gen_str_size(const char *text) {
    size_t n = strlen(text);
    return (uint16_t)(n + (n & 1));
}

static int str(blvl_riot_str *s, const char *text) {
    s->text = malloc(strlen(text) + 1);
    if (!s->text)
        return -1;
    strcpy(s->text, text);
    s->size = riot_gen_str_size(text);
    s->bytes = NULL;
    return 0;
}

/* Names of odd and even lengths in turn. */
static int name(blvl_riot_str *s, const char *stem, uint32_t i, rng *r) {
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%s_%u", stem, i);
    if (below(r, 2) && n < 60)
        strcat(buf, "x");
    return str(s, buf);
}

static void *arr(size_t n, size_t elem) {
    return n ? calloc(n, elem) : NULL;
}

static int layer(const riot_gen_opts *o, rng *r, uint32_t i, uint32_t count, blvl_riot_layer *l) {
    l->id = 100 + 7 * i;
    l->width = o->width ? o->width : 2 + below(r, 5);
    l->height = o->height ? o->height : 2 + below(r, 5);
    l->type = i % 3;
    l->origin_x = below(r, 40);
    l->origin_z = below(r, 40);
    l->world_height = (float)((int)below(r, 4000) - 2000) + 0.25f;
    if (name(&l->name, "layer", i, r))
        return -1;
    l->flags = i % 2 ? 2 : 0;
    l->light_direction = frac(r) * 6.2831853f;
    l->light_ascension = frac(r) * 1.5707963f;
    l->light_color = (blvl_riot_color){(uint8_t)next(r), (uint8_t)next(r), (uint8_t)next(r), 0};
    l->ambient_color = (blvl_riot_color){(uint8_t)next(r), (uint8_t)next(r), (uint8_t)next(r), 0};
    l->light_dropoff = below(r, 5);
    l->visible_count = below(r, count + 1);
    l->visible = arr(l->visible_count, sizeof *l->visible);
    if (l->visible_count && !l->visible)
        return -1;
    for (uint32_t k = 0; k < l->visible_count; k++)
        l->visible[k] = below(r, count);
    size_t nv = ((size_t)l->width + 1) * ((size_t)l->height + 1);
    size_t nc = (size_t)l->width * l->height;
    l->vertices = arr(nv, sizeof *l->vertices);
    l->cells = arr(nc, sizeof *l->cells);
    if (!l->vertices || (nc && !l->cells))
        return -1;
    for (size_t k = 0; k < nv; k++) {
        l->vertices[k].type = o->flat ? 0 : (uint8_t)(below(r, 3) ? 0 : below(r, 76));
        l->vertices[k].constant = 1;
        l->vertices[k].raw_height = o->flat ? 0x8000 : (uint16_t)(0x8000 - 300 + below(r, 601));
    }
    for (size_t k = 0; k < nc; k++) {
        blvl_riot_cell *c = &l->cells[k];
        c->flags = (uint16_t)((k + i) % 2 | (o->flat ? 0 : below(r, 4) << 1));
        for (int t = 0; t < 2; t++) {
            uint32_t pick = below(r, 10);
            c->texture[t] = o->flat     ? 5u | 1u << 16
                            : pick == 0 ? BLVL_RIOT_HOLE
                            : pick == 1 ? BLVL_RIOT_INVISIBLE
                                        : below(r, 20) | below(r, 3) << 16;
        }
        for (int u = 0; u < 8; u++)
            c->uv[u] = (uint16_t)(u < 4 ? (u & 1 ? 0xFFFF : 0) : next(r));
    }
    return 0;
}

static int object(rng *r, uint32_t i, uint32_t count, blvl_riot_object *b) {
    b->id = 1000 + 3 * i;
    b->class_id = (uint16_t)below(r, 500);
    b->class_db = (uint16_t)below(r, 3);
    b->lighting_layer = 100 + 7 * below(r, 3);
    for (int k = 0; k < 3; k++)
        b->position[k] = (float)((int)below(r, 100000) - 50000) / 4.0f;
    b->flags = (i % 2 ? BLVL_RIOT_SCALED : 0) | below(r, 2);
    b->initial_event_count = (uint16_t)below(r, 3);
    b->link_count = (uint16_t)below(r, 4);
    b->links = arr(b->link_count, sizeof *b->links);
    if (b->link_count && !b->links)
        return -1;
    for (uint32_t k = 0; k < b->link_count; k++)
        b->links[k] = (uint16_t)below(r, count);
    for (int k = 0; k < 3; k++)
        b->rotation[k] = (uint16_t)below(r, 360);
    for (int k = 0; k < 3; k++)
        b->scale[k] = b->flags & BLVL_RIOT_SCALED ? 0.5f + frac(r) * 2 : 1.0f;
    b->data_size = below(r, 6);
    b->param_count = below(r, 4);
    b->param_data = arr(b->data_size, sizeof *b->param_data);
    b->param_indices = arr(b->param_count, sizeof *b->param_indices);
    b->param_defs = arr(b->param_count, sizeof *b->param_defs);
    if ((b->data_size && !b->param_data) ||
        (b->param_count && (!b->param_indices || !b->param_defs)))
        return -1;
    for (uint32_t k = 0; k < b->data_size; k++)
        b->param_data[k] = next(r);
    for (uint32_t k = 0; k < b->param_count; k++) {
        b->param_indices[k] = (uint16_t)below(r, 40);
        b->param_defs[k].type = below(r, 8);
        if (name(&b->param_defs[k].name, "param", k, r))
            return -1;
    }
    return 0;
}

static int container(const blvl_riot_level *l, blvl_riot_level *out) {
    blvl_riot_srsc *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    out->srsc = c;
    c->version = 0x0100;
    c->dir_offset = 30; /* non-zero: the offsets below order the file */
    static const uint16_t types[5] = {BLVL_RIOT_OBJECTS, 0x0042, BLVL_RIOT_GROUPS, BLVL_RIOT_LEVEL,
                                      BLVL_RIOT_LAYERS};
    static const uint32_t keys[5] = {70, 60, 80, 50, 10};
    c->records = calloc(5, sizeof *c->records);
    c->fills = calloc(4, sizeof *c->fills);
    if (!c->records || !c->fills)
        return -1;
    uint16_t n = 0;
    for (int k = 0; k < 5; k++) {
        if ((types[k] == BLVL_RIOT_OBJECTS && !l->has_objects) ||
            (types[k] == BLVL_RIOT_GROUPS && !l->has_groups))
            continue;
        blvl_riot_record *rec = &c->records[n++];
        rec->type = types[k];
        rec->id = (uint16_t)(k + 1);
        rec->group = (uint16_t)(types[k] == 0x0042 ? 9 : 0);
        rec->offset = keys[k];
        if (types[k] == 0x0042) {
            rec->size = 5;
            rec->bytes = malloc(5);
            if (!rec->bytes)
                return -1;
            memcpy(rec->bytes, "hello", 5);
        }
    }
    c->record_count = n;
    static const uint32_t fill_keys[4] = {5, 20, 40, 90}, fill_sizes[4] = {1, 3, 1, 5};
    c->fill_count = 4;
    for (int k = 0; k < 4; k++) {
        c->fills[k].offset = fill_keys[k];
        c->fills[k].size = fill_sizes[k];
        c->fills[k].bytes = malloc(fill_sizes[k]);
        if (!c->fills[k].bytes)
            return -1;
        memset(c->fills[k].bytes, 0xA0 + k, fill_sizes[k]);
    }
    return 0;
}

static int build(const riot_gen_opts *o, blvl_riot_level *l) {
    rng r = {o->seed * 2654435761u + 17};
    if (str(&l->name, o->seed % 2 ? "Riot test level" : "Riot test level!"))
        return -1;
    l->max_width = 64;
    l->max_height = 64;
    l->dbref_count = 3;
    l->dbrefs = arr(3, sizeof *l->dbrefs);
    if (!l->dbrefs)
        return -1;
    static const char *paths[3] = {"level.db", "common/textures.adb", "Models/rocks.rrc"};
    for (uint32_t i = 0; i < 3; i++) {
        l->dbrefs[i].index = (uint16_t)(i + 1);
        l->dbrefs[i].unknown = (uint16_t)(0xBEE0 + i);
        if (str(&l->dbrefs[i].path, paths[i]))
            return -1;
    }
    l->layer_count = o->layers ? o->layers : 3;
    l->layers = arr(l->layer_count, sizeof *l->layers);
    if (!l->layers)
        return -1;
    for (uint32_t i = 0; i < l->layer_count; i++)
        if (layer(o, &r, i, l->layer_count, &l->layers[i]))
            return -1;
    l->layers_unknown = 1;
    l->has_groups = !o->no_groups;
    if (l->has_groups) {
        l->group_count = 2;
        l->groups = arr(2, sizeof *l->groups);
        if (!l->groups)
            return -1;
        for (uint32_t g = 0; g < 2; g++) {
            blvl_riot_group *gr = &l->groups[g];
            if (str(&gr->name, g ? "Caves" : "Out"))
                return -1;
            gr->layer_count = (l->layer_count + 1 - g) / 2;
            gr->layers = arr(gr->layer_count, sizeof *gr->layers);
            if (gr->layer_count && !gr->layers)
                return -1;
            for (uint32_t k = 0; k < gr->layer_count; k++)
                gr->layers[k] = l->layers[2 * k + g].id;
        }
    }
    l->has_objects = o->objects > 0;
    l->object_count = (uint16_t)o->objects;
    l->objects = arr(o->objects, sizeof *l->objects);
    if (o->objects && !l->objects)
        return -1;
    for (uint32_t i = 0; i < o->objects; i++)
        if (object(&r, i, o->objects, &l->objects[i]))
            return -1;
    return o->unusual ? container(l, l) : 0;
}

int riot_gen_build(const riot_gen_opts *o, blvl_riot_level *l) {
    memset(l, 0, sizeof *l);
    if (build(o, l)) {
        riot_gen_free(l);
        return -1;
    }
    return 0;
}

static void str_free(blvl_riot_str *s) {
    free(s->text);
    free(s->bytes);
}

void riot_gen_free(blvl_riot_level *l) {
    str_free(&l->name);
    for (uint32_t i = 0; l->dbrefs && i < l->dbref_count; i++)
        str_free(&l->dbrefs[i].path);
    free(l->dbrefs);
    for (uint32_t i = 0; l->layers && i < l->layer_count; i++) {
        blvl_riot_layer *y = &l->layers[i];
        str_free(&y->name);
        free(y->visible);
        free(y->compressed);
        free(y->vertices);
        free(y->cells);
    }
    free(l->layers);
    for (uint32_t i = 0; l->groups && i < l->group_count; i++) {
        str_free(&l->groups[i].name);
        free(l->groups[i].layers);
    }
    free(l->groups);
    for (uint32_t i = 0; l->objects && i < l->object_count; i++) {
        blvl_riot_object *b = &l->objects[i];
        free(b->links);
        free(b->param_data);
        free(b->param_indices);
        for (uint32_t k = 0; b->param_defs && k < b->param_count; k++)
            str_free(&b->param_defs[k].name);
        free(b->param_defs);
    }
    free(l->objects);
    if (l->srsc) {
        for (uint32_t i = 0; l->srsc->records && i < l->srsc->record_count; i++)
            free(l->srsc->records[i].bytes);
        free(l->srsc->records);
        for (uint32_t i = 0; l->srsc->fills && i < l->srsc->fill_count; i++)
            free(l->srsc->fills[i].bytes);
        free(l->srsc->fills);
        free(l->srsc);
    }
    memset(l, 0, sizeof *l);
}

/* ---- comparison ------------------------------------------------------------------------ */

#define DIFF(cond, ...)                                                                            \
    do {                                                                                           \
        if (cond) {                                                                                \
            snprintf(why, n, __VA_ARGS__);                                                         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static int str_diff(const blvl_riot_str *a, const blvl_riot_str *b) {
    const char *ta = a->text ? a->text : "", *tb = b->text ? b->text : "";
    return strcmp(ta, tb) != 0 || a->size != b->size;
}
static int f_diff(float a, float b) {
    return memcmp(&a, &b, sizeof a) != 0;
}
static int mem_diff(const void *a, const void *b, size_t bytes) {
    if (!bytes)
        return 0;
    if (!a || !b)
        return 1;
    return memcmp(a, b, bytes) != 0;
}

static int layer_cmp(const blvl_riot_layer *a, const blvl_riot_layer *b, uint32_t i, char *why,
                     size_t n) {
    DIFF(a->id != b->id || a->width != b->width || a->height != b->height || a->type != b->type ||
             a->origin_x != b->origin_x || a->origin_z != b->origin_z,
         "layer[%u] header", i);
    DIFF(f_diff(a->world_height, b->world_height), "layer[%u].worldHeight", i);
    DIFF(str_diff(&a->name, &b->name), "layer[%u].name", i);
    DIFF(a->flags != b->flags || a->light_dropoff != b->light_dropoff, "layer[%u].flags", i);
    DIFF(f_diff(a->light_direction, b->light_direction) ||
             f_diff(a->light_ascension, b->light_ascension),
         "layer[%u] light angles", i);
    DIFF(memcmp(&a->light_color, &b->light_color, 4) ||
             memcmp(&a->ambient_color, &b->ambient_color, 4),
         "layer[%u] colours", i);
    DIFF(a->visible_count != b->visible_count ||
             mem_diff(a->visible, b->visible, 4ull * a->visible_count),
         "layer[%u].visible", i);
    size_t nv = ((size_t)a->width + 1) * ((size_t)a->height + 1);
    for (size_t k = 0; k < nv; k++) {
        const blvl_riot_vertex *x = &a->vertices[k], *y = &b->vertices[k];
        DIFF(x->type != y->type || x->constant != y->constant || x->raw_height != y->raw_height,
             "layer[%u].vertex[%zu]", i, k);
    }
    size_t nc = (size_t)a->width * a->height;
    for (size_t k = 0; k < nc; k++) {
        const blvl_riot_cell *x = &a->cells[k], *y = &b->cells[k];
        DIFF(x->flags != y->flags || x->texture[0] != y->texture[0] ||
                 x->texture[1] != y->texture[1] || memcmp(x->uv, y->uv, sizeof x->uv),
             "layer[%u].cell[%zu]", i, k);
    }
    return 0;
}

static int object_cmp(const blvl_riot_object *a, const blvl_riot_object *b, uint32_t i, char *why,
                      size_t n) {
    DIFF(a->id != b->id || a->class_id != b->class_id || a->class_db != b->class_db ||
             a->lighting_layer != b->lighting_layer || a->flags != b->flags ||
             a->initial_event_count != b->initial_event_count,
         "object[%u] header", i);
    for (int k = 0; k < 3; k++)
        DIFF(f_diff(a->position[k], b->position[k]) || f_diff(a->scale[k], b->scale[k]) ||
                 a->rotation[k] != b->rotation[k],
             "object[%u] placement", i);
    DIFF(a->link_count != b->link_count || mem_diff(a->links, b->links, 2ull * a->link_count),
         "object[%u].links", i);
    DIFF(a->data_size != b->data_size ||
             mem_diff(a->param_data, b->param_data, 4ull * a->data_size),
         "object[%u].paramData", i);
    DIFF(a->param_count != b->param_count ||
             mem_diff(a->param_indices, b->param_indices, 2ull * a->param_count),
         "object[%u].paramIndices", i);
    for (uint32_t k = 0; k < a->param_count; k++)
        DIFF(a->param_defs[k].type != b->param_defs[k].type ||
                 str_diff(&a->param_defs[k].name, &b->param_defs[k].name),
             "object[%u].paramDef[%u]", i, k);
    return 0;
}

int riot_gen_compare(const blvl_riot_level *a, const blvl_riot_level *b, char *why, size_t n) {
    DIFF(str_diff(&a->name, &b->name), "name \"%s\" vs \"%s\"", a->name.text, b->name.text);
    DIFF(a->max_width != b->max_width || a->max_height != b->max_height, "max size");
    DIFF(a->dbref_count != b->dbref_count, "dbref count");
    for (uint32_t i = 0; i < a->dbref_count; i++)
        DIFF(a->dbrefs[i].index != b->dbrefs[i].index ||
                 a->dbrefs[i].unknown != b->dbrefs[i].unknown ||
                 str_diff(&a->dbrefs[i].path, &b->dbrefs[i].path),
             "dbRef[%u]", i);
    DIFF(a->layer_count != b->layer_count || a->layers_unknown != b->layers_unknown,
         "layer count / unknown");
    for (uint32_t i = 0; i < a->layer_count; i++)
        if (layer_cmp(&a->layers[i], &b->layers[i], i, why, n))
            return 1;
    DIFF(a->has_groups != b->has_groups || a->group_count != b->group_count, "groups");
    for (uint32_t i = 0; i < a->group_count; i++)
        DIFF(
            str_diff(&a->groups[i].name, &b->groups[i].name) ||
                a->groups[i].layer_count != b->groups[i].layer_count ||
                mem_diff(a->groups[i].layers, b->groups[i].layers, 4ull * a->groups[i].layer_count),
            "group[%u]", i);
    DIFF(a->has_objects != b->has_objects || a->object_count != b->object_count, "objects");
    for (uint32_t i = 0; i < a->object_count; i++)
        if (object_cmp(&a->objects[i], &b->objects[i], i, why, n))
            return 1;
    return 0;
}
