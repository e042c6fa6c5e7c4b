/* The blvl program: a dispatcher over a table of subcommands.
 *
 * To add a subcommand NAME, write `int blvl_cmd_NAME(int argc, char **argv)` in
 * cli/cmd_NAME.c (argv[0] is "NAME"; return 0 success, 1 a refused or failed
 * input with one line "blvl: FILE: <rule>: <message>" on stderr, 2 a usage
 * error; print help on --help), then add ONE line to BLVL_COMMANDS below:
 *
 *     X(NAME, "one-line summary for `blvl --help`")
 *
 * The X-macro both declares the function and puts it in the table, so nothing
 * else changes. The shared helpers are declared in cli.h: cli/util.c (arguments, errors,
 * inputs, progress), cli/print_level.c (what identity, ls and info print). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define BLVL_COMMANDS                                                                              \
    X(info, "header, identity, table digest and sections of a level (--json)")                     \
    X(verify, "check every rule and every section of levels")                                      \
    X(identity, "print a level's identity (32 hex digits)")                                        \
    X(ls, "list a level's sections")                                                               \
    X(cat, "write a section's inflated bytes to stdout")                                           \
    X(put, "add or replace a section outside identity, in place")                                  \
    X(drop, "drop a section outside identity, in place")                                           \
    X(pack, "bake a level from raw payload files")                                                 \
    X(bake, "bake a source map (.hmap, Subspace or Riot .lvl, Quake 3 .bsp/.pk3) into a level")    \
    X(rewrite, "compacting copy of a level (identity kept)")                                       \
    X(dump, "print a core section as JSON (the schema's field names)")                             \
    X(stream, "read a level from stdin through the streaming reader, printing "                    \
              "each event")                                                                        \
    X(trace, "trace boxes, rays and points against a level's colliders")                           \
    X(diag, "check a level (and its symbols) against the catalogue of checks; text dumps")         \
    X(probe, "what a player at a pose sees and stands in; render the view (--png)")                \
    X(export, "write a level as glTF 2.0 (.glb, or .gltf and .bin)")                               \
    X(fetch, "read a level over HTTP: the whole file (-o) or only --want sections")                \
    X(view, "show a level in a browser page served on 127.0.0.1 (three.js)")

#define X(name, summary) int blvl_cmd_##name(int argc, char **argv);
BLVL_COMMANDS
#undef X

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
#define X(name, summary) {#name, blvl_cmd_##name, summary},
    BLVL_COMMANDS
#undef X
};

static void usage(FILE *to) {
    fprintf(to, "usage: blvl COMMAND [ARGS...]   (blvl COMMAND --help for each)\n\n"
                "Baked game levels (.blvl): inspect, check, edit, bake and stream "
                "them.\n\n"
                "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(to, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(to, "\nexit status: 0 success, 1 a refused or failed input, 2 a "
                "usage error\n"
                "blvl --version prints the version (blvl X.Y.Z)\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        /* the library linked, which is the one that does the work */
        printf("blvl %s\n", blvl_version_string());
        return fflush(stdout) == 0 ? CLI_OK : CLI_FAILED;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            int rc = commands[i].run(argc - 1, argv + 1);
            if (fflush(stdout) != 0 && rc == CLI_OK) {
                fprintf(stderr, "blvl: stdout: %s: could not write the output of %s\n",
                        blvl_status_name(BLVL_E_IO), argv[1]);
                return CLI_FAILED;
            }
            return rc;
        }
    fprintf(stderr, "blvl: unknown command '%s' (blvl --help lists them)\n", argv[1]);
    return CLI_USAGE;
}
