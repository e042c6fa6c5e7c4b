/* A trace reports the plane it touched, on a synthetic level (test_trace_plane.h has the check,
 * the walk and the control): a closed room of 400 overlapping solids, a chained walk of a million
 * box traces and rays, every stop checked. Beside the room, four colliders of OpenArena's
 * oa_rpg3dm2 as the trace world holds them, and two player-box moves of that map whose stop
 * backs off (the box, pulled back DIST_EPSILON along the plane that stopped it, overlaps a solid
 * it grazed or meets at an angle): replayed every 1000 traces, they put backed-off stops into the
 * check on every run. Before the plane of a backed-off stop was chosen, both named a plane
 * 3.4-3.8 units from the box (the one that stopped the box before the back-off). Fewer traces
 * under the sanitizers (BLVL_SANITIZED=1). */
#include <stdlib.h>

#include "test_trace_plane.h"
#include "test_trace_rpg3dm2.h"
#include "test_trace_shapes.h"

/* oa_rpg3dm2's colliders 95 and 831 (the move: stopped by 95's slope after grazing 831's
 * corner by less than DIST_EPSILON); the ledge and the slope are test_trace_rpg3dm2.h's. */
static const blvl_Plane c95[] = {
    {{0.0f, -1.0f, -0.0f}, -624.0f},
    {{0.0f, 1.0f, -0.0f}, 704.0f},
    {{-0.408248216f, -0.816496611f, 0.408248246f}, -653.197266f},
    {{-0.707106769f, 0.0f, 0.707106769f}, -226.27417f},
    {{-0.707106769f, 0.0f, -0.707106769f}, 226.27417f},
    {{0.707106769f, 0.0f, -0.707106769f}, 463.86203f},
    {{0.707106769f, 0.0f, 0.707106769f}, -135.764496f},
    {{-0.707106829f, -0.707106709f, 0.0f}, -452.548645f},
    {{1.0f, 0.0f, 0.0f}, 232.0f},
    {{-1.0f, 0.0f, 0.0f}, -0.0f},
    {{0.0f, 0.0f, 1.0f}, -256.0f},
    {{0.0f, 0.0f, -1.0f}, 488.0f},
    {{-0.0f, -0.707106769f, 0.707106769f}, -633.567688f},
};
static const blvl_Plane c831[] = {
    {{0.0f, -1.0f, -0.0f}, -640.0f},
    {{0.0f, 1.0f, -0.0f}, 704.0f},
    {{-0.948683381f, 0.0f, -0.316227496f}, 101.192886f},
    {{0.707106769f, 0.0f, -0.707106769f}, 271.528992f},
    {{0.316227704f, 0.0f, 0.948683321f}, -222.624359f},
    {{-0.707106769f, 0.0f, 0.707106769f}, -248.901581f},
    {{1.0f, 0.0f, 0.0f}, 111.999992f},
    {{-1.0f, 0.0f, 0.0f}, -8.0f},
    {{0.0f, 0.0f, 1.0f}, -264.0f},
    {{0.0f, 0.0f, -1.0f}, 368.0f},
};
static const struct {
    const blvl_Plane *planes;
    uint32_t count;
} known[] = {{c95, 13}, {c831, 10}, {ledge, 8}, {slope, 7}};
#define NKNOWN 4
/* The two moves (blvl axes), each stopped where the back-off has to act. */
static const float moves[2][2][3] = {
    {{144.085587f, 608.896423f, -34.9950218f}, {38.9109802f, 607.155334f, -463.660706f}},
    {{365.207153f, 255.90773f, -1729.01111f}, {383.122955f, 398.850006f, -1728.96704f}},
};

/* The synthetic level: a closed room (walls as stored planes) with 400 solids in it, axial and
 * rotated boxes, wedges and tetrahedra, overlapping as a map's brushes do, so solids meet at
 * every angle. */
#define NSOLIDS 400
#define NDESCS (NSOLIDS + 6 + NKNOWN)
static shape solids[NSOLIDS];
static blvl_trace_collider_desc descs[NDESCS];
static blvl_Plane walls[6][6];

