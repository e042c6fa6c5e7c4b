/* blvl-trace against an independent brute force: random boxes, rotated boxes (some with crossed
 * loops), wedges, tetrahedra and stored-plane boxes; thousands of random box traces and rays.
 * The reference (test_trace_shapes.h) is a swept separating-axis test over vertices. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "test_trace_shapes.h"

#define NSOLIDS 90
#define NTRACES 6000

static shape solids[NSOLIDS];
static blvl_trace_collider_desc descs[NSOLIDS];
static blvl_Plane box_planes[NSOLIDS][6];

static void make_world(void) {
    double ident[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < NSOLIDS; i++) {
        shape *s = &solids[i];
        double c[3] = {rnd_in(-400, 400), rnd_in(-400, 400), rnd_in(-400, 400)};
        double r[3][3];
        rot_euler(rnd_in(-3.2, 3.2), rnd_in(-1.5, 1.5), rnd_in(-3.2, 3.2), r);
        int kind = i % 6;
        if (kind == 0 || kind == 5) { /* axial box: a thin wall now and then */
            double h[3] = {rnd_in(1, 60), rnd_in(1, 60), rnd_in(1, 60)};
            if (i % 4 == 0)
                h[i % 3] = 0.5;
            shape_box(s, c, h, ident, 0);
        } else if (kind == 1 || kind == 2) { /* rotated box, crossed loops for half of them */
            double h[3] = {rnd_in(4, 60), rnd_in(4, 60), rnd_in(1, 40)};
            shape_box(s, c, h, r, kind == 2);
        } else if (kind == 3) { /* wedge: angles kept above 20 degrees */
            double a = rnd_in(20, 70) * 3.14159265 / 180, L = rnd_in(20, 90);
            double tri[3][2] = {{0, 0}, {L, 0}, {L * cos(a), L * sin(a)}};
            shape_wedge(s, tri, 0, rnd_in(5, 80), r, c);
        } else { /* tetrahedron */
            double p[4][3];
            do {
                for (int v = 0; v < 4; v++)
                    for (int k = 0; k < 3; k++)
                        p[v][k] = c[k] + rnd_in(-50, 50);
                double e1[3], e2[3], e3[3];
                for (int k = 0; k < 3; k++)
                    e1[k] = p[1][k] - p[0][k], e2[k] = p[2][k] - p[0][k], e3[k] = p[3][k] - p[0][k];
                double vol = e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) -
                             e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
                             e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
                if (fabs(vol) > 20000)
                    break;
            } while (1);
            shape_tetra(s, p);
        }
        ref_prepare(s);
        shape_desc(s, &descs[i], 0);
        if (kind == 5) { /* the same axial box given as stored planes */
            blvl_Plane *pl = box_planes[i];
            const blvl_Vec3 lo = descs[i].lo, hi = descs[i].hi;
            pl[0] = (blvl_Plane){{1, 0, 0}, hi.x};
            pl[1] = (blvl_Plane){{-1, 0, 0}, -lo.x};
            pl[2] = (blvl_Plane){{0, 1, 0}, hi.y};
            pl[3] = (blvl_Plane){{0, -1, 0}, -lo.y};
            pl[4] = (blvl_Plane){{0, 0, 1}, hi.z};
            pl[5] = (blvl_Plane){{0, 0, -1}, -lo.z};
            descs[i].shape = BLVL_TRACE_SHAPE_PLANES;
            descs[i].planes = pl;
            descs[i].plane_count = 6;
        }
    }
}

typedef struct tally {
    int compared, hits, starts, bad_pass, bad_snag, bad_start, bad_tree;
} tally;

