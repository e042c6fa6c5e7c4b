/* The acoustics runtime query (blvl/acoustics.h): the build's time and the path query's median and
 * 99th-percentile time, one thread, on a level given on the command line or, without one, on a
 * synthetic lattice level made here (N x N probes 96 qu apart at ear height, each joined to its
 * eight neighbours, rooms of 16 x 16 probes, a door on every fourth link between two rooms and
 * walls cutting a third of the room boundaries). Queries are pairs of random points near random
 * probes (a jitter of 48 qu): "any" pairs anywhere on the level, "near" pairs within 1,500 qu
 * (40 m, a game's hearing range). As a reference measured in the same run, on the same pairs: a
 * plain breadth-first search from the sound's probe to the listener's over the same edges (no
 * lengths, no heap, no index), timed the same way.
 *
 *   bench_acoustics [LEVEL.blvl] [--lattice N (default 200)] [--queries Q (default 20000)] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "blvl/acoustics.h"
#include "blvl/sections.h"
#include "blvl/sections/acoustics_builder.h"

#define SPACING 96.0f

static uint64_t rng = 0x2545F4914F6CDD1Dull;

/* The synthetic lattice's acoustics section (malloc'd). */
static void *lattice(uint32_t n, size_t *size) {
    uint32_t np = n * n;
    blvl_AcousticProbe *p = calloc(np, sizeof *p);
    blvl_AcousticEdge *e = calloc((size_t)np * 8, sizeof *e);
    uint32_t ne = 0, rooms_side = (n + 15) / 16;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint32_t id = i * n + j, room = (i / 16) * rooms_side + j / 16;
            p[id] = (blvl_AcousticProbe){
                {(float)i * SPACING, 56, (float)j * SPACING}, ne, (uint16_t)room, 200, 12};
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++) {
                    int64_t a = (int64_t)i + di, b = (int64_t)j + dj;
                    if ((!di && !dj) || a < 0 || b < 0 || a >= n || b >= n)
                        continue;
                    uint32_t ra = (uint32_t)(a / 16) * rooms_side + (uint32_t)b / 16;
                    /* a wall on a third of the room boundaries (by the pair of rooms) */
                    uint32_t lo = room < ra ? room : ra, hi = room < ra ? ra : room;
                    if (ra != room && (lo * 7 + hi * 3) % 3 == 0)
                        continue;
                    uint16_t door = 65535;
                    uint32_t along = di ? j : i;
                    if (ra != room && along % 16 >= 6 && along % 16 < 10)
                        door = (uint16_t)(lo * 4 + (hi - lo)); /* one team per doorway */
                    float len = sqrtf((float)(di * di + dj * dj)) * SPACING * 0.0254f;
                    e[ne++] = (blvl_AcousticEdge){(uint32_t)(a * n + b), len, door, 0, 0};
                }
        }
    blvl_fb_builder *b;
    blvl_fb_builder_new(&b, NULL, NULL);
    uint32_t nr = rooms_side * rooms_side;
    blvl_fb_ref *rooms = calloc(nr, sizeof *rooms);
    for (uint32_t r = 0; r < nr; r++) {
        blvl_AcousticRoom_start(b);
        blvl_AcousticRoom_add_rt60_s(b, 0.4f + 0.01f * (float)(r % 50));
        blvl_AcousticRoom_add_damping(b, 0.5f);
        rooms[r] = blvl_AcousticRoom_end(b);
    }
    blvl_fb_ref rv = blvl_fb_create_ref_vector(b, rooms, nr);
    blvl_fb_ref pv = blvl_Acoustics_probes_create(b, p, np);
    blvl_fb_ref ev = blvl_Acoustics_edges_create(b, e, ne);
    blvl_Acoustics_start(b);
    blvl_Acoustics_add_probes(b, pv);
    blvl_Acoustics_add_edges(b, ev);
    blvl_Acoustics_add_rooms(b, rv);
    blvl_fb_ref root = blvl_Acoustics_end(b);
    const uint8_t *data;
    void *out = NULL;
    if (blvl_Acoustics_finish(b, root, &data, size, NULL) == BLVL_OK && (out = malloc(*size)))
        memcpy(out, data, *size);
    blvl_fb_builder_free(b);
    free(rooms);
    free(p);
    free(e);
    return out;
}

