/* A level over HTTP, each section checked as it arrives: the streaming reader (blvl_stream)
 * fed by the HTTP layer (blvl_http_stream_feed). The table is checked before any payload
 * byte; a section's digest (and, with the level rules plugged in, its FlatBuffers verifier)
 * when its last byte lands, so a client can start using `sim` before `geometry` is in.
 *
 *   examples/stream_client URL
 *
 * Prints one line per event; exits 1 when the level is refused or a section is bad.
 * Build: cc stream_client.c $(pkg-config --cflags --libs blvl blvl-http) */
#include <stdio.h>

#include "blvl/http.h"
#include "blvl/sections.h"

static int on_event(void *user, const blvl_stream_event *ev) {
    int *bad = user;
    if (ev->kind == BLVL_EV_TABLE)
        printf("table: %u sections, checked at byte %llu\n", ev->count,
               (unsigned long long)ev->offset);
    else if (ev->kind == BLVL_EV_SECTION)
        printf("section %s: ok at byte %llu%s\n", ev->entry->tag, (unsigned long long)ev->offset,
               ev->data ? " (kept, level rules met)" : "");
    else if (ev->kind == BLVL_EV_SECTION_BAD)
        printf("section %s: bad: %s\n", ev->entry->tag, ev->message ? ev->message : ""), ++*bad;
    else
        printf("end at byte %llu\n", (unsigned long long)ev->offset);
    return 0; /* non-zero would stop the transfer */
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: stream_client URL\n");
        return 2;
    }
    int bad = 0;
    blvl_error err;
    blvl_stream *s = NULL;
    blvl_http_options http = {0};
    http.total_timeout_ms = 30000; /* a client gives up rather than hang */
    blvl_http_stats stats;
    blvl_status st = blvl_stream_new(&s, on_event, &bad, NULL, &err);
    if (st == BLVL_OK) /* keep sim and meta, with the level rules on them */
        st = blvl_stream_want(s, "meta", &err);
    if (st == BLVL_OK)
        st = blvl_stream_want(s, "sim", &err);
    if (st == BLVL_OK)
        st = blvl_sections_stream_check(s, &err);
    if (st == BLVL_OK)
        st = blvl_http_stream_feed(s, &stats, argv[1], &http, &err);
    blvl_stream_free(s);
    if (st != BLVL_OK) {
        fprintf(stderr, "stream_client: %s: %s\n", argv[1], err.message);
        return 1;
    }
    printf("%llu bytes in %u requests\n", (unsigned long long)stats.bytes_received, stats.requests);
    return bad ? 1 : 0;
}
