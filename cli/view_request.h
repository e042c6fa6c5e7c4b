/* The request parser of `blvl view`'s HTTP/1.1 server (docs/VIEW.md). Every byte comes from a
 * client we do not trust: the head is size-limited, every field bounds-checked, and anything
 * the fixed routes do not need (a body, folded headers, a method other than GET) is refused. */
#ifndef BLVL_CLI_VIEW_REQUEST_H
#define BLVL_CLI_VIEW_REQUEST_H

#include <stddef.h>

/* The most a request head (request line and headers, blank line included) may take. */
#define VIEW_HEAD_MAX 8192
#define VIEW_PATH_MAX 256
#define VIEW_QUERY_MAX 2048
#define VIEW_HOST_MAX 128
#define VIEW_HEADERS_MAX 64
#define VIEW_FETCH_SITE_MAX 32
/* The per-run token: 16 random bytes as 32 lowercase hex digits. */
#define VIEW_TOKEN_LEN 32

typedef enum view_parse {
    VIEW_PARSE_OK = 0,    /* a whole head, parsed */
    VIEW_PARSE_MORE,      /* no blank line yet and under VIEW_HEAD_MAX: read more */
    VIEW_PARSE_BAD,       /* 400: not an HTTP/1.x request head we accept */
    VIEW_PARSE_METHOD,    /* 405: a method other than GET */
    VIEW_PARSE_TOO_LARGE, /* 431: the head (or a field of it) is past its limit */
    VIEW_PARSE_VERSION    /* 505: not HTTP/1.0 or HTTP/1.1 */
} view_parse;

typedef struct view_request {
    char path[VIEW_PATH_MAX];   /* the target up to '?', as sent (never percent-decoded) */
    char query[VIEW_QUERY_MAX]; /* after '?', as sent ("" when none) */
    char host[VIEW_HOST_MAX];   /* the Host header ("" when none) */
    /* The Origin header: has_origin is set when one was sent; a value too long for `origin`
     * leaves it "" (it is then no origin this server has). */
    int has_origin;
    char origin[VIEW_HOST_MAX];
    /* The Sec-Fetch-Site header ("" when none; cut to fit, so a long one matches nothing). */
    char fetch_site[VIEW_FETCH_SITE_MAX];
    size_t head_size; /* bytes of the head, blank line included */
} view_request;

/* Parses the head at the start of buf[0..len). */
view_parse view_request_parse(const char *buf, size_t len, view_request *out);

/* The HTTP status line's code for a refusal (400, 405, 431, 505). */
int view_parse_status(view_parse p);

/* The value of `key` in a query string (a=b&c=d), percent- and '+'-decoded into out (NUL-
 * terminated, at most cap - 1 bytes; longer values are cut). Returns 1 when found, 0 when not;
 * a malformed escape is kept as it was. A decoded NUL (%00) is dropped; every other byte is
 * kept as sent: view_text_clean makes it fit to print. */
int view_query_get(const char *query, const char *key, char *out, size_t cap);

/* Makes the NUL-terminated `s` fit to print on a terminal, in place: what is kept is valid
 * UTF-8 with no control character. C0 (0x00-0x1f), DEL (0x7f) and C1 (U+0080-U+009F, sent as
 * the UTF-8 pairs C2 80..C2 9F) are removed, and so is every byte that is not part of a valid
 * UTF-8 sequence (overlong forms and surrogates included): a raw 0x80-0x9f, which a terminal
 * reading 8-bit text takes as C1 (0x9b is CSI), can only be such a byte. Returns the new
 * length. */
size_t view_text_clean(char *s);

/* Whether a request may reach a route that acts (prints on the server's stdout, runs the
 * verifier, hands out the level): its Origin, when sent, is this server's own
 * (http://127.0.0.1:PORT or http://localhost:PORT), its Sec-Fetch-Site, when sent, is
 * same-origin or none, and its query's `t` is `token` (compared in constant time). Returns
 * NULL when it may, else why not (for the 403's body). */
const char *view_guard(const view_request *rq, int port, const char *token);

#endif
