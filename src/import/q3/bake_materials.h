/* The materials step's pieces (bake_materials*.c): the image cache, the sky and the sun, the
 * animation and the keywords a material cannot carry. */
#ifndef BLVL_IMPORT_Q3_BAKE_MATERIALS_H
#define BLVL_IMPORT_Q3_BAKE_MATERIALS_H

#include "bake_internal.h"
#include "blvl/q3_shader.h"

typedef struct q3m_image {
    char *key;      /* lower-cased name as looked up (the written name or the file found) */
    uint32_t index; /* bake image index; BLVL_BAKE_NONE when missing or undecodable */
} q3m_image;

typedef struct q3_materials {
    q3_ctx *c;
    blvl_q3_shaders *shaders; /* NULL without a search path */
    q3m_image *img;
    size_t img_count, img_cap;
    char **kw; /* distinct keywords not read, for report->unknown_keywords */
    size_t kw_count, kw_cap;
    bool sky_done, sun_done;
} q3_materials;

/* The bake image of a name as a shader writes it, added on first use: TGA decoded, JPEG and
 * PNG carried. BLVL_BAKE_NONE (status OK) when no file answers to it (counted once in
 * report->missing_images) or it does not decode (report->bad_images). */
blvl_status blvl__import_q3_mat_image(q3_materials *m, const char *name, uint32_t *index);
/* The pixels of a name as a shader writes it; *rgba NULL (status OK) when missing or
 * undecodable. Free with blvl__dealloc(allocator, rgba, w * h * 4). */
blvl_status blvl__import_q3_mat_pixels(q3_materials *m, const char *name, uint8_t **rgba,
                                       uint32_t *w, uint32_t *h);
/* Count a keyword (the first word of "keyword args") in report->unknown_keywords once. */
blvl_status blvl__import_q3_mat_keyword(q3_materials *m, const char *text);
void blvl__import_q3_mat_images_free(q3_materials *m);

/* The sky cubemap of a skyParms farbox and the sun of a q3map_sun (bake_materials_sky.c). */
blvl_status blvl__import_q3_mat_sky(q3_materials *m, const blvl_q3_shader *sh);
void blvl__import_q3_mat_sun(q3_materials *m, const blvl_q3_shader *sh);

/* The Anim of a shader's base stage; false when it has none. Extra text for what Anim cannot
 * carry (a second or third deform, tcMod transform / entityTranslate) goes to `extra` as
 * "keyword args" lines (at most 8, each < 160 bytes). */
typedef struct q3m_anim {
    blvl_bake_anim anim;
    blvl_bake_tcmod tcmods[BLVL_Q3_SHADER_MAX_TCMODS];
    uint32_t frames[BLVL_Q3_SHADER_MAX_FRAMES];
    char extra[8][160];
    uint32_t extra_count;
} q3m_anim;
blvl_status blvl__import_q3_mat_anim(q3_materials *m, const blvl_q3_shader *sh,
                                     const blvl_q3_stage *base, q3m_anim *out, bool *has);

#endif
