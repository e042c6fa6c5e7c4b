/* blvl info [--json] FILE: the header facts, identity, table digest and every
 * entry. */
#include <getopt.h>

#include "cli.h"

static const cli_help help = {
    "info", "[--json] FILE",
    "Opens FILE (header, table, table digest, identity and the "
    "unreferenced-bytes limit are\n"
    "checked; section payloads are not: see blvl verify) and prints its header "
    "facts and\n"
    "entries.\n\n"
    "  --json   one JSON object: file, file_size, container_version, floor, "
    "table_offset,\n"
    "           count, capacity, covered, unreferenced, identity, table_digest "
    "and entries\n"
    "           (tag, offset, packed_size, raw_size, version, flags, "
    "in_identity, digest)\n"};

int blvl_cmd_info(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"json", no_argument, NULL, 'j'}, {0, 0, 0, 0}};
    int json = 0, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c == 'j')
            json = 1;
        else
            return cli_getopt_error(&help, argc, argv);
    }
    if (argc - optind != 1)
        return cli_usage(&help, "expects one FILE");
    const char *path = argv[optind];
    blvl_level *lv;
    int rc = cli_open(path, &lv);
    if (rc != CLI_OK)
        return rc;
    cli_print_level(path, lv, json ? CLI_VIEW_INFO_JSON : CLI_VIEW_INFO);
    blvl_close(lv);
    return CLI_OK;
}
