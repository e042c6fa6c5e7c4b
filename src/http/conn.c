/* One libcurl easy handle per level: requests go out one at a time on one kept-alive
 * connection. Every response is checked against what the first one said (size, ETag,
 * Last-Modified) before a body byte is handed on; body bytes are counted against the cap and
 * delivered in file order exactly once, so a cut transfer is resumed from its last byte. Several
 * ranges go in one request (blvl__http_conn_get_spans): a multipart answer is parsed as it streams,
 * a single coalesced part is taken apart, and a 200 is stopped at its headers. */
#include "http/conn.h"

#include <curl/curl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/alloc.h"
#include "common/error.h"
#include "http/multipart.h"

#define CONNECT_MS_DEFAULT 10000u
#define STALL_MS_DEFAULT 30000u
#define RETRIES_DEFAULT 4u
#define RETRY_DELAY_MS_DEFAULT 100u
#define RETRY_PAUSE_MAX_MS 30000u /* the doubling stops here (docs/HTTP.md, "Failures") */
#define SPEED_LIMIT_DEFAULT 1024u /* bytes a second, on average over SPEED_MS_DEFAULT */
#define SPEED_MS_DEFAULT 30000u
#define REDIRECTS_MAX 5
#define POLL_MS 50 /* how often a quiet transfer is checked for a stall */
/* One request asks for at most this many ranges, in a Range header of at most this many
 * characters (docs/HTTP.md, "Limits"): servers cap both (nginx's header buffers, CDNs' range
 * counts), and more ranges would save little over a second request. */
#define RANGES_PER_REQUEST 32u
#define RANGE_HEADER_MAX 1000u

struct blvl__conn {
    CURL *curl;
    CURLM *multi; /* drives curl so that stalls are noticed within POLL_MS */
    blvl_allocator a;
    char *url;
    uint32_t connect_ms, stall_ms, total_ms, retry_delay_ms;
    uint32_t speed_limit, speed_ms; /* speed_limit 0: no minimum speed */
    unsigned retries;
    uint64_t max_bytes;
    blvl_progress_fn progress;
    void *progress_user;
    uint64_t t0_ns; /* for total_ms */
    blvl_http_stats stats;
    /* What the first response said about the file. */
    bool known, size_known;
    uint64_t size;
    char etag[BLVL__HTTP_VALUE_MAX], last_modified[BLVL__HTTP_VALUE_MAX];
    /* The request in flight. */
    uint64_t req_start, req_end, next, pos, last_byte;
    bool allow_whole, head_checked, resp_whole, resp_ok;
    blvl__conn_sink sink;
    void *sink_user;
    blvl__http_head head;
    bool refused, stalled, slow;
    blvl_error refusal;
    uint64_t last_move_ns; /* when the last header or body byte came */
    /* The minimum speed: bytes (header and body) since the current period of speed_ms began. */
    uint64_t period_ns, period_bytes;
    /* The Location headers of the request in flight (hashes, to tell a loop from a long
     * chain; the last one's scheme and text for the message). */
    uint64_t loc_hash[REDIRECTS_MAX + 2];
    unsigned nloc;
    bool loc_loop;
    char loc_text[96], loc_scheme[16];
    char curl_err[CURL_ERROR_SIZE];
    /* The server answered 200 to several ranges: one range per request from then on. */
    bool one_range;
    /* A request for several ranges in flight (blvl__http_conn_get_spans). */
    bool in_multi, multi_200, mp_on;
    blvl__span *spans;
    size_t nspans, part_i, part_j; /* a single-part answer covers spans part_i..part_j */
    blvl__multipart mp;
};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int blvl__http_conn_refuse_err(blvl__conn *c, const blvl_error *e) {
    if (!c->refused) {
        c->refused = true;
        c->refusal = *e;
    }
    return 1;
}

int blvl__http_conn_refuse(blvl__conn *c, blvl_status code, const char *fmt, ...) {
    if (c->refused)
        return 1;
    char msg[224];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->refused = true;
    blvl__fail(&c->refusal, code, "%s", msg);
    return 1;
}

