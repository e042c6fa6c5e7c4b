/* The catalogue, the run (sections read once, checks in catalogue order, findings counted and
 * capped per check) and the array form. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blvl/bake.h"
#include "common/array.h"
#include "common/error.h"
#include "diag/diag_internal.h"

static const blvl_diag_check catalogue[DG_COUNT] = {
#define X(id, code, sev, section, title) {code, BLVL_DIAG_##sev, section, title},
    DG_CHECKS
#undef X
};

const blvl_diag_check *blvl_diag_catalogue(uint32_t *count) {
    if (count)
        *count = DG_COUNT;
    return catalogue;
}

static int find_id(const char *code) {
    for (int i = 0; code && i < DG_COUNT; i++)
        if (strcmp(catalogue[i].code, code) == 0)
            return i;
    return -1;
}

const blvl_diag_check *blvl_diag_check_find(const char *code) {
    int i = find_id(code);
    return i < 0 ? NULL : &catalogue[i];
}

const char *blvl_diag_severity_name(blvl_diag_severity severity) {
    switch (severity) {
    case BLVL_DIAG_ERROR:
        return "error";
    case BLVL_DIAG_WARNING:
        return "warning";
    case BLVL_DIAG_INFO:
        return "info";
    }
    return "unknown";
}

bool blvl__diag_finite3(blvl_Vec3 v) {
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

bool blvl__diag_any(const diag_run *d, int first, int last) {
    for (int i = first; i <= last; i++)
        if (d->on[i])
            return true;
    return false;
}

void blvl__diag_emit(diag_run *d, int id, const char *section, uint32_t index, dg_src src,
                     uint32_t src_index, const char *fmt, ...) {
    if (!d->on[id] || d->stop)
        return;
    blvl_diag_severity sev = catalogue[id].severity;
    if (sev == BLVL_DIAG_ERROR)
        d->counts.errors++;
    else if (sev == BLVL_DIAG_WARNING)
        d->counts.warnings++;
    else
        d->counts.infos++;
    if (d->max_per && d->reported[id] >= d->max_per)
        return;
    d->reported[id]++;
    blvl_diag_finding f;
    memset(&f, 0, sizeof f);
    f.code = catalogue[id].code;
    f.severity = sev;
    f.index = index;
    snprintf(f.section, sizeof f.section, "%s", section);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f.message, sizeof f.message, fmt, ap);
    va_end(ap);
    if (d->sym && src != DG_SRC_NONE) {
        uint32_t s = BLVL_SYMBOLS_NONE;
        if (src == DG_SRC_COLLIDER)
            s = blvl_symbols_collider_source(d->sym, src_index);
        else if (src == DG_SRC_BATCH)
            s = blvl_symbols_batch_source(d->sym, src_index);
        else
            s = blvl_symbols_triangle_source(d->sym, src_index);
        if (s != BLVL_SYMBOLS_NONE)
            blvl_symbols_describe(d->sym, s, f.source, sizeof f.source);
    }
    if (d->fn && d->fn(d->user, &f))
        d->stop = 1;
}

const blvl_trace_world *blvl__diag_world(diag_run *d) {
    if (!d->world_tried) {
        d->world_tried = true;
        blvl_options o;
        memset(&o, 0, sizeof o);
        if (d->al)
            o.allocator = *d->al;
        blvl_error e;
        blvl_status st =
            blvl_trace_world_from_level(&d->world, d->level, &(blvl_trace_options){.base = o}, &e);
        if (st != BLVL_OK) {
            d->world = NULL;
            if (st == BLVL_E_NOMEM) {
                d->fatal = st;
                d->stop = 1;
            }
        }
    }
    return d->world;
}

/* A failure that says nothing about the level's bytes: the run cannot judge it and fails. */
static bool transport(blvl_status st) {
    return st == BLVL_E_NOMEM || st == BLVL_E_IO || st == BLVL_E_ARGUMENT || st == BLVL_E_HTTP ||
           st == BLVL_E_HTTP_CHANGED || st == BLVL_E_HTTP_TIMEOUT || st == BLVL_E_HTTP_LIMIT;
}

/* Read a core section for the checks. Absent (or dropped for an unknown version) reads as the
 * empty table. Refused by the container or the verifier (digest, chunks, FlatBuffers, a required
 * section missing or of an unknown version) is one D0000 naming the rule, and the section is
 * marked damaged so the checks that need it step aside instead of judging an empty table. */
