/* blvl verify [--container] [--threads N] FILE...: every container rule, every section
 * (digest, chunk index, inflation of every chunk), then the level rules of the core sections
 * (meta and sim present at a known version, every core section through the FlatBuffers
 * verifier). One line per file on success; the first failure of each file on stderr. */
#include <getopt.h>
#include <stdio.h>

#include "blvl/sections.h"
#include "cli.h"

static const cli_help help = {
    "verify", "[--container] [--threads N] FILE...",
    "Checks each FILE: the header and table rules, the table digest, the identity, the\n"
    "unreferenced-bytes limit, then every section's digest and chunk index, inflating every\n"
    "chunk within the inflation budget; then the level rules: meta and sim present at a\n"
    "payload version this program knows, and every core section passing the FlatBuffers\n"
    "verifier of its schema. Prints \"FILE: ok (N sections)\" for a good file and one line\n"
    "\"blvl: FILE: <rule>: <message>\" on stderr for a refused one; exits 1 when any file is\n"
    "refused. A FILE may be an http:// or https:// URL (docs/HTTP.md).\n\n"
    "  --container   the container's checks only (any payloads, no required sections)\n"
    "  --threads N   inflation workers (default: online CPUs)\n"};

static void progress(void *user, uint64_t done, uint64_t total) {
    cli_progress(user, done, total);
}

static int verify_one(const char *path, int container_only, unsigned threads) {
    blvl_level *lv;
    blvl_options opt = {0};
    opt.threads = threads;
    if (cli_progress_enabled()) {
        opt.progress = progress;
        opt.progress_user = (void *)"verify";
    }
    blvl_error err;
    if (cli_open_with(path, &opt, &lv) != CLI_OK)
        return CLI_FAILED;
    blvl_info in;
    blvl_get_info(lv, &in);
    blvl_status st = blvl_verify(lv, &err);
    cli_progress_clear();
    if (st == BLVL_OK && !container_only)
        st = blvl_sections_verify(lv, &err);
    blvl_close(lv);
    if (st != BLVL_OK)
        return cli_fail(path, &err);
    printf("%s: ok (%u sections)\n", path, in.count);
    return CLI_OK;
}

int blvl_cmd_verify(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"container", no_argument, NULL, 'c'},
                                          {"threads", required_argument, NULL, 't'},
                                          {0, 0, 0, 0}};
    int container_only = 0, c;
    uint32_t threads = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c == 'c')
            container_only = 1;
        else if (c == 't') {
            if (cli_parse_u32(optarg, &threads) != 0 || threads > 1024)
                return cli_usage(&help, "--threads wants a number 0..1024, not '%s'", optarg);
        } else
            return cli_getopt_error(&help, argc, argv);
    }
    if (optind >= argc)
        return cli_usage(&help, "expects at least one FILE");
    int rc = CLI_OK;
    for (int i = optind; i < argc; i++)
        if (verify_one(argv[i], container_only, threads) != CLI_OK)
            rc = CLI_FAILED;
    return rc;
}
