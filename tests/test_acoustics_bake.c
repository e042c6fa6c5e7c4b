/* The acoustics step on analytic maps (docs/ACOUSTICS.md). A small generator here writes .hmap
 * maps of axial boxes in qu (unitsPerMeter 1 / 0.0254, so a map unit is a qu), bakes them
 * through the import front door, and checks the section against the geometry it was given,
 * with its own segment tests and its own Dijkstra, not the library's:
 *   - two rooms joined by a doorway off the straight line: the graph path between the probes
 *     nearest two points lies between the true shortest way through the doorway and 1.25 x it;
 *   - the same with a func_door in the doorway: every edge crossing it names the door's team;
 *   - a 56-qu slit instead: the rooms are connected, every edge through the slit is narrow; and
 *     slits of 40, 24, 16 and 8 qu, and larger lattice spacings, which the lattice's own lines
 *     miss (the gap probes join them);
 *   - a 2048 x 640 x 2048 hall beside a closed 160 x 128 x 160 closet: different rooms, the
 *     hall's rt60 longer, the closet's probes fully enclosed;
 *   - two halls joined by a corridor: connected, never one room;
 *   - a courtyard under a sky brush beside a roofed room: outdoor, not outdoor; the level has
 *     sky, so no probe stands outside on the room's roof; the room alone (no sky): its roof has;
 *   - a ledge of 4 probes across a pool from a hall, out of the edges' reach: bridged to it;
 *   - a spawn in a corridor no lattice column fits, a wall away from a room's lattice probes
 *     within a lattice step of it: it gets a probe of its own;
 *   - a water-only map and a Subspace map: no section; --no-acoustics: no section.
 * On every map: each probe stands free at ear height above a floor (a ray down from it meets a
 * walkable surface 64 qu below), every edge has its opposite with the same fields, len_m is the
 * distance, and the bytes are the same for 1 and 2 threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/blvl.h"
#include "blvl/hmap.h"
#include "blvl/import.h"
#include "blvl/sections/acoustics.h"
#include "blvl/sections/sim.h"
#include "blvl/trace.h"
#include "check.h"
#include "files.h"

#define EAR 64.0
#define QU_M 0.0254
#define MAXB 64

/* ---- the generator --------------------------------------------------------------------- */

typedef struct mapb {
    blvl_hmap m;
    blvl_hmap_meta meta;
    blvl_hmap_brush br[MAXB];
    blvl_hmap_face faces[MAXB][6];
    blvl_hmap_entity ent[2];
    blvl_hmap_pair pairs[2][2];
    uint32_t next_id;
} mapb;

static void map_init(mapb *b) {
    memset(b, 0, sizeof *b);
    b->meta.name = (blvl_hmap_str){4, (char *)"test"};
    b->meta.units_per_meter = (float)(1.0 / QU_M);
    b->meta.grid_size = 8;
    b->m.version = 1;
    b->m.flags = BLVL_HMAP_FLAG_SOURCE;
    b->m.meta = &b->meta;
    b->m.brushes = b->br;
    b->m.entities = b->ent;
    b->m.has_mats = b->m.has_brsh = b->m.has_mesh = b->m.has_ents = true;
    b->next_id = 1;
}

static void box(mapb *b, double x0, double y0, double z0, double x1, double y1, double z1,
                uint32_t contents, uint32_t owner) {
    if (b->m.brush_count >= MAXB)
        abort();
    const double lo[3] = {x0, y0, z0}, hi[3] = {x1, y1, z1};
    blvl_hmap_brush *br = &b->br[b->m.brush_count];
    blvl_hmap_face *f = b->faces[b->m.brush_count++];
    memset(f, 0, 6 * sizeof *f);
    for (int a = 0; a < 3; a++) {
        float *hn = &f[2 * a].plane.normal.x, *ln = &f[2 * a + 1].plane.normal.x;
        hn[a] = 1, f[2 * a].plane.dist = (float)hi[a];
        ln[a] = -1, f[2 * a + 1].plane.dist = (float)-lo[a];
        f[2 * a].material = f[2 * a + 1].material = -1;
    }
    *br = (blvl_hmap_brush){
        .id = b->next_id++, .owner = owner, .contents = contents, .face_count = 6, .faces = f};
}

