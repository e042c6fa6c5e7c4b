/* blvl bake: a source map into a level (docs/BAKE.md, docs/IMPORT.md). Argument parsing over
 * the library's front door (blvl/import.h), which detects the format, reads archives and
 * recipes and writes atomically: a refused input leaves nothing at OUT. This file words what
 * the library reports (usage lines, the Quake 3 report, the line of counts). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blvl/import.h"
#include "cli.h"

static const cli_help help = {
    "bake",
    "INPUT -o OUT.blvl [--from hmap|subspace|riot|q3] [--symbols OUT.bsym] [--threads N]\n"
    "       [--acoustics-spacing QU | --no-acoustics] [--draft]\n"
    "       [--pk3 FILE_OR_DIR]... [--map NAME] [--patch-thickness QU] [--patch-subdivisions N]\n"
    "       | ARCHIVE.pk3 --list [--pk3 FILE_OR_DIR]...",
    "Bakes a source map into a level. The format comes from the first bytes:\n"
    "  HMAP        Rockgrave .hmap (docs/IMPORT-HMAP.md)\n"
    "  SRSC        Riot engine (Drakan) .lvl (docs/IMPORT-RIOT.md)\n"
    "  BM, elvl    Subspace .lvl (docs/IMPORT-SUBSPACE.md); the level's name is the map's\n"
    "              ATTR NAME, else the file's name without its directory and .lvl\n"
    "  IBSP, PK    Quake 3 .bsp, or a .pk3 zip holding maps/*.bsp (docs/IMPORT-Q3.md)\n"
    "  blvl-recipe a recipe: map, pk3 and options lines, cameras from NAME.cameras\n"
    "              beside NAME.recipe (docs/IMPORT-Q3.md)\n"
    "A file with none of these starts is a Subspace map of bare tile records only with\n"
    "--from subspace, or when its name ends in .lvl and its first record's x and y are at most\n"
    "1023 (or it is shorter than one record, 0 to 3 bytes: no tiles, unless they begin SRSC);\n"
    "one whose name ends in .hmap goes to the .hmap reader, .bsp to the Quake 3 reader\n"
    "(which say what is wrong with it); anything else is refused as an unknown format.\n"
    "  -o OUT.blvl            the level (written to a temporary beside it, synced, renamed)\n"
    "  --symbols OUT.bsym     also write the symbols sidecar (where each collider and\n"
    "                         triangle run came from)\n"
    "  --from FORMAT          read INPUT as this format whatever its bytes say\n"
    "  --threads N            compression workers (0 = online CPUs); the bytes do not depend\n"
    "                         on it\n"
    "  --acoustics-spacing QU the acoustics probe lattice's spacing, 16..1024 (default 96;\n"
    "                         docs/ACOUSTICS.md)\n"
    "  --no-acoustics         no acoustics section (Subspace maps never have one)\n"
    "  --draft                a draft for iteration: chunks at zstd level 1 instead of 19,\n"
    "                         meta.tool ends in ' draft', blvl diag warns (D0046); same\n"
    "                         sections, another identity: do not ship it\n"
    "Quake 3 maps (INPUT a .bsp on disk, a path inside the --pk3 archives such as\n"
    "maps/oa_dm1.bsp, or a .pk3 holding the map):\n"
    "  --pk3 FILE_OR_DIR      an archive, or a folder (its *.pk3 in byte order of names, then\n"
    "                         its loose files); repeatable, later ones override earlier ones\n"
    "  --map NAME             which map of a .pk3 INPUT (oa_dm1, maps/oa_dm1.bsp); needed when\n"
    "                         it holds more than one\n"
    "  --patch-thickness QU   how far a patch's collision hulls reach behind it (default 4)\n"
    "  --patch-subdivisions N tessellation of drawn patches, 1..64 per Bezier span (default:\n"
    "                         the engine's rule)\n"
    "  --list                 bake nothing: print every map of INPUT (a .pk3 or a folder) and\n"
    "                         the --pk3 archives, one path a line (blvl bake ARCHIVE.pk3 --list)\n"
    "Prints one line of counts (a Quake 3 bake also one line of its report on stderr:\n"
    "missing images, dropped brushes, ...). Exit status: 0 baked, 1 the input is refused\n"
    "(\"blvl: FILE: <chunk>: <field> at offset N: <rule>: <problem>\") and nothing is\n"
    "written, 2 usage error.\n"};

#define MAX_PK3 BLVL_IMPORT_MAX_PK3 /* --pk3 at most this many times */

