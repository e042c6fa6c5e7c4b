/* Play checks on real Quake 3 maps (OpenArena's pak1-maps.pk3), through the baked sim alone
 * (blvl-trace), and collision against the BSP's own brushes:
 *   - every spawn's player box, lifted 9 qu as the game spawns a player, starts in empty space
 *     and lands on walkable ground within 256 qu (control: the box sunk into that floor is
 *     stuck);
 *   - the player box at every teleport destination, lifted 1 qu as the game does, is free;
 *   - from every spawn, 10,000 random rays stop on a collider (sky included) before leaving
 *     the map (control: rays from outside the map escape);
 *   - a player box walked along flat floor from every spawn in 8 directions, where the same
 *     box 1 qu higher passes and the floor stays at one height, is never stopped (control: the
 *     box 0.5 qu into that floor is);
 *   - "inside a player-solid brush" computed from the BSP's world brushes in Quake axes equals
 *     the trace's point contents of the world's colliders at the point in blvl axes, for
 *     random points at least 1 qu from every face (control: the same points without the axis
 *     change disagree).
 * Skips (77) when the OpenArena maps are not installed. Usage: test_q3_sim [map.bsp ...] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/q3.h"
#include "blvl/sections.h"
#include "blvl/sections/registry.h"
#include "blvl/trace.h"
#include "check.h"
#include "support/rnd.h"

#define PK3 "/usr/share/games/openarena/baseoa/pak1-maps.pk3"

static const char *const default_maps[] = {
    "maps/oa_dm1.bsp",    "maps/oa_ctf2.bsp",  "maps/oa_dm4.bsp", "maps/slimefac.bsp",
    "maps/oa_bases3.bsp", "maps/hydronex.bsp", "maps/delta.bsp",  "maps/pul1ctf.bsp"};

/* The Quake 3 player box in blvl axes (Quake -15 -15 -24 .. 15 15 32, z up -> y up). */
static const float box_lo[3] = {-15, -24, -15}, box_hi[3] = {15, 32, 15};

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double rnd(void) {
    return test_rnd(&rng);
}

static void rnd_dir(float d[3]) {
    double v[3], l = test_rnd_ball(&rng, v);
    for (int k = 0; k < 3; k++)
        d[k] = (float)(v[k] / l);
}

typedef struct map_run {
    const char *name;
    blvl_q3_bsp *bsp;
    blvl_trace_world *w;
    blvl_Sim sim;
    float lo[3], hi[3];   /* world bounds, blvl axes */
    uint32_t *world_only; /* skip bits: colliders that are not world brushes */
    uint32_t skip_words;
} map_run;

/* ---- spawns and teleport destinations ------------------------------------------------- */

static int check_spawns(map_run *m, float (*rest)[3], uint32_t *rest_ok) {
    uint32_t n = blvl_Sim_spawns_len(m->sim), bad = 0, controls = 0, water = 0;
    for (uint32_t i = 0; i < n; i++) {
        blvl_Spawn sp = blvl_Sim_spawns_at(m->sim, i);
        blvl_Vec3 p = blvl_Spawn_position(sp);
        float s[3] = {p.x, p.y + 9, p.z}, e[3] = {p.x, p.y + 9 - 256, p.z};
        blvl_trace_result r;
        blvl_trace_box(m->w, NULL, s, s, box_lo, box_hi, &r);
        bool free_start = !r.startsolid;
        blvl_trace_box(m->w, NULL, s, e, box_lo, box_hi, &r);
        bool ground = r.fraction < 1 && r.plane.normal.y >= 0.7f;
        if (!ground && free_start && r.fraction >= 1) {
            /* over water: the player falls in and swims (the fall itself is free) */
            for (float d = 0; d <= 256 && !ground; d += 4) {
                float feet[3] = {s[0], s[1] + box_lo[1] - d, s[2]};
                ground = blvl_trace_point_water(m->w, NULL, feet, NULL, NULL);
                water += ground;
            }
            if (ground) {
                rest_ok[i] = false; /* nothing to walk on */
                continue;
            }
        }
        rest_ok[i] = free_start && ground;
        memcpy(rest[i], r.endpos, sizeof rest[i]);
        if (!free_start || !ground) {
            bad++;
            float far[3] = {p.x, p.y - 4096, p.z};
            blvl_trace_box(m->w, NULL, s, far, box_lo, box_hi, &r);
            fprintf(stderr,
                    "%s: spawn %u (%.*s) at (%g %g %g): %s (ground %g qu below, normal y %g, "
                    "collider %u)\n",
                    m->name, i, (int)blvl_Spawn_kind(sp).len, blvl_Spawn_kind(sp).ptr, p.x, p.y,
                    p.z, !free_start ? "starts in solid" : "no ground within 256 qu",
                    r.fraction * 4096, r.plane.normal.y, r.collider);
            continue;
        }
        /* control: the box 40 qu down from where it came to rest is in the floor */
        float sunk[3] = {r.endpos[0], r.endpos[1] - 40, r.endpos[2]};
        blvl_trace_box(m->w, NULL, sunk, sunk, box_lo, box_hi, &r);
        controls += r.startsolid;
    }
    CHECK(n > 0);
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(controls, n - bad - water);
    uint32_t nd = blvl_Sim_teleport_dests_len(m->sim), dbad = 0;
    for (uint32_t i = 0; i < nd; i++) {
        blvl_Vec3 p = blvl_TeleportDest_position(blvl_Sim_teleport_dests_at(m->sim, i));
        float s[3] = {p.x, p.y + 1, p.z};
        blvl_trace_result r;
        blvl_trace_box(m->w, NULL, s, s, box_lo, box_hi, &r);
        if (r.startsolid) {
            dbad++;
            fprintf(stderr, "%s: teleport destination %u at (%g %g %g) is in solid\n", m->name, i,
                    p.x, p.y, p.z);
        }
    }
    CHECK_EQ_INT(dbad, 0);
    printf("%s: %u spawns (%u over water), %u teleport destinations\n", m->name, n, water, nd);
    return 0;
}