/* A closed room: floor, ceiling (sky when `sky`) and four walls around the inside lo..hi. */
static void room(mapb *b, double x0, double z0, double x1, double z1, double h, bool sky) {
    const double t = 16;
    box(b, x0 - t, -t, z0 - t, x1 + t, 0, z1 + t, BLVL_HMAP_SOLID, 0);
    box(b, x0 - t, h, z0 - t, x1 + t, h + t, z1 + t, sky ? BLVL_HMAP_SKY : BLVL_HMAP_SOLID, 0);
    box(b, x0 - t, 0, z0 - t, x0, h, z1 + t, BLVL_HMAP_SOLID, 0);
    box(b, x1, 0, z0 - t, x1 + t, h, z1 + t, BLVL_HMAP_SOLID, 0);
    box(b, x0, 0, z0 - t, x1, h, z0, BLVL_HMAP_SOLID, 0);
    box(b, x0, 0, z1, x1, h, z1 + t, BLVL_HMAP_SOLID, 0);
}

/* Two rooms 512 x 512 x 256 side by side (x 0..512 and 528..1040, z 0..512) sharing the wall
 * x 512..528, which has an opening z gz0..gz1, y 0..gy1 (a doorway or a slit); `door`: a
 * func_door fills the opening. */
#define WALL0 512.0
#define WALL1 528.0
static void two_rooms(mapb *b, double gz0, double gz1, double gy1, bool door) {
    const double h = 256, t = 16;
    box(b, -t, -t, -t, 1040 + t, 0, 512 + t, BLVL_HMAP_SOLID, 0);
    box(b, -t, h, -t, 1040 + t, h + t, 512 + t, BLVL_HMAP_SOLID, 0);
    box(b, -t, 0, -t, 0, h, 512 + t, BLVL_HMAP_SOLID, 0);
    box(b, 1040, 0, -t, 1040 + t, h, 512 + t, BLVL_HMAP_SOLID, 0);
    box(b, 0, 0, -t, 1040, h, 0, BLVL_HMAP_SOLID, 0);
    box(b, 0, 0, 512, 1040, h, 512 + t, BLVL_HMAP_SOLID, 0);
    box(b, WALL0, 0, 0, WALL1, h, gz0, BLVL_HMAP_SOLID, 0);
    box(b, WALL0, 0, gz1, WALL1, h, 512, BLVL_HMAP_SOLID, 0);
    box(b, WALL0, gy1, gz0, WALL1, h, gz1, BLVL_HMAP_SOLID, 0);
    if (door) {
        blvl_hmap_entity *e = &b->ent[b->m.entity_count++];
        blvl_hmap_pair *p = b->pairs[0];
        p[0] = (blvl_hmap_pair){{5, (char *)"angle"}, {2, (char *)"-1"}};
        p[1] = (blvl_hmap_pair){{10, (char *)"targetname"}, {4, (char *)"door"}};
        *e = (blvl_hmap_entity){.id = 900,
                                .classname = {9, (char *)"func_door"},
                                .scale = {1, 1, 1},
                                .pair_count = 2,
                                .pairs = p};
        box(b, WALL0, 0, gz0, WALL1, gy1, gz1, BLVL_HMAP_SOLID, 900);
    }
}

/* ---- baking and reading ------------------------------------------------------------------ */

static char dir[] = "/tmp/blvl-acoustics-XXXXXX";
static float spacing; /* --acoustics-spacing; 0 = the default */

/* The map baked through the front door; the level's bytes (free()) or NULL. */
static uint8_t *bake_bytes(const void *src, size_t n, const char *name, unsigned threads, bool off,
                           size_t *size) {
    char out[256];
    snprintf(out, sizeof out, "%s/out.blvl", dir);
    blvl_import_options o = {0};
    o.base.threads = threads;
    o.no_acoustics = off;
    o.acoustics_spacing = spacing;
    blvl_import_report rep;
    blvl_error err;
    if (blvl_import_bake_memory(&rep, name, src, n, out, NULL, &o, &err) != BLVL_OK) {
        fprintf(stderr, "bake %s: %s\n", name, err.message);
        return NULL;
    }
    uint8_t *bytes = test_slurp(out, size);
    unlink(out);
    return bytes;
}

/* The level of a generated map, baked on 1 and on 2 threads (the same bytes, checked). */
static uint8_t *bake_map(const mapb *b, size_t *size) {
    void *src = NULL;
    size_t n = 0;
    blvl_error err;
    CHECK_EQ_INT(blvl_hmap_write(&src, &n, &b->m, NULL, &err), BLVL_OK);
    size_t n1 = 0, n2 = 0;
    uint8_t *one = bake_bytes(src, n, "t.hmap", 1, false, &n1);
    uint8_t *two = bake_bytes(src, n, "t.hmap", 2, false, &n2);
    CHECK(one && two && n1 == n2 && memcmp(one, two, n1) == 0);
    blvl_free(NULL, src);
    free(two);
    *size = n1;
    return one;
}

