/* A trace world from a sim section describes the colliders where the buffer holds them: the
 * descriptions point into the section's bytes (no copy of a plane, vertex or face list, one
 * block of descriptions only) when the vectors are aligned for their types, and copy exactly
 * the vectors that are not (the bytes at an odd address); both build worlds that trace alike, and
 * the level path's build (no block of descriptions) allocates what world_new does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/fb.h"
#include "blvl/sections/sim.h"
#include "blvl/sections_builder.h"
#include "check.h"
#include "support/counting_alloc.h"
#include "test_trace_shapes_fb.h"
#include "trace/trace_internal.h"

enum { NCOL = 24 };

/* Colliders of every kind the reader knows: hulls (doors among them), plane lists, no shape. */
static blvl_fb_ref add_collider(blvl_fb_builder *b, int i) {
    double r[3][3], c[3] = {100.0 * (i % 6), 0, 90.0 * (i / 6)}, h[3] = {20 + i, 16, 12};
    rot_euler(0.3 * i, 0.1 * i, 0, r);
    shape s;
    shape_box(&s, c, h, r, 0);
    blvl_fb_ref shape_ref = 0;
    blvl_Shape type = blvl_Shape_NONE;
    if (i % 3 == 0) {
        shape_ref = shape_hull_fb(b, &s);
        type = blvl_Shape_Hull;
    } else if (i % 3 == 1) {
        blvl_Plane p[6];
        for (int k = 0; k < 6; k++) {
            float n[3] = {0, 0, 0};
            n[k / 2] = k % 2 ? -1.0f : 1.0f;
            float d = (float)(k % 2 ? -(c[k / 2] - h[k / 2]) : c[k / 2] + h[k / 2]);
            p[k] = (blvl_Plane){{n[0], n[1], n[2]}, d};
        }
        blvl_fb_ref pr = blvl_Planes_planes_create(b, p, 6);
        blvl_Planes_start(b);
        blvl_Planes_add_planes(b, pr);
        shape_ref = blvl_Planes_end(b);
        type = blvl_Shape_Planes;
    }
    blvl_Collider_start(b);
    blvl_Collider_add_flags(b, (uint32_t)i & 0x30);
    if (type != blvl_Shape_NONE)
        blvl_Collider_add_shape(b, type, shape_ref);
    if (i % 4 == 0)
        blvl_Collider_add_material(b, (uint32_t)i);
    if (i % 9 == 0)
        blvl_Collider_add_door(b, (uint32_t)i / 9);
    return blvl_Collider_end(b);
}

static int inside(const void *p, const uint8_t *buf, size_t size) {
    return (const uint8_t *)p >= buf && (const uint8_t *)p < buf + size;
}

/* The descriptions of the sim at buf: where they point, what they copied. */
static blvl_trace_collider_desc *describe(const uint8_t *buf, size_t sim_size, size_t *size,
                                          int want_in_place) {
    blvl_Sim sim = blvl_Sim_root(buf);
    blvl_trace_collider_desc *d = blvl__trace_descs_from_sim(sim, NULL, size);
    CHECK(d != NULL);
    if (!d)
        return NULL;
    size_t copied = 0;
    for (uint32_t i = 0; i < NCOL; i++) {
        const void *p[3] = {d[i].planes, d[i].vertices, d[i].face_indices};
        size_t bytes = d[i].plane_count * sizeof(blvl_Plane) +
                       d[i].vertex_count * sizeof(blvl_Vec3) +
                       (d[i].face_count + d[i].face_index_count) * sizeof(uint32_t);
        for (int k = 0; k < 3; k++)
            if (p[k])
                CHECK(inside(p[k], buf, sim_size) == want_in_place);
        if (d[i].face_sizes)
            CHECK(inside(d[i].face_sizes, buf, sim_size) == want_in_place);
        copied += bytes;
        CHECK_EQ_INT(d[i].shape, i % 3 == 0   ? BLVL_TRACE_SHAPE_HULL
                                 : i % 3 == 1 ? BLVL_TRACE_SHAPE_PLANES
                                              : BLVL_TRACE_SHAPE_NONE);
        CHECK_EQ_INT(d[i].material, i % 4 == 0 ? (uint32_t)i : BLVL_TRACE_NONE);
        CHECK_EQ_INT(d[i].door, i % 9 == 0 ? (uint32_t)i / 9 : BLVL_TRACE_NONE);
        CHECK_EQ_INT(d[i].breakable, BLVL_TRACE_NONE);
        CHECK_EQ_INT(d[i].gametypes, BLVL_TRACE_ALL_GAMETYPES);
    }
    /* one block: the descriptions, and the copies only when the vectors are not aligned */
    CHECK_EQ_INT(*size, NCOL * sizeof(blvl_trace_collider_desc) + (want_in_place ? 0 : copied));
    return d;
}