static tally run_traces(const blvl_trace_world *w, int verbose) {
    tally t = {0, 0, 0, 0, 0, 0, 0};
    const double eps = BLVL_TRACE_DIST_EPSILON;
    rng_state_ = 0x1234567887654321ull;
    for (int n = 0; n < NTRACES; n++) {
        float st[3], en[3], mins[3], maxs[3];
        int ray = n % 5 == 0;
        for (int k = 0; k < 3; k++) {
            st[k] = (float)rnd_in(-450, 450);
            /* short and long traces, some along an axis */
            en[k] = st[k] + (float)((n % 3 == 0 && k != n % 3) ? 0 : rnd_in(-300, 300));
            mins[k] = (float)(ray ? 0 : -rnd_in(1, 32));
            maxs[k] = (float)(ray ? 0 : rnd_in(1, 32));
        }
        double len = sqrt((en[0] - st[0]) * (en[0] - st[0]) + (en[1] - st[1]) * (en[1] - st[1]) +
                          (en[2] - st[2]) * (en[2] - st[2]));
        double tref = 2, gstart = INFINITY;
        for (int i = 0; i < NSOLIDS; i++) {
            double tt = ref_enter(&solids[i], st, en, mins, maxs);
            tref = tt < tref ? tt : tref;
            double g = ref_gap(&solids[i], st, mins, maxs);
            gstart = g < gstart ? g : gstart;
        }
        if (fabs(gstart) < 0.05 || len < 1)
            continue; /* touching at the start: either answer is right */
        blvl_trace_result r, rb;
        blvl_trace_box(w, NULL, st, en, mins, maxs, &r);
        blvl_trace_box_brute(w, NULL, st, en, mins, maxs, &rb);
        t.compared++;
        if (r.fraction != rb.fraction || r.startsolid != rb.startsolid || r.allsolid != rb.allsolid)
            t.bad_tree++;
        if ((gstart < 0) != (r.startsolid != 0)) {
            t.bad_start++;
            continue;
        }
        if (gstart < 0) {
            t.starts++;
            continue;
        }
        if (tref <= 1)
            t.hits++;
        /* never past the first contact */
        double tr = tref > 1 ? 1 : tref;
        if ((r.fraction - tr) * len > 0.02) {
            t.bad_pass++;
            if (verbose)
                fprintf(stderr, "pass-through: trace %d fraction %g reference %g\n", n, r.fraction,
                        tref);
        }
        /* a stop is a real contact: the box ends within a few epsilons of a solid */
        if (r.fraction < 1) {
            double g = INFINITY;
            for (int i = 0; i < NSOLIDS; i++) {
                double gi = ref_gap(&solids[i], r.endpos, mins, maxs);
                g = gi < g ? gi : g;
            }
            if (g > 8 * eps || g < -0.02) {
                t.bad_snag++;
                if (verbose)
                    fprintf(stderr, "bad stop: trace %d fraction %g gap %g (collider %u)\n", n,
                            r.fraction, g, r.collider);
            }
        }
    }
    return t;
}

int main(void) {
    make_world();
    blvl_trace_world *w = NULL;
    blvl_error err;
    CHECK(blvl_trace_world_new(&w, descs, NSOLIDS, NULL, &err) == BLVL_OK);
    if (!w)
        return check_report("test_trace_brute");
    uint32_t nrep;
    blvl_trace_world_reports(w, &nrep);
    CHECK_EQ_INT(nrep, 0); /* crossed loops are re-wound, not reported */

    tally t = run_traces(w, 1);
    printf("compared %d traces: %d hits, %d started solid\n", t.compared, t.hits, t.starts);
    CHECK(t.compared > NTRACES / 2);
    CHECK(t.hits > 300);
    CHECK(t.starts > 50);
    CHECK_EQ_INT(t.bad_start, 0);
    CHECK_EQ_INT(t.bad_pass, 0);
    CHECK_EQ_INT(t.bad_snag, 0);
    CHECK_EQ_INT(t.bad_tree, 0);

    /* Control: the same solids with their face and axial planes only (no bevels). The checks
     * above must catch the snags that leaves. */
    static blvl_Plane noblev[NSOLIDS][64];
    static blvl_trace_collider_desc cd[NSOLIDS];
    for (int i = 0; i < NSOLIDS; i++) {
        uint32_t n;
        const blvl_Plane *pl = blvl_trace_world_planes(w, (uint32_t)i, &n);
        uint32_t keep = (uint32_t)solids[i].nf + 6;
        keep = keep < n ? keep : n;
        memcpy(noblev[i], pl, keep * sizeof *pl);
        cd[i] = descs[i];
        cd[i].shape = BLVL_TRACE_SHAPE_PLANES;
        cd[i].planes = noblev[i];
        cd[i].plane_count = keep;
    }
    blvl_trace_world *wc = NULL;
    CHECK(blvl_trace_world_new(&wc, cd, NSOLIDS, NULL, &err) == BLVL_OK);
    if (wc) {
        tally c = run_traces(wc, 0);
        printf("control without bevels: %d bad stops, %d pass-throughs\n", c.bad_snag, c.bad_pass);
        CHECK(c.bad_snag > 0);
        CHECK_EQ_INT(c.bad_pass, 0);
        blvl_trace_world_free(wc);
    }
    blvl_trace_world_free(w);
    return check_report("test_trace_brute");
}
