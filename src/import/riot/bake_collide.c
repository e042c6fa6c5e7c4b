/* One layer's colliders (docs/IMPORT-RIOT.md, "Collision"). Every solid triangle (not a hole)
 * stands for a vertical prism: the triangle and its copy moved RB_*_THICKNESS qu down (floor,
 * between) or up (ceiling). Prisms of neighbouring cells share their vertical side faces exactly,
 * so the solid under a floor has no gaps and no overlaps.
 *
 * Fewer, larger colliders: a cell whose four corners lie on one plane (a + d = b + c in the
 * integer height offsets) and whose two triangles are both solid is a planar quad; a rectangle of
 * such cells with the same slopes (b - a and c - a) is one planar rectangle, its prism one convex
 * hull of 8 points. A cell that is not planar is one hull of 8 points too when its two triangles
 * bend away from the empty side (convex_cell), else two prisms of 6. Rectangles are grown greedily,
 * row-major: from the first free cell as far right as the slopes match, then down while the whole
 * span matches. A box sliding along a plane crosses no internal edge inside a rectangle, and where
 * it does cross one (between rectangles and triangle prisms) the neighbour's top face is the same
 * plane, which a box above the plane never enters. */
#include <string.h>

#include "bake_internal.h"
#include "blvl/sections/sim.h"
#include "common/alloc.h"
#include "common/error.h"

typedef struct cellinfo {
    int32_t gx, gz; /* b - a, c - a */
    bool merge;     /* planar and both triangles solid */
} cellinfo;

static double thickness(uint32_t type) {
    return type == 1   ? RB_CEILING_THICKNESS
           : type == 2 ? -RB_BETWEEN_THICKNESS
                       : -RB_FLOOR_THICKNESS;
}

static blvl_Vec3 moved(blvl_Vec3 p, double dy) {
    return (blvl_Vec3){p.x, (float)((double)p.y + dy), p.z};
}

static bool same(const cellinfo *a, const cellinfo *b) {
    return a->merge && b->merge && a->gx == b->gx && a->gz == b->gz;
}

/* The collider's material: the one material every triangle in it is drawn with, else none;
 * flags: Clip when every triangle in it is invisible (solid, never drawn). */
typedef struct looks {
    uint32_t material;
    bool any, mixed, all_invisible;
} looks;

static void look(riot_bake *c, looks *k, uint32_t ref) {
    uint32_t m = blvl__import_riot_bake_material(c, ref);
    k->all_invisible = k->all_invisible && ref == BLVL_RIOT_INVISIBLE;
    if (!k->any)
        k->material = m, k->any = true;
    else if (k->material != m)
        k->mixed = true;
}

static void collider_init(riot_bake *c, uint32_t layer, const looks *k, uint32_t symbol,
                          blvl_bake_collider *bc) {
    blvl_bake_collider_init(bc);
    bc->material = k->mixed ? BLVL_BAKE_NONE : k->material;
    bc->flags = k->all_invisible ? (uint32_t)blvl_ColliderFlag_Clip : 0u;
    bc->source_kind = blvl_ColliderSourceKind_World;
    bc->source_entity = c->layer_entity[layer];
    bc->symbol = symbol;
}

static const uint8_t TRI[2][2][3] = {
    {{RB_A, RB_C, RB_B}, {RB_B, RB_C, RB_D}},
    {{RB_A, RB_C, RB_D}, {RB_A, RB_D, RB_B}},
};

/* Whether a cell's two solid triangles make one convex prism: the diagonal the division picks is
 * the cell's ridge seen from the empty side (higher than the other diagonal for a floor or a
 * between layer, lower for a ceiling), so the two triangles are the face of the corners' convex
 * hull on that side. The far face of the hull then follows the other diagonal: the solid is at
 * least the thickness deep, up to half the diagonals' height difference more. */
static bool convex_cell(uint32_t type, const rb_grid *g, uint32_t r, uint32_t col,
                        const blvl_riot_cell *cell) {
    if (cell->texture[0] == BLVL_RIOT_HOLE || cell->texture[1] == BLVL_RIOT_HOLE)
        return false;
    size_t row = (size_t)g->w + 1, a = (size_t)r * row + col;
    int64_t ad = (int64_t)g->hraw[a] + g->hraw[a + row + 1];
    int64_t bc = (int64_t)g->hraw[a + 1] + g->hraw[a + row];
    int64_t picked = (cell->flags & 1) ? ad : bc, other = (cell->flags & 1) ? bc : ad;
    return type == 1 ? picked < other : picked > other;
}

/* A layer's prisms are made prisms (bake/known.h): the bake keeps each one's grid corners, not
 * its corners, and makes the corners again from the grid (in its arena) when it writes. */
typedef struct prism_grid {
    const blvl_Vec3 *pos;
    double dy;
} prism_grid;

static void make_prism(const void *ctx, const uint32_t key[4], uint32_t n, blvl_Vec3 *out) {
    const prism_grid *pg = ctx;
    for (uint32_t q = 0; q < n; q++) {
        out[q] = pg->pos[key[q]];
        out[n + q] = moved(out[q], pg->dy);
    }
}

/* A prism over a cell's outline (bake/known.h): corners 0..n-1 the surface (a, b, c, d of a cell,
 * or a triangle's three counter-clockwise seen from above: the grid vertices `corner`), n..2n-1
 * their copies moved by dy. The surface side is one face or, where `split` names a diagonal of a
 * quad (0: c-b, 1: a-d), two triangles; the far side follows the other diagonal. The bake takes
 * the faces without the general hull; a ceiling's solid lies above the surface. */