/* Checks the response's headers once, before its first body byte (or after a bodiless one):
 * a status we take, a Content-Range that is the range asked for, and the same file as the
 * first response described. Returns 0 when the body may be delivered. */
static int mp_sink(void *user, uint64_t off, const uint8_t *data, size_t len) {
    blvl__conn *c = user;
    return c->sink(c->sink_user, off, data, len, false);
}

static int check_head(blvl__conn *c) {
    c->head_checked = true;
    const blvl__http_head *h = &c->head;
    int status = h->status;
    if (status == 0) {
        long code = 0;
        curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &code);
        status = (int)code;
    }
    c->resp_ok = false;
    if (status != 200 && status != 206)
        return 1; /* an error status: its body is not ours; classified after the transfer */
    if (h->bad)
        return blvl__http_conn_refuse(c, BLVL_E_HTTP, "malformed %s header from %s", h->bad_what,
                                      c->url);
    /* A compressed body holds none of the file's byte ranges (blvl never sends
     * Accept-Encoding; docs/HTTP.md, "Serving levels"). */
    if (h->encoding[0] && strcmp(h->encoding, "identity") != 0)
        return blvl__http_conn_refuse(c, BLVL_E_HTTP, "content-encoding %s not accepted from %s",
                                      h->encoding, c->url);
    bool ranged = c->next > 0 || c->req_end != UINT64_MAX;
    uint64_t total = 0;
    bool total_known = false;
    if (c->in_multi && status == 200) {
        c->multi_200 = true; /* seen at the end of the headers already; no body is taken */
        return 1;
    }
    if (c->in_multi && h->multipart) {
        if (h->has_range)
            return blvl__http_conn_refuse(
                c, BLVL_E_HTTP, "multipart: a multipart answer with a Content-Range from %s",
                c->url);
        blvl__http_multipart_init(&c->mp, h->boundary, h->boundary_len,
                                  c->size_known ? c->size : UINT64_MAX, c->spans, c->nspans,
                                  mp_sink, c);
        c->mp_on = true;
        c->pos = 0;
        c->last_byte = UINT64_MAX; /* the parser bounds the body */
        c->resp_whole = false;
    } else if (c->in_multi) {
        /* One part: a coalesced span from an asked range's start to an asked range's end. */
        if (status != 206 || !h->has_range || !h->total_known)
            return blvl__http_conn_refuse(
                c, BLVL_E_HTTP, "206 without a Content-Range giving the size from %s", c->url);
        total = h->range_total;
        total_known = true;
        blvl_error e = {0};
        if (blvl__http_spans_part(c->spans, c->nspans, h->range_first, h->range_last, &c->part_i,
                                  &c->part_j, &e) != BLVL_OK)
            return blvl__http_conn_refuse(c, e.code, "%s from %s", blvl__error_text(&e), c->url);
        c->pos = h->range_first;
        c->last_byte = h->range_last;
        c->resp_whole = false;
    } else if (status == 206) {
        if (!h->has_range || !h->total_known)
            return blvl__http_conn_refuse(
                c, BLVL_E_HTTP, "206 without a Content-Range giving the size from %s", c->url);
        total = h->range_total;
        total_known = true;
        uint64_t want_last = (c->req_end < total ? c->req_end : total) - 1;
        if (h->range_first != c->next || h->range_last != want_last)
            return blvl__http_conn_refuse(
                c, BLVL_E_HTTP, "asked for bytes %llu-%llu, %s sent %llu-%llu",
                (unsigned long long)c->next, (unsigned long long)want_last, c->url,
                (unsigned long long)h->range_first, (unsigned long long)h->range_last);
        c->pos = h->range_first;
        c->last_byte = h->range_last;
        c->resp_whole = false;
    } else {
        if (ranged && !c->allow_whole)
            return blvl__http_conn_refuse(
                c, BLVL_E_HTTP, "%s answered 200 to a range request after honouring ranges",
                c->url);
        if (ranged)
            c->stats.ranges = false; /* the server ignores ranges */
        if (h->has_length) {
            total = h->length;
            total_known = true;
        }
        c->pos = 0;
        c->last_byte = total_known ? (total ? total - 1 : 0) : UINT64_MAX;
        c->resp_whole = true;
        c->req_end = UINT64_MAX; /* the caller takes the whole file from here on */
    }
    if (c->known) {
        if (total_known && c->size_known && total != c->size)
            return blvl__http_conn_refuse(c, BLVL_E_HTTP_CHANGED,
                                          "the size of %s changed from %llu to %llu bytes", c->url,
                                          (unsigned long long)c->size, (unsigned long long)total);
        if (strcmp(h->etag, c->etag) != 0)
            return blvl__http_conn_refuse(c, BLVL_E_HTTP_CHANGED,
                                          "the ETag of %s changed from '%s' to '%s'", c->url,
                                          c->etag, h->etag);
        if (strcmp(h->last_modified, c->last_modified) != 0)
            return blvl__http_conn_refuse(c, BLVL_E_HTTP_CHANGED,
                                          "the Last-Modified of %s changed from '%s' to '%s'",
                                          c->url, c->last_modified, h->last_modified);
    } else {
        c->known = true;
        memcpy(c->etag, h->etag, sizeof c->etag);
        memcpy(c->last_modified, h->last_modified, sizeof c->last_modified);
    }
    if (total_known && !c->size_known) {
        c->size = total;
        c->size_known = true;
    }
    c->resp_ok = true;
    return 0;
}

