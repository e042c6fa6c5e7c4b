/* blvl bake: a source map into a level (docs/BAKE.md; docs/IMPORT-HMAP.md,
 * docs/IMPORT-SUBSPACE.md, docs/IMPORT-RIOT.md). The format is picked from the bytes; the formats
 * blvl knows but has no importer for yet are recognised and refused by name. Output is atomic
 * (blvl_bake_write_file): a refused input leaves nothing at OUT. */
#include <getopt.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blvl/bake.h"
#include "blvl/hmap.h"
#include "blvl/riot.h"
#include "blvl/subspace.h"
#include "bake_q3.h"
#include "cli.h"

static const cli_help help = {
    "bake",
    "INPUT -o OUT.blvl [--from hmap|subspace|riot|q3] [--symbols OUT.bsym] [--threads N]\n"
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

typedef enum format { F_NONE, F_HMAP, F_SUBSPACE, F_RIOT, F_Q3 } format;

static const char *format_names[] = {"", "hmap", "subspace", "riot", "q3"};

static int ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

/* DESIGN "Baking": the format from the bytes; *what names what was seen. */
static format detect(const char *path, const uint8_t *d, size_t n, const char **what) {
    if (n >= 4 && memcmp(d, "HMAP", 4) == 0)
        return *what = "a Rockgrave .hmap (starts with HMAP)", F_HMAP;
    if (n >= 4 && memcmp(d, "SRSC", 4) == 0)
        return *what = "a Riot engine .lvl (starts with SRSC)", F_RIOT;
    if (n >= 4 && memcmp(d, "elvl", 4) == 0)
        return *what = "a Subspace .lvl (starts with elvl)", F_SUBSPACE;
    if (n >= 2 && memcmp(d, "BM", 2) == 0)
        return *what = "a Subspace .lvl (starts with a BM tileset)", F_SUBSPACE;
    if (n >= 4 && memcmp(d, "IBSP", 4) == 0)
        return *what = "a Quake 3 .bsp (starts with IBSP)", F_Q3;
    if (n >= 4 && memcmp(d, "PK\x03\x04", 4) == 0)
        return *what = "a zip (.pk3) for the Quake 3 importer (starts with PK)", F_Q3;
    if (n >= 4 && ends_with(path, ".lvl")) {
        uint32_t v =
            (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
        if ((v & 0xFFFu) <= 1023 && ((v >> 12) & 0xFFFu) <= 1023)
            return *what = "a Subspace .lvl of bare tile records", F_SUBSPACE;
    }
    /* A .lvl too short for one record: docs/IMPORT-SUBSPACE.md reads an empty file as a map of no
     * tiles and 1 to 3 bytes as a partial record, ignored. A Riot level needs its 12-byte SRSC
     * header, so only the start of one ("S", "SR", "SRS") goes to the Riot reader, whose
     * header-size refusal says the file is cut short. */
    if (n < 4 && ends_with(path, ".lvl")) {
        if (n > 0 && memcmp(d, "SRSC", n) == 0)
            return *what = "a Riot engine .lvl cut short (starts with SRSC's first bytes)", F_RIOT;
        return *what = "a Subspace .lvl of no tile record", F_SUBSPACE;
    }
    /* A damaged .hmap (bad magic, cut short) gets the reader's own refusal, which says what is
     * wrong with it, rather than "unknown format". */
    if (ends_with(path, ".hmap"))
        return *what = "a .hmap by its name", F_HMAP;
    if (ends_with(path, ".bsp"))
        return *what = "a .bsp by its name", F_Q3;
    *what = NULL;
    return F_NONE;
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

/* One importer: read the source bytes and fill the model; the source structs are freed before
 * returning (the model keeps copies). `in` is the input's path (a format may take a name from it).
 */
typedef blvl_status (*fill_fn)(const char *in, const uint8_t *data, size_t size,
                               const blvl_options *opt, blvl_bake *b, blvl_error *err);

static blvl_status fill_hmap(const char *in, const uint8_t *data, size_t size,
                             const blvl_options *opt, blvl_bake *b, blvl_error *err) {
    (void)in;
    blvl_hmap *map = NULL;
    blvl_status st = blvl_hmap_read(data, size, opt, &map, err);
    if (st == BLVL_OK)
        st = blvl_hmap_bake(map, b, err);
    blvl_hmap_free(map, opt);
    return st;
}

static blvl_status fill_riot(const char *in, const uint8_t *data, size_t size,
                             const blvl_options *opt, blvl_bake *b, blvl_error *err) {
    (void)in;
    blvl_riot_level *level = NULL;
    blvl_status st = blvl_riot_read(data, size, opt, &level, err);
    if (st == BLVL_OK)
        st = blvl_riot_bake(level, b, err);
    blvl_riot_free(level, opt);
    return st;
}

/* The Subspace level's name when its ATTR has none: the file's name without its directory and
 * a final ".lvl" (any case). */
static blvl_status fill_subspace(const char *in, const uint8_t *data, size_t size,
                                 const blvl_options *opt, blvl_bake *b, blvl_error *err) {
    const char *base = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
    size_t n = strlen(base);
    if (n > 4 && strcasecmp(base + n - 4, ".lvl") == 0)
        n -= 4;
    char *name = malloc(n + 1);
    if (!name) {
        err->code = BLVL_E_NOMEM;
        snprintf(err->message, sizeof err->message, "out of memory");
        return BLVL_E_NOMEM;
    }
    memcpy(name, base, n);
    name[n] = 0;
    blvl_subspace *map = NULL;
    blvl_status st = blvl_subspace_read(data, size, opt, &map, err);
    if (st == BLVL_OK)
        st = blvl_subspace_bake(map, name, b, err);
    blvl_subspace_free(map, opt);
    free(name);
    return st;
}

static int bake(fill_fn fill, const char *in, const uint8_t *data, size_t size, const char *out,
                const char *symbols, unsigned threads) {
    blvl_options opt = {0};
    cli_out_options(&opt);
    opt.threads = threads;
    if (cli_progress_enabled())
        opt.progress = progress;
    blvl_error err;
    blvl_bake *b = NULL;
    int rc = CLI_OK;
    if (blvl_bake_new(&b, &opt, &err) != BLVL_OK ||
        fill(in, data, size, &opt, b, &err) != BLVL_OK) {
        rc = cli_fail(in, &err);
        goto done;
    }
    blvl_bake_stats stats;
    blvl_status st = blvl_bake_write_file(b, out, symbols, &stats, &err);
    cli_progress_clear();
    if (st != BLVL_OK) {
        rc = cli_fail(out, &err);
        goto done;
    }
    cli_reports_off_stdout(out);
    printf("baked %s: %u colliders, %u planes, %u triangles, %u batches, %u materials, "
           "%u entities%s%s\n",
           out, stats.colliders, stats.planes, stats.triangles, stats.batches, stats.materials,
           stats.entities, symbols ? "; symbols " : "", symbols ? symbols : "");
done:
    blvl_bake_free(b);
    return rc;
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
                                          {0, 0, 0, 0}};
    static q3_args q3; /* static: 2 KiB of pointers */
    memset(&q3, 0, sizeof q3);
    const char *out = NULL, *symbols = NULL;
    format from = F_NONE;
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
            from = F_NONE;
            for (int k = F_HMAP; k <= F_Q3; k++)
                if (strcmp(optarg, format_names[k]) == 0)
                    from = (format)k;
            if (from == F_NONE)
                return cli_usage(&help, "--from wants hmap, subspace, riot or q3, not '%s'",
                                 optarg);
        } else if (c == 't' && cli_parse_u32(optarg, &threads) == 0 && threads <= 1024)
            continue;
        else if (c == 't')
            return cli_usage(&help, "--threads wants a number 0..1024, not '%s'", optarg);
        else if (c == 'P' && !*optarg)
            return cli_usage(&help, "--pk3 wants a file or folder, not ''");
        else if (c == 'P' && q3.pk3_count >= Q3_MAX_PK3)
            return cli_usage(&help, "--pk3 given more than %d times", Q3_MAX_PK3);
        else if (c == 'P')
            q3.pk3[q3.pk3_count++] = optarg;
        else if (c == 'M' && (q3.map || !*optarg))
            return cli_usage(&help, q3.map ? "--map given twice" : "--map wants a name, not ''");
        else if (c == 'M')
            q3.map = optarg;
        else if (c == 'T' && !q3.has_thickness && !q3_parse_thickness(optarg, &q3.patch_thickness))
            q3.has_thickness = 1;
        else if (c == 'T')
            return cli_usage(&help, "--patch-thickness wants one number 0 < QU <= 1024, not '%s'",
                             optarg);
        else if (c == 'D' && !q3.has_subdivisions &&
                 !q3_parse_subdivisions(optarg, &q3.patch_subdivisions))
            q3.has_subdivisions = 1;
        else if (c == 'D')
            return cli_usage(&help, "--patch-subdivisions wants one number 1..64, not '%s'",
                             optarg);
        else if (c == 'L')
            list = 1;
        else
            return cli_getopt_error(&help, argc, argv);
    }
    if (optind >= argc)
        return cli_usage(&help, "needs an INPUT");
    if (argc - optind > 1)
        return cli_usage(&help, "takes one INPUT, not %d", argc - optind);
    if (list && (out || symbols || q3.map || q3.has_thickness || q3.has_subdivisions ||
                 (from != F_NONE && from != F_Q3)))
        return cli_usage(&help, "--list prints the maps of the archives and bakes nothing: it "
                                "takes only INPUT and --pk3");
    if (list)
        return cli_bake_q3_list(argv[optind], &q3);
    if (!out)
        return cli_usage(&help, "needs -o OUT.blvl");
    if (symbols && strcmp(symbols, out) == 0)
        return cli_usage(&help, "--symbols and -o name the same file");
    const char *in = argv[optind];
    if (same_file(in, out) || (symbols && same_file(in, symbols)))
        return cli_usage(&help, "the output would replace the input %s", in);
    int q3_opts = q3.pk3_count || q3.map || q3.has_thickness || q3.has_subdivisions;
    if (q3_opts && from != F_NONE && from != F_Q3)
        return cli_usage(&help, "--pk3, --map and --patch-* are for Quake 3 maps, not --from %s",
                         format_names[from]);
    q3_out qout = {out, symbols, threads};
    /* A map inside the archives: no file of that name on disk. */
    struct stat st;
    if (q3.pk3_count && stat(in, &st) != 0)
        return cli_bake_q3(in, NULL, 0, &q3, &qout);
    uint8_t *data;
    size_t size;
    int rc = cli_read_input(in, &data, &size);
    if (rc != CLI_OK)
        return rc;
    const char *what;
    format f = detect(in, data, size, &what);
    if (from != F_NONE) {
        f = from;
        what = NULL;
    }
    if (from == F_NONE && cli_is_recipe(data, size)) {
        rc = cli_bake_recipe(in, data, size, &q3, &qout);
        free(data);
        return rc;
    }
    if (q3_opts && f != F_Q3) {
        free(data);
        return cli_usage(&help, "--pk3, --map and --patch-* are for Quake 3 maps; %s is none", in);
    }
    switch (f) {
    case F_HMAP:
        rc = bake(fill_hmap, in, data, size, out, symbols, threads);
        break;
    case F_RIOT:
        rc = bake(fill_riot, in, data, size, out, symbols, threads);
        break;
    case F_SUBSPACE:
        rc = bake(fill_subspace, in, data, size, out, symbols, threads);
        break;
    case F_Q3:
        rc = cli_bake_q3(in, data, size, &q3, &qout);
        break;
    case F_NONE: {
        char hex[3 * 4 + 1] = "";
        int at = 0;
        for (size_t i = 0; i < size && i < 4; i++)
            at += snprintf(hex + at, sizeof hex - (size_t)at, "%s%02x", i ? " " : "", data[i]);
        rc = cli_failf(in, BLVL_E_UNKNOWN_FORMAT,
                       "%s%s%s, which is no format blvl bakes (HMAP Rockgrave, SRSC Riot, "
                       "BM/elvl Subspace, IBSP or PK zip Quake 3; --from names one)",
                       size ? "starts with bytes " : "is empty", hex, size > 4 ? " ..." : "");
        break;
    }
    }
    free(data);
    return rc;
}
