/* Opening a .bsym: the checks in the order docs/SYMBOLS.md gives them (size, FlatBuffers verifier,
 * version, identity against the level, then the invariants), then one allocation holding a copy
 * of everything, so the object keeps no pointer into the caller's bytes or level. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blvl/sections.h"
#include "blvl/sections/bsym.h"
#include "common/alloc.h"
#include "common/error.h"
#include "symbols/symbols_internal.h"

/* The level's sections the invariants and the batch lookups need, kept open while opening. */
typedef struct level_view {
    blvl_bytes sim_b, geo_b, ent_b;
    blvl_Geometry geo;
    blvl__symbols_level facts;
} level_view;

static void view_free(level_view *v) {
    blvl_bytes_free(&v->sim_b);
    blvl_bytes_free(&v->geo_b);
    blvl_bytes_free(&v->ent_b);
}

/* An optional section that is absent reads as the empty table. */
static blvl_status optional(blvl_status st, blvl_error *err) {
    if (st == BLVL_E_NOT_FOUND) {
        blvl__ok(err);
        return BLVL_OK;
    }
    return st;
}

static blvl_status view_read(blvl_level *level, level_view *v, blvl_error *err) {
    memset(v, 0, sizeof *v);
    blvl_Sim sim = {NULL};
    blvl_Entities ent = {NULL};
    blvl_status st = blvl_level_sim(level, &v->sim_b, &sim, err);
    if (st == BLVL_OK)
        st = optional(blvl_level_geometry(level, &v->geo_b, &v->geo, err), err);
    if (st == BLVL_OK)
        st = optional(blvl_level_entities(level, &v->ent_b, &ent, err), err);
    if (st != BLVL_OK)
        return st;
    v->facts.colliders = blvl_Sim_colliders_len(sim);
    v->facts.triangles = blvl_Geometry_indices_len(v->geo) / 3u;
    v->facts.materials = blvl_Geometry_materials_len(v->geo);
    v->facts.entities = blvl_Entities_entities_len(ent);
    return BLVL_OK;
}

static size_t up8(size_t n) {
    return (n + 7u) & ~(size_t)7u;
}

/* Characters the copy of a material's strings needs (their NULs not counted: one per string,
 * three and the `unknown` pointers). */
static size_t material_chars(blvl_SymbolMaterial m, size_t *pointers) {
    size_t n = blvl_SymbolMaterial_name(m).len + blvl_SymbolMaterial_shader(m).len +
               blvl_SymbolMaterial_texture(m).len;
    uint32_t k = blvl_SymbolMaterial_unknown_len(m);
    for (uint32_t i = 0; i < k; i++)
        n += blvl_SymbolMaterial_unknown_at(m, i).len;
    *pointers += k;
    return n;
}

static const char *put_str(char **pool, blvl_fb_str s) {
    char *p = *pool;
    memcpy(p, s.ptr, s.len);
    p[s.len] = '\0';
    *pool += s.len + 1u;
    return p;
}

/* Runs covering each batch's triangles, clamped to the triangles there are (a batch past the
 * indices is diag's to report; here it covers what exists). */
static void batch_ranges(blvl_symbols *s, blvl_Geometry geo) {
    uint32_t nb = s->info.batches, nt = s->info.triangles, nr = s->info.runs;
    for (uint32_t b = 0; b < nb; b++) {
        blvl_Batch bt = blvl_Geometry_batches_at(geo, b);
        uint64_t first = blvl_Batch_first_index(bt) / 3u;
        uint64_t end = first + blvl_Batch_index_count(bt) / 3u;
        end = end < nt ? end : nt;
        s->batch_first[b] = 0;
        s->batch_runs[b] = 0;
        if (first >= end || nr == 0)
            continue;
        uint32_t r0 = blvl__symbols_run_of(s->runs, nr, (uint32_t)first);
        uint32_t r1 = blvl__symbols_run_of(s->runs, nr, (uint32_t)(end - 1u));
        s->batch_first[b] = r0;
        s->batch_runs[b] = r1 - r0 + 1u;
    }
}

