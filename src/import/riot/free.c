/* blvl_riot_free: every array was allocated alone with the options' allocator at the size its
 * count gives; a string's text at size + 1 bytes and its bytes at size; a layer's vertices and
 * cells at the counts its width and height give, its compressed bytes at compressed_size. A
 * hand-built level made the same way can be freed here too; NULL arrays are skipped. */
#include "common/alloc.h"
#include "import/riot/riot_internal.h"

#define FREE_ARR(a, p, n) blvl__dealloc((a), (p), (size_t)(n) * sizeof *(p))

static void layer(const blvl_allocator *a, blvl_riot_layer *l) {
    blvl__import_riot_str_free(&l->name, a);
    FREE_ARR(a, l->visible, l->visible_count);
    blvl__dealloc(a, l->compressed, l->compressed_size);
    uint64_t nv = ((uint64_t)l->width + 1) * ((uint64_t)l->height + 1);
    FREE_ARR(a, l->vertices, nv);
    FREE_ARR(a, l->cells, (uint64_t)l->width * l->height);
}

static void object(const blvl_allocator *a, blvl_riot_object *o) {
    FREE_ARR(a, o->links, o->link_count);
    FREE_ARR(a, o->param_data, o->data_size);
    FREE_ARR(a, o->param_indices, o->param_count);
    for (uint32_t k = 0; o->param_defs && k < o->param_count; k++)
        blvl__import_riot_str_free(&o->param_defs[k].name, a);
    FREE_ARR(a, o->param_defs, o->param_count);
}

void blvl_riot_free(blvl_riot_level *level) {
    if (!level)
        return;
    blvl_allocator al = level->allocator; /* level itself goes last */
    const blvl_allocator *a = &al;
    blvl_riot_srsc_free(level->srsc);
    blvl__import_riot_str_free(&level->name, a);
    for (uint32_t i = 0; level->dbrefs && i < level->dbref_count; i++)
        blvl__import_riot_str_free(&level->dbrefs[i].path, a);
    FREE_ARR(a, level->dbrefs, level->dbref_count);
    for (uint32_t i = 0; level->layers && i < level->layer_count; i++)
        layer(a, &level->layers[i]);
    FREE_ARR(a, level->layers, level->layer_count);
    for (uint32_t i = 0; level->groups && i < level->group_count; i++) {
        blvl__import_riot_str_free(&level->groups[i].name, a);
        FREE_ARR(a, level->groups[i].layers, level->groups[i].layer_count);
    }
    FREE_ARR(a, level->groups, level->group_count);
    for (uint32_t i = 0; level->objects && i < level->object_count; i++)
        object(a, &level->objects[i]);
    FREE_ARR(a, level->objects, level->object_count);
    blvl__dealloc(a, level, sizeof *level);
}
