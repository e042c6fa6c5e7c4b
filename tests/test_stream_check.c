/* The streaming reader's per-section check hook (blvl_stream_set_check) and the sections
 * layer's FlatBuffers check on it (blvl_sections_stream_check), on levels built from the
 * sample sections; and a refused stream repeating its first refusal (docs/STREAMING.md). */
#include <stdlib.h>
#include <string.h>

#include "blvl/sections.h"
#include "check.h"
#include "files.h"

typedef struct seen {
    int n;
    char tag[8][BLVL_TAG_MAX + 1];
    int kind[8];
    blvl_status status[8];
    char message[8][256];
} seen;

static int on_event(void *user, const blvl_stream_event *ev) {
    seen *g = user;
    if ((ev->kind == BLVL_EV_SECTION || ev->kind == BLVL_EV_SECTION_BAD) && g->n < 8) {
        snprintf(g->tag[g->n], sizeof g->tag[0], "%s", ev->entry->tag);
        g->kind[g->n] = ev->kind;
        g->status[g->n] = ev->status;
        snprintf(g->message[g->n], sizeof g->message[0], "%s", ev->message ? ev->message : "");
        g->n++;
    }
    return 0;
}

static const seen *find(const seen *g, const char *tag, int *i) {
    for (*i = 0; *i < g->n; (*i)++)
        if (strcmp(g->tag[*i], tag) == 0)
            return g;
    return NULL;
}

/* A section's FlatBuffer from the sample JSON. */
static uint8_t *sample(const char *tag, size_t *size) {
    const char *src = getenv("BLVL_SRC");
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/sections/%s.json", src ? src : ".", tag);
    size_t n;
    uint8_t *json = test_slurp(path, &n);
    void *fb = NULL;
    blvl_error err;
    if (!json || blvl_section_from_json(&fb, size, tag, (const char *)json, n, NULL, &err)) {
        fprintf(stderr, "sample %s: %s\n", tag, json ? err.message : "unreadable");
        exit(1);
    }
    free(json);
    return fb;
}

typedef struct hook_log {
    int calls;
    size_t size;
    blvl_status answer;
} hook_log;

static blvl_status hook(void *user, const blvl_entry *e, const uint8_t *data, size_t size,
                        blvl_error *err) {
    hook_log *h = user;
    h->calls++;
    h->size = size;
    (void)data;
    if (h->answer == BLVL_OK)
        return BLVL_OK;
    snprintf(err->message, sizeof err->message, "game-rule: %s is not what the game wants", e->tag);
    err->code = h->answer;
    return h->answer;
}

/* Streams `b` in pieces of 7 bytes, wanting `want` (NULL-terminated). */
static blvl_status run(const uint8_t *b, size_t n, const char *const *want, int sections_check,
                       hook_log *h, seen *g, blvl_error *err) {
    memset(g, 0, sizeof *g);
    blvl_stream *s;
    blvl_status st = blvl_stream_new(&s, on_event, g, NULL, err);
    for (; st == BLVL_OK && *want; want++)
        st = blvl_stream_want(s, *want, err);
    if (st == BLVL_OK && sections_check)
        st = blvl_sections_stream_check(s, err);
    if (st == BLVL_OK && h)
        st = blvl_stream_set_check(s, hook, h, err);
    for (size_t at = 0; st == BLVL_OK && at < n; at += 7)
        st = blvl_stream_feed(s, b + at, n - at < 7 ? n - at : 7, err);
    if (st == BLVL_OK)
        st = blvl_stream_finish(s, err);
    blvl_stream_free(s);
    return st;
}

