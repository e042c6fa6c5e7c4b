/* Fuzz the acoustics runtime query (blvl/acoustics.h) with hostile sections and random queries.
 * Input: u8 mode, then
 * - mode bit 0 clear: u16 section size, that many bytes as the acoustics section's FlatBuffer
 *   (the verifier and the graph rules must refuse what they cannot walk);
 * - mode bit 0 set: u8 probes, u8 edges, u8 rooms (with mode bit 1: and u8 given), then raw
 *   probe (20 bytes) and edge (12 bytes) records built into a section with the builder; mode
 *   bit 1 repairs the records into a graph the rules accept (first_edge monotone, targets and
 *   rooms in range, small positions, lengths not negative), so the walk itself is exercised,
 *   and reads at most `given` records of each kind: the probes and edges past them (or past the
 *   bytes) become a lattice (each probe linked to a row and a column neighbour), so components
 *   grow big enough for landmarks; bit 2 adds a random len_m scale;
 * then query points (int16 x 3, quarter units, for the sound and the listener) until the bytes
 * run out; bit 3 traces against a wall (a trace world) for the nearest probe; bit 4 charges
 * doors by their team's low bits (some impassable). Checks: a build fails only by refusal; every
 * query ends, returns OK, and its result is in range (probes below the count, lengths finite and
 * not negative, doors listed no more than counted); on a repaired graph with small lengths (bits
 * 1 and 2), the first queries' cost, and that of a query between two probes the same bytes
 * name, is a plain Dijkstra's over the same records. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/acoustics.h"
#include "blvl/sections/acoustics_builder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXP 255
#define MAXE 255

static float door_cost(void *user, uint16_t door) {
    (void)user;
    switch (door & 3) {
    case 0:
        return 0;
    case 1:
        return 5;
    case 2:
        return INFINITY;
    default:
        return -1;
    }
}

/* The records of the last structured section (what the oracle walks). */
static blvl_AcousticProbe p[MAXP];
static blvl_AcousticEdge e[MAXE];
static uint32_t np, ne;

/* The records the bytes did not give, from `gp` probes and `ge` edges on: probes on a lattice 16
 * wide, 64 qu apart, each with its share of the edges, each edge to a neighbour. */
static void lattice(uint32_t gp, uint32_t ge) {
    uint32_t first = gp ? p[gp - 1].first_edge : 0;
    for (uint32_t i = gp; i < np; i++) {
        p[i].first_edge = i == 0 ? 0 : (first = first + 2 > ne ? ne : first + 2);
        p[i].position = (blvl_Vec3){(float)(i % 16) * 64.0f, 0, (float)(i / 16) * 64.0f};
    }
    for (uint32_t i = 0; i < np; i++) {
        uint32_t end = i + 1 < np ? p[i + 1].first_edge : ne;
        for (uint32_t k = p[i].first_edge; k < end; k++)
            if (k >= ge) {
                e[k].to = (i + (k % 2 ? 16 : np - 1)) % np;
                e[k].len_m = 64.0f * 0.0254f * (float)(1 + k % 3);
            }
    }
}

