/* blvl drop FILE TAG: in-place removal of a section outside identity. */
#include <stdio.h>

#include "cli.h"

static const cli_help help = {"drop", "FILE TAG",
                              "Drops section TAG from FILE in place (one write "
                              "of 24 header bytes commits it). Only a\n"
                              "section outside identity can be dropped; the "
                              "level keeps its identity. The payload bytes\n"
                              "stay behind as unreferenced bytes until blvl "
                              "rewrite compacts the file.\n"};

int blvl_cmd_drop(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    if (argc != 3)
        return cli_usage(&help, "expects FILE and TAG");
    if (!blvl_tag_valid(argv[2], NULL))
        return cli_usage(&help, "'%s' is not a tag (1..16 bytes of [a-z0-9._-])", argv[2]);
    blvl_error err;
    if (blvl_edit_drop(argv[1], argv[2], NULL, &err) != BLVL_OK)
        return cli_fail(argv[1], &err);
    return CLI_OK;
}
