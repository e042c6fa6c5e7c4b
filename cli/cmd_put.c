/* blvl put [--version N] FILE TAG PAYLOAD: in-place add or replace of a section
 * outside identity. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_help help = {
    "put", "[--version N] FILE TAG PAYLOAD",
    "Adds section TAG to FILE, or replaces it, in place, from the raw bytes of "
    "the file\n"
    "PAYLOAD (\"-\" reads stdin). The payload is appended and the edit commits "
    "with one write\n"
    "of 24 header bytes, so a crash leaves the previous level intact. Only "
    "sections outside\n"
    "identity can be edited (a game tag with a dot); the level keeps its "
    "identity.\n\n"
    "  --version N   the section's payload version (default 0)\n"};

int blvl_cmd_put(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"version", required_argument, NULL, 'v'}, {0, 0, 0, 0}};
    uint32_t version = 0;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c == 'v' && cli_parse_u32(optarg, &version) == 0)
            continue;
        if (c == 'v')
            return cli_usage(&help, "--version wants a number 0..4294967295, not '%s'", optarg);
        return cli_getopt_error(&help, argc, argv);
    }
    if (argc - optind != 3)
        return cli_usage(&help, "expects FILE, TAG and PAYLOAD");
    const char *path = argv[optind], *tag = argv[optind + 1], *payload = argv[optind + 2];
    if (cli_check_tag(&help, tag) != CLI_OK)
        return CLI_USAGE;
    uint8_t *data;
    size_t size;
    if (cli_read_input(payload, &data, &size) != CLI_OK)
        return CLI_FAILED;
    blvl_error err;
    blvl_status st = blvl_edit_put(path, tag, version, data, size, NULL, &err);
    free(data);
    return st == BLVL_OK ? CLI_OK : cli_fail(path, &err);
}
