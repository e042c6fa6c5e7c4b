/* blvl info [--json] FILE: the header facts, identity, table digest and every
 * entry. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static const cli_help help = {
    "info", "[--json] FILE",
    "Opens FILE (header, table, table digest, identity and the "
    "unreferenced-bytes limit are\n"
    "checked; section payloads are not: see blvl verify) and prints its header "
    "facts and\n"
    "entries.\n\n"
    "  --json   one JSON object: file, file_size, container_version, floor, "
    "table_offset,\n"
    "           count, capacity, covered, unreferenced, identity, table_digest "
    "and entries\n"
    "           (tag, offset, packed_size, raw_size, version, flags, "
    "in_identity, digest)\n"};

static void print_text(const char *path, const blvl_info *in, blvl_level *lv) {
    char id[33], td[33];
    blvl_hex(in->identity, id);
    blvl_hex(in->table_digest, td);
    printf("file           %s\n", path);
    printf("file size      %llu\n", (unsigned long long)in->file_size);
    printf("version        %u\n", BLVL_CONTAINER_VERSION);
    printf("payload floor  %llu\n", (unsigned long long)in->floor);
    printf("table          %u entries at %llu (capacity %u)\n", in->count,
           (unsigned long long)in->table_offset, in->capacity);
    printf("covered        %llu\n", (unsigned long long)in->covered);
    printf("unreferenced   %llu\n", (unsigned long long)in->unreferenced);
    printf("identity       %s\n", id);
    printf("table digest   %s\n", td);
    printf("sections\n");
    for (uint32_t i = 0; i < in->count; i++) {
        const blvl_entry *e = blvl_entry_at(lv, i);
        char d[33];
        blvl_hex(e->digest, d);
        printf("  %-16s v%-3u %-3s raw %12llu packed %12llu at %12llu  %s\n", e->tag, e->version,
               (e->flags & BLVL_ENTRY_FLAG_IDENTITY) ? "id" : "-", (unsigned long long)e->raw_size,
               (unsigned long long)e->packed_size, (unsigned long long)e->offset, d);
    }
}

static void print_json(const char *path, const blvl_info *in, blvl_level *lv) {
    char id[33], td[33];
    blvl_hex(in->identity, id);
    blvl_hex(in->table_digest, td);
    printf("{\n  \"file\": ");
    cli_json_string(path);
    printf(",\n  \"file_size\": %llu,\n  \"container_version\": %u,\n  "
           "\"floor\": %llu,\n"
           "  \"table_offset\": %llu,\n  \"count\": %u,\n  \"capacity\": %u,\n"
           "  \"covered\": %llu,\n  \"unreferenced\": %llu,\n  \"identity\": "
           "\"%s\",\n"
           "  \"table_digest\": \"%s\",\n  \"entries\": [",
           (unsigned long long)in->file_size, BLVL_CONTAINER_VERSION, (unsigned long long)in->floor,
           (unsigned long long)in->table_offset, in->count, in->capacity,
           (unsigned long long)in->covered, (unsigned long long)in->unreferenced, id, td);
    for (uint32_t i = 0; i < in->count; i++) {
        const blvl_entry *e = blvl_entry_at(lv, i);
        char d[33];
        blvl_hex(e->digest, d);
        printf("%s\n    {\"tag\": ", i ? "," : "");
        cli_json_string(e->tag); /* tags are [a-z0-9._-]; quoted all the same */
        printf(", \"offset\": %llu, \"packed_size\": %llu, \"raw_size\": %llu, "
               "\"version\": %u, \"flags\": %u, \"in_identity\": %s, \"digest\": "
               "\"%s\"}",
               (unsigned long long)e->offset, (unsigned long long)e->packed_size,
               (unsigned long long)e->raw_size, e->version, e->flags,
               (e->flags & BLVL_ENTRY_FLAG_IDENTITY) ? "true" : "false", d);
    }
    printf("%s]\n}\n", in->count ? "\n  " : "");
}

int blvl_cmd_info(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"json", no_argument, NULL, 'j'}, {0, 0, 0, 0}};
    int json = 0, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c == 'j')
            json = 1;
        else
            return cli_getopt_error(&help, argc, argv);
    }
    if (argc - optind != 1)
        return cli_usage(&help, "expects one FILE");
    const char *path = argv[optind];
    blvl_level *lv;
    int rc = cli_open(path, &lv);
    if (rc != CLI_OK)
        return rc;
    blvl_info in;
    blvl_get_info(lv, &in);
    if (json)
        print_json(path, &in, lv);
    else
        print_text(path, &in, lv);
    blvl_close(lv);
    return CLI_OK;
}