/* The lattice as a level in memory (meta, sim, acoustics), so the build reads it as a game
 * would: through the level. */
static void *lattice_level(uint32_t n, size_t *size) {
    size_t asz = 0, msz = 0, ssz = 0;
    void *ab = lattice(n, &asz), *mb = NULL, *sb = NULL, *lv = NULL;
    const char meta[] = "{\"name\": \"acoustics lattice\"}", sim[] = "{}";
    blvl_error err;
    if (!ab || blvl_section_from_json(&mb, &msz, "meta", meta, strlen(meta), NULL, &err) ||
        blvl_section_from_json(&sb, &ssz, "sim", sim, strlen(sim), NULL, &err))
        return NULL;
    blvl_section_in in[3] = {
        {"meta", 0, 0, mb, msz}, {"sim", 0, 0, sb, ssz}, {"acoustics", 0, 0, ab, asz}};
    if (blvl_write_memory(&lv, size, in, 3, NULL, &err) != BLVL_OK)
        lv = NULL;
    blvl_free(NULL, mb);
    blvl_free(NULL, sb);
    free(ab);
    return lv;
}

typedef struct graph {
    uint32_t np, ne;
    uint32_t *first, *to;
    float *pos;
} graph;

static int read_graph(blvl_level *lv, graph *g) {
    blvl_bytes sec;
    blvl_Acoustics root;
    blvl_error err;
    if (blvl_level_acoustics(lv, &sec, &root, &err) != BLVL_OK)
        return fprintf(stderr, "bench_acoustics: %s\n", err.message), -1;
    g->np = blvl_Acoustics_probes_len(root);
    g->ne = blvl_Acoustics_edges_len(root);
    g->first = calloc((size_t)g->np + 1, sizeof *g->first);
    g->to = calloc((size_t)g->ne + 1, sizeof *g->to);
    g->pos = calloc((size_t)g->np * 3 + 1, sizeof *g->pos);
    for (uint32_t i = 0; i < g->np; i++) {
        blvl_AcousticProbe p = blvl_Acoustics_probes_at(root, i);
        g->first[i] = p.first_edge;
        g->pos[3 * i] = p.position.x;
        g->pos[3 * i + 1] = p.position.y;
        g->pos[3 * i + 2] = p.position.z;
    }
    g->first[g->np] = g->ne;
    for (uint32_t i = 0; i < g->ne; i++)
        g->to[i] = blvl_Acoustics_edges_at(root, i).to;
    blvl_bytes_free(&sec);
    return 0;
}

/* The reference: breadth-first from a to b (hops), queue and seen in the caller's memory. */
static uint32_t bfs(const graph *g, uint32_t a, uint32_t b, uint32_t *queue, uint32_t *seen,
                    uint32_t mark) {
    uint32_t head = 0, tail = 0;
    queue[tail++] = a;
    seen[a] = mark;
    while (head < tail) {
        uint32_t p = queue[head++];
        if (p == b)
            return head;
        for (uint32_t e = g->first[p]; e < g->first[p + 1]; e++)
            if (seen[g->to[e]] != mark) {
                seen[g->to[e]] = mark;
                queue[tail++] = g->to[e];
            }
    }
    return 0;
}

static double pct(double *v, size_t n, double q) {
    qsort(v, n, sizeof *v, bench_cmp_double);
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return v[i];
}

static void pairs(const graph *g, uint32_t q, int near, float *pts) {
    for (uint32_t i = 0; i < q; i++) {
        uint32_t a = (uint32_t)(bench_rnd(&rng) * g->np), b;
        do {
            b = (uint32_t)(bench_rnd(&rng) * g->np);
        } while (near && hypotf(g->pos[3 * a] - g->pos[3 * b],
                                g->pos[3 * a + 2] - g->pos[3 * b + 2]) > 1500);
        for (int k = 0; k < 3; k++) {
            pts[6 * i + k] = g->pos[3 * a + k] + (float)(bench_rnd(&rng) - 0.5) * 96;
            pts[6 * i + 3 + k] = g->pos[3 * b + k] + (float)(bench_rnd(&rng) - 0.5) * 96;
        }
    }
}

