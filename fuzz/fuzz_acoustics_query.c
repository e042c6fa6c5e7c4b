/* Fuzz the acoustics runtime query (blvl/acoustics.h) with hostile sections and random queries.
 * Input: u8 mode, then
 * - mode bit 0 clear: u16 section size, that many bytes as the acoustics section's FlatBuffer
 *   (the verifier and the graph rules must refuse what they cannot walk);
 * - mode bit 0 set: u8 probes, u8 edges, u8 rooms, then raw probe (20 bytes) and edge (12
 *   bytes) records built into a section with the builder; mode bit 1 repairs the records into a
 *   graph the rules accept (first_edge monotone, targets and rooms in range, small positions,
 *   lengths not negative), so the walk itself is exercised; bit 2 adds a random len_m scale;
 * then query points (int16 x 3, quarter units, for the sound and the listener) until the bytes
 * run out; bit 3 traces against a wall (a trace world) for the nearest probe; bit 4 charges
 * doors by their team's low bits (some impassable). Checks: a build fails only by refusal; every
 * query ends, returns OK, and its result is in range (probes below the count, lengths finite and
 * not negative, doors listed no more than counted). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/acoustics.h"
#include "blvl/sections/acoustics_builder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXP 64
#define MAXE 256

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

/* A section from records, repaired when asked; the builder's bytes into *out (malloc'd). */
static size_t structured(const uint8_t *d, size_t size, size_t *at, uint8_t mode, void **out) {
    if (*at + 3 > size)
        return 0;
    uint32_t np = d[*at] % (MAXP + 1), ne = d[*at + 1] % (MAXE + 1), nr = d[*at + 2] % 5;
    *at += 3;
    static blvl_AcousticProbe p[MAXP];
    static blvl_AcousticEdge e[MAXE];
    memset(p, 0, sizeof p);
    memset(e, 0, sizeof e);
    for (uint32_t i = 0; i < np && *at + sizeof p[i] <= size; i++, *at += sizeof p[i])
        memcpy(&p[i], d + *at, sizeof p[i]);
    for (uint32_t i = 0; i < ne && *at + sizeof e[i] <= size; i++, *at += sizeof e[i])
        memcpy(&e[i], d + *at, sizeof e[i]);
    if (mode & 2) {
        uint32_t first = 0;
        for (uint32_t i = 0; i < np; i++) {
            p[i].first_edge = i == 0 ? 0 : first;
            first += p[i].first_edge % 7; /* some probes without edges, some with many */
            first = first > ne ? ne : first;
            p[i].room = nr ? (uint16_t)(p[i].room % nr) : 0;
            p[i].position =
                (blvl_Vec3){(float)(int8_t)p[i].enclosed * 16.0f, (float)(p[i].size_m % 8) * 16.0f,
                            (float)(int8_t)(p[i].room >> 8) * 16.0f};
        }
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

static void check_path(const blvl_acoustics_path *r, uint32_t np) {
    if (r->sound_probe != BLVL_ACOUSTICS_NONE && r->sound_probe >= np)
        abort();
    if (r->listener_probe != BLVL_ACOUSTICS_NONE && r->listener_probe >= np)
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
    uint32_t np;
    blvl_acoustics_counts(ac, &np, NULL, NULL);
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
        check_path(&r, np);
        uint32_t near = blvl_acoustics_nearest(ac, pt, &q);
        if (near != BLVL_ACOUSTICS_NONE && near >= np)
            abort();
    }
    blvl_acoustics_scratch_free(s);
    blvl_trace_world_free(w);
    blvl_acoustics_free(ac);
    return 0;
}
