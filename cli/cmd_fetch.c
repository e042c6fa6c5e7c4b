/* blvl fetch URL [--want TAG]... [-o OUT.blvl]: a level over HTTP. With -o the whole level,
 * byte-identical to the server's, checked and renamed into place; with --want only those
 * sections (and the header and table), printed with their sizes and the bytes received. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/http.h"
#include "cli.h"

static const cli_help help = {
    "fetch",
    "URL [--want TAG]... [-o OUT.blvl] [--timeout MS] [--connect-timeout MS]\n"
    "       [--stall-timeout MS] [--speed-limit N] [--speed-time MS] [--max-bytes N]\n"
    "       [--retries N] [--cache[=DIR] | --no-cache]",
    "Reads a level from an http:// or https:// URL (any static server that honours range\n"
    "requests; docs/HTTP.md). With -o, writes the whole level to OUT.blvl, byte-identical to\n"
    "the server's file, after checking the table digest, the identity and every section's\n"
    "digest (nothing is left at OUT.blvl on failure). Otherwise fetches the header and table\n"
    "and each --want section (one range request per run of neighbouring sections, each\n"
    "section's digest checked) and prints one line \"TAG BYTES\" per wanted section, then\n"
    "\"received N bytes in R requests\". Progress goes to stderr when it is a terminal.\n\n"
    "  --want TAG            fetch this section (repeatable)\n"
    "  -o, --output OUT      write the whole level to OUT\n"
    "  --timeout MS          the whole transfer, retries included (default: none)\n"
    "  --connect-timeout MS  each connection (default 10000)\n"
    "  --stall-timeout MS    a transfer that moves no byte this long fails (default 30000)\n"
    "  --speed-limit N       a transfer slower than N bytes a second on average over\n"
    "                        --speed-time fails as a stall does (default 1024; 0 = none)\n"
    "  --speed-time MS       the period of --speed-limit (default 30000)\n"
    "  --max-bytes N         refuse (http-limit) past N body bytes received (default: none)\n"
    "  --retries N           retries of transient failures (default 4; 0 = none), after\n"
    "                        100 ms, doubling up to 30 s between two\n"
    "  --cache[=DIR]         keep sections in the content-addressed cache and take them from\n"
    "                        it (DIR, default $XDG_CACHE_HOME/blvl; docs/HTTP.md); with\n"
    "                        --want, cached sections are not downloaded again\n"
    "  --no-cache            no cache, whatever BLVL_CACHE says\n"
    "The same settings come from BLVL_HTTP_TIMEOUT_MS, BLVL_HTTP_CONNECT_TIMEOUT_MS,\n"
    "BLVL_HTTP_STALL_TIMEOUT_MS, BLVL_HTTP_SPEED_LIMIT, BLVL_HTTP_SPEED_TIME_MS,\n"
    "BLVL_HTTP_MAX_BYTES, BLVL_HTTP_RETRIES, and the cache from\n"
    "BLVL_CACHE (a directory, or 1 for the default one) and BLVL_CACHE_MAX_BYTES (default\n"
    "1 GiB), which every command reading a URL honours; options win.\n"};

static void progress(void *user, uint64_t done, uint64_t total) {
    cli_progress(user, done, total);
}

static int parse_u64(const char *s, uint64_t *out) {
    char *end;
    if (!s[0] || s[0] == '-')
        return -1;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end)
        return -1;
    *out = x;
    return 0;
}

static void print_received(const blvl_http_stats *st) {
    printf("received %llu bytes in %u requests", (unsigned long long)st->bytes_received,
           st->requests);
    if (st->retries)
        printf(" (%u retries, %u resumed)", st->retries, st->resumes);
    if (!st->ranges)
        printf(" (the server ignores ranges: the file came whole)");
    if (st->bytes_cached)
        printf(" (%llu bytes from the cache)", (unsigned long long)st->bytes_cached);
    printf("\n");
}

int blvl_cmd_fetch(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"want", required_argument, NULL, 'w'},
                                          {"output", required_argument, NULL, 'o'},
                                          {"timeout", required_argument, NULL, 'T'},
                                          {"connect-timeout", required_argument, NULL, 'C'},
                                          {"stall-timeout", required_argument, NULL, 'S'},
                                          {"speed-limit", required_argument, NULL, 'L'},
                                          {"speed-time", required_argument, NULL, 'P'},
                                          {"max-bytes", required_argument, NULL, 'M'},
                                          {"retries", required_argument, NULL, 'R'},
                                          {"cache", optional_argument, NULL, 'K'},
                                          {"no-cache", no_argument, NULL, 'N'},
                                          {0, 0, 0, 0}};
    blvl_http_options h;
    cli_http_options(&h);
    const char **want = calloc((size_t)argc, sizeof *want);
    if (!want)
        return cli_failf("fetch", BLVL_E_NOMEM, "the wanted tags");
    size_t nwant = 0;
    const char *out = NULL;
    int c, rc = CLI_OK;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
        uint64_t x = 0;
        uint32_t ms = 0;
        if (c == 'w') {
            if ((rc = cli_check_tag(&help, optarg)) != CLI_OK)
                goto done;
            want[nwant++] = optarg;
        } else if (c == 'o') {
            out = optarg;
        } else if (c == 'K') {
            h.cache_dir = optarg ? optarg : "";
        } else if (c == 'N') {
            h.cache_dir = NULL;
        } else if (c == 'T' || c == 'C' || c == 'S' || c == 'P') {
            if (cli_parse_u32(optarg, &ms) != 0) {
                rc = cli_usage(&help, "a time-out is milliseconds, not '%s'", optarg);
                goto done;
            }
            if (c == 'T')
                h.total_timeout_ms = ms;
            else if (c == 'C')
                h.connect_timeout_ms = ms;
            else if (c == 'P')
                h.speed_time_ms = ms;
            else
                h.stall_timeout_ms = ms;
        } else if (c == 'L') {
            if (cli_parse_u32(optarg, &ms) != 0 || ms == BLVL_HTTP_NO_SPEED_LIMIT) {
                rc = cli_usage(&help, "--speed-limit wants bytes a second, not '%s'", optarg);
                goto done;
            }
            h.speed_limit = ms ? ms : BLVL_HTTP_NO_SPEED_LIMIT;
        } else if (c == 'M' || c == 'R') {
            if (parse_u64(optarg, &x) != 0 || (c == 'R' && x > 1000)) {
                rc = cli_usage(&help, "--%s wants a number, not '%s'",
                               c == 'M' ? "max-bytes" : "retries", optarg);
                goto done;
            }
            if (c == 'M')
                h.max_bytes = x;
            else
                h.retries = x ? (unsigned)x : BLVL_HTTP_NO_RETRY;
        } else {
            rc = cli_getopt_error(&help, argc, argv);
            goto done;
        }
    }
    if (optind + 1 != argc) {
        rc = cli_usage(&help, "expects one URL");
        goto done;
    }
    const char *url = argv[optind];
    if (!blvl_is_url(url)) {
        rc = cli_usage(&help, "'%s' is not an http:// or https:// URL", url);
        goto done;
    }
    if (out && nwant) {
        rc = cli_usage(&help, "-o writes the whole level: it takes no --want");
        goto done;
    }
    if (cli_progress_enabled()) {
        h.progress = progress;
        h.progress_user = (void *)"fetch";
    }
    blvl_error err;
    blvl_http_stats st;
    if (out) {
        cli_out_options(&h.base);
        blvl_status s = blvl_fetch_url(&st, url, out, &h, &err);
        cli_progress_clear();
        if (s != BLVL_OK) {
            rc = cli_fail(url, &err);
            goto done;
        }
        cli_reports_off_stdout(out);
        printf("%s: %llu bytes\n", out, (unsigned long long)st.bytes_received);
        print_received(&st);
        goto done;
    }
    h.want = want;
    h.nwant = nwant;
    blvl_level *lv;
    blvl_status s = blvl_open_url(&lv, url, &h, &err);
    cli_progress_clear();
    if (s != BLVL_OK) {
        rc = cli_fail(url, &err);
        goto done;
    }
    for (size_t i = 0; i < nwant; i++) {
        const blvl_entry *e = blvl_find(lv, want[i]);
        printf("%s %llu\n", want[i], (unsigned long long)(e ? e->packed_size : 0));
    }
    blvl_http_get_stats(lv, &st);
    print_received(&st);
    blvl_close(lv);
done:
    free(want);
    return rc;
}
