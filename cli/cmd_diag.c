/* blvl diag LEVEL: run blvl-diag's catalogue of checks (docs/DIAG.md) over a level and its
 * symbols and print the findings, one line each or one JSON document; or dump one kind of
 * element as tab-separated rows (cli/diag_dump.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/diag.h"
#include "cli.h"
#include "diag_dump.h"

static const cli_help help = {
    "diag",
    "LEVEL [--symbols F.bsym] [--json] [--only CODE]...\n"
    "       | LEVEL --dump KIND [--symbols F.bsym] [--json] | --list",
    "Runs blvl-diag's checks over LEVEL (each has a stable code, D0000...; docs/DIAG.md) and\n"
    "prints one line per finding:\n"
    "  CODE SEVERITY SECTION[INDEX]: MESSAGE[ — source: WHERE IT CAME FROM]\n"
    "and a count on stderr. Exit status 0 when no finding is an error, 1 when one is (or the\n"
    "level or symbols file cannot be read), 2 usage error.\n"
    "  --symbols F.bsym   the level's symbols: findings name their source; a stale or\n"
    "                     damaged file is itself a finding (D0037, D0038)\n"
    "  --json             one JSON document: {\"file\", \"findings\": [...], \"counts\"}\n"
    "  --only CODE        run only this check (repeatable); a damaged section (D0000) is\n"
    "                     reported whatever --only says\n"
    "  --dump KIND        instead of checking, one tab-separated row per element with a header\n"
    "                     row: colliders, batches, materials, entities or spawns (symbols\n"
    "                     columns with --symbols); with --json one document\n"
    "                     {\"file\", KIND: [{COLUMN: VALUE, ...}, ...]}\n"
    "  --list             the catalogue: CODE SEVERITY SECTION TITLE, tab-separated\n"};

#define MAX_ONLY 64

typedef struct printer {
    int json;
    size_t n;
} printer;

static int print_finding(void *user, const blvl_diag_finding *f) {
    printer *p = user;
    const char *sev = blvl_diag_severity_name(f->severity);
    if (p->json) {
        printf("%s\n    {\"code\": ", p->n ? "," : "");
        cli_json_string(f->code);
        printf(", \"severity\": \"%s\", \"section\": ", sev);
        cli_json_string(f->section);
        if (f->index == BLVL_DIAG_NONE)
            printf(", \"index\": null, \"message\": ");
        else
            printf(", \"index\": %u, \"message\": ", f->index);
        cli_json_string(f->message);
        printf(", \"source\": ");
        if (f->source[0])
            cli_json_string(f->source);
        else
            printf("null");
        putchar('}');
    } else {
        printf("%s %s %s", f->code, sev, f->section);
        if (f->index != BLVL_DIAG_NONE)
            printf("[%u]", f->index);
        printf(": %s", f->message);
        if (f->source[0])
            printf(" \xe2\x80\x94 source: %s", f->source);
        putchar('\n');
    }
    p->n++;
    return 0;
}

static int list_catalogue(void) {
    uint32_t n;
    const blvl_diag_check *c = blvl_diag_catalogue(&n);
    printf("code\tseverity\tsection\ttitle\n");
    for (uint32_t i = 0; i < n; i++)
        printf("%s\t%s\t%s\t%s\n", c[i].code, blvl_diag_severity_name(c[i].severity), c[i].section,
               c[i].title);
    return CLI_OK;
}

int blvl_cmd_diag(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {
        {"symbols", required_argument, NULL, 's'}, {"json", no_argument, NULL, 'j'},
        {"only", required_argument, NULL, 'o'},    {"dump", required_argument, NULL, 'd'},
        {"list", no_argument, NULL, 'l'},          {0, 0, 0, 0}};
    const char *symbols = NULL, *dump = NULL, *only[MAX_ONLY];
    uint32_t only_count = 0;
    int json = 0, list = 0, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (c) {
        case 's':
            if (symbols)
                return cli_usage(&help, "--symbols given twice");
            symbols = optarg;
            break;
        case 'j':
            json = 1;
            break;
        case 'o':
            if (!blvl_diag_check_find(optarg))
                return cli_usage(&help, "--only: no check has the code '%s' (see --list)", optarg);
            if (only_count == MAX_ONLY)
                return cli_usage(&help, "--only given more than %d times", MAX_ONLY);
            only[only_count++] = optarg;
            break;
        case 'd':
            if (dump)
                return cli_usage(&help, "--dump given twice");
            if (!cli_diag_dump_kind_valid(optarg))
                return cli_usage(&help,
                                 "--dump wants colliders, batches, materials, entities or "
                                 "spawns, not '%s'",
                                 optarg);
            dump = optarg;
            break;
        case 'l':
            list = 1;
            break;
        default:
            return cli_getopt_error(&help, argc, argv);
        }
    }
    if (list) {
        if (argc != optind || symbols || dump || json || only_count)
            return cli_usage(&help, "--list takes nothing else");
        return list_catalogue();
    }
    if (argc - optind != 1)
        return cli_usage(&help, "expects one LEVEL");
    if (dump && only_count)
        return cli_usage(&help, "--dump takes no --only");
    const char *file = argv[optind];
    blvl_level *level;
    if (cli_open(file, &level) != CLI_OK)
        return CLI_FAILED;
    uint8_t *sym_data = NULL;
    size_t sym_size = 0;
    if (symbols && cli_read_input(symbols, &sym_data, &sym_size) != CLI_OK) {
        blvl_close(level);
        return CLI_FAILED;
    }
    int rc;
    if (dump) {
        rc = cli_diag_dump(file, level, dump, json, symbols, sym_data, sym_size);
    } else {
        blvl_diag_options d;
        memset(&d, 0, sizeof d);
        d.only = only;
        d.only_count = only_count;
        d.symbols_data = sym_data;
        d.symbols_size = sym_size;
        printer p = {json, 0};
        blvl_diag_counts counts;
        blvl_error err;
        if (json) {
            printf("{\"file\": ");
            cli_json_string(file);
            printf(", \"findings\": [");
        }
        blvl_status st = blvl_diag_run(&counts, level, print_finding, &p, &d, &err);
        if (json)
            printf("%s], \"counts\": {\"error\": %u, \"warning\": %u, \"info\": %u}}\n",
                   p.n ? "\n  " : "", counts.errors, counts.warnings, counts.infos);
        if (st != BLVL_OK) {
            rc = cli_fail(file, &err);
        } else {
            fprintf(stderr, "blvl diag: %s: %u errors, %u warnings, %u infos\n", file,
                    counts.errors, counts.warnings, counts.infos);
            rc = counts.errors ? CLI_FAILED : CLI_OK;
        }
    }
    free(sym_data);
    blvl_close(level);
    return rc;
}
