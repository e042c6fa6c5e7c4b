/* The acoustic probe graph (docs/DIAG.md, D0029-D0031, D0039-D0045): first_edge monotone and
 * within the edges, every edge's far end, door and every probe's room in range, every edge's
 * opposite present and agreeing with it, len_m the probes' distance, the rooms' figures in their
 * ranges, a probe's mean ray length possible for its share of hits, and each probe standing
 * outside every solid with a floor under it (doors open, as the section is baked). */
#include <math.h>

#include "diag/diag_internal.h"

#define AC_NO_DOOR 65535u
#define AC_M_PER_QU 0.0254
#define AC_RAY_M 45.0 /* a ray's reach, metres: enclosed counts hits within it */
/* A probe stands at ear height (at most 72 qu) straight above its floor; the floor under a
 * player's box may be a stair step or a slope higher than the point straight below. */
#define AC_FLOOR_REACH 96.0f
/* What stops both a player and a shot is a wall for sound: player-through (bit 7) and
 * shot-through (bit 5: clips, grates) are not. */
#define AC_NOT_SOLID (BLVL_COLLIDER_SHOT_THROUGH | BLVL_COLLIDER_PLAYER_THROUGH)

/* The edges of probe p: first_edge(p) .. first_edge(p + 1) (last: the end), clamped. */
static void edge_range(blvl_Acoustics ac, uint32_t np, uint32_t ne, uint32_t p, uint32_t *a,
                       uint32_t *b) {
    uint32_t s = blvl_Acoustics_probes_at(ac, p).first_edge;
    uint32_t e = p + 1 < np ? blvl_Acoustics_probes_at(ac, p + 1).first_edge : ne;
    *a = s < ne ? s : ne;
    *b = e < ne ? e : ne;
    if (*b < *a)
        *b = *a;
}

/* first_edge's order (D0030) and each probe's room (D0031); returns whether first_edge is
 * monotone (the edge groups are known). */
static bool probes_order(diag_run *d, uint32_t np, uint32_t ne, uint32_t nr) {
    blvl_Acoustics ac = d->ac;
    bool monotone = true;
    for (uint32_t p = 0; p < np && !d->stop; p++) {
        blvl_AcousticProbe pr = blvl_Acoustics_probes_at(ac, p);
        uint32_t prev = p ? blvl_Acoustics_probes_at(ac, p - 1).first_edge : 0;
        if (pr.first_edge < prev || pr.first_edge > ne) {
            monotone = false;
            blvl__diag_emit(d, DG_FIRST_EDGE, "acoustics.probes", p, DG_SRC_NONE, 0,
                            "first_edge %u after %u (%u edges)", pr.first_edge, prev, ne);
        }
        if (pr.room >= nr)
            blvl__diag_emit(d, DG_ACOUSTIC_REF, "acoustics.probes", p, DG_SRC_NONE, 0,
                            "room %u out of range (%u rooms)", pr.room, nr);
    }
    if (np && blvl_Acoustics_probes_at(ac, 0).first_edge != 0 && monotone)
        blvl__diag_emit(d, DG_FIRST_EDGE, "acoustics.probes", 0, DG_SRC_NONE, 0,
                        "first_edge %u: edges before it belong to no probe",
                        blvl_Acoustics_probes_at(ac, 0).first_edge);
    if (!np && ne)
        blvl__diag_emit(d, DG_FIRST_EDGE, "acoustics", BLVL_DIAG_NONE, DG_SRC_NONE, 0,
                        "%u edges and no probe: they belong to no probe", ne);
    return monotone;
}

/* Edge e = p -> to: len_m against the probes' distance (D0039; positions that are not finite
 * are D0017's). */
static void edge_length(diag_run *d, uint32_t e, uint32_t p, blvl_AcousticEdge ed) {
    blvl_Vec3 a = blvl_Acoustics_probes_at(d->ac, p).position;
    blvl_Vec3 b = blvl_Acoustics_probes_at(d->ac, ed.to).position;
    if (!blvl__diag_finite3(a) || !blvl__diag_finite3(b))
        return;
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    double want = sqrt(dx * dx + dy * dy + dz * dz) * AC_M_PER_QU;
    if (!(fabs((double)ed.len_m - want) <= 0.01 + 1e-4 * want))
        blvl__diag_emit(d, DG_ACOUSTIC_LENGTH, "acoustics.edges", e, DG_SRC_NONE, 0,
                        "edge %u -> %u: len_m %g, the probes are %.4g m apart", p, ed.to,
                        (double)ed.len_m, want);
}

/* Edge e = p -> to's opposite among to's edges: missing (D0029), or disagreeing on door or
 * narrow (D0040). *budget bounds the search on a hostile graph (every edge on one probe). */