/* A Location header: remembered for the message of a refused redirect (curl follows the
 * redirects; its own error would only say "HTTP 302"). */
static void note_location(blvl__conn *c, const char *v, size_t len) {
    while (len && (v[len - 1] == '\r' || v[len - 1] == '\n' || v[len - 1] == ' '))
        len--;
    while (len && (*v == ' ' || *v == '\t')) {
        v++;
        len--;
    }
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)v[i]) * 1099511628211ull;
    for (unsigned i = 0; i < c->nloc; i++)
        if (c->loc_hash[i] == h)
            c->loc_loop = true;
    if (c->nloc < sizeof c->loc_hash / sizeof c->loc_hash[0])
        c->loc_hash[c->nloc++] = h;
    size_t k = 0; /* printable bytes only: the text goes into a message */
    for (size_t i = 0; i < len && k + 1 < sizeof c->loc_text; i++)
        c->loc_text[k++] = (v[i] >= 0x20 && v[i] < 0x7f) ? v[i] : '?';
    c->loc_text[k] = '\0';
    k = 0;
    while (k < len && k + 1 < sizeof c->loc_scheme &&
           ((v[k] >= 'a' && v[k] <= 'z') || (v[k] >= 'A' && v[k] <= 'Z') ||
            (k > 0 && ((v[k] >= '0' && v[k] <= '9') || v[k] == '+' || v[k] == '-' || v[k] == '.'))))
        k++;
    if (k < len && v[k] == ':') {
        for (size_t i = 0; i < k; i++)
            c->loc_scheme[i] = (char)(v[i] | 0x20);
        c->loc_scheme[k] = '\0';
    } else {
        c->loc_scheme[0] = '\0'; /* a relative reference: the same scheme */
    }
}

static size_t on_header(char *buf, size_t size, size_t n, void *user) {
    blvl__conn *c = user;
    size_t len = size * n;
    c->last_move_ns = now_ns();
    c->period_bytes += len;
    if (len > 9 && (buf[0] | 0x20) == 'l' && strncasecmp(buf, "location:", 9) == 0)
        note_location(c, buf + 9, len - 9);
    if (len >= 5 && memcmp(buf, "HTTP/", 5) == 0)
        c->head_checked = false;
    blvl__http_head_line(&c->head, buf, len);
    /* A 200 to several ranges is the whole file coming: stopped at the end of its headers,
     * before a body byte is taken. */
    bool end = (len == 2 && buf[0] == '\r' && buf[1] == '\n') || (len == 1 && buf[0] == '\n');
    if (end && c->in_multi && c->head.status == 200) {
        c->multi_200 = true;
        return 0;
    }
    return len;
}

