/* blvl pack -o OUT [--id TAG]... [--version TAG=N]... TAG=PATH...: bake a level
 * from raw payload files, in the order given. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/sections.h"
#include "cli.h"

static const cli_help help = {
    "pack", "-o OUT [--id TAG]... [--version TAG=N]... TAG=PATH...",
    "Bakes the level OUT from raw payload files: section TAG holds the bytes "
    "of PATH (\"-\"\n"
    "reads stdin, once). Sections are laid out in the order given; chunks of 4 "
    "MiB are\n"
    "compressed with zstd level 19 in parallel (kept raw when that does not "
    "shrink them). The\n"
    "same inputs give the same bytes. OUT is written beside itself and renamed "
    "into place.\n"
    "With no TAG=PATH, OUT is an empty level. A core TAG whose PATH ends in .json is built\n"
    "from that JSON (the schema's field names, as `blvl dump` and `flatc --json` print them)\n"
    "into a FlatBuffer by blvl's own builder.\n\n"
    "  -o, --output OUT     the level to write\n"
    "  --id TAG             put game section TAG (with a dot) in identity; "
    "core tags (no dot)\n"
    "                       always are\n"
    "  --version TAG=N      payload version N of section TAG (default 0)\n"
    "  --threads N          compression workers (default: online CPUs)\n"};

typedef struct input {
    char tag[BLVL_TAG_MAX + 1];
    const char *path;
    uint8_t *data;
    size_t size;
    uint32_t version;
    uint32_t flags;
} input;

static void progress(void *user, uint64_t done, uint64_t total) {
    (void)user;
    cli_progress("pack", done, total);
}

static input *find(input *in, int n, const char *tag) {
    for (int i = 0; i < n; i++)
        if (strcmp(in[i].tag, tag) == 0)
            return &in[i];
    return NULL;
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A core section given as .json is built into its FlatBuffer with our builder. */
static int json_to_flatbuffer(input *s) {
    int core = 0;
    blvl_tag_valid(s->tag, &core);
    if (!core || !ends_with(s->path, ".json") || !blvl_section_type(s->tag, NULL))
        return CLI_OK;
    uint8_t *fb = NULL;
    size_t size = 0;
    blvl_error err;
    if (blvl_section_from_json(s->tag, (const char *)s->data, s->size, NULL, &fb, &size, &err) !=
        BLVL_OK)
        return cli_fail(s->path, &err);
    /* the builder's buffer comes from the default allocator (malloc), like cli_read_all's */
    free(s->data);
    s->data = fb;
    s->size = size;
    return CLI_OK;
}

int blvl_cmd_pack(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
                                          {"id", required_argument, NULL, 'i'},
                                          {"version", required_argument, NULL, 'v'},
                                          {"threads", required_argument, NULL, 't'},
                                          {0, 0, 0, 0}};
    const char *out = NULL;
    int nid = 0, nver = 0, c;
    char **ids = calloc((size_t)argc, sizeof *ids), **vers = calloc((size_t)argc, sizeof *vers);
    input *in = calloc((size_t)argc, sizeof *in);
    uint32_t threads = 0;
    int rc = CLI_OK, n = 0, stdin_used = 0;
    if (!ids || !vers || !in) {
        rc = cli_failf("pack", "out of memory");
        goto done;
    }
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
        if (c == 'o')
            out = optarg;
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
        input *s = &in[n];
        const char *path = cli_split_tag(argv[i], s->tag);
        if (!path || !*path) {
            rc = cli_usage(&help, "'%s' is not TAG=PATH with a tag of 1..16 bytes of [a-z0-9._-]",
                           argv[i]);
            goto done;
        }
        if (find(in, n, s->tag)) {
            rc = cli_usage(&help, "section '%s' given twice", s->tag);
            goto done;
        }
        if (strcmp(path, "-") == 0 && stdin_used++) {
            rc = cli_usage(&help, "stdin (\"-\") can feed only one section");
            goto done;
        }
        s->path = path;
        int core = 0;
        blvl_tag_valid(s->tag, &core);
        s->flags = core ? BLVL_ENTRY_FLAG_IDENTITY : 0;
        n++;
    }
    for (int i = 0; i < nid; i++) {
        input *s = find(in, n, ids[i]);
        if (!s) {
            rc = cli_usage(&help, "--id %s: no section with that tag is packed", ids[i]);
            goto done;
        }
        s->flags |= BLVL_ENTRY_FLAG_IDENTITY;
    }
    for (int i = 0; i < nver; i++) {
        char tag[BLVL_TAG_MAX + 1];
        const char *num = cli_split_tag(vers[i], tag);
        input *s = num ? find(in, n, tag) : NULL;
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
    for (int i = 0; i < n; i++) {
        if (cli_read_all(in[i].path, &in[i].data, &in[i].size) != 0) {
            rc = cli_failf(in[i].path, "cannot read: %s", strerror(errno));
            goto done;
        }
        if ((rc = json_to_flatbuffer(&in[i])) != CLI_OK)
            goto done;
    }
    blvl_section_in *secs = calloc((size_t)(n ? n : 1), sizeof *secs);
    if (!secs) {
        rc = cli_failf("pack", "out of memory");
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
