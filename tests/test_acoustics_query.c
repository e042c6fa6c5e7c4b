/* The acoustics runtime query (blvl/acoustics.h, docs/ACOUSTICS.md "The runtime query") on graphs
 * built here, each with its answer worked out from the geometry:
 *
 * - a corridor of six probes with a door on its middle edge: length, straight line, the door,
 *   the listener's room;
 * - two routes between two points, one through a door: a door cost moves the route off it, an
 *   impassable door too, and with no other way there is no route;
 * - two components: no route, both probes found, and no walk (the door costs never asked);
 * - a shortcut of two hops around a detour against five hops on the straight line: the metric
 *   path wins;
 * - the nearest probe within the radius (the default and a smaller one), the grid against a
 *   brute-force search over random probes, and with a trace world the probe that sees the
 *   point beyond a wall preferred to the nearer one behind it;
 * - random graphs (len_m sometimes far below the probes' distance) against a plain Dijkstra
 *   written here: the same cost every time, the scratch reused; larger ones (components big
 *   enough for landmarks, some small ones), both ways alike or not (one-way edges, other
 *   lengths back), with doors charged, some impassable: the same cost and the same "no route";
 * - a U-shaped corridor beside a dead-end field near the goal: the walk stays on the corridor
 *   (landmarks), the field left unwalked;
 * - malformed sections refused, each with its rule; a level without the section, and one with. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/acoustics.h"
#include "blvl/sections.h"
#include "blvl/sections/acoustics_builder.h"
#include "check.h"

#define M 0.0254f
#define NOD BLVL_ACOUSTICS_NO_DOOR

typedef struct link {
    uint32_t a, b;
    uint16_t door;
    uint8_t narrow;
    float len_m; /* 0: the probes' distance */
} link;

typedef struct graph {
    uint32_t np, ne, nr;
    blvl_AcousticProbe probes[256];
    blvl_AcousticEdge edges[4096];
    float rt60[8];
} graph;

