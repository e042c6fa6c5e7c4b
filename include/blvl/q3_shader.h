/* Quake 3 .shader scripts (docs/IMPORT-Q3.md "Materials and images").
 *
 *   blvl_q3_shaders_new       an empty set of scripts
 *   blvl_q3_shaders_add       parse one script into the set (refused whole, set unchanged)
 *   blvl_q3_shaders_load      every scripts/ *.shader of a search path, the engine's order
 *   blvl_q3_shaders_find      a shader by name (case-insensitive), the engine's winner
 *   blvl_q3_shaders_free      release everything
 *
 * A script is `name { keyword args... { stage keyword args... } ... }` blocks. Tokens are
 * separated by white space; // and C comments are skipped; a quoted token runs to the next quote.
 * A keyword's arguments are the tokens up to the end of its line. Every keyword the bake reads is
 * decoded below; any other keyword (or a known one whose arguments do not read) is kept as
 * "keyword args" in the shader's or stage's `unknown` list and is never fatal. A refusal is
 * BLVL_E_SOURCE "scripts/x.shader: <shader or text> at offset N: <rule>: <problem>". */
#ifndef BLVL_Q3_SHADER_H
#define BLVL_Q3_SHADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/common.h"
#include "blvl/q3.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hostile-input limits (the engine's own where it has one). */
#define BLVL_Q3_SHADER_MAX_SCRIPT (16u << 20) /* bytes of one script */
#define BLVL_Q3_SHADER_MAX_TOKEN 1023u        /* bytes of one token (the engine's 1024 - 1) */
#define BLVL_Q3_SHADER_MAX_NAME 63u           /* bytes of a shader name (MAX_QPATH - 1) */
#define BLVL_Q3_SHADER_MAX_SHADERS 65536u     /* shaders in one script */
#define BLVL_Q3_SHADER_MAX_SCRIPTS 4096u      /* scripts in one set */
#define BLVL_Q3_SHADER_MAX_ARGS 64u           /* arguments of one keyword */
#define BLVL_Q3_SHADER_MAX_LIST 256u          /* surfaceparms, unknown keywords of one block */
#define BLVL_Q3_SHADER_MAX_STAGES 8u          /* stages of one shader (MAX_SHADER_STAGES) */
#define BLVL_Q3_SHADER_MAX_TCMODS 4u          /* tcMods of one stage (TR_MAX_TEXMODS) */
#define BLVL_Q3_SHADER_MAX_FRAMES 8u          /* animMap frames (MAX_IMAGE_ANIMATIONS) */
#define BLVL_Q3_SHADER_MAX_DEFORMS 3u         /* deformVertexes of one shader */

/* Wave functions, numbered as the engine's genFunc_t (and blvl_WaveFunc_*). */
enum {
    BLVL_Q3_WAVE_NONE = 0,
    BLVL_Q3_WAVE_SIN,
    BLVL_Q3_WAVE_SQUARE,
    BLVL_Q3_WAVE_TRIANGLE,
    BLVL_Q3_WAVE_SAWTOOTH,
    BLVL_Q3_WAVE_INVERSE_SAWTOOTH,
    BLVL_Q3_WAVE_NOISE
};
typedef struct blvl_q3_wave {
    uint32_t func; /* BLVL_Q3_WAVE_* */
    float base, amp, phase, freq;
} blvl_q3_wave;

/* tcMod kinds, numbered as the engine's texMod_t (and blvl_TcModKind_*). */
enum {
    BLVL_Q3_TCMOD_NONE = 0,
    BLVL_Q3_TCMOD_TRANSFORM, /* args: m00 m01 m10 m11 t0 t1 */
    BLVL_Q3_TCMOD_TURB,      /* args: base amp phase freq */
    BLVL_Q3_TCMOD_SCROLL,    /* args: s t (per second) */
    BLVL_Q3_TCMOD_SCALE,     /* args: s t */
    BLVL_Q3_TCMOD_STRETCH,   /* wave */
    BLVL_Q3_TCMOD_ROTATE,    /* args: degrees per second */
    BLVL_Q3_TCMOD_ENTITY_TRANSLATE
};
typedef struct blvl_q3_tcmod {
    uint8_t kind;
    float args[6];
    blvl_q3_wave wave;
} blvl_q3_tcmod;

