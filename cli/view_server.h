/* `blvl view`'s local HTTP/1.1 server (docs/VIEW.md): bound to 127.0.0.1 only, GET only, a
 * fixed set of routes, one thread per connection (at most VIEW_CONNECTIONS at once), every
 * response closing its connection. */
#ifndef BLVL_CLI_VIEW_SERVER_H
#define BLVL_CLI_VIEW_SERVER_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/blvl.h"
#include "view_request.h"

struct blvl_symbols;

#define VIEW_CONNECTIONS 32

typedef struct view_site {
    const char *level_path; /* a file streamed through the verifier for /level/events; a URL
                               is verified through `level`, the source it was opened with */
    const char *level_name; /* what the page shows */
    const char *web_dir;    /* the page: index.html, view.js, view.css */
    const char *three_dir;  /* npm's three package (its build/ and examples/jsm/) */
    blvl_level *level;      /* open: the export reads it */
    const struct blvl_symbols *symbols;
    int port; /* the bound port (for the Host check) */
    /* The per-run token the routes that act want as `t` (docs/VIEW.md, "Who may ask"): 32
     * lowercase hex digits from view_make_token. */
    char token[VIEW_TOKEN_LEN + 1];
    volatile sig_atomic_t *stop;

    /* the .glb, made once by a thread started with the server; readers wait for it */
    pthread_mutex_t lock;
    pthread_cond_t done;
    int glb_ready;
    uint8_t *glb;
    size_t glb_size;
    blvl_error glb_err; /* when glb is NULL once ready */
    double glb_seconds; /* the export's wall time */

    int active; /* connections being served (under lock) */
} view_site;

/* 16 bytes of getrandom(2) as 32 lowercase hex digits and a NUL into out. Returns 0, or an
 * errno when the kernel gives no random bytes (the server must then not start). */
int view_make_token(char out[VIEW_TOKEN_LEN + 1]);

/* Binds 127.0.0.1:port (0 = any free port); site->port is then the bound one. Returns the
 * listening socket or -1 with errno set. */
int view_listen(view_site *site, int port);

/* Starts the export thread; returns 0 or an errno. */
int view_start_export(view_site *site);

/* Serves until *site->stop is set, then waits for the connections being served (at most a
 * few seconds). Returns 0, or -1 when they did not finish (the site must then not be freed). */
int view_serve(view_site *site, int listener);

/* Joins the export thread and frees the .glb. */
void view_site_finish(view_site *site);

#endif
