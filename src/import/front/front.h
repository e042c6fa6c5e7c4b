/* The import front door's pieces (include/blvl/import.h): detection, the per-format bakes, the
 * Quake 3 archives and map picking, recipes and cameras. */
#ifndef BLVL_IMPORT_FRONT_H
#define BLVL_IMPORT_FRONT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/import.h"

/* The Quake 3 options after a recipe merged its own under the caller's. */
struct import_q3_args {
    const char *pk3[BLVL_IMPORT_MAX_PK3]; /* later ones override earlier ones */
    size_t pk3_count;
    const char *map;
    float patch_thickness;
    int patch_subdivisions;
    const char *cameras;
    bool no_acoustics;       /* the recipe's --no-acoustics */
    float acoustics_spacing; /* the recipe's --acoustics-spacing (0: not given) */
    bool draft;              /* the recipe's --draft */
};

/* report->where = a string (cut to fit). */
void blvl__import_where(blvl_import_report *report, const char *file);
/* A whole file into a blvl__alloc_sized buffer (at most a section's raw maximum);
 * refusals as the command line words them ("io: cannot read: ..."). */
blvl_status blvl__import_read(const blvl_options *opt, const char *path, uint8_t **data,
                              size_t *size, blvl_error *err);
/* A Quake 3 map: `in` on disk (data, size its bytes) or, with data NULL, a path inside the
 * archives. */
blvl_status blvl__import_quake3(blvl_import_report *report, const char *in, const uint8_t *data,
                                size_t size, const struct import_q3_args *a, const char *level_path,
                                const char *symbols_path, const blvl_import_options *opt,
                                blvl_error *err);
/* A recipe; `opt` holds the caller's Quake 3 options, which come after the recipe's. */
blvl_status blvl__import_recipe(blvl_import_report *report, const char *path, const uint8_t *data,
                                size_t size, const char *level_path, const char *symbols_path,
                                const blvl_import_options *opt, blvl_error *err);
/* A "blvl-cameras 1" file's cameras into the model. */
blvl_status blvl__import_cameras(blvl_import_report *report, const char *path, blvl_bake *b,
                                 blvl_error *err);
/* Writes the model (with the acoustics step unless opt->no_acoustics or the format has no
 * floors: Subspace), then fills report->stats; a refusal names the level's path. */
blvl_status blvl__import_write(blvl_import_report *report, blvl_bake *b, const char *level_path,
                               const char *symbols_path, const blvl_import_options *opt,
                               blvl_error *err);
#endif