/* A ray the map's own brushes let through too: no world brush that collides holds more than
 * 0.25 qu of it (twice the engine's surface clip epsilon), as where it slips between two
 * brushes that only share an edge. Points in blvl axes. */
static bool bsp_lets_through(const map_run *m, const float s[3], const float e[3]) {
    const blvl_q3_bsp *bsp = m->bsp;
    double S[3] = {s[0], -s[2], s[1]}, D[3] = {e[0] - s[0], -(e[2] - s[2]), e[1] - s[1]};
    double len = sqrt(D[0] * D[0] + D[1] * D[1] + D[2] * D[2]);
    const blvl_q3_model *wm = &bsp->models[0];
    for (int32_t i = 0; i < wm->num_brushes; i++) {
        const blvl_q3_brush *b = &bsp->brushes[wm->first_brush + i];
        if (!(bsp->shaders[b->shader].contents &
              (BLVL_Q3_CONTENTS_SOLID | BLVL_Q3_CONTENTS_PLAYERCLIP)))
            continue;
        double t0 = 0, t1 = 1;
        for (int32_t k = 0; k < b->num_sides && t0 < t1; k++) {
            const blvl_q3_plane *p = &bsp->planes[bsp->brush_sides[b->first_side + k].plane];
            double a = p->normal[0] * S[0] + p->normal[1] * S[1] + p->normal[2] * S[2] - p->dist;
            double v = p->normal[0] * D[0] + p->normal[1] * D[1] + p->normal[2] * D[2];
            if (v == 0) {
                if (a > 0)
                    t1 = -1;
                continue;
            }
            double t = -a / v;
            if (v < 0)
                t0 = t > t0 ? t : t0;
            else
                t1 = t < t1 ? t : t1;
        }
        if ((t1 - t0) * len > 0.25)
            return false;
    }
    return true;
}

/* ---- rays ------------------------------------------------------------------------------ */

