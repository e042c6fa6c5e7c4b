/* blvl_riot_bake: a read Riot level into the bake model (docs/IMPORT-RIOT.md, "## The level"
 * onwards). The steps, in the order their indices are made (the order fixes the output bytes):
 *   1. checks (the bake's own rules), meta
 *   2. entities: the level, its databases, layers, layer groups, objects
 *   3. materials: one per drawn texture reference, in order of first use (layers in definition
 *      order, cells row by row, left triangle before right)
 *   4. per layer in definition order: a symbol source per cell, the surfaces, the colliders */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bake_internal.h"
#include "blvl/sections/meta.h"
#include "common/alloc.h"
#include "common/array.h"
#include "common/error.h"

bool blvl__import_riot_bake_drawn(uint32_t ref) {
    return ref != BLVL_RIOT_HOLE && ref != BLVL_RIOT_INVISIBLE;
}

static uint32_t hash_ref(uint32_t key) {
    key ^= key >> 16;
    key *= 0x7feb352du;
    key ^= key >> 15;
    key *= 0x846ca68bu;
    return key ^ (key >> 16);
}

/* The slot of `ref` in the table: its own, or the empty one where it would go. */
static uint32_t slot_of(const riot_bake *c, uint32_t ref) {
    uint32_t key = ref + 1, mask = c->mat_cap - 1, s = hash_ref(key) & mask;
    while (c->mat_keys[s] && c->mat_keys[s] != key)
        s = (s + 1) & mask;
    return s;
}

uint32_t blvl__import_riot_bake_material(const riot_bake *c, uint32_t ref) {
    if (!blvl__import_riot_bake_drawn(ref) || !c->mat_cap)
        return BLVL_BAKE_NONE;
    uint32_t s = slot_of(c, ref);
    return c->mat_keys[s] ? c->mat_vals[s] : BLVL_BAKE_NONE;
}

static void table_free(riot_bake *c) {
    if (c->mat_keys)
        blvl__dealloc(c->al, c->mat_keys, (size_t)c->mat_cap * sizeof *c->mat_keys);
    if (c->mat_vals)
        blvl__dealloc(c->al, c->mat_vals, (size_t)c->mat_cap * sizeof *c->mat_vals);
    c->mat_keys = c->mat_vals = NULL;
    c->mat_cap = 0;
}

static blvl_status table_grow(riot_bake *c) {
    riot_bake old = *c;
    uint32_t cap = c->mat_cap ? c->mat_cap * 2 : 256;
    c->mat_keys = blvl__calloc_n(c->al, cap, sizeof *c->mat_keys);
    c->mat_vals = blvl__calloc_n(c->al, cap, sizeof *c->mat_vals);
    c->mat_cap = cap;
    if (!c->mat_keys || !c->mat_vals) {
        table_free(c);
        *c = old;
        return blvl__nomem(c->err, "the bake's scratch memory");
    }
    for (uint32_t i = 0; i < old.mat_cap; i++)
        if (old.mat_keys[i]) {
            uint32_t s = slot_of(c, old.mat_keys[i] - 1);
            c->mat_keys[s] = old.mat_keys[i];
            c->mat_vals[s] = old.mat_vals[i];
        }
    table_free(&old);
    return BLVL_OK;
}

/* Ordinal of `ref` among the drawn references (first use), added when new. */
static blvl_status note_ref(riot_bake *c, uint32_t ref, bool two_sided, uint8_t **flags,
                            size_t *cap) {
    if (!blvl__import_riot_bake_drawn(ref))
        return BLVL_OK;
    if (c->mat_count + 1 > c->mat_cap / 2) {
        blvl_status st = table_grow(c);
        if (st != BLVL_OK)
            return st;
    }
    uint32_t s = slot_of(c, ref);
    if (!c->mat_keys[s]) {
        if (c->mat_count == *cap) {
            void *nf = *flags;
            if (!blvl__array_grow(c->al, &nf, cap, *cap, *cap + 1, 1, 256))
                return blvl__nomem(c->err, "the bake's scratch memory");
            *flags = nf;
        }
        c->mat_keys[s] = ref + 1;
        c->mat_vals[s] = c->mat_count++;
    }
    if (two_sided)
        (*flags)[c->mat_vals[s]] = 1;
    return BLVL_OK;
}

