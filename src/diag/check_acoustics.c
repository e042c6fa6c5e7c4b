/* The acoustic probe graph: first_edge monotone and within the edges, every edge's far end and
 * every probe's room in range, and every edge's opposite present. */
#include "diag/diag_internal.h"

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

void blvl__diag_check_acoustics(diag_run *d) {
    if (!blvl__diag_any(d, DG_EDGE_OPPOSITE, DG_ACOUSTIC_REF))
        return;
    blvl_Acoustics ac = d->ac;
    uint32_t np = blvl_Acoustics_probes_len(ac), ne = blvl_Acoustics_edges_len(ac);
    uint32_t nr = blvl_Acoustics_rooms_len(ac);
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
    /* A hostile graph (every edge on one probe) makes the opposite search quadratic: past this
     * many edge visits the rest of the edges are not searched for their opposite. */
    uint64_t budget = 50u * 1000u * 1000u;
    for (uint32_t p = 0; p < np && !d->stop; p++) {
        uint32_t a, b;
        edge_range(ac, np, ne, p, &a, &b);
        for (uint32_t e = a; e < b && !d->stop; e++) {
            uint32_t to = blvl_Acoustics_edges_at(ac, e).to;
            if (to >= np) {
                blvl__diag_emit(d, DG_ACOUSTIC_REF, "acoustics.edges", e, DG_SRC_NONE, 0,
                                "to %u out of range (%u probes)", to, np);
                continue;
            }
            if (!monotone || !d->on[DG_EDGE_OPPOSITE])
                continue; /* without a monotone first_edge the groups are not known */
            uint32_t c, f;
            edge_range(ac, np, ne, to, &c, &f);
            if (f - c > budget)
                continue;
            budget -= f - c;
            bool found = false;
            for (uint32_t k = c; k < f && !found; k++)
                found = blvl_Acoustics_edges_at(ac, k).to == p;
            if (!found)
                blvl__diag_emit(d, DG_EDGE_OPPOSITE, "acoustics.edges", e, DG_SRC_NONE, 0,
                                "edge %u -> %u has no edge %u -> %u", p, to, to, p);
        }
    }
}