static size_t on_body(char *data, size_t size, size_t n, void *user) {
    blvl__conn *c = user;
    size_t len = size * n;
    c->last_move_ns = now_ns();
    c->period_bytes += len;
    if (!c->head_checked && check_head(c) != 0)
        return 0;
    if (!c->resp_ok)
        return 0;
    c->stats.bytes_received += len;
    if (c->max_bytes && c->stats.bytes_received > c->max_bytes) {
        blvl__http_conn_refuse(c, BLVL_E_HTTP_LIMIT, "more than %llu bytes received from %s",
                               (unsigned long long)c->max_bytes, c->url);
        return 0;
    }
    if (c->in_multi) {
        blvl_error e = {0};
        blvl_status st;
        if (c->mp_on)
            st = blvl__http_multipart_feed(&c->mp, (const uint8_t *)data, len, &e);
        else if (c->pos > c->last_byte || len > c->last_byte + 1 - c->pos) {
            blvl__http_conn_refuse(c, BLVL_E_HTTP, "%s sent more bytes than its headers announced",
                                   c->url);
            return 0;
        } else
            st = blvl__http_spans_deliver(c->spans, c->part_i, c->part_j, c->pos,
                                          (const uint8_t *)data, len, mp_sink, c, &e);
        c->pos += len;
        if (st != BLVL_OK) {
            /* A no-op when the sink stopped the transfer: its own refusal stays. */
            blvl__http_conn_refuse(c, e.code, "%s from %s", blvl__error_text(&e), c->url);
            return 0;
        }
        return len;
    }
    uint64_t pos = c->pos;
    if (c->last_byte != UINT64_MAX && (len > c->last_byte + 1 - pos || pos > c->last_byte)) {
        blvl__http_conn_refuse(c, BLVL_E_HTTP, "%s sent more bytes than its headers announced",
                               c->url);
        return 0;
    }
    c->pos += len;
    /* Bytes before `next` were delivered already (a whole file sent again after a cut). */
    uint64_t from = pos < c->next ? c->next : pos;
    uint64_t to = pos + len;
    if (to > from) {
        if (c->sink(c->sink_user, from, data + (from - pos), (size_t)(to - from), c->resp_whole))
            return 0;
        c->next = to;
        if (c->progress) {
            uint64_t end = c->req_end != UINT64_MAX ? c->req_end : c->size_known ? c->size : 0;
            c->progress(c->progress_user, c->next - c->req_start,
                        end > c->req_start ? end - c->req_start : 0);
        }
    }
    return len;
}

/* One request through the multi handle (which keeps the connection alive between requests),
 * polled every POLL_MS so that a transfer moving no byte for stall_ms is cut promptly. */
static CURLcode perform(blvl__conn *c) {
    if (curl_multi_add_handle(c->multi, c->curl) != CURLM_OK)
        return CURLE_FAILED_INIT;
    CURLcode rc = CURLE_GOT_NOTHING;
    for (;;) {
        int running = 0;
        if (curl_multi_perform(c->multi, &running) != CURLM_OK) {
            rc = CURLE_FAILED_INIT;
            break;
        }
        int queued;
        CURLMsg *m;
        bool done = false;
        while ((m = curl_multi_info_read(c->multi, &queued)) != NULL)
            if (m->msg == CURLMSG_DONE) {
                rc = m->data.result;
                done = true;
            }
        if (done || !running)
            break;
        uint64_t t = now_ns();
        if (t - c->last_move_ns > (uint64_t)c->stall_ms * 1000000u) {
            c->stalled = true;
            rc = CURLE_ABORTED_BY_CALLBACK;
            break;
        }
        /* The minimum speed, period by period from the request's start: fewer than
         * speed_limit * speed_ms / 1000 bytes in one period ends the transfer as a stall. */
        if (c->speed_limit && t - c->period_ns >= (uint64_t)c->speed_ms * 1000000u) {
            if (c->period_bytes * 1000u < (uint64_t)c->speed_limit * c->speed_ms) {
                c->slow = true;
                rc = CURLE_ABORTED_BY_CALLBACK;
                break;
            }
            c->period_ns = t;
            c->period_bytes = 0;
        }
        if (curl_multi_poll(c->multi, NULL, 0, POLL_MS, NULL) != CURLM_OK) {
            rc = CURLE_FAILED_INIT;
            break;
        }
    }
    curl_multi_remove_handle(c->multi, c->curl);
    return rc;
}

