/* The level's records as entities (docs/IMPORT-RIOT.md, "Entities"), in this order: one
 * riot_level, one riot_database per database reference, one riot_layer per layer, one
 * riot_layer_group per group, one riot_object per object. Values follow bake_text.c's
 * convention. */
#include <stdio.h>
#include <string.h>

#include "bake_internal.h"
#include "common/alloc.h"
#include "common/error.h"

#define MAX_PAIRS 24 /* the most fixed pairs one entity gets (objects), before param.N */

typedef struct ents {
    riot_bake *c;
    rb_text v[MAX_PAIRS];
    blvl_bake_pair p[MAX_PAIRS];
    uint32_t n;
} ents;

/* The next pair's value buffer, emptied; its key set. */
static rb_text *pair(ents *e, const char *key) {
    rb_text *t = &e->v[e->n];
    blvl__import_riot_bake_text_reset(t);
    e->p[e->n].key = key;
    e->n++;
    return t;
}

static blvl_status emit(ents *e, const char *classname, const blvl_bake_pair *extra,
                        uint32_t extra_count, uint32_t *index) {
    for (uint32_t k = 0; k < e->n; k++) {
        if (e->v[k].bad)
            return blvl__nomem(e->c->err, "the bake's scratch memory");
        e->p[k].value = blvl__import_riot_bake_text_str(&e->v[k]);
    }
    blvl_status st;
    uint32_t idx;
    if (!extra_count)
        st = blvl_bake_add_entity(e->c->b, classname, e->p, e->n, index ? index : &idx, e->c->err);
    else {
        /* objects: the fixed pairs then one per parameter definition */
        size_t total = (size_t)e->n + extra_count;
        blvl_bake_pair *all = blvl__calloc_n(e->c->al, total, sizeof *all);
        if (!all)
            return blvl__nomem(e->c->err, "the bake's scratch memory");
        memcpy(all, e->p, e->n * sizeof *all);
        memcpy(all + e->n, extra, extra_count * sizeof *all);
        st = blvl_bake_add_entity(e->c->b, classname, all, (uint32_t)total, index ? index : &idx,
                                  e->c->err);
        blvl__dealloc(e->c->al, all, total * sizeof *all);
    }
    e->n = 0;
    return st;
}

static void color_hex(rb_text *t, blvl_riot_color col) {
    uint8_t raw[4] = {col.r, col.g, col.b, col.pad};
    blvl__import_riot_bake_text_hex(t, raw, 4);
}

static blvl_status level(ents *e) {
    const blvl_riot_level *lv = e->c->lv;
    blvl__import_riot_bake_text_escaped(pair(e, "name"), lv->name.text);
    blvl__import_riot_bake_text_add(pair(e, "max_width"), "%u", (unsigned)lv->max_width);
    blvl__import_riot_bake_text_add(pair(e, "max_height"), "%u", (unsigned)lv->max_height);
    blvl__import_riot_bake_text_add(pair(e, "layers_unknown"), "%u", (unsigned)lv->layers_unknown);
    blvl_status st = emit(e, "riot_level", NULL, 0, NULL);
    for (uint32_t i = 0; i < lv->dbref_count && st == BLVL_OK; i++) {
        const blvl_riot_dbref *d = &lv->dbrefs[i];
        blvl__import_riot_bake_text_add(pair(e, "index"), "%u", (unsigned)d->index);
        blvl__import_riot_bake_text_add(pair(e, "unknown"), "%u", (unsigned)d->unknown);
        blvl__import_riot_bake_text_escaped(pair(e, "path"), d->path.text);
        st = emit(e, "riot_database", NULL, 0, NULL);
    }
    return st;
}

static const char *type_word(uint32_t type) {
    return type == 0 ? "floor" : type == 1 ? "ceiling" : "between";
}

