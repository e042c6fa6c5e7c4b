/* Building the acoustics query object: the section verified, its graph copied out and held to
 * the rules a walk relies on (each refusal names its rule last, in parentheses, as
 * docs/ACOUSTICS.md lists them), then the probes hashed into a grid for the nearest-probe search
 * and the graph's components and landmarks found (landmarks.c). Everything the queries read is
 * made here; nothing is written after. */
#include <math.h>
#include <string.h>

#include "acoustics/acoustics_internal.h"
#include "blvl/sections.h"
#include "common/alloc.h"
#include "common/error.h"

int32_t blvl__acoustics_cell_of(float v, float cell) {
    float q = floorf(v / cell);
    if (!(q > -1073741824.0f)) /* NaN too: the queries refuse those before they get here */
        return -1073741824;
    if (q > 1073741824.0f)
        return 1073741824;
    return (int32_t)q;
}

uint32_t blvl__acoustics_bucket(const blvl_acoustics *ac, int32_t x, int32_t y, int32_t z) {
    uint32_t h = ((uint32_t)x * 73856093u) ^ ((uint32_t)y * 19349663u) ^ ((uint32_t)z * 83492791u);
    h ^= h >> 15;
    return h & ac->bucket_mask;
}

static bool coord_ok(float v) {
    return isfinite(v) && fabsf(v) <= BLVL_ACOUSTICS_MAX_COORD;
}

static blvl_status check_probes(const blvl_acoustics *ac, blvl_error *err) {
    for (uint32_t p = 0; p < ac->probe_count; p++) {
        const blvl_AcousticProbe *pr = &ac->probes[p];
        if (!coord_ok(pr->position.x) || !coord_ok(pr->position.y) || !coord_ok(pr->position.z))
            return blvl__fail(err, BLVL_E_FLATBUFFER,
                              "acoustics: probes[%u].position is not finite within %g qu "
                              "(probe-position)",
                              p, (double)BLVL_ACOUSTICS_MAX_COORD);
        uint32_t prev = p ? ac->probes[p - 1].first_edge : 0;
        if (pr->first_edge < prev || pr->first_edge > ac->edge_count ||
            (p == 0 && pr->first_edge != 0))
            return blvl__fail(err, BLVL_E_FLATBUFFER,
                              "acoustics: probes[%u].first_edge %u is not within %u..%u "
                              "(first-edge)",
                              p, pr->first_edge, prev, p ? ac->edge_count : 0);
        if (pr->room >= ac->room_count)
            return blvl__fail(err, BLVL_E_FLATBUFFER,
                              "acoustics: probes[%u].room %u is not below the %u rooms "
                              "(probe-room)",
                              p, pr->room, ac->room_count);
    }
    return BLVL_OK;
}

static blvl_status check_edges(blvl_acoustics *ac, blvl_error *err) {
    float scale = BLVL_ACOUSTICS_METRES_PER_QU;
    for (uint32_t p = 0; p < ac->probe_count; p++) {
        const blvl_Vec3 a = ac->probes[p].position;
        for (uint32_t e = ac->first[p]; e < ac->first[p + 1]; e++) {
            const blvl_AcousticEdge *ed = &ac->edges[e];
            if (ed->to >= ac->probe_count)
                return blvl__fail(err, BLVL_E_FLATBUFFER,
                                  "acoustics: edges[%u].to %u is not below the %u probes "
                                  "(edge-target)",
                                  e, ed->to, ac->probe_count);
            if (!isfinite(ed->len_m) || ed->len_m < 0)
                return blvl__fail(err, BLVL_E_FLATBUFFER,
                                  "acoustics: edges[%u].len_m %g is not a finite length "
                                  "(edge-length)",
                                  e, (double)ed->len_m);
            const blvl_Vec3 b = ac->probes[ed->to].position;
            double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
            double d = sqrt(dx * dx + dy * dy + dz * dz);
            if (d > 0 && ed->len_m / d < scale)
                scale = (float)(ed->len_m / d);
        }
    }
    ac->h_scale = scale;
    return BLVL_OK;
}

