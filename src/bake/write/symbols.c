/* The .bsym sidecar (schema/bsym.fbs), written by the symbols layer's writer (which checks the
 * data's invariants first): the level's identity, each collider's symbol source (parallel to
 * sim.colliders), the triangle runs over the written geometry.indices (one run per surface in
 * written order, or one per change of source in a surface with a per-triangle source map; a
 * NONE run for a surface without a source, adjacent runs of the same source merged), the
 * sources, and the materials with the index each became, the script that defined each and the
 * keywords the bake did not read. */
#include <string.h>

#include "bake/write/write.h"
#include "common/advise.h"
#include "common/alloc.h"
#include "common/error.h"
#include "symbols/symbols_internal.h"
#include "symbols_write/symbols_write.h"

blvl_status blvl__bake_write_symbols(const blvl_bake *b, const bake_plan *plan,
                                     const uint8_t level[16], blvl_fb_builder *fb, bake_buf *out,
                                     blvl_error *err) {
    uint32_t nc = blvl__bake_model_collider_count(b), ns = b->sources.n, nm = b->materials.n;
    uint32_t nsurf = plan->order_count;
    /* at most one run per surface, or per triangle of a surface with a source map */
    size_t most = 0;
    for (uint32_t i = 0; i < b->surfaces.n; i++) {
        const bake_surface *s = &b->surfaces.p[i];
        most += s->first_tri_source == BLVL_BAKE_NONE ? 1u : s->index_count / 3u;
    }
    uint32_t *cols = nc ? blvl__alloc(b->al, (size_t)nc * sizeof *cols) : NULL;
    blvl_symbols_run *runs = most ? blvl__alloc(b->al, most * sizeof *runs) : NULL;
    blvl_symbols_material *mats = nm ? blvl__alloc(b->al, (size_t)nm * sizeof *mats) : NULL;
    blvl_status st = BLVL_OK;
    if ((nc && !cols) || (most && !runs) || (nm && !mats)) {
        st = blvl__nomem(err, "bake: writing symbols");
        goto done;
    }
    blvl__advise_large(cols, (size_t)nc * sizeof *cols); /* a level's worth: MiBs, fresh */
    blvl__advise_large(runs, most * sizeof *runs);
    for (uint32_t i = 0; i < nc; i++)
        cols[i] = blvl__bake_model_collider_info(b, i).symbol;
    uint32_t nr = 0, tri = 0;
    for (uint32_t o = 0; o < nsurf; o++) {
        const bake_surface *s = &b->surfaces.p[plan->order[o]];
        if (s->index_count == 0)
            continue;
        if (s->first_tri_source != BLVL_BAKE_NONE) { /* a run where the source changes */
            const uint32_t *ts = b->tri_sources.p + s->first_tri_source;
            for (uint32_t t = 0; t < s->index_count / 3u; t++, tri++)
                if (nr == 0 || runs[nr - 1].source != ts[t])
                    runs[nr++] = (blvl_symbols_run){tri, ts[t]};
            continue;
        }
        if (nr == 0 || runs[nr - 1].source != s->source)
            runs[nr++] = (blvl_symbols_run){tri, s->source};
        tri += s->index_count / 3u;
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
                           .sources = b->sources.p,
                           .source_count = ns,
                           .materials = mats,
                           .material_count = nm};
    memcpy(d.level, level, sizeof d.level);
    st = blvl__symbols_write_build(&d, b->al, fb, &out->data, &out->size, err);
done:
    blvl__bake_model_dealloc(b, cols, (size_t)nc * sizeof *cols);
    blvl__bake_model_dealloc(b, runs, most * sizeof *runs);
    blvl__bake_model_dealloc(b, mats, (size_t)nm * sizeof *mats);
    return st;
}