static float dist_qu(const float *a, const float *b) {
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* Probes at `pos`, rooms `room`, and every link both ways, grouped by the probe they leave. */
static void make_graph(graph *g, const float (*pos)[3], const uint16_t *room, uint32_t np,
                       const link *links, uint32_t nl, uint32_t nr) {
    memset(g, 0, sizeof *g);
    g->np = np;
    g->nr = nr;
    for (uint32_t p = 0; p < np; p++) {
        g->probes[p].position = (blvl_Vec3){pos[p][0], pos[p][1], pos[p][2]};
        g->probes[p].room = room ? room[p] : 0;
        g->probes[p].first_edge = g->ne;
        for (uint32_t l = 0; l < nl; l++) {
            uint32_t to;
            if (links[l].a == p)
                to = links[l].b;
            else if (links[l].b == p)
                to = links[l].a;
            else
                continue;
            float len = links[l].len_m > 0 ? links[l].len_m : dist_qu(pos[p], pos[to]) * M;
            g->edges[g->ne++] = (blvl_AcousticEdge){to, len, links[l].door, links[l].narrow, 0};
        }
    }
    for (uint32_t r = 0; r < nr; r++)
        g->rt60[r] = 0.5f + (float)r;
}

/* The section's bytes (the caller frees them). */
static void *section(const graph *g, size_t *size) {
    blvl_fb_builder *b;
    blvl_error err;
    if (blvl_fb_builder_new(&b, NULL, &err) != BLVL_OK)
        return NULL;
    blvl_fb_ref rooms[8];
    for (uint32_t r = 0; r < g->nr; r++) {
        blvl_AcousticRoom_start(b);
        blvl_AcousticRoom_add_rt60_s(b, g->rt60[r]);
        blvl_AcousticRoom_add_damping(b, 0.25f * (float)r);
        blvl_AcousticRoom_add_outdoor(b, r == 1);
        rooms[r] = blvl_AcousticRoom_end(b);
    }
    blvl_fb_ref rv = blvl_fb_create_ref_vector(b, rooms, g->nr);
    blvl_fb_ref pv = blvl_Acoustics_probes_create(b, g->probes, g->np);
    blvl_fb_ref ev = blvl_Acoustics_edges_create(b, g->edges, g->ne);
    blvl_Acoustics_start(b);
    blvl_Acoustics_add_probes(b, pv);
    blvl_Acoustics_add_edges(b, ev);
    blvl_Acoustics_add_rooms(b, rv);
    blvl_fb_ref root = blvl_Acoustics_end(b);
    const uint8_t *data;
    void *copy = NULL;
    if (blvl_Acoustics_finish(b, root, &data, size, &err) == BLVL_OK && (copy = malloc(*size)))
        memcpy(copy, data, *size);
    blvl_fb_builder_free(b);
    return copy;
}

static blvl_acoustics *open_graph(const graph *g, float radius) {
    size_t size = 0;
    void *bytes = section(g, &size);
    blvl_acoustics *ac = NULL;
    blvl_acoustics_options o = {0};
    o.radius = radius;
    blvl_error err;
    if (!bytes || blvl_acoustics_new_memory(&ac, bytes, size, &o, &err) != BLVL_OK) {
        fprintf(stderr, "open_graph: %s\n", bytes ? err.message : "no bytes");
        CHECK(0);
    }
    free(bytes);
    return ac;
}

static int near(double a, double b) {
    return fabs(a - b) <= 1e-4 * (fabs(b) > 1 ? fabs(b) : 1);
}

static blvl_acoustics_path path(const blvl_acoustics *ac, const float s[3], const float l[3],
                                const blvl_acoustics_query *q) {
    blvl_acoustics_path r;
    blvl_error err;
    blvl_status st = blvl_acoustics_path_find(ac, s, l, q, NULL, &r, &err);
    CHECK_EQ_INT(st, BLVL_OK);
    return r;
}

/* ---- a corridor with a door ------------------------------------------------------------- */

static void corridor(void) {
    float pos[6][3];
    uint16_t room[6];
    link links[5];
    for (uint32_t i = 0; i < 6; i++) {
        pos[i][0] = 100.0f * (float)i;
        pos[i][1] = 56;
        pos[i][2] = 0;
        room[i] = i < 3 ? 0 : 1;
        if (i < 5)
            links[i] = (link){i, i + 1, i == 2 ? 7 : NOD, 0, 0};
    }
    static graph g;
    make_graph(&g, (const float(*)[3])pos, room, 6, links, 5, 2);
    blvl_acoustics *ac = open_graph(&g, 0);
    if (!ac)
        return;
    uint32_t np, ne, nr;
    blvl_acoustics_counts(ac, &np, &ne, &nr);
    CHECK(np == 6 && ne == 10 && nr == 2);
    const float s[3] = {-20, 56, 30}, l[3] = {510, 56, 0};
    blvl_acoustics_path r = path(ac, s, l, NULL);
    CHECK(r.found);
    CHECK_EQ_INT(r.sound_probe, 0);
    CHECK_EQ_INT(r.listener_probe, 5);
    CHECK_EQ_INT(r.hops, 5);
    double legs = (sqrt(20.0 * 20 + 30 * 30) + 10) * M;
    CHECK(near(r.length_m, legs + 500 * M));
    CHECK(near(r.cost_m, r.length_m));
    CHECK(near(r.straight_m, sqrt(530.0 * 530 + 30 * 30) * M));
    CHECK_EQ_INT(r.door_count, 1);
    CHECK_EQ_INT(r.doors[0], 7);
    CHECK(!r.narrow);
    CHECK_EQ_INT(r.room.index, 1);
    CHECK(near(r.room.rt60_s, 1.5) && near(r.room.damping, 0.25) && r.room.outdoor);
    /* the other way: the same length, the listener now in room 0 */
    blvl_acoustics_path back = path(ac, l, s, NULL);
    CHECK(back.found && near(back.length_m, r.length_m) && back.room.index == 0);
    CHECK(!back.room.outdoor && near(back.room.rt60_s, 0.5));
    /* both near one probe: the straight line */
    const float a[3] = {290, 56, 0}, b[3] = {310, 56, 20};
    blvl_acoustics_path one = path(ac, a, b, NULL);
    CHECK(one.found && one.hops == 0 && near(one.length_m, one.straight_m));
    CHECK(one.sound_probe == 3 && one.listener_probe == 3);
    float p3[3];
    blvl_acoustics_room rm;
    CHECK(blvl_acoustics_probe(ac, 3, p3, &rm) && p3[0] == 300 && rm.index == 1);
    CHECK(!blvl_acoustics_probe(ac, 6, p3, &rm));
    /* a point not finite is an argument error; a scratch of another object too */
    const float bad[3] = {NAN, 0, 0};
    blvl_acoustics_path x;
    blvl_error err;
    CHECK_EQ_INT(blvl_acoustics_path_find(ac, bad, l, NULL, NULL, &x, &err), BLVL_E_ARGUMENT);
    blvl_acoustics *other = open_graph(&g, 0);
    blvl_acoustics_scratch *sc = NULL;
    CHECK(blvl_acoustics_scratch_new(&sc, other, &err) == BLVL_OK);
    CHECK_EQ_INT(blvl_acoustics_path_find(ac, s, l, NULL, sc, &x, &err), BLVL_E_ARGUMENT);
    CHECK(strstr(err.message, "argument: ") == err.message);
    blvl_acoustics_scratch_free(sc);
    blvl_acoustics_free(other);
    blvl_acoustics_free(ac);
}

/* ---- door costs ------------------------------------------------------------------------- */

typedef struct costs {
    uint16_t door;
    float cost;
    int calls;
} costs;

static float door_cost(void *user, uint16_t door) {
    costs *c = user;
    c->calls++;
    return door == c->door ? c->cost : 0;
}

/* A ring: 0 - 1 - 2 - 3 along x (door 5 between 1 and 2), and a detour 0 - 4 - 5 - 6 - 3 one
 * step aside in z. The straight way is 300 qu, the detour 100 + 300 + 100 = 500 qu. */
static void doors(void) {
    const float pos[7][3] = {{0, 0, 0},   {100, 0, 0},   {200, 0, 0},  {300, 0, 0},
                             {0, 0, 100}, {150, 0, 100}, {300, 0, 100}};
    const link links[7] = {{0, 1, NOD, 0, 0}, {1, 2, 5, 0, 0},   {2, 3, NOD, 0, 0},
                           {0, 4, NOD, 0, 0}, {4, 5, NOD, 1, 0}, {5, 6, NOD, 0, 0},
                           {6, 3, NOD, 0, 0}};
    static graph g;
    make_graph(&g, pos, NULL, 7, links, 7, 1);
    blvl_acoustics *ac = open_graph(&g, 0);
    if (!ac)
        return;
    const float s[3] = {0, 0, 0}, l[3] = {300, 0, 0};
    blvl_acoustics_path r = path(ac, s, l, NULL);
    CHECK(r.found && near(r.length_m, 300 * M) && r.door_count == 1 && r.doors[0] == 5);
    CHECK(!r.narrow && r.hops == 3);
    costs c = {5, 10.0f, 0};
    blvl_acoustics_query q = {NULL, NULL, door_cost, &c};
    r = path(ac, s, l, &q);
    CHECK(c.calls > 0);
    CHECK(r.found && near(r.length_m, 500 * M) && near(r.cost_m, 500 * M));
    CHECK(r.door_count == 0 && r.narrow && r.hops == 4);
    /* a cheap door keeps the short way, and its price is in the cost, not the length */
    c.cost = 1.0f;
    r = path(ac, s, l, &q);
    CHECK(r.found && near(r.length_m, 300 * M) && near(r.cost_m, 300 * M + 1) && r.door_count == 1);
    c.cost = INFINITY;
    r = path(ac, s, l, &q);
    CHECK(r.found && near(r.length_m, 500 * M) && r.door_count == 0);
    blvl_acoustics_free(ac);
    /* without the detour, an impassable door leaves no route */
    make_graph(&g, pos, NULL, 4, links, 3, 1);
    ac = open_graph(&g, 0);
    if (!ac)
        return;
    c.cost = -1.0f;
    r = path(ac, s, l, &q);
    CHECK(!r.found && r.sound_probe == 0 && r.listener_probe == 3 && r.length_m == 0);
    c.cost = 2.0f;
    r = path(ac, s, l, &q);
    CHECK(r.found && near(r.cost_m, 300 * M + 2));
    blvl_acoustics_free(ac);
}

/* ---- components and the metric ---------------------------------------------------------- */

static void components(void) {
    const float pos[4][3] = {{0, 0, 0}, {100, 0, 0}, {1000, 0, 0}, {1100, 0, 0}};
    const link links[2] = {{0, 1, 4, 0, 0}, {2, 3, 4, 0, 0}};
    static graph g;
    make_graph(&g, pos, NULL, 4, links, 2, 1);
    blvl_acoustics *ac = open_graph(&g, 0);
    if (!ac)
        return;
    const float s[3] = {0, 0, 0}, l[3] = {1100, 0, 0};
    blvl_acoustics_path r = path(ac, s, l, NULL);
    CHECK(!r.found && r.sound_probe == 0 && r.listener_probe == 3);
    CHECK(near(r.straight_m, 1100 * M) && r.room.index == 0);
    /* the components differ: answered without a walk, so no door on the sound's side is priced */
    costs c = {4, 1.0f, 0};
    blvl_acoustics_query q = {NULL, NULL, door_cost, &c};
    r = path(ac, s, l, &q);
    CHECK(!r.found && c.calls == 0);
    const float l1[3] = {100, 0, 0};
    c.calls = 0;
    r = path(ac, s, l1, &q);
    CHECK(r.found && c.calls == 1 && near(r.cost_m, 100 * M + 1));
    blvl_acoustics_free(ac);
}

/* A at x 0, B at x 1000: two hops over C (500, 0, 1000) are 2236 qu; five hops along x 1000. */
static void metric(void) {
    const float pos[7][3] = {{0, 0, 0},   {1000, 0, 0}, {500, 0, 1000}, {200, 0, 0},
                             {400, 0, 0}, {600, 0, 0},  {800, 0, 0}};
    const link links[7] = {{0, 2, NOD, 0, 0}, {2, 1, NOD, 0, 0}, {0, 3, NOD, 0, 0},
                           {3, 4, NOD, 0, 0}, {4, 5, NOD, 0, 0}, {5, 6, NOD, 0, 0},
                           {6, 1, NOD, 0, 0}};
    static graph g;
    make_graph(&g, pos, NULL, 7, links, 7, 1);
    blvl_acoustics *ac = open_graph(&g, 0);
    if (!ac)
        return;
    const float s[3] = {0, 0, 0}, l[3] = {1000, 0, 0};
    blvl_acoustics_path r = path(ac, s, l, NULL);
    CHECK(r.found && r.hops == 5 && near(r.length_m, 1000 * M));
    blvl_acoustics_free(ac);
}

/* ---- the nearest probe ------------------------------------------------------------------ */

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float rnd(uint32_t *s, float lo, float hi) {
    return lo + (hi - lo) * (float)(lcg(s) & 0xFFFF) / 65535.0f;
}

static void nearest(void) {
    static graph g;
    const float one[1][3] = {{0, 50, 0}};
    make_graph(&g, one, NULL, 1, NULL, 0, 1);
    blvl_acoustics *ac = open_graph(&g, 0), *small = open_graph(&g, 256);
    if (!ac || !small)
        return;
    const float p300[3] = {300, 50, 0}, p600[3] = {0, 650, 0}, far[3] = {2e9f, 0, 0};
    CHECK_EQ_INT(blvl_acoustics_nearest(ac, p300, NULL), 0);
    CHECK_EQ_INT(blvl_acoustics_nearest(ac, p600, NULL), BLVL_ACOUSTICS_NONE);
    CHECK_EQ_INT(blvl_acoustics_nearest(small, p300, NULL), BLVL_ACOUSTICS_NONE);
    CHECK_EQ_INT(blvl_acoustics_nearest(ac, far, NULL), BLVL_ACOUSTICS_NONE);
    blvl_acoustics_free(ac);
    blvl_acoustics_free(small);
    blvl_acoustics_options big = {0};
    big.radius = BLVL_ACOUSTICS_MAX_RADIUS * 2;
    size_t size = 0;
    void *bytes = section(&g, &size);
    blvl_error err;
    CHECK_EQ_INT(blvl_acoustics_new_memory(&ac, bytes, size, &big, &err), BLVL_E_ARGUMENT);
    free(bytes);

    /* 200 random probes in a 2000-qu box, radius 300: the grid's answer is the brute force's */
    float pos[200][3];
    uint32_t seed = 12345;
    for (int i = 0; i < 200; i++)
        for (int k = 0; k < 3; k++)
            pos[i][k] = rnd(&seed, -1000, 1000);
    make_graph(&g, (const float(*)[3])pos, NULL, 200, NULL, 0, 1);
    ac = open_graph(&g, 300);
    if (!ac)
        return;
    int agree = 0, some = 0;
    for (int t = 0; t < 2000; t++) {
        float p[3] = {rnd(&seed, -1200, 1200), rnd(&seed, -1200, 1200), rnd(&seed, -1200, 1200)};
        uint32_t best = BLVL_ACOUSTICS_NONE;
        float bd = 300.0f * 300.0f;
        for (uint32_t i = 0; i < 200; i++) {
            float d = dist_qu(pos[i], p);
            if (d * d <= bd && (best == BLVL_ACOUSTICS_NONE || d * d < bd))
                best = i, bd = d * d;
        }
        agree += blvl_acoustics_nearest(ac, p, NULL) == best;
        some += best != BLVL_ACOUSTICS_NONE;
    }
    CHECK_EQ_INT(agree, 2000);
    CHECK(some > 500 && some < 2000);
    blvl_acoustics_free(ac);
}

/* A wall x 40..60 (every y and z near): P0 at x 0 is nearer the point x 70 than P1 at x 200,
 * but only P1 sees it. */
static void visible(void) {
    blvl_trace_collider_desc d;
    blvl_trace_collider_desc_init(&d);
    const blvl_Plane planes[6] = {{{1, 0, 0}, 60},    {{-1, 0, 0}, -40}, {{0, 1, 0}, 1000},
                                  {{0, -1, 0}, 1000}, {{0, 0, 1}, 1000}, {{0, 0, -1}, 1000}};
    d.lo = (blvl_Vec3){40, -1000, -1000};
    d.hi = (blvl_Vec3){60, 1000, 1000};
    d.shape = BLVL_TRACE_SHAPE_PLANES;
    d.planes = planes;
    d.plane_count = 6;
    blvl_trace_world *w = NULL;
    blvl_error err;
    CHECK(blvl_trace_world_new(&w, &d, 1, NULL, &err) == BLVL_OK);
    const float pos[2][3] = {{0, 50, 0}, {200, 50, 0}};
    static graph g;
    make_graph(&g, pos, NULL, 2, NULL, 0, 1);
    blvl_acoustics *ac = open_graph(&g, 0);
    if (!ac || !w)
        return;
    const float p[3] = {70, 50, 0}, q0[3] = {30, 50, 0};
    blvl_acoustics_query q = {w, NULL, NULL, NULL};
    CHECK_EQ_INT(blvl_acoustics_nearest(ac, p, NULL), 0);
    CHECK_EQ_INT(blvl_acoustics_nearest(ac, p, &q), 1);
    CHECK_EQ_INT(blvl_acoustics_nearest(ac, q0, &q), 0);
    /* the custom filter that sees nothing: the nearest again */
    blvl_trace_filter none = {0};
    none.mover = BLVL_TRACE_AS_CUSTOM;
    none.include = 1u << 30;
    q.filter = &none;
    CHECK_EQ_INT(blvl_acoustics_nearest(ac, p, &q), 0);
    blvl_acoustics_free(ac);
    blvl_trace_world_free(w);
}

/* ---- against a plain Dijkstra ----------------------------------------------------------- */

/* The cost of the cheapest route, door costs from `fn` (NULL: free; non-finite or negative:
 * impassable), INFINITY when there is none. */
static float dijkstra_doors(const graph *g, uint32_t from, uint32_t to,
                            blvl_acoustics_door_cost_fn fn, void *user) {
    float d[256];
    int done[256] = {0};
    for (uint32_t i = 0; i < g->np; i++)
        d[i] = INFINITY;
    d[from] = 0;
    for (;;) {
        uint32_t u = BLVL_ACOUSTICS_NONE;
        for (uint32_t i = 0; i < g->np; i++)
            if (!done[i] && isfinite(d[i]) && (u == BLVL_ACOUSTICS_NONE || d[i] < d[u]))
                u = i;
        if (u == BLVL_ACOUSTICS_NONE || u == to)
            return d[to];
        done[u] = 1;
        uint32_t end = u + 1 < g->np ? g->probes[u + 1].first_edge : g->ne;
        for (uint32_t e = g->probes[u].first_edge; e < end; e++) {
            const blvl_AcousticEdge *ed = &g->edges[e];
            float price = fn && ed->door != NOD ? fn(user, ed->door) : 0;
            if (!(isfinite(price) && price >= 0))
                continue;
            if (d[u] + ed->len_m + price < d[ed->to])
                d[ed->to] = d[u] + ed->len_m + price;
        }
    }
}

static float dijkstra(const graph *g, uint32_t from, uint32_t to) {
    return dijkstra_doors(g, from, to, NULL, NULL);
}

static void random_graphs(void) {
    uint32_t seed = 777;
    static graph g;
    int agree = 0, routes = 0, runs = 0;
    for (int t = 0; t < 40; t++) {
        float pos[60][3];
        link links[200];
        for (int i = 0; i < 60; i++)
            for (int k = 0; k < 3; k++)
                pos[i][k] = rnd(&seed, -2000, 2000) * (k == 1 ? 0.1f : 1);
        for (int i = 0; i < 200; i++) {
            uint32_t a = lcg(&seed) % 60, b = lcg(&seed) % 60;
            /* a third of the edges far shorter than their probes' distance */
            float len = lcg(&seed) % 3 == 0 ? dist_qu(pos[a], pos[b]) * M * 0.05f + 0.01f : 0;
            links[i] = (link){a, b, NOD, 0, len};
        }
        make_graph(&g, (const float(*)[3])pos, NULL, 60, links, 200, 1);
        blvl_acoustics *ac = open_graph(&g, 16000);
        blvl_acoustics_scratch *sc = NULL;
        blvl_error err;
        if (!ac || blvl_acoustics_scratch_new(&sc, ac, &err) != BLVL_OK)
            return;
        for (int k = 0; k < 30; k++) {
            uint32_t a = lcg(&seed) % 60, b = lcg(&seed) % 60;
            blvl_acoustics_path r;
            CHECK(blvl_acoustics_path_find(ac, pos[a], pos[b], NULL, sc, &r, &err) == BLVL_OK);
            runs++;
            if (a == b || r.sound_probe != a || r.listener_probe != b) {
                agree += r.sound_probe == a && r.listener_probe == b;
                continue;
            }
            float want = dijkstra(&g, a, b);
            if (!isfinite(want)) {
                agree += !r.found;
                continue;
            }
            routes++;
            agree += r.found && near(r.cost_m, want) && near(r.length_m, want);
        }
        blvl_acoustics_scratch_free(sc);
        blvl_acoustics_free(ac);
    }
    CHECK_EQ_INT(agree, runs);
    CHECK(routes > 300);
}

/* A door's price by its team: free, 5 m, impassable, 50 m, impassable (negative). */
static float team_cost(void *user, uint16_t door) {
    (void)user;
    const float price[5] = {0, 5, INFINITY, 50, -1};
    return price[door % 5];
}

/* 230 probes in three clusters 10,000 qu apart (120, 90 and 20 probes: two big enough for
 * landmarks), each probe linked to a few random near ones of its cluster, a link's len_m often
 * longer than the probes' distance (a detour) and sometimes far shorter, one link in six
 * through a door. `skew`: then one edge in eight loses its opposite (it points back at its own
 * probe) or is longer than it, so the routes are not the same both ways. */
static void big_graph(graph *g, float (*pos)[3], uint32_t *seed, int skew) {
    static link links[900];
    const uint32_t start[4] = {0, 120, 210, 230};
    uint32_t nl = 0;
    for (uint32_t c = 0; c < 3; c++)
        for (uint32_t i = start[c]; i < start[c + 1]; i++) {
            pos[i][0] = 10000.0f * (float)c + rnd(seed, 0, 2000);
            pos[i][1] = rnd(seed, 0, 300);
            pos[i][2] = rnd(seed, 0, 2000);
        }
    for (uint32_t c = 0; c < 3; c++)
        for (uint32_t i = start[c]; i < start[c + 1]; i++)
            for (int k = 0; k < 24 && nl < 900; k++) {
                uint32_t j = start[c] + lcg(seed) % (start[c + 1] - start[c]);
                if (j <= i || dist_qu(pos[i], pos[j]) > 700)
                    continue;
                float d = dist_qu(pos[i], pos[j]) * M;
                uint32_t kind = lcg(seed) % 8;
                float len = kind == 0 ? d * 0.05f + 0.01f : kind < 4 ? d * rnd(seed, 1, 3) : 0;
                uint16_t door = lcg(seed) % 6 == 0 ? (uint16_t)(lcg(seed) % 10) : NOD;
                links[nl++] = (link){i, j, door, 0, len};
            }
    make_graph(g, (const float(*)[3])pos, NULL, 230, links, nl, 1);
    for (uint32_t p = 0; skew && p < g->np; p++) {
        uint32_t end = p + 1 < g->np ? g->probes[p + 1].first_edge : g->ne;
        for (uint32_t e = g->probes[p].first_edge; e < end; e++) {
            uint32_t kind = lcg(seed) % 16;
            if (kind == 0)
                g->edges[e].to = p;
            else if (kind == 1)
                g->edges[e].len_m *= 1.7f;
        }
    }
}

static void big_random_graphs(void) {
    uint32_t seed = 4242;
    static graph g;
    static float pos[230][3];
    int agree = 0, routes = 0, none = 0, runs = 0;
    for (int t = 0; t < 8; t++) {
        big_graph(&g, pos, &seed, t % 2);
        CHECK(g.ne > 1000 && g.ne <= 4096);
        blvl_acoustics *ac = open_graph(&g, 16000);
        blvl_acoustics_scratch *sc = NULL;
        blvl_error err;
        if (!ac || blvl_acoustics_scratch_new(&sc, ac, &err) != BLVL_OK)
            return;
        for (int k = 0; k < 200; k++) {
            uint32_t a = lcg(&seed) % 230, b = lcg(&seed) % 230;
            if (k % 2) /* half the pairs in one cluster, where the routes are */
                b = a < 120 ? lcg(&seed) % 120 : a < 210 ? 120 + lcg(&seed) % 90 : b;
            blvl_acoustics_query q = {NULL, NULL, k % 3 ? team_cost : NULL, NULL};
            blvl_acoustics_path r;
            CHECK(blvl_acoustics_path_find(ac, pos[a], pos[b], &q, sc, &r, &err) == BLVL_OK);
            if (a == b || r.sound_probe != a || r.listener_probe != b)
                continue; /* two probes at one point: not this check's */
            runs++;
            float want = dijkstra_doors(&g, a, b, q.door_cost, NULL);
            if (!isfinite(want)) {
                none++;
                agree += !r.found;
                continue;
            }
            routes++;
            agree += r.found && near(r.cost_m, want) && r.length_m <= r.cost_m * 1.0001f;
        }
        blvl_acoustics_scratch_free(sc);
        blvl_acoustics_free(ac);
    }
    CHECK_EQ_INT(agree, runs);
    CHECK(routes > 600 && none > 300);
}

/* A U: arm A up x 0 from the sound at z 0 to z 1000, over to x 200, arm B down to the listener
 * at (200, 0, 0), 100 qu steps (2,200 qu of way, 200 of straight line); and from the sound's
 * probe a dead-end field of 8 x 8 probes below the listener (x 0..700, z -100..-800). The
 * straight line says the field leads nearer the listener: a walk guided by it alone takes the
 * field's probes before the far arm; a landmark at the U's far end (the probe farthest from the
 * first) gives the field's probes their real way left, and the walk keeps to the U. Every edge
 * carries a free door, so the door costs asked count the edges walked. */
static void landmark_corridor(void) {
    static graph g;
    static float pos[87][3];
    static link links[200];
    uint32_t np = 0, nl = 0;
    for (int i = 0; i <= 10; i++, np++) /* arm A: 0..10 */
        pos[np][0] = 0, pos[np][1] = 0, pos[np][2] = 100.0f * (float)i;
    pos[np][0] = 100, pos[np][1] = 0, pos[np][2] = 1000; /* the bend: 11 */
    np++;
    for (int i = 10; i >= 0; i--, np++) /* arm B: 12 (z 1000) .. 22 (the listener) */
        pos[np][0] = 200, pos[np][1] = 0, pos[np][2] = 100.0f * (float)i;
    for (uint32_t i = 0; i < 22; i++)
        links[nl++] = (link){i, i + 1, 1, 0, 0};
    for (int x = 0; x < 8; x++) /* the field: 23 + 8 x + z */
        for (int z = 0; z < 8; z++, np++) {
            pos[np][0] = 100.0f * (float)x, pos[np][1] = 0, pos[np][2] = -100.0f * (float)(z + 1);
            if (z > 0)
                links[nl++] = (link){np - 1, np, 1, 0, 0};
            if (x > 0)
                links[nl++] = (link){np - 8, np, 1, 0, 0};
        }
    links[nl++] = (link){0, 23, 1, 0, 0};
    make_graph(&g, (const float(*)[3])pos, NULL, np, links, nl, 1);
    blvl_acoustics *ac = open_graph(&g, 50);
    if (!ac)
        return;
    costs c = {1, 0.0f, 0};
    blvl_acoustics_query q = {NULL, NULL, door_cost, &c};
    blvl_acoustics_path r = path(ac, pos[0], pos[22], &q);
    CHECK(r.found && r.hops == 22 && near(r.length_m, 2200 * M));
    /* the U's 22 probes before the listener each ask at most their two edges' doors; the field's
     * 64 probes and 112 edges would ask well over a hundred */
    CHECK(c.calls <= 2 * 22 + 1);
    if (c.calls > 2 * 22 + 1)
        fprintf(stderr, "landmark_corridor: %d door costs asked\n", c.calls);
    blvl_acoustics_free(ac);
}

/* ---- refusals --------------------------------------------------------------------------- */

static void refused(graph *g, const char *rule) {
    size_t size = 0;
    void *bytes = section(g, &size);
    blvl_acoustics *ac = NULL;
    blvl_error err;
    blvl_status st = blvl_acoustics_new_memory(&ac, bytes, size, NULL, &err);
    if (st != BLVL_E_FLATBUFFER)
        fprintf(stderr, "not refused: %s\n", rule);
    CHECK_EQ_INT(st, BLVL_E_FLATBUFFER);
    CHECK(ac == NULL);
    if (st == BLVL_E_FLATBUFFER && !strstr(err.message, rule)) {
        fprintf(stderr, "wanted %s in: %s\n", rule, err.message);
        CHECK(0);
    }
    CHECK(strncmp(err.message, "flatbuffer: acoustics: ", 23) == 0);
    free(bytes);
}

static void malformed(void) {
    const float pos[3][3] = {{0, 0, 0}, {100, 0, 0}, {200, 0, 0}};
    const link links[2] = {{0, 1, NOD, 0, 0}, {1, 2, NOD, 0, 0}};
    static graph g;
    make_graph(&g, pos, NULL, 3, links, 2, 1);
    blvl_acoustics *ok = open_graph(&g, 0);
    CHECK(ok != NULL);
    blvl_acoustics_free(ok);
    g.edges[3].to = 3;
    refused(&g, "edges[3].to 3 is not below the 3 probes (edge-target)");
    make_graph(&g, pos, NULL, 3, links, 2, 1);
    g.probes[2].first_edge = 1; /* before probe 1's 1? equal is fine: make it lower */
    g.probes[1].first_edge = 2;
    refused(&g, "probes[2].first_edge 1 is not within 2..4 (first-edge)");
    make_graph(&g, pos, NULL, 3, links, 2, 1);
    g.probes[2].first_edge = 5;
    refused(&g, "(first-edge)");
    make_graph(&g, pos, NULL, 3, links, 2, 1);
    g.probes[0].first_edge = 1;
    refused(&g, "probes[0].first_edge 1 is not within 0..0 (first-edge)");
    make_graph(&g, pos, NULL, 3, links, 2, 1);
    g.probes[1].room = 1;
    refused(&g, "probes[1].room 1 is not below the 1 rooms (probe-room)");
    make_graph(&g, pos, NULL, 3, links, 2, 1);
    g.probes[2].position.y = NAN;
    refused(&g, "probes[2].position is not finite");
    make_graph(&g, pos, NULL, 3, links, 2, 1);
    g.probes[0].position.z = 2e9f;
    refused(&g, "(probe-position)");
    make_graph(&g, pos, NULL, 3, links, 2, 1);
    g.edges[1].len_m = -1;
    refused(&g, "edges[1].len_m -1 is not a finite length (edge-length)");
    make_graph(&g, pos, NULL, 3, links, 2, 1);
    g.edges[0].len_m = INFINITY;
    refused(&g, "(edge-length)");
    make_graph(&g, pos, NULL, 3, links, 2, 0); /* no rooms at all */
    refused(&g, "(probe-room)");
    /* not a FlatBuffer: the verifier's refusal */
    const uint8_t junk[8] = {0xFF, 0xFF, 0xFF, 0x7F, 1, 2, 3, 4};
    blvl_acoustics *ac = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl_acoustics_new_memory(&ac, junk, sizeof junk, NULL, &err), BLVL_E_FLATBUFFER);
    /* an empty section (no probes) builds; every query finds nothing */
    make_graph(&g, pos, NULL, 0, NULL, 0, 0);
    ac = open_graph(&g, 0);
    if (ac) {
        blvl_acoustics_path r = path(ac, pos[0], pos[1], NULL);
        CHECK(!r.found && r.sound_probe == BLVL_ACOUSTICS_NONE && r.room.index == r.sound_probe);
    }
    blvl_acoustics_free(ac);
}

