/* blvl_q3_bake: the order of the steps (bake_internal.h), meta and the entities verbatim. */
#include <string.h>

#include "bake_internal.h"
#include "blvl/sections/meta.h"
#include "common/alloc.h"
#include "common/error.h"

/* The steps after the entities, in the order bake_internal.h gives. */
static blvl_status (*const steps[])(q3_ctx *) = {
    blvl__import_q3_mat_materials, blvl__import_q3_light_lighting,
    blvl__import_q3_ent_entities,  blvl__import_q3_coll_colliders,
    blvl__import_q3_geo_geometry,  NULL, /* the list ends at the first NULL */
};

/* Entities verbatim: classname apart, every other pair in order, repeats kept. */
static blvl_status add_entities(q3_ctx *c) {
    const blvl_allocator *a = &c->opt->allocator;
    uint32_t n = c->ents.count;
    c->entity_index = blvl__calloc_n(a, n ? n : 1, sizeof *c->entity_index);
    if (!c->entity_index)
        return blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t i = 0; i < n; i++) {
        const blvl_q3_entity *e = &c->ents.items[i];
        blvl_bake_pair *pairs = blvl__calloc_n(a, e->pair_count ? e->pair_count : 1, sizeof *pairs);
        if (!pairs)
            return blvl__nomem(c->err, "the bake's scratch memory");
        uint32_t k = 0;
        const char *classname = NULL;
        for (uint32_t j = 0; j < e->pair_count; j++) {
            if (!classname && !strcmp(e->pairs[j].key, "classname")) {
                classname = e->pairs[j].value;
                continue;
            }
            pairs[k].key = e->pairs[j].key;
            pairs[k].value = e->pairs[j].value;
            k++;
        }
        blvl_status st =
            blvl_bake_add_entity(c->b, classname, pairs, k, &c->entity_index[i], c->err);
        blvl__dealloc(a, pairs, (size_t)(e->pair_count ? e->pair_count : 1) * sizeof *pairs);
        if (st)
            return st;
    }
    c->world = n ? &c->ents.items[0] : NULL;
    return BLVL_OK;
}

static blvl_status set_meta(q3_ctx *c) {
    const char *msg = c->world ? blvl_q3_entity_get(c->world, "message") : NULL;
    const char *name = msg && *msg ? msg : c->o->map_name;
    blvl_bake_meta m = {.name = name, .engine = blvl_Engine_Q3};
    const char *author = c->world ? blvl_q3_entity_get(c->world, "author") : NULL;
    if (author && *author)
        m.author = author;
    return blvl_bake_set_meta(c->b, &m, c->err);
}

static blvl_status defaults(q3_ctx *c) {
    const blvl_allocator *a = &c->opt->allocator;
    const blvl_q3_bsp *bsp = c->bsp;
    c->shader = blvl__calloc_n(a, bsp->shader_count ? bsp->shader_count : 1, sizeof *c->shader);
    c->fog_volume = blvl__calloc_n(a, bsp->fog_count ? bsp->fog_count : 1, sizeof *c->fog_volume);
    c->model = blvl__calloc_n(a, bsp->model_count ? bsp->model_count : 1, sizeof *c->model);
    if (!c->shader || !c->fog_volume || !c->model)
        return blvl__nomem(c->err, "the bake's scratch memory");
    for (uint32_t i = 0; i < bsp->shader_count; i++) {
        c->shader[i].material = BLVL_BAKE_NONE;
        c->shader[i].source_material = BLVL_BAKE_NONE;
    }
    for (uint32_t i = 0; i < bsp->fog_count; i++)
        c->fog_volume[i] = BLVL_BAKE_NONE;
    for (uint32_t i = 0; i < bsp->model_count; i++) {
        c->model[i].entity = BLVL_BAKE_NONE;
        c->model[i].door = BLVL_BAKE_NONE;
        c->model[i].gametypes = BLVL_BAKE_ALL_GAMETYPES;
    }
    return BLVL_OK;
}

static void ctx_free(q3_ctx *c) {
    const blvl_allocator *a = &c->opt->allocator;
    const blvl_q3_bsp *bsp = c->bsp;
    if (c->entity_index)
        blvl__dealloc(a, c->entity_index,
                      (size_t)(c->ents.count ? c->ents.count : 1) * sizeof *c->entity_index);
    if (c->shader)
        blvl__dealloc(a, c->shader,
                      (size_t)(bsp->shader_count ? bsp->shader_count : 1) * sizeof *c->shader);
    if (c->fog_volume)
        blvl__dealloc(a, c->fog_volume,
                      (size_t)(bsp->fog_count ? bsp->fog_count : 1) * sizeof *c->fog_volume);
    if (c->model)
        blvl__dealloc(a, c->model,
                      (size_t)(bsp->model_count ? bsp->model_count : 1) * sizeof *c->model);
    if (c->lightmap_place)
        blvl__dealloc(a, c->lightmap_place,
                      (size_t)(bsp->lightmap_count ? bsp->lightmap_count : 1) *
                          sizeof *c->lightmap_place);
    blvl_q3_entities_free(&c->ents);
}

blvl_status blvl_q3_bake(const blvl_q3_bsp *bsp, blvl_bake *bake, blvl_q3_bake_report *report,
                         const blvl_q3_bake_options *o, blvl_error *err) {
    if (report)
        memset(report, 0, sizeof *report);
    if (!bsp || !bake)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no map or no bake");
    static const blvl_q3_bake_options defaults_o; /* zero: every default */
    if (!o)
        o = &defaults_o;
    blvl_q3_bake_report local = {0};
    q3_ctx c = {.bsp = bsp,
                .o = o,
                .report = report ? report : &local,
                .b = bake,
                .opt = blvl_bake_options(bake),
                .err = err};
    memset(c.report, 0, sizeof *c.report);
    blvl_status st = blvl_q3_entities_parse(&c.ents, bsp->entities, bsp->entities_size, c.opt, err);
    if (st == BLVL_OK)
        st = defaults(&c);
    if (st == BLVL_OK)
        st = add_entities(&c);
    if (st == BLVL_OK)
        st = set_meta(&c);
    for (size_t i = 0; st == BLVL_OK && steps[i]; i++)
        st = steps[i](&c);
    ctx_free(&c);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
