/* blvl rewrite IN OUT [--put TAG=PATH]... [--version TAG=N]... [--drop TAG]...: a compacting
 * copy, optionally with edits of sections outside identity. Core sections this program does
 * not know (an unknown core tag, or a known one at an unknown payload version) are dropped,
 * as the format says a writer that predates them must; a level whose meta or sim it cannot
 * read is refused. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/sections.h"
#include "cli.h"

static const cli_help help = {
    "rewrite", "IN OUT [--put TAG=PATH]... [--version TAG=N]... [--drop TAG]...",
    "Writes a compacted copy of level IN to OUT (OUT may be IN): every kept section's packed\n"
    "bytes copied verbatim behind a fresh reserved region, without unreferenced bytes. Game\n"
    "sections (tags with a dot) are carried through untouched, flags and version included,\n"
    "so the identity is kept. Core sections this program does not know (a core tag it has no\n"
    "schema for, or a payload version it does not read) are dropped and named on stderr:\n"
    "that renames the level, as the format requires of a writer that predates them.\n"
    "Edits outside identity, for when an in-place `put` has no room:\n\n"
    "  --put TAG=PATH     add or replace game section TAG (outside identity) with PATH's bytes\n"
    "  --version TAG=N    payload version of a --put section (default 0)\n"
    "  --drop TAG         leave out section TAG (it must be there, outside identity)\n"
    "  --threads N        compression workers (default: online CPUs)\n"};

typedef struct keep_ctx {
    char **drop; /* --drop tags: checked by the library (present, outside identity) */
    int ndrop;
    const char *in;
} keep_ctx;

/* Drops the core sections this program does not know; --drop goes to the library. */
static bool keep_section(void *user, const blvl_entry *e) {
    keep_ctx *k = user;
    bool core = false, required = false;
    blvl_tag_valid(e->tag, &core);
    if (!core)
        return 1;
    if (!blvl_section_type(e->tag, &required)) {
        fprintf(stderr,
                "blvl rewrite: %s: dropped core section '%s': this program has no schema "
                "for it (the identity changes)\n",
                k->in, e->tag);
        return 0;
    }
    if (e->version != BLVL_SECTION_VERSION && !required) {
        fprintf(stderr,
                "blvl rewrite: %s: dropped core section '%s' at payload version %u, which "
                "this program does not read (the identity changes)\n",
                k->in, e->tag, e->version);
        return 0;
    }
    return 1;
}

int blvl_cmd_rewrite(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"put", required_argument, NULL, 'p'},
                                          {"version", required_argument, NULL, 'v'},
                                          {"drop", required_argument, NULL, 'd'},
                                          {"threads", required_argument, NULL, 't'},
                                          {0, 0, 0, 0}};
    char **puts_ = calloc((size_t)argc, sizeof *puts_), **vers = calloc((size_t)argc, sizeof *vers);
    char(*tags)[BLVL_TAG_MAX + 1] = calloc((size_t)argc, sizeof *tags);
    blvl_section_in *put = calloc((size_t)argc, sizeof *put);
    uint8_t **data = calloc((size_t)argc, sizeof *data);
    keep_ctx k = {calloc((size_t)argc, sizeof(char *)), 0, NULL};
    int nput = 0, nver = 0, c, rc = CLI_OK;
    uint32_t threads = 0;
    if (!puts_ || !vers || !tags || !put || !data || !k.drop) {
        rc = cli_failf("rewrite", BLVL_E_NOMEM, "the arguments");
        goto done;
    }
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c == 'p')
            puts_[nput++] = optarg;
        else if (c == 'v')
            vers[nver++] = optarg;
        else if (c == 'd') {
            if (!blvl_tag_valid(optarg, NULL)) {
                rc = cli_usage(&help, "--drop: '%s' is not a tag", optarg);
                goto done;
            }
            k.drop[k.ndrop++] = optarg;
        } else if (c == 't') {
            if (cli_parse_u32(optarg, &threads) != 0 || threads > 1024) {
                rc = cli_usage(&help, "--threads wants a number 0..1024, not '%s'", optarg);
                goto done;
            }
        } else {
            rc = cli_getopt_error(&help, argc, argv);
            goto done;
        }
    }
    if (argc - optind != 2) {
        rc = cli_usage(&help, "expects IN and OUT");
        goto done;
    }
    const char *in = argv[optind], *out = argv[optind + 1];
    k.in = in;
    for (int i = 0; i < nput; i++) {
        const char *path = cli_split_tag(puts_[i], tags[i]);
        if (!path || !*path) {
            rc = cli_usage(&help, "--put '%s' is not TAG=PATH", puts_[i]);
            goto done;
        }
        put[i].tag = tags[i];
    }
    for (int i = 0; i < nver; i++) {
        char tag[BLVL_TAG_MAX + 1];
        const char *num = cli_split_tag(vers[i], tag);
        int j = 0;
        while (num && j < nput && strcmp(tags[j], tag) != 0)
            j++;
        if (!num || j == nput || cli_parse_u32(num, &put[j].version) != 0) {
            rc = cli_usage(&help, "--version wants TAG=N for a --put TAG, not '%s'", vers[i]);
            goto done;
        }
    }
    for (int i = 0; i < nput; i++) {
        const char *path = strchr(puts_[i], '=') + 1;
        size_t size;
        if ((rc = cli_read_input(path, &data[i], &size)) != CLI_OK)
            goto done;
        put[i].data = data[i];
        put[i].size = size;
    }
    /* meta or sim at a version this program cannot read: not a level it may vouch for */
    blvl_level *lv;
    if ((rc = cli_open(in, &lv)) != CLI_OK)
        goto done;
    for (uint32_t i = 0; i < blvl_count(lv); i++) {
        const blvl_entry *e = blvl_entry_at(lv, i);
        bool required = false;
        if (blvl_section_type(e->tag, &required) && required && e->version != BLVL_SECTION_VERSION)
            rc = cli_failf(in, BLVL_E_SECTION_VERSION,
                           "required core section '%s' is at payload "
                           "version %u, which this program does not read",
                           e->tag, e->version);
    }
    blvl_close(lv);
    if (rc != CLI_OK)
        goto done;
    blvl_options opt = {0};
    cli_out_options(&opt);
    opt.threads = threads;
    blvl_error err;
    blvl_status st =
        blvl_rewrite_edit_file(in, out, keep_section, &k, put, (size_t)nput,
                               (const char *const *)k.drop, (size_t)k.ndrop, &opt, &err);
    if (st != BLVL_OK)
        rc = cli_fail(st == BLVL_E_IO ? out : in, &err);
done:
    for (int i = 0; data && i < nput; i++)
        free(data[i]);
    free(data);
    free(put);
    free(tags);
    free(puts_);
    free(vers);
    free(k.drop);
    return rc;
}
