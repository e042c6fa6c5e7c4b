/* blvl import: the front door for baking. Any source map this library reads, detected from its
 * bytes and name, baked into a level (and its symbols sidecar) in one call with one options
 * struct; what `blvl bake` does, for a program that bakes from C (docs/IMPORT.md).
 *
 *   blvl_import_detect          which source format bytes and a name are (the documented rule)
 *   blvl_import_format_name     "hmap", "subspace", "riot", "q3", "recipe"
 *   blvl_import_bake_file       INPUT (a file, or a path inside the archives) -> level, symbols
 *   blvl_import_bake_memory     the same from bytes already read
 *   blvl_import_list_maps       every maps/NAME.bsp of a .pk3 or folder and the archives
 *
 * Example (examples/bake.c is the whole program):
 *
 *   blvl_import_options opt = {0};            // zero: detect, defaults, malloc
 *   blvl_import_report rep;
 *   blvl_error err;
 *   if (blvl_import_bake_file(&rep, "q3dm1.pk3", "q3dm1.blvl", "q3dm1.bsym", &opt, &err))
 *       fprintf(stderr, "%s: %s\n", rep.where, err.message);
 */
#ifndef BLVL_IMPORT_H
#define BLVL_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "blvl/api.h"
#include "blvl/bake.h"
#include "blvl/common.h"
#include "blvl/q3.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Source formats. BLVL_IMPORT_AUTO (zero) asks for detection. */
typedef enum blvl_import_format {
    BLVL_IMPORT_AUTO = 0,
    BLVL_IMPORT_HMAP,     /* Rockgrave .hmap (docs/IMPORT-HMAP.md) */
    BLVL_IMPORT_SUBSPACE, /* Subspace / Continuum .lvl (docs/IMPORT-SUBSPACE.md) */
    BLVL_IMPORT_RIOT,     /* Riot engine (Drakan) SRSC .lvl (docs/IMPORT-RIOT.md) */
    BLVL_IMPORT_Q3,       /* Quake 3 .bsp, or a .pk3 holding maps/NAME.bsp (docs/IMPORT-Q3.md) */
    BLVL_IMPORT_RECIPE,   /* a "blvl-recipe 1" text file naming a Quake 3 map (docs/IMPORT.md) */
    BLVL_IMPORT_FORMAT_COUNT
} blvl_import_format;

#define BLVL_IMPORT_MAX_PK3 256 /* archives at most, the options' and a recipe's together */

/* The one options struct of this header; a zeroed one detects the format and takes every
 * default. `base` comes first, so &opt.base is a blvl_options for every other call. */
typedef struct blvl_import_options {
    blvl_options base;       /* allocator, threads, progress (bytes written), temp_file hook */
    blvl_import_format from; /* read the input as this format whatever its bytes say; AUTO */
    /* Quake 3: the archives and folders searched for the map, shaders and images, in order
     * (later ones override earlier ones; a .pk3 given as INPUT comes last). Giving any of the
     * fields below for an input that is no Quake 3 map (or recipe) is refused. */
    const char *const *pk3;
    size_t pk3_count;
    const char *map;        /* which map of a .pk3 INPUT ("oa_dm1", "maps/oa_dm1.bsp") */
    float patch_thickness;  /* qu behind a patch its collision hull reaches; 0 = 4 */
    int patch_subdivisions; /* 1..64 per Bezier span; 0 = the engine's rule */
    const char *cameras;    /* a "blvl-cameras 1" file added to the level, or NULL (a recipe
                               takes NAME.cameras beside NAME.recipe) */
    /* The acoustics section (docs/ACOUSTICS.md), computed for every format with floors (all but
     * Subspace) unless no_acoustics; its probe lattice's spacing in qu, 16..1024 (0 = 96). */
    bool no_acoustics;
    float acoustics_spacing;
    /* A draft bake (blvl_bake_set_draft): fast zstd level 1, meta.tool marked; not to ship. */
    bool draft;
} blvl_import_options;