static void check_rays(map_run *m) {
    uint32_t n = blvl_Sim_spawns_len(m->sim);
    float diag = 0;
    for (int k = 0; k < 3; k++)
        diag += (m->hi[k] - m->lo[k]) * (m->hi[k] - m->lo[k]);
    float len = 2 * sqrtf(diag) + 1024;
    blvl_trace_filter all = {.mover = BLVL_TRACE_AS_CUSTOM};
    uint32_t escaped = 0, sky = 0, total = 0, cracks = 0;
    for (uint32_t i = 0; i < n; i++) {
        blvl_Vec3 p = blvl_Spawn_position(blvl_Sim_spawns_at(m->sim, i));
        float s[3] = {p.x, p.y + 9, p.z};
        for (int r = 0; r < 10000; r++) {
            float d[3], e[3];
            rnd_dir(d);
            for (int k = 0; k < 3; k++)
                e[k] = s[k] + len * d[k];
            blvl_trace_result res;
            blvl_trace_ray(m->w, &all, s, e, &res);
            total++;
            if (res.fraction >= 1 && bsp_lets_through(m, s, e)) {
                cracks++;
            } else if (res.fraction >= 1) {
                if (escaped++ < 3)
                    fprintf(stderr,
                            "%s: ray from spawn %u (%g %g %g) toward (%g %g %g) leaves the map\n",
                            m->name, i, s[0], s[1], s[2], d[0], d[1], d[2]);
            } else if (res.flags & BLVL_COLLIDER_SKY)
                sky++;
        }
    }
    CHECK_EQ_INT(escaped, 0);
    /* control: from above the map, rays going up meet nothing */
    uint32_t out = 0;
    for (int r = 0; r < 100; r++) {
        float d[3];
        rnd_dir(d);
        d[1] = fabsf(d[1]) + 0.1f;
        float s[3] = {m->lo[0], m->hi[1] + 64, m->lo[2]}, e[3];
        for (int k = 0; k < 3; k++)
            e[k] = s[k] + len * d[k];
        blvl_trace_result res;
        blvl_trace_ray(m->w, &all, s, e, &res);
        out += res.fraction >= 1;
    }
    CHECK_EQ_INT(out, 100);
    printf("%s: %u rays from spawns, %u stopped by sky, %u escaped, %u through cracks of the "
           "BSP's own brushes\n",
           m->name, total, sky, escaped, cracks);
}

/* ---- walking the floor ----------------------------------------------------------------- */

static bool free_move(const blvl_trace_world *w, const float a[3], const float b[3], float dy) {
    float s[3] = {a[0], a[1] + dy, a[2]}, e[3] = {b[0], b[1] + dy, b[2]};
    blvl_trace_result r;
    blvl_trace_box(w, NULL, s, e, box_lo, box_hi, &r);
    return !r.startsolid && r.fraction >= 1;
}

/* Flat floor at `y` right under p (the box resting on it). */
static bool floor_at(const blvl_trace_world *w, const float p[3], float y) {
    float s[3] = {p[0], p[1] + 1, p[2]}, e[3] = {p[0], p[1] - 2, p[2]};
    blvl_trace_result r;
    blvl_trace_box(w, NULL, s, e, box_lo, box_hi, &r);
    return !r.startsolid && r.fraction < 1 && r.plane.normal.y > 0.999f &&
           fabsf(r.endpos[1] - y) < 0.01f;
}

/* The collider that stopped the walk rises above the floor the box stands on (its top above
 * the box's feet): a real step the game climbs (under 1 qu, since the box 1 qu up passed), not
 * a snag on the floor's own brushes. */
static bool real_step(const blvl_trace_world *w, const blvl_trace_result *stop, float y) {
    float lo[3], hi[3];
    return stop->collider != BLVL_TRACE_NONE &&
           blvl_trace_world_bounds(w, stop->collider, lo, hi) && hi[1] > y + box_lo[1] + 0.05f;
}

static void check_walk(map_run *m, float (*rest)[3], const uint32_t *rest_ok) {
    uint32_t n = blvl_Sim_spawns_len(m->sim), segments = 0, snags = 0, sunk_blocked = 0;
    float walked = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!rest_ok[i] || !floor_at(m->w, rest[i], rest[i][1]))
            continue;
        for (int a = 0; a < 8; a++) {
            float ang = (float)a * 0.785398163f, dir[3] = {cosf(ang), 0, sinf(ang)};
            const float step = 16;
            int k = 0;
            float prev[3], q[3];
            memcpy(prev, rest[i], sizeof prev);
            for (; k < 32; k++) {
                for (int c = 0; c < 3; c++)
                    q[c] = rest[i][c] + dir[c] * step * (float)(k + 1);
                if (!free_move(m->w, prev, q, 1) || !floor_at(m->w, q, rest[i][1]))
                    break;
                memcpy(prev, q, sizeof prev);
            }
            if (k < 4)
                continue; /* less than 64 qu of open flat floor that way */
            segments++;
            walked += step * (float)k;
            memcpy(prev, rest[i], sizeof prev);
            bool snag = false;
            for (int j = 0; j < k && !snag; j++) {
                for (int c = 0; c < 3; c++)
                    q[c] = rest[i][c] + dir[c] * step * (float)(j + 1);
                if (!free_move(m->w, prev, q, 0)) {
                    blvl_trace_result r;
                    blvl_trace_box(m->w, NULL, prev, q, box_lo, box_hi, &r);
                    if (real_step(m->w, &r, rest[i][1]))
                        break; /* a real step up (under 1 qu: the box 1 qu up passed it) */
                    snag = true;
                    fprintf(stderr,
                            "%s: spawn %u direction %d: the box snags going from (%g %g %g) to "
                            "(%g %g %g): collider %u, plane (%g %g %g) %g, fraction %g%s\n",
                            m->name, i, a, prev[0], prev[1], prev[2], q[0], q[1], q[2], r.collider,
                            r.plane.normal.x, r.plane.normal.y, r.plane.normal.z, r.plane.dist,
                            r.fraction, r.startsolid ? ", starts in solid" : "");
                }
                memcpy(prev, q, sizeof prev);
            }
            snags += snag;
            /* control: half a unit into the floor the same walk does not pass */
            sunk_blocked += !free_move(m->w, rest[i], q, -0.5f);
        }
    }
    CHECK(segments > 0);
    CHECK_EQ_INT(snags, 0);
    CHECK_EQ_INT(sunk_blocked, segments);
    printf("%s: %u floor walks, %.0f qu, %u snags\n", m->name, segments, walked, snags);
}