static void make_room(void) {
    for (int i = 0; i < 6; i++) { /* slab i: axis i / 2, low side or high side */
        int ax = i / 2, high = i % 2;
        float lo[3] = {-544, -544, -544}, hi[3] = {544, 544, 544};
        if (high)
            lo[ax] = 512;
        else
            hi[ax] = -512;
        blvl_Plane *pl = walls[i];
        for (int k = 0; k < 3; k++) {
            float n[3] = {0, 0, 0};
            n[k] = 1;
            pl[2 * k] = (blvl_Plane){{n[0], n[1], n[2]}, hi[k]};
            n[k] = -1;
            pl[2 * k + 1] = (blvl_Plane){{n[0], n[1], n[2]}, -lo[k]};
        }
        blvl_trace_collider_desc_init(&descs[NSOLIDS + i]);
        descs[NSOLIDS + i].shape = BLVL_TRACE_SHAPE_PLANES;
        descs[NSOLIDS + i].planes = pl;
        descs[NSOLIDS + i].plane_count = 6;
    }
}

static void make_solids(void) {
    double ident[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < NSOLIDS; i++) {
        shape *s = &solids[i];
        double c[3] = {rnd_in(-480, 480), rnd_in(-480, 480), rnd_in(-480, 480)};
        double r[3][3];
        rot_euler(rnd_in(-3.2, 3.2), rnd_in(-1.5, 1.5), rnd_in(-3.2, 3.2), r);
        int kind = i % 4;
        if (kind == 0) {
            double h[3] = {rnd_in(4, 80), rnd_in(4, 80), rnd_in(4, 80)};
            shape_box(s, c, h, ident, 0);
        } else if (kind == 1) {
            double h[3] = {rnd_in(4, 80), rnd_in(4, 80), rnd_in(2, 40)};
            shape_box(s, c, h, r, 0);
        } else if (kind == 2) {
            double a = rnd_in(20, 70) * 3.14159265 / 180, L = rnd_in(20, 120);
            double tri[3][2] = {{0, 0}, {L, 0}, {L * cos(a), L * sin(a)}};
            shape_wedge(s, tri, 0, rnd_in(5, 80), r, c);
        } else {
            double p[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, q[4][3];
            double sz = rnd_in(20, 100);
            for (int v = 0; v < 4; v++)
                for (int k = 0; k < 3; k++)
                    q[v][k] =
                        c[k] + sz * (r[k][0] * p[v][0] + r[k][1] * p[v][1] + r[k][2] * p[v][2]);
            shape_tetra(s, q);
        }
        shape_desc(s, &descs[i], 0);
    }
}

/* The known moves, each checked as a stop of the walk: called every 1000 traces. */
static void replay(const blvl_trace_world *w, tally *t, blvl_trace_stats *st) {
    for (int m = 0; m < 2; m++) {
        blvl_trace_result r, none;
        none.fraction = 1;
        blvl_trace_box_stats(w, NULL, moves[m][0], moves[m][1], box_lo, box_hi, &r, st);
        CHECK(!r.startsolid && r.fraction < 1);
        check_stop("synthetic (a known move)", w, moves[m][0], moves[m][1], &r, &none, 1, t);
    }
}

int main(void) {
    const char *san = getenv("BLVL_SANITIZED");
    int traces = san && *san && strcmp(san, "0") ? 50000 : 1000000;
    make_room();
    make_solids();
    for (int i = 0; i < NKNOWN; i++) {
        blvl_trace_collider_desc *d = &descs[NSOLIDS + 6 + i];
        blvl_trace_collider_desc_init(d);
        d->shape = BLVL_TRACE_SHAPE_PLANES;
        d->planes = known[i].planes;
        d->plane_count = known[i].count;
    }
    blvl_trace_world *w = NULL;
    blvl_error err;
    CHECK(blvl_trace_world_new(&w, descs, NDESCS, NULL, &err) == BLVL_OK);
    if (!w)
        return check_report("test_trace_plane");
    const float lo[3] = {-512, -512, -512}, hi[3] = {512, 512, 512};
    unsigned long long backoffs = run_world("synthetic", w, lo, hi, traces, replay);
    CHECK(backoffs >= (unsigned long long)traces / 1000 * 2); /* every replayed move backs off */
    blvl_trace_world_free(w);
    return check_report("test_trace_plane");
}