/* The Quake 3 bake's counters (blvl/q3.h). */
typedef blvl_q3_bake_report blvl_import_q3_report;

/* Why an argument was refused (err->code BLVL_E_ARGUMENT); a program words its own usage. */
typedef enum blvl_import_misuse {
    BLVL_IMPORT_MISUSE_NONE = 0,
    BLVL_IMPORT_MAP_NOT_ARCHIVE, /* `map` given, and the input is no .pk3 */
    BLVL_IMPORT_MAP_AMBIGUOUS,   /* a .pk3 holding several maps, and no `map` */
    BLVL_IMPORT_NOT_Q3,          /* Quake 3 options for an input that is no Quake 3 map */
    BLVL_IMPORT_LIST_NOT_ARCHIVE /* blvl_import_list_maps of a file that is no zip */
} blvl_import_misuse;

/* What a bake (or a refusal) says besides its status. Filled on success and on failure. */
typedef struct blvl_import_report {
    blvl_import_format format; /* what the input was read as (AUTO: not known yet) */
    blvl_bake_stats stats;     /* the level written */
    /* Quake 3 only: the bake's counters, and whether any archive was searched (options.pk3
     * or a .pk3 INPUT; without one every image is missing and materials keep their names). */
    blvl_import_q3_report q3;
    bool archives;
    blvl_import_misuse misuse;
    /* The file a refusal is about, to print before err->message: the input, the output, an
     * archive, a recipe or cameras file, or "ARCHIVE.pk3:maps/NAME.bsp" for a map inside a .pk3
     * INPUT. On success: what the Quake 3 report names (the same rule). Cut at 4095 bytes. */
    char where[4096];
} blvl_import_report;

/* Which format `data` (its first bytes) and `name` (the file's name, may be NULL) are, the rule
 * `blvl bake` uses (docs/IMPORT.md, "Detection"): a recipe by its first line; HMAP, SRSC, elvl,
 * BM, IBSP, PK\3\4 by their magic; a .lvl of bare Subspace tile records by its name and first
 * record; .hmap and .bsp by name (so their readers say what is wrong). AUTO: none. `what` (may
 * be NULL) gets a phrase naming what was seen. */
BLVL_API blvl_import_format blvl_import_detect(const char **what, const void *data, size_t size,
                                               const char *name);
/* "hmap", "subspace", "riot", "q3", "recipe"; "" for AUTO and unknown values. */
BLVL_API const char *blvl_import_format_name(blvl_import_format format);

/* Bake INPUT into `level_path` and, when `symbols_path` is not NULL, its .bsym sidecar (both
 * atomic: blvl_bake_write_file). INPUT is a file, or with options.pk3 and no such file a path
 * inside the archives ("maps/oa_dm1.bsp"). `report` is filled either way; on failure nothing
 * is written and report->where names the file the error is about. */
BLVL_API blvl_status blvl_import_bake_file(blvl_import_report *report, const char *input,
                                           const char *level_path, const char *symbols_path,
                                           const blvl_import_options *opt, blvl_error *err);
/* The same for bytes already read; `name` is the input's file name (detection, a Subspace
 * level's default name, a recipe's folder, what refusals name). */
BLVL_API blvl_status blvl_import_bake_memory(blvl_import_report *report, const char *name,
                                             const void *data, size_t size, const char *level_path,
                                             const char *symbols_path,
                                             const blvl_import_options *opt, blvl_error *err);
/* Every distinct maps/NAME.bsp of `input` (a .pk3 or a folder) and of options.pk3
 * (blvl_q3_fs_list's order), as one buffer freed with blvl_free(&opt->base, *names). report->where
 * names what a refusal is about. */
BLVL_API blvl_status blvl_import_list_maps(char ***names, size_t *count, blvl_import_report *report,
                                           const char *input, const blvl_import_options *opt,
                                           blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
