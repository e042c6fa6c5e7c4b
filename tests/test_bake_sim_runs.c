/* The sim section written in runs (src/bake/write_sim.c: colliders built, dropped, and built
 * again newest first after the front): a level of more than three runs of colliders (boxes,
 * general hulls, made and stored prisms, named ones sharing sources, door colliders) is written,
 * opened and verified (the FlatBuffers verifier follows every offset), and every collider read
 * back equals the model's: bounds, flags, material, door, its source's kind, entity and name
 * (hundreds of sources, each once, in the order colliders first name them), and a hull's
 * corners and loops; a door's bounds are its colliders'. Given a path, the level is
 * also written there (tests/test_symbols_bake.sh decodes its sim section with flatc). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/model/fast.h"
#include "bake/model/model.h"
#include "blvl/bake.h"
#include "blvl/blvl.h"
#include "blvl/sections.h"
#include "blvl/sections/registry.h"
#include "check.h"

enum { COLLIDERS = 3 * 4096 + 517 };

/* A triangle (a c b) or a cell (a b / c d) 64 qu wide at (key[0], key[1]), 8 qu deep; a cell's
 * ridge (key[3]: 1 the diagonal c-b, 2 a-d) 4 qu above the other corners, so it is convex. */
static void make(const void *ctx, const uint32_t key[4], uint32_t n, blvl_Vec3 *out) {
    (void)ctx;
    for (uint32_t q = 0; q < n; q++) {
        uint32_t c = n == 3 ? (q == 0 ? 0u : q == 1 ? 2u : 1u) : q;
        bool ridge = key[3] == 1 ? (c == 1 || c == 2) : key[3] == 2 ? (c == 0 || c == 3) : false;
        out[q] = (blvl_Vec3){64.0f * (float)(key[0] + (c & 1)),
                             (float)(key[2] % 7) + (ridge ? 4.0f : 0.0f),
                             64.0f * (float)(key[1] + (c >> 1))};
        out[n + q] = out[q];
        out[n + q].y -= 8.0f;
    }
}

static bool same_vec(blvl_Vec3 a, blvl_Vec3 b) {
    return !memcmp(&a.x, &b.x, 4) && !memcmp(&a.y, &b.y, 4) && !memcmp(&a.z, &b.z, 4);
}

