/* blvl_subspace_bake: a read .lvl into the bake model (docs/IMPORT-SUBSPACE.md, "## The level"
 * onwards). The steps, in the order their indices are made (the order fixes the output bytes):
 *   1. the cell grid (later records over earlier ones), meta
 *   2. the atlas image, one material per drawn category present
 *   3. entities: the map's facts, ATTR, each region, each entity-backed or unknown tile
 *   4. sim: doors, wall and clip colliders, door colliders
 *   5. sites: safe, goal, turf flags, regions
 *   6. geometry */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bake_internal.h"
#include "blvl/sections/geometry.h"
#include "blvl/sections/meta.h"
#include "blvl/sections/sites.h"
#include "common/alloc.h"
#include "common/error.h"

#define G BLVL_SUBSPACE_GRID

/* The first ATTR value of `key` (ASCII case ignored), NULL when none. */
static const char *attr(const blvl_subspace *m, const char *key) {
    for (uint32_t i = 0; m->elvl && i < m->elvl->attr_count; i++)
        if (m->elvl->attrs[i].key && strcasecmp(m->elvl->attrs[i].key, key) == 0)
            return m->elvl->attrs[i].value ? m->elvl->attrs[i].value : "";
    return NULL;
}

static blvl_status meta(subspace_bake *c, const char *fallback) {
    const char *name = attr(c->map, "NAME"), *author = attr(c->map, "MAPCREATOR");
    char *n = NULL, *a = NULL;
    if (!name)
        name = fallback;
    if ((name && !(n = blvl__import_subspace_bake_text(c->al, name))) ||
        (author && !(a = blvl__import_subspace_bake_text(c->al, author)))) {
        blvl__free_sized(c->al, n);
        return blvl__nomem(c->err, "the bake's scratch memory");
    }
    blvl_bake_meta m = {.name = n, .author = a, .engine = blvl_Engine_Subspace};
    blvl_status st = blvl_bake_set_meta(c->b, &m, c->err);
    blvl__free_sized(c->al, n);
    blvl__free_sized(c->al, a);
    return st;
}

static const char *const cat_names[SSB_CAT_COUNT] = {
    [SSB_WALL] = "subspace/wall",         [SSB_DOOR] = "subspace/door",
    [SSB_FLAG] = "subspace/flag",         [SSB_SAFE] = "subspace/safe",
    [SSB_GOAL] = "subspace/goal",         [SSB_FLYOVER] = "subspace/flyover",
    [SSB_FLYUNDER] = "subspace/flyunder",
};