static blvl_status layers(ents *e) {
    const blvl_riot_level *lv = e->c->lv;
    blvl_status st = BLVL_OK;
    for (uint32_t l = 0; l < lv->layer_count && st == BLVL_OK; l++) {
        const blvl_riot_layer *L = &lv->layers[l];
        blvl__import_riot_bake_text_add(pair(e, "id"), "%u", (unsigned)L->id);
        blvl__import_riot_bake_text_add(pair(e, "index"), "%u", (unsigned)l);
        blvl__import_riot_bake_text_escaped(pair(e, "name"), L->name.text);
        blvl__import_riot_bake_text_add(pair(e, "type"), "%s", type_word(L->type));
        blvl__import_riot_bake_text_add(pair(e, "size"), "%u %u", (unsigned)L->width,
                                        (unsigned)L->height);
        blvl__import_riot_bake_text_add(pair(e, "origin_cells"), "%u %u", (unsigned)L->origin_x,
                                        (unsigned)L->origin_z);
        blvl__import_riot_bake_text_float(pair(e, "world_height"), L->world_height);
        blvl__import_riot_bake_text_add(pair(e, "flags"), "%u", (unsigned)L->flags);
        blvl__import_riot_bake_text_float(pair(e, "light_direction"), L->light_direction);
        blvl__import_riot_bake_text_float(pair(e, "light_ascension"), L->light_ascension);
        color_hex(pair(e, "light_color"), L->light_color);
        color_hex(pair(e, "ambient_color"), L->ambient_color);
        blvl__import_riot_bake_text_add(pair(e, "light_dropoff"), "%u", (unsigned)L->light_dropoff);
        rb_text *vis = pair(e, "visible_layers");
        for (uint32_t k = 0; k < L->visible_count; k++)
            blvl__import_riot_bake_text_add(vis, k ? " %u" : "%u", (unsigned)L->visible[k]);
        /* vertex types, one byte per vertex in file order; the constant byte only when one is
         * not the 1 every known file has */
        /* a layer without cells still has its (w + 1)(h + 1) vertices in the file */
        size_t nv = L->vertices ? ((size_t)L->width + 1) * ((size_t)L->height + 1) : 0;
        rb_text *types = pair(e, "vertex_types");
        bool other = false;
        for (size_t k = 0; k < nv && !types->bad; k++) {
            uint8_t ty = L->vertices[k].type;
            blvl__import_riot_bake_text_hex(types, &ty, 1);
            other = other || L->vertices[k].constant != 1;
        }
        if (other) {
            rb_text *cst = pair(e, "vertex_constants");
            for (size_t k = 0; k < nv && !cst->bad; k++) {
                uint8_t b = L->vertices[k].constant;
                blvl__import_riot_bake_text_hex(cst, &b, 1);
            }
        }
        st = emit(e, "riot_layer", NULL, 0, &e->c->layer_entity[l]);
    }
    return st;
}

static blvl_status groups(ents *e) {
    const blvl_riot_level *lv = e->c->lv;
    blvl_status st = BLVL_OK;
    for (uint32_t g = 0; lv->has_groups && g < lv->group_count && st == BLVL_OK; g++) {
        const blvl_riot_group *G = &lv->groups[g];
        blvl__import_riot_bake_text_escaped(pair(e, "name"), G->name.text);
        rb_text *ids = pair(e, "layers");
        for (uint32_t k = 0; G->layers && k < G->layer_count; k++)
            blvl__import_riot_bake_text_add(ids, k ? " %u" : "%u", (unsigned)G->layers[k]);
        st = emit(e, "riot_layer_group", NULL, 0, NULL);
    }
    return st;
}

static void vec3(rb_text *t, const float v[3], double scale) {
    for (int a = 0; a < 3; a++) {
        if (a)
            blvl__import_riot_bake_text_add(t, " ");
        blvl__import_riot_bake_text_float(t, (float)((double)v[a] * scale));
    }
}

