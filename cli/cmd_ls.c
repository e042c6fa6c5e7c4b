/* blvl ls FILE: one line per section, in table order. */
#include <getopt.h>

#include "cli.h"

static const cli_help help = {
    "ls", "FILE",
    "Lists the sections of FILE in table order, one per line:\n"
    "  TAG VERSION FLAGS RAW_SIZE PACKED_SIZE OFFSET DIGEST\n"
    "FLAGS is \"id\" for a section in identity, \"-\" otherwise. Columns are "
    "separated by\n"
    "spaces; sizes and offsets are decimal bytes; DIGEST is 32 hex digits.\n"};

int blvl_cmd_ls(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    blvl_level *lv;
    int rc = cli_one_file_args(&help, argc, argv);
    if (rc == CLI_OK)
        rc = cli_open(argv[optind], &lv);
    if (rc != CLI_OK)
        return rc;
    cli_print_level(argv[optind], lv, CLI_VIEW_LS);
    blvl_close(lv);
    return CLI_OK;
}
