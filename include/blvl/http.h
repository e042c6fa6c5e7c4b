/* blvl/http.h: a level read over HTTP(S) from any static server that honours range requests.
 *
 * blvl_open_url gives a blvl_level like blvl_open_file does: the header and table come with one
 * range request (at most 128 KiB, the format's largest floor), each section with one more when
 * it is read, and every section's digest is checked by blvl_read before any of it is returned.
 * Wanted sections (blvl_http_options.want) are fetched at open, adjacent ones merged into one
 * range. A server whose bytes change between requests is refused (BLVL_E_HTTP_CHANGED); one
 * that ignores ranges (200 instead of 206) is read once, whole, through the streaming reader.
 * With a cache directory, sections are kept by their BLAKE3 digest and tables by the level's
 * identity and table digest, so a second open fetches only what is new (docs/HTTP.md).
 *
 * Network access is libcurl's; the library keeps no global state beyond what libcurl's own
 * one-time initialisation needs (done on first use, thread-safe since curl 7.84). */
#ifndef BLVL_HTTP_H
#define BLVL_HTTP_H

#include "blvl/blvl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A warning that fails nothing (the library prints nothing itself): one line, no newline. */
typedef void (*blvl_warn_fn)(void *user, const char *message);

/* What the HTTP calls take beyond blvl_options (NULL or zeroed = defaults). */
typedef struct blvl_http_options {
    /* The allocator, threads and limits, as blvl_open_file takes them: first, so
     * (const blvl_options *)&hopt is valid. */
    blvl_options base;
    /* Sections fetched at open (adjacent ones merged into one range request); the others are
     * fetched when read. NULL / 0 = none at open. */
    const char *const *want;
    size_t nwant;
    uint32_t connect_timeout_ms; /* 0 = 10 000 */
    /* A transfer that moves no byte for this long fails (and is retried): 0 = 30 000. */
    uint32_t stall_timeout_ms;
    /* The whole of one open or fetch, retries included: 0 = no limit. */
    uint32_t total_timeout_ms;
    /* Body bytes received over the network, all requests together; past it BLVL_E_HTTP_LIMIT.
     * 0 = no cap. */
    uint64_t max_bytes;
    /* Transient failures (connection refused or cut, 408, 429, 5xx, a stall) retried this many
     * times with doubling backoff from retry_delay_ms, each pause at most 30 s (or
     * retry_delay_ms when that is longer); a cut transfer resumes from its last byte. 0 = 4
     * retries, 100 ms first delay; BLVL_HTTP_NO_RETRY for none. */
    unsigned retries;
    uint32_t retry_delay_ms;
    /* The content-addressed cache: NULL = no cache; "" = $XDG_CACHE_HOME/blvl (else
     * $HOME/.cache/blvl); otherwise that directory. Size-capped, least recently used evicted. */
    const char *cache_dir;
    uint64_t cache_max_bytes; /* 0 = 1 GiB */
    /* Bytes received so far out of the bytes the current request expects (0 when unknown). */
    blvl_progress_fn progress;
    void *progress_user;
    /* The minimum speed (curl's --speed-limit / --speed-time): a transfer that moves fewer
     * than speed_limit bytes a second on average over speed_time_ms fails as a stall does
     * (and is retried). 0 = 1024 bytes a second over 30 000 ms; speed_limit
     * BLVL_HTTP_NO_SPEED_LIMIT for none. */
    uint32_t speed_limit;
    uint32_t speed_time_ms;
    /* Things that fail nothing but a user should hear of (the cache folder holding something
     * it did not write: docs/HTTP.md, "The cache"), each kind once. NULL = not reported. */
    blvl_warn_fn warn;
    void *warn_user;
} blvl_http_options;

#define BLVL_HTTP_NO_RETRY (~0u)
#define BLVL_HTTP_NO_SPEED_LIMIT (~0u)

/* What the network and the cache did for a level (or a fetch), for the caller and for tests. */
typedef struct blvl_http_stats {
    uint64_t bytes_received; /* body bytes over the network */
    uint64_t bytes_cached;   /* bytes served from the cache instead */
    uint32_t requests;       /* HTTP requests sent, retries and resumes included */
    uint32_t retries;        /* requests sent again after a transient failure */
    uint32_t resumes;        /* of those, ones that went on from the last byte received */
    bool ranges;             /* false: the server ignored ranges and the file came whole */
} blvl_http_stats;

/* Open a level at an http:// or https:// URL. opt->base as blvl_open_file's options; `opt` may
 * be NULL. The level owns its connection until blvl_close. Reads on one level are serialised
 * (one connection); several levels may be used from several threads. */
BLVL_API blvl_status blvl_open_url(blvl_level **out, const char *url, const blvl_http_options *opt,
                                   blvl_error *err);

/* True when `path` names a URL blvl_open_url takes (http:// or https://). */
BLVL_API bool blvl_is_url(const char *path);

/* The level's transfer figures so far; zeroes for a level not opened from a URL. */
BLVL_API void blvl_http_get_stats(const blvl_level *level, blvl_http_stats *out);

/* Fetch the whole level at `url` to `out_path`, byte-identical to the server's file: every
 * section's digest, the table digest and the identity are checked before the file is renamed
 * into place (nothing is left at out_path on failure). `stats` may be NULL. */
BLVL_API blvl_status blvl_fetch_url(blvl_http_stats *stats, const char *url, const char *out_path,
                                    const blvl_http_options *opt, blvl_error *err);

/* Fetch the level at `url` whole, in order (one plain GET, resumed where a cut transfer
 * stopped), feeding every byte to the streaming reader `s` as it arrives, then finish it: the
 * table is checked before any payload byte and each section when its last byte lands, as the
 * stream's events report (blvl_stream_new; blvl_sections_stream_check adds the level rules).
 * The stream's own options give the allocator (opt->base is not read). A refusal of the header
 * or table, or an event callback that stops the stream, ends the transfer. `stats` may be
 * NULL. */
BLVL_API blvl_status blvl_http_stream_feed(blvl_stream *s, blvl_http_stats *stats, const char *url,
                                           const blvl_http_options *opt, blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