static int parse_thickness(const char *s, float *out) {
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v) || v <= 0 || v > 1024)
        return -1;
    *out = (float)v;
    return 0;
}

static int parse_spacing(const char *s, float *out) {
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v) || v < 16 || v > 1024)
        return -1;
    *out = (float)v;
    return 0;
}

static int parse_subdivisions(const char *s, int *out) {
    uint32_t v;
    if (cli_parse_u32(s, &v) || v < 1 || v > 64)
        return -1;
    *out = (int)v;
    return 0;
}

/* Whether two paths name one existing file (so a bake would replace its own input). */
static int same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

static void progress(void *user, uint64_t done, uint64_t total) {
    (void)user;
    cli_progress("bake", done, total);
}

/* bake --list: every maps/NAME.bsp of `in` (a .pk3 or a folder) and the --pk3 entries. */
static int list_maps(const char *in, const blvl_import_options *io) {
    blvl_import_report rep;
    blvl_error err;
    char **names = NULL;
    size_t count = 0;
    if (blvl_import_list_maps(&names, &count, &rep, in, io, &err) != BLVL_OK) {
        if (rep.misuse == BLVL_IMPORT_LIST_NOT_ARCHIVE) {
            fprintf(stderr,
                    "blvl bake: --list lists the maps of a .pk3 (or a folder) given as INPUT; "
                    "%s is none (see blvl bake --help)\n",
                    in);
            return CLI_USAGE;
        }
        return cli_fail(rep.where, &err);
    }
    for (size_t i = 0; i < count; i++)
        printf("%s\n", names[i]);
    blvl_free(&io->base, names);
    return CLI_OK;
}

/* A refused argument the library names (report->misuse), in the command line's words. */
static int misuse(const blvl_import_report *rep, const char *in) {
    if (rep->misuse == BLVL_IMPORT_NOT_Q3)
        return cli_usage(&help, "--pk3, --map and --patch-* are for Quake 3 maps; %s is none", in);
    if (rep->misuse == BLVL_IMPORT_MAP_NOT_ARCHIVE)
        return cli_usage(&help, "--map picks the map of a .pk3 given as INPUT; %s is none",
                         rep->where);
    /* BLVL_IMPORT_MAP_AMBIGUOUS: the archive's own maps, to name two */
    static const blvl_import_options alone = {0};
    blvl_import_report r;
    blvl_error err;
    char **names = NULL;
    size_t count = 0;
    const char *pk3 = rep->where;
    if (blvl_import_list_maps(&names, &count, &r, pk3, &alone, &err) != BLVL_OK || count < 2) {
        blvl_free(NULL, names);
        return cli_fail(r.where, &err);
    }
    fprintf(stderr,
            "blvl bake: %s holds %zu maps (%s, %s, ...): name one with --map; blvl bake %s "
            "--list prints them all\n",
            pk3, count, names[0], names[1], pk3);
    blvl_free(NULL, names);
    return CLI_USAGE;
}

/* What a bake prints: the Quake 3 report and missing-images lines on stderr, one line of
 * counts on stdout. */
