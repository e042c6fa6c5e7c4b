/* Writing a .bsym: the data's own invariants first (the level-bound ones need the level, which the
 * writer does not have), then a version-1 FlatBuffer. The bake builds into its own builder through
 * blvl__symbols_write_build; blvl_symbols_write is the same with a builder of its own and a copy
 * out. */
#include <string.h>

#include "blvl/sections/bsym_builder.h"
#include "common/alloc.h"
#include "common/error.h"
#include "symbols/symbols_internal.h"
#include "symbols_write/symbols_write.h"

static blvl_fb_ref str(blvl_fb_builder *fb, const char *s) {
    return s ? blvl_fb_create_string(fb, s, strlen(s)) : 0;
}

/* A material table; `refs` is scratch for its unknown keywords. */
static blvl_fb_ref material(blvl_fb_builder *fb, const blvl_symbols_material *m,
                            blvl_fb_ref *refs) {
    blvl_fb_ref name = str(fb, m->name);
    blvl_fb_ref shader = str(fb, m->shader);
    blvl_fb_ref tex = str(fb, m->texture);
    blvl_fb_ref unknown = 0;
    if (m->unknown_count) {
        for (uint32_t k = 0; k < m->unknown_count; k++)
            refs[k] = str(fb, m->unknown[k]);
        unknown = blvl_fb_create_ref_vector(fb, refs, m->unknown_count);
    }
    blvl_SymbolMaterial_start(fb);
    blvl_SymbolMaterial_add_name(fb, name);
    blvl_SymbolMaterial_add_shader(fb, shader);
    blvl_SymbolMaterial_add_texture(fb, tex);
    blvl_SymbolMaterial_add_baked(fb, m->baked);
    blvl_SymbolMaterial_add_unknown(fb, unknown);
    return blvl_SymbolMaterial_end(fb);
}

static bool arrays_given(const blvl_symbols_data *d) {
    bool ok = (d->colliders || !d->collider_count) && (d->runs || !d->run_count) &&
              (d->sources || !d->source_count) && (d->materials || !d->material_count);
    for (uint32_t i = 0; ok && i < d->material_count; i++)
        ok = d->materials[i].unknown || !d->materials[i].unknown_count;
    return ok;
}

blvl_status blvl__symbols_write_build(const blvl_symbols_data *d, const blvl_allocator *al,
                                      blvl_fb_builder *fb, const uint8_t **bytes, size_t *size,
                                      blvl_error *err) {
    if (!d || !fb || !bytes || !size || !arrays_given(d))
        return blvl__fail(err, BLVL_E_ARGUMENT, "symbols: NULL argument");
    blvl_status st = blvl__symbols_check(d, NULL, err);
    if (st != BLVL_OK)
        return st;
    blvl_fb_builder_reset(fb);
    /* One scratch array of refs: the material tables, then (past them) a material's keywords. */
    uint32_t most = 0;
    for (uint32_t i = 0; i < d->material_count; i++)
        most = d->materials[i].unknown_count > most ? d->materials[i].unknown_count : most;
    size_t nrefs = (size_t)d->material_count + most;
    blvl_fb_ref *refs = NULL;
    if (nrefs) {
        refs = blvl__calloc_n(al, nrefs, sizeof *refs);
        if (!refs)
            return blvl__nomem(err, "symbols: writing");
    }
    for (uint32_t i = 0; i < d->material_count; i++)
        refs[i] = material(fb, &d->materials[i], refs + d->material_count);
    blvl_fb_ref mats =
        d->material_count ? blvl_fb_create_ref_vector(fb, refs, d->material_count) : 0;
    /* The public structs have the wire layout (both all-uint32), copied as bytes. */
    _Static_assert(sizeof(blvl_symbols_run) == sizeof(blvl_TriRun), "run layout");
    _Static_assert(sizeof(blvl_symbols_source) == sizeof(blvl_SymbolSource), "source layout");
    blvl_fb_ref lv = blvl_Symbols_level_create(fb, d->level, BLVL_DIGEST_SIZE);
    blvl_fb_ref cv =
        d->collider_count ? blvl_Symbols_colliders_create(fb, d->colliders, d->collider_count) : 0;
    blvl_fb_ref rv =
        d->run_count ? blvl_fb_create_struct_vector(fb, &blvl_TriRun_type, d->runs, d->run_count)
                     : 0;
    blvl_fb_ref sv = d->source_count ? blvl_fb_create_struct_vector(fb, &blvl_SymbolSource_type,
                                                                    d->sources, d->source_count)
                                     : 0;
    blvl_Symbols_start(fb);
    blvl_Symbols_add_level(fb, lv);
    blvl_Symbols_add_version(fb, BLVL_SYMBOLS_VERSION);
    blvl_Symbols_add_colliders(fb, cv);
    blvl_Symbols_add_tri_runs(fb, rv);
    blvl_Symbols_add_sources(fb, sv);
    blvl_Symbols_add_materials(fb, mats);
    st = blvl_Symbols_finish(fb, blvl_Symbols_end(fb), bytes, size, err);
    blvl__dealloc(al, refs, nrefs * sizeof *refs);
    return st;
}

blvl_status blvl_symbols_write(void **out, size_t *out_size, const blvl_symbols_data *data,
                               const blvl_options *opt, blvl_error *err) {
    if (!out || !out_size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "symbols: NULL argument");
    *out = NULL;
    *out_size = 0;
    blvl_fb_builder *fb = NULL;
    blvl_status st = blvl_fb_builder_new(&fb, opt, err);
    const uint8_t *bytes = NULL;
    size_t size = 0;
    if (st == BLVL_OK)
        st = blvl__symbols_write_build(data, opt ? &opt->allocator : NULL, fb, &bytes, &size, err);
    if (st == BLVL_OK) {
        *out = blvl__alloc_sized(opt ? &opt->allocator : NULL, size);
        if (*out) {
            memcpy(*out, bytes, size);
            *out_size = size;
            blvl__ok(err);
        } else {
            st = blvl__nomem(err, "symbols: %zu bytes", size);
        }
    }
    blvl_fb_builder_free(fb);
    return st;
}
