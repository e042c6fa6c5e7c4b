/* Prisms in the model (bake/model/fast.h; docs/BAKE.md, "Prisms"): a prism that passes the
 * cheap checks (bake/convex/known_prism.c) is stored compactly, its corners in the arena and its
 * faces one template per shape; a made prism keeps its maker's key, not its corners; the rest go
 * through the known-hull path. */
#include <string.h>

#include "bake/model/fast.h"
#include "bake/model/model.h"
#include "common/error.h"

/* The template as the model stores it (u32), built once per bake in its arena. */
static const bake_prism_template *template_of(blvl_bake *b, uint32_t n, int split, bool up) {
    int v = blvl__bake_convex_prism_variant(n, split, up);
    if (b->prisms[v].face_sizes)
        return &b->prisms[v];
    uint8_t sizes[BAKE_KNOWN_MAX], idx[4 * BAKE_KNOWN_MAX];
    uint32_t nf, nt;
    blvl__bake_convex_prism_faces(n, split, up, sizes, idx, &nf, &nt);
    uint32_t *block = blvl__bake_model_arena(b, ((size_t)nf + nt) * sizeof *block);
    if (!block)
        return NULL;
    for (uint32_t f = 0; f < nf; f++)
        block[f] = sizes[f];
    for (uint32_t q = 0; q < nt; q++)
        block[nf + q] = idx[q];
    b->prisms[v] = (bake_prism_template){block, block + nf, nf, nt};
    return &b->prisms[v];
}

/* A prism whose cheap checks gave `ok`: stored compactly, else through the known-hull path. */
static blvl_status store_checked(blvl_bake *b, const blvl_bake_collider *c, const blvl_Vec3 *points,
                                 uint32_t n, int split, bool up, bool ok, uint32_t *index,
                                 blvl_error *err) {
    if (ok) {
        const bake_prism_template *t = template_of(b, n, split, up);
        blvl_Vec3 *v = t ? blvl__bake_model_arena(b, 2 * n * sizeof *v) : NULL;
        if (!v)
            return blvl__nomem(err, "hull: a prism");
        memcpy(v, points, 2 * n * sizeof *v);
        return blvl__bake_model_store_prism(b, c, v, 2 * n, t, index, err);
    }
    uint8_t sizes[BAKE_KNOWN_MAX], idx[4 * BAKE_KNOWN_MAX];
    uint32_t nf, nt;
    blvl__bake_convex_prism_faces(n, split, up, sizes, idx, &nf, &nt);
    return blvl__bake_model_add_known_hull(b, c, points, 2 * n, sizes, nf, idx, index, err);
}

blvl_status blvl__bake_model_add_prism(blvl_bake *b, const blvl_bake_collider *c,
                                       const blvl_Vec3 *points, uint32_t n, int split, bool up,
                                       uint32_t *index, blvl_error *err) {
    if (!b || !points || (n != 3 && n != 4) || split < -1 || split > 1 || (n == 3 && split >= 0))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: add_prism: a prism of 3 or 4 corners");
    return store_checked(b, c, points, n, split, up,
                         blvl__bake_convex_prism_ok(points, n, split, up), index, err);
}

blvl_status blvl__bake_model_prism_maker(blvl_bake *b, blvl__bake_prism_make_fn make,
                                         const void *ctx, uint32_t *maker, blvl_error *err) {
    if (!b || !make || !maker)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: prism_maker: a bake, a maker and *maker");
    if (b->prism_makers.n > UINT16_MAX)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: over 65536 prism makers");
    blvl_status st = BAKE_RESERVE(b, b->prism_makers, 1, err);
    if (st != BLVL_OK)
        return st;
    *maker = b->prism_makers.n;
    b->prism_makers.p[b->prism_makers.n++] = (bake_prism_maker){make, ctx};
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl__bake_model_add_prism_made(blvl_bake *b, const blvl_bake_collider *c,
                                            uint32_t maker, const uint32_t key[4], uint32_t n,
                                            int split, bool up, uint32_t *index, blvl_error *err) {
    if (!b || !c || !key || maker >= b->prism_makers.n || (n != 3 && n != 4) || split < -1 ||
        split > 1 || (n == 3 && split >= 0))
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "bake: add_prism_made: a registered maker, a key and 3 or 4 corners");
    blvl_Vec3 p[8];
    b->prism_makers.p[maker].make(b->prism_makers.p[maker].ctx, key, n, p);
    bool ok = blvl__bake_convex_prism_ok(p, n, split, up);
    if (c->source_name || !ok) /* the kept form has no name */
        return store_checked(b, c, p, n, split, up, ok, index, err);
    if (!template_of(b, n, split, up))
        return blvl__nomem(err, "hull: a prism");
    return blvl__bake_model_store_made_prism(
        b, c, maker, key, (uint8_t)blvl__bake_convex_prism_variant(n, split, up), index, err);
}