/* The name of a texture reference (docs/IMPORT-RIOT.md, "Materials"): "<database path>#<id>"
 * with the path of the database reference whose index is the reference's database, else
 * "db<database>#<id>". */
static void material_name(const blvl_riot_level *lv, uint32_t ref, rb_text *name,
                          const char **path) {
    uint16_t id = (uint16_t)(ref & 0xFFFFu), db = (uint16_t)(ref >> 16);
    *path = NULL;
    for (uint32_t i = 0; i < lv->dbref_count; i++)
        if (lv->dbrefs[i].index == db) {
            *path = lv->dbrefs[i].path.text ? lv->dbrefs[i].path.text : "";
            break;
        }
    blvl__import_riot_bake_text_reset(name);
    if (*path)
        blvl__import_riot_bake_text_escaped(name, *path);
    else
        blvl__import_riot_bake_text_add(name, "db%u", (unsigned)db);
    blvl__import_riot_bake_text_add(name, "#%u", (unsigned)id);
}

static blvl_status materials(riot_bake *c) {
    const blvl_riot_level *lv = c->lv;
    uint8_t *two = NULL;
    size_t cap = 0;
    blvl_status st = BLVL_OK;
    for (uint32_t l = 0; l < lv->layer_count && st == BLVL_OK; l++) {
        const blvl_riot_layer *L = &lv->layers[l];
        size_t cells = (size_t)L->width * L->height;
        for (size_t k = 0; k < cells && st == BLVL_OK; k++) {
            st = note_ref(c, L->cells[k].texture[0], L->type == 2, &two, &cap);
            if (st == BLVL_OK)
                st = note_ref(c, L->cells[k].texture[1], L->type == 2, &two, &cap);
        }
    }
    /* the bake's indices are the ordinals: add in ordinal order */
    uint32_t *refs = NULL;
    if (st == BLVL_OK && c->mat_count) {
        refs = blvl__calloc_n(c->al, c->mat_count, sizeof *refs);
        if (!refs)
            st = blvl__nomem(c->err, "the bake's scratch memory");
        for (uint32_t i = 0; refs && i < c->mat_cap; i++)
            if (c->mat_keys[i])
                refs[c->mat_vals[i]] = c->mat_keys[i] - 1;
    }
    rb_text name = {.al = c->al}, escaped = {.al = c->al}, src = {.al = c->al};
    for (uint32_t i = 0; refs && i < c->mat_count && st == BLVL_OK; i++) {
        const char *path;
        material_name(lv, refs[i], &name, &path);
        blvl__import_riot_bake_text_reset(&escaped);
        blvl__import_riot_bake_text_reset(&src);
        if (path)
            blvl__import_riot_bake_text_escaped(&escaped, path);
        blvl__import_riot_bake_text_add(&src, "0x%08x", (unsigned)refs[i]);
        if (name.bad || escaped.bad || src.bad) {
            st = blvl__nomem(c->err, "the bake's scratch memory");
            break;
        }
        blvl_bake_material m;
        blvl_bake_material_init(&m);
        m.name = blvl__import_riot_bake_text_str(&name);
        m.source_name = blvl__import_riot_bake_text_str(&src);
        m.source_texture = path ? blvl__import_riot_bake_text_str(&escaped) : NULL;
        m.two_sided = two && two[i];
        uint32_t index;
        st = blvl_bake_add_material(c->b, &m, &index, c->err);
    }
    blvl__import_riot_bake_text_free(&name);
    blvl__import_riot_bake_text_free(&escaped);
    blvl__import_riot_bake_text_free(&src);
    if (refs)
        blvl__dealloc(c->al, refs, c->mat_count * sizeof *refs);
    if (two)
        blvl__dealloc(c->al, two, cap);
    return st;
}