/* Counting sort of the probes into the grid's buckets (ascending index within one). */
static blvl_status build_grid(blvl_acoustics *ac, blvl_error *err) {
    uint32_t nb = 1;
    while (nb < ac->probe_count && nb < (1u << 30))
        nb <<= 1;
    ac->bucket_mask = nb - 1;
    ac->bucket_start = blvl__calloc_n(&ac->opt.allocator, (size_t)nb + 1, sizeof(uint32_t));
    ac->bucket_items =
        blvl__calloc_n(&ac->opt.allocator, (size_t)ac->probe_count + 1, sizeof(uint32_t));
    if (!ac->bucket_start || !ac->bucket_items)
        return blvl__nomem(err, "acoustics: the probe grid of %u probes", ac->probe_count);
    for (uint32_t p = 0; p < ac->probe_count; p++) {
        blvl_Vec3 v = ac->probes[p].position;
        uint32_t b = blvl__acoustics_bucket(ac, blvl__acoustics_cell_of(v.x, ac->cell),
                                            blvl__acoustics_cell_of(v.y, ac->cell),
                                            blvl__acoustics_cell_of(v.z, ac->cell));
        ac->bucket_start[b + 1]++;
    }
    for (uint32_t b = 0; b < nb; b++)
        ac->bucket_start[b + 1] += ac->bucket_start[b];
    /* each probe after its bucket's filled ones: bucket_start[b] moves to the next start */
    for (uint32_t p = 0; p < ac->probe_count; p++) {
        blvl_Vec3 v = ac->probes[p].position;
        uint32_t b = blvl__acoustics_bucket(ac, blvl__acoustics_cell_of(v.x, ac->cell),
                                            blvl__acoustics_cell_of(v.y, ac->cell),
                                            blvl__acoustics_cell_of(v.z, ac->cell));
        ac->bucket_items[ac->bucket_start[b]++] = p;
    }
    /* the cursors ended at the next bucket's start: shift back */
    for (uint32_t b = nb; b > 0; b--)
        ac->bucket_start[b] = ac->bucket_start[b - 1];
    ac->bucket_start[0] = 0;
    return BLVL_OK;
}

static blvl_status copy_section(blvl_acoustics *ac, blvl_Acoustics root, blvl_error *err) {
    const blvl_allocator *al = &ac->opt.allocator;
    ac->probe_count = blvl_Acoustics_probes_len(root);
    ac->edge_count = blvl_Acoustics_edges_len(root);
    ac->room_count = blvl_Acoustics_rooms_len(root);
    ac->probes = blvl__calloc_n(al, (size_t)ac->probe_count + 1, sizeof *ac->probes);
    ac->edges = blvl__calloc_n(al, (size_t)ac->edge_count + 1, sizeof *ac->edges);
    ac->first = blvl__calloc_n(al, (size_t)ac->probe_count + 1, sizeof *ac->first);
    ac->rooms = blvl__calloc_n(al, (size_t)ac->room_count + 1, sizeof *ac->rooms);
    if (!ac->probes || !ac->edges || !ac->first || !ac->rooms)
        return blvl__nomem(err, "acoustics: %u probes, %u edges, %u rooms", ac->probe_count,
                           ac->edge_count, ac->room_count);
    blvl_Acoustics_probes_copy(root, 0, ac->probes, ac->probe_count);
    blvl_Acoustics_edges_copy(root, 0, ac->edges, ac->edge_count);
    for (uint32_t r = 0; r < ac->room_count; r++) {
        blvl_AcousticRoom room = blvl_Acoustics_rooms_at(root, r);
        ac->rooms[r] =
            (blvl_acoustics_room){r, blvl_AcousticRoom_rt60_s(room),
                                  blvl_AcousticRoom_damping(room), blvl_AcousticRoom_outdoor(room)};
    }
    return BLVL_OK;
}

