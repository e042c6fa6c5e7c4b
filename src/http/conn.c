/* One libcurl easy handle per level: requests go out one at a time on one kept-alive
 * connection. Every response is checked against what the first one said (size, ETag,
 * Last-Modified) before a body byte is handed on; body bytes are counted against the cap and
 * delivered in file order exactly once, so a cut transfer is resumed from its last byte. */
#include "http/conn.h"

#include <curl/curl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/alloc.h"
#include "common/error.h"

#define CONNECT_MS_DEFAULT 10000u
#define STALL_MS_DEFAULT 30000u
#define RETRIES_DEFAULT 4u
#define RETRY_DELAY_MS_DEFAULT 100u
#define POLL_MS 50 /* how often a quiet transfer is checked for a stall */

struct blvl__conn {
    CURL *curl;
    CURLM *multi; /* drives curl so that stalls are noticed within POLL_MS */
    blvl_allocator a;
    char *url;
    uint32_t connect_ms, stall_ms, total_ms, retry_delay_ms;
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
    bool refused, stalled;
    blvl_error refusal;
    uint64_t last_move_ns; /* when the last header or body byte came */
    char curl_err[CURL_ERROR_SIZE];
};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int blvl__conn_refuse_err(blvl__conn *c, const blvl_error *e) {
    if (!c->refused) {
        c->refused = true;
        c->refusal = *e;
    }
    return 1;
}