/* The bake's own rules (docs/IMPORT-RIOT.md, "Bake rules"), and the shape of a level built by
 * hand (what the reader guarantees of a read one). */
static blvl_status check(riot_bake *c) {
    const blvl_riot_level *lv = c->lv;
    char field[64];
    if ((lv->layer_count && !lv->layers) || (lv->dbref_count && !lv->dbrefs) ||
        (lv->group_count && !lv->groups) || (lv->object_count && !lv->objects))
        return blvl__fail(c->err, BLVL_E_ARGUMENT, "blvl_riot_bake: a count without its array");
    for (uint32_t l = 0; l < lv->layer_count; l++) {
        const blvl_riot_layer *L = &lv->layers[l];
        uint64_t at = blvl__import_riot_bake_layer_offset(lv, l);
        uint64_t verts = ((uint64_t)L->width + 1) * ((uint64_t)L->height + 1);
        uint64_t cells = (uint64_t)L->width * L->height;
        if (verts * 4 + cells * 26 > BLVL_RIOT_MAX_LAYER_DATA)
            return blvl__fail(c->err, BLVL_E_ARGUMENT,
                              "blvl_riot_bake: layer %u holds more than 256 MiB of data", l);
        if ((cells && (!L->vertices || !L->cells)) || (L->visible_count && !L->visible))
            return blvl__fail(c->err, BLVL_E_ARGUMENT,
                              "blvl_riot_bake: layer %u has a count without its array", l);
        if (L->type > 2) {
            snprintf(field, sizeof field, "layer[%u].type", l);
            return blvl__fail_source(c->err, "record 0x0001", field, at + 12, "layer-type",
                                     "%u is none of 0 floor, 1 ceiling, 2 between",
                                     (unsigned)L->type);
        }
        if (!cells)
            continue; /* places nothing: its numbers go to its entity only */
        if ((uint64_t)L->origin_x + L->width > RB_MAX_EXTENT ||
            (uint64_t)L->origin_z + L->height > RB_MAX_EXTENT) {
            bool x = (uint64_t)L->origin_x + L->width > RB_MAX_EXTENT;
            snprintf(field, sizeof field, "layer[%u].%s", l, x ? "origin_x" : "origin_z");
            return blvl__fail_source(c->err, "record 0x0001", field, at + (x ? 16 : 20),
                                     "layer-extent", "origin + %s = %llu cells, more than %u",
                                     x ? "width" : "height",
                                     x ? (unsigned long long)L->origin_x + L->width
                                       : (unsigned long long)L->origin_z + L->height,
                                     RB_MAX_EXTENT);
        }
        if (!isfinite(L->world_height) || fabs((double)L->world_height) > RB_MAX_HEIGHT) {
            snprintf(field, sizeof field, "layer[%u].world_height", l);
            return blvl__fail_source(c->err, "record 0x0001", field, at + 24, "layer-height",
                                     "not a finite number of at most 2^30 world units");
        }
        if (!isfinite(L->light_direction) || !isfinite(L->light_ascension)) {
            bool d = !isfinite(L->light_direction);
            snprintf(field, sizeof field, "layer[%u].%s", l,
                     d ? "light_direction" : "light_ascension");
            return blvl__fail_source(c->err, "record 0x0001", field,
                                     at + 28 + blvl__import_riot_bake_name_size(&L->name) +
                                         (d ? 4 : 8),
                                     "layer-light", "not a finite number of radians");
        }
    }
    for (uint32_t i = 0; i < lv->object_count; i++) {
        const blvl_riot_object *o = &lv->objects[i];
        uint64_t at = blvl__import_riot_bake_object_offset(lv, i);
        if ((o->link_count && !o->links) || (o->data_size && !o->param_data) ||
            (o->param_count && (!o->param_indices || !o->param_defs)))
            return blvl__fail(c->err, BLVL_E_ARGUMENT,
                              "blvl_riot_bake: object %u has a count without its array", i);
        for (uint32_t k = 0; k < o->link_count; k++)
            if (o->links[k] >= lv->object_count)
                return blvl__fail(c->err, BLVL_E_ARGUMENT,
                                  "blvl_riot_bake: object %u links to object %u of %u", i,
                                  (unsigned)o->links[k], (unsigned)lv->object_count);
        for (int a = 0; a < 3; a++)
            if (!isfinite(o->position[a])) {
                snprintf(field, sizeof field, "object[%u].position", i);
                return blvl__fail_source(c->err, "record 0x0020", field, at + 12 + 4 * a,
                                         "object-position", "%c is not a finite number", "xyz"[a]);
            }
        for (int a = 0; a < 3 && (o->flags & BLVL_RIOT_SCALED); a++)
            if (!isfinite(o->scale[a])) {
                snprintf(field, sizeof field, "object[%u].scale", i);
                return blvl__fail_source(c->err, "record 0x0020", field,
                                         at + 32 + 2 * (uint64_t)o->link_count + 6 + 4 * a,
                                         "object-scale", "%c is not a finite number", "xyz"[a]);
            }
    }
    return BLVL_OK;
}

