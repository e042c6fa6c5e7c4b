/* Shared pieces of the blvl program: every subcommand is `int
 * blvl_cmd_<name>(argc, argv)` (argv[0] is the subcommand's name) returning the
 * exit status: 0 success, 1 a refused or failed input, 2 a usage error. */
#ifndef BLVL_CLI_H
#define BLVL_CLI_H
#include <stddef.h>
#include <stdint.h>

#include "blvl/blvl.h"

#define CLI_OK 0
#define CLI_FAILED 1
#define CLI_USAGE 2

/* One subcommand's help: the usage line(s) and a description, printed by --help. */
typedef struct cli_help {
    const char *name;
    const char *usage; /* "FILE TAG" */
    const char *text;  /* what it does; options, one per line */
} cli_help;

/* True when argv holds -h or --help before a "--". */
int cli_wants_help(int argc, char **argv);
/* Prints "usage: blvl NAME USAGE", a blank line and the text to stdout; returns CLI_OK. */
int cli_print_help(const cli_help *h);
/* One line on stderr, "blvl NAME: <message> (usage: blvl NAME USAGE; see --help)", or when
 * the usage spans lines "blvl NAME: <message> (see blvl NAME --help)"; returns CLI_USAGE. */
int cli_usage(const cli_help *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "blvl: FILE: <err->message>" on stderr (the message starts with the rule name); returns
 * CLI_FAILED. */
int cli_fail(const char *file, const blvl_error *err);
/* "blvl: FILE: <rule>: <message>" on stderr, the rule being blvl_status_name(rule), so every
 * failure the program reports names its rule; returns CLI_FAILED. */
int cli_failf(const char *file, blvl_status rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reads a whole input ("-" is stdin) into malloc'd memory, at most 2 GiB (the most a section
 * holds): a larger one is refused with rule raw-size after reading at most 2 GiB + 1 bytes
 * (before reading anything for a regular file). Returns CLI_OK, or CLI_FAILED after printing
 * the one-line report (raw-size, io or out-of-memory, naming the input). */
int cli_read_input(const char *path, uint8_t **data, size_t *size);
/* What cli_read_input does with any limit (tests/test_cli_read.c): reads at most limit + 1
 * bytes; returns 0, or -1 with errno set (EFBIG: more than `limit` bytes). */
int cli_read_bounded(const char *path, uint64_t limit, uint8_t **data, size_t *size);
/* Writes all of it to stdout; returns 0 or -1. */
int cli_write_stdout(const void *data, size_t size);
/* Parses a decimal u32; returns 0 on success. */
int cli_parse_u32(const char *s, uint32_t *out);

/* Progress on stderr, only when stderr is a terminal: "blvl WHAT: 42% (3.1 of 7.4 MiB)". */
int cli_progress_enabled(void);
void cli_progress(const char *what, uint64_t done, uint64_t total);
void cli_progress_clear(void);

/* Opens a level, a file or an http(s):// URL (cli/open_level.c); on failure prints the
 * one-line report and returns CLI_FAILED. */
int cli_open(const char *path, blvl_level **out);
/* The same with options (NULL = defaults). */
int cli_open_with(const char *path, const blvl_options *opt, blvl_level **out);
struct blvl_symbols;
/* cli_open, then the .bsym at `sym` (NULL: none, *syms stays NULL) checked against the level;
 * a stale or refused .bsym is reported under its own path and closes the level. */
int cli_open_symbols(const char *path, const char *sym, blvl_level **out,
                     struct blvl_symbols **syms);
struct blvl_http_options;
/* The HTTP transfer options every command uses for a URL: from the environment
 * (BLVL_HTTP_TIMEOUT_MS, _CONNECT_TIMEOUT_MS, _STALL_TIMEOUT_MS, _SPEED_LIMIT, _SPEED_TIME_MS,
 * _MAX_BYTES, _RETRIES), and warnings printed on stderr. */
void cli_http_options(struct blvl_http_options *h);
/* Options for a call that writes files by path (cli/out_files.c): sets the temp_file hook so
 * that SIGINT, SIGTERM and SIGHUP remove the library's temporaries before the program ends,
 * and installs those handlers (a signal the program ignores stays ignored). */
void cli_out_options(blvl_options *opt);
/* Called once OUT is written: when OUT is the program's own stdout (-o /dev/stdout), what the
 * command prints next goes to stderr, so stdout carries the file's bytes alone. */
void cli_reports_off_stdout(const char *out);
/* The usage error for getopt_long's '?' or ':' answer. */
int cli_getopt_error(const cli_help *h, int argc, char **argv);

/* Argument shapes shared by the subcommands; each returns CLI_OK or the usage error it printed.
 * Every command parses its options with getopt_long, so options may come before or after the
 * operands and "--" ends them. cli_no_options: a command without options (an option is a usage
 * error); its operands are then argv[optind...]. cli_check_tag: TAG is 1..16 bytes of
 * [a-z0-9._-]. cli_file_tag_args: operands FILE TAG, at argv[optind], argv[optind + 1].
 * cli_one_file_args: one operand FILE, at argv[optind]. */
int cli_no_options(const cli_help *h, int argc, char **argv);
int cli_check_tag(const cli_help *h, const char *tag);
int cli_file_tag_args(const cli_help *h, int argc, char **argv);
int cli_one_file_args(const cli_help *h, int argc, char **argv);

/* Splits "TAG=REST" into `tag` (checked: 1..16 bytes of [a-z0-9._-]); returns REST, or NULL
 * when ARG is not of that form. */
const char *cli_split_tag(const char *arg, char tag[BLVL_TAG_MAX + 1]);

/* What identity, ls and info print about a level (cli/print_level.c, docs/CLI.md). */
typedef enum cli_level_view {
    CLI_VIEW_IDENTITY,  /* the identity: 32 hex digits */
    CLI_VIEW_LS,        /* one line per entry: TAG VERSION FLAGS RAW PACKED OFFSET DIGEST */
    CLI_VIEW_INFO,      /* header facts, then the entries in columns */
    CLI_VIEW_INFO_JSON, /* the same as one JSON object */
} cli_level_view;
/* Prints `view` of the open level to stdout; `path` is the file name info shows. */
void cli_print_level(const char *path, blvl_level *lv, cli_level_view view);
/* A whole command that takes one FILE and no options and prints `view` of it (identity, ls). */
int cli_show_level(const cli_help *h, int argc, char **argv, cli_level_view view);

/* Escapes and quotes a string for JSON on stdout, through the library's one JSON string
 * escaper (docs/API.md, "JSON output"): UTF-8 kept, controls escaped, ill-formed bytes as
 * \ufffd. The second form takes n bytes, NULs included. */
void cli_json_string(const char *s);
void cli_json_stringn(const char *s, size_t n);
#endif