/* Opaque, alpha-tested at 0.5: the black key cuts the tile's shape out. */
static blvl_status materials(subspace_bake *c) {
    bool seen[SSB_CAT_COUNT] = {false};
    for (size_t i = 0; i < (size_t)G * G; i++)
        seen[blvl__import_subspace_bake_category(c->grid[i])] = true;
    for (uint32_t k = 0; k < SSB_CAT_COUNT; k++) {
        c->material[k] = BLVL_BAKE_NONE;
        if (!seen[k] || !blvl__import_subspace_bake_drawn((ssb_cat)k))
            continue;
        blvl_bake_material m;
        blvl_bake_material_init(&m);
        m.name = cat_names[k];
        m.texture = c->image;
        m.alpha_test = blvl_AlphaTest_Greater;
        m.alpha_ref = 0.5f;
        blvl_status st = blvl_bake_add_material(c->b, &m, &c->material[k], c->err);
        if (st != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

/* ATTR pairs verbatim (as UTF-8), in file order; a pair without '=' has the value "". */
static blvl_status attributes(subspace_bake *c) {
    const blvl_subspace_elvl *e = c->map->elvl;
    if (!e || e->attr_count == 0)
        return BLVL_OK;
    size_t n = e->attr_count;
    blvl_bake_pair *p = blvl__calloc_n(c->al, n, sizeof *p);
    if (!p)
        return blvl__nomem(c->err, "the bake's scratch memory");
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        const blvl_subspace_attr *a = &e->attrs[i];
        p[i].key = blvl__import_subspace_bake_text(c->al, a->key ? a->key : "");
        p[i].value = blvl__import_subspace_bake_text(c->al, a->value ? a->value : "");
        ok = p[i].key && p[i].value;
    }
    blvl_status st =
        ok ? blvl_bake_add_entity(c->b, "subspace_attributes", p, (uint32_t)n, NULL, c->err)
           : blvl__nomem(c->err, "the bake's scratch memory");
    for (size_t i = 0; i < n; i++) {
        blvl__free_sized(c->al, (char *)p[i].key);
        blvl__free_sized(c->al, (char *)p[i].value);
    }
    blvl__dealloc(c->al, p, n * sizeof *p);
    return st;
}

/* A region's tiles as a byte mask in c->mask; *cells counts them. */
static blvl_status region_mask(subspace_bake *c, const blvl_subspace_region *r, uint32_t *cells) {
    uint8_t *bits = blvl__alloc(c->al, BLVL_SUBSPACE_BITMAP_BYTES);
    if (!bits)
        return blvl__nomem(c->err, "the bake's scratch memory");
    blvl_status st = blvl_subspace_region_tiles(r, bits, c->err);
    *cells = 0;
    for (size_t i = 0; st == BLVL_OK && i < (size_t)G * G; i++) {
        c->mask[i] = bits[i >> 3] >> (i & 7) & 1;
        *cells += c->mask[i];
    }
    blvl__dealloc(c->al, bits, BLVL_SUBSPACE_BITMAP_BYTES);
    return st;
}

/* A region's display name: rNAM as UTF-8, else "region-N" (N its REGN order). */
static char *region_name(subspace_bake *c, uint32_t i) {
    const blvl_subspace_region *r = &c->map->elvl->regions[i];
    if (r->name)
        return blvl__import_subspace_bake_text(c->al, r->name);
    char buf[32];
    snprintf(buf, sizeof buf, "region-%u", i);
    return blvl__strdup(c->al, buf);
}

static blvl_status regions(subspace_bake *c) {
    const blvl_subspace_elvl *e = c->map->elvl;
    for (uint32_t i = 0; e && i < e->region_count; i++) {
        const blvl_subspace_region *r = &e->regions[i];
        uint32_t cells;
        blvl_status st = region_mask(c, r, &cells);
        if (st != BLVL_OK)
            return st;
        char *name = region_name(c, i), *arena = NULL;
        if (!name || (r->has_autowarp && r->warp_arena &&
                      !(arena = blvl__import_subspace_bake_text(c->al, r->warp_arena)))) {
            blvl__free_sized(c->al, name);
            return blvl__nomem(c->err, "the bake's scratch memory");
        }
        char index[16], count[16], warp[32];
        snprintf(index, sizeof index, "%u", i);
        snprintf(count, sizeof count, "%u", cells);
        snprintf(warp, sizeof warp, "%d %d", r->warp_x, r->warp_y);
        blvl_bake_pair p[10] = {
            {"name", name},
            {"region", index},
            {"tiles", count},
            {"base", r->base ? "1" : "0"},
            {"no_antiwarp", r->no_antiwarp ? "1" : "0"},
            {"no_weapons", r->no_weapons ? "1" : "0"},
            {"no_flag_drops", r->no_flag_drops ? "1" : "0"},
            {"code", r->code_sub != UINT32_MAX ? "1" : "0"},
        };
        uint32_t n = 8;
        if (r->has_autowarp) {
            p[n++] = (blvl_bake_pair){"autowarp", warp};
            if (arena)
                p[n++] = (blvl_bake_pair){"autowarp_arena", arena};
        }
        st = blvl_bake_add_entity(c->b, "subspace_region", p, n, NULL, c->err);
        blvl__free_sized(c->al, name);
        blvl__free_sized(c->al, arena);
        if (st != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

/* One entity per entity-backed or unknown tile, in cell order. */
static blvl_status tile_entities(subspace_bake *c) {
    for (uint32_t y = 0; y < G; y++)
        for (uint32_t x = 0; x < G; x++) {
            uint8_t t = c->grid[(size_t)y * G + x];
            ssb_cat k = blvl__import_subspace_bake_category(t);
            if (k != SSB_DOOR && k != SSB_FLAG && k != SSB_ASTEROID && k != SSB_STATION &&
                k != SSB_WORMHOLE && k != SSB_OTHER)
                continue;
            uint32_t fp = blvl__import_subspace_bake_footprint(t);
            const char *kind = blvl__import_subspace_bake_kind(t);
            char cls[48], tile[8], cell[24], foot[16], origin[48], door[16] = "";
            snprintf(cls, sizeof cls, "subspace_%s", kind);
            snprintf(tile, sizeof tile, "%u", t);
            snprintf(cell, sizeof cell, "%u %u", x, y);
            snprintf(foot, sizeof foot, "%u %u", fp, fp);
            snprintf(origin, sizeof origin, "%u 8 %u", 16 * x + 8 * fp, 16 * y + 8 * fp);
            blvl_bake_pair p[6] = {{"tile", tile},      {"kind", kind},     {"cell", cell},
                                   {"footprint", foot}, {"origin", origin}, {"door", door}};
            uint32_t n = 5;
            if (k == SSB_DOOR) {
                snprintf(door, sizeof door, "door-%u", t);
                n = 6;
            }
            blvl_status st = blvl_bake_add_entity(c->b, cls, p, n, NULL, c->err);
            if (st != BLVL_OK)
                return st;
        }
    return BLVL_OK;
}

static blvl_status entities(subspace_bake *c) {
    const blvl_subspace *m = c->map;
    char records[16], range[16], empty[16];
    snprintf(records, sizeof records, "%u", m->record_count);
    snprintf(range, sizeof range, "%u", m->skipped_range);
    snprintf(empty, sizeof empty, "%u", m->skipped_empty);
    blvl_bake_pair p[4] = {{"tileset", m->bmp ? "map" : "default"},
                           {"records", records},
                           {"skipped_range", range},
                           {"skipped_empty", empty}};
    blvl_status st = blvl_bake_add_entity(c->b, "subspace_map", p, 4, NULL, c->err);
    if (st == BLVL_OK)
        st = attributes(c);
    if (st == BLVL_OK)
        st = regions(c);
    if (st == BLVL_OK)
        st = tile_entities(c);
    return st;
}

static blvl_status rect_sites(subspace_bake *c, const char *name, uint8_t kind) {
    ssb_rect *r;
    uint32_t n, cap;
    blvl_status st =
        blvl__import_subspace_bake_cover(c->mask, c->scratch, c->al, &r, &n, &cap, c->err);
    for (uint32_t i = 0; i < n && st == BLVL_OK; i++)
        st = blvl_bake_add_site(c->b, name, kind, blvl__import_subspace_bake_lo(r[i].x, r[i].y),
                                blvl__import_subspace_bake_hi(r[i].x, r[i].y, r[i].w, r[i].h),
                                c->err);
    if (r)
        blvl__dealloc(c->al, r, (size_t)cap * sizeof *r);
    return st;
}

static blvl_status sites(subspace_bake *c) {
    for (size_t i = 0; i < (size_t)G * G; i++)
        c->mask[i] = c->grid[i] == 171;
    blvl_status st = rect_sites(c, "safe", blvl_SiteKind_Other);
    for (size_t i = 0; st == BLVL_OK && i < (size_t)G * G; i++)
        c->mask[i] = c->grid[i] == 172;
    if (st == BLVL_OK)
        st = rect_sites(c, "goal", blvl_SiteKind_Capture);
    for (uint32_t y = 0; y < G && st == BLVL_OK; y++)
        for (uint32_t x = 0; x < G && st == BLVL_OK; x++)
            if (c->grid[(size_t)y * G + x] == 170)
                st = blvl_bake_add_site(c->b, "flag", blvl_SiteKind_Flag,
                                        blvl__import_subspace_bake_lo(x, y),
                                        blvl__import_subspace_bake_hi(x, y, 1, 1), c->err);
    const blvl_subspace_elvl *e = c->map->elvl;
    for (uint32_t i = 0; e && i < e->region_count && st == BLVL_OK; i++) {
        uint32_t cells;
        st = region_mask(c, &e->regions[i], &cells);
        char *name = st == BLVL_OK ? region_name(c, i) : NULL;
        if (st == BLVL_OK && !name)
            st = blvl__nomem(c->err, "the bake's scratch memory");
        if (st == BLVL_OK)
            st = rect_sites(c, name, e->regions[i].base ? blvl_SiteKind_Flag : blvl_SiteKind_Other);
        blvl__free_sized(c->al, name);
    }
    return st;
}

blvl_status blvl_subspace_bake(const blvl_subspace *map, blvl_bake *bake,
                               const blvl_subspace_options *opt, blvl_error *err) {
    const char *name = opt ? opt->name : NULL;
    if (!map || !bake)
        return blvl__fail(err, BLVL_E_ARGUMENT, "subspace bake: needs a map and a bake");
    subspace_bake c = {.map = map, .b = bake, .err = err};
    c.al = &blvl_bake_options(bake)->allocator;
    size_t cells = (size_t)G * G;
    c.grid = blvl__alloc(c.al, cells);
    c.mask = blvl__alloc(c.al, cells);
    c.scratch = blvl__alloc(c.al, cells);
    blvl_status st =
        c.grid && c.mask && c.scratch ? BLVL_OK : blvl__nomem(c.err, "the bake's scratch memory");
    if (st == BLVL_OK) {
        blvl_subspace_grid(map, c.grid);
        st = meta(&c, name);
    }
    if (st == BLVL_OK)
        st = blvl__import_subspace_bake_atlas(&c);
    if (st == BLVL_OK)
        st = materials(&c);
    if (st == BLVL_OK)
        st = entities(&c);
    if (st == BLVL_OK)
        st = blvl__import_subspace_bake_sim(&c);
    if (st == BLVL_OK)
        st = sites(&c);
    if (st == BLVL_OK)
        st = blvl__import_subspace_bake_geometry(&c);
    if (c.grid)
        blvl__dealloc(c.al, c.grid, cells);
    if (c.mask)
        blvl__dealloc(c.al, c.mask, cells);
    if (c.scratch)
        blvl__dealloc(c.al, c.scratch, cells);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