/* ---- collision agrees with the BSP ------------------------------------------------------ */

/* Largest signed distance of q (Quake axes) over brush b's sides: < 0 inside. */
static double brush_dist(const blvl_q3_bsp *bsp, const blvl_q3_brush *b, const double q[3]) {
    double s = -INFINITY;
    for (int32_t k = 0; k < b->num_sides; k++) {
        const blvl_q3_plane *p = &bsp->planes[bsp->brush_sides[b->first_side + k].plane];
        double d = p->normal[0] * q[0] + p->normal[1] * q[1] + p->normal[2] * q[2] - p->dist;
        s = d > s ? d : s;
    }
    return s;
}

/* Bounds from the first six sides when they are the axial planes (the compiler writes them
 * first); otherwise unbounded. */
static void brush_box(const blvl_q3_bsp *bsp, const blvl_q3_brush *b, double lo[3], double hi[3]) {
    for (int k = 0; k < 3; k++)
        lo[k] = -INFINITY, hi[k] = INFINITY;
    if (b->num_sides < 6)
        return;
    double l[3], h[3];
    for (int k = 0; k < 6; k++) {
        const blvl_q3_plane *p = &bsp->planes[bsp->brush_sides[b->first_side + k].plane];
        int axis = k / 2;
        float want = (k & 1) ? 1.0f : -1.0f;
        for (int c = 0; c < 3; c++)
            if (p->normal[c] != (c == axis ? want : 0.0f))
                return;
        if (k & 1)
            h[axis] = p->dist;
        else
            l[axis] = -p->dist;
    }
    memcpy(lo, l, sizeof l);
    memcpy(hi, h, sizeof h);
}