static blvl_status objects(ents *e) {
    const blvl_riot_level *lv = e->c->lv;
    blvl_status st = BLVL_OK;
    rb_text defs = {.al = e->c->al};
    for (uint32_t i = 0; lv->has_objects && i < lv->object_count && st == BLVL_OK; i++) {
        const blvl_riot_object *o = &lv->objects[i];
        blvl__import_riot_bake_text_add(pair(e, "id"), "%u", (unsigned)o->id);
        blvl__import_riot_bake_text_add(pair(e, "index"), "%u", (unsigned)i);
        blvl__import_riot_bake_text_add(pair(e, "class_id"), "%u", (unsigned)o->class_id);
        blvl__import_riot_bake_text_add(pair(e, "class_db"), "%u", (unsigned)o->class_db);
        blvl__import_riot_bake_text_add(pair(e, "lighting_layer"), "%u",
                                        (unsigned)o->lighting_layer);
        vec3(pair(e, "origin"), o->position, RB_QU_PER_UNIT);
        vec3(pair(e, "position"), o->position, 1.0);
        rb_text *ang = pair(e, "angles");
        blvl__import_riot_bake_text_add(ang, "%u %u %u", (unsigned)o->rotation[0],
                                        (unsigned)o->rotation[1], (unsigned)o->rotation[2]);
        float one[3] = {1, 1, 1};
        vec3(pair(e, "scale"), (o->flags & BLVL_RIOT_SCALED) ? o->scale : one, 1.0);
        blvl__import_riot_bake_text_add(pair(e, "flags"), "0x%08x", (unsigned)o->flags);
        blvl__import_riot_bake_text_add(pair(e, "initial_events"), "%u",
                                        (unsigned)o->initial_event_count);
        rb_text *links = pair(e, "links");
        for (uint32_t k = 0; k < o->link_count; k++)
            blvl__import_riot_bake_text_add(links, k ? " %u" : "%u",
                                            (unsigned)lv->objects[o->links[k]].id);
        rb_text *data = pair(e, "param_data");
        for (uint32_t k = 0; k < o->data_size && !data->bad; k++) {
            uint32_t d = o->param_data[k];
            uint8_t le[4] = {(uint8_t)d, (uint8_t)(d >> 8), (uint8_t)(d >> 16), (uint8_t)(d >> 24)};
            blvl__import_riot_bake_text_hex(data, le, 4);
        }
        rb_text *idx = pair(e, "param_indices");
        for (uint32_t k = 0; k < o->param_count; k++)
            blvl__import_riot_bake_text_add(idx, k ? " %u" : "%u", (unsigned)o->param_indices[k]);
        /* one "param.K" = "<type> <name>" per definition, keys and values in one buffer */
        blvl_bake_pair *extra = NULL;
        size_t *koff = NULL;
        if (o->param_count) {
            extra = blvl__calloc_n(e->c->al, o->param_count, sizeof *extra);
            koff = blvl__calloc_n(e->c->al, 2 * (size_t)o->param_count, sizeof *koff);
            if (!extra || !koff)
                st = blvl__nomem(e->c->err, "the bake's scratch memory");
        }
        blvl__import_riot_bake_text_reset(&defs);
        for (uint32_t k = 0; k < o->param_count && st == BLVL_OK; k++) {
            koff[2 * k] = defs.n;
            blvl__import_riot_bake_text_add(&defs, "param.%u", (unsigned)k);
            blvl__import_riot_bake_text_add(&defs, "%c",
                                            0); /* placeholder, made a terminator below */
            koff[2 * k + 1] = defs.n;
            blvl__import_riot_bake_text_add(&defs, "%u ", (unsigned)o->param_defs[k].type);
            blvl__import_riot_bake_text_escaped(&defs, o->param_defs[k].name.text);
            blvl__import_riot_bake_text_add(&defs, "%c", 0);
        }
        if (st == BLVL_OK && defs.bad)
            st = blvl__nomem(e->c->err, "the bake's scratch memory");
        for (uint32_t k = 0; k < o->param_count && st == BLVL_OK; k++)
            extra[k] = (blvl_bake_pair){defs.p + koff[2 * k], defs.p + koff[2 * k + 1]};
        if (st == BLVL_OK)
            st = emit(e, "riot_object", extra, o->param_count, NULL);
        e->n = 0;
        if (extra)
            blvl__dealloc(e->c->al, extra, o->param_count * sizeof *extra);
        if (koff)
            blvl__dealloc(e->c->al, koff, 2 * (size_t)o->param_count * sizeof *koff);
    }
    blvl__import_riot_bake_text_free(&defs);
    return st;
}

blvl_status blvl__import_riot_bake_entities(riot_bake *c) {
    ents e = {0};
    e.c = c;
    for (int k = 0; k < MAX_PAIRS; k++)
        e.v[k].al = c->al;
    blvl_status st = level(&e);
    if (st == BLVL_OK)
        st = layers(&e);
    if (st == BLVL_OK)
        st = groups(&e);
    if (st == BLVL_OK)
        st = objects(&e);
    for (int k = 0; k < MAX_PAIRS; k++)
        blvl__import_riot_bake_text_free(&e.v[k]);
    return st;
}
