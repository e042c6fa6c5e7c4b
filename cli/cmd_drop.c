/* blvl drop FILE TAG: in-place removal of a section outside identity. */
#include <getopt.h>
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
    int usage = cli_file_tag_args(&help, argc, argv);
    if (usage != CLI_OK)
        return usage;
    blvl_error err;
    if (blvl_edit_drop(argv[optind], argv[optind + 1], NULL, &err) != BLVL_OK)
        return cli_fail(argv[optind], &err);
    return CLI_OK;
}