static blvl_status add_prism(riot_bake *c, const blvl_bake_collider *bc, uint32_t maker,
                             const size_t *corner, uint32_t n, int split, double dy) {
    uint32_t index, key[4] = {0, 0, 0, 0};
    for (uint32_t q = 0; q < n; q++)
        key[q] = (uint32_t)
            corner[q]; /* a grid's vertices fit: blvl__import_riot_bake_colliders checks */
    return blvl__bake_model_add_prism_made(c->b, bc, maker, key, n, split, dy > 0, &index, c->err);
}

blvl_status blvl__import_riot_bake_colliders(riot_bake *c, uint32_t layer, const rb_grid *g,
                                             uint32_t first_source) {
    const blvl_riot_layer *L = &c->lv->layers[layer];
    if (!g->w || !g->h)
        return BLVL_OK;
    size_t cells = (size_t)g->w * g->h, row = (size_t)g->w + 1;
    if (row * ((size_t)g->h + 1) > UINT32_MAX)
        return blvl__fail(c->err, BLVL_E_ARGUMENT, "riot: layer %u: %zu grid vertices, over 2^32",
                          layer, row * ((size_t)g->h + 1));
    prism_grid *pg = blvl__bake_model_arena(c->b, sizeof *pg);
    if (!pg)
        return blvl__nomem(c->err, "the bake's scratch memory");
    *pg = (prism_grid){g->pos, thickness(L->type)};
    uint32_t maker;
    blvl_status st = blvl__bake_model_prism_maker(c->b, make_prism, pg, &maker, c->err);
    if (st != BLVL_OK)
        return st;
    cellinfo *info = blvl__calloc_n(c->al, cells, sizeof *info);
    uint8_t *used = blvl__calloc_n(c->al, cells, 1);
    if (!info || !used) {
        if (info)
            blvl__dealloc(c->al, info, cells * sizeof *info);
        if (used)
            blvl__dealloc(c->al, used, cells);
        return blvl__nomem(c->err, "the bake's scratch memory");
    }
    for (size_t k = 0; k < cells; k++) {
        size_t r = k / g->w, col = k % g->w, a = r * row + col;
        int32_t ha = g->hraw[a], hb = g->hraw[a + 1], hc = g->hraw[a + row],
                hd = g->hraw[a + row + 1];
        info[k].gx = hb - ha;
        info[k].gz = hc - ha;
        info[k].merge = (int64_t)ha + hd == (int64_t)hb + hc &&
                        L->cells[k].texture[0] != BLVL_RIOT_HOLE &&
                        L->cells[k].texture[1] != BLVL_RIOT_HOLE;
    }
    double dy = thickness(L->type);
    for (uint32_t r = 0; r < g->h && st == BLVL_OK; r++)
        for (uint32_t col = 0; col < g->w && st == BLVL_OK; col++) {
            size_t k = (size_t)r * g->w + col;
            if (used[k])
                continue;
            uint32_t symbol = first_source + (uint32_t)k;
            blvl_bake_collider bc;
            if (info[k].merge) {
                uint32_t c1 = col + 1, r1 = r + 1;
                while (c1 < g->w && !used[k + (c1 - col)] && same(&info[k], &info[k + (c1 - col)]))
                    c1++;
                for (bool grow = true; grow && r1 < g->h;) {
                    size_t base = (size_t)r1 * g->w;
                    for (uint32_t x = col; x < c1 && grow; x++)
                        grow = !used[base + x] && same(&info[k], &info[base + x]);
                    r1 += grow;
                }
                looks lk = {BLVL_BAKE_NONE, false, false, true};
                for (uint32_t y = r; y < r1; y++)
                    for (uint32_t x = col; x < c1; x++) {
                        size_t q = (size_t)y * g->w + x;
                        used[q] = 1;
                        look(c, &lk, L->cells[q].texture[0]);
                        look(c, &lk, L->cells[q].texture[1]);
                    }
                size_t corner[4] = {(size_t)r * row + col, (size_t)r * row + c1,
                                    (size_t)r1 * row + col, (size_t)r1 * row + c1};
                collider_init(c, layer, &lk, symbol, &bc);
                st = add_prism(c, &bc, maker, corner, 4, -1, dy);
                continue;
            }
            used[k] = 1;
            const blvl_riot_cell *cell = &L->cells[k];
            if (convex_cell(L->type, g, r, col, cell)) {
                size_t a = (size_t)r * row + col;
                size_t corner[4] = {a, a + 1, a + row, a + row + 1};
                looks lk = {BLVL_BAKE_NONE, false, false, true};
                look(c, &lk, cell->texture[0]);
                look(c, &lk, cell->texture[1]);
                collider_init(c, layer, &lk, symbol, &bc);
                st = add_prism(c, &bc, maker, corner, 4, cell->flags & 1, dy);
                continue;
            }
            for (int t = 0; t < 2 && st == BLVL_OK; t++) {
                if (cell->texture[t] == BLVL_RIOT_HOLE)
                    continue;
                size_t corner[3];
                for (int j = 0; j < 3; j++) {
                    int q = TRI[cell->flags & 1][t][j];
                    corner[j] = ((size_t)r + (q >= RB_C)) * row + col + (q & 1);
                }
                looks lk = {BLVL_BAKE_NONE, false, false, true};
                look(c, &lk, cell->texture[t]);
                collider_init(c, layer, &lk, symbol, &bc);
                st = add_prism(c, &bc, maker, corner, 3, -1, dy);
            }
        }
    blvl__dealloc(c->al, info, cells * sizeof *info);
    blvl__dealloc(c->al, used, cells);
    return st;
}