static const uint8_t *read_section(diag_run *d, dg_sec which, const char *tag, blvl_bytes *b) {
    const uint8_t *root = NULL;
    blvl_error e;
    blvl_status st = blvl_level_section(d->level, tag, b, &root, &e);
    if (st == BLVL_OK)
        return root;
    memset(b, 0, sizeof *b);
    if (st == BLVL_E_NOT_FOUND)
        return NULL;
    if (transport(st)) {
        if (!d->fatal) {
            d->fatal = st;
            d->fatal_err = e;
        }
        d->stop = 1;
        return NULL;
    }
    d->damaged[which] = true;
    blvl__diag_emit(d, DG_SECTION_DAMAGED, tag, BLVL_DIAG_NONE, DG_SRC_NONE, 0, "%s", e.message);
    return NULL;
}

/* Open the .bsym bytes against the level: a stale or refused file is a finding. */
static void open_symbols(diag_run *d, const blvl_diag_options *dopt, const blvl_options *opt,
                         blvl_symbols **owned) {
    if (dopt->symbols) {
        blvl_symbols_info info;
        blvl_symbols_get_info(dopt->symbols, &info);
        if (info.stale)
            blvl__diag_emit(d, DG_SYMBOLS_STALE, "bsym", BLVL_DIAG_NONE, DG_SRC_NONE, 0,
                            "the symbols describe another level; sources are not shown");
        else
            d->sym = dopt->symbols;
        return;
    }
    if (!dopt->symbols_data)
        return;
    blvl_error e;
    blvl_status st = blvl_symbols_open_memory(owned, dopt->symbols_data, dopt->symbols_size,
                                              d->level, BLVL_SYMBOLS_READ_STALE, opt, &e);
    if (st != BLVL_OK) {
        *owned = NULL;
        if (st == BLVL_E_NOMEM) {
            d->fatal = st;
            d->stop = 1;
            return;
        }
        blvl__diag_emit(d, DG_SYMBOLS_BAD, "bsym", BLVL_DIAG_NONE, DG_SRC_NONE, 0, "%s", e.message);
        return;
    }
    blvl_symbols_info info;
    blvl_symbols_get_info(*owned, &info);
    if (info.stale) {
        char want[33], have[33];
        blvl_info li;
        blvl_get_info(d->level, &li);
        blvl_hex(info.level, have);
        blvl_hex(li.identity, want);
        blvl__diag_emit(d, DG_SYMBOLS_STALE, "bsym", BLVL_DIAG_NONE, DG_SRC_NONE, 0,
                        "the symbols name level %s, this level is %s; sources are not shown", have,
                        want);
    } else {
        d->sym = *owned;
    }
}

/* D0046: meta.tool ends in the draft marker (blvl_bake_set_draft): chunks at zstd level 1, an
 * identity no release bake has. */
static void check_draft(diag_run *d) {
    if (!d->meta.p_ || !blvl_Meta_tool_present(d->meta))
        return;
    blvl_fb_str t = blvl_Meta_tool(d->meta);
    size_t m = sizeof BLVL_BAKE_DRAFT_MARKER - 1;
    if (t.len >= m && memcmp(t.ptr + t.len - m, BLVL_BAKE_DRAFT_MARKER, m) == 0)
        blvl__diag_emit(d, DG_DRAFT, "meta", BLVL_DIAG_NONE, DG_SRC_NONE, 0,
                        "meta.tool '%.*s' marks a draft bake (zstd level 1): bake it again "
                        "without --draft before shipping",
                        (int)t.len, t.ptr);
}

/* The options a run allocates with: the caller's base when it sets an allocator, else the
 * level's own. */
static const blvl_options *run_options(blvl_level *level, const blvl_diag_options *dopt) {
    return dopt->base.allocator.alloc ? &dopt->base : blvl_level_options(level);
}

