/* blvl identity FILE: the level's name, 32 lowercase hex digits. */
#include "cli.h"

static const cli_help help = {
    "identity", "FILE",
    "Prints the identity of FILE (BLAKE3-128 over its identity records) as 32 "
    "lowercase hex\n"
    "digits and a newline, after checking the header, the table and that the "
    "stored identity\n"
    "matches the records. Section payloads are not read.\n"};

int blvl_cmd_identity(int argc, char **argv) {
    return cli_show_level(&help, argc, argv, CLI_VIEW_IDENTITY);
}
