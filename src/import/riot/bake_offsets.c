/* File offsets of the fields a bake refusal names, found by walking the records' layout
 * (docs/IMPORT-RIOT.md, "## The file"): a record's body offset from the container's directory
 * (0 for a level built by hand), plus the sizes of what comes before the field. */
#include "bake_internal.h"

static uint64_t body(const blvl_riot_level *lv, uint16_t type) {
    if (!lv->srsc)
        return 0;
    for (uint32_t i = 0; i < lv->srsc->record_count; i++)
        if (lv->srsc->records[i].type == type)
            return lv->srsc->records[i].offset;
    return 0;
}

uint64_t blvl__import_riot_bake_name_size(const blvl_riot_str *s) {
    return 2u + (uint64_t)s->size;
}

/* A layer definition: 7 u32 (id .. world_height), the name, flags, direction, ascension, two
 * colours, dropoff, the visible count and list. */
static uint64_t layer_size(const blvl_riot_layer *l) {
    return 28 + blvl__import_riot_bake_name_size(&l->name) + 28 + 4 * (uint64_t)l->visible_count;
}

uint64_t blvl__import_riot_bake_layer_offset(const blvl_riot_level *lv, uint32_t layer) {
    uint64_t at = body(lv, BLVL_RIOT_LAYERS) + 4; /* after layer_count */
    for (uint32_t i = 0; i < layer && i < lv->layer_count; i++)
        at += layer_size(&lv->layers[i]);
    return at;
}

static uint64_t object_size(const blvl_riot_object *o) {
    uint64_t n = 4 + 2 + 2 + 4 + 12 + 4 + 2 + 2 + 2 * (uint64_t)o->link_count + 6;
    if (o->flags & BLVL_RIOT_SCALED)
        n += 12;
    n += 4 + 4 + 4 * (uint64_t)o->data_size + 2 * (uint64_t)o->param_count;
    for (uint32_t k = 0; o->param_defs && k < o->param_count; k++)
        n += 4 + blvl__import_riot_bake_name_size(&o->param_defs[k].name);
    return n;
}

uint64_t blvl__import_riot_bake_object_offset(const blvl_riot_level *lv, uint32_t object) {
    uint64_t at = body(lv, BLVL_RIOT_OBJECTS) + 2; /* after object_count */
    for (uint32_t i = 0; i < object && i < lv->object_count; i++)
        at += object_size(&lv->objects[i]);
    return at;
}