int main(int argc, char **argv) {
    blvl_bake *b = NULL;
    blvl_error e;
    CHECK_EQ_INT(blvl_bake_new(&b, NULL, &e), BLVL_OK);
    if (!b)
        return check_report("test_bake_sim_runs");
    uint32_t ent[2], door = 0, maker = 0;
    CHECK_EQ_INT(blvl_bake_add_entity(b, "func_a", NULL, 0, &ent[0], &e), BLVL_OK);
    CHECK_EQ_INT(blvl_bake_add_entity(b, "func_b", NULL, 0, &ent[1], &e), BLVL_OK);
    blvl_bake_door d;
    blvl_bake_door_init(&d);
    d.name = "gate";
    CHECK_EQ_INT(blvl_bake_add_door(b, &d, &door, &e), BLVL_OK);
    CHECK_EQ_INT(blvl__bake_model_prism_maker(b, make, NULL, &maker, &e), BLVL_OK);
    static const char *names[] = {NULL, "alpha", "beta", "alpha"};
    /* boxes and hulls named in turn; a few prisms named too (stored, not made) */
    for (uint32_t k = 0; k < COLLIDERS; k++) {
        blvl_bake_collider c;
        blvl_bake_collider_init(&c);
        c.flags = k % 5 == 0 ? 1u : 0u;
        c.door = k % 1000 == 7 ? door : BLVL_BAKE_NONE;
        c.source_name = k % 4 < 2 ? names[(k / 4) % 4] : k % 16 == 14 ? "beta" : NULL;
        char part[32];
        if (k % 8 == 1) { /* hundreds of sources, each met again later */
            snprintf(part, sizeof part, "part %u", k / 8 % 600);
            c.source_name = part;
        }
        c.source_entity = k % 3 == 0 ? BLVL_BAKE_NONE : ent[k % 2];
        c.source_kind = (uint8_t)(k % 2);
        uint32_t x = k % 97, z = k / 97, index = 0;
        blvl_status st;
        switch (k % 4) {
        case 0: {
            blvl_Vec3 lo = {(float)x * 64, -16, (float)z * 64},
                      hi = {(float)x * 64 + 32, 0, (float)z * 64 + 48};
            st = blvl_bake_add_box(b, &c, lo, hi, &index, &e);
            break;
        }
        case 1: {
            blvl_Vec3 p[5] = {{0, 0, 0}, {40, 0, 0}, {0, 0, 40}, {0, 40, 0}, {13, 13, 13}};
            for (int q = 0; q < 5; q++)
                p[q].x += (float)x * 64, p[q].z += (float)z * 64;
            st = blvl_bake_add_hull(b, &c, p, 5, &index, &e);
            break;
        }
        default: { /* made prisms */
            uint32_t n = k % 8 == 3 ? 3u : 4u;
            int split = n == 4 ? (int)(k / 4 % 2) : -1;
            uint32_t key[4] = {x, z, k, (uint32_t)(split + 1)};
            st = blvl__bake_model_add_prism_made(b, &c, maker, key, n, split, false, &index, &e);
            break;
        }
        }
        CHECK_EQ_INT(st, BLVL_OK);
        CHECK_EQ_INT(index, k);
    }
    CHECK_EQ_INT(blvl__bake_model_collider_count(b), COLLIDERS);

    void *lv = NULL;
    size_t ls = 0;
    CHECK_EQ_INT(blvl_bake_write_memory(b, &lv, &ls, NULL, NULL, NULL, &e), BLVL_OK);
    blvl_level *level = NULL;
    blvl_bytes by = {0};
    blvl_Sim sim;
    CHECK_EQ_INT(blvl_open_memory(&level, lv, ls, NULL, &e), BLVL_OK);
    if (!level || blvl_sections_verify(level, &e) != BLVL_OK ||
        blvl_level_sim(level, &by, &sim, &e) != BLVL_OK) {
        fprintf(stderr, "%s\n", e.message);
        CHECK(0);
        return check_report("test_bake_sim_runs");
    }
    CHECK_EQ_INT(blvl_Sim_colliders_len(sim), COLLIDERS);
    uint32_t bad = 0, hulls = 0, next = 0; /* next: sources come in first-seen order */
    blvl_Vec3 dlo = {1e30f, 1e30f, 1e30f}, dhi = {-1e30f, -1e30f, -1e30f};
    for (uint32_t i = 0; i < COLLIDERS && i < blvl_Sim_colliders_len(sim); i++) {
        bake_collider_view v;
        const bake_collider *m = blvl__bake_model_collider_at(b, i, &v);
        blvl_Collider c = blvl_Sim_colliders_at(sim, i);
        bool ok =
            same_vec(blvl_Collider_lo(c), m->shape.lo) &&
            same_vec(blvl_Collider_hi(c), m->shape.hi) && blvl_Collider_flags(c) == m->c.flags &&
            blvl_Collider_material(c) == m->c.material && blvl_Collider_door(c) == m->c.door &&
            blvl_Collider_shape_type(c) == (blvl_Shape)m->shape.kind;
        uint32_t s = blvl_Collider_source(c);
        ok = ok && s <= next;
        next += s == next;
        if (s < blvl_Sim_collider_sources_len(sim)) {
            blvl_ColliderSource cs = blvl_Sim_collider_sources_at(sim, s);
            blvl_fb_str name = blvl_ColliderSource_name(cs);
            ok = ok && blvl_ColliderSource_kind(cs) == m->c.source_kind &&
                 blvl_ColliderSource_entity(cs) == m->c.source_entity &&
                 blvl_ColliderSource_name_present(cs) == (m->c.source_name != NULL) &&
                 (!m->c.source_name || (strlen(m->c.source_name) == name.len &&
                                        !memcmp(name.ptr, m->c.source_name, name.len)));
        } else {
            ok = false;
        }
        if (ok && m->shape.kind == blvl_Shape_Hull) {
            blvl_Hull h = blvl_Collider_shape_as_Hull(c);
            hulls++;
            ok = blvl_Hull_vertices_len(h) == m->shape.vertex_count &&
                 blvl_Hull_face_sizes_len(h) == m->shape.face_count &&
                 blvl_Hull_face_indices_len(h) == m->shape.face_index_count;
            for (uint32_t q = 0; ok && q < m->shape.vertex_count; q++)
                ok = same_vec(blvl_Hull_vertices_at(h, q), m->shape.vertices[q]);
            for (uint32_t q = 0; ok && q < m->shape.face_index_count; q++)
                ok = blvl_Hull_face_indices_at(h, q) == m->shape.face_indices[q];
        }
        if (m->c.door == door) {
            dlo.x = m->shape.lo.x < dlo.x ? m->shape.lo.x : dlo.x;
            dlo.y = m->shape.lo.y < dlo.y ? m->shape.lo.y : dlo.y;
            dlo.z = m->shape.lo.z < dlo.z ? m->shape.lo.z : dlo.z;
            dhi.x = m->shape.hi.x > dhi.x ? m->shape.hi.x : dhi.x;
            dhi.y = m->shape.hi.y > dhi.y ? m->shape.hi.y : dhi.y;
            dhi.z = m->shape.hi.z > dhi.z ? m->shape.hi.z : dhi.z;
        }
        if (!ok && bad < 3)
            fprintf(stderr, "collider %u (kind %u, name %s) differs\n", i, m->shape.kind,
                    m->c.source_name ? m->c.source_name : "-");
        bad += !ok;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(next, blvl_Sim_collider_sources_len(sim));
    CHECK(next > 600);
    for (uint32_t i = 0; i < next; i++) /* each source once */
        for (uint32_t j = i + 1; j < next; j++) {
            blvl_ColliderSource x = blvl_Sim_collider_sources_at(sim, i);
            blvl_ColliderSource y = blvl_Sim_collider_sources_at(sim, j);
            blvl_fb_str xn = blvl_ColliderSource_name(x), yn = blvl_ColliderSource_name(y);
            bad += blvl_ColliderSource_kind(x) == blvl_ColliderSource_kind(y) &&
                   blvl_ColliderSource_entity(x) == blvl_ColliderSource_entity(y) &&
                   blvl_ColliderSource_name_present(x) == blvl_ColliderSource_name_present(y) &&
                   xn.len == yn.len && !memcmp(xn.ptr, yn.ptr, xn.len);
        }
    CHECK_EQ_INT(bad, 0);
    CHECK(hulls > COLLIDERS / 2);
    CHECK(b->made_prisms.n > COLLIDERS / 8);
    CHECK_EQ_INT(blvl_Sim_doors_len(sim), 1);
    if (blvl_Sim_doors_len(sim) == 1) {
        blvl_Door dd = blvl_Sim_doors_at(sim, 0);
        CHECK(same_vec(blvl_Door_lo(dd), dlo) && same_vec(blvl_Door_hi(dd), dhi));
    }
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        CHECK(f && fwrite(lv, 1, ls, f) == ls);
        if (f)
            fclose(f);
    }
    blvl_bytes_free(&by);
    blvl_close(level);
    blvl_free(NULL, lv);
    blvl_bake_free(b);
    return check_report("test_bake_sim_runs");
}
