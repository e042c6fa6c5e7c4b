/* The .bsym sidecar (schema/bsym.fbs), written by the symbols layer's writer (which checks the
 * data's invariants first): the level's identity, each collider's symbol source (parallel to
 * sim.colliders), the triangle runs over the written geometry.indices (one run per surface in
 * written order, a NONE run for a surface without a source, adjacent runs of the same source
 * merged), the sources, and the materials with the index each became, the script that defined
 * each and the keywords the bake did not read. */
#include <string.h>

#include "bake/write.h"
#include "common/alloc.h"
#include "common/error.h"
#include "symbols/symbols_internal.h"

blvl_status blvl__bake_write_symbols(const blvl_bake *b, const bake_plan *plan,
                                     const uint8_t level[16], blvl_fb_builder *fb, bake_buf *out,
                                     blvl_error *err) {
    uint32_t nc = b->colliders.n, ns = b->sources.n, nm = b->materials.n;
    uint32_t nsurf = plan->order_count;
    uint32_t *cols = nc ? blvl__alloc(b->al, (size_t)nc * sizeof *cols) : NULL;
    blvl_symbols_run *runs = nsurf ? blvl__alloc(b->al, (size_t)nsurf * sizeof *runs) : NULL;
    blvl_symbols_source *srcs = ns ? blvl__alloc(b->al, (size_t)ns * sizeof *srcs) : NULL;
    blvl_symbols_material *mats = nm ? blvl__alloc(b->al, (size_t)nm * sizeof *mats) : NULL;
    blvl_status st = BLVL_OK;
    if ((nc && !cols) || (nsurf && !runs) || (ns && !srcs) || (nm && !mats)) {
        st = blvl__fail(err, BLVL_E_NOMEM, "bake: out of memory writing symbols");
        goto done;
    }
    for (uint32_t i = 0; i < nc; i++)
        cols[i] = b->colliders.p[i].c.symbol;
    uint32_t nr = 0, tri = 0;
    for (uint32_t o = 0; o < nsurf; o++) {
        const bake_surface *s = &b->surfaces.p[plan->order[o]];
        if (s->index_count == 0)
            continue;
        if (nr == 0 || runs[nr - 1].source != s->source)
            runs[nr++] = (blvl_symbols_run){tri, s->source};
        tri += s->index_count / 3u;
    }
    for (uint32_t i = 0; i < ns; i++) {
        const blvl_bake_source *s = &b->sources.p[i];
        srcs[i] = (blvl_symbols_source){s->kind,           s->index,  s->surface_flags,
                                        s->contents_flags, s->entity, s->material};
    }
    for (uint32_t i = 0; i < nm; i++) {
        const blvl_bake_material *m = &b->materials.p[i];
        mats[i] = (blvl_symbols_material){m->source_name ? m->source_name : m->name,
                                          m->source_shader,
                                          m->source_texture,
                                          i,
                                          m->unknown_keyword_count,
                                          m->unknown_keywords};
    }
    blvl_symbols_data d = {.colliders = cols,
                           .collider_count = nc,
                           .runs = runs,
                           .run_count = nr,
                           .sources = srcs,
                           .source_count = ns,
                           .materials = mats,
                           .material_count = nm};
    memcpy(d.level, level, sizeof d.level);
    st = blvl__symbols_build(&d, b->al, fb, &out->data, &out->size, err);
done:
    blvl__bake_dealloc(b, cols, (size_t)nc * sizeof *cols);
    blvl__bake_dealloc(b, runs, (size_t)nsurf * sizeof *runs);
    blvl__bake_dealloc(b, srcs, (size_t)ns * sizeof *srcs);
    blvl__bake_dealloc(b, mats, (size_t)nm * sizeof *mats);
    return st;
}