static blvl_status bake(riot_bake *c) {
    const blvl_riot_level *lv = c->lv;
    blvl_status st;
    /* 1. */
    if ((st = check(c)) != BLVL_OK)
        return st;
    rb_text name = {.al = c->al};
    blvl__import_riot_bake_text_escaped(&name, lv->name.text);
    if (name.bad)
        return blvl__nomem(c->err, "the bake's scratch memory");
    blvl_bake_meta meta = {0};
    meta.name = lv->name.text ? blvl__import_riot_bake_text_str(&name) : NULL;
    meta.engine = blvl_Engine_Riot;
    st = blvl_bake_set_meta(c->b, &meta, c->err);
    blvl__import_riot_bake_text_free(&name);
    if (st != BLVL_OK)
        return st;
    /* 2., 3. */
    if ((st = blvl__import_riot_bake_entities(c)) != BLVL_OK || (st = materials(c)) != BLVL_OK)
        return st;
    /* 4. The tables sized once for every layer: growing them cell by cell copies and touches
     * them again and again. */
    bake_counts n = {0};
    for (uint32_t l = 0; l < lv->layer_count; l++)
        blvl__import_riot_bake_counts(c, l, &n);
    if ((st = blvl__bake_model_reserve_counts(c->b, &n, c->err)) != BLVL_OK)
        return st;
    for (uint32_t l = 0; l < lv->layer_count && st == BLVL_OK; l++) {
        rb_grid g = {0};
        uint32_t first = 0;
        st = blvl__import_riot_bake_grid_make(c, l, &g);
        if (st == BLVL_OK)
            st = blvl__import_riot_bake_terrain(c, l, &g, &first);
        if (st == BLVL_OK)
            st = blvl__import_riot_bake_colliders(c, l, &g, first);
        blvl__import_riot_bake_grid_free(c, &g);
    }
    return st;
}

blvl_status blvl_riot_bake(const blvl_riot_level *level, blvl_bake *b, blvl_error *err) {
    if (!level || !b)
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_riot_bake: level and bake must be set");
    riot_bake c = {0};
    c.lv = level;
    c.b = b;
    c.err = err;
    const blvl_options *opt = blvl_bake_options(b);
    c.al = opt ? &opt->allocator : NULL;
    size_t nl = level->layer_count ? level->layer_count : 1;
    c.layer_entity = blvl__calloc_n(c.al, nl, sizeof *c.layer_entity);
    blvl_status st = c.layer_entity ? bake(&c) : blvl__nomem(c.err, "the bake's scratch memory");
    if (st == BLVL_OK)
        blvl__ok(err);
    if (c.layer_entity)
        blvl__dealloc(c.al, c.layer_entity, nl * sizeof *c.layer_entity);
    blvl__import_riot_bake_terrain_free(&c);
    table_free(&c);
    return st;
}