/* ---- from a level ----------------------------------------------------------------------- */

static void from_level(void) {
    const char *tags[2] = {"meta", "sim"};
    const char *json[2] = {"{\"name\": \"acoustics\"}", "{}"};
    void *fb[3] = {0}, *lv_bytes = NULL;
    size_t fb_size[3] = {0}, lv_size = 0;
    blvl_section_in in[3];
    blvl_error err;
    for (int i = 0; i < 2; i++) {
        CHECK(blvl_section_from_json(&fb[i], &fb_size[i], tags[i], json[i], strlen(json[i]), NULL,
                                     &err) == BLVL_OK);
        in[i] = (blvl_section_in){tags[i], 0, 0, fb[i], fb_size[i]};
    }
    const float pos[2][3] = {{0, 0, 0}, {100, 0, 0}};
    const link links[1] = {{0, 1, 3, 1, 0}};
    static graph g;
    make_graph(&g, pos, NULL, 2, links, 1, 1);
    void *ab = section(&g, &fb_size[2]);
    in[2] = (blvl_section_in){"acoustics", 0, 0, ab, fb_size[2]};
    for (int with = 0; with < 2; with++) {
        blvl_level *lv = NULL;
        CHECK(blvl_write_memory(&lv_bytes, &lv_size, in, with ? 3 : 2, NULL, &err) == BLVL_OK);
        CHECK(blvl_open_memory(&lv, lv_bytes, lv_size, NULL, &err) == BLVL_OK);
        blvl_acoustics *ac = NULL;
        blvl_status st = blvl_acoustics_new(&ac, lv, NULL, &err);
        blvl_close(lv); /* the object keeps nothing of the level */
        if (!with) {
            CHECK_EQ_INT(st, BLVL_E_NOT_FOUND);
            CHECK(strstr(err.message, "acoustics") != NULL);
        } else {
            CHECK_EQ_INT(st, BLVL_OK);
            const float s[3] = {0, 0, 0}, l[3] = {100, 0, 0};
            blvl_acoustics_path r = path(ac, s, l, NULL);
            CHECK(r.found && r.narrow && r.door_count == 1 && r.doors[0] == 3);
        }
        blvl_acoustics_free(ac);
        blvl_free(NULL, lv_bytes);
    }
    for (int i = 0; i < 2; i++)
        blvl_free(NULL, fb[i]);
    free(ab);
}

int main(void) {
    corridor();
    doors();
    components();
    metric();
    nearest();
    visible();
    random_graphs();
    big_random_graphs();
    landmark_corridor();
    malformed();
    from_level();
    return check_report("test_acoustics_query");
}