static void print_baked(const blvl_import_report *rep, const char *out, const char *symbols) {
    const struct blvl_q3_bake_report *r = &rep->q3;
    const char *shown = rep->where;
    int q3 = rep->format == BLVL_IMPORT_Q3 || rep->format == BLVL_IMPORT_RECIPE;
    if (q3)
        fprintf(stderr,
                "blvl bake: %s: %u missing images, %u bad images, %u unknown shader keywords, %u "
                "brushes (%u dropped), %u patch hulls, %u surfaces drawn, %u triangles (%u from "
                "patches), %u fogs dropped, %u light grid dropped, %u values replaced\n",
                shown, r->missing_images, r->bad_images, r->unknown_keywords, r->brushes,
                r->brushes_dropped, r->patch_hulls, r->surfaces_drawn, r->triangles,
                r->patch_triangles, r->fogs_dropped, r->light_grid_dropped, r->values_replaced);
    cli_reports_off_stdout(out);
    /* Images not found leave the level without textures: say how many, and where they come from. */
    if (q3 && r->missing_images && !rep->archives)
        fprintf(stderr,
                "blvl bake: %s: %u image%s not found: no archives were given; --pk3 FILE_OR_DIR "
                "gives the game's .pk3 archives and folders that hold them (the level keeps "
                "the names, without textures)\n",
                shown, r->missing_images, r->missing_images == 1 ? "" : "s");
    else if (q3 && r->missing_images)
        fprintf(stderr,
                "blvl bake: %s: %u image%s not found in the archives and folders given (--pk3 "
                "FILE_OR_DIR gives more; the level keeps the names, without textures)\n",
                shown, r->missing_images, r->missing_images == 1 ? "" : "s");
    const blvl_bake_stats *s = &rep->stats;
    printf("baked %s: %u colliders, %u planes, %u triangles, %u batches, %u materials, "
           "%u entities%s%s\n",
           out, s->colliders, s->planes, s->triangles, s->batches, s->materials, s->entities,
           symbols ? "; symbols " : "", symbols ? symbols : "");
}

/* No format: the first bytes, and the formats there are. */
static int unknown_format(const char *in, const uint8_t *data, size_t size) {
    char hex[3 * 4 + 1] = "";
    int at = 0;
    for (size_t i = 0; i < size && i < 4; i++)
        at += snprintf(hex + at, sizeof hex - (size_t)at, "%s%02x", i ? " " : "", data[i]);
    return cli_failf(in, BLVL_E_UNKNOWN_FORMAT,
                     "%s%s%s, which is no format blvl bakes (HMAP Rockgrave, SRSC Riot, "
                     "BM/elvl Subspace, IBSP or PK zip Quake 3; --from names one)",
                     size ? "starts with bytes " : "is empty", hex, size > 4 ? " ..." : "");
}