static void edge_opposite(diag_run *d, uint32_t e, uint32_t p, blvl_AcousticEdge ed,
                          uint64_t *budget) {
    blvl_Acoustics ac = d->ac;
    uint32_t np = blvl_Acoustics_probes_len(ac), ne = blvl_Acoustics_edges_len(ac);
    uint32_t c, f;
    edge_range(ac, np, ne, ed.to, &c, &f);
    if (f - c > *budget)
        return;
    *budget -= f - c;
    bool found = false, agrees = false;
    blvl_AcousticEdge back = {0};
    for (uint32_t k = c; k < f && !agrees; k++) {
        blvl_AcousticEdge o = blvl_Acoustics_edges_at(ac, k);
        if (o.to != p)
            continue;
        found = true;
        back = o;
        agrees = o.door == ed.door && o.narrow == ed.narrow;
    }
    if (!found)
        blvl__diag_emit(d, DG_EDGE_OPPOSITE, "acoustics.edges", e, DG_SRC_NONE, 0,
                        "edge %u -> %u has no edge %u -> %u", p, ed.to, ed.to, p);
    else if (!agrees)
        blvl__diag_emit(d, DG_ACOUSTIC_PAIR, "acoustics.edges", e, DG_SRC_NONE, 0,
                        "edge %u -> %u: door %u narrow %d, its opposite door %u narrow %d", p,
                        ed.to, (unsigned)ed.door, (int)ed.narrow, (unsigned)back.door,
                        (int)back.narrow);
}

/* Every edge: its far end (D0031) and door (D0041) in range; with known groups, its length and
 * its opposite. */
static void edges(diag_run *d, bool monotone) {
    blvl_Acoustics ac = d->ac;
    uint32_t np = blvl_Acoustics_probes_len(ac), ne = blvl_Acoustics_edges_len(ac);
    /* the doors an edge may name; a damaged sim is not judged (D0000) */
    bool doors = blvl__diag_ok(d, DG_SIM) && d->on[DG_ACOUSTIC_DOOR];
    uint32_t nd = blvl_Sim_doors_len(d->sim);
    uint64_t budget = 50u * 1000u * 1000u;
    for (uint32_t p = 0; p < np && !d->stop; p++) {
        uint32_t a, b;
        edge_range(ac, np, ne, p, &a, &b);
        for (uint32_t e = a; e < b && !d->stop; e++) {
            blvl_AcousticEdge ed = blvl_Acoustics_edges_at(ac, e);
            if (doors && ed.door != AC_NO_DOOR && ed.door >= nd)
                blvl__diag_emit(d, DG_ACOUSTIC_DOOR, "acoustics.edges", e, DG_SRC_NONE, 0,
                                "door %u out of range (%u doors)", (unsigned)ed.door, nd);
            if (ed.to >= np) {
                blvl__diag_emit(d, DG_ACOUSTIC_REF, "acoustics.edges", e, DG_SRC_NONE, 0,
                                "to %u out of range (%u probes)", ed.to, np);
                continue;
            }
            if (!monotone)
                continue; /* without a monotone first_edge the groups are not known */
            if (d->on[DG_ACOUSTIC_LENGTH])
                edge_length(d, e, p, ed);
            if (d->on[DG_EDGE_OPPOSITE] || d->on[DG_ACOUSTIC_PAIR])
                edge_opposite(d, e, p, ed, &budget);
        }
    }
}

/* Each room's figures (D0042): rt60_s finite and not negative, damping in 0..1. */
static void rooms(diag_run *d) {
    uint32_t nr = blvl_Acoustics_rooms_len(d->ac);
    for (uint32_t r = 0; r < nr && d->on[DG_ACOUSTIC_ROOM] && !d->stop; r++) {
        blvl_AcousticRoom room = blvl_Acoustics_rooms_at(d->ac, r);
        float t = blvl_AcousticRoom_rt60_s(room), k = blvl_AcousticRoom_damping(room);
        if (!(isfinite(t) && t >= 0) || !(k >= 0 && k <= 1))
            blvl__diag_emit(d, DG_ACOUSTIC_ROOM, "acoustics.rooms", r, DG_SRC_NONE, 0,
                            "rt60_s %g, damping %g (rt60_s >= 0, damping 0..1)", (double)t,
                            (double)k);
    }
}

/* A probe's size_m against its enclosed (D0043). Every ray runs up to 45 m and one that hits
 * nothing counts 45 m, so the mean is at least 45 m times the share that missed, and a probe all
 * of whose rays hit within 45 m has a mean within 45 m; one byte of slack for either rounding. */
