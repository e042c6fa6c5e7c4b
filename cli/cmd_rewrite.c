/* blvl rewrite IN OUT: a compacting copy. */
#include <stdio.h>

#include "cli.h"

static const cli_help help = {"rewrite", "IN OUT",
                              "Writes a compacted copy of level IN to OUT: "
                              "every section's packed bytes copied verbatim\n"
                              "in file order behind a fresh reserved region, "
                              "without unreferenced bytes. The identity\n"
                              "is kept.\n"};

int blvl_cmd_rewrite(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    if (argc != 3)
        return cli_usage(&help, "expects IN and OUT");
    blvl_error err;
    if (blvl_rewrite_file(argv[1], argv[2], NULL, NULL, NULL, &err) != BLVL_OK)
        return cli_fail(err.code == BLVL_E_IO ? argv[2] : argv[1], &err);
    return CLI_OK;
}
