/* What the checks of blvl-diag share: the catalogue as one X-macro (code, severity, section,
 * title; the order is the run order and the codes never change meaning), the run's context with
 * the sections read once (and which of them were refused as damaged), and the one function every
 * check reports through. */
#ifndef BLVL_DIAG_INTERNAL_H
#define BLVL_DIAG_INTERNAL_H

#include <stdbool.h>

#include "blvl/diag.h"
#include "blvl/sections.h"
#include "blvl/trace.h"
#include "common/alloc.h"

#define DG_CHECKS                                                                                  \
    X(SECTION_DAMAGED, "D0000", ERROR, "*", "section refused: digest, chunks or FlatBuffers")      \
    X(BATCH_MATERIAL, "D0001", ERROR, "geometry.batches", "batch material out of range")           \
    X(BATCH_FOG, "D0002", ERROR, "geometry.batches", "batch fog volume out of range")              \
    X(BATCH_SIM, "D0003", ERROR, "geometry.batches", "batch breakable or door out of range")       \
    X(MATERIAL_TEXTURE, "D0004", ERROR, "geometry.materials", "material texture out of range")     \
    X(COLLIDER_BREAKABLE, "D0005", ERROR, "sim.colliders", "collider breakable out of range")      \
    X(COLLIDER_DOOR, "D0006", ERROR, "sim.colliders", "collider door out of range")                \
    X(COLLIDER_SOURCE, "D0007", ERROR, "sim.colliders", "collider source out of range")            \
    X(COLLIDER_MATERIAL, "D0008", ERROR, "sim.colliders", "collider material out of range")        \
    X(TRIGGER_DEST, "D0009", ERROR, "sim.triggers", "trigger teleport destination out of range")   \
    X(PROBE_CUBEMAP, "D0010", ERROR, "lighting.reflection_probes",                                 \
      "reflection probe cubemap out of range")                                                     \
    X(LIGHT_STYLE, "D0011", ERROR, "lighting.light_styles", "light style out of range")            \
    X(PROFILE_REF, "D0012", ERROR, "lighting.profiles", "profile lightmap or sky out of range")    \
    X(BATCH_RANGE, "D0013", ERROR, "geometry.batches", "batch index range past indices")           \
    X(BATCH_ORDER, "D0014", ERROR, "geometry.batches", "batches not sorted by sort key")           \
    X(INDEX_RANGE, "D0015", ERROR, "geometry.indices", "vertex index out of range")                \
    X(DEGENERATE, "D0016", WARNING, "geometry.indices", "degenerate or zero-area triangle")        \
    X(NOT_FINITE, "D0017", ERROR, "*", "NaN or infinity in a coordinate")                          \
    X(NORMAL_UNIT, "D0018", WARNING, "geometry.vertices", "vertex normal not unit length")         \
    X(TANGENT_SIGN, "D0019", ERROR, "geometry.vertices", "tangent w not +1 or -1")                 \
    X(COLLIDER_EMPTY, "D0020", ERROR, "sim.colliders", "collider planes bound nothing")            \
    X(COLLIDER_BOUNDS, "D0021", ERROR, "sim.colliders", "collider lies outside its bounds")        \
    X(TRACE_FACE, "D0022", WARNING, "sim.colliders", "hull face or stored plane yields no plane")  \
    X(TRACE_DROPPED, "D0023", ERROR, "sim.colliders", "collider dropped by the trace expansion")   \
    X(IMAGE_SIZE, "D0024", ERROR, "*", "image blob size disagrees with its description")           \
    X(CUBEMAP_LAYERS, "D0025", ERROR, "cubemaps.images", "cubemap without six layers")             \
    X(L1_COUNT, "D0026", ERROR, "lightmaps.lightmaps", "l1 planes other than 0 or 3")              \
    X(BUMP_COUNT, "D0027", ERROR, "lightmaps.lightmaps", "bump pages other than 0 or 3")           \
    X(STYLE_COUNT, "D0028", ERROR, "lightmaps.lightmaps", "more than three style pages")           \
    X(EDGE_OPPOSITE, "D0029", ERROR, "acoustics.edges", "acoustic edge without its opposite")      \
    X(FIRST_EDGE, "D0030", ERROR, "acoustics.probes", "first_edge not monotone")                   \
    X(ACOUSTIC_REF, "D0031", ERROR, "acoustics", "acoustic probe or room index out of range")      \
    X(SPAWN_SOLID, "D0032", ERROR, "sim.spawns", "spawn in solid")                                 \
    X(SPAWN_FLOOR, "D0033", ERROR, "sim.spawns", "spawn with nothing solid below it")              \
    X(DEST_SOLID, "D0034", ERROR, "sim.teleport_dests", "teleport destination in solid")           \
    X(TRIGGER_SOLID, "D0035", ERROR, "sim.triggers", "trigger holds no empty space")               \
    X(HURT_SOLID, "D0036", ERROR, "sim.hurt_volumes", "hurt volume holds no empty space")          \
    X(SYMBOLS_STALE, "D0037", ERROR, "bsym", "symbols name another level")                         \
    X(SYMBOLS_BAD, "D0038", ERROR, "bsym", "symbols refused: version, verifier or invariant")      \
    X(ACOUSTIC_LENGTH, "D0039", ERROR, "acoustics.edges", "acoustic edge len_m not the distance")  \
    X(ACOUSTIC_PAIR, "D0040", ERROR, "acoustics.edges",                                            \
      "acoustic edge door or narrow unlike its opposite's")                                        \
    X(ACOUSTIC_DOOR, "D0041", ERROR, "acoustics.edges", "acoustic edge door out of range")         \
    X(ACOUSTIC_ROOM, "D0042", ERROR, "acoustics.rooms", "room rt60_s or damping out of range")     \
    X(PROBE_RAYS, "D0043", ERROR, "acoustics.probes", "probe size_m impossible for its enclosed")  \
    X(PROBE_SOLID, "D0044", ERROR, "acoustics.probes", "acoustic probe in solid")                  \
    X(PROBE_FLOOR, "D0045", ERROR, "acoustics.probes", "acoustic probe with no floor below it")    \
    X(DRAFT, "D0046", WARNING, "meta", "a draft bake (blvl bake --draft): not to ship")

