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
    size_t head_size;           /* bytes of the head, blank line included */
} view_request;

/* Parses the head at the start of buf[0..len). */
view_parse view_request_parse(const char *buf, size_t len, view_request *out);

/* The HTTP status line's code for a refusal (400, 405, 431, 505). */
int view_parse_status(view_parse p);

/* The value of `key` in a query string (a=b&c=d), percent- and '+'-decoded into out (NUL-
 * terminated, at most cap - 1 bytes; longer values are cut). Returns 1 when found, 0 when not;
 * a malformed escape is kept as it was. Bytes below 0x20 decode to '?'. */
int view_query_get(const char *query, const char *key, char *out, size_t cap);

#endif
