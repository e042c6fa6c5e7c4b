/* blvl_bake_write_memory / blvl_bake_write_file: every section built from the model through
 * the generated builders and handed to the streaming writer (into memory), then the .bsym for
 * the level's identity. The file variant writes both to temporaries beside their targets,
 * syncs both, and only then renames them, so a failure before the renames touches neither. */
#include <string.h>
#include <unistd.h>

#include "bake/write/write.h"
#include "blvl/blvl.h"
#include "common/alloc.h"
#include "common/error.h"
#include "container/out_file.h"
#include "container/writer_internal.h"
#include "fb_builder/reserve.h"
#include "blvl/sections/geometry.h"

typedef blvl_status (*section_fn)(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                  blvl_error *err);

typedef struct run {
    blvl_bake *b;
    blvl_fb_builder *fb;
    blvl_writer *w;
    bake_plan plan;
    double model, compress, cpu_model;
    double in_writer, cpu_in_writer; /* of the section being streamed */
    bake_ac ac;                      /* the acoustics step's result */
} run;

static blvl_status add_section(run *r, const char *tag, section_fn fn, blvl_error *err) {
    double t0 = blvl__bake_model_now(), c0 = blvl__bake_model_cpu_now();
    bake_buf buf = {0};
    blvl_status st = fn(r->b, r->fb, &buf, err);
    double t1 = blvl__bake_model_now();
    r->model += t1 - t0;
    r->cpu_model += blvl__bake_model_cpu_now() - c0;
    if (st != BLVL_OK)
        return st;
    st = blvl_writer_add(r->w, tag, 0, BLVL_ENTRY_FLAG_IDENTITY, buf.data, buf.size, err);
    r->compress += blvl__bake_model_now() - t1;
    return st;
}

/* The writer as the geometry section's sink; the time spent in it is the writer's (zstd and
 * digests), not the model's. */
static blvl_status to_writer(void *ctx, const void *data, size_t size, blvl_error *err) {
    run *r = ctx;
    double t0 = blvl__bake_model_now(), c0 = blvl__bake_model_cpu_now();
    blvl_status st = blvl_writer_append(r->w, data, size, err);
    r->in_writer += blvl__bake_model_now() - t0;
    r->cpu_in_writer += blvl__bake_model_cpu_now() - c0;
    return st;
}

static blvl_status sim_to(run *r, const bake_sink *sink, blvl_error *err) {
    return blvl__bake_write_sim(r->b, r->fb, sink, err);
}

static blvl_status geometry_to(run *r, const bake_sink *sink, blvl_error *err) {
    return blvl__bake_write_geometry(r->b, &r->plan, r->fb, sink, err);
}

/* Streamed sections: sim (its colliders a run at a time) and geometry (its vertices a piece at a
 * time as they are made) go to the writer in pieces. */
static blvl_status streamed(run *r, const char *tag,
                            blvl_status (*fn)(run *, const bake_sink *, blvl_error *),
                            blvl_error *err) {
    double t0 = blvl__bake_model_now(), c0 = blvl__bake_model_cpu_now();
    r->in_writer = r->cpu_in_writer = 0;
    const bake_sink sink = {to_writer, r};
    blvl_status st = blvl_writer_begin(r->w, tag, 0, BLVL_ENTRY_FLAG_IDENTITY, err);
    if (st == BLVL_OK)
        st = fn(r, &sink, err);
    double t1 = blvl__bake_model_now();
    if (st == BLVL_OK)
        st = blvl_writer_end(r->w, err);
    r->model += t1 - t0 - r->in_writer;
    r->cpu_model += blvl__bake_model_cpu_now() - c0 - r->cpu_in_writer;
    r->compress += r->in_writer + (blvl__bake_model_now() - t1);
    return st;
}

