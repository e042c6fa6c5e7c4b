/* blvl pack -o OUT [--id TAG]... [--version TAG=N]... TAG=PATH...: bake a level
 * from raw payload files, in the order given. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/sections.h"
#include "cli.h"
#include "pack_input.h"

static const cli_help help = {
    "pack", "-o OUT [--container] [--id TAG]... [--version TAG=N]... TAG=[json:|bin:]PATH...",
    "Bakes the level OUT from payload files: section TAG holds the bytes of PATH (\"-\" reads\n"
    "stdin, once). Sections are laid out in the order given; chunks of 4 MiB are compressed\n"
    "with zstd level 19 in parallel (kept raw when that does not shrink them). The same inputs\n"
    "give the same bytes. OUT is written beside itself and renamed into place.\n"
    "A core section (meta, sim, geometry, ...) is given as its FlatBuffer or as JSON (the\n"
    "schema's field names, as `blvl dump` and `flatc --json` print them), built into a\n"
    "FlatBuffer by blvl's own builder. JSON is recognised by its content (its first byte other\n"
    "than whitespace is '{' and it is not a valid FlatBuffer), whatever PATH's name; json:PATH\n"
    "or bin:PATH says which it is. Before anything is written, the level rules `blvl verify`\n"
    "checks are run on what would be written (meta and sim present at a payload version this\n"
    "program knows, every core section passing the FlatBuffers verifier of its schema); a\n"
    "refusal gives verify's message and writes nothing. An input over 2 GiB is refused\n"
    "(raw-size).\n\n"
    "  -o, --output OUT     the level to write (once)\n"
    "  --container          write any payloads (no level rules), as `verify --container`\n"
    "                       checks; with no TAG=PATH, an empty container\n"
    "  --id TAG             put game section TAG (with a dot) in identity; core tags (no dot)\n"
    "                       always are\n"
    "  --version TAG=N      payload version N of section TAG (default 0)\n"
    "  --threads N          compression workers (default: online CPUs)\n"};

static void progress(void *user, uint64_t done, uint64_t total) {
    (void)user;
    cli_progress("pack", done, total);
}

static pack_input *find(pack_input *in, int n, const char *tag) {
    for (int i = 0; i < n; i++)
        if (strcmp(in[i].tag, tag) == 0)
            return &in[i];
    return NULL;
}

int blvl_cmd_pack(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'},  {"id", required_argument, NULL, 'i'},
        {"version", required_argument, NULL, 'v'}, {"threads", required_argument, NULL, 't'},
        {"container", no_argument, NULL, 'c'},     {0, 0, 0, 0}};
    const char *out = NULL;
    int container_only = 0;
    int nid = 0, nver = 0, c;
    char **ids = calloc((size_t)argc, sizeof *ids), **vers = calloc((size_t)argc, sizeof *vers);
    pack_input *in = calloc((size_t)argc, sizeof *in);
    uint32_t threads = 0;
    int rc = CLI_OK, n = 0, stdin_used = 0;
    if (!ids || !vers || !in) {
        rc = cli_failf("pack", BLVL_E_NOMEM, "no memory for the arguments");
        goto done;
    }
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
        if (c == 'o' && (out || !*optarg)) {
            rc = cli_usage(&help, out ? "-o given twice" : "-o wants a file name, not ''");
            goto done;
        } else if (c == 'o')
            out = optarg;
        else if (c == 'c')
            container_only = 1;
        else if (c == 'i')
            ids[nid++] = optarg;
        else if (c == 'v')
            vers[nver++] = optarg;
        else if (c == 't' && cli_parse_u32(optarg, &threads) == 0 && threads <= 1024)
            continue;
        else if (c == 't') {
            rc = cli_usage(&help, "--threads wants a number 0..1024, not '%s'", optarg);
            goto done;
        } else {
            rc = cli_getopt_error(&help, argc, argv);
            goto done;
        }
    }
    if (!out) {
        rc = cli_usage(&help, "needs -o OUT");
        goto done;
    }
    for (int i = optind; i < argc; i++) {
        pack_input *s = &in[n];
        if ((rc = pack_input_parse(&help, argv[i], s)) != CLI_OK)
            goto done;
        if (find(in, n, s->tag)) {
            rc = cli_usage(&help, "section '%s' given twice", s->tag);
            goto done;
        }
        if (strcmp(s->path, "-") == 0 && stdin_used++) {
            rc = cli_usage(&help, "stdin (\"-\") can feed only one section");
            goto done;
        }
        n++;
    }
    for (int i = 0; i < nid; i++) {
        pack_input *s = find(in, n, ids[i]);
        if (!s) {
            rc = cli_usage(&help, "--id %s: no section with that tag is packed", ids[i]);
            goto done;
        }
        s->flags |= BLVL_ENTRY_FLAG_IDENTITY;
    }
    for (int i = 0; i < nver; i++) {
        char tag[BLVL_TAG_MAX + 1];
        const char *num = cli_split_tag(vers[i], tag);
        pack_input *s = num ? find(in, n, tag) : NULL;
        if (!num || cli_parse_u32(num, &(uint32_t){0}) != 0) {
            rc = cli_usage(&help, "--version wants TAG=N, not '%s'", vers[i]);
            goto done;
        }
        if (!s) {
            rc = cli_usage(&help, "--version %s: no section with that tag is packed", vers[i]);
            goto done;
        }
        cli_parse_u32(num, &s->version);
    }
    for (int i = 0; i < n; i++)
        if ((rc = pack_input_check_form(&help, &in[i])) != CLI_OK)
            goto done;
    for (int i = 0; i < n; i++)
        if ((rc = pack_input_load(&in[i])) != CLI_OK)
            goto done;
    if (!container_only && (rc = pack_check_level(out, in, n)) != CLI_OK)
        goto done;
    blvl_section_in *secs = calloc((size_t)(n ? n : 1), sizeof *secs);
    if (!secs) {
        rc = cli_failf("pack", BLVL_E_NOMEM, "no memory for the arguments");
        goto done;
    }
    for (int i = 0; i < n; i++)
        secs[i] = (blvl_section_in){in[i].tag, in[i].version, in[i].flags, in[i].data, in[i].size};
    blvl_write_options wo = {0};
    wo.threads = threads;
    if (cli_progress_enabled()) {
        wo.progress = progress;
    }
    blvl_error err;
    blvl_status st = blvl_write_file(out, secs, (size_t)n, &wo, &err);
    cli_progress_clear();
    free(secs);
    if (st != BLVL_OK)
        rc = cli_fail(out, &err);
done:
    for (int i = 0; in && i < n; i++)
        free(in[i].data);
    free(in);
    free(ids);
    free(vers);
    return rc;
}
