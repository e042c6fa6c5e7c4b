/* blvl export: a level as glTF 2.0 (docs/EXPORT.md), thin over blvl/export.h. */
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#include "blvl/export.h"
#include "blvl/symbols.h"
#include "cli.h"

static const cli_help help = {
    "export", "LEVEL (-o OUT.glb | --gltf DIR)... [--collision] [--acoustics] [--symbols F.bsym]",
    "Writes LEVEL as glTF 2.0 in glTF's axes (+Y up, metres; 1 unit = 0.0254 m): one mesh per\n"
    "group of batches that move or vanish together, its materials as pbrMetallicRoughness with\n"
    "their textures embedded, the lightmap (named from each primitive's extras), the cameras,\n"
    "punctual lights (KHR_lights_punctual), spawns, teleport destinations, triggers, sites and\n"
    "hurt volumes as named nodes with extras. docs/EXPORT.md describes the file.\n"
    "  -o OUT.glb        one binary .glb (written to a temporary name, then renamed)\n"
    "  --gltf DIR        DIR/NAME.gltf and DIR/NAME.bin instead or as well (NAME: OUT's name\n"
    "                    without .glb, else LEVEL's without .blvl)\n"
    "  --collision       add the colliders, a mesh each, as a second scene \"collision\"\n"
    "  --acoustics       add the acoustic probes (points, coloured by room) and their edges\n"
    "                    (lines) as a scene \"acoustics\", when the level has the section\n"
    "  --symbols F.bsym  the level's symbols: each batch's and collider's source in extras\n"
    "Exit status: 0 written, 1 the level is refused (nothing is written), 2 usage error.\n"};

/* NAME for --gltf: the base name of `path` without `ext`. */
static void base_name(const char *path, const char *ext, char *out, size_t cap) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, cap, "%s", b);
    size_t n = strlen(out), e = strlen(ext);
    if (n > e && strcmp(out + n - e, ext) == 0)
        out[n - e] = 0;
    if (!out[0])
        snprintf(out, cap, "level");
}

int blvl_cmd_export(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'}, {"gltf", required_argument, NULL, 'g'},
        {"collision", no_argument, NULL, 'c'},    {"symbols", required_argument, NULL, 's'},
        {"acoustics", no_argument, NULL, 'a'},    {NULL, 0, NULL, 0}};
    const char *out = NULL, *dir = NULL, *sym = NULL;
    blvl_export_options xo = {0};
    cli_out_options(&xo.base);
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
        if (c == 'o')
            out = optarg;
        else if (c == 'g')
            dir = optarg;
        else if (c == 'c')
            xo.collision = true;
        else if (c == 's')
            sym = optarg;
        else if (c == 'a')
            xo.acoustics = true;
        else
            return cli_getopt_error(&help, argc, argv);
    }
    if (argc - optind != 1)
        return cli_usage(&help, "expects one LEVEL");
    if (!out && !dir)
        return cli_usage(&help, "expects -o OUT.glb or --gltf DIR");
    const char *in = argv[optind];
    blvl_level *lv;
    blvl_symbols *syms;
    int rc = cli_open_symbols(in, sym, &lv, &syms);
    if (rc != CLI_OK)
        return rc;
    blvl_error err;
    xo.symbols = syms;
    if (out && blvl_export_glb_file(lv, out, &xo, &err) != BLVL_OK)
        rc = cli_fail(in, &err);
    if (rc == CLI_OK && dir) {
        char name[256];
        if (out)
            base_name(out, ".glb", name, sizeof name);
        else
            base_name(in, ".blvl", name, sizeof name);
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            rc = cli_failf(dir, BLVL_E_IO, "cannot create the folder: %s", strerror(errno));
        else if (blvl_export_gltf_files(lv, dir, name, &xo, &err) != BLVL_OK)
            rc = cli_fail(in, &err);
    }
    blvl_symbols_free(syms);
    blvl_close(lv);
    return rc;
}
