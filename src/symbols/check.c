/* The invariants of a .bsym (docs/SYMBOLS.md lists them by name). The reader runs them on what it
 * read, the writer on what it is about to write; each refusal names its invariant last, in
 * parentheses. */
#include "common/error.h"
#include "symbols/symbols_internal.h"

#define NONE BLVL_SYMBOLS_NONE

static blvl_status own(const blvl_symbols_data *d, blvl_error *err) {
    for (uint32_t i = 0; i < d->collider_count; i++)
        if (d->colliders[i] != NONE && d->colliders[i] >= d->source_count)
            return blvl__fail(
                err, BLVL_E_SYMBOLS,
                "colliders[%u] %u is not below the %u sources (collider-source-range)", i,
                d->colliders[i], d->source_count);
    for (uint32_t i = 0; i < d->run_count; i++) {
        const blvl_symbols_run *r = &d->runs[i];
        if (i == 0 && r->first_tri != 0)
            return blvl__fail(err, BLVL_E_SYMBOLS,
                              "tri_runs[0].first_tri %u is not 0 (tri-runs-start)", r->first_tri);
        if (i > 0 && r->first_tri <= d->runs[i - 1].first_tri)
            return blvl__fail(err, BLVL_E_SYMBOLS,
                              "tri_runs[%u].first_tri %u is not above tri_runs[%u].first_tri %u "
                              "(tri-runs-sorted)",
                              i, r->first_tri, i - 1, d->runs[i - 1].first_tri);
        if (r->source != NONE && r->source >= d->source_count)
            return blvl__fail(
                err, BLVL_E_SYMBOLS,
                "tri_runs[%u].source %u is not below the %u sources (run-source-range)", i,
                r->source, d->source_count);
    }
    for (uint32_t i = 0; i < d->source_count; i++) {
        uint32_t m = d->sources[i].material;
        if (m != NONE && m >= d->material_count)
            return blvl__fail(err, BLVL_E_SYMBOLS,
                              "sources[%u].material %u is not below the %u materials "
                              "(source-material-range)",
                              i, m, d->material_count);
    }
    return BLVL_OK;
}

static blvl_status against(const blvl_symbols_data *d, const blvl__symbols_level *lv,
                           blvl_error *err) {
    if (d->collider_count != lv->colliders)
        return blvl__fail(err, BLVL_E_SYMBOLS,
                          "colliders has %u entries, sim.colliders %u (colliders-parallel)",
                          d->collider_count, lv->colliders);
    if (d->run_count == 0 && lv->triangles > 0)
        return blvl__fail(err, BLVL_E_SYMBOLS,
                          "no tri_runs for the %u triangles of geometry.indices (tri-runs-cover)",
                          lv->triangles);
    if (d->run_count > 0 && d->runs[d->run_count - 1].first_tri >= lv->triangles)
        return blvl__fail(err, BLVL_E_SYMBOLS,
                          "tri_runs[%u].first_tri %u is not below the %u triangles of "
                          "geometry.indices (tri-runs-cover)",
                          d->run_count - 1, d->runs[d->run_count - 1].first_tri, lv->triangles);
    for (uint32_t i = 0; i < d->source_count; i++) {
        uint32_t e = d->sources[i].entity;
        if (e != NONE && e >= lv->entities)
            return blvl__fail(err, BLVL_E_SYMBOLS,
                              "sources[%u].entity %u is not below the %u entities of the level "
                              "(source-entity-range)",
                              i, e, lv->entities);
    }
    for (uint32_t i = 0; i < d->material_count; i++) {
        uint32_t m = d->materials[i].baked;
        if (m != NONE && m >= lv->materials)
            return blvl__fail(err, BLVL_E_SYMBOLS,
                              "materials[%u].baked %u is not below the %u geometry.materials "
                              "(material-baked-range)",
                              i, m, lv->materials);
    }
    return BLVL_OK;
}

blvl_status blvl__symbols_check(const blvl_symbols_data *d, const blvl__symbols_level *lv,
                                blvl_error *err) {
    blvl_status st = own(d, err);
    if (st == BLVL_OK && lv)
        st = against(d, lv, err);
    return st;
}

uint32_t blvl__symbols_run_of(const blvl_symbols_run *runs, uint32_t count, uint32_t t) {
    uint32_t lo = 0, hi = count; /* runs[lo].first_tri <= t; the answer is below hi */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (runs[mid].first_tri <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