static void fill_stats(const blvl_bake *b, const run *r, blvl_bake_stats *stats) {
    if (!stats)
        return;
    memset(stats, 0, sizeof *stats);
    stats->colliders = blvl__bake_model_collider_count(b);
    for (uint32_t i = 0; i < b->colliders.n; i++) /* made prisms are hulls: no planes */
        stats->planes += b->colliders.p[i].shape.plane_count;
    stats->triangles = b->indices.n / 3u;
    stats->batches = r->plan.batch_count;
    stats->materials = b->materials.n;
    stats->images = b->images.n;
    stats->entities = b->entities.n;
    stats->seconds_model = r->model;
    stats->cpu_seconds_model = r->cpu_model;
    stats->seconds_compress = r->compress;
    stats->seconds_acoustics = r->ac.seconds;
    stats->acoustic_probes = r->ac.probe_count;
    stats->acoustic_edges = r->ac.edge_count;
    stats->acoustic_rooms = r->ac.room_count;
}

/* The acoustics section: built from the step's result, added like the others. */
static blvl_status add_acoustics(run *r, blvl_error *err) {
    double t0 = blvl__bake_model_now(), c0 = blvl__bake_model_cpu_now();
    bake_buf buf = {0};
    blvl_status st = blvl__bake_write_acoustics(r->b, &r->ac, r->fb, &buf, err);
    double t1 = blvl__bake_model_now();
    r->model += t1 - t0;
    r->cpu_model += blvl__bake_model_cpu_now() - c0;
    if (st != BLVL_OK)
        return st;
    st = blvl_writer_add(r->w, "acoustics", 0, BLVL_ENTRY_FLAG_IDENTITY, buf.data, buf.size, err);
    r->compress += blvl__bake_model_now() - t1;
    return st;
}

/* At least the entities section's bytes: a table and its vtable 32, a string its length and 8, a
 * reference 4 (a map of a million tile entities: growing by doubling held 1.5 times the section at
 * once). Reserved, the builder touches only what it writes. */
static size_t entities_estimate(const blvl_bake *b) {
    size_t n = 1024 + (size_t)b->entities.n * 4;
    for (uint32_t i = 0; i < b->entities.n; i++) {
        const bake_entity *e = &b->entities.p[i];
        n += 32 + 4 + (e->classname ? strlen(e->classname) : 0) + 8 + (size_t)e->pair_count * 4;
        for (uint32_t k = 0; k < e->pair_count; k++)
            n += 32 + (e->pairs[k].key ? strlen(e->pairs[k].key) : 0) + 8 +
                 (e->pairs[k].value ? strlen(e->pairs[k].value) : 0) + 8;
    }
    return n;
}

/* About the most the builder holds for one buffer (it is reused for each): reserved up front, so
 * it does not copy a buffer of tens of MiB again and again as it doubles. The streamed sections
 * hold their front and a run of colliders (sim) or no vertices (geometry); the .bsym is built
 * whole. An estimate: the builder still grows past it when it is short. */
size_t blvl__bake_write_section_estimate(const blvl_bake *b) {
    size_t n = blvl__bake_model_collider_count(b);
    size_t sim = 1024 + n * 36 + ((size_t)2 << 20);
    size_t geo =
        1024 + (size_t)b->indices.n * 4 + (size_t)b->surfaces.n * 8 + (size_t)b->materials.n * 128;
    size_t sym = 1024 + (size_t)b->sources.n * 28 + n * 4 + (size_t)(b->indices.n / 3u) * 8 +
                 (size_t)b->materials.n * 64;
    size_t most = sim > geo ? sim : geo;
    most = most > sym ? most : sym;
    size_t ent = entities_estimate(b);
    return most > ent ? most : ent;
}

/* The level into memory (*level from the writer, blvl_free) and, when symbols is not NULL, the
 * .bsym bytes (blvl__alloc_sized, blvl_free). */
