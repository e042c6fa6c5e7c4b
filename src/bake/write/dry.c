/* Model -> sections without the container writer (write.h): what blvl_bake_write_memory's model
 * stage does, for benchmarks that measure the bake's own work apart from zstd level 19. */
#include "bake/write/write.h"
#include "common/error.h"
#include "fb_builder/reserve.h"

/* The streamed sections' sink: their bytes are made and dropped, only counted. */
static blvl_status count_bytes(void *ctx, const void *data, size_t size, blvl_error *err) {
    (void)data;
    *(size_t *)ctx += size;
    blvl__ok(err);
    return BLVL_OK;
}

typedef blvl_status (*dry_fn)(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                              blvl_error *err);

blvl_status blvl__bake_write_dry(blvl_bake *b, double *cpu_seconds, size_t *bytes,
                                 blvl_error *err) {
    double c0 = blvl__bake_model_cpu_now();
    *bytes = 0;
    bake_plan plan;
    blvl_fb_builder *fb = NULL;
    blvl_status st = blvl__bake_write_plan(b, &plan, err);
    if (st != BLVL_OK)
        return st;
    st = blvl_fb_builder_new(&fb, &b->opt, err);
    if (st == BLVL_OK && !blvl__fb_builder_reserve(fb, blvl__bake_write_section_estimate(b)))
        st = blvl_fb_builder_status(fb, err);
    /* the writer's order: meta, sim, geometry, then the rest */
    bake_buf buf = {0};
    if (st == BLVL_OK && (st = blvl__bake_write_meta(b, fb, &buf, err)) == BLVL_OK)
        *bytes += buf.size;
    const bake_sink sink = {count_bytes, bytes};
    if (st == BLVL_OK)
        st = blvl__bake_write_sim(b, fb, &sink, err);
    if (st == BLVL_OK && blvl__bake_write_has_geometry(b))
        st = blvl__bake_write_geometry(b, &plan, fb, &sink, err);
    const dry_fn fns[] = {blvl__bake_write_textures,  blvl__bake_write_cubemaps,
                          blvl__bake_write_lightmaps, blvl__bake_write_lighting,
                          blvl__bake_write_entities,  blvl__bake_write_sites,
                          blvl__bake_write_cameras};
    const bool has[] = {
        b->images.n > 0,   b->sky != NULL, b->lightmap != NULL, blvl__bake_write_has_lighting(b),
        b->entities.n > 0, b->sites.n > 0, b->cameras.n > 0};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0] && st == BLVL_OK; i++)
        if (has[i] && (st = fns[i](b, fb, &buf, err)) == BLVL_OK)
            *bytes += buf.size;
    bake_ac ac = {0}; /* the acoustics step when the model has it on, then its section */
    if (st == BLVL_OK)
        st = blvl__bake_acoustics_build(b, &ac, err);
    if (st == BLVL_OK && ac.probe_count &&
        (st = blvl__bake_write_acoustics(b, &ac, fb, &buf, err)) == BLVL_OK)
        *bytes += buf.size;
    blvl__bake_acoustics_free(b, &ac);
    static const uint8_t zero[16] = {0};
    if (st == BLVL_OK && (st = blvl__bake_write_symbols(b, &plan, zero, fb, &buf, err)) == BLVL_OK)
        *bytes += buf.size;
    blvl_fb_builder_free(fb);
    blvl__bake_write_plan_free(b, &plan);
    *cpu_seconds = blvl__bake_model_cpu_now() - c0;
    return st;
}
