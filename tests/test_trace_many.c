/* blvl_trace_box_many against blvl_trace_box: a world of random boxes, a batch that is not a
 * multiple of the block size, traced on one worker and on several; every result must be the
 * single call's, byte for byte. Bad arguments are refused with the argument rule, and an empty
 * batch is fine. */
#include <stdlib.h>
#include <string.h>

#include "blvl/trace.h"
#include "check.h"

#define NBOXES 300
#define NTRACES 10007 /* three blocks and a tail */

static uint64_t rng = 0x0123456789ABCDEFull;
static float rnd_in(float a, float b) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    double u = (double)((rng * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
    return (float)(a + (b - a) * u);
}

int main(void) {
    static blvl_trace_collider_desc d[NBOXES];
    static blvl_Plane planes[NBOXES][6];
    for (int i = 0; i < NBOXES; i++) {
        blvl_trace_collider_desc_init(&d[i]);
        float c[3] = {rnd_in(-500, 500), rnd_in(-500, 500), rnd_in(-500, 500)};
        float h[3] = {rnd_in(4, 40), rnd_in(4, 40), rnd_in(4, 40)};
        d[i].lo = (blvl_Vec3){c[0] - h[0], c[1] - h[1], c[2] - h[2]};
        d[i].hi = (blvl_Vec3){c[0] + h[0], c[1] + h[1], c[2] + h[2]};
        d[i].flags = (uint32_t)i & 0x19u; /* some ladders, sky and clip */
        planes[i][0] = (blvl_Plane){{1, 0, 0}, d[i].hi.x};
        planes[i][1] = (blvl_Plane){{-1, 0, 0}, -d[i].lo.x};
        planes[i][2] = (blvl_Plane){{0, 1, 0}, d[i].hi.y};
        planes[i][3] = (blvl_Plane){{0, -1, 0}, -d[i].lo.y};
        planes[i][4] = (blvl_Plane){{0, 0, 1}, d[i].hi.z};
        planes[i][5] = (blvl_Plane){{0, 0, -1}, -d[i].lo.z};
        d[i].shape = BLVL_TRACE_SHAPE_PLANES;
        d[i].planes = planes[i];
        d[i].plane_count = 6;
    }
    blvl_trace_world *w = NULL;
    blvl_error err;
    CHECK(blvl_trace_world_new(&w, d, NBOXES, NULL, &err) == BLVL_OK);
    if (!w)
        return check_report("test_trace_many");
    float *starts = malloc(sizeof(float) * 3 * NTRACES),
          *ends = malloc(sizeof(float) * 3 * NTRACES);
    blvl_trace_result *one = calloc(NTRACES, sizeof *one), *many = calloc(NTRACES, sizeof *many);
    for (int i = 0; i < 3 * NTRACES; i++) {
        starts[i] = rnd_in(-600, 600);
        ends[i] = starts[i] + rnd_in(-200, 200);
    }
    const float mins[3] = {-15, -24, -15}, maxs[3] = {15, 32, 15};
    blvl_trace_filter f;
    memset(&f, 0, sizeof f);
    f.mover = BLVL_TRACE_AS_SHOT;
    int hits = 0;
    for (int i = 0; i < NTRACES; i++) {
        memset(&one[i], 0, sizeof one[i]); /* padding too, so memcmp compares the fields */
        blvl_trace_box(w, &f, starts + 3 * i, ends + 3 * i, mins, maxs, &one[i]);
        hits += one[i].collider != BLVL_TRACE_NONE;
    }
    CHECK(hits > NTRACES / 10 && hits < NTRACES); /* the batch meets walls and misses them */
    for (unsigned threads = 1; threads <= 4; threads += 3) {
        blvl_options opt;
        memset(&opt, 0, sizeof opt);
        opt.threads = threads;
        memset(many, 0, sizeof *many * NTRACES);
        CHECK(blvl_trace_box_many(w, &f, starts, ends, NTRACES, mins, maxs, many, &opt, &err) ==
              BLVL_OK);
        int same = 0;
        for (int i = 0; i < NTRACES; i++)
            same += memcmp(&one[i], &many[i], sizeof one[i]) == 0;
        CHECK_EQ_INT(same, NTRACES);
    }
    /* NULL mins and maxs: a ray */
    blvl_trace_result ray, rays[2];
    blvl_trace_ray(w, NULL, starts, ends, &ray);
    CHECK(blvl_trace_box_many(w, NULL, starts, ends, 2, NULL, NULL, rays, NULL, &err) == BLVL_OK);
    CHECK(rays[0].fraction == ray.fraction && rays[0].collider == ray.collider);
    /* the arguments */
    CHECK(blvl_trace_box_many(w, NULL, NULL, ends, 5, NULL, NULL, many, NULL, &err) ==
          BLVL_E_ARGUMENT);
    CHECK(strncmp(err.message, "argument: ", 10) == 0);
    CHECK(blvl_trace_box_many(NULL, NULL, starts, ends, 5, NULL, NULL, many, NULL, &err) ==
          BLVL_E_ARGUMENT);
    CHECK(blvl_trace_box_many(w, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, &err) == BLVL_OK);
    free(starts);
    free(ends);
    free(one);
    free(many);
    blvl_trace_world_free(w);
    return check_report("test_trace_many");
}