static void probe_rays(diag_run *d) {
    uint32_t np = blvl_Acoustics_probes_len(d->ac);
    for (uint32_t p = 0; p < np && d->on[DG_PROBE_RAYS] && !d->stop; p++) {
        blvl_AcousticProbe pr = blvl_Acoustics_probes_at(d->ac, p);
        double least = AC_RAY_M * (254.0 - pr.enclosed) / 255.0 - 1.0;
        if (pr.size_m < least || (pr.enclosed == 255 && pr.size_m > AC_RAY_M + 1))
            blvl__diag_emit(d, DG_PROBE_RAYS, "acoustics.probes", p, DG_SRC_NONE, 0,
                            "size_m %u with enclosed %u: the rays' mean is %s", pr.size_m,
                            pr.enclosed,
                            pr.enclosed == 255 && pr.size_m > AC_RAY_M + 1
                                ? "within 45 m when every ray hits within 45 m"
                                : "at least 45 m times the share of rays that hit nothing");
    }
}

/* Is collider i part of a door (one of sim.doors; a door index past them is D0006's, and the
 * collider stays solid)? */
static bool is_door(const diag_run *d, uint32_t i) {
    return blvl_Collider_door(blvl_Sim_colliders_at(d->sim, i)) < blvl_Sim_doors_len(d->sim);
}

/* The door colliders as a skip set (the section is baked with every door open); NULL when
 * there are none or no memory (then a fatal NOMEM is set). */
static uint32_t *door_skip(diag_run *d, uint32_t n, uint32_t *words) {
    *words = (n + 31) / 32;
    bool any = false;
    for (uint32_t i = 0; i < n && !any; i++)
        any = is_door(d, i);
    if (!any)
        return NULL;
    uint32_t *skip = blvl__calloc_n(d->al, *words, sizeof *skip);
    if (!skip) {
        d->fatal = BLVL_E_NOMEM;
        d->stop = 1;
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        if (is_door(d, i))
            skip[i / 32] |= 1u << (i % 32);
    return skip;
}

/* Each probe outside every solid (D0044) and over a floor within reach (D0045), doors open. */
static void probe_places(diag_run *d) {
    uint32_t np = blvl_Acoustics_probes_len(d->ac);
    if (!np || !blvl__diag_any(d, DG_PROBE_SOLID, DG_PROBE_FLOOR))
        return;
    const blvl_trace_world *w = blvl__diag_world(d);
    if (!w)
        return;
    uint32_t words = 0, n = blvl_trace_world_collider_count(w);
    uint32_t *skip = door_skip(d, n, &words);
    blvl_trace_filter solid = {.mover = BLVL_TRACE_AS_CUSTOM,
                               .exclude = AC_NOT_SOLID,
                               .skip = skip,
                               .skip_words = skip ? words : 0};
    blvl_trace_filter floor = {
        .mover = BLVL_TRACE_AS_PLAYER, .skip = skip, .skip_words = skip ? words : 0};
    for (uint32_t p = 0; p < np && !d->stop; p++) {
        blvl_Vec3 v = blvl_Acoustics_probes_at(d->ac, p).position;
        if (!blvl__diag_finite3(v))
            continue; /* D0017 */
        const float q[3] = {v.x, v.y, v.z};
        uint32_t c = BLVL_TRACE_NONE;
        if (blvl_trace_point_contents(w, &solid, q, NULL, &c) > 0) {
            blvl__diag_emit(d, DG_PROBE_SOLID, "acoustics.probes", p, DG_SRC_COLLIDER, c,
                            "at %g %g %g inside collider %u", (double)v.x, (double)v.y, (double)v.z,
                            c);
            continue; /* a floor below a point in a solid means nothing */
        }
        if (!d->on[DG_PROBE_FLOOR])
            continue;
        const float to[3] = {v.x, v.y - AC_FLOOR_REACH, v.z};
        blvl_trace_result r;
        blvl_trace_ray(w, &floor, q, to, &r);
        if (r.fraction >= 1.0f && !r.startsolid)
            blvl__diag_emit(d, DG_PROBE_FLOOR, "acoustics.probes", p, DG_SRC_NONE, 0,
                            "at %g %g %g: nothing solid within %g units below it", (double)v.x,
                            (double)v.y, (double)v.z, (double)AC_FLOOR_REACH);
    }
    if (skip)
        blvl__dealloc(d->al, skip, (size_t)words * sizeof *skip);
}

void blvl__diag_check_acoustics(diag_run *d) {
    if (!blvl__diag_any(d, DG_EDGE_OPPOSITE, DG_ACOUSTIC_REF) &&
        !blvl__diag_any(d, DG_ACOUSTIC_LENGTH, DG_PROBE_FLOOR))
        return;
    blvl_Acoustics ac = d->ac;
    uint32_t np = blvl_Acoustics_probes_len(ac), ne = blvl_Acoustics_edges_len(ac);
    bool monotone = probes_order(d, np, ne, blvl_Acoustics_rooms_len(ac));
    edges(d, monotone);
    rooms(d);
    probe_rays(d);
    probe_places(d);
}
