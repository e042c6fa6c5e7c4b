/* blvl identity FILE: the level's name, 32 lowercase hex digits. */
#include <getopt.h>

#include "cli.h"

static const cli_help help = {
    "identity", "FILE",
    "Prints the identity of FILE (BLAKE3-128 over its identity records) as 32 "
    "lowercase hex\n"
    "digits and a newline, after checking the header, the table and that the "
    "stored identity\n"
    "matches the records. Section payloads are not read.\n"};

int blvl_cmd_identity(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    blvl_level *lv;
    int rc = cli_one_file_args(&help, argc, argv);
    if (rc == CLI_OK)
        rc = cli_open(argv[optind], &lv);
    if (rc != CLI_OK)
        return rc;
    cli_print_level(argv[optind], lv, CLI_VIEW_IDENTITY);
    blvl_close(lv);
    return CLI_OK;
}
