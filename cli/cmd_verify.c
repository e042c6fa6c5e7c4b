/* blvl verify FILE...: every container rule, then every section (digest, chunk
 * index, inflation of every chunk). One line per file on success; the first
 * failure of each file on stderr. */
#include <stdio.h>

#include "cli.h"

static const cli_help help = {"verify", "FILE...",
                              "Checks each FILE: the header and table rules, "
                              "the table digest, the identity, the\n"
                              "unreferenced-bytes limit, then every section's "
                              "digest and chunk index, inflating every\n"
                              "chunk within the inflation budget. Prints "
                              "\"FILE: ok (N sections)\" for a good file and\n"
                              "one line \"blvl: FILE: <rule>: <message>\" on "
                              "stderr for a refused one; exits 1 when any\n"
                              "file is refused. (The container's checks only: "
                              "FlatBuffers checks of core sections belong\n"
                              "to the section layer.)\n"};

static int verify_one(const char *path) {
    blvl_level *lv;
    int rc = cli_open(path, &lv);
    if (rc != CLI_OK)
        return rc;
    blvl_info in;
    blvl_get_info(lv, &in);
    if (cli_progress_enabled()) {
        /* blvl_verify is one call: show what is being checked while it runs */
        fprintf(stderr, "\rblvl verify: %s: %u sections, %.1f MiB packed...\033[K", path, in.count,
                (double)(in.covered - in.floor) / (1024.0 * 1024.0));
        fflush(stderr);
    }
    blvl_error err;
    blvl_status st = blvl_verify(lv, &err);
    if (cli_progress_enabled())
        fprintf(stderr, "\r\033[K");
    blvl_close(lv);
    if (st != BLVL_OK)
        return cli_fail(path, &err);
    printf("%s: ok (%u sections)\n", path, in.count);
    return CLI_OK;
}

int blvl_cmd_verify(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    int first = 1;
    if (first < argc && argv[first][0] == '-' && argv[first][1] == '-' && !argv[first][2])
        first++;
    else if (first < argc && argv[first][0] == '-' && argv[first][1])
        return cli_usage(&help, "unknown option '%s'", argv[first]);
    if (first >= argc)
        return cli_usage(&help, "expects at least one FILE");
    int rc = CLI_OK;
    for (int i = first; i < argc; i++)
        if (verify_one(argv[i]) != CLI_OK)
            rc = CLI_FAILED;
    return rc;
}
