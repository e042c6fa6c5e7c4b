/* Step 5, colliders (docs/IMPORT-Q3.md, "Collision"): one Planes collider per brush a mover can
 * hit, flags strictly from the contents bits and the sides' surface flags; lava and slime
 * also hurt; patches in bake_collide_patch.c. */
#include <math.h>
#include <string.h>

#include "bake_collide.h"
#include "bake_entities.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/sim.h"
#include "common/alloc.h"
#include "common/error.h"

#define Q3_LAVA_DMG 30.0f /* per hit, feet in it; the game multiplies by the depth (1..3) */
#define Q3_SLIME_DMG 10.0f
#define Q3_PAIN_DEBOUNCE 0.7f /* s between two hits of the liquid: the pain debounce */

uint32_t blvl__import_q3_coll_max_sides(const q3_ctx *c) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < c->bsp->brush_count; i++)
        if ((uint32_t)c->bsp->brushes[i].num_sides > m)
            m = (uint32_t)c->bsp->brushes[i].num_sides;
    return m;
}

uint32_t blvl__import_q3_coll_brush_planes(const q3_ctx *c, uint32_t brush, blvl_Vec3 offset,
                                           blvl_Plane *out) {
    const blvl_q3_brush *b = &c->bsp->brushes[brush];
    uint32_t n = 0;
    for (int32_t k = 0; k < b->num_sides; k++) {
        const blvl_q3_plane *p = &c->bsp->planes[c->bsp->brush_sides[b->first_side + k].plane];
        blvl_Vec3 nrm = q3_axes(p->normal);
        /* n . (x - offset) = d in the model's frame */
        float d = p->dist + nrm.x * offset.x + nrm.y * offset.y + nrm.z * offset.z;
        if (!isfinite(d))
            return 0; /* an origin so far out it leaves float: the brush is not placed */
        out[n++] = (blvl_Plane){nrm, d};
    }
    return n;
}

bool blvl__import_q3_coll_planes_bounds(const q3_ctx *c, const blvl_Plane *planes, uint32_t count,
                                        blvl_Vec3 *lo, blvl_Vec3 *hi, blvl_status *st) {
    bool any;
    *st = blvl__import_q3_brush_bounds(c, planes, count, lo, hi, &any);
    /* only a non-finite plane is refused, and the reader keeps planes finite */
    if (*st == BLVL_E_ARGUMENT)
        *st = BLVL_OK;
    return any;
}

bool blvl__import_q3_coll_flags(uint32_t contents, uint32_t surface, uint32_t *flags) {
    uint32_t f;
    if (contents & BLVL_Q3_CONTENTS_SOLID)
        f = 0;
    else if (contents & BLVL_Q3_CONTENTS_PLAYERCLIP) /* OpenArena's missileclip too */
        f = blvl_ColliderFlag_Clip | blvl_ColliderFlag_ShotThrough;
    else if (contents & (BLVL_Q3_CONTENTS_WATER | BLVL_Q3_CONTENTS_SLIME | BLVL_Q3_CONTENTS_LAVA)) {
        *flags = blvl_ColliderFlag_Water;
        return true;
    } else
        return false; /* bot and monster clip stop no player in Quake 3; fog, triggers, ... */
    if (surface & BLVL_Q3_SURF_SKY)
        f |= blvl_ColliderFlag_Sky;
    if (surface & BLVL_Q3_SURF_LADDER)
        f |= blvl_ColliderFlag_Ladder | blvl_ColliderFlag_ShotThrough;
    /* Quake 3 names metal footsteps; no flag names wood, so the surface is never Wood. */
    if (surface & BLVL_Q3_SURF_METALSTEPS)
        f |= (uint32_t)blvl_Surface_Metal << 1;
    *flags = f;
    return true;
}