typedef struct graph {
    uint32_t np, ne, nr;
    blvl_AcousticProbe *p;
    blvl_AcousticEdge *e;
    float *rt60;
    bool *outdoor;
    blvl_trace_world *world; /* the level's sim, doors skipped */
    uint32_t *skip, skip_words;
} graph;

/* The section of a level (np = 0 when it has none) and a trace world of its sim. */
static void load(const uint8_t *bytes, size_t size, graph *g) {
    memset(g, 0, sizeof *g);
    if (!bytes)
        return;
    blvl_level *lv = NULL;
    blvl_error err;
    CHECK_EQ_INT(blvl_open_memory(&lv, bytes, size, NULL, &err), BLVL_OK);
    if (!lv)
        return;
    CHECK_EQ_INT(blvl_trace_world_from_level(&g->world, lv, NULL, &err), BLVL_OK);
    blvl_bytes sb = {0}, ab = {0};
    CHECK_EQ_INT(blvl_read(lv, "sim", &sb, &err), BLVL_OK);
    blvl_Sim sim = blvl_Sim_root(sb.data);
    uint32_t nc = blvl_Sim_colliders_len(sim);
    g->skip_words = (nc + 31) / 32;
    g->skip = calloc(g->skip_words + 1, 4);
    for (uint32_t i = 0; i < nc; i++)
        if (blvl_Collider_door(blvl_Sim_colliders_at(sim, i)) != 0xFFFFFFFFu)
            g->skip[i / 32] |= 1u << (i % 32);
    blvl_bytes_free(&sb);
    if (blvl_find(lv, "acoustics")) {
        CHECK_EQ_INT(blvl_read(lv, "acoustics", &ab, &err), BLVL_OK);
        CHECK_EQ_INT(blvl_fb_verify(ab.data, ab.size, &blvl_Acoustics_type, NULL, &err), BLVL_OK);
        blvl_Acoustics ac = blvl_Acoustics_root(ab.data);
        g->np = blvl_Acoustics_probes_len(ac);
        g->ne = blvl_Acoustics_edges_len(ac);
        g->nr = blvl_Acoustics_rooms_len(ac);
        g->p = calloc(g->np + 1, sizeof *g->p);
        g->e = calloc(g->ne + 1, sizeof *g->e);
        g->rt60 = calloc(g->nr + 1, sizeof *g->rt60);
        g->outdoor = calloc(g->nr + 1, sizeof *g->outdoor);
        for (uint32_t i = 0; i < g->np; i++)
            g->p[i] = blvl_Acoustics_probes_at(ac, i);
        for (uint32_t i = 0; i < g->ne; i++)
            g->e[i] = blvl_Acoustics_edges_at(ac, i);
        for (uint32_t i = 0; i < g->nr; i++) {
            g->rt60[i] = blvl_AcousticRoom_rt60_s(blvl_Acoustics_rooms_at(ac, i));
            g->outdoor[i] = blvl_AcousticRoom_outdoor(blvl_Acoustics_rooms_at(ac, i));
        }
        blvl_bytes_free(&ab);
    }
    blvl_close(lv);
}

static void unload(graph *g) {
    blvl_trace_world_free(g->world);
    free(g->p), free(g->e), free(g->rt60), free(g->outdoor), free(g->skip);
}

static uint32_t edge_end(const graph *g, uint32_t i) {
    return i + 1 < g->np ? g->p[i + 1].first_edge : g->ne;
}

