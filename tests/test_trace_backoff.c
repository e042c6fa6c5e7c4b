/* The control for "every stop is free" (docs/TRACE.md): a stop that, pulled back only by
 * DIST_EPSILON along the plane that stopped it, overlaps a second solid where the two meet at an
 * angle. Two colliders of OpenArena's oa_rpg3dm2 as its bake gives them (a sloped ledge and the
 * slope beside it, planes as the trace world holds them) and a player-box move from that map's
 * chained walk: with the back-off switched off (an internal switch for tests only) the stop is
 * in solid, so the next trace from it starts in solid; with it, the stop is free. So the
 * every-stop-free check (here, and the chained walk of test_trace_maps) is able to fail. */
#include <stdio.h>
#include <string.h>

#include "blvl/trace.h"
#include "check.h"
#include "test_trace_rpg3dm2.h"
#include "trace/trace_internal.h"

/* The Quake 3 player box in blvl axes; the move (Quake (365.207153, 1729.01111, 255.90773) to
 * (383.122955, 1728.96704, 398.850006)) in blvl axes (x, z, -y). */
static const float box_lo[3] = {-15, -24, -15}, box_hi[3] = {15, 32, 15};
static const float from[3] = {365.207153f, 255.90773f, -1729.01111f};
static const float to[3] = {383.122955f, 398.850006f, -1728.96704f};

/* Would the next trace, from where this one stopped, start in solid? */
static int stop_in_solid(const blvl_trace_world *w, const blvl_trace_result *r) {
    blvl_trace_result q;
    blvl_trace_box(w, NULL, r->endpos, r->endpos, box_lo, box_hi, &q);
    return q.startsolid;
}

/* How far the box's corner nearest the plane (its support point against the normal) lies in
 * front of the plane, in double. */
static double support_dist(const blvl_Plane *p, const float pos[3]) {
    const float n[3] = {p->normal.x, p->normal.y, p->normal.z};
    double d = -(double)p->dist;
    for (int k = 0; k < 3; k++)
        d += (double)n[k] * ((double)pos[k] + (n[k] < 0 ? box_hi[k] : box_lo[k]));
    return d;
}

int main(void) {
    blvl_trace_collider_desc d[2];
    for (int i = 0; i < 2; i++) {
        blvl_trace_collider_desc_init(&d[i]);
        d[i].shape = BLVL_TRACE_SHAPE_PLANES;
        d[i].planes = i ? slope : ledge;
        d[i].plane_count = i ? sizeof slope / sizeof slope[0] : sizeof ledge / sizeof ledge[0];
    }
    blvl_trace_world *w = NULL;
    blvl_error err;
    CHECK(blvl_trace_world_new(&w, d, 2, NULL, &err) == BLVL_OK);
    if (!w)
        return check_report("test_trace_backoff");

    /* back-off off: stopped by the ledge, 1/32 off its plane, yet inside the slope */
    blvl__trace_world_set_no_backoff(w, 1);
    blvl_trace_result raw, raw_b;
    blvl_trace_stats st = {0, 0, 0, 0};
    blvl_trace_box_stats(w, NULL, from, to, box_lo, box_hi, &raw, &st);
    blvl_trace_box_brute(w, NULL, from, to, box_lo, box_hi, &raw_b);
    CHECK(!raw.startsolid && raw.fraction > 0 && raw.fraction < 1);
    CHECK_EQ_INT(raw.collider, 0);
    CHECK_EQ_INT(st.backoffs, 0);
    CHECK(stop_in_solid(w, &raw));
    CHECK(raw_b.fraction == raw.fraction && stop_in_solid(w, &raw_b));
    blvl_trace_result in_slope;
    blvl_trace_box(w, NULL, raw.endpos, raw.endpos, box_lo, box_hi, &in_slope);
    CHECK_EQ_INT(in_slope.collider, 1);

    /* back-off on (as every world is built): the same move stops where the box is free, nearer
     * the start */
    blvl__trace_world_set_no_backoff(w, 0);
    blvl_trace_result r, rb;
    blvl_trace_box_stats(w, NULL, from, to, box_lo, box_hi, &r, &st);
    blvl_trace_box_brute(w, NULL, from, to, box_lo, box_hi, &rb);
    CHECK_EQ_INT(st.backoffs, 1);
    CHECK(!stop_in_solid(w, &r));
    CHECK(r.fraction < raw.fraction);
    /* the result names the solid the box touches there (the slope the unbacked stop was in) and
     * the slope's plane its nearest corner lies just in front of, not the ledge's far plane */
    CHECK_EQ_INT(r.collider, in_slope.collider);
    double dz = support_dist(&r.plane, r.endpos), dledge = support_dist(&raw.plane, r.endpos);
    CHECK(dz >= 0 && dz <= 0.25);
    CHECK(!(dledge >= 0 && dledge <= 0.25)); /* the old answer (the ledge's plane) fails here */
    int own = 0;
    for (size_t i = 0; i < sizeof slope / sizeof slope[0]; i++)
        own |= !memcmp(&slope[i], &r.plane, sizeof r.plane);
    CHECK(own);
    CHECK(rb.fraction == r.fraction && !memcmp(rb.endpos, r.endpos, sizeof r.endpos) &&
          rb.collider == r.collider && !memcmp(&rb.plane, &r.plane, sizeof r.plane));
    printf("test_trace_backoff: unbacked stop at fraction %.9g is in solid; backed off to %.9g, "
           "free, %.6f in front of the slope's plane (the ledge's: %.6f)\n",
           raw.fraction, r.fraction, dz, dledge);
    blvl_trace_world_free(w);
    return check_report("test_trace_backoff");
}
