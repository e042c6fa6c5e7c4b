/* Lookups: where collider N, triangle T and batch B came from. Every index is checked; out of
 * range gives NONE (or NULL / false), never a read past an array. */
#include "symbols/symbols_internal.h"

uint32_t blvl_symbols_collider_source(const blvl_symbols *sym, uint32_t collider) {
    return sym && collider < sym->info.colliders ? sym->colliders[collider] : BLVL_SYMBOLS_NONE;
}

uint32_t blvl_symbols_triangle_source(const blvl_symbols *sym, uint32_t triangle) {
    if (!sym || sym->info.runs == 0)
        return BLVL_SYMBOLS_NONE;
    /* With the level checked the runs end at its last triangle; without one, the last run goes
     * on (the file does not say where the geometry ends). */
    if (sym->info.checked && triangle >= sym->info.triangles)
        return BLVL_SYMBOLS_NONE;
    return sym->runs[blvl__symbols_run_of(sym->runs, sym->info.runs, triangle)].source;
}

const blvl_symbols_run *blvl_symbols_batch_runs(const blvl_symbols *sym, uint32_t batch,
                                                uint32_t *count) {
    if (count)
        *count = 0;
    if (!sym || batch >= sym->info.batches || sym->batch_runs[batch] == 0)
        return NULL;
    if (count)
        *count = sym->batch_runs[batch];
    return sym->runs + sym->batch_first[batch];
}

uint32_t blvl_symbols_batch_source(const blvl_symbols *sym, uint32_t batch) {
    uint32_t n = 0;
    const blvl_symbols_run *r = blvl_symbols_batch_runs(sym, batch, &n);
    if (!r)
        return BLVL_SYMBOLS_NONE;
    for (uint32_t i = 1; i < n; i++)
        if (r[i].source != r[0].source)
            return BLVL_SYMBOLS_NONE;
    return r[0].source;
}

const blvl_symbols_source *blvl_symbols_source_at(const blvl_symbols *sym, uint32_t index) {
    return sym && index < sym->info.sources ? &sym->sources[index] : NULL;
}

const blvl_symbols_run *blvl_symbols_runs(const blvl_symbols *sym, uint32_t *count) {
    if (count)
        *count = sym ? sym->info.runs : 0;
    return sym && sym->info.runs ? sym->runs : NULL;
}

bool blvl_symbols_material_at(const blvl_symbols *sym, uint32_t index, blvl_symbols_material *out) {
    if (!sym || index >= sym->info.materials)
        return false;
    if (out)
        *out = sym->materials[index];
    return true;
}