static void check_contents(map_run *m) {
    const blvl_q3_bsp *bsp = m->bsp;
    const blvl_q3_model *world = &bsp->models[0];
    uint32_t nb = (uint32_t)world->num_brushes;
    double(*blo)[3] = calloc(nb ? nb : 1, sizeof *blo),
    (*bhi)[3] = calloc(nb ? nb : 1, sizeof *bhi);
    uint32_t *solid = calloc(nb ? nb : 1, sizeof *solid), ns = 0;
    CHECK(blo && bhi && solid);
    if (!blo || !bhi || !solid)
        goto done;
    for (uint32_t i = 0; i < nb; i++) {
        const blvl_q3_brush *b = &bsp->brushes[world->first_brush + i];
        uint32_t ct = bsp->shaders[b->shader].contents;
        if (!(ct & (BLVL_Q3_CONTENTS_SOLID | BLVL_Q3_CONTENTS_PLAYERCLIP)))
            continue;
        brush_box(bsp, b, blo[ns], bhi[ns]);
        solid[ns++] = (uint32_t)world->first_brush + i;
    }
    blvl_trace_filter f = {.mover = BLVL_TRACE_AS_CUSTOM,
                           .exclude = BLVL_COLLIDER_WATER | BLVL_COLLIDER_PLAYER_THROUGH,
                           .skip = m->world_only,
                           .skip_words = m->skip_words};
    uint32_t tested = 0, inside = 0, disagree = 0, wrong_disagree = 0, near = 0;
    for (int t = 0; t < 20000; t++) {
        double q[3];
        if ((t & 1) && ns) {
            /* half the points in some solid brush's box, so that "inside" gets tested */
            uint32_t k = (uint32_t)(rnd() * ns) % ns;
            bool finite = isfinite(blo[k][0]) && isfinite(bhi[k][0]);
            for (int c = 0; c < 3; c++)
                q[c] = finite ? blo[k][c] - 2 + (bhi[k][c] - blo[k][c] + 4) * rnd()
                              : world->mins[c] + (world->maxs[c] - world->mins[c]) * rnd();
        } else
            for (int c = 0; c < 3; c++)
                q[c] = world->mins[c] + (world->maxs[c] - world->mins[c]) * rnd();
        bool in = false, close = false;
        for (uint32_t k = 0; k < ns && !close; k++) {
            if (q[0] < blo[k][0] - 2 || q[0] > bhi[k][0] + 2 || q[1] < blo[k][1] - 2 ||
                q[1] > bhi[k][1] + 2 || q[2] < blo[k][2] - 2 || q[2] > bhi[k][2] + 2)
                continue;
            double s = brush_dist(bsp, &bsp->brushes[solid[k]], q);
            if (fabs(s) <= 1)
                close = true;
            else if (s < 0)
                in = true;
        }
        if (close) {
            near++;
            continue;
        }
        tested++;
        inside += in;
        float p[3] = {(float)q[0], (float)q[2], (float)-q[1]}; /* Quake -> blvl axes */
        bool got = blvl_trace_point_contents(m->w, &f, p, NULL, NULL) > 0;
        if (got != in && disagree++ < 3)
            fprintf(stderr, "%s: point (%g %g %g) (Quake axes): BSP says %s, the trace %s\n",
                    m->name, q[0], q[1], q[2], in ? "solid" : "empty", got ? "solid" : "empty");
        float wrong[3] = {(float)q[0], (float)q[1], (float)q[2]};
        wrong_disagree += (blvl_trace_point_contents(m->w, &f, wrong, NULL, NULL) > 0) != in;
    }
    CHECK(tested > 10000);
    CHECK(inside > 1000);
    CHECK_EQ_INT(disagree, 0);
    CHECK(wrong_disagree > tested / 20);
    printf("%s: %u points (%u inside, %u near a face skipped): %u disagree; without the axis "
           "change %u disagree\n",
           m->name, tested, inside, near, disagree, wrong_disagree);
done:
    free(blo), free(bhi), free(solid);
}

/* No Planes collider holds two planes that are one plane to a trace: normals within 0.999
 * and 0.03 qu apart or closer at every corner of the collider's bounds (so at every point of
 * it): the compiler's sides and the bevels the bake adds are never doubled. */
static bool one_plane(blvl_Plane p, blvl_Plane q, blvl_Vec3 lo, blvl_Vec3 hi) {
    if (p.normal.x * q.normal.x + p.normal.y * q.normal.y + p.normal.z * q.normal.z < 0.999f)
        return false;
    for (int k = 0; k < 8; k++) {
        double c[3] = {(k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z};
        double a = p.normal.x * c[0] + p.normal.y * c[1] + p.normal.z * c[2] - p.dist;
        double b = q.normal.x * c[0] + q.normal.y * c[1] + q.normal.z * c[2] - q.dist;
        if (fabs(a - b) > 0.03) /* the bake keeps apart what differs by over 1/32 somewhere */
            return false;
    }
    return true;
}

static void check_no_duplicate_planes(map_run *m) {
    uint32_t nc = blvl_Sim_colliders_len(m->sim), dups = 0, planes = 0;
    for (uint32_t i = 0; i < nc; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(m->sim, i);
        if (blvl_Collider_shape_type(c) != blvl_Shape_Planes)
            continue;
        blvl_Planes ps = blvl_Collider_shape_as_Planes(c);
        blvl_Vec3 lo = blvl_Collider_lo(c), hi = blvl_Collider_hi(c);
        uint32_t n = blvl_Planes_planes_len(ps);
        planes += n;
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = a + 1; b < n; b++) {
                blvl_Plane p = blvl_Planes_planes_at(ps, a), q = blvl_Planes_planes_at(ps, b);
                if (one_plane(p, q, lo, hi) && dups++ < 3)
                    fprintf(stderr,
                            "%s: collider %u: planes %u and %u are one: (%.7g %.7g %.7g) %.7g "
                            "and (%.7g %.7g %.7g) %.7g\n",
                            m->name, i, a, b, p.normal.x, p.normal.y, p.normal.z, p.dist,
                            q.normal.x, q.normal.y, q.normal.z, q.dist);
            }
    }
    CHECK_EQ_INT(dups, 0);
    printf("%s: %u planes in Planes colliders, %u nearly doubled\n", m->name, planes, dups);
}