static blvl_status bake_all(blvl_bake *b, uint8_t **level, size_t *level_size, uint8_t **symbols,
                            size_t *symbols_size, blvl_bake_stats *stats, blvl_error *err) {
    run r = {.b = b};
    if (b->spent)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: written once already, its vertices freed");
    *level = NULL;
    *level_size = 0;
    if (symbols)
        *symbols = NULL, *symbols_size = 0;
    double t0 = blvl__bake_model_now(), c0 = blvl__bake_model_cpu_now();
    blvl_status st = blvl__bake_write_plan(b, &r.plan, err);
    if (st == BLVL_OK)
        st = blvl_fb_builder_new(&r.fb, &b->opt, err);
    if (st == BLVL_OK && !blvl__fb_builder_reserve(r.fb, blvl__bake_write_section_estimate(b)))
        st = blvl_fb_builder_status(r.fb, err);
    /* The acoustics step first: whether its section exists sets the section count. */
    if (st == BLVL_OK)
        st = blvl__bake_acoustics_build(b, &r.ac, err);
    bool geo = blvl__bake_write_has_geometry(b), light = blvl__bake_write_has_lighting(b);
    uint32_t count = 2u + geo + (b->images.n > 0) + (b->sky != NULL) + (b->lightmap != NULL) +
                     light + (b->entities.n > 0) + (b->sites.n > 0) + (b->cameras.n > 0) +
                     (r.ac.probe_count > 0);
    r.model += blvl__bake_model_now() - t0;
    r.cpu_model += blvl__bake_model_cpu_now() - c0;
    if (st == BLVL_OK)
        st = blvl_writer_open_memory(&r.w, count, &b->opt, err);
    if (st == BLVL_OK && b->draft)
        blvl__container_writer_draft_codec(r.w);
    if (st == BLVL_OK)
        st = add_section(&r, "meta", blvl__bake_write_meta, err);
    if (st == BLVL_OK)
        st = streamed(&r, "sim", sim_to, err);
    if (st == BLVL_OK && geo)
        st = streamed(&r, "geometry", geometry_to, err);
    if (st == BLVL_OK && b->spend) { /* written once: the vertices are in the level now */
        BAKE_FREE(b, b->vertices);
        memset(&b->vertices, 0, sizeof b->vertices);
        b->spent = true;
    }
    if (st == BLVL_OK && b->images.n)
        st = add_section(&r, "textures", blvl__bake_write_textures, err);
    if (st == BLVL_OK && b->sky)
        st = add_section(&r, "cubemaps", blvl__bake_write_cubemaps, err);
    if (st == BLVL_OK && b->lightmap)
        st = add_section(&r, "lightmaps", blvl__bake_write_lightmaps, err);
    if (st == BLVL_OK && light)
        st = add_section(&r, "lighting", blvl__bake_write_lighting, err);
    if (st == BLVL_OK && b->entities.n)
        st = add_section(&r, "entities", blvl__bake_write_entities, err);
    if (st == BLVL_OK && b->sites.n)
        st = add_section(&r, "sites", blvl__bake_write_sites, err);
    if (st == BLVL_OK && b->cameras.n)
        st = add_section(&r, "cameras", blvl__bake_write_cameras, err);
    if (st == BLVL_OK && r.ac.probe_count)
        st = add_acoustics(&r, err);
    if (r.w) {
        double t1 = blvl__bake_model_now();
        void *made = NULL;
        if (st == BLVL_OK) {
            st = blvl_writer_commit_memory(r.w, &made, level_size, err); /* frees w */
            *level = made;
        } else
            blvl_writer_abort(r.w);
        r.compress += blvl__bake_model_now() - t1;
    }
    if (st == BLVL_OK && symbols) {
        double t1 = blvl__bake_model_now(), c1 = blvl__bake_model_cpu_now();
        bake_buf buf = {0};
        /* The identity: 16 bytes at header offset 48 (docs/FORMAT.md). */
        st = blvl__bake_write_symbols(b, &r.plan, *level + 48, r.fb, &buf, err);
        if (st == BLVL_OK) {
            *symbols = blvl__alloc_sized(b->al, buf.size);
            if (*symbols) {
                memcpy(*symbols, buf.data, buf.size);
                *symbols_size = buf.size;
            } else {
                st = blvl__nomem(err, "bake: the symbols");
            }
        }
        r.model += blvl__bake_model_now() - t1;
        r.cpu_model += blvl__bake_model_cpu_now() - c1;
    }
    if (st != BLVL_OK && *level) {
        blvl_free(&b->opt, *level);
        *level = NULL;
        *level_size = 0;
    }
    fill_stats(b, &r, stats);
    blvl__bake_acoustics_free(b, &r.ac);
    blvl_fb_builder_free(r.fb);
    blvl__bake_write_plan_free(b, &r.plan);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}

