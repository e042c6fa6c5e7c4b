/* blvl ls FILE: one line per section, in table order. */
#include "cli.h"

static const cli_help help = {
    "ls", "FILE",
    "Lists the sections of FILE in table order, one per line:\n"
    "  TAG VERSION FLAGS RAW_SIZE PACKED_SIZE OFFSET DIGEST\n"
    "FLAGS is \"id\" for a section in identity, \"-\" otherwise. Columns are "
    "separated by\n"
    "spaces; sizes and offsets are decimal bytes; DIGEST is 32 hex digits.\n"};

int blvl_cmd_ls(int argc, char **argv) {
    return cli_show_level(&help, argc, argv, CLI_VIEW_LS);
}
