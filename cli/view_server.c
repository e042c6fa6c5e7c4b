/* `blvl view`'s server: the socket, the connection threads and the fixed routes. Requests are
 * hostile (cli/view_request.c parses them); a response never depends on a path the client
 * spelled beyond picking one of the routes below, so no file outside them can be named. */
#include "view_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blvl/export.h"
#include "blvl/http.h"
#include "blvl/sections.h"
#include "json/json_string.h"
#include "view_request.h"

#define IO_TIMEOUT_S 10      /* a client that sends or takes nothing for this long is dropped */
#define HEAD_DEADLINE_S 10   /* the whole request head must arrive within this */
#define FILE_MAX (16u << 20) /* the largest page asset served */
#define PIECE (256u << 10)   /* the events route feeds the verifier this much at a time */

/* ---- the routes ------------------------------------------------------------------------- */

typedef struct asset {
    const char *path; /* the route */
    int three;        /* 0: under web_dir, 1: under three_dir */
    const char *file; /* relative to that folder */
    const char *type;
} asset;

static const asset assets[] = {
    {"/", 0, "index.html", "text/html; charset=utf-8"},
    {"/view.js", 0, "view.js", "text/javascript; charset=utf-8"},
    {"/view.css", 0, "view.css", "text/css; charset=utf-8"},
    {"/fetch-glb.js", 0, "fetch-glb.js", "text/javascript; charset=utf-8"},
    {"/three/three.module.min.js", 1, "build/three.module.min.js",
     "text/javascript; charset=utf-8"},
    /* GLTFLoader imports "../utils/BufferGeometryUtils.js": the two keep their relative places */
    {"/three/loaders/GLTFLoader.js", 1, "examples/jsm/loaders/GLTFLoader.js",
     "text/javascript; charset=utf-8"},
    {"/three/utils/BufferGeometryUtils.js", 1, "examples/jsm/utils/BufferGeometryUtils.js",
     "text/javascript; charset=utf-8"},
};

/* ---- sending ---------------------------------------------------------------------------- */