/* Copy the verified buffer (`size` bytes) into one allocation. */
static blvl_status copy_out(blvl_symbols **out, blvl_Symbols root, size_t size,
                            const blvl_symbols_info *info, const blvl_allocator *al,
                            blvl_error *err) {
    uint32_t nc = info->colliders, nr = info->runs, ns = info->sources, nm = info->materials;
    uint32_t nb = info->batches;
    size_t pointers = 0, chars = 0;
    for (uint32_t i = 0; i < nm; i++)
        chars += material_chars(blvl_Symbols_materials_at(root, i), &pointers);
    /* Each string a writer makes is stored once, so its characters fit in the file. Strings
     * shared by many offsets (legal, and within the verifier's visit limit) would copy to up
     * to size^2 / 16 bytes: refused. */
    if (chars > size)
        return blvl__fail(err, BLVL_E_SYMBOLS,
                          "the material strings copy to %zu characters, more than the %zu-byte "
                          "file holds (shared strings) (symbols-size)",
                          chars, size);
    size_t strings = chars + 3u * (size_t)nm + pointers;
    size_t o_col = up8(sizeof(blvl_symbols));
    size_t o_run = o_col + up8((size_t)nc * sizeof(uint32_t));
    size_t o_src = o_run + up8((size_t)nr * sizeof(blvl_symbols_run));
    size_t o_mat = o_src + up8((size_t)ns * sizeof(blvl_symbols_source));
    size_t o_ptr = o_mat + up8((size_t)nm * sizeof(blvl_symbols_material));
    size_t o_bat = o_ptr + up8(pointers * sizeof(const char *));
    size_t o_str = o_bat + up8((size_t)nb * 2u * sizeof(uint32_t));
    size_t total = o_str + strings;
    uint8_t *mem = blvl__alloc(al, total);
    if (!mem)
        return blvl__nomem(err, "symbols: %zu bytes", total);
    blvl_symbols *s = (blvl_symbols *)mem;
    memset(s, 0, sizeof *s);
    s->al = *al;
    s->mem_size = total;
    s->info = *info;
    s->colliders = (uint32_t *)(mem + o_col);
    s->runs = (blvl_symbols_run *)(mem + o_run);
    s->sources = (blvl_symbols_source *)(mem + o_src);
    s->materials = (blvl_symbols_material *)(mem + o_mat);
    s->batch_first = (uint32_t *)(mem + o_bat);
    s->batch_runs = s->batch_first + nb;
    blvl_Symbols_colliders_copy(root, 0, s->colliders, nc);
    for (uint32_t i = 0; i < nr; i++) {
        blvl_TriRun r = blvl_Symbols_tri_runs_at(root, i);
        s->runs[i] = (blvl_symbols_run){r.first_tri, r.source};
    }
    for (uint32_t i = 0; i < ns; i++) {
        blvl_SymbolSource v = blvl_Symbols_sources_at(root, i);
        s->sources[i] = (blvl_symbols_source){v.kind,           v.index,  v.surface_flags,
                                              v.contents_flags, v.entity, v.material};
    }
    const char **ptrs = (const char **)(mem + o_ptr);
    char *pool = (char *)(mem + o_str);
    for (uint32_t i = 0; i < nm; i++) {
        blvl_SymbolMaterial m = blvl_Symbols_materials_at(root, i);
        blvl_symbols_material *d = &s->materials[i];
        d->name = put_str(&pool, blvl_SymbolMaterial_name(m));
        d->shader = put_str(&pool, blvl_SymbolMaterial_shader(m));
        d->texture = put_str(&pool, blvl_SymbolMaterial_texture(m));
        d->baked = blvl_SymbolMaterial_baked(m);
        d->unknown_count = blvl_SymbolMaterial_unknown_len(m);
        d->unknown = ptrs;
        for (uint32_t k = 0; k < d->unknown_count; k++)
            *ptrs++ = put_str(&pool, blvl_SymbolMaterial_unknown_at(m, k));
    }
    *out = s;
    return BLVL_OK;
}

static void as_data(const blvl_symbols *s, blvl_symbols_data *d) {
    memset(d, 0, sizeof *d);
    memcpy(d->level, s->info.level, sizeof d->level);
    d->colliders = s->colliders;
    d->collider_count = s->info.colliders;
    d->runs = s->runs;
    d->run_count = s->info.runs;
    d->sources = s->sources;
    d->source_count = s->info.sources;
    d->materials = s->materials;
    d->material_count = s->info.materials;
}

