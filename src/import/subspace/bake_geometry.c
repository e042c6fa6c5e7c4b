/* geometry: one quad per drawn tile on the cell's top face (Y = 16), facing +Y, with UVs into
 * the atlas: uv (0, 0) is the atlas's top-left pixel corner, 1 its full width or height, so tile
 * n's quad spans u in [c, c + 16] / 304, v in [r, r + 16] / 160 for its pixel column c and row r,
 * its top-left pixel at the cell's -X -Z corner (the top of the map is -Z). One surface
 * per material, and per door for the door tiles (so a door's quads move with it), the smallest
 * first (ties in the order wall, doors 162..169, flag, safe, goal, fly-over, fly-under); quads in
 * cell order (y, then x). */
#include <string.h>

#include "bake/model/fast.h"
#include "bake_internal.h"
#include "blvl/sections/bsym.h"
#include "common/alloc.h"
#include "common/error.h"

#define G BLVL_SUBSPACE_GRID
#define SLOTS 14

/* The surface slot of a drawn tile. */
static uint32_t slot_of(uint8_t t) {
    ssb_cat k = blvl__import_subspace_bake_category(t);
    return k == SSB_WALL ? 0 : k == SSB_DOOR ? 1u + (t - 162u) : 9u + (uint32_t)(k - SSB_FLAG);
}

static void quad(blvl_bake_vertex *v, uint32_t *idx, uint32_t base, uint32_t x, uint32_t y,
                 uint8_t t) {
    float x0 = 16.0f * (float)x, z0 = 16.0f * (float)y, x1 = x0 + 16.0f, z1 = z0 + 16.0f;
    float u0 = (float)((t - 1u) % 19u * 16u) / (float)BLVL_SUBSPACE_TILESET_W;
    float v0 = (float)((t - 1u) / 19u * 16u) / (float)BLVL_SUBSPACE_TILESET_H;
    float du = 16.0f / (float)BLVL_SUBSPACE_TILESET_W, dv = 16.0f / (float)BLVL_SUBSPACE_TILESET_H;
    /* counter-clockwise seen from +Y: (x0, z0), (x0, z1), (x1, z1), (x1, z0) */
    const float px[4] = {x0, x0, x1, x1}, pz[4] = {z0, z1, z1, z0};
    const float pu[4] = {u0, u0, u0 + du, u0 + du}, pv[4] = {v0, v0 + dv, v0 + dv, v0};
    for (int k = 0; k < 4; k++) {
        memset(&v[k], 0, sizeof v[k]);
        v[k].position[0] = px[k], v[k].position[1] = 16.0f, v[k].position[2] = pz[k];
        v[k].normal[1] = 1.0f;
        v[k].uv[0] = pu[k], v[k].uv[1] = pv[k];
        memset(v[k].color, 255, 4);
    }
    const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; k++)
        idx[k] = base + tri[k];
}

blvl_status blvl__import_subspace_bake_geometry(subspace_bake *c) {
    uint8_t sl[256]; /* the slot of each tile id, 0xFF for one not drawn */
    for (uint32_t t = 0; t < 256; t++)
        sl[t] = blvl__import_subspace_bake_drawn(blvl__import_subspace_bake_category(t))
                    ? (uint8_t)slot_of((uint8_t)t)
                    : 0xFF;
    uint32_t count[SLOTS] = {0}, order[SLOTS];
    for (size_t i = 0; i < (size_t)G * G; i++)
        if (sl[c->grid[i]] != 0xFF)
            count[sl[c->grid[i]]]++;
    /* smallest surface first (the order fixes the bytes); the model's tables are sized once for
     * every quad and each surface is written in place in them (no staging copy) */
    for (uint32_t s = 0; s < SLOTS; s++) {
        uint32_t k = s;
        for (; k > 0 && count[order[k - 1]] > count[s]; k--)
            order[k] = order[k - 1];
        order[k] = s;
    }
    bake_counts more = {0};
    for (uint32_t s = 0; s < SLOTS; s++) {
        more.sources += count[s] > 0;
        more.surfaces += count[s] > 0;
        more.vertices += count[s] * 4;
        more.indices += count[s] * 6;
    }
    blvl_status st = blvl__bake_model_reserve_counts(c->b, &more, c->err);
    blvl_bake_vertex *v0 = NULL;
    uint32_t *i0 = NULL;
    if (st == BLVL_OK)
        st = blvl__bake_model_surface_room(c->b, more.vertices, more.indices, &v0, &i0, c->err);
    if (st != BLVL_OK)
        return st;
    /* one pass over the grid: each slot's quads at its place among the surfaces to come */
    blvl_bake_vertex *vs[SLOTS];
    uint32_t *is[SLOTS], q[SLOTS] = {0};
    size_t at = 0;
    for (uint32_t o = 0; o < SLOTS; o++) {
        vs[order[o]] = v0 ? v0 + at * 4 : NULL; /* NULL: a map without drawn tiles */
        is[order[o]] = i0 ? i0 + at * 6 : NULL;
        at += count[order[o]];
    }
    for (uint32_t y = 0; y < G; y++) {
        const uint8_t *row = c->grid + (size_t)y * G;
        for (uint32_t x = 0; x < G; x++) {
            uint32_t s = sl[row[x]];
            if (s == 0xFF)
                continue;
            quad(vs[s] + (size_t)q[s] * 4, is[s] + (size_t)q[s] * 6, q[s] * 4, x, y, row[x]);
            q[s]++;
        }
    }
    for (uint32_t o = 0; o < SLOTS && st == BLVL_OK; o++) {
        uint32_t s = order[o];
        if (count[s] == 0)
            continue;
        /* its symbol source (.bsym): kind Face, index the slot (0 wall, 1..8 doors 162..169,
         * 9 flag, 10 safe, 11 goal, 12 fly-over, 13 fly-under), surface_flags the quads */
        ssb_cat k = SSB_EMPTY;
        for (uint32_t t = 1; t < 256 && k == SSB_EMPTY; t++)
            if (sl[t] == s)
                k = blvl__import_subspace_bake_category(t);
        blvl_bake_source src = {.kind = blvl_SourceKind_Face,
                                .index = s,
                                .surface_flags = count[s],
                                .entity = BLVL_BAKE_NONE,
                                .material = c->material[k]};
        blvl_bake_surface sf;
        blvl_bake_surface_init(&sf);
        if ((st = blvl_bake_add_source(c->b, &src, &sf.source, c->err)) != BLVL_OK)
            return st;
        sf.vertices = vs[s]; /* in place: the model takes them where they lie */
        sf.vertex_count = count[s] * 4;
        sf.indices = is[s];
        sf.index_count = count[s] * 6;
        sf.material = c->material[k];
        if (s >= 1 && s <= 8)
            sf.door = c->door[s - 1];
        st = blvl_bake_add_surface(c->b, &sf, c->err);
    }
    return st;
}
