/* The .bsym sidecar (schema/bsym.fbs): the level's identity, version 1, each collider's symbol
 * source (parallel to sim.colliders), the triangle runs over the written geometry.indices (one
 * run per surface in written order, a NONE run for a surface without a source, adjacent runs of
 * the same source merged), the sources, and the materials with the index each became, the
 * script that defined each and the keywords the bake did not read. */
#include "bake/material_ext.h"
#include "bake/write.h"
#include "blvl/sections/bsym_builder.h"
#include "common/alloc.h"
#include "common/error.h"

blvl_status blvl__bake_write_symbols(const blvl_bake *b, const bake_plan *plan,
                                     const uint8_t level[16], blvl_fb_builder *fb, bake_buf *out,
                                     blvl_error *err) {
    uint32_t nc = b->colliders.n, ns = b->sources.n, nm = b->materials.n;
    uint32_t nsurf = plan->order_count;
    uint32_t *cols = nc ? blvl__alloc(b->al, (size_t)nc * sizeof *cols) : NULL;
    blvl_TriRun *runs = nsurf ? blvl__alloc(b->al, (size_t)nsurf * sizeof *runs) : NULL;
    blvl_SymbolSource *srcs = ns ? blvl__alloc(b->al, (size_t)ns * sizeof *srcs) : NULL;
    blvl_fb_ref *refs = blvl__bake_refs(b, nm, err);
    uint32_t most = 0; /* scratch for a material's unknown keywords */
    for (uint32_t i = 0; i < nm; i++)
        most = b->materials.p[i].unknown_keyword_count > most
                   ? b->materials.p[i].unknown_keyword_count
                   : most;
    blvl_fb_ref *list = blvl__bake_refs(b, most, err);
    blvl_status st = BLVL_OK;
    if ((nc && !cols) || (nsurf && !runs) || (ns && !srcs) || (nm && !refs) || (most && !list)) {
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
            runs[nr++] = (blvl_TriRun){tri, s->source};
        tri += s->index_count / 3u;
    }
    for (uint32_t i = 0; i < ns; i++) {
        const blvl_bake_source *s = &b->sources.p[i];
        srcs[i] = (blvl_SymbolSource){(blvl_SourceKind)s->kind, s->index,  s->surface_flags,
                                      s->contents_flags,        s->entity, s->material};
    }
    blvl_fb_builder_reset(fb);
    for (uint32_t i = 0; i < nm; i++) {
        const blvl_bake_material *m = &b->materials.p[i];
        blvl_fb_ref name = blvl__bake_fb_str(fb, m->source_name ? m->source_name : m->name);
        blvl_fb_ref shader = blvl__bake_fb_str(fb, m->source_shader);
        blvl_fb_ref tex = blvl__bake_fb_str(fb, m->source_texture);
        blvl_fb_ref unknown = blvl__bake_write_unknown(fb, m, list);
        blvl_SymbolMaterial_start(fb);
        blvl_SymbolMaterial_add_name(fb, name);
        blvl_SymbolMaterial_add_shader(fb, shader);
        blvl_SymbolMaterial_add_texture(fb, tex);
        blvl_SymbolMaterial_add_baked(fb, i);
        blvl_SymbolMaterial_add_unknown(fb, unknown);
        refs[i] = blvl_SymbolMaterial_end(fb);
    }
    blvl_fb_ref mats = nm ? blvl_fb_create_ref_vector(fb, refs, nm) : 0;
    blvl_fb_ref lv = blvl_Symbols_level_create(fb, level, 16);
    blvl_fb_ref cv = nc ? blvl_Symbols_colliders_create(fb, cols, nc) : 0;
    blvl_fb_ref rv = nr ? blvl_Symbols_tri_runs_create(fb, runs, nr) : 0;
    blvl_fb_ref sv = ns ? blvl_Symbols_sources_create(fb, srcs, ns) : 0;
    blvl_Symbols_start(fb);
    blvl_Symbols_add_level(fb, lv);
    blvl_Symbols_add_version(fb, 1);
    blvl_Symbols_add_colliders(fb, cv);
    blvl_Symbols_add_tri_runs(fb, rv);
    blvl_Symbols_add_sources(fb, sv);
    blvl_Symbols_add_materials(fb, mats);
    st = blvl_Symbols_finish(fb, blvl_Symbols_end(fb), &out->data, &out->size, err);
done:
    blvl__bake_dealloc(b, cols, (size_t)nc * sizeof *cols);
    blvl__bake_dealloc(b, runs, (size_t)nsurf * sizeof *runs);
    blvl__bake_dealloc(b, srcs, (size_t)ns * sizeof *srcs);
    blvl__bake_refs_free(b, refs, nm);
    blvl__bake_refs_free(b, list, most);
    return st;
}