blvl_status blvl_symbols_open_memory(blvl_symbols **out, const void *data, size_t size,
                                     blvl_level *level, unsigned flags, const blvl_options *opt,
                                     blvl_error *err) {
    if (!out || (!data && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "symbols: NULL argument");
    *out = NULL;
    blvl_allocator al = {0};
    if (opt)
        al = opt->allocator;
    /* 1. The size limit, before anything is looked at. */
    if (size > BLVL_SYMBOLS_MAX_FILE)
        return blvl__fail(err, BLVL_E_SYMBOLS,
                          "the file is %zu bytes, over the %u limit (symbols-size)", size,
                          BLVL_SYMBOLS_MAX_FILE);
    /* 2. The FlatBuffers verifier: every later read is in bounds. */
    blvl_status st = blvl_fb_verify(data, size, &blvl_Symbols_type, opt, err);
    if (st != BLVL_OK)
        return st;
    blvl_Symbols root = blvl_Symbols_root(data);
    /* 3. The version: another one is not read at all. */
    blvl_symbols_info info;
    memset(&info, 0, sizeof info);
    info.version = blvl_Symbols_version(root);
    if (info.version != BLVL_SYMBOLS_VERSION)
        return blvl__fail(err, BLVL_E_SYMBOLS_VERSION,
                          "the .bsym is version %u, this reader reads %u", info.version,
                          BLVL_SYMBOLS_VERSION);
    if (blvl_Symbols_level_len(root) != BLVL_DIGEST_SIZE)
        return blvl__fail(err, BLVL_E_SYMBOLS, "level is %u bytes, not %u (level-identity)",
                          blvl_Symbols_level_len(root), BLVL_DIGEST_SIZE);
    blvl_Symbols_level_copy(root, 0, info.level, BLVL_DIGEST_SIZE);
    /* 4. The identity: a .bsym of another level is stale. */
    if (level) {
        blvl_info li;
        blvl_get_info(level, &li);
        if (memcmp(li.identity, info.level, BLVL_DIGEST_SIZE) != 0) {
            if (!(flags & BLVL_SYMBOLS_READ_STALE)) {
                char a[33], b[33];
                blvl_hex(info.level, a);
                blvl_hex(li.identity, b);
                return blvl__fail(err, BLVL_E_SYMBOLS_STALE,
                                  "the .bsym names level %s, the level is %s", a, b);
            }
            info.stale = true;
        }
    }
    level_view v;
    memset(&v, 0, sizeof v);
    bool check_level = level && !info.stale;
    if (check_level && (st = view_read(level, &v, err)) != BLVL_OK) {
        view_free(&v);
        return st;
    }
    info.checked = check_level;
    info.colliders = blvl_Symbols_colliders_len(root);
    info.runs = blvl_Symbols_tri_runs_len(root);
    info.sources = blvl_Symbols_sources_len(root);
    info.materials = blvl_Symbols_materials_len(root);
    info.triangles = check_level ? v.facts.triangles : 0;
    info.batches = check_level ? blvl_Geometry_batches_len(v.geo) : 0;
    blvl_symbols *s = NULL;
    st = copy_out(&s, root, size, &info, &al, err);
    /* 5. The invariants, on the copy. */
    if (st == BLVL_OK) {
        blvl_symbols_data d;
        as_data(s, &d);
        st = blvl__symbols_check(&d, check_level ? &v.facts : NULL, err);
    }
    if (st == BLVL_OK) {
        batch_ranges(s, v.geo);
        *out = s;
        blvl__ok(err);
    } else {
        blvl_symbols_free(s);
    }
    view_free(&v);
    return st;
}

blvl_status blvl_symbols_open_file(blvl_symbols **out, const char *path, blvl_level *level,
                                   unsigned flags, const blvl_options *opt, blvl_error *err) {
    if (!out || !path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "symbols: NULL argument");
    *out = NULL;
    blvl_allocator al = {0};
    if (opt)
        al = opt->allocator;
    FILE *f = fopen(path, "rb");
    if (!f)
        return blvl__fail(err, BLVL_E_IO, "cannot open %s: %s", path, strerror(errno));
    long end = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        end = ftell(f);
    if (end < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return blvl__fail(err, BLVL_E_IO, "cannot size %s", path);
    }
    if ((unsigned long)end > BLVL_SYMBOLS_MAX_FILE) {
        fclose(f);
        return blvl__fail(err, BLVL_E_SYMBOLS,
                          "the file is %ld bytes, over the %u limit (symbols-size)", end,
                          BLVL_SYMBOLS_MAX_FILE);
    }
    size_t size = (size_t)end;
    uint8_t *buf = blvl__alloc(&al, size);
    if (!buf) {
        fclose(f);
        return blvl__nomem(err, "symbols: reading %s", path);
    }
    size_t got = size ? fread(buf, 1, size, f) : 0;
    fclose(f);
    blvl_status st = got == size ? blvl_symbols_open_memory(out, buf, size, level, flags, opt, err)
                                 : blvl__fail(err, BLVL_E_IO, "cannot read %s", path);
    blvl__dealloc(&al, buf, size);
    return st;
}

void blvl_symbols_free(blvl_symbols *sym) {
    if (!sym)
        return;
    blvl_allocator al = sym->al;
    blvl__dealloc(&al, sym, sym->mem_size);
}

void blvl_symbols_get_info(const blvl_symbols *sym, blvl_symbols_info *out) {
    if (!out)
        return;
    if (!sym)
        memset(out, 0, sizeof *out);
    else
        *out = sym->info;
}