static void run(const blvl_acoustics *ac, const graph *g, uint32_t q, int near) {
    float *pts = malloc((size_t)q * 6 * sizeof *pts);
    double *t = malloc((size_t)q * sizeof *t), *tb = malloc((size_t)q * sizeof *tb);
    uint32_t *queue = malloc(((size_t)g->np + 1) * 4), *seen = calloc((size_t)g->np + 1, 4);
    blvl_acoustics_scratch *s;
    blvl_error err;
    blvl_acoustics_scratch_new(&s, ac, &err);
    pairs(g, q, near, pts);
    uint32_t found = 0, hops = 0;
    double len = 0;
    for (uint32_t i = 0; i < q; i++) {
        blvl_acoustics_path r;
        double t0 = bench_now();
        blvl_acoustics_path_find(ac, pts + 6 * i, pts + 6 * i + 3, NULL, s, &r, &err);
        t[i] = bench_now() - t0;
        found += r.found;
        hops += r.hops;
        len += r.length_m;
        /* the reference on the same probes */
        t0 = bench_now();
        if (r.sound_probe != BLVL_ACOUSTICS_NONE && r.listener_probe != BLVL_ACOUSTICS_NONE)
            bfs(g, r.sound_probe, r.listener_probe, queue, seen, i + 1);
        tb[i] = bench_now() - t0;
    }
    printf("%-5s %6u queries, %5.1f%% found, mean %.1f hops %.1f m: path median %7.2f us, "
           "p99 %8.2f us; BFS median %7.2f us, p99 %8.2f us\n",
           near ? "near" : "any", q, 100.0 * found / q, found ? (double)hops / found : 0,
           found ? len / found : 0, 1e6 * pct(t, q, 0.5), 1e6 * pct(t, q, 0.99),
           1e6 * pct(tb, q, 0.5), 1e6 * pct(tb, q, 0.99));
    blvl_acoustics_scratch_free(s);
    free(pts);
    free(t);
    free(tb);
    free(queue);
    free(seen);
}

int main(int argc, char **argv) {
    const char *path = NULL;
    uint32_t n = 200, q = 20000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lattice") && i + 1 < argc)
            n = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--queries") && i + 1 < argc)
            q = (uint32_t)strtoul(argv[++i], NULL, 10);
        else
            path = argv[i];
    }
    blvl_level *lv = NULL;
    blvl_error err;
    void *mem = NULL;
    size_t size = 0;
    if (path ? blvl_open_file(&lv, path, NULL, &err)
             : (mem = lattice_level(n < 2 ? 2 : n, &size)) == NULL ||
                   blvl_open_memory(&lv, mem, size, NULL, &err)) {
        fprintf(stderr, "bench_acoustics: %s\n", path ? err.message : "the lattice level");
        return 1;
    }
    graph g = {0};
    if (read_graph(lv, &g))
        return 1;
    double builds[5];
    blvl_acoustics *ac = NULL;
    for (int r = 0; r < 5; r++) {
        blvl_acoustics_free(ac);
        double t0 = bench_now();
        if (blvl_acoustics_new(&ac, lv, NULL, &err) != BLVL_OK)
            return fprintf(stderr, "bench_acoustics: %s\n", err.message), 1;
        builds[r] = bench_now() - t0;
    }
    printf("%s: %u probes, %u edges; build (section read, checks, grid, components, landmarks) "
           "median %.2f ms\n",
           path ? path : "lattice", g.np, g.ne, 1e3 * bench_median(builds, 5));
    run(ac, &g, q, 0);
    run(ac, &g, q, 1);
    blvl_acoustics_free(ac);
    blvl_close(lv);
    blvl_free(NULL, mem);
    free(g.first);
    free(g.to);
    free(g.pos);
    return 0;
}
