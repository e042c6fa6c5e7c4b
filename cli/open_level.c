/* Opening the level a command names: a file, or an http(s):// URL. For a URL the transfer
 * options come from the environment (docs/CLI.md, "Levels over HTTP"), so info, ls, cat and the
 * rest need no options of their own; `blvl fetch` also takes them as options (cmd_fetch.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/http.h"
#include "blvl/symbols.h"
#include "cli.h"

static int env_u64(const char *name, uint64_t max, uint64_t *out) {
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (*end || v[0] == '-' || x > max) {
        fprintf(stderr, "blvl: %s: ignored: not a number 0..%llu\n", name, (unsigned long long)max);
        return 0;
    }
    *out = x;
    return 1;
}

/* The library's warnings for a URL (the cache folder holding what it did not write), on stderr
 * in the usual one-line shape. */
static void http_warn(void *user, const char *message) {
    (void)user;
    fprintf(stderr, "blvl: warning: %s\n", message);
}

void cli_http_options(blvl_http_options *h) {
    memset(h, 0, sizeof *h);
    uint64_t x;
    if (env_u64("BLVL_HTTP_CONNECT_TIMEOUT_MS", UINT32_MAX, &x))
        h->connect_timeout_ms = (uint32_t)x;
    if (env_u64("BLVL_HTTP_STALL_TIMEOUT_MS", UINT32_MAX, &x))
        h->stall_timeout_ms = (uint32_t)x;
    if (env_u64("BLVL_HTTP_TIMEOUT_MS", UINT32_MAX, &x))
        h->total_timeout_ms = (uint32_t)x;
    if (env_u64("BLVL_HTTP_MAX_BYTES", UINT64_MAX, &x))
        h->max_bytes = x;
    if (env_u64("BLVL_HTTP_RETRIES", 1000, &x))
        h->retries = x ? (unsigned)x : BLVL_HTTP_NO_RETRY;
    /* The minimum speed: bytes a second (0 = none) on average over the time in ms. */
    if (env_u64("BLVL_HTTP_SPEED_LIMIT", UINT32_MAX - 1, &x))
        h->speed_limit = x ? (uint32_t)x : BLVL_HTTP_NO_SPEED_LIMIT;
    if (env_u64("BLVL_HTTP_SPEED_TIME_MS", UINT32_MAX, &x))
        h->speed_time_ms = (uint32_t)x;
    h->warn = http_warn;
    /* The cache (docs/HTTP.md, "The cache"): off unless BLVL_CACHE says where; "1" is the
     * default place ($XDG_CACHE_HOME/blvl), "" and "0" are off. */
    const char *cache = getenv("BLVL_CACHE");
    if (cache && cache[0] && strcmp(cache, "0") != 0)
        h->cache_dir = strcmp(cache, "1") == 0 ? "" : cache;
    if (env_u64("BLVL_CACHE_MAX_BYTES", UINT64_MAX, &x))
        h->cache_max_bytes = x;
}

int cli_open_with(const char *path, const blvl_options *opt, blvl_level **out) {
    blvl_error err;
    blvl_status st;
    if (blvl_is_url(path)) {
        blvl_http_options h;
        cli_http_options(&h);
        if (opt)
            h.base = *opt;
        st = blvl_open_url(out, path, &h, &err);
    } else {
        st = blvl_open_file(out, path, opt, &err);
    }
    if (st != BLVL_OK)
        return cli_fail(path, &err);
    return CLI_OK;
}

int cli_open(const char *path, blvl_level **out) {
    return cli_open_with(path, NULL, out);
}

int cli_open_symbols(const char *path, const char *sym, blvl_level **out, blvl_symbols **syms) {
    *syms = NULL;
    int rc = cli_open(path, out);
    if (rc != CLI_OK || !sym)
        return rc;
    blvl_error err;
    if (blvl_symbols_open_file(syms, sym, *out, 0, NULL, &err) != BLVL_OK) {
        blvl_close(*out);
        *out = NULL;
        return cli_fail(sym, &err);
    }
    return CLI_OK;
}
