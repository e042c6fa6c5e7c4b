/* What identity, ls and info print about an opened level: its header facts and one row per
 * entry, in the layouts docs/CLI.md describes. Every listing of entries goes through
 * entry_row, so the commands agree on what an entry shows. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

/* One entry: tag, version, "id" when in identity, sizes, offset and digest. */
static void entry_row(cli_level_view view, const blvl_entry *e, uint32_t i) {
    char d[33];
    blvl_hex(e->digest, d);
    int in_identity = (e->flags & BLVL_ENTRY_FLAG_IDENTITY) != 0;
    unsigned long long raw = e->raw_size, packed = e->packed_size, at = e->offset;
    if (view == CLI_VIEW_INFO_JSON) {
        printf("%s\n    {\"tag\": ", i ? "," : "");
        cli_json_string(e->tag); /* tags are [a-z0-9._-]; quoted all the same */
        printf(", \"offset\": %llu, \"packed_size\": %llu, \"raw_size\": %llu, \"version\": %u, "
               "\"flags\": %u, \"in_identity\": %s, \"digest\": \"%s\"}",
               at, packed, raw, e->version, e->flags, in_identity ? "true" : "false", d);
        return;
    }
    printf(view == CLI_VIEW_LS ? "%-16s %u %s %llu %llu %llu %s\n"
                               : "  %-16s v%-3u %-3s raw %12llu packed %12llu at %12llu  %s\n",
           e->tag, e->version, in_identity ? "id" : "-", raw, packed, at, d);
}

static void header_text(const char *path, const blvl_info *in, const char *id, const char *td) {
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
}

static void header_json(const char *path, const blvl_info *in, const char *id, const char *td) {
    printf("{\n  \"file\": ");
    cli_json_string(path);
    printf(",\n  \"file_size\": %llu,\n  \"container_version\": %u,\n  \"floor\": %llu,\n"
           "  \"table_offset\": %llu,\n  \"count\": %u,\n  \"capacity\": %u,\n"
           "  \"covered\": %llu,\n  \"unreferenced\": %llu,\n  \"identity\": \"%s\",\n"
           "  \"table_digest\": \"%s\",\n  \"entries\": [",
           (unsigned long long)in->file_size, BLVL_CONTAINER_VERSION, (unsigned long long)in->floor,
           (unsigned long long)in->table_offset, in->count, in->capacity,
           (unsigned long long)in->covered, (unsigned long long)in->unreferenced, id, td);
}

void cli_print_level(const char *path, blvl_level *lv, cli_level_view view) {
    blvl_info in;
    blvl_get_info(lv, &in);
    char id[33], td[33];
    blvl_hex(in.identity, id);
    blvl_hex(in.table_digest, td);
    if (view == CLI_VIEW_IDENTITY) {
        printf("%s\n", id);
        return;
    }
    if (view == CLI_VIEW_INFO)
        header_text(path, &in, id, td);
    else if (view == CLI_VIEW_INFO_JSON)
        header_json(path, &in, id, td);
    for (uint32_t i = 0; i < in.count; i++)
        entry_row(view, blvl_entry_at(lv, i), i);
    if (view == CLI_VIEW_INFO_JSON)
        printf("%s]\n}\n", in.count ? "\n  " : "");
}

int cli_show_level(const cli_help *h, int argc, char **argv, cli_level_view view) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(h);
    blvl_level *lv;
    int rc = cli_one_file_args(h, argc, argv);
    if (rc == CLI_OK)
        rc = cli_open(argv[optind], &lv);
    if (rc != CLI_OK)
        return rc;
    cli_print_level(argv[optind], lv, view);
    blvl_close(lv);
    return CLI_OK;
}