blvl_status blvl_bake_write_memory(blvl_bake *b, void **level, size_t *level_size, void **symbols,
                                   size_t *symbols_size, blvl_bake_stats *stats, blvl_error *err) {
    if (!b || !level || !level_size || (symbols && !symbols_size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: write_memory needs a bake and outputs");
    uint8_t *lv = NULL, *sy = NULL;
    blvl_status st = bake_all(b, &lv, level_size, symbols ? &sy : NULL, symbols_size, stats, err);
    *level = lv;
    if (symbols)
        *symbols = sy;
    return st;
}

/* Writes `data` to a temporary beside `path` and syncs it; the rename comes later. */
static blvl_status stage(blvl_out_file *f, const char *path, const blvl_options *opt,
                         const void *data, size_t size, blvl_error *err) {
    blvl_status st = blvl__container_out_open_opt(f, path, opt, err);
    if (st != BLVL_OK)
        return st;
    st = blvl__container_out_write(f, data, size, err);
    if (st == BLVL_OK)
        st = blvl__container_out_sync(f, err);
    if (st != BLVL_OK)
        blvl__container_out_abort(f);
    return st;
}

blvl_status blvl_bake_write_file(blvl_bake *b, const char *level_path, const char *symbols_path,
                                 blvl_bake_stats *stats, blvl_error *err) {
    if (!b || !level_path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: write_file needs a bake and a path");
    if (symbols_path && strcmp(symbols_path, level_path) == 0)
        return blvl__fail(err, BLVL_E_ARGUMENT, "bake: the level and its symbols share a path");
    /* Refuse a target this process may not replace before doing any work. */
    blvl_status st = blvl__container_out_replaceable(level_path, err);
    if (st == BLVL_OK && symbols_path)
        st = blvl__container_out_replaceable(symbols_path, err);
    if (st != BLVL_OK)
        return st;
    uint8_t *lv = NULL, *sy = NULL;
    size_t lsize = 0, ssize = 0;
    if ((st = bake_all(b, &lv, &lsize, symbols_path ? &sy : NULL, &ssize, stats, err)) != BLVL_OK)
        return st;
    double t0 = blvl__bake_model_now();
    blvl_out_file lf = {.fd = -1}, sf = {.fd = -1};
    st = stage(&lf, level_path, &b->opt, lv, lsize, err);
    if (st == BLVL_OK && symbols_path) {
        st = stage(&sf, symbols_path, &b->opt, sy, ssize, err);
        if (st != BLVL_OK)
            blvl__container_out_abort(&lf);
    }
    /* Both temporaries are complete and synced: only the renames are left. The level goes
     * first; should the second rename fail, the old .bsym names the old identity and readers
     * see it as stale. */
    if (st == BLVL_OK) {
        st = blvl__container_out_commit(&lf, err);
        if (st != BLVL_OK && symbols_path)
            blvl__container_out_abort(&sf);
    }
    if (st == BLVL_OK && symbols_path)
        st = blvl__container_out_commit(&sf, err);
    if (stats)
        stats->seconds_compress += blvl__bake_model_now() - t0;
    blvl_free(&b->opt, lv);
    blvl_free(&b->opt, sy);
    if (st == BLVL_OK)
        blvl__ok(err);
    return st;
}