blvl_status blvl__http_conn_new(blvl__conn **out, const char *url, const blvl_options *opt,
                                const blvl_http_options *http, blvl_error *err) {
    *out = NULL;
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    blvl__conn *c = blvl__calloc(a, sizeof *c);
    if (!c)
        return blvl__nomem(err, "a connection");
    if (a)
        c->a = *a;
    c->url = blvl__strdup(&c->a, url);
    if (!c->url) {
        blvl__http_conn_free(c);
        return blvl__nomem(err, "a connection");
    }
    blvl_http_options h = {0};
    if (http)
        h = *http;
    c->connect_ms = h.connect_timeout_ms ? h.connect_timeout_ms : CONNECT_MS_DEFAULT;
    c->stall_ms = h.stall_timeout_ms ? h.stall_timeout_ms : STALL_MS_DEFAULT;
    c->total_ms = h.total_timeout_ms;
    c->max_bytes = h.max_bytes;
    c->retries = h.retries == BLVL_HTTP_NO_RETRY ? 0 : h.retries ? h.retries : RETRIES_DEFAULT;
    c->retry_delay_ms = h.retry_delay_ms ? h.retry_delay_ms : RETRY_DELAY_MS_DEFAULT;
    c->speed_limit = h.speed_limit == BLVL_HTTP_NO_SPEED_LIMIT ? 0
                     : h.speed_limit                           ? h.speed_limit
                                                               : SPEED_LIMIT_DEFAULT;
    c->speed_ms = h.speed_time_ms ? h.speed_time_ms : SPEED_MS_DEFAULT;
    c->progress = h.progress;
    c->progress_user = h.progress_user;
    c->t0_ns = now_ns();
    c->stats.ranges = true;
    c->curl = curl_easy_init();
    c->multi = curl_multi_init();
    if (!c->curl || !c->multi) {
        blvl__http_conn_free(c);
        return blvl__fail(err, BLVL_E_HTTP, "libcurl could not start");
    }
    CURL *k = c->curl;
    curl_easy_setopt(k, CURLOPT_URL, c->url);
    curl_easy_setopt(k, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(k, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(k, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(k, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(k, CURLOPT_MAXREDIRS, (long)REDIRECTS_MAX);
    curl_easy_setopt(k, CURLOPT_CONNECTTIMEOUT_MS, (long)c->connect_ms);
    curl_easy_setopt(k, CURLOPT_BUFFERSIZE, 512L * 1024);
    curl_easy_setopt(k, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(k, CURLOPT_HEADERDATA, c);
    curl_easy_setopt(k, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(k, CURLOPT_WRITEDATA, c);
    curl_easy_setopt(k, CURLOPT_ERRORBUFFER, c->curl_err);
    curl_easy_setopt(k, CURLOPT_USERAGENT, "blvl");
    *out = c;
    return BLVL_OK;
}

void blvl__http_conn_free(blvl__conn *c) {
    if (!c)
        return;
    if (c->curl)
        curl_easy_cleanup(c->curl);
    if (c->multi)
        curl_multi_cleanup(c->multi);
    blvl_allocator a = c->a;
    blvl__free_sized(&a, c->url);
    blvl__dealloc(&a, c, sizeof *c);
}

static void sleep_ms(uint64_t ms) {
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* Milliseconds left of total_ms (UINT64_MAX without a limit; 0 when spent). */
static uint64_t remaining_ms(const blvl__conn *c) {
    if (!c->total_ms)
        return UINT64_MAX;
    uint64_t spent = (now_ns() - c->t0_ns) / 1000000u;
    return spent >= c->total_ms ? 0 : c->total_ms - spent;
}

static bool transient_curl(CURLcode rc) {
    switch (rc) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SSL_CONNECT_ERROR:
        return true;
    default:
        return false;
    }
}

/* Sets up one attempt's common state and sends it: the Range header (NULL: none). */
static CURLcode send_request(blvl__conn *c, const char *range, uint64_t left) {
    curl_easy_setopt(c->curl, CURLOPT_RANGE, range);
    curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS, left == UINT64_MAX ? 0L : (long)left);
    blvl__http_head_reset(&c->head);
    c->head_checked = false;
    c->resp_ok = false;
    c->stalled = false;
    c->slow = false;
    c->last_move_ns = now_ns();
    c->period_ns = c->last_move_ns;
    c->period_bytes = 0;
    c->nloc = 0;
    c->loc_loop = false;
    c->loc_text[0] = c->loc_scheme[0] = '\0';
    c->curl_err[0] = 0;
    c->stats.requests++;
    return perform(c);
}

/* After an attempt that did not bring its bytes: BLVL_OK when it may be retried (`why` says
 * what happened, *timeout whether it was a time-out), else the refusal. */
static blvl_status failed_attempt(blvl__conn *c, CURLcode rc, long status, char *why,
                                  size_t why_len, bool *timeout, blvl_error *err) {
    *timeout = false;
    /* A refused redirect: curl stops on it, and its status (302...) is not the reason. */
    if (rc == CURLE_TOO_MANY_REDIRECTS) {
        if (c->loc_loop)
            return blvl__fail(err, BLVL_E_HTTP,
                              "redirect refused: a loop (Location %s again) from %s", c->loc_text,
                              c->url);
        return blvl__fail(err, BLVL_E_HTTP, "redirect refused: more than %d redirects from %s",
                          REDIRECTS_MAX, c->url);
    }
    if (rc == CURLE_UNSUPPORTED_PROTOCOL && c->nloc > 0)
        return blvl__fail(err, BLVL_E_HTTP, "redirect refused: %s scheme (Location %s) from %s",
                          c->loc_scheme[0] ? c->loc_scheme : "unknown", c->loc_text, c->url);
    if (status != 0 && status != 200 && status != 206) {
        if (status != 408 && status != 429 && status < 500)
            return blvl__fail(err, BLVL_E_HTTP, "HTTP %ld from %s", status, c->url);
        snprintf(why, why_len, "HTTP %ld", status);
    } else if (c->stalled) {
        *timeout = true;
        snprintf(why, why_len, "no byte for %u ms", c->stall_ms);
    } else if (c->slow) {
        *timeout = true;
        snprintf(why, why_len, "under the minimum speed of %u bytes a second for %u ms",
                 c->speed_limit, c->speed_ms);
    } else if (rc == CURLE_OPERATION_TIMEDOUT) {
        if (remaining_ms(c) == 0)
            return blvl__fail(err, BLVL_E_HTTP_TIMEOUT, "%s: the total time-out of %u ms passed",
                              c->url, c->total_ms);
        *timeout = true;
        snprintf(why, why_len, "%s", c->curl_err[0] ? c->curl_err : "timed out");
    } else if (transient_curl(rc)) {
        snprintf(why, why_len, "%s", c->curl_err[0] ? c->curl_err : curl_easy_strerror(rc));
    } else {
        return blvl__fail(err, BLVL_E_HTTP, "%s: %s", c->url,
                          c->curl_err[0] ? c->curl_err : curl_easy_strerror(rc));
    }
    return BLVL_OK;
}

uint64_t blvl__http_conn_retry_pause_ms(uint32_t first_ms, unsigned attempt) {
    uint64_t cap = first_ms > RETRY_PAUSE_MAX_MS ? first_ms : RETRY_PAUSE_MAX_MS;
    uint64_t pause = first_ms;
    for (unsigned i = 0; i < attempt && pause < cap; i++)
        pause *= 2;
    return pause < cap ? pause : cap;
}

uint64_t blvl__http_conn_budget_ms(const blvl_http_options *http) {
    blvl_http_options h = {0};
    if (http)
        h = *http;
    unsigned retries = h.retries == BLVL_HTTP_NO_RETRY ? 0
                       : h.retries                     ? h.retries
                                                       : RETRIES_DEFAULT;
    uint32_t first = h.retry_delay_ms ? h.retry_delay_ms : RETRY_DELAY_MS_DEFAULT;
    if (h.speed_limit == BLVL_HTTP_NO_SPEED_LIMIT)
        return UINT64_MAX; /* a server that trickles is never given up on */
    uint64_t attempt = h.stall_timeout_ms ? h.stall_timeout_ms : STALL_MS_DEFAULT;
    uint64_t speed = h.speed_time_ms ? h.speed_time_ms : SPEED_MS_DEFAULT;
    if (speed < attempt)
        attempt = speed;
    uint64_t total = 0;
    for (unsigned i = 0; i <= retries; i++) {
        total += attempt + POLL_MS;
        if (i < retries)
            total += blvl__http_conn_retry_pause_ms(first, i);
    }
    return total;
}

/* Before retry number attempt + 1: the error when retries are spent, else the pause (doubling
 * up to RETRY_PAUSE_MAX_MS, cut to the total time left). */
static blvl_status back_off(blvl__conn *c, unsigned attempt, const char *why, bool timeout,
                            blvl_error *err) {
    if (attempt >= c->retries)
        return blvl__fail(err, timeout ? BLVL_E_HTTP_TIMEOUT : BLVL_E_HTTP,
                          "%s: %s (after %u retries)", c->url, why, attempt);
    uint64_t pause = blvl__http_conn_retry_pause_ms(c->retry_delay_ms, attempt);
    uint64_t left = remaining_ms(c);
    if (left != UINT64_MAX && pause > left)
        pause = left;
    sleep_ms(pause);
    c->stats.retries++;
    return BLVL_OK;
}

/* The answer's status: from our header parser, else from libcurl (a transfer that failed before
 * a status line was read gives 0). */
static long response_status(blvl__conn *c) {
    long status = c->head.status;
    if (!status)
        curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
    return status;
}
blvl_status blvl__http_conn_get(blvl__conn *c, uint64_t start, uint64_t end, bool allow_whole,
                                blvl__conn_sink sink, void *user, bool *whole, blvl_error *err) {
    c->req_start = start;
    c->req_end = end;
    c->next = start;
    c->allow_whole = allow_whole;
    c->sink = sink;
    c->sink_user = user;
    c->refused = false;
    bool got_whole = false;
    for (unsigned attempt = 0;; attempt++) {
        uint64_t left = remaining_ms(c);
        if (left == 0)
            return blvl__fail(err, BLVL_E_HTTP_TIMEOUT, "%s: the total time-out of %u ms passed",
                              c->url, c->total_ms);
        char range[64];
        const char *r = NULL;
        if (c->next != 0 || c->req_end != UINT64_MAX) {
            if (c->req_end == UINT64_MAX)
                snprintf(range, sizeof range, "%llu-", (unsigned long long)c->next);
            else
                snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)c->next,
                         (unsigned long long)(c->req_end - 1));
            r = range;
        }
        CURLcode rc = send_request(c, r, left);
        if (!c->head_checked && rc == CURLE_OK)
            check_head(c);
        if (c->refused) {
            if (err)
                *err = c->refusal;
            return c->refusal.code;
        }
        if (c->resp_ok && c->resp_whole)
            got_whole = true;
        long status = response_status(c);
        bool timeout = false;
        char why[CURL_ERROR_SIZE + 64];
        if (rc == CURLE_OK && c->resp_ok) {
            uint64_t target = c->req_end;
            if (c->size_known && (target == UINT64_MAX || target > c->size))
                target = c->size;
            if (target == UINT64_MAX) { /* a whole file of unknown size, ended cleanly */
                c->size = c->next;
                c->size_known = true;
                target = c->next;
            }
            if (c->next >= target) {
                if (whole)
                    *whole = got_whole;
                blvl__ok(err);
                return BLVL_OK;
            }
            snprintf(why, sizeof why, "the response ended after %llu of %llu bytes",
                     (unsigned long long)(c->next - start), (unsigned long long)(target - start));
        } else {
            blvl_status st = failed_attempt(c, rc, status, why, sizeof why, &timeout, err);
            if (st != BLVL_OK)
                return st;
        }
        blvl_status st = back_off(c, attempt, why, timeout, err);
        if (st != BLVL_OK)
            return st;
        if (c->next > start)
            c->stats.resumes++;
    }
}

static size_t spans_left(const blvl__span *s, size_t n, uint64_t *got) {
    size_t left = 0;
    *got = 0;
    for (size_t k = 0; k < n; k++) {
        left += s[k].got < s[k].end - s[k].start;
        *got += s[k].got;
    }
    return left;
}

blvl_status blvl__http_conn_get_spans(blvl__conn *c, blvl__span *s, size_t n, blvl__conn_sink sink,
                                      void *user, blvl_error *err) {
    unsigned attempt = 0;
    for (;;) {
        uint64_t before;
        size_t left = spans_left(s, n, &before);
        if (left == 0) {
            blvl__ok(err);
            return BLVL_OK;
        }
        if (c->one_range || left == 1) {
            /* One range per request: each with its own retries, from what did not arrive. */
            for (size_t k = 0; k < n; k++) {
                if (s[k].got >= s[k].end - s[k].start)
                    continue;
                blvl_status st = blvl__http_conn_get(c, s[k].start + s[k].got, s[k].end, false,
                                                     sink, user, NULL, err);
                if (st != BLVL_OK)
                    return st;
                s[k].got = s[k].end - s[k].start;
            }
            continue;
        }
        char range[RANGE_HEADER_MAX + 1];
        uint64_t ms = remaining_ms(c);
        if (ms == 0)
            return blvl__fail(err, BLVL_E_HTTP_TIMEOUT, "%s: the total time-out of %u ms passed",
                              c->url, c->total_ms);
        blvl__http_spans_ask(s, n, RANGES_PER_REQUEST, range, sizeof range);
        c->in_multi = true;
        c->multi_200 = false;
        c->mp_on = false;
        c->spans = s;
        c->nspans = n;
        c->sink = sink;
        c->sink_user = user;
        c->refused = false;
        c->req_start = 0;
        c->req_end = UINT64_MAX;
        CURLcode rc = send_request(c, range, ms);
        if (!c->head_checked && rc == CURLE_OK && !c->multi_200)
            check_head(c);
        c->in_multi = false;
        if (c->refused) {
            if (err)
                *err = c->refusal;
            return c->refusal.code;
        }
        if (c->multi_200) {
            /* Many CDNs and object stores answer several ranges with the whole file: that
             * transfer was stopped at its headers; one range per request from now on. */
            c->one_range = true;
            continue;
        }
        uint64_t after;
        spans_left(s, n, &after);
        long status = response_status(c);
        bool timeout = false;
        char why[CURL_ERROR_SIZE + 64];
        if (rc == CURLE_OK && c->resp_ok) {
            if (c->mp_on) {
                blvl_error e = {0};
                if (blvl__http_multipart_finish(&c->mp, &e) != BLVL_OK)
                    return blvl__fail(err, e.code, "%s from %s", blvl__error_text(&e), c->url);
            }
            /* A whole answer; ranges it did not cover are asked again, as long as each
             * answer brings something. */
            if (after > before)
                continue;
            snprintf(why, sizeof why, "the answer held none of the ranges asked");
        } else {
            blvl_status st = failed_attempt(c, rc, status, why, sizeof why, &timeout, err);
            if (st != BLVL_OK)
                return st;
        }
        blvl_status st = back_off(c, attempt++, why, timeout, err);
        if (st != BLVL_OK)
            return st;
        if (after > before)
            c->stats.resumes++; /* the retry asks only for what did not arrive whole */
    }
}

bool blvl__http_conn_size(const blvl__conn *c, uint64_t *size) {
    *size = c->size_known ? c->size : 0;
    return c->size_known;
}

const char *blvl__http_conn_url(const blvl__conn *c) {
    return c->url;
}

blvl_http_stats *blvl__http_conn_stats(blvl__conn *c) {
    return &c->stats;
}

const blvl_allocator *blvl__http_conn_allocator(const blvl__conn *c) {
    return &c->a;
}