enum {
#define X(id, code, sev, section, title) DG_##id,
    DG_CHECKS
#undef X
        DG_COUNT
};

/* The core sections diag reads, each once. */
typedef enum dg_sec {
    DG_SIM,
    DG_GEO,
    DG_TEX,
    DG_CUBE,
    DG_LM,
    DG_LIGHT,
    DG_AC,
    DG_META,
    DG_SEC_COUNT
} dg_sec;

/* Which element a finding's symbols source is looked up for. */
typedef enum dg_src { DG_SRC_NONE, DG_SRC_COLLIDER, DG_SRC_BATCH, DG_SRC_TRIANGLE } dg_src;

typedef struct diag_run {
    blvl_level *level;
    const blvl_allocator *al;
    blvl_diag_fn fn;
    void *user;
    blvl_diag_counts counts;
    bool on[DG_COUNT];
    uint32_t reported[DG_COUNT];
    uint32_t max_per;
    int stop;
    blvl_status fatal; /* the allocator or the transport said no: the run fails with it */
    blvl_error fatal_err;
    const blvl_symbols *sym; /* usable for sources: not stale */
    /* sections, each empty when absent or refused; a refused one is damaged (D0000), and the
     * checks that read it step aside (blvl__diag_ok) */
    bool damaged[DG_SEC_COUNT];
    blvl_bytes b_sim, b_geo, b_tex, b_cube, b_lm, b_light, b_ac, b_meta;
    blvl_Sim sim;
    blvl_Geometry geo;
    blvl_Textures tex;
    blvl_Cubemaps cube;
    blvl_Lightmaps lm;
    blvl_Lighting light;
    blvl_Acoustics ac;
    blvl_Meta meta;
    blvl_trace_world *world; /* built once by the first check that needs it; NULL if it failed */
    bool world_tried;
} diag_run;

/* Report a finding of check `id` about `section`[index] (BLVL_DIAG_NONE: the whole section). */
void blvl__diag_emit(diag_run *d, int id, const char *section, uint32_t index, dg_src src,
                     uint32_t src_index, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Any of these checks on? */
bool blvl__diag_any(const diag_run *d, int first, int last);
/* The trace world of the level's sim (NULL when it could not be built). */
const blvl_trace_world *blvl__diag_world(diag_run *d);
bool blvl__diag_finite3(blvl_Vec3 v);
/* Is the section usable: not refused as damaged (absent is usable: it reads as empty)? */
static inline bool blvl__diag_ok(const diag_run *d, dg_sec s) {
    return !d->damaged[s];
}

void blvl__diag_check_refs(diag_run *d);
void blvl__diag_check_geometry(diag_run *d);
void blvl__diag_check_finite(diag_run *d);
void blvl__diag_check_colliders(diag_run *d);
void blvl__diag_check_images(diag_run *d);
void blvl__diag_check_acoustics(diag_run *d);
void blvl__diag_check_places(diag_run *d);

#endif