int blvl__conn_refuse(blvl__conn *c, blvl_status code, const char *fmt, ...) {
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
        return blvl__conn_refuse(c, BLVL_E_HTTP, "malformed %s header from %s", h->bad_what,
                                 c->url);
    bool ranged = c->next > 0 || c->req_end != UINT64_MAX;
    uint64_t total = 0;
    bool total_known = false;
    if (status == 206) {
        if (!h->has_range || !h->total_known)
            return blvl__conn_refuse(c, BLVL_E_HTTP,
                                     "206 without a Content-Range giving the size from %s", c->url);
        total = h->range_total;
        total_known = true;
        uint64_t want_last = (c->req_end < total ? c->req_end : total) - 1;
        if (h->range_first != c->next || h->range_last != want_last)
            return blvl__conn_refuse(c, BLVL_E_HTTP, "asked for bytes %llu-%llu, %s sent %llu-%llu",
                                     (unsigned long long)c->next, (unsigned long long)want_last,
                                     c->url, (unsigned long long)h->range_first,
                                     (unsigned long long)h->range_last);
        c->pos = h->range_first;
        c->last_byte = h->range_last;
        c->resp_whole = false;
    } else {
        if (ranged && !c->allow_whole)
            return blvl__conn_refuse(c, BLVL_E_HTTP,
                                     "%s answered 200 to a range request after honouring ranges",
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
            return blvl__conn_refuse(c, BLVL_E_HTTP_CHANGED,
                                     "the size of %s changed from %llu to %llu bytes", c->url,
                                     (unsigned long long)c->size, (unsigned long long)total);
        if (strcmp(h->etag, c->etag) != 0)
            return blvl__conn_refuse(c, BLVL_E_HTTP_CHANGED,
                                     "the ETag of %s changed from '%s' to '%s'", c->url, c->etag,
                                     h->etag);
        if (strcmp(h->last_modified, c->last_modified) != 0)
            return blvl__conn_refuse(c, BLVL_E_HTTP_CHANGED,
                                     "the Last-Modified of %s changed from '%s' to '%s'", c->url,
                                     c->last_modified, h->last_modified);
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

static size_t on_header(char *buf, size_t size, size_t n, void *user) {
    blvl__conn *c = user;
    size_t len = size * n;
    c->last_move_ns = now_ns();
    if (len >= 5 && memcmp(buf, "HTTP/", 5) == 0)
        c->head_checked = false;
    blvl__http_head_line(&c->head, buf, len);
    return len;
}

static size_t on_body(char *data, size_t size, size_t n, void *user) {
    blvl__conn *c = user;
    size_t len = size * n;
    c->last_move_ns = now_ns();
    if (!c->head_checked && check_head(c) != 0)
        return 0;
    if (!c->resp_ok)
        return 0;
    c->stats.bytes_received += len;
    if (c->max_bytes && c->stats.bytes_received > c->max_bytes) {
        blvl__conn_refuse(c, BLVL_E_HTTP_LIMIT, "more than %llu bytes received from %s",
                          (unsigned long long)c->max_bytes, c->url);
        return 0;
    }
    uint64_t pos = c->pos;
    if (c->last_byte != UINT64_MAX && (len > c->last_byte + 1 - pos || pos > c->last_byte)) {
        blvl__conn_refuse(c, BLVL_E_HTTP, "%s sent more bytes than its headers announced", c->url);
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
        if (now_ns() - c->last_move_ns > (uint64_t)c->stall_ms * 1000000u) {
            c->stalled = true;
            rc = CURLE_ABORTED_BY_CALLBACK;
            break;
        }
        if (curl_multi_poll(c->multi, NULL, 0, POLL_MS, NULL) != CURLM_OK) {
            rc = CURLE_FAILED_INIT;
            break;
        }
    }
    curl_multi_remove_handle(c->multi, c->curl);
    return rc;
}

blvl_status blvl__conn_new(blvl__conn **out, const char *url, const blvl_options *opt,
                           const blvl_http_options *http, blvl_error *err) {
    *out = NULL;
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    blvl__conn *c = blvl__calloc(a, sizeof *c);
    if (!c)
        return blvl__fail(err, BLVL_E_NOMEM, "no memory for a connection");
    if (a)
        c->a = *a;
    c->url = blvl__strdup(&c->a, url);
    if (!c->url) {
        blvl__conn_free(c);
        return blvl__fail(err, BLVL_E_NOMEM, "no memory for a connection");
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
    c->progress = h.progress;
    c->progress_user = h.progress_user;
    c->t0_ns = now_ns();
    c->stats.ranges = true;
    c->curl = curl_easy_init();
    c->multi = curl_multi_init();
    if (!c->curl || !c->multi) {
        blvl__conn_free(c);
        return blvl__fail(err, BLVL_E_HTTP, "libcurl could not start");
    }
    CURL *k = c->curl;
    curl_easy_setopt(k, CURLOPT_URL, c->url);
    curl_easy_setopt(k, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(k, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(k, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(k, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(k, CURLOPT_MAXREDIRS, 5L);
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

void blvl__conn_free(blvl__conn *c) {
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

blvl_status blvl__conn_get(blvl__conn *c, uint64_t start, uint64_t end, bool allow_whole,
                           blvl__conn_sink sink, void *user, bool *whole, blvl_error *err) {
    c->req_start = start;
    c->req_end = end;
    c->next = start;
    c->allow_whole = allow_whole;
    c->sink = sink;
    c->sink_user = user;
    c->refused = false;
    uint64_t delay = c->retry_delay_ms;
    bool got_whole = false;
    for (unsigned attempt = 0;; attempt++) {
        uint64_t left = remaining_ms(c);
        if (left == 0)
            return blvl__fail(err, BLVL_E_HTTP_TIMEOUT, "%s: the total time-out of %u ms passed",
                              c->url, c->total_ms);
        char range[64];
        if (c->next == 0 && c->req_end == UINT64_MAX)
            curl_easy_setopt(c->curl, CURLOPT_RANGE, NULL);
        else {
            if (c->req_end == UINT64_MAX)
                snprintf(range, sizeof range, "%llu-", (unsigned long long)c->next);
            else
                snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)c->next,
                         (unsigned long long)(c->req_end - 1));
            curl_easy_setopt(c->curl, CURLOPT_RANGE, range);
        }
        curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS, left == UINT64_MAX ? 0L : (long)left);
        blvl__http_head_reset(&c->head);
        c->head_checked = false;
        c->resp_ok = false;
        c->stalled = false;
        c->last_move_ns = now_ns();
        c->curl_err[0] = 0;
        c->stats.requests++;
        CURLcode rc = perform(c);
        if (!c->head_checked && rc == CURLE_OK)
            check_head(c);
        if (c->refused) {
            if (err)
                *err = c->refusal;
            return c->refusal.code;
        }
        if (c->resp_ok && c->resp_whole)
            got_whole = true;
        long status = c->head.status;
        if (!status)
            curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
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
        } else if (status != 0 && status != 200 && status != 206) {
            if (status != 408 && status != 429 && status < 500)
                return blvl__fail(err, BLVL_E_HTTP, "HTTP %ld from %s", status, c->url);
            snprintf(why, sizeof why, "HTTP %ld", status);
        } else if (c->stalled) {
            timeout = true;
            snprintf(why, sizeof why, "no byte for %u ms", c->stall_ms);
        } else if (rc == CURLE_OPERATION_TIMEDOUT) {
            if (remaining_ms(c) == 0)
                return blvl__fail(err, BLVL_E_HTTP_TIMEOUT,
                                  "%s: the total time-out of %u ms passed", c->url, c->total_ms);
            timeout = true;
            snprintf(why, sizeof why, "%s", c->curl_err[0] ? c->curl_err : "timed out");
        } else if (transient_curl(rc)) {
            snprintf(why, sizeof why, "%s", c->curl_err[0] ? c->curl_err : curl_easy_strerror(rc));
        } else {
            return blvl__fail(err, BLVL_E_HTTP, "%s: %s", c->url,
                              c->curl_err[0] ? c->curl_err : curl_easy_strerror(rc));
        }
        if (attempt >= c->retries)
            return blvl__fail(err, timeout ? BLVL_E_HTTP_TIMEOUT : BLVL_E_HTTP,
                              "%s: %s (after %u retries)", c->url, why, attempt);
        uint64_t pause = delay;
        left = remaining_ms(c);
        if (left != UINT64_MAX && pause > left)
            pause = left;
        sleep_ms(pause);
        delay *= 2;
        c->stats.retries++;
        if (c->next > start)
            c->stats.resumes++;
    }
}

bool blvl__conn_size(const blvl__conn *c, uint64_t *size) {
    *size = c->size_known ? c->size : 0;
    return c->size_known;
}

const char *blvl__conn_url(const blvl__conn *c) {
    return c->url;
}

blvl_http_stats *blvl__conn_stats(blvl__conn *c) {
    return &c->stats;
}

const blvl_allocator *blvl__conn_allocator(const blvl__conn *c) {
    return &c->a;
}