static blvl_status build(blvl_acoustics **out, blvl_Acoustics root,
                         const blvl_acoustics_options *opt, blvl_error *err) {
    blvl_options base = {0};
    if (opt)
        base = opt->base;
    float radius = opt && opt->radius != 0 ? opt->radius : BLVL_ACOUSTICS_RADIUS;
    if (!(radius > 0 && radius <= BLVL_ACOUSTICS_MAX_RADIUS))
        return blvl__fail(err, BLVL_E_ARGUMENT, "acoustics: radius %g is not within 0..%g",
                          (double)radius, (double)BLVL_ACOUSTICS_MAX_RADIUS);
    blvl_acoustics *ac = blvl__calloc(&base.allocator, sizeof *ac);
    if (!ac)
        return blvl__nomem(err, "acoustics: the query object");
    ac->opt = base;
    ac->radius = radius;
    ac->cell = radius / 4 > 16 ? radius / 4 : 16;
    blvl_status st = copy_section(ac, root, err);
    if (st == BLVL_OK)
        st = check_probes(ac, err);
    if (st == BLVL_OK) {
        for (uint32_t p = 0; p < ac->probe_count; p++)
            ac->first[p] = ac->probes[p].first_edge;
        ac->first[ac->probe_count] = ac->edge_count;
        st = check_edges(ac, err);
    }
    if (st == BLVL_OK)
        st = build_grid(ac, err);
    if (st == BLVL_OK)
        st = blvl__acoustics_index(ac, err);
    if (st != BLVL_OK) {
        blvl_acoustics_free(ac);
        return st;
    }
    *out = ac;
    return BLVL_OK;
}

blvl_status blvl_acoustics_new_memory(blvl_acoustics **out, const void *bytes, size_t size,
                                      const blvl_acoustics_options *opt, blvl_error *err) {
    if (!out || (!bytes && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "acoustics: no output or no bytes");
    *out = NULL;
    blvl_status st =
        blvl_fb_verify(bytes, size, &blvl_Acoustics_type, opt ? &opt->base : NULL, err);
    if (st != BLVL_OK)
        return st;
    return build(out, blvl_Acoustics_root(bytes), opt, err);
}

blvl_status blvl_acoustics_new(blvl_acoustics **out, blvl_level *level,
                               const blvl_acoustics_options *opt, blvl_error *err) {
    if (!out || !level)
        return blvl__fail(err, BLVL_E_ARGUMENT, "acoustics: no output or no level");
    *out = NULL;
    blvl_bytes sec;
    blvl_Acoustics root;
    /* the sections layer's reading: present, at a known version, verified */
    blvl_status st = blvl_level_acoustics(level, &sec, &root, err);
    if (st != BLVL_OK)
        return st;
    st = build(out, root, opt, err);
    blvl_bytes_free(&sec);
    return st;
}

void blvl_acoustics_free(blvl_acoustics *ac) {
    if (!ac)
        return;
    blvl_options o = ac->opt;
    const blvl_allocator *al = &o.allocator;
    blvl__dealloc(al, ac->probes, ((size_t)ac->probe_count + 1) * sizeof *ac->probes);
    blvl__dealloc(al, ac->edges, ((size_t)ac->edge_count + 1) * sizeof *ac->edges);
    blvl__dealloc(al, ac->first, ((size_t)ac->probe_count + 1) * sizeof *ac->first);
    blvl__dealloc(al, ac->rooms, ((size_t)ac->room_count + 1) * sizeof *ac->rooms);
    blvl__dealloc(al, ac->bucket_start, ((size_t)ac->bucket_mask + 2) * sizeof(uint32_t));
    blvl__dealloc(al, ac->bucket_items, ((size_t)ac->probe_count + 1) * sizeof(uint32_t));
    blvl__acoustics_index_free(ac);
    blvl__dealloc(al, ac, sizeof *ac);
}

void blvl_acoustics_counts(const blvl_acoustics *ac, uint32_t *probes, uint32_t *edges,
                           uint32_t *rooms) {
    if (probes)
        *probes = ac ? ac->probe_count : 0;
    if (edges)
        *edges = ac ? ac->edge_count : 0;
    if (rooms)
        *rooms = ac ? ac->room_count : 0;
}

bool blvl_acoustics_probe(const blvl_acoustics *ac, uint32_t probe, float position[3],
                          blvl_acoustics_room *room) {
    if (!ac || probe >= ac->probe_count)
        return false;
    blvl_Vec3 v = ac->probes[probe].position;
    if (position) {
        position[0] = v.x;
        position[1] = v.y;
        position[2] = v.z;
    }
    if (room)
        *room = ac->rooms[ac->probes[probe].room];
    return true;
}