/* A section from records, repaired when asked; the builder's bytes into *out (malloc'd). */
static size_t structured(const uint8_t *d, size_t size, size_t *at, uint8_t mode, void **out) {
    size_t head = mode & 2 ? 4 : 3;
    if (*at + head > size)
        return 0;
    np = d[*at] % (MAXP + 1), ne = d[*at + 1] % (MAXE + 1);
    uint32_t nr = d[*at + 2] % 5, gp = 0, ge = 0, given = mode & 2 ? d[*at + 3] : MAXP;
    *at += head;
    memset(p, 0, sizeof p);
    memset(e, 0, sizeof e);
    for (; gp < np && gp < given && *at + sizeof p[gp] <= size; gp++, *at += sizeof p[gp])
        memcpy(&p[gp], d + *at, sizeof p[gp]);
    for (; ge < ne && ge < given && *at + sizeof e[ge] <= size; ge++, *at += sizeof e[ge])
        memcpy(&e[ge], d + *at, sizeof e[ge]);
    if (mode & 2) {
        uint32_t first = 0;
        for (uint32_t i = 0; i < gp; i++) {
            p[i].first_edge = i == 0 ? 0 : first;
            first += p[i].first_edge % 7; /* some probes without edges, some with many */
            first = first > ne ? ne : first;
            p[i].room = nr ? (uint16_t)(p[i].room % nr) : 0;
            p[i].position =
                (blvl_Vec3){(float)(int8_t)p[i].enclosed * 16.0f, (float)(p[i].size_m % 8) * 16.0f,
                            (float)(int8_t)(p[i].room >> 8) * 16.0f};
        }
        lattice(gp, ge);
        for (uint32_t i = 0; i < ne; i++) {
            e[i].to = np ? e[i].to % np : 0;
            e[i].len_m = isfinite(e[i].len_m) ? fabsf(e[i].len_m) : 1.0f;
            if (mode & 4)
                e[i].len_m = fmodf(e[i].len_m, 64.0f);
        }
    }
    blvl_fb_builder *b;
    if (blvl_fb_builder_new(&b, NULL, NULL) != BLVL_OK)
        return 0;
    blvl_fb_ref rooms[5];
    for (uint32_t r = 0; r < nr; r++) {
        blvl_AcousticRoom_start(b);
        blvl_AcousticRoom_add_rt60_s(b, (float)r);
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
    const uint8_t *bytes;
    size_t n = 0;
    if (blvl_Acoustics_finish(b, root, &bytes, &n, NULL) == BLVL_OK && (*out = malloc(n)))
        memcpy(*out, bytes, n);
    else
        n = 0;
    blvl_fb_builder_free(b);
    return n;
}

static blvl_trace_world *wall(void) {
    static const blvl_Plane planes[6] = {{{1, 0, 0}, 8},     {{-1, 0, 0}, 8},   {{0, 1, 0}, 4096},
                                         {{0, -1, 0}, 4096}, {{0, 0, 1}, 4096}, {{0, 0, -1}, 4096}};
    blvl_trace_collider_desc c;
    blvl_trace_collider_desc_init(&c);
    c.lo = (blvl_Vec3){-8, -4096, -4096};
    c.hi = (blvl_Vec3){8, 4096, 4096};
    c.shape = BLVL_TRACE_SHAPE_PLANES;
    c.planes = planes;
    c.plane_count = 6;
    blvl_trace_world *w = NULL;
    blvl_trace_world_new(&w, &c, 1, NULL, NULL);
    return w;
}

/* The cheapest route's cost between two probes over the records (O(n^2) Dijkstra), door costs
 * as the query was given them; INFINITY when none. */
static float oracle(uint32_t from, uint32_t to, blvl_acoustics_door_cost_fn fn) {
    static float d[MAXP];
    static uint8_t done[MAXP];
    for (uint32_t i = 0; i < np; i++)
        d[i] = INFINITY, done[i] = 0;
    d[from] = 0;
    for (;;) {
        uint32_t u = np;
        for (uint32_t i = 0; i < np; i++)
            if (!done[i] && isfinite(d[i]) && (u == np || d[i] < d[u]))
                u = i;
        if (u == np || u == to)
            return d[to];
        done[u] = 1;
        uint32_t end = u + 1 < np ? p[u + 1].first_edge : ne;
        for (uint32_t k = p[u].first_edge; k < end; k++) {
            float price = fn && e[k].door != BLVL_ACOUSTICS_NO_DOOR ? fn(NULL, e[k].door) : 0;
            if (isfinite(price) && price >= 0 && d[u] + e[k].len_m + price < d[e[k].to])
                d[e[k].to] = d[u] + e[k].len_m + price;
        }
    }
}

static float metres(uint32_t probe, const float *pt) {
    blvl_Vec3 v = p[probe].position;
    float dx = v.x - pt[0], dy = v.y - pt[1], dz = v.z - pt[2];
    return sqrtf(dx * dx + dy * dy + dz * dz) * BLVL_ACOUSTICS_METRES_PER_QU;
}

/* The query's cost is the oracle's (both probes found, not one and the same). */
static void check_cost(const blvl_acoustics_path *r, const float *pt,
                       blvl_acoustics_door_cost_fn fn) {
    uint32_t a = r->sound_probe, b = r->listener_probe;
    if (a == BLVL_ACOUSTICS_NONE || b == BLVL_ACOUSTICS_NONE || a == b)
        return;
    float want = oracle(a, b, fn);
    if (!isfinite(want) != !r->found)
        abort();
    float got = r->cost_m - metres(a, pt) - metres(b, pt + 3);
    if (r->found && !(fabsf(got - want) <= 1e-3f * (want > 1 ? want : 1)))
        abort();
}

static void check_path(const blvl_acoustics_path *r, uint32_t count) {
    if (r->sound_probe != BLVL_ACOUSTICS_NONE && r->sound_probe >= count)
        abort();
    if (r->listener_probe != BLVL_ACOUSTICS_NONE && r->listener_probe >= count)
        abort();
    if (!isfinite(r->length_m) || r->length_m < 0 || !(r->straight_m >= 0) || !(r->cost_m >= 0))
        abort();
    if (r->found &&
        (r->sound_probe == BLVL_ACOUSTICS_NONE || r->listener_probe == BLVL_ACOUSTICS_NONE))
        abort();
    if (r->door_count > r->hops)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1)
        return 0;
    uint8_t mode = data[0];
    size_t at = 1, n = 0;
    void *bytes = NULL;
    if (mode & 1) {
        n = structured(data, size, &at, mode, &bytes);
    } else if (size >= 3) {
        n = (size_t)(data[1] | data[2] << 8);
        at = 3;
        n = n > size - at ? size - at : n;
        if ((bytes = malloc(n ? n : 1)))
            memcpy(bytes, data + at, n);
        at += n;
    }
    if (!bytes)
        return 0;
    blvl_acoustics *ac = NULL;
    blvl_error err;
    blvl_acoustics_options o = {0};
    o.radius = (float)(mode >> 5) * 256.0f; /* 0: the default */
    if (blvl_acoustics_new_memory(&ac, bytes, n, &o, &err) != BLVL_OK) {
        if (err.code == BLVL_OK)
            abort();
        free(bytes);
        return 0;
    }
    free(bytes);
    uint32_t count;
    blvl_acoustics_counts(ac, &count, NULL, NULL);
    blvl_trace_world *w = mode & 8 ? wall() : NULL;
    blvl_acoustics_query q = {w, NULL, mode & 16 ? door_cost : NULL, NULL};
    blvl_acoustics_scratch *s = NULL;
    blvl_acoustics_scratch_new(&s, ac, &err);
    for (int k = 0; k < 64 && at + 12 <= size; k++, at += 12) {
        float pt[6];
        for (int i = 0; i < 6; i++)
            pt[i] = (float)(int16_t)(data[at + 2 * i] | data[at + 2 * i + 1] << 8) / 4.0f;
        blvl_acoustics_path r;
        if (blvl_acoustics_path_find(ac, pt, pt + 3, &q, (k & 1) ? s : NULL, &r, &err) != BLVL_OK)
            abort();
        check_path(&r, count);
        if ((mode & 7) == 7 && k < 8 && np) {
            check_cost(&r, pt, q.door_cost);
            /* and from one probe to another, the pair from the same bytes */
            const blvl_Vec3 a = p[data[at] % np].position, b = p[data[at + 1] % np].position;
            const float ab[6] = {a.x, a.y, a.z, b.x, b.y, b.z};
            if (blvl_acoustics_path_find(ac, ab, ab + 3, &q, s, &r, &err) != BLVL_OK)
                abort();
            check_cost(&r, ab, q.door_cost);
        }
        uint32_t near = blvl_acoustics_nearest(ac, pt, &q);
        if (near != BLVL_ACOUSTICS_NONE && near >= count)
            abort();
    }
    blvl_acoustics_scratch_free(s);
    blvl_trace_world_free(w);
    blvl_acoustics_free(ac);
    return 0;
}