int blvl_cmd_bake(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
                                          {"from", required_argument, NULL, 'f'},
                                          {"symbols", required_argument, NULL, 's'},
                                          {"threads", required_argument, NULL, 't'},
                                          {"pk3", required_argument, NULL, 'P'},
                                          {"map", required_argument, NULL, 'M'},
                                          {"patch-thickness", required_argument, NULL, 'T'},
                                          {"patch-subdivisions", required_argument, NULL, 'D'},
                                          {"list", no_argument, NULL, 'L'},
                                          {"acoustics-spacing", required_argument, NULL, 'A'},
                                          {"no-acoustics", no_argument, NULL, 'N'},
                                          {"draft", no_argument, NULL, 'R'},
                                          {0, 0, 0, 0}};
    static const char *pk3[MAX_PK3]; /* static: 2 KiB of pointers */
    blvl_import_options io = {0};
    io.pk3 = pk3;
    const char *out = NULL, *symbols = NULL;
    blvl_import_format from = BLVL_IMPORT_AUTO;
    uint32_t threads = 0;
    int c, list = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
        if (c == 'o' && (out || !*optarg))
            return cli_usage(&help, out ? "-o given twice" : "-o wants a file name, not ''");
        else if (c == 'o')
            out = optarg;
        else if (c == 's' && (symbols || !*optarg))
            return cli_usage(&help, symbols ? "--symbols given twice"
                                            : "--symbols wants a file name, not ''");
        else if (c == 's')
            symbols = optarg;
        else if (c == 'f') {
            from = BLVL_IMPORT_AUTO;
            for (int k = BLVL_IMPORT_HMAP; k <= BLVL_IMPORT_Q3; k++)
                if (strcmp(optarg, blvl_import_format_name((blvl_import_format)k)) == 0)
                    from = (blvl_import_format)k;
            if (from == BLVL_IMPORT_AUTO)
                return cli_usage(&help, "--from wants hmap, subspace, riot or q3, not '%s'",
                                 optarg);
        } else if (c == 't' && cli_parse_u32(optarg, &threads) == 0 && threads <= 1024)
            continue;
        else if (c == 't')
            return cli_usage(&help, "--threads wants a number 0..1024, not '%s'", optarg);
        else if (c == 'P' && !*optarg)
            return cli_usage(&help, "--pk3 wants a file or folder, not ''");
        else if (c == 'P' && io.pk3_count >= MAX_PK3)
            return cli_usage(&help, "--pk3 given more than %d times", MAX_PK3);
        else if (c == 'P')
            pk3[io.pk3_count++] = optarg;
        else if (c == 'M' && (io.map || !*optarg))
            return cli_usage(&help, io.map ? "--map given twice" : "--map wants a name, not ''");
        else if (c == 'M')
            io.map = optarg;
        else if (c == 'T' && io.patch_thickness == 0 &&
                 !parse_thickness(optarg, &io.patch_thickness))
            continue;
        else if (c == 'T')
            return cli_usage(&help, "--patch-thickness wants one number 0 < QU <= 1024, not '%s'",
                             optarg);
        else if (c == 'D' && !io.patch_subdivisions &&
                 !parse_subdivisions(optarg, &io.patch_subdivisions))
            continue;
        else if (c == 'D')
            return cli_usage(&help, "--patch-subdivisions wants one number 1..64, not '%s'",
                             optarg);
        else if (c == 'L')
            list = 1;
        else if (c == 'A' && io.acoustics_spacing == 0 &&
                 !parse_spacing(optarg, &io.acoustics_spacing))
            continue;
        else if (c == 'A')
            return cli_usage(
                &help, "--acoustics-spacing wants one number 16 <= QU <= 1024, not '%s'", optarg);
        else if (c == 'N')
            io.no_acoustics = true;
        else if (c == 'R')
            io.draft = true;
        else
            return cli_getopt_error(&help, argc, argv);
    }
    if (optind >= argc)
        return cli_usage(&help, "needs an INPUT");
    if (argc - optind > 1)
        return cli_usage(&help, "takes one INPUT, not %d", argc - optind);
    int q3_opts = io.pk3_count || io.map || io.patch_thickness != 0 || io.patch_subdivisions;
    if (list && (out || symbols || io.map || io.patch_thickness != 0 || io.patch_subdivisions ||
                 (from != BLVL_IMPORT_AUTO && from != BLVL_IMPORT_Q3)))
        return cli_usage(&help, "--list prints the maps of the archives and bakes nothing: it "
                                "takes only INPUT and --pk3");
    if (io.no_acoustics && io.acoustics_spacing != 0)
        return cli_usage(&help, "--acoustics-spacing and --no-acoustics contradict each other");
    if (list)
        return list_maps(argv[optind], &io);
    if (!out)
        return cli_usage(&help, "needs -o OUT.blvl");
    if (symbols && strcmp(symbols, out) == 0)
        return cli_usage(&help, "--symbols and -o name the same file");
    const char *in = argv[optind];
    if (same_file(in, out) || (symbols && same_file(in, symbols)))
        return cli_usage(&help, "the output would replace the input %s", in);
    if (q3_opts && from != BLVL_IMPORT_AUTO && from != BLVL_IMPORT_Q3)
        return cli_usage(&help, "--pk3, --map and --patch-* are for Quake 3 maps, not --from %s",
                         blvl_import_format_name(from));
    io.from = from;
    cli_out_options(&io.base);
    io.base.threads = threads;
    if (cli_progress_enabled())
        io.base.progress = progress;
    blvl_import_report rep;
    blvl_error err;
    blvl_status st;
    uint8_t *data = NULL;
    size_t size = 0;
    /* A map inside the archives: no file of that name on disk (the library reads it). */
    struct stat sb;
    if (io.pk3_count && stat(in, &sb) != 0)
        st = blvl_import_bake_file(&rep, in, out, symbols, &io, &err);
    else {
        int rc = cli_read_input(in, &data, &size);
        if (rc != CLI_OK)
            return rc;
        st = blvl_import_bake_memory(&rep, in, data, size, out, symbols, &io, &err);
    }
    int rc = CLI_OK;
    if (st == BLVL_E_UNKNOWN_FORMAT)
        rc = unknown_format(in, data, size);
    else if (st != BLVL_OK && rep.misuse != BLVL_IMPORT_MISUSE_NONE)
        rc = misuse(&rep, in);
    else if (st != BLVL_OK)
        rc = cli_fail(rep.where, &err);
    else {
        cli_progress_clear();
        print_baked(&rep, out, symbols);
    }
    free(data);
    return rc;
}
