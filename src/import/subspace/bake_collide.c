/* sim: the wall colliders (tiles 1..161 and the space station's 6 x 6 footprint), the invisible
 * tiles' clip colliders (240..255) and one door per door id (162..169) with its colliders, each
 * a box per rectangle of the cover (bake_cover.c). Doors are added first, so their indices are
 * ready for their colliders and quads. */
#include <stdio.h>
#include <string.h>

#include "bake/model/fast.h"
#include "bake_internal.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/sim.h"
#include "common/alloc.h"
#include "common/error.h"

#define G BLVL_SUBSPACE_GRID

/* One box per rectangle of the cover of c->mask. Each names a symbol source (.bsym): kind Brush,
 * index the cell x + 1024 y of its top-left corner, surface_flags that cell's tile id,
 * contents_flags `kind` (0 wall, 1 invisible, 2 door). */
static blvl_status boxes(subspace_bake *c, blvl_bake_collider *col, uint32_t kind) {
    ssb_rect *r;
    uint32_t n, cap;
    blvl_status st =
        blvl__import_subspace_bake_cover(c->mask, c->scratch, c->al, &r, &n, &cap, c->err);
    bake_counts more = {.sources = n, .colliders = n}; /* the tables grown once, not by halves */
    if (st == BLVL_OK && n)
        st = blvl__bake_model_reserve_counts(c->b, &more, c->err);
    for (uint32_t i = 0; i < n && st == BLVL_OK; i++) {
        uint32_t cell = r[i].x + (uint32_t)r[i].y * G;
        blvl_bake_source src = {.kind = blvl_SourceKind_Brush,
                                .index = cell,
                                .surface_flags = c->grid[cell],
                                .contents_flags = kind,
                                .entity = BLVL_BAKE_NONE,
                                .material = BLVL_BAKE_NONE};
        st = blvl_bake_add_source(c->b, &src, &col->symbol, c->err);
        if (st == BLVL_OK)
            st = blvl_bake_add_box(c->b, col, blvl__import_subspace_bake_lo(r[i].x, r[i].y),
                                   blvl__import_subspace_bake_hi(r[i].x, r[i].y, r[i].w, r[i].h),
                                   NULL, c->err);
    }
    if (r)
        blvl__dealloc(c->al, r, (size_t)cap * sizeof *r);
    return st;
}

/* The door of each door id present: slides 16 qu down, out of the plane ships fly in, on the
 * server's timer. Its bounds are its colliders' (blvl_bake_door_init). */
static blvl_status doors(subspace_bake *c) {
    bool seen[8] = {false};
    for (size_t i = 0; i < (size_t)G * G; i++)
        if (c->grid[i] >= 162 && c->grid[i] <= 169)
            seen[c->grid[i] - 162] = true;
    for (uint32_t k = 0; k < 8; k++) {
        c->door[k] = BLVL_BAKE_NONE;
        if (!seen[k])
            continue;
        char name[16];
        snprintf(name, sizeof name, "door-%u", 162 + k);
        blvl_bake_door d;
        blvl_bake_door_init(&d);
        d.name = name;
        d.kind = blvl_DoorKind_Slide;
        d.trigger = blvl_DoorTrigger_Timer;
        d.direction = (blvl_Vec3){0, -1, 0};
        d.distance = 16;
        blvl_status st = blvl_bake_add_door(c->b, &d, &c->door[k], c->err);
        if (st != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

blvl_status blvl__import_subspace_bake_sim(subspace_bake *c) {
    blvl_status st = doors(c);
    if (st != BLVL_OK)
        return st;
    blvl_bake_collider col;
    /* walls: the station's footprint is solid whatever its cells hold */
    memset(c->mask, 0, (size_t)G * G);
    for (uint32_t y = 0; y < G; y++)
        for (uint32_t x = 0; x < G; x++) {
            uint8_t t = c->grid[(size_t)y * G + x];
            ssb_cat k = blvl__import_subspace_bake_category(t);
            if (k == SSB_WALL)
                c->mask[(size_t)y * G + x] = 1;
            else if (k == SSB_STATION)
                for (uint32_t j = y; j < y + 6 && j < G; j++)
                    memset(c->mask + (size_t)j * G + x, 1, x + 6 <= G ? 6 : G - x);
        }
    blvl_bake_collider_init(&col);
    if ((st = boxes(c, &col, 0)) != BLVL_OK)
        return st;
    /* invisible tiles not already inside a wall */
    for (size_t i = 0; i < (size_t)G * G; i++)
        c->mask[i] =
            !c->mask[i] && blvl__import_subspace_bake_category(c->grid[i]) == SSB_INVISIBLE;
    col.flags = blvl_ColliderFlag_Clip;
    if ((st = boxes(c, &col, 1)) != BLVL_OK)
        return st;
    for (uint32_t k = 0; k < 8; k++) {
        if (c->door[k] == BLVL_BAKE_NONE)
            continue;
        for (size_t i = 0; i < (size_t)G * G; i++)
            c->mask[i] = c->grid[i] == 162 + k;
        blvl_bake_collider_init(&col);
        col.door = c->door[k];
        if ((st = boxes(c, &col, 2)) != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}
