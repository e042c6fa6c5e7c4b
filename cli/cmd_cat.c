/* blvl cat FILE TAG: a section's inflated bytes on stdout. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static const cli_help help = {"cat", "FILE TAG",
                              "Writes the inflated bytes of section TAG of FILE to stdout, after "
                              "checking the section's\n"
                              "digest and chunk index. Exits 1 when FILE has no section TAG.\n"};

int blvl_cmd_cat(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    int usage = cli_file_tag_args(&help, argc, argv);
    if (usage != CLI_OK)
        return usage;
    blvl_level *lv;
    int rc = cli_open(argv[optind], &lv);
    if (rc != CLI_OK)
        return rc;
    blvl_bytes sec;
    blvl_error err;
    if (blvl_read(lv, argv[optind + 1], &sec, &err) != BLVL_OK) {
        rc = cli_fail(argv[optind], &err);
    } else {
        if (cli_write_stdout(sec.data, sec.size) != 0)
            rc = cli_failf("stdout", BLVL_E_IO, "could not write the section");
        blvl_bytes_free(&sec);
    }
    blvl_close(lv);
    return rc;
}
