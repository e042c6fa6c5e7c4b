/* blvl bake of a Quake 3 map (cli/bake_q3.c) and of a recipe naming one (cli/bake_recipe.c);
 * docs/IMPORT-Q3.md, "Command line and recipes". */
#ifndef BLVL_CLI_BAKE_Q3_H
#define BLVL_CLI_BAKE_Q3_H
#include <stddef.h>
#include <stdint.h>

#define Q3_MAX_PK3 256 /* --pk3 (and recipe pk3 lines) at most this many times */

typedef struct q3_args {
    const char *pk3[Q3_MAX_PK3]; /* in order: later ones override earlier ones */
    size_t pk3_count;
    const char *map;        /* --map NAME: which map of a .pk3 given as the map */
    float patch_thickness;  /* --patch-thickness QU; 0 = the importer's default */
    int patch_subdivisions; /* --patch-subdivisions N; 0 = the importer's default */
    int has_thickness, has_subdivisions;
    const char *cameras; /* a cameras file (a recipe's), or NULL */
} q3_args;

typedef struct q3_out {
    const char *out, *symbols;
    unsigned threads;
} q3_out;

/* The option values' parsers, shared by the command line and a recipe's options line; each
 * returns 0 or -1 for a value out of range. */
int q3_parse_thickness(const char *s, float *out);
int q3_parse_subdivisions(const char *s, int *out);

/* `in` is a .bsp or .pk3 on disk (data, size its bytes) or, with data NULL, a path inside the
 * archives. Returns the exit status. */
int cli_bake_q3(const char *in, const uint8_t *data, size_t size, const q3_args *a,
                const q3_out *o);
/* bake --list: every maps/NAME.bsp of `in` (a .pk3 or a folder) and the --pk3 entries, one path a
 * line on stdout. Returns the exit status. */
int cli_bake_q3_list(const char *in, const q3_args *a);
/* Whether the bytes are a recipe (they start with "blvl-recipe "). */
int cli_is_recipe(const uint8_t *data, size_t size);
/* A recipe file; `cmd` holds the command line's Quake 3 options, which come after the
 * recipe's (its --pk3 archives override the recipe's, its values replace the recipe's). */
int cli_bake_recipe(const char *path, const uint8_t *data, size_t size, const q3_args *cmd,
                    const q3_out *o);
#endif