/* What the colliders of one model share. */
typedef struct model_ctx {
    uint32_t m;
    uint32_t q3_entity; /* index into c->ents, or NONE for the world */
    const char *name;   /* ColliderSource name: targetname, else the model "*N" */
    char star[16];
    blvl_Plane *planes;
    float (*grid)[3]; /* a patch's collision grid */
} model_ctx;

static blvl_bake_collider base_collider(const q3_ctx *c, const model_ctx *mc) {
    blvl_bake_collider k;
    blvl_bake_collider_init(&k);
    const q3_model_place *p = &c->model[mc->m];
    k.door = p->door;
    k.gametypes = p->gametypes;
    if (mc->m != 0) {
        k.source_kind = blvl_ColliderSourceKind_Entity;
        k.source_entity = p->entity;
        k.source_name = mc->name;
    }
    return k;
}

/* The material of a liquid brush: its content shader's, else the first side's that has one. */
static uint32_t liquid_material(const q3_ctx *c, const blvl_q3_brush *b) {
    if (c->shader[b->shader].material != BLVL_BAKE_NONE)
        return c->shader[b->shader].material;
    for (int32_t k = 0; k < b->num_sides; k++) {
        int32_t s = c->bsp->brush_sides[b->first_side + k].shader;
        if (s >= 0 && (uint32_t)s < c->bsp->shader_count && c->shader[s].material != BLVL_BAKE_NONE)
            return c->shader[s].material;
    }
    return BLVL_BAKE_NONE;
}

static blvl_status brush(q3_ctx *c, model_ctx *mc, uint32_t bi) {
    const blvl_q3_bsp *bsp = c->bsp;
    const blvl_q3_brush *b = &bsp->brushes[bi];
    const blvl_q3_shader_ref *sh = &bsp->shaders[b->shader];
    uint32_t surface = sh->surface_flags;
    for (int32_t k = 0; k < b->num_sides; k++) {
        int32_t s = bsp->brush_sides[b->first_side + k].shader;
        if (s >= 0 && (uint32_t)s < bsp->shader_count)
            surface |= bsp->shaders[s].surface_flags;
    }
    uint32_t flags;
    if (!blvl__import_q3_coll_flags(sh->contents, surface, &flags))
        return BLVL_OK;
    uint32_t n = blvl__import_q3_coll_brush_planes(c, bi, c->model[mc->m].offset, mc->planes);
    blvl_bake_source src = {.kind = blvl_SourceKind_Brush,
                            .index = bi,
                            .surface_flags = surface,
                            .contents_flags = sh->contents,
                            .entity = c->model[mc->m].entity,
                            .material = c->shader[b->shader].source_material};
    blvl_bake_collider k = base_collider(c, mc);
    k.flags = flags;
    if (flags & blvl_ColliderFlag_Water)
        k.material = liquid_material(c, b);
    blvl_status st = blvl_bake_add_source(c->b, &src, &k.symbol, c->err);
    if (st)
        return st;
    uint32_t index = BLVL_BAKE_NONE;
    if (n && (st = blvl_bake_add_brush(c->b, &k, mc->planes, n, &index, c->err)))
        return st;
    if (index == BLVL_BAKE_NONE) {
        c->report->brushes_dropped++;
        return BLVL_OK;
    }
    c->report->brushes++;
    if (!(sh->contents & (BLVL_Q3_CONTENTS_LAVA | BLVL_Q3_CONTENTS_SLIME)) ||
        (flags & blvl_ColliderFlag_Water) == 0)
        return BLVL_OK;
    /* Lava and slime hurt whoever is in them (P_WorldEffects). */
    blvl_bake_hurt h = {.name = sh->name,
                        .kind = blvl_HurtKind_Damage,
                        .amount = (sh->contents & BLVL_Q3_CONTENTS_LAVA) ? Q3_LAVA_DMG : 0,
                        .interval = Q3_PAIN_DEBOUNCE,
                        .planes = mc->planes,
                        .plane_count = n};
    if (sh->contents & BLVL_Q3_CONTENTS_SLIME)
        h.amount += Q3_SLIME_DMG;
    if (!blvl__import_q3_coll_planes_bounds(c, mc->planes, n, &h.lo, &h.hi, &st))
        return st;
    return blvl_bake_add_hurt(c->b, &h, c->err);
}