int main(void) {
    size_t nmeta, nsim, ngeo;
    uint8_t *meta = sample("meta", &nmeta), *sim = sample("sim", &nsim),
            *geo = sample("geometry", &ngeo);
    static const uint8_t six[6] = {'g', 'a', 'r', 'b', 'a', 'g'};
    blvl_section_in good[] = {{"meta", 0, 0, meta, nmeta},
                              {"sim", 0, 0, sim, nsim},
                              {"geometry", 0, 0, geo, ngeo},
                              {"eds.x", 0, 0, six, sizeof six}};
    blvl_section_in bad[] = {{"meta", 0, 0, meta, nmeta},
                             {"sim", 3, 0, sim, nsim},
                             {"geometry", 0, 0, six, sizeof six},
                             {"eds.x", 0, 0, six, sizeof six},
                             {"cameras", 9, 0, six, sizeof six}};
    void *lg, *lb;
    size_t ng, nb;
    blvl_error err;
    CHECK_EQ_INT(blvl_write_memory(&lg, &ng, good, 4, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_write_memory(&lb, &nb, bad, 5, NULL, &err), BLVL_OK);
    const char *const all[] = {"meta", "sim", "geometry", "eds.x", "cameras", NULL};
    seen g;
    int i;

    /* without the check, six bytes of garbage are an ok geometry (the container's view) */
    CHECK_EQ_INT(run(lb, nb, all, 0, NULL, &g, &err), BLVL_OK);
    CHECK(find(&g, "geometry", &i) && g.kind[i] == BLVL_EV_SECTION);

    /* with it: geometry flatbuffer, sim section-version; the game section and the optional
     * core section of an unknown version pass */
    CHECK_EQ_INT(run(lb, nb, all, 1, NULL, &g, &err), BLVL_OK);
    CHECK_EQ_INT(g.n, 5);
    CHECK(find(&g, "geometry", &i) && g.kind[i] == BLVL_EV_SECTION_BAD &&
          g.status[i] == BLVL_E_FLATBUFFER &&
          strncmp(g.message[i], "flatbuffer: section geometry: ", 30) == 0);
    CHECK(find(&g, "sim", &i) && g.kind[i] == BLVL_EV_SECTION_BAD &&
          g.status[i] == BLVL_E_SECTION_VERSION && strstr(g.message[i], "section-version: sim"));
    CHECK(find(&g, "eds.x", &i) && g.kind[i] == BLVL_EV_SECTION);
    CHECK(find(&g, "cameras", &i) && g.kind[i] == BLVL_EV_SECTION);
    CHECK(find(&g, "meta", &i) && g.kind[i] == BLVL_EV_SECTION);
    /* the same message verify gives for the same bytes in a level */
    blvl_level *lv;
    CHECK_EQ_INT(blvl_open_memory(&lv, lb, nb, NULL, &err), BLVL_OK);
    blvl_bytes sec;
    const uint8_t *root;
    CHECK_EQ_INT(blvl_level_section(lv, "geometry", &sec, &root, &err), BLVL_E_FLATBUFFER);
    CHECK(find(&g, "geometry", &i) && strcmp(err.message, g.message[i]) == 0);
    blvl_close(lv);

    /* only wanted sections are checked */
    const char *const justmeta[] = {"meta", NULL};
    CHECK_EQ_INT(run(lb, nb, justmeta, 1, NULL, &g, &err), BLVL_OK);
    CHECK(find(&g, "geometry", &i) && g.kind[i] == BLVL_EV_SECTION);

    /* a good level passes the check */
    CHECK_EQ_INT(run(lg, ng, all, 1, NULL, &g, &err), BLVL_OK);
    for (int k = 0; k < g.n; k++)
        CHECK_EQ_INT(g.kind[k], BLVL_EV_SECTION);

    /* a caller's own hook: sees each wanted section's inflated bytes, and its status and
     * message become the event's */
    hook_log h = {0, 0, BLVL_OK};
    CHECK_EQ_INT(run(lg, ng, justmeta, 0, &h, &g, &err), BLVL_OK);
    CHECK_EQ_INT(h.calls, 1);
    CHECK_EQ_INT(h.size, nmeta);
    h = (hook_log){0, 0, BLVL_E_ARGUMENT};
    const char *const x[] = {"eds.x", NULL};
    CHECK_EQ_INT(run(lg, ng, x, 0, &h, &g, &err), BLVL_OK);
    CHECK(find(&g, "eds.x", &i) && g.kind[i] == BLVL_EV_SECTION_BAD &&
          g.status[i] == BLVL_E_ARGUMENT &&
          strcmp(g.message[i], "game-rule: eds.x is not what "
                               "the game wants") == 0);
    CHECK(find(&g, "meta", &i) && g.kind[i] == BLVL_EV_SECTION); /* not wanted: not checked */

    /* the hook is set before the table only */
    blvl_stream *s;
    CHECK_EQ_INT(blvl_stream_new(&s, on_event, &g, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_stream_feed(s, lg, 4096, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_sections_stream_check(s, &err), BLVL_E_STREAM_STATE);
    blvl_stream_free(s);

    /* a refusal is repeated by every later call: feed, then finish */
    uint8_t *t = malloc(ng);
    memcpy(t, lg, ng);
    t[64 + 48] ^= 1; /* the first entry's section digest: table-digest */
    CHECK_EQ_INT(blvl_stream_new(&s, on_event, &g, NULL, &err), BLVL_OK);
    blvl_status st = blvl_stream_feed(s, t, ng, &err);
    CHECK_EQ_INT(st, BLVL_E_TABLE_DIGEST);
    blvl_error again;
    CHECK_EQ_INT(blvl_stream_finish(s, &again), BLVL_E_TABLE_DIGEST);
    CHECK(strcmp(again.message, err.message) == 0);
    CHECK(strncmp(again.message, "table-digest: ", 14) == 0);
    CHECK_EQ_INT(blvl_stream_feed(s, t, 1, &again), BLVL_E_TABLE_DIGEST);
    blvl_stream_free(s);
    /* a refusal at finish (truncated) is repeated too */
    CHECK_EQ_INT(blvl_stream_new(&s, on_event, &g, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_stream_feed(s, lg, 100, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_stream_finish(s, &err), BLVL_E_TRUNCATED);
    CHECK_EQ_INT(blvl_stream_finish(s, &again), BLVL_E_TRUNCATED);
    CHECK(strcmp(again.message, err.message) == 0);
    CHECK_EQ_INT(blvl_stream_feed(s, lg, 1, &again), BLVL_E_TRUNCATED);
    blvl_stream_free(s);
    /* after a successful finish, more bytes are a state error */
    CHECK_EQ_INT(run(lg, ng, justmeta, 1, NULL, &g, &err), BLVL_OK);

    free(t);
    blvl_free(NULL, lg);
    blvl_free(NULL, lb);
    blvl_free(NULL, meta);
    blvl_free(NULL, sim);
    blvl_free(NULL, geo);
    return check_report("test_stream_check");
}