/* The world of the descriptions a, and the world the level path builds from the sim at buf (the
 * build describing each collider as it goes): the same planes, the same traces, and the level
 * path allocates what world_new does (no block of descriptions), plus its one scratch block for
 * vectors it cannot read in place. */
static void same_world(const blvl_trace_collider_desc *a, const uint8_t *buf, int aligned) {
    blvl_trace_world *wa = NULL, *wb = NULL;
    blvl_error err;
    test_counter ca, cb;
    blvl_trace_options oa = {.base = test_counting(&ca)}, ob = {.base = test_counting(&cb)};
    CHECK(blvl_trace_world_new(&wa, a, NCOL, &oa, &err) == BLVL_OK);
    CHECK(blvl__trace_world_from_sim(&wb, blvl_Sim_root(buf), &ob, &err) == BLVL_OK);
    CHECK_EQ_INT(cb.calls, ca.calls + (aligned ? 0 : 1));
    if (wa && wb) {
        for (uint32_t i = 0; i < NCOL; i++) {
            uint32_t n1, n2;
            const blvl_Plane *p1 = blvl_trace_world_planes(wa, i, &n1);
            const blvl_Plane *p2 = blvl_trace_world_planes(wb, i, &n2);
            CHECK_EQ_INT(n1, n2);
            CHECK(n1 == n2 && (!n1 || memcmp(p1, p2, n1 * sizeof *p1) == 0));
            CHECK_EQ_INT(n1 != 0, i % 3 != 2);
        }
        const float lo[3] = {-15, -24, -15}, hi[3] = {15, 32, 15};
        for (int t = 0; t < 2000; t++) {
            float s[3] = {(float)rnd_in(-100, 600), (float)rnd_in(-100, 100),
                          (float)rnd_in(-100, 400)};
            float e[3] = {(float)rnd_in(-100, 600), (float)rnd_in(-100, 100),
                          (float)rnd_in(-100, 400)};
            blvl_trace_result ra, rb;
            blvl_trace_box(wa, NULL, s, e, lo, hi, &ra);
            blvl_trace_box(wb, NULL, s, e, lo, hi, &rb);
            CHECK(memcmp(&ra, &rb, sizeof ra) == 0);
        }
    }
    blvl_trace_world_free(wa);
    blvl_trace_world_free(wb);
    CHECK(ca.live == 0 && cb.live == 0 && !ca.bad_free && !cb.bad_free);
}

int main(void) {
    blvl_fb_builder *b = NULL;
    blvl_error err;
    CHECK(blvl_fb_builder_new(&b, NULL, &err) == BLVL_OK);
    if (!b)
        return check_report("test_trace_load");
    blvl_fb_ref cols[NCOL];
    for (int i = 0; i < NCOL; i++)
        cols[i] = add_collider(b, i);
    blvl_fb_ref cv = blvl_fb_create_ref_vector(b, cols, NCOL);
    blvl_Sim_start(b);
    blvl_Sim_add_colliders(b, cv);
    blvl_fb_ref root = blvl_Sim_end(b);
    const uint8_t *sim;
    size_t sim_size = 0;
    CHECK(blvl_fb_finish(b, root, &sim, &sim_size, &err) == BLVL_OK);
    /* the same bytes at an aligned address and at an odd one */
    uint8_t *aligned = malloc(sim_size + 16), *odd_block = malloc(sim_size + 16);
    CHECK(aligned && odd_block);
    if (aligned && odd_block && sim_size) {
        uint8_t *odd = odd_block + 1;
        memcpy(aligned, sim, sim_size);
        memcpy(odd, sim, sim_size);
        size_t sa = 0, so = 0;
        blvl_trace_collider_desc *da = describe(aligned, sim_size, &sa, 1);
        blvl_trace_collider_desc *dodd = describe(odd, sim_size, &so, 0);
        if (da && dodd) {
            for (uint32_t i = 0; i < NCOL; i++) {
                CHECK(da[i].plane_count == dodd[i].plane_count &&
                      (!da[i].plane_count || memcmp(da[i].planes, dodd[i].planes,
                                                    da[i].plane_count * sizeof(blvl_Plane)) == 0));
                CHECK(da[i].face_index_count == dodd[i].face_index_count &&
                      (!da[i].face_index_count ||
                       memcmp(da[i].face_indices, dodd[i].face_indices,
                              da[i].face_index_count * sizeof(uint32_t)) == 0));
            }
            same_world(da, aligned, 1);
            same_world(da, odd, 0);
            same_world(dodd, aligned, 1);
        }
        blvl__dealloc(NULL, da, sa);
        blvl__dealloc(NULL, dodd, so);
    }
    free(aligned);
    free(odd_block);
    blvl_fb_builder_free(b);
    return check_report("test_trace_load");
}
