/* blvl_trace_world_from_level: a sim section built with the FlatBuffers builder, baked into a
 * level, opened and traced; the world must match one built from the same colliders directly. */
#include <stdio.h>
#include <stdlib.h>

#include "blvl/fb.h"
#include "blvl/sections/sim.h"
#include "blvl/sections_builder.h"
#include "check.h"
#include "test_trace_shapes_fb.h"

int main(void) {
    shape rb;
    double r[3][3], c[3] = {0, 0, 0}, h[3] = {64, 32, 16};
    rot_euler(0.7, 0.2, 0, r);
    shape_box(&rb, c, h, r, 1); /* crossed loops */
    blvl_trace_collider_desc d[3];
    shape_desc(&rb, &d[0], 0);
    static const blvl_Plane clip[6] = {{{1, 0, 0}, 300}, {{-1, 0, 0}, -200}, {{0, 1, 0}, 50},
                                       {{0, -1, 0}, 50}, {{0, 0, 1}, 50},    {{0, 0, -1}, 50}};
    static const blvl_Plane water[6] = {{{1, 0, 0}, -200}, {{-1, 0, 0}, 300}, {{0, 1, 0}, 50},
                                        {{0, -1, 0}, 50},  {{0, 0, 1}, 50},   {{0, 0, -1}, 50}};
    for (int i = 1; i < 3; i++) {
        blvl_trace_collider_desc_init(&d[i]);
        d[i].shape = BLVL_TRACE_SHAPE_PLANES;
        d[i].planes = i == 1 ? clip : water;
        d[i].plane_count = 6;
    }
    d[1].flags = BLVL_COLLIDER_CLIP | BLVL_COLLIDER_SHOT_THROUGH;
    d[1].gametypes = 1u << 6;
    d[2].flags = BLVL_COLLIDER_WATER;
    d[2].material = 5;

    blvl_fb_builder *b = NULL;
    blvl_error err;
    CHECK(blvl_fb_builder_new(&b, NULL, &err) == BLVL_OK);
    if (!b)
        return check_report("test_trace_sim");
    blvl_fb_ref cols[3];
    for (int i = 0; i < 3; i++) {
        blvl_fb_ref shape_ref;
        blvl_Shape type;
        if (d[i].shape == BLVL_TRACE_SHAPE_HULL) {
            shape_ref = shape_hull_fb(b, &rb);
            type = blvl_Shape_Hull;
        } else {
            blvl_Plane p[6];
            for (int k = 0; k < 6; k++)
                p[k] = (blvl_Plane){
                    {d[i].planes[k].normal.x, d[i].planes[k].normal.y, d[i].planes[k].normal.z},
                    d[i].planes[k].dist};
            blvl_fb_ref pr = blvl_Planes_planes_create(b, p, 6);
            blvl_Planes_start(b);
            blvl_Planes_add_planes(b, pr);
            shape_ref = blvl_Planes_end(b);
            type = blvl_Shape_Planes;
        }
        blvl_Collider_start(b);
        blvl_Collider_add_flags(b, d[i].flags);
        blvl_Collider_add_shape(b, type, shape_ref);
        if (d[i].material != BLVL_TRACE_NONE)
            blvl_Collider_add_material(b, d[i].material);
        if (d[i].gametypes != BLVL_TRACE_ALL_GAMETYPES)
            blvl_Collider_add_gametypes(b, d[i].gametypes);
        cols[i] = blvl_Collider_end(b);
    }
    blvl_fb_ref cv = blvl_fb_create_ref_vector(b, cols, 3);
    blvl_Sim_start(b);
    blvl_Sim_add_colliders(b, cv);
    blvl_fb_ref root = blvl_Sim_end(b);
    const uint8_t *sim;
    size_t sim_size;
    CHECK(blvl_fb_finish(b, root, &sim, &sim_size, &err) == BLVL_OK);
    blvl_section_in in[1] = {{"sim", 0, BLVL_ENTRY_FLAG_IDENTITY, sim, sim_size}};
    void *file = NULL;
    size_t file_size = 0;
    CHECK(blvl_write_memory(&file, &file_size, in, 1, NULL, &err) == BLVL_OK);
    blvl_level *lv = NULL;
    CHECK(file && blvl_open_memory(&lv, file, file_size, NULL, &err) == BLVL_OK);
    blvl_trace_world *w = NULL, *wd = NULL;
    if (lv) {
        blvl_status st = blvl_trace_world_from_level(&w, lv, NULL, &err);
        if (st != BLVL_OK)
            fprintf(stderr, "from level: %s\n", err.message);
        CHECK(st == BLVL_OK);
        blvl_close(lv);
    }
    CHECK(blvl_trace_world_new(&wd, d, 3, NULL, &err) == BLVL_OK);
    if (w && wd) {
        CHECK_EQ_INT(blvl_trace_world_collider_count(w), 3);
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t n1, n2;
            const blvl_Plane *p1 = blvl_trace_world_planes(w, i, &n1);
            const blvl_Plane *p2 = blvl_trace_world_planes(wd, i, &n2);
            CHECK_EQ_INT(n1, n2);
            CHECK(n1 == n2 && n1 && memcmp(p1, p2, n1 * sizeof *p1) == 0);
        }
        uint32_t nrep;
        blvl_trace_world_reports(w, &nrep);
        CHECK_EQ_INT(nrep, 0);
        /* the rotated box traces as itself: a ray at its bounds' corner passes */
        float lo[3], hi[3];
        CHECK(blvl_trace_world_bounds(w, 0, lo, hi));
        blvl_trace_result res;
        float a[3] = {0, 0, 100}, e[3] = {0, 0, -100};
        blvl_trace_ray(w, NULL, a, e, &res);
        CHECK(res.collider == 0 && res.fraction < 1);
        /* the clip stops a player in capture the flag, not a shot, not another match type */
        blvl_trace_filter f = {0};
        float p0[3] = {150, 0, 0}, p1[3] = {350, 0, 0};
        f.gametypes = 1u << 6;
        blvl_trace_ray(w, &f, p0, p1, &res);
        CHECK(res.collider == 1);
        f.mover = BLVL_TRACE_AS_SHOT;
        blvl_trace_ray(w, &f, p0, p1, &res);
        CHECK(res.fraction == 1);
        f.mover = BLVL_TRACE_AS_PLAYER;
        f.gametypes = 1u << 2;
        blvl_trace_ray(w, &f, p0, p1, &res);
        CHECK(res.fraction == 1);
        uint32_t mat;
        float wp[3] = {-250, 0, 0};
        CHECK(blvl_trace_point_water(w, NULL, wp, &mat, NULL) == 1 && mat == 5);
    }
    /* The sections layer's rules for sim hold here too: absent, unknown version, not a Sim. */
    static const uint8_t junk[8] = {0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0};
    const struct {
        const char *tag;
        uint32_t version;
        const uint8_t *bytes;
        size_t size;
        blvl_status want;
        const char *rule;
    } bad[] = {
        {"eds.x", 0, sim, sim_size, BLVL_E_REQUIRED, "required-section: "},
        {"sim", 1, sim, sim_size, BLVL_E_SECTION_VERSION, "section-version: "},
        {"sim", 0, junk, sizeof junk, BLVL_E_FLATBUFFER, "flatbuffer: "},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        blvl_section_in one = {bad[i].tag, bad[i].version,
                               bad[i].tag[0] == 's' ? BLVL_ENTRY_FLAG_IDENTITY : 0, bad[i].bytes,
                               bad[i].size};
        void *f2 = NULL;
        size_t f2_size = 0;
        blvl_level *l2 = NULL;
        blvl_trace_world *w2 = NULL;
        CHECK(blvl_write_memory(&f2, &f2_size, &one, 1, NULL, &err) == BLVL_OK);
        CHECK(f2 && blvl_open_memory(&l2, f2, f2_size, NULL, &err) == BLVL_OK);
        if (l2) {
            CHECK_EQ_INT(blvl_trace_world_from_level(&w2, l2, NULL, &err), bad[i].want);
            CHECK(w2 == NULL);
            CHECK(strncmp(err.message, bad[i].rule, strlen(bad[i].rule)) == 0);
            blvl_close(l2);
        }
        blvl_free(NULL, f2);
    }
    blvl_fb_builder_free(b); /* the sim bytes lived in it */
    blvl_trace_world_free(w);
    blvl_trace_world_free(wd);
    blvl_free(NULL, file);
    return check_report("test_trace_sim");
}
