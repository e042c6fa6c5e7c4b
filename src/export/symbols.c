/* Where a batch or a collider came from, from the level's .bsym when the caller gave one: each
 * becomes a "symbols" member of the element's extras (a collider: its one source; a batch: the
 * runs of triangles it holds, each with its source, at most XP_MAX_RUNS of them). */
#include "blvl/symbols.h"
#include "export/export_internal.h"

/* A Quake 3 batch can hold thousands of faces; past this many runs the list says it stops. */
#define XP_MAX_RUNS 4096u

static void put_source(const blvl_symbols *sym, json_text *j, uint32_t s) {
    const blvl_symbols_source *src = blvl_symbols_source_at(sym, s);
    if (!src)
        return;
    const char *kind = blvl_symbols_kind_name(src->kind);
    if (kind)
        blvl__export_json_str(j, "kind", kind);
    else
        blvl__export_json_u64(j, "kind", src->kind);
    blvl__export_json_u64(j, "index", src->index);
    if (src->entity != BLVL_SYMBOLS_NONE)
        blvl__export_json_u64(j, "entity", src->entity);
    blvl_symbols_material m;
    if (src->material != BLVL_SYMBOLS_NONE && blvl_symbols_material_at(sym, src->material, &m)) {
        blvl__export_json_str(j, "material", m.name);
        if (m.shader[0])
            blvl__export_json_str(j, "shader", m.shader);
    }
    blvl__export_json_u64(j, "contents_flags", src->contents_flags);
    blvl__export_json_u64(j, "surface_flags", src->surface_flags);
}

void blvl__export_batch_source(gltf_export *x, json_text *j, uint32_t batch) {
    const blvl_symbols *sym = x->xo ? x->xo->symbols : NULL;
    uint32_t n = 0;
    const blvl_symbols_run *runs = sym ? blvl_symbols_batch_runs(sym, batch, &n) : NULL;
    if (!runs || !n)
        return;
    blvl__export_json_arr(j, "symbols");
    for (uint32_t i = 0; i < n && i < XP_MAX_RUNS; i++) {
        blvl__export_json_obj(j, NULL);
        blvl__export_json_u64(j, "first_triangle", runs[i].first_tri);
        if (runs[i].source != BLVL_SYMBOLS_NONE)
            put_source(sym, j, runs[i].source);
        blvl__export_json_end(j);
    }
    blvl__export_json_end(j);
    if (n > XP_MAX_RUNS)
        blvl__export_json_u64(j, "symbols_runs_left_out", n - XP_MAX_RUNS);
}

void blvl__export_collider_source(gltf_export *x, json_text *j, uint32_t collider) {
    const blvl_symbols *sym = x->xo ? x->xo->symbols : NULL;
    uint32_t s = sym ? blvl_symbols_collider_source(sym, collider) : BLVL_SYMBOLS_NONE;
    if (s == BLVL_SYMBOLS_NONE)
        return;
    blvl__export_json_obj(j, "symbols");
    put_source(sym, j, s);
    blvl__export_json_end(j);
}
