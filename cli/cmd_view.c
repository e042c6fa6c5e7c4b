/* blvl view [LEVEL] [--port N] [--symbols F.bsym]: the level in a browser page served from
 * 127.0.0.1 (docs/VIEW.md); the server is cli/view_server.c. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "blvl/symbols.h"
#include "cli.h"
#include "view_server.h"

/* Where the page and three.js are: the source and build folders of this build (CMake). */
#ifndef BLVL_SOURCE_DIR
#define BLVL_SOURCE_DIR "."
#endif
#ifndef BLVL_BUILD_DIR
#define BLVL_BUILD_DIR "build"
#endif
#define DEFAULT_LEVEL BLVL_BUILD_DIR "/default/sample.blvl"
#define DEFAULT_SYMBOLS BLVL_BUILD_DIR "/default/sample.bsym"

static const cli_help help = {
    "view", "[LEVEL] [--port N] [--symbols F.bsym]",
    "Serves a page that shows LEVEL with three.js at http://127.0.0.1:PORT/ (bound to 127.0.0.1\n"
    "only) and prints that URL with this run's token (?t=TOKEN), which the page needs: open\n"
    "that one; Ctrl-C stops it. LEVEL may be a file or an http:// or https:// URL. The page\n"
    "streams the level through the verifier (a progress bar, each section as it is checked),\n"
    "then draws its glTF export: a fly camera (WASD + mouse), the level's cameras, lightmapped\n"
    "or unlit shading, the colliders as an overlay, spawns, triggers and sites as markers, and\n"
    "a click on a surface shows its material, collider flags and source. docs/VIEW.md\n"
    "describes the page.\n"
    "Without LEVEL: the bundled default that `make run` bakes (" DEFAULT_LEVEL ").\n"
    "  --port N          the port (default 8765; 0 = any free one)\n"
    "  --symbols F.bsym  the level's symbols: the source of each surface and collider\n"
    "Exit status: 0 stopped by Ctrl-C, 1 the level or the port is refused, 2 usage error.\n"};

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig) {
    (void)sig;
    stop_flag = 1;
}

int blvl_cmd_view(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"port", required_argument, NULL, 'p'},
                                          {"symbols", required_argument, NULL, 's'},
                                          {NULL, 0, NULL, 0}};
    const char *sym = NULL;
    uint32_t port = 8765;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c == 'p') {
            if (cli_parse_u32(optarg, &port) != 0 || port > 65535)
                return cli_usage(&help, "--port wants a number 0..65535, not '%s'", optarg);
        } else if (c == 's') {
            sym = optarg;
        } else {
            return cli_getopt_error(&help, argc, argv);
        }
    }
    if (argc - optind > 1)
        return cli_usage(&help, "expects at most one LEVEL");
    const char *in = argc - optind == 1 ? argv[optind] : DEFAULT_LEVEL;
    if (argc - optind == 0) {
        if (access(in, R_OK) != 0)
            return cli_failf(in, BLVL_E_IO,
                             "no default level: `make run` bakes it (or name a LEVEL)");
        if (!sym && access(DEFAULT_SYMBOLS, R_OK) == 0)
            sym = DEFAULT_SYMBOLS;
    }
    blvl_level *lv;
    blvl_symbols *syms;
    int rc = cli_open_symbols(in, sym, &lv, &syms);
    if (rc != CLI_OK)
        return rc;
    const char *name = strrchr(in, '/');
    view_site site = {0};
    site.level_path = in;
    site.level_name = name && name[1] ? name + 1 : in;
    site.web_dir = BLVL_SOURCE_DIR "/web/view";
    site.three_dir = BLVL_BUILD_DIR "/three/node_modules/three";
    site.level = lv;
    site.symbols = syms;
    site.stop = &stop_flag;
    pthread_mutex_init(&site.lock, NULL);
    pthread_cond_init(&site.done, NULL);
    if (access(BLVL_BUILD_DIR "/three/node_modules/three/build/three.module.min.js", R_OK) != 0)
        fprintf(stderr, "blvl view: three.js is not installed in " BLVL_BUILD_DIR
                        "/three (make build runs scripts/three-js.sh): the page cannot draw\n");
    int e = view_make_token(site.token);
    if (e != 0) {
        rc = cli_failf("getrandom", BLVL_E_IO, "no random bytes for the page's token: %s",
                       strerror(e));
        goto out;
    }
    int fd = view_listen(&site, (int)port);
    if (fd < 0) {
        rc = cli_failf("127.0.0.1", BLVL_E_IO, "cannot listen on port %u: %s", port,
                       strerror(errno));
        goto out;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (view_start_export(&site) != 0) {
        close(fd);
        rc = cli_failf(in, BLVL_E_IO, "cannot start the export thread");
        goto out;
    }
    printf("blvl view: %s at http://127.0.0.1:%d/?t=%s (Ctrl-C stops)\n", site.level_name,
           site.port, site.token);
    fflush(stdout);
    if (view_serve(&site, fd) != 0) {
        /* a connection still runs: leave the level to the process's exit */
        fprintf(stderr, "blvl view: stopped (a connection did not finish)\n");
        return CLI_OK;
    }
    view_site_finish(&site);
    printf("blvl view: stopped\n");
out:
    pthread_cond_destroy(&site.done);
    pthread_mutex_destroy(&site.lock);
    blvl_symbols_free(syms);
    blvl_close(lv);
    return rc;
}
