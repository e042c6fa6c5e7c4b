/* blvl dump FILE TAG: a core section (or bsym) as JSON with the schema's field names, the
 * same JSON `flatc --json --strict-json` prints for it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/sections.h"
#include "cli.h"

static const cli_help help = {
    "dump", "[--indent N] FILE TAG",
    "Prints core section TAG of level FILE as JSON, with the field names of schema/TAG.fbs\n"
    "(the JSON `flatc --json --strict-json` gives for the same bytes; fields at their default\n"
    "are left out, as flatc does). The section is read, digest-checked, inflated and run\n"
    "through the FlatBuffers verifier first; a section of a payload version this program does\n"
    "not know is refused. With TAG `bsym`, FILE is a .bsym symbols file (a file of its own,\n"
    "never a section of a level).\n\n"
    "  --indent N   spaces per level of nesting (default 2; 0 prints one line)\n"};

static int print_json(const char *file, const char *tag, const void *bytes, size_t size,
                      unsigned indent) {
    char *json = NULL;
    size_t len = 0;
    blvl_error err;
    if (blvl_section_to_json(&json, &len, tag, bytes, size, indent, NULL, &err) != BLVL_OK)
        return cli_fail(file, &err);
    int rc = CLI_OK;
    int newline = len == 0 || json[len - 1] != '\n';
    if (cli_write_stdout(json, len) != 0 || (newline && cli_write_stdout("\n", 1) != 0))
        rc = cli_failf("stdout", BLVL_E_IO, "could not write the JSON");
    blvl_free(NULL, json);
    return rc;
}

int blvl_cmd_dump(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"indent", required_argument, NULL, 'i'}, {0, 0, 0, 0}};
    unsigned indent = 2;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        uint32_t n;
        if (c != 'i')
            return cli_getopt_error(&help, argc, argv);
        if (cli_parse_u32(optarg, &n) != 0 || n > 16)
            return cli_usage(&help, "--indent wants a number 0..16, not '%s'", optarg);
        indent = n;
    }
    if (argc - optind != 2)
        return cli_usage(&help, "expects FILE and TAG");
    const char *file = argv[optind], *tag = argv[optind + 1];
    if (!blvl_schema_type(tag))
        return cli_usage(&help, "'%s' is not a core section tag (meta, sim, geometry, ...) or bsym",
                         tag);
    if (strcmp(tag, "bsym") == 0) {
        uint8_t *data;
        size_t size;
        if (cli_read_input(file, &data, &size) != CLI_OK)
            return CLI_FAILED;
        int rc;
        if (size >= 8 && memcmp(data, BLVL_MAGIC, 8) == 0)
            rc = cli_failf(file, BLVL_E_FLATBUFFER,
                           "a level, not a .bsym: bsym is not a section of a level; the symbols "
                           "are a .bsym file of their own, beside it");
        else
            rc = print_json(file, tag, data, size, indent);
        free(data);
        return rc;
    }
    blvl_level *lv;
    int rc = cli_open(file, &lv);
    if (rc != CLI_OK)
        return rc;
    blvl_bytes sec;
    const uint8_t *root;
    blvl_error err;
    if (blvl_level_section(lv, tag, &sec, &root, &err) != BLVL_OK) {
        rc = cli_fail(file, &err);
    } else {
        rc = print_json(file, tag, sec.data, sec.size, indent);
        blvl_bytes_free(&sec);
    }
    blvl_close(lv);
    return rc;
}