static int send_all(int fd, const void *data, size_t n) {
    const char *p = data;
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static const char *reason(int code) {
    switch (code) {
    case 200:
        return "OK";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "HTTP Version Not Supported";
    }
}

/* The head of a response; `length` < 0: the body runs to the connection's close. */
static int send_head(int fd, int code, const char *type, long long length) {
    char h[512];
    int n = snprintf(h, sizeof h,
                     "HTTP/1.1 %d %s\r\nConnection: close\r\nCache-Control: no-store\r\n"
                     "X-Content-Type-Options: nosniff\r\n",
                     code, reason(code));
    if (type)
        n += snprintf(h + n, sizeof h - (size_t)n, "Content-Type: %s\r\n", type);
    if (length >= 0)
        n += snprintf(h + n, sizeof h - (size_t)n, "Content-Length: %lld\r\n", length);
    if (code == 405)
        n += snprintf(h + n, sizeof h - (size_t)n, "Allow: GET\r\n");
    n += snprintf(h + n, sizeof h - (size_t)n, "\r\n");
    return send_all(fd, h, (size_t)n);
}

static int send_error(int fd, int code) {
    char body[96];
    int n = snprintf(body, sizeof body, "%d %s\n", code, reason(code));
    if (send_head(fd, code, "text/plain; charset=utf-8", n) == 0)
        return send_all(fd, body, (size_t)n);
    return -1;
}

/* 403 with the reason in the body, for whoever reads it (curl, the browser's console). */
static int send_forbidden(int fd, const char *why) {
    char body[160];
    int n = snprintf(body, sizeof body, "403 Forbidden: %s\n", why);
    if (send_head(fd, 403, "text/plain; charset=utf-8", n) == 0)
        return send_all(fd, body, (size_t)n);
    return -1;
}

/* A file under `dir`, read whole (at most FILE_MAX). */
static int send_file(int fd, const char *dir, const char *file, const char *type) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path)
        return send_error(fd, 500);
    int in = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (in < 0)
        return send_error(fd, 404);
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)FILE_MAX) {
        close(in);
        return send_error(fd, 500);
    }
    size_t size = (size_t)st.st_size, got = 0;
    char *buf = malloc(size ? size : 1);
    while (buf && got < size) {
        ssize_t r = read(in, buf + got, size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(in);
    if (!buf || got != size) {
        free(buf);
        return send_error(fd, 500);
    }
    int rc = send_head(fd, 200, type, (long long)size) == 0 ? send_all(fd, buf, size) : -1;
    free(buf);
    return rc;
}

/* ---- /level/events: the level through the streaming reader ------------------------------- */

/* A JSON string cut to fit a fixed buffer: pieces are written while they fit (a run of
 * characters cut before the first UTF-8 sequence that does not), then nothing more. */
typedef struct fit {
    char *out;
    size_t room, o; /* room: what the pieces may fill */
    int full;
} fit;

static void fit_put(void *user, const char *s, size_t n) {
    fit *f = user;
    if (f->full)
        return;
    if (n > f->room - f->o) {
        f->full = 1;
        if (s[0] == '\\')
            return; /* an escape is whole or absent */
        n = f->room - f->o;
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--; /* s[n] continues a sequence: cut before its lead byte */
    }
    memcpy(f->out + f->o, s, n);
    f->o += n;
}

/* `s` as a JSON string into out (quoted, escaped by the library's one escaper, cut to fit). */
static void json_str(char *out, size_t cap, const char *s) {
    if (cap < 4)
        return;
    fit f = {out, cap - 2, 0, 0}; /* room for the closing quote of a cut string and the NUL */
    blvl__json_string(s, strlen(s), fit_put, &f);
    if (f.full)
        out[f.o++] = '"';
    out[f.o] = 0;
}

typedef struct events {
    int fd;
    int bad;
    int gone; /* the client went away: stop */
} events;

static int line(events *e, const char *text) {
    if (e->gone || send_all(e->fd, text, strlen(text)) != 0)
        e->gone = 1;
    return e->gone;
}

/* The `section` line of entry `en`: good when `error` is NULL. */
static int section_line(events *e, const blvl_entry *en, uint64_t offset, const char *error) {
    char l[1024], a[64], b[600];
    json_str(a, sizeof a, en->tag);
    if (error) {
        e->bad++;
        json_str(b, sizeof b, error);
    }
    snprintf(l, sizeof l,
             "{\"event\":\"section\",\"tag\":%s,\"ok\":%s,\"offset\":%llu,\"size\":%llu%s%s}\n", a,
             error ? "false" : "true", (unsigned long long)offset,
             (unsigned long long)en->packed_size, error ? ",\"error\":" : "", error ? b : "");
    return line(e, l);
}

static int table_line(events *e, uint32_t count, uint64_t offset) {
    char l[128];
    snprintf(l, sizeof l, "{\"event\":\"table\",\"count\":%u,\"offset\":%llu}\n", count,
             (unsigned long long)offset);
    return line(e, l);
}

static int on_event(void *user, const blvl_stream_event *ev) {
    events *e = user;
    char l[1024];
    switch (ev->kind) {
    case BLVL_EV_TABLE:
        return table_line(e, ev->count, ev->offset);
    case BLVL_EV_SECTION:
        return section_line(e, ev->entry, ev->offset, NULL);
    case BLVL_EV_SECTION_BAD:
        return section_line(e, ev->entry, ev->offset,
                            ev->message ? ev->message : blvl_status_name(ev->status));
    case BLVL_EV_END:
        snprintf(l, sizeof l, "{\"event\":\"end\",\"offset\":%llu}\n",
                 (unsigned long long)ev->offset);
        break;
    default:
        return 0;
    }
    return line(e, l);
}

static int by_offset(const void *x, const void *y) {
    const blvl_entry *a = *(const blvl_entry *const *)x, *b = *(const blvl_entry *const *)y;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* A level opened from a URL: verified through the source it was opened with (its connection
 * and cache), not by opening its name as a path. Its header, table, table digest and identity
 * were checked when it was opened; each section is then read in file order, as blvl verify
 * reads it (digest, chunk index, inflation), and a core section goes through its version rule
 * and FlatBuffers verifier (blvl_level_section), as the streaming check does for a file. */
static int send_events_level(int fd, const view_site *site) {
    events e = {fd, 0, 0};
    char l[1200], name[600];
    blvl_info in;
    blvl_get_info(site->level, &in);
    const blvl_entry **order = malloc((in.count ? in.count : 1) * sizeof *order);
    if (!order)
        return send_error(fd, 500);
    for (uint32_t i = 0; i < in.count; i++)
        order[i] = blvl_entry_at(site->level, i);
    qsort(order, in.count, sizeof *order, by_offset);
    if (send_head(fd, 200, "application/x-ndjson", -1) != 0) {
        free(order);
        return -1;
    }
    json_str(name, sizeof name, site->level_name);
    snprintf(l, sizeof l, "{\"event\":\"file\",\"name\":%s,\"size\":%llu,\"symbols\":%s}\n", name,
             (unsigned long long)in.file_size, site->symbols ? "true" : "false");
    line(&e, l);
    table_line(&e, in.count, in.table_offset + (uint64_t)in.count * BLVL_ENTRY_SIZE);
    for (uint32_t i = 0; i < in.count && !e.gone && !*site->stop; i++) {
        const blvl_entry *en = order[i];
        blvl_error err = {0};
        blvl_bytes b = {0};
        const uint8_t *root;
        blvl_status st = BLVL_E_NOT_FOUND;
        if (blvl_section_type(en->tag, NULL))
            st = blvl_level_section(site->level, en->tag, &b, &root, &err);
        if (st == BLVL_E_NOT_FOUND) /* a game section, or a core one dropped for its version */
            st = blvl_read(site->level, en->tag, &b, &err);
        blvl_bytes_free(&b);
        /* the offset where the section ends, as the streaming reader's events give it */
        section_line(&e, en, en->offset + en->packed_size,
                     st == BLVL_OK    ? NULL
                     : err.message[0] ? err.message
                                      : blvl_status_name(st));
        snprintf(l, sizeof l, "{\"event\":\"progress\",\"offset\":%llu}\n",
                 (unsigned long long)(en->offset + en->packed_size));
        line(&e, l);
    }
    free(order);
    if (!e.gone && !*site->stop) {
        snprintf(l, sizeof l, "{\"event\":\"end\",\"offset\":%llu}\n",
                 (unsigned long long)in.file_size);
        line(&e, l);
    }
    return e.gone ? -1 : 0;
}

static int send_events(int fd, const view_site *site) {
    if (blvl_is_url(site->level_path))
        return send_events_level(fd, site);
    events e = {fd, 0, 0};
    char l[1200], name[600], msg[600];
    int in = open(site->level_path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (in < 0 || fstat(in, &st) != 0) {
        if (in >= 0)
            close(in);
        return send_error(fd, 500);
    }
    if (send_head(fd, 200, "application/x-ndjson", -1) != 0) {
        close(in);
        return -1;
    }
    json_str(name, sizeof name, site->level_name);
    snprintf(l, sizeof l, "{\"event\":\"file\",\"name\":%s,\"size\":%llu,\"symbols\":%s}\n", name,
             (unsigned long long)st.st_size, site->symbols ? "true" : "false");
    line(&e, l);
    blvl_stream *s = NULL;
    blvl_error err = {0};
    uint8_t *buf = malloc(PIECE);
    blvl_status rc = buf ? blvl_stream_new(&s, on_event, &e, NULL, &err) : BLVL_E_NOMEM;
    if (rc == BLVL_OK)
        rc = blvl_sections_stream_check(s, &err);
    /* Each core section is wanted, so its FlatBuffers verifier runs too (what blvl verify
     * checks). */
    for (unsigned i = 0; rc == BLVL_OK && blvl_core_tag_at(i); i++)
        rc = blvl_stream_want(s, blvl_core_tag_at(i), &err);
    uint64_t done = 0;
    while (rc == BLVL_OK && !e.gone && !*site->stop) {
        ssize_t r = read(in, buf, PIECE);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = BLVL_E_IO;
            snprintf(err.message, sizeof err.message, "io: read failed: %s", strerror(errno));
            break;
        }
        if (r == 0) {
            rc = blvl_stream_finish(s, &err);
            break;
        }
        rc = blvl_stream_feed(s, buf, (size_t)r, &err);
        done += (uint64_t)r;
        snprintf(l, sizeof l, "{\"event\":\"progress\",\"offset\":%llu}\n",
                 (unsigned long long)done);
        line(&e, l);
    }
    if (rc != BLVL_OK && !e.gone) {
        json_str(msg, sizeof msg, err.message[0] ? err.message : blvl_status_name(rc));
        snprintf(l, sizeof l, "{\"event\":\"refused\",\"error\":%s}\n", msg);
        line(&e, l);
    }
    blvl_stream_free(s);
    free(buf);
    close(in);
    return e.gone ? -1 : 0;
}

/* ---- /level/level.glb --------------------------------------------------------------------- */

static void *export_main(void *arg) {
    view_site *site = arg;
    blvl_export_options xo = {0};
    xo.collision = true;
    xo.acoustics = true;
    xo.symbols = site->symbols;
    void *glb = NULL;
    size_t size = 0;
    blvl_error err = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (blvl_export_glb(&glb, &size, site->level, &xo, &err) != BLVL_OK)
        glb = NULL;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_mutex_lock(&site->lock);
    site->glb = glb;
    site->glb_size = size;
    site->glb_err = err;
    site->glb_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    site->glb_ready = 1;
    pthread_cond_broadcast(&site->done);
    pthread_mutex_unlock(&site->lock);
    flockfile(stdout);
    if (glb)
        printf("blvl view: exported the level to glTF (%zu bytes) in %.3f s\n", size,
               site->glb_seconds);
    else
        printf("blvl view: the export failed: %s\n", err.message);
    fflush(stdout);
    funlockfile(stdout);
    return NULL;
}

static pthread_t export_thread;

int view_start_export(view_site *site) {
    return pthread_create(&export_thread, NULL, export_main, site);
}

void view_site_finish(view_site *site) {
    pthread_join(export_thread, NULL);
    blvl_free(NULL, site->glb);
    site->glb = NULL;
}

static int send_glb(int fd, view_site *site) {
    pthread_mutex_lock(&site->lock);
    while (!site->glb_ready)
        pthread_cond_wait(&site->done, &site->lock);
    pthread_mutex_unlock(&site->lock);
    /* ready is set once and the buffer never changes after: read without the lock */
    if (!site->glb) {
        char body[600];
        int n = snprintf(body, sizeof body, "%s\n", site->glb_err.message);
        if (send_head(fd, 500, "text/plain; charset=utf-8", n) == 0)
            return send_all(fd, body, (size_t)n);
        return -1;
    }
    if (send_head(fd, 200, "model/gltf-binary", (long long)site->glb_size) != 0)
        return -1;
    return send_all(fd, site->glb, site->glb_size);
}

/* ---- /report: what the page says of itself ------------------------------------------------ */

static int report(int fd, const view_request *rq) {
    char kind[32], text[1024];
    view_query_get(rq->query, "kind", kind, sizeof kind);
    if (!view_query_get(rq->query, "text", text, sizeof text))
        text[0] = 0;
    view_text_clean(text); /* no byte a terminal would act on reaches stdout */
    if (strcmp(kind, "ready") == 0 || strcmp(kind, "error") == 0 || strcmp(kind, "note") == 0) {
        /* one line, flushed: the tests wait for these */
        flockfile(stdout);
        printf("view: page %s: %s\n", kind, text);
        fflush(stdout);
        funlockfile(stdout);
        return send_head(fd, 204, NULL, -1);
    }
    return send_error(fd, 400);
}

/* ---- a connection ------------------------------------------------------------------------ */

/* The Host header names this server (a page of another origin that resolves its own name to
 * 127.0.0.1 sends its own name: refused). */
static int host_ok(const view_site *site, const char *host) {
    char a[64], b[64];
    snprintf(a, sizeof a, "127.0.0.1:%d", site->port);
    snprintf(b, sizeof b, "localhost:%d", site->port);
    return strcmp(host, a) == 0 || strcmp(host, b) == 0;
}

static int serve(int fd, view_site *site) {
    char buf[VIEW_HEAD_MAX];
    size_t have = 0;
    view_request rq;
    view_parse p = VIEW_PARSE_MORE;
    time_t deadline = time(NULL) + HEAD_DEADLINE_S;
    while (p == VIEW_PARSE_MORE) {
        if (have == sizeof buf || time(NULL) > deadline)
            return -1; /* cannot happen for the first (the parser says TOO_LARGE); the second: slow
                        */
        ssize_t r = recv(fd, buf + have, sizeof buf - have, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        have += (size_t)r;
        p = view_request_parse(buf, have, &rq);
    }
    if (p != VIEW_PARSE_OK)
        return send_error(fd, view_parse_status(p));
    if (!host_ok(site, rq.host))
        return send_error(fd, 403);
    for (size_t i = 0; i < sizeof assets / sizeof *assets; i++)
        if (strcmp(rq.path, assets[i].path) == 0)
            return send_file(fd, assets[i].three ? site->three_dir : site->web_dir, assets[i].file,
                             assets[i].type);
    /* The routes that act (print, verify, hand out the level) answer only the page this run
     * served: its origin and its token (docs/VIEW.md, "Who may ask"). */
    int events = strcmp(rq.path, "/level/events") == 0;
    int glb = strcmp(rq.path, "/level/level.glb") == 0;
    int rep = strcmp(rq.path, "/report") == 0;
    const char *why = events || glb || rep ? view_guard(&rq, site->port, site->token) : NULL;
    if (why)
        return send_forbidden(fd, why);
    if (events)
        return send_events(fd, site);
    if (glb)
        return send_glb(fd, site);
    if (rep)
        return report(fd, &rq);
    if (strcmp(rq.path, "/favicon.ico") == 0)
        return send_head(fd, 204, NULL, -1);
    return send_error(fd, 404);
}

typedef struct conn {
    int fd;
    view_site *site;
} conn;

static void *conn_main(void *arg) {
    conn c = *(conn *)arg;
    free(arg);
    serve(c.fd, c.site);
    shutdown(c.fd, SHUT_WR);
    close(c.fd);
    pthread_mutex_lock(&c.site->lock);
    c.site->active--;
    pthread_mutex_unlock(&c.site->lock);
    return NULL;
}

int view_make_token(char out[VIEW_TOKEN_LEN + 1]) {
    unsigned char r[VIEW_TOKEN_LEN / 2];
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = getrandom(r + got, sizeof r - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof r; i++)
        snprintf(out + 2 * i, 3, "%02x", r[i]);
    return 0;
}

int view_listen(view_site *site, int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* never another interface */
    socklen_t al = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 64) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &al) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    site->port = ntohs(a.sin_port);
    return fd;
}

int view_serve(view_site *site, int listener) {
    while (!*site->stop) {
        struct pollfd pf = {listener, POLLIN, 0};
        int n = poll(&pf, 1, 200);
        if (n <= 0)
            continue; /* EINTR (Ctrl-C) or the periodic look at *stop */
        int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        struct timeval tv = {IO_TIMEOUT_S, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        pthread_mutex_lock(&site->lock);
        int busy = site->active >= VIEW_CONNECTIONS;
        if (!busy)
            site->active++;
        pthread_mutex_unlock(&site->lock);
        conn *c = busy ? NULL : malloc(sizeof *c);
        pthread_t t;
        pthread_attr_t at;
        int started = 0;
        if (c) {
            c->fd = fd;
            c->site = site;
            pthread_attr_init(&at);
            pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
            started = pthread_create(&t, &at, conn_main, c) == 0;
            pthread_attr_destroy(&at);
        }
        if (!started) {
            free(c);
            if (!busy) {
                pthread_mutex_lock(&site->lock);
                site->active--;
                pthread_mutex_unlock(&site->lock);
            }
            send_error(fd, 503);
            close(fd);
        }
    }
    close(listener);
    /* a connection ends within IO_TIMEOUT_S of its client going quiet; the events route
     * looks at *stop between pieces */
    for (int i = 0; i < (IO_TIMEOUT_S + 2) * 10; i++) {
        pthread_mutex_lock(&site->lock);
        int left = site->active;
        pthread_mutex_unlock(&site->lock);
        if (!left)
            return 0;
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return -1;
}