static double dist3(const blvl_Vec3 a, const blvl_Vec3 b) {
    double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* ---- the invariants of every map ------------------------------------------------------- */

static void invariants(const char *name, const graph *g) {
    blvl_trace_filter f = {
        .mover = BLVL_TRACE_AS_PLAYER, .skip = g->skip, .skip_words = g->skip_words};
    uint32_t bad_stand = 0, bad_opp = 0, bad_len = 0, bad_order = 0;
    for (uint32_t i = 0; i < g->np; i++) {
        const blvl_AcousticProbe *p = &g->p[i];
        float at[3] = {p->position.x, p->position.y, p->position.z};
        float down[3] = {at[0], at[1] - 1000, at[2]};
        blvl_trace_result r;
        blvl_trace_ray(g->world, &f, at, down, &r);
        double fell = (double)r.fraction * 1000.0;
        bool ok = !r.startsolid && r.fraction < 1 && fabs(fell - EAR) < 0.5 &&
                  r.plane.normal.y >= 0.7f &&
                  blvl_trace_point_contents(g->world, &f, at, NULL, NULL) == 0;
        if (!ok && bad_stand++ < 3)
            fprintf(stderr, "%s: probe %u at (%g %g %g) fell %g qu\n", name, i, at[0], at[1], at[2],
                    fell);
        if (i && g->p[i].first_edge < g->p[i - 1].first_edge)
            bad_order++;
        for (uint32_t e = p->first_edge; e < edge_end(g, i); e++) {
            const blvl_AcousticEdge *x = &g->e[e];
            if (x->to >= g->np) {
                bad_opp++;
                continue;
            }
            double want = dist3(p->position, g->p[x->to].position) * QU_M;
            if (fabs(x->len_m - want) > 1e-4 * (1 + want))
                bad_len++;
            bool found = false;
            for (uint32_t k = g->p[x->to].first_edge; k < edge_end(g, x->to); k++)
                found |= g->e[k].to == i && g->e[k].len_m == x->len_m && g->e[k].door == x->door &&
                         g->e[k].narrow == x->narrow;
            bad_opp += !found;
        }
    }
    if (bad_stand || bad_opp || bad_len || bad_order)
        fprintf(stderr,
                "%s: %u probes not standing, %u edges without opposite, %u lengths, %u "
                "order\n",
                name, bad_stand, bad_opp, bad_len, bad_order);
    CHECK(g->np > 0);
    CHECK_EQ_INT(bad_stand, 0);
    CHECK_EQ_INT(bad_opp, 0);
    CHECK_EQ_INT(bad_len, 0);
    CHECK_EQ_INT(bad_order, 0);
}

/* The probe nearest (x, y, z) among those inside the box lo..hi (x, z). */
static uint32_t nearest(const graph *g, double x, double y, double z) {
    uint32_t best = UINT32_MAX;
    double bd = 1e30;
    for (uint32_t i = 0; i < g->np; i++) {
        double d = dist3(g->p[i].position, (blvl_Vec3){(float)x, (float)y, (float)z});
        if (d < bd)
            bd = d, best = i;
    }
    return best;
}

/* Dijkstra over len_m (O(n^2): the maps are small); the path in prev. */
static double shortest(const graph *g, uint32_t from, uint32_t to, uint32_t *prev) {
    double *d = malloc(g->np * sizeof *d);
    bool *done = calloc(g->np, 1);
    for (uint32_t i = 0; i < g->np; i++)
        d[i] = INFINITY, prev[i] = UINT32_MAX;
    d[from] = 0;
    for (;;) {
        uint32_t u = UINT32_MAX;
        for (uint32_t i = 0; i < g->np; i++)
            if (!done[i] && isfinite(d[i]) && (u == UINT32_MAX || d[i] < d[u]))
                u = i;
        if (u == UINT32_MAX || u == to)
            break;
        done[u] = true;
        for (uint32_t e = g->p[u].first_edge; e < edge_end(g, u); e++)
            if (d[u] + g->e[e].len_m < d[g->e[e].to])
                d[g->e[e].to] = d[u] + g->e[e].len_m, prev[g->e[e].to] = u;
    }
    double r = d[to];
    free(d), free(done);
    return r;
}

/* Where the segment a..b crosses the plane x = X (as z), or NAN when it does not. */
static double cross_z(blvl_Vec3 a, blvl_Vec3 b, double X) {
    if ((a.x - X) * (b.x - X) > 0 || a.x == b.x)
        return NAN;
    double t = (X - a.x) / (b.x - a.x);
    return a.z + t * (b.z - a.z);
}

/* Does the segment a..b pass through the wall x WALL0..WALL1 (either face) below the ceiling
 * (probes stand on the roof too, above the wall)? */
static bool crosses_wall(blvl_Vec3 a, blvl_Vec3 b) {
    return a.y < 256 && b.y < 256 && ((a.x < WALL0 && b.x > WALL1) || (b.x < WALL0 && a.x > WALL1));
}

/* Does the segment a..b meet the box lo..hi grown by `grow` on every side (slab test)? */
static bool meets_box(blvl_Vec3 a, blvl_Vec3 b, const double lo[3], const double hi[3],
                      double grow) {
    const double pa[3] = {a.x, a.y, a.z}, pb[3] = {b.x, b.y, b.z};
    double t0 = 0, t1 = 1;
    for (int k = 0; k < 3; k++) {
        double d = pb[k] - pa[k], l = lo[k] - grow, h = hi[k] + grow;
        if (fabs(d) < 1e-12) {
            if (pa[k] < l || pa[k] > h)
                return false;
            continue;
        }
        double u = (l - pa[k]) / d, v = (h - pa[k]) / d;
        if (u > v) {
            double t = u;
            u = v, v = t;
        }
        t0 = fmax(t0, u), t1 = fmin(t1, v);
    }
    return t0 <= t1;
}

/* The true shortest way (xz plane, the probes at one height) from a to b through the opening
 * z gz0..gz1 of the wall WALL0..WALL1: straight when the line passes, else around a jamb. */
static double true_way(blvl_Vec3 a, blvl_Vec3 b, double gz0, double gz1) {
    if (a.x > b.x) {
        blvl_Vec3 t = a;
        a = b, b = t;
    }
    double z0 = cross_z(a, b, WALL0), z1 = cross_z(a, b, WALL1);
    if (z0 >= gz0 && z0 <= gz1 && z1 >= gz0 && z1 <= gz1)
        return hypot(b.x - a.x, b.z - a.z);
    double best = INFINITY;
    const double jamb[2] = {gz0, gz1};
    for (int k = 0; k < 2; k++) {
        double w =
            hypot(WALL0 - a.x, jamb[k] - a.z) + (WALL1 - WALL0) + hypot(b.x - WALL1, b.z - jamb[k]);
        best = fmin(best, w);
    }
    return best;
}

/* ---- the maps ------------------------------------------------------------------------- */

/* Two rooms, the doorway (z 368..496, 144 high) far from the line z = 64 between A and B. */
static void doorway(bool door) {
    const char *name = door ? "door" : "doorway";
    mapb b;
    map_init(&b);
    two_rooms(&b, 368, 496, 144, door);
    size_t n = 0;
    uint8_t *bytes = bake_map(&b, &n);
    graph g;
    load(bytes, n, &g);
    invariants(name, &g);
    uint32_t a = nearest(&g, 256, EAR, 64), c = nearest(&g, 784, EAR, 64);
    CHECK(a != UINT32_MAX && c != UINT32_MAX && g.p[a].position.x < WALL0 &&
          g.p[c].position.x > WALL1);
    if (a == UINT32_MAX || c == UINT32_MAX) {
        unload(&g);
        free(bytes);
        return;
    }
    uint32_t *prev = malloc(g.np * sizeof *prev);
    double path = shortest(&g, a, c, prev) / QU_M;
    double way = true_way(g.p[a].position, g.p[c].position, 368, 496);
    printf("%s: %u probes, %u edges, %u rooms; path %.1f qu, true way %.1f qu (%.3f)\n", name, g.np,
           g.ne, g.nr, path, way, path / way);
    CHECK(path >= way - 0.5 && path <= 1.25 * way);
    /* never through the wall: every step of the path that crosses it does so in the doorway */
    for (uint32_t v = c; prev[v] != UINT32_MAX; v = prev[v]) {
        blvl_Vec3 p = g.p[prev[v]].position, q = g.p[v].position;
        if (crosses_wall(p, q)) {
            double z0 = cross_z(p, q, WALL0), z1 = cross_z(p, q, WALL1);
            CHECK(z0 >= 368 && z0 <= 496 && z1 >= 368 && z1 <= 496);
        }
    }
    /* door: an edge names the door (team 0, the only door) when it passes through the door's
     * closed pose, and not when it keeps clear of it (one that grazes its face may either) */
    const double dlo[3] = {WALL0, 0, 368}, dhi[3] = {WALL1, 144, 496};
    uint32_t through = 0, wrong = 0;
    for (uint32_t i = 0; i < g.np; i++)
        for (uint32_t e = g.p[i].first_edge; e < edge_end(&g, i); e++) {
            blvl_Vec3 p = g.p[i].position, q = g.p[g.e[e].to].position;
            bool in = meets_box(p, q, dlo, dhi, -1), near = meets_box(p, q, dlo, dhi, 1);
            through += in;
            bool named = g.e[e].door == 0;
            bool bad =
                door ? (in && !named) || (!near && g.e[e].door != 65535) : g.e[e].door != 65535;
            if (bad && wrong++ < 4)
                fprintf(stderr, "%s: edge %u (%g %g %g) -> (%g %g %g) door %u\n", name, e,
                        g.p[i].position.x, g.p[i].position.y, g.p[i].position.z,
                        g.p[g.e[e].to].position.x, g.p[g.e[e].to].position.y,
                        g.p[g.e[e].to].position.z, g.e[e].door);
        }
    CHECK(through > 0);
    CHECK_EQ_INT(wrong, 0);
    /* --no-acoustics: none */
    void *src = NULL;
    size_t sn = 0, on = 0;
    blvl_error err;
    CHECK_EQ_INT(blvl_hmap_write(&src, &sn, &b.m, NULL, &err), BLVL_OK);
    uint8_t *off = bake_bytes(src, sn, "t.hmap", 1, true, &on);
    graph none;
    load(off, on, &none);
    CHECK_EQ_INT(none.np, 0);
    unload(&none);
    free(off);
    blvl_free(NULL, src);
    free(prev);
    unload(&g);
    free(bytes);
}

/* A slit `width` qu wide (from z 400, the wall's full height) in place of the doorway, baked with
 * lattice spacing `s`: an opening narrower than half the spacing falls between the lattice's
 * lines, and the gap probes must join the rooms all the same. */
static void slit(double width, float s) {
    mapb b;
    map_init(&b);
    two_rooms(&b, 400, 400 + width, 256, false);
    spacing = s;
    size_t n = 0;
    uint8_t *bytes = bake_map(&b, &n);
    spacing = 0;
    graph g;
    load(bytes, n, &g);
    char name[64];
    snprintf(name, sizeof name, "slit %g at %g", width, (double)s);
    invariants(name, &g);
    uint32_t a = nearest(&g, 256, EAR, 64), c = nearest(&g, 784, EAR, 64);
    if (a == UINT32_MAX || c == UINT32_MAX) {
        unload(&g);
        free(bytes);
        return;
    }
    uint32_t *prev = malloc(g.np * sizeof *prev);
    double path = shortest(&g, a, c, prev) / QU_M;
    uint32_t through = 0, wide = 0;
    for (uint32_t i = 0; i < g.np; i++)
        for (uint32_t e = g.p[i].first_edge; e < edge_end(&g, i); e++)
            if (crosses_wall(g.p[i].position, g.p[g.e[e].to].position))
                through++, wide += !g.e[e].narrow;
    printf("%s: %u probes, %u edges through the slit, path %.1f qu\n", name, g.np, through, path);
    CHECK(isfinite(path));
    CHECK(through > 0);
    CHECK_EQ_INT(wide, 0);
    CHECK(g.p[a].room != g.p[c].room || g.nr == 1); /* rooms are grouped over wide edges only */
    free(prev);
    unload(&g);
    free(bytes);
}

/* A 2048 x 640 x 2048 hall and, beside it, a closed 160 x 128 x 160 closet. */
static void hall_closet(void) {
    mapb b;
    map_init(&b);
    room(&b, 0, 0, 2048, 2048, 640, false);
    room(&b, 2070, 20, 2230, 180, 128, false);
    size_t n = 0;
    uint8_t *bytes = bake_map(&b, &n);
    graph g;
    load(bytes, n, &g);
    invariants("hall+closet", &g);
    if (!g.np) {
        unload(&g);
        free(bytes);
        return;
    }
    uint32_t h = nearest(&g, 1024, EAR, 1024), c = nearest(&g, 2150, EAR, 100);
    CHECK(g.p[c].position.x > 2070 && g.p[c].position.x < 2230 && g.p[c].position.y < 128);
    /* the closet's probes: fully enclosed, none in the hall's room, each room ringing shorter */
    uint32_t closet = 0, open = 0, hall = 0, longer = 0;
    for (uint32_t i = 0; i < g.np; i++)
        if (g.p[i].position.x > 2070 && g.p[i].position.y < 128) {
            closet++;
            open += g.p[i].enclosed != 255;
            hall += g.p[i].room == g.p[h].room;
            longer += g.rt60[g.p[i].room] >= g.rt60[g.p[h].room];
        }
    CHECK_EQ_INT(hall, 0);
    CHECK_EQ_INT(longer, 0);
    printf("hall+closet: %u probes, %u rooms; hall rt60 %.2f s (size %u m), closet rt60 %.2f s "
           "(%u probes)\n",
           g.np, g.nr, g.rt60[g.p[h].room], g.p[h].size_m, g.rt60[g.p[c].room], closet);
    CHECK(closet > 0);
    CHECK_EQ_INT(open, 0);
    CHECK(g.p[h].room != g.p[c].room);
    CHECK(g.rt60[g.p[h].room] > g.rt60[g.p[c].room]);
    unload(&g);
    free(bytes);
}

/* Two 1024 x 384 x 1024 halls joined by a corridor 128 wide, 128 high and 512 long: the halls are
 * never one room. */
static void corridor(void) {
    mapb b;
    map_init(&b);
    const double t = 16;
    room(&b, 0, 0, 1024, 1024, 384, false);
    room(&b, 1552, 0, 2576, 1024, 384, false);
    /* the corridor x 1040..1536, z 448..576: floor, roof, two walls; holes in the halls' walls */
    box(&b, 1024, -t, 448 - t, 1552, 0, 576 + t, BLVL_HMAP_SOLID, 0);
    box(&b, 1024, 128, 448 - t, 1552, 128 + t, 576 + t, BLVL_HMAP_SOLID, 0);
    box(&b, 1024, 0, 448 - t, 1552, 128, 448, BLVL_HMAP_SOLID, 0);
    box(&b, 1024, 0, 576, 1552, 128, 576 + t, BLVL_HMAP_SOLID, 0);
    /* cut the doorways: the halls' walls at x 1024..1040 and 1536..1552 rebuilt around them */
    for (uint32_t i = 0, walls = b.m.brush_count; i < walls; i++) {
        blvl_hmap_face *f = b.br[i].faces;
        double lo = -f[1].plane.dist, hi = f[0].plane.dist; /* x */
        if ((lo == 1024 && hi == 1040) || (lo == 1536 && hi == 1552)) {
            f[5].plane.dist = -(576.0); /* z from 576 (the upper part) */
            box(&b, lo, 0, -t, hi, 384, 448, BLVL_HMAP_SOLID, 0);
            box(&b, lo, 128, 448, hi, 384, 576, BLVL_HMAP_SOLID, 0);
        }
    }
    size_t n = 0;
    uint8_t *bytes = bake_map(&b, &n);
    graph g;
    load(bytes, n, &g);
    invariants("corridor", &g);
    if (!g.np) {
        unload(&g);
        free(bytes);
        return;
    }
    uint32_t a = nearest(&g, 512, EAR, 512), c = nearest(&g, 2064, EAR, 512);
    uint32_t *prev = malloc(g.np * sizeof *prev);
    double path = shortest(&g, a, c, prev) / QU_M;
    printf("corridor: %u probes, %u rooms; halls' rooms %u and %u, path %.1f qu\n", g.np, g.nr,
           g.p[a].room, g.p[c].room, path);
    CHECK(isfinite(path));
    CHECK(g.p[a].room != g.p[c].room);
    free(prev);
    unload(&g);
    free(bytes);
}

/* A courtyard under a sky brush, and beside it a room under a solid roof. */
static void courtyard(void) {
    mapb b;
    map_init(&b);
    room(&b, 0, 0, 1024, 1024, 384, true);
    room(&b, 1056, 0, 1568, 512, 256, false);
    size_t n = 0;
    uint8_t *bytes = bake_map(&b, &n);
    graph g;
    load(bytes, n, &g);
    invariants("courtyard", &g);
    if (!g.np) {
        unload(&g);
        free(bytes);
        return;
    }
    uint32_t y = nearest(&g, 512, EAR, 512), r = nearest(&g, 1312, EAR, 256);
    CHECK(g.p[r].position.y < 256);
    printf("courtyard: %u rooms; courtyard outdoor %d rt60 %.2f s, room outdoor %d rt60 %.2f s\n",
           g.nr, g.outdoor[g.p[y].room], g.rt60[g.p[y].room], g.outdoor[g.p[r].room],
           g.rt60[g.p[r].room]);
    CHECK(g.outdoor[g.p[y].room]);
    CHECK(!g.outdoor[g.p[r].room]);
    /* the level has sky, so it is sealed: nothing stands on the roofed room's roof (outside) */
    uint32_t on_roof = 0;
    for (uint32_t i = 0; i < g.np; i++)
        on_roof += g.p[i].position.x > 1040 && g.p[i].position.y > 256;
    CHECK_EQ_INT(on_roof, 0);
    unload(&g);
    free(bytes);
    /* the roofed room alone: no sky anywhere, no inside and outside; its roof is a floor */
    map_init(&b);
    room(&b, 1056, 0, 1568, 512, 256, false);
    bytes = bake_map(&b, &n);
    load(bytes, n, &g);
    invariants("open roof", &g);
    on_roof = 0;
    for (uint32_t i = 0; i < g.np; i++)
        on_roof += g.p[i].position.y > 256;
    printf("open roof: %u probes, %u on the roof\n", g.np, on_roof);
    CHECK(on_roof > 0);
    unload(&g);
    free(bytes);
}

/* A spawn in a corridor 36 qu wide (x 566..602) that no lattice column fits, behind a wall (x
 * 550..566) from a room whose lattice probes (the column at x 528) stand within a lattice step
 * of it: they do not hear it, so the spawn gets a probe of its own in the corridor. */
static void spawn_nook(void) {
    mapb b;
    map_init(&b);
    const double t = 16, h = 128, x1 = 602;
    box(&b, -t, -t, -t, x1 + t, 0, 512 + t, BLVL_HMAP_SOLID, 0);
    box(&b, -t, h, -t, x1 + t, h + t, 512 + t, BLVL_HMAP_SOLID, 0);
    box(&b, -t, 0, -t, 0, h, 512 + t, BLVL_HMAP_SOLID, 0);
    box(&b, x1, 0, -t, x1 + t, h, 512 + t, BLVL_HMAP_SOLID, 0);
    box(&b, 0, 0, -t, x1, h, 0, BLVL_HMAP_SOLID, 0);
    box(&b, 0, 0, 512, x1, h, 512 + t, BLVL_HMAP_SOLID, 0);
    box(&b, 550, 0, 0, 566, h, 512, BLVL_HMAP_SOLID, 0); /* the wall */
    b.ent[b.m.entity_count++] =
        (blvl_hmap_entity){.id = 901,
                           .classname = {22, (char *)"info_player_deathmatch"},
                           .origin = {584, 24, 240},
                           .scale = {1, 1, 1}};
    size_t n = 0;
    uint8_t *bytes = bake_map(&b, &n);
    graph g;
    load(bytes, n, &g);
    invariants("spawn nook", &g);
    uint32_t beside = 0, nook = UINT32_MAX;
    for (uint32_t i = 0; i < g.np; i++) {
        float dx = g.p[i].position.x - 584, dz = g.p[i].position.z - 240;
        if (g.p[i].position.x < 550 && dx * dx + dz * dz <= 96 * 96)
            beside++; /* the room's probes within a lattice step of the spawn */
        else if (g.p[i].position.x > 566)
            nook = i;
    }
    printf("spawn nook: %u room probes within a step of the spawn, corridor probe %s\n", beside,
           nook == UINT32_MAX ? "none" : "found");
    CHECK(beside > 0);
    CHECK(nook != UINT32_MAX);
    if (nook != UINT32_MAX)
        CHECK(fabs(g.p[nook].position.x - 584) < 1 && fabs(g.p[nook].position.z - 240) < 1);
    unload(&g);
    free(bytes);
}

/* A hall's floor (x 0..384, 8 probes) and a ledge across a pool (x 1152..1344, 4 probes), the
 * pool 768 qu wide and deeper than ear height (no probe stands in it), all under one sky: out
 * of the edges' reach, and no column's reach holds both, but they hear each other over the
 * water: the ledge, a part of 4 probes, is bridged to the hall. */
static void ledge(void) {
    mapb b;
    map_init(&b);
    room(&b, 0, 0, 1344, 192, 512, true);
    box(&b, 384, 0, 0, 1152, 128, 192, BLVL_HMAP_WATER, 0);
    size_t n = 0;
    uint8_t *bytes = bake_map(&b, &n);
    graph g;
    load(bytes, n, &g);
    invariants("ledge", &g);
    uint32_t on = 0, reach = 0;
    bool *seen = calloc(g.np + 1, 1);
    uint32_t *todo = calloc(g.np + 1, sizeof *todo), nt = 0;
    if (g.np)
        seen[0] = true, todo[nt++] = 0;
    while (nt) { /* the part of probe 0 */
        uint32_t u = todo[--nt];
        reach++;
        for (uint32_t e = g.p[u].first_edge; e < edge_end(&g, u); e++)
            if (!seen[g.e[e].to])
                seen[g.e[e].to] = true, todo[nt++] = g.e[e].to;
    }
    for (uint32_t i = 0; i < g.np; i++)
        on += g.p[i].position.x > 1152;
    printf("ledge: %u probes, %u on the ledge, %u in probe 0's part\n", g.np, on, reach);
    CHECK(on > 0 && on < 8);
    CHECK_EQ_INT(reach, g.np);
    free(seen), free(todo);
    unload(&g);
    free(bytes);
}

/* Water alone: no floor, no section. A Subspace map: no section either. */
static void no_floor(void) {
    mapb b;
    map_init(&b);
    box(&b, 0, 0, 0, 512, 128, 512, BLVL_HMAP_WATER, 0);
    size_t n = 0;
    uint8_t *bytes = bake_map(&b, &n);
    graph g;
    load(bytes, n, &g);
    CHECK_EQ_INT(g.np, 0);
    unload(&g);
    free(bytes);
    size_t sn = 0;
    uint8_t *lvl = test_slurp("tests/data/subspace/good/bare.lvl", &sn);
    CHECK(lvl != NULL);
    uint8_t *ss = lvl ? bake_bytes(lvl, sn, "bare.lvl", 1, false, &n) : NULL;
    CHECK(ss != NULL);
    if (ss) {
        load(ss, n, &g);
        CHECK_EQ_INT(g.np, 0);
        unload(&g);
    }
    free(ss);
    free(lvl);
}

int main(void) {
    if (!mkdtemp(dir))
        return 1;
    doorway(false);
    doorway(true);
    slit(56, 0);
    slit(56, 128);
    slit(56, 160);
    slit(40, 0);
    slit(40, 128);
    slit(24, 0);
    slit(16, 160);
    slit(8, 0);
    hall_closet();
    corridor();
    courtyard();
    spawn_nook();
    ledge();
    no_floor();
    rmdir(dir);
    return check_report("test_acoustics_bake");
}