/* deformVertexes kinds, numbered as the engine's deform_t (and blvl_DeformKind_*). */
enum {
    BLVL_Q3_DEFORM_NONE = 0,
    BLVL_Q3_DEFORM_WAVE,   /* spread, wave */
    BLVL_Q3_DEFORM_NORMAL, /* wave (amp, freq) */
    BLVL_Q3_DEFORM_BULGE,  /* bulge_* */
    BLVL_Q3_DEFORM_MOVE,   /* vector, wave */
    BLVL_Q3_DEFORM_PROJECTION_SHADOW,
    BLVL_Q3_DEFORM_AUTOSPRITE,
    BLVL_Q3_DEFORM_AUTOSPRITE2,
    BLVL_Q3_DEFORM_TEXT0 /* .. TEXT0 + 7 */
};
typedef struct blvl_q3_deform {
    uint8_t kind;
    float spread; /* 1 / div, as the engine keeps it (div 0 reads as spread 100) */
    blvl_q3_wave wave;
    float vector[3];
    float bulge_width, bulge_height, bulge_speed;
} blvl_q3_deform;

/* blendFunc factors (0: the stage has no blendFunc). */
enum {
    BLVL_Q3_BLEND_NONE = 0,
    BLVL_Q3_GL_ONE,
    BLVL_Q3_GL_ZERO,
    BLVL_Q3_GL_DST_COLOR,
    BLVL_Q3_GL_ONE_MINUS_DST_COLOR,
    BLVL_Q3_GL_SRC_ALPHA,
    BLVL_Q3_GL_ONE_MINUS_SRC_ALPHA,
    BLVL_Q3_GL_DST_ALPHA,
    BLVL_Q3_GL_ONE_MINUS_DST_ALPHA,
    BLVL_Q3_GL_SRC_COLOR,
    BLVL_Q3_GL_ONE_MINUS_SRC_COLOR,
    BLVL_Q3_GL_SRC_ALPHA_SATURATE
};

enum { /* what a stage draws */
       BLVL_Q3_MAP_NONE = 0,
       BLVL_Q3_MAP_IMAGE,    /* map / clampMap */
       BLVL_Q3_MAP_ANIM,     /* animMap */
       BLVL_Q3_MAP_LIGHTMAP, /* map $lightmap */
       BLVL_Q3_MAP_WHITE     /* map $whiteimage */
};
enum { /* rgbGen */
       BLVL_Q3_RGB_DEFAULT = 0,
       BLVL_Q3_RGB_IDENTITY,
       BLVL_Q3_RGB_IDENTITY_LIGHTING,
       BLVL_Q3_RGB_WAVE,
       BLVL_Q3_RGB_VERTEX,
       BLVL_Q3_RGB_EXACT_VERTEX,
       BLVL_Q3_RGB_ONE_MINUS_VERTEX,
       BLVL_Q3_RGB_ENTITY,
       BLVL_Q3_RGB_ONE_MINUS_ENTITY,
       BLVL_Q3_RGB_LIGHTING_DIFFUSE,
       BLVL_Q3_RGB_CONST
};
enum { /* alphaGen */
       BLVL_Q3_ALPHA_DEFAULT = 0,
       BLVL_Q3_ALPHA_IDENTITY,
       BLVL_Q3_ALPHA_WAVE,
       BLVL_Q3_ALPHA_VERTEX,
       BLVL_Q3_ALPHA_ONE_MINUS_VERTEX,
       BLVL_Q3_ALPHA_ENTITY,
       BLVL_Q3_ALPHA_ONE_MINUS_ENTITY,
       BLVL_Q3_ALPHA_LIGHTING_SPECULAR,
       BLVL_Q3_ALPHA_PORTAL,
       BLVL_Q3_ALPHA_CONST
};
enum { /* tcGen */
       BLVL_Q3_TCGEN_BASE = 0,
       BLVL_Q3_TCGEN_LIGHTMAP,
       BLVL_Q3_TCGEN_ENVIRONMENT,
       BLVL_Q3_TCGEN_VECTOR
};
enum { /* alphaFunc */
       BLVL_Q3_AFUNC_NONE = 0,
       BLVL_Q3_AFUNC_GT0,
       BLVL_Q3_AFUNC_LT128,
       BLVL_Q3_AFUNC_GE128
};
enum { /* cull */
       BLVL_Q3_CULL_FRONT = 0,
       BLVL_Q3_CULL_BACK,
       BLVL_Q3_CULL_NONE
};

