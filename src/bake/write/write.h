/* The section writers (write_*.c): each builds one section from the model into `fb` (reset
 * first) and returns the finished buffer, valid until the builder is reset or freed. */
#ifndef BLVL_BAKE_WRITE_H
#define BLVL_BAKE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "bake/acoustics/acoustics.h"
#include "bake/write/batches.h"
#include "bake/model/model.h"
#include "blvl/fb_builder.h"

typedef struct bake_buf {
    const uint8_t *data;
    size_t size;
} bake_buf;

blvl_status blvl__bake_write_meta(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                  blvl_error *err);
/* Where a streamed section goes: its bytes in order, in pieces of any size. */
typedef struct bake_sink {
    blvl_status (*put)(void *ctx, const void *data, size_t size, blvl_error *err);
    void *ctx;
} bake_sink;

/* The sim section into the sink: the front, then its colliders a run at a time (write_sim.c). */
blvl_status blvl__bake_write_sim(const blvl_bake *b, blvl_fb_builder *fb, const bake_sink *sink,
                                 blvl_error *err);

/* The geometry section into the sink, not into one buffer: what the builder holds, then the
 * vertices a piece at a time. */
blvl_status blvl__bake_write_geometry(const blvl_bake *b, const bake_plan *plan,
                                      blvl_fb_builder *fb, const bake_sink *sink, blvl_error *err);
blvl_status blvl__bake_write_textures(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                      blvl_error *err);
blvl_status blvl__bake_write_lighting(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                      blvl_error *err);
/* The lightmaps section (b->lightmap set) and the cubemaps section (b->sky set). */
blvl_status blvl__bake_write_lightmaps(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                       blvl_error *err);
blvl_status blvl__bake_write_cubemaps(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                      blvl_error *err);
/* lighting.light_grid built into fb (0 when there is none). */
blvl_fb_ref blvl__bake_write_light_grid(const blvl_bake *b, blvl_fb_builder *fb);
blvl_status blvl__bake_write_entities(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                      blvl_error *err);
blvl_status blvl__bake_write_sites(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                   blvl_error *err);
blvl_status blvl__bake_write_cameras(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                     blvl_error *err);
/* The acoustics section from the acoustics step's result (ac->probe_count > 0). */
blvl_status blvl__bake_write_acoustics(const blvl_bake *b, const bake_ac *ac, blvl_fb_builder *fb,
                                       bake_buf *out, blvl_error *err);
/* The .bsym for the level whose 16-byte identity is `level`. */
blvl_status blvl__bake_write_symbols(const blvl_bake *b, const bake_plan *plan,
                                     const uint8_t level[16], blvl_fb_builder *fb, bake_buf *out,
                                     blvl_error *err);

/* About the bytes of the largest section (write.c reserves the builder with it). */
size_t blvl__bake_write_section_estimate(const blvl_bake *b);

/* write_dry.c: model -> sections as blvl_bake_write_memory does it (plan, the builder reserved,
 * every section the model fills, the .bsym for an identity of zeros), each section dropped when
 * built: no zstd, no digests. For benchmarks: *cpu_seconds the calling thread's CPU time, *bytes
 * the sections' sum. */
blvl_status blvl__bake_write_dry(blvl_bake *b, double *cpu_seconds, size_t *bytes, blvl_error *err);

/* Which optional sections the model fills. */
bool blvl__bake_write_has_geometry(const blvl_bake *b);
bool blvl__bake_write_has_lighting(const blvl_bake *b);

/* A string field: NULL adds nothing. */
blvl_fb_ref blvl__bake_write_fb_str(blvl_fb_builder *fb, const char *s);
/* A vector of n refs from a scratch array of the caller's allocator (NULL and 0 for n == 0). */
blvl_fb_ref *blvl__bake_write_refs(const blvl_bake *b, uint32_t n, blvl_error *err);
void blvl__bake_write_refs_free(const blvl_bake *b, blvl_fb_ref *r, uint32_t n);

#endif
