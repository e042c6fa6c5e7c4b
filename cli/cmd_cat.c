/* blvl cat FILE TAG: a section's inflated bytes on stdout. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static const cli_help help = {"cat", "FILE TAG",
                              "Writes the inflated bytes of section TAG of FILE to stdout, after "
                              "checking the section's\n"
                              "digest and chunk index. Exits 1 when FILE has no section TAG.\n"};

static int to_stdout(void *user, uint64_t offset, const void *data, size_t len) {
    (void)offset; /* the chunks come in order */
    if (cli_write_stdout(data, len) == 0)
        return 0;
    *(bool *)user = true;
    return 1;
}

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
    /* Chunk by chunk (blvl_read_sink): every check is made before the first byte is written,
     * and memory stays at a few chunks however large the section is. */
    bool out_failed = false;
    blvl_sink sink = {to_stdout, &out_failed};
    blvl_error err;
    if (blvl_read_sink(lv, argv[optind + 1], &sink, &err) != BLVL_OK)
        rc = out_failed ? cli_failf("stdout", BLVL_E_IO, "could not write the section")
                        : cli_fail(argv[optind], &err);
    blvl_close(lv);
    return rc;
}