/* The entity that names model m (its index in c->ents), or NONE. */
static uint32_t q3_entity_of(const q3_ctx *c, uint32_t m) {
    if (c->model[m].entity == BLVL_BAKE_NONE)
        return BLVL_BAKE_NONE;
    for (uint32_t i = 0; i < c->ents.count; i++)
        if (c->entity_index[i] == c->model[m].entity)
            return i;
    return BLVL_BAKE_NONE;
}

blvl_status blvl__import_q3_coll_colliders(q3_ctx *c) {
    const blvl_allocator *al = &c->opt->allocator;
    const blvl_q3_bsp *bsp = c->bsp;
    float t = c->o->patch_thickness;
    if (!isfinite(t) || t < 0)
        return blvl__fail(c->err, BLVL_E_ARGUMENT,
                          "patch-thickness: %g is not a positive finite number of qu", (double)t);
    uint32_t room = blvl__import_q3_coll_max_sides(c);
    model_ctx mc = {0};
    size_t cells = (size_t)Q3_MAX_GRID * Q3_MAX_GRID;
    mc.planes = blvl__calloc_n(al, room ? room : 1, sizeof *mc.planes);
    mc.grid = blvl__calloc_n(al, cells, sizeof mc.grid[0]);
    if (!mc.planes || !mc.grid) {
        if (mc.planes)
            blvl__dealloc(al, mc.planes, (size_t)(room ? room : 1) * sizeof *mc.planes);
        if (mc.grid)
            blvl__dealloc(al, mc.grid, cells * sizeof mc.grid[0]);
        return blvl__nomem(c->err, "the bake's scratch memory");
    }
    blvl_status st = BLVL_OK;
    for (uint32_t m = 0; st == BLVL_OK && m < bsp->model_count; m++) {
        const q3_model_place *p = &c->model[m];
        /* A model no entity names is never spawned; trigger models became volumes. */
        if ((m && p->entity == BLVL_BAKE_NONE) || p->skip || p->nonsolid)
            continue;
        mc.m = m;
        mc.q3_entity = q3_entity_of(c, m);
        mc.name = NULL;
        if (m) {
            const char *tn = mc.q3_entity != BLVL_BAKE_NONE
                                 ? blvl_q3_entity_get(&c->ents.items[mc.q3_entity], "targetname")
                                 : NULL;
            if (tn && *tn)
                mc.name = tn;
            else {
                /* the model as the entity names it */
                char *s = mc.star;
                *s++ = '*';
                uint32_t v = m, digits = 1;
                for (uint32_t x = v; x >= 10; x /= 10)
                    digits++;
                for (uint32_t d = digits; d-- > 0; v /= 10)
                    s[d] = (char)('0' + v % 10);
                s[digits] = 0;
                mc.name = mc.star;
            }
        }
        const blvl_q3_model *mod = &bsp->models[m];
        for (int32_t k = 0; st == BLVL_OK && k < mod->num_brushes; k++)
            st = brush(c, &mc, (uint32_t)(mod->first_brush + k));
        for (int32_t k = 0; st == BLVL_OK && k < mod->num_surfaces; k++) {
            uint32_t si = (uint32_t)(mod->first_surface + k);
            if (bsp->surfaces[si].type != BLVL_Q3_MST_PATCH)
                continue;
            blvl_bake_collider base = base_collider(c, &mc);
            st = blvl__import_q3_coll_patch(c, si, c->model[m].offset, &base,
                                            t > 0 ? t : Q3_PATCH_THICKNESS, mc.grid);
        }
    }
    blvl__dealloc(al, mc.planes, (size_t)(room ? room : 1) * sizeof *mc.planes);
    blvl__dealloc(al, mc.grid, cells * sizeof mc.grid[0]);
    return st;
}