blvl_status blvl_diag_run(blvl_diag_counts *counts, blvl_level *level, blvl_diag_fn fn, void *user,
                          const blvl_diag_options *dopt, blvl_error *err) {
    static const blvl_diag_options none;
    if (counts)
        memset(counts, 0, sizeof *counts);
    if (!level)
        return blvl__fail(err, BLVL_E_ARGUMENT, "diag: no level");
    if (!dopt)
        dopt = &none;
    const blvl_options *opt = run_options(level, dopt);
    diag_run d;
    memset(&d, 0, sizeof d);
    d.level = level;
    d.al = opt ? &opt->allocator : NULL;
    d.fn = fn;
    d.user = user;
    d.max_per = dopt->max_per_check;
    for (int i = 0; i < DG_COUNT; i++)
        d.on[i] = dopt->only_count == 0;
    for (uint32_t i = 0; i < dopt->only_count; i++) {
        int id = dopt->only ? find_id(dopt->only[i]) : -1;
        if (id < 0)
            return blvl__fail(err, BLVL_E_ARGUMENT, "diag: no check has the code '%s'",
                              dopt->only && dopt->only[i] ? dopt->only[i] : "(null)");
        d.on[id] = true;
    }
    /* D0000 is on whatever `only` says: the checks asked for cannot judge a damaged section. */
    d.on[DG_SECTION_DAMAGED] = true;
    d.sim.p_ = read_section(&d, DG_SIM, "sim", &d.b_sim);
    d.geo.p_ = read_section(&d, DG_GEO, "geometry", &d.b_geo);
    d.tex.p_ = read_section(&d, DG_TEX, "textures", &d.b_tex);
    d.cube.p_ = read_section(&d, DG_CUBE, "cubemaps", &d.b_cube);
    d.lm.p_ = read_section(&d, DG_LM, "lightmaps", &d.b_lm);
    d.light.p_ = read_section(&d, DG_LIGHT, "lighting", &d.b_light);
    d.ac.p_ = read_section(&d, DG_AC, "acoustics", &d.b_ac);
    d.meta.p_ = d.on[DG_DRAFT] ? read_section(&d, DG_META, "meta", &d.b_meta) : NULL;
    d.world_tried = d.damaged[DG_SIM]; /* no trace world from a damaged sim */

    blvl_symbols *owned = NULL;
    open_symbols(&d, dopt, opt, &owned);
    blvl__diag_check_refs(&d);
    blvl__diag_check_geometry(&d);
    blvl__diag_check_finite(&d);
    blvl__diag_check_colliders(&d);
    blvl__diag_check_images(&d);
    blvl__diag_check_acoustics(&d);
    blvl__diag_check_places(&d);
    check_draft(&d);

    if (owned)
        blvl_symbols_free(owned);
    if (d.world)
        blvl_trace_world_free(d.world);
    blvl_bytes_free(&d.b_sim);
    blvl_bytes_free(&d.b_geo);
    blvl_bytes_free(&d.b_tex);
    blvl_bytes_free(&d.b_cube);
    blvl_bytes_free(&d.b_lm);
    blvl_bytes_free(&d.b_light);
    blvl_bytes_free(&d.b_ac);
    blvl_bytes_free(&d.b_meta);
    if (counts)
        *counts = d.counts;
    if (d.fatal == BLVL_E_NOMEM)
        return blvl__nomem(err, "diag: the checks' working memory");
    if (d.fatal) {
        if (err)
            *err = d.fatal_err;
        return d.fatal;
    }
    blvl__ok(err);
    return BLVL_OK;
}

typedef struct collector {
    blvl_diag_findings *out;
    int nomem;
} collector;

static int collect_one(void *user, const blvl_diag_finding *f) {
    collector *c = user;
    blvl_diag_findings *o = c->out;
    if (o->count == o->cap_) {
        void *items = o->items;
        if (!blvl__array_grow(&o->allocator_, &items, &o->cap_, o->count, o->count + 1,
                              sizeof *o->items, 16)) {
            c->nomem = 1;
            return 1;
        }
        o->items = items;
    }
    o->items[o->count++] = *f;
    return 0;
}

blvl_status blvl_diag_collect(blvl_diag_findings **out, blvl_level *level,
                              const blvl_diag_options *dopt, blvl_error *err) {
    static const blvl_diag_options none;
    if (!out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "diag: no output");
    *out = NULL;
    if (!level)
        return blvl__fail(err, BLVL_E_ARGUMENT, "diag: no level");
    const blvl_options *opt = run_options(level, dopt ? dopt : &none);
    blvl_diag_findings *f = blvl__calloc(&opt->allocator, sizeof *f);
    if (!f)
        return blvl__nomem(err, "diag: the findings");
    f->allocator_ = opt->allocator;
    collector c = {f, 0};
    blvl_status st = blvl_diag_run(&f->counts, level, collect_one, &c, dopt, err);
    if (st == BLVL_OK && c.nomem)
        st = blvl__nomem(err, "diag: the findings");
    if (st != BLVL_OK) {
        blvl_diag_findings_free(f);
        return st;
    }
    *out = f;
    return BLVL_OK;
}

void blvl_diag_findings_free(blvl_diag_findings *f) {
    if (!f)
        return;
    blvl_allocator a = f->allocator_; /* f itself goes last */
    if (f->items)
        blvl__dealloc(&a, f->items, f->cap_ * sizeof *f->items);
    blvl__dealloc(&a, f, sizeof *f);
}