typedef struct blvl_q3_stage {
    uint32_t offset; /* of its '{' in the script */
    uint8_t map_kind;
    const char *map; /* IMAGE: the image path as written */
    bool clamp;      /* clampMap */
    const char *frames[BLVL_Q3_SHADER_MAX_FRAMES];
    uint32_t frame_count; /* ANIM */
    float fps;
    uint8_t blend_src, blend_dst; /* BLVL_Q3_GL_*; NONE when no blendFunc */
    uint8_t rgb_gen;
    blvl_q3_wave rgb_wave;
    float rgb_const[3];
    uint8_t alpha_gen;
    blvl_q3_wave alpha_wave;
    float alpha_const; /* CONST; PORTAL: the range */
    uint8_t tc_gen;
    float tc_vector[2][3];
    blvl_q3_tcmod tcmods[BLVL_Q3_SHADER_MAX_TCMODS];
    uint32_t tcmod_count;
    bool depth_write; /* depthWrite written */
    bool depth_equal; /* depthFunc equal */
    uint8_t alpha_func;
    bool detail;
    const char *const *unknown; /* "keyword args", in script order */
    uint32_t unknown_count;
} blvl_q3_stage;

typedef struct blvl_q3_shader {
    const char *name;                  /* as written */
    const char *script;                /* the script that defined it ("scripts/base.shader") */
    uint32_t offset;                   /* of its name in the script */
    const char *const *surface_params; /* surfaceparm names as written, in order */
    uint32_t surface_param_count;
    uint8_t cull; /* BLVL_Q3_CULL_* */
    bool has_sort;
    float sort; /* sort: a number, or the engine's named values (opaque 3, additive 9, ...) */
    bool polygon_offset, nopicmip, nomipmaps, entity_mergable, portal;
    blvl_q3_deform deforms[BLVL_Q3_SHADER_MAX_DEFORMS];
    uint32_t deform_count;
    bool has_fog; /* fogParms ( r g b ) depth */
    float fog_color[3], fog_depth;
    bool has_sky;            /* skyParms farbox cloudheight nearbox */
    const char *sky_farbox;  /* NULL for "-" */
    const char *sky_nearbox; /* NULL for "-" */
    float sky_cloud_height;
    bool has_sun; /* q3map_sun / q3map_sunExt r g b intensity degrees elevation */
    float sun_color[3], sun_intensity, sun_degrees, sun_elevation;
    bool has_surface_light;
    float surface_light;                    /* q3map_surfacelight */
    int32_t tess_size;                      /* q3map_tessSize / tessSize; 0 = none */
    const char *light_image, *editor_image; /* q3map_lightimage, qer_editorimage; NULL */
    const blvl_q3_stage *stages;
    uint32_t stage_count;
    const char *const *unknown; /* "keyword args", in script order */
    uint32_t unknown_count;
} blvl_q3_shader;

typedef struct blvl_q3_shaders blvl_q3_shaders;

BLVL_API blvl_status blvl_q3_shaders_new(blvl_q3_shaders **out, const blvl_options *opt,
                                         blvl_error *err);
BLVL_API void blvl_q3_shaders_free(blvl_q3_shaders *s);
/* Parse one script. For a name defined more than once, a script added later wins over one
 * added earlier, and within one script the first definition wins (the engine's rule, docs). A
 * refused script leaves the set as it was. */
BLVL_API blvl_status blvl_q3_shaders_add(blvl_q3_shaders *s, const char *script_name,
                                         const char *text, size_t size, blvl_error *err);
/* Every scripts/ *.shader of `fs`, added in byte order of their lower-cased names. A script
 * that does not read is skipped (as the engine skips it) and counted; the first refusal's
 * message is kept. Only allocation and file-system failures stop the load. `fs` must have been
 * made with the same allocator as the set. */
BLVL_API blvl_status blvl_q3_shaders_load(blvl_q3_shaders *s, const blvl_q3_fs *fs,
                                          blvl_error *err);
BLVL_API const blvl_q3_shader *blvl_q3_shaders_find(const blvl_q3_shaders *s, const char *name);
BLVL_API uint32_t blvl_q3_shaders_count(const blvl_q3_shaders *s);            /* distinct names */
BLVL_API uint32_t blvl_q3_shaders_refused(const blvl_q3_shaders *s);          /* scripts skipped */
BLVL_API const char *blvl_q3_shaders_first_refusal(const blvl_q3_shaders *s); /* or NULL */

#ifdef __cplusplus
}
#endif
#endif