/* ---- one map ----------------------------------------------------------------------------- */

static void run_map(blvl_q3_fs *fs, const char *name) {
    blvl_error err;
    void *data = NULL;
    size_t size = 0;
    map_run m = {.name = name};
    blvl_bake *b = NULL;
    void *lv = NULL;
    size_t ls = 0;
    blvl_level *level = NULL;
    blvl_bytes by = {0};
    blvl_status st;
    if (blvl_q3_fs_read(&data, &size, fs, name, &err) != BLVL_OK ||
        blvl_q3_bsp_read(&m.bsp, data, size, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        CHECK(0);
        goto done;
    }
    blvl_q3_bake_report rep;
    blvl_q3_bake_options o = {0};
    o.map_name = name;
    CHECK(blvl_bake_new(&b, NULL, &err) == BLVL_OK);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    st = blvl_q3_bake(m.bsp, b, &rep, &o, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (st != BLVL_OK || blvl_bake_write_memory(b, &lv, &ls, NULL, NULL, NULL, &err) != BLVL_OK ||
        blvl_open_memory(&level, lv, ls, NULL, &err) != BLVL_OK ||
        blvl_sections_verify(level, &err) != BLVL_OK ||
        blvl_level_sim(level, &by, &m.sim, &err) != BLVL_OK ||
        blvl_trace_world_from_level(&m.w, level, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        CHECK(0);
        goto done;
    }
    printf("%s: %u brushes, %u dropped (no volume), %u patch hulls, bake %.0f ms\n", name,
           rep.brushes, rep.brushes_dropped, rep.patch_hulls,
           (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6);
    CHECK(rep.brushes > 0);
    uint32_t rc = 0;
    blvl_trace_world_reports(m.w, &rc);
    CHECK_EQ_INT(rc, 0);
    const blvl_q3_model *wm = &m.bsp->models[0];
    m.lo[0] = wm->mins[0], m.lo[1] = wm->mins[2], m.lo[2] = -wm->maxs[1];
    m.hi[0] = wm->maxs[0], m.hi[1] = wm->maxs[2], m.hi[2] = -wm->mins[1];
    uint32_t nc = blvl_Sim_colliders_len(m.sim);
    m.skip_words = (nc + 31) / 32;
    m.world_only = calloc(m.skip_words ? m.skip_words : 1, sizeof *m.world_only);
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t s = blvl_Collider_source(blvl_Sim_colliders_at(m.sim, i));
        bool world = s < blvl_Sim_collider_sources_len(m.sim) &&
                     blvl_ColliderSource_kind(blvl_Sim_collider_sources_at(m.sim, s)) ==
                         blvl_ColliderSourceKind_World;
        if (!world)
            m.world_only[i / 32] |= 1u << (i % 32);
    }
    uint32_t ns = blvl_Sim_spawns_len(m.sim);
    float(*rest)[3] = calloc(ns ? ns : 1, sizeof *rest);
    uint32_t *rest_ok = calloc(ns ? ns : 1, sizeof *rest_ok);
    check_spawns(&m, rest, rest_ok);
    check_rays(&m);
    check_walk(&m, rest, rest_ok);
    check_contents(&m);
    check_no_duplicate_planes(&m);
    free(rest), free(rest_ok), free(m.world_only);
done:
    blvl_trace_world_free(m.w);
    blvl_bytes_free(&by);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_bake_free(b);
    blvl_q3_bsp_free(m.bsp);
    blvl_free(NULL, data);
}

int main(int argc, char **argv) {
    FILE *f = fopen(PK3, "rb");
    if (!f) {
        printf("test_q3_sim: skipped: %s is not installed (openarena-081-maps)\n", PK3);
        return 77;
    }
    fclose(f);
    blvl_q3_fs *fs = NULL;
    blvl_error err;
    if (blvl_q3_fs_new(&fs, NULL, &err) != BLVL_OK || blvl_q3_fs_add(fs, PK3, &err) != BLVL_OK) {
        fprintf(stderr, "test_q3_sim: %s\n", err.message);
        return 1;
    }
    if (argc > 1)
        for (int i = 1; i < argc; i++)
            run_map(fs, argv[i]);
    else
        for (size_t i = 0; i < sizeof default_maps / sizeof default_maps[0]; i++)
            run_map(fs, default_maps[i]);
    blvl_q3_fs_free(fs);
    return check_report("test_q3_sim");
}
