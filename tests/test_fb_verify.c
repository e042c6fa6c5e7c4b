/* The typed API (generated builders and accessors) and the verifier's refusals: a corpus of
 * malformed buffers (truncated, offsets out of range, misaligned, unterminated strings, wrong
 * union types, deep nesting, too many tables, huge vector lengths, bad vtables) each refused,
 * and random corruption that never makes a reader step outside its buffer (ASan run). */
#include <stdlib.h>

#include "blvl/fb.h"
#include "blvl/sections_builder.h"
#include "check.h"
#include "blvl/sections/geometry.h"
#include "blvl/sections/lighting.h"
#include "blvl/sections/sim.h"

/* A recursive type for the depth and table-count limits (no core schema nests without bound). */
extern const blvl_fb_type node_type;
static const blvl_fb_field node_fields[] = {
    {.name = "child", .id = 0, .kind = BLVL_FB_TABLE, .type = &node_type},
    {.name = "kids", .id = 1, .kind = BLVL_FB_VECTOR, .elem = BLVL_FB_TABLE, .type = &node_type},
};
const blvl_fb_type node_type = {"Node", 0, 0, 0, 0, 2, node_fields, NULL};

static uint8_t *copy(const uint8_t *d, size_t n) {
    uint8_t *c = malloc(n ? n : 1);
    memcpy(c, d, n);
    return c;
}

/* Sim with one Hull collider and one Planes collider, a name string via collider_sources. */
static blvl_fb_ref build_sim(blvl_fb_builder *b) {
    blvl_Vec3 verts[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    uint32_t sizes[4] = {3, 3, 3, 3};
    uint32_t idx[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    blvl_fb_ref v = blvl_Hull_vertices_create(b, verts, 4);
    blvl_fb_ref s = blvl_Hull_face_sizes_create(b, sizes, 4);
    blvl_fb_ref i = blvl_Hull_face_indices_create(b, idx, 12);
    blvl_Hull_start(b);
    blvl_Hull_add_face_indices(b, i); /* out of order on purpose: layout is canonical */
    blvl_Hull_add_vertices(b, v);
    blvl_Hull_add_face_sizes(b, s);
    blvl_fb_ref hull = blvl_Hull_end(b);
    blvl_Plane planes[2] = {{{1, 0, 0}, 5}, {{-1, 0, 0}, 5}};
    blvl_fb_ref pv = blvl_Planes_planes_create(b, planes, 2);
    blvl_Planes_start(b);
    blvl_Planes_add_planes(b, pv);
    blvl_fb_ref pl = blvl_Planes_end(b);
    blvl_fb_ref cols[2];
    blvl_Vec3 lo = {0, 0, 0}, hi = {1, 1, 1};
    blvl_Collider_start(b);
    blvl_Collider_add_lo(b, &lo);
    blvl_Collider_add_hi(b, &hi);
    blvl_Collider_add_flags(b, 0x21);
    blvl_Collider_add_shape(b, blvl_Shape_Hull, hull);
    blvl_Collider_add_material(b, 0xFFFFFFFFu); /* the default: not stored */
    blvl_Collider_add_door(b, 7);
    cols[0] = blvl_Collider_end(b);
    blvl_Collider_start(b);
    blvl_Collider_add_shape(b, blvl_Shape_Planes, pl);
    cols[1] = blvl_Collider_end(b);
    blvl_fb_ref cv = blvl_fb_create_ref_vector(b, cols, 2);
    blvl_fb_ref name = blvl_fb_create_string(b, "func_door_1", 11);
    blvl_ColliderSource_start(b);
    blvl_ColliderSource_add_name(b, name);
    blvl_fb_ref src = blvl_ColliderSource_end(b);
    blvl_fb_ref sv = blvl_fb_create_ref_vector(b, &src, 1);
    blvl_Sim_start(b);
    blvl_Sim_add_colliders(b, cv);
    blvl_Sim_add_collider_sources(b, sv);
    return blvl_Sim_end(b);
}

static void typed_api(const uint8_t *buf, size_t n) {
    blvl_error err;
    CHECK_EQ_INT(blvl_Sim_verify(buf, n, &err), BLVL_OK);
    blvl_Sim sim = blvl_Sim_root(buf);
    CHECK_EQ_INT(blvl_Sim_colliders_len(sim), 2);
    blvl_Collider c0 = blvl_Sim_colliders_at(sim, 0);
    CHECK_EQ_INT(blvl_Collider_flags(c0), 0x21);
    CHECK_EQ_INT(blvl_Collider_door(c0), 7);
    CHECK_EQ_INT(blvl_Collider_material(c0), 0xFFFFFFFFu); /* default */
    CHECK(!blvl_Collider_material_present(c0));
    CHECK_EQ_INT(blvl_Collider_gametypes(c0), 0xFFFFFFFFu);
    CHECK(blvl_Collider_hi(c0).y == 1.0f);
    CHECK_EQ_INT(blvl_Collider_shape_type(c0), blvl_Shape_Hull);
    CHECK(blvl_Collider_shape_as_Planes(c0).p_ == NULL);
    blvl_Hull h = blvl_Collider_shape_as_Hull(c0);
    CHECK_EQ_INT(blvl_Hull_face_indices_len(h), 12);
    CHECK_EQ_INT(blvl_Hull_face_indices_at(h, 11), 3);
    CHECK_EQ_INT(blvl_Hull_face_indices_at(h, 12), 0); /* past the end reads zero */
    CHECK(blvl_Hull_vertices_at(h, 3).z == 1.0f);
    blvl_Collider c1 = blvl_Sim_colliders_at(sim, 1);
    blvl_Planes p = blvl_Collider_shape_as_Planes(c1);
    blvl_Plane pl[2];
    CHECK_EQ_INT(blvl_Planes_planes_copy(p, 0, pl, 2), 2);
    CHECK(pl[1].normal.x == -1.0f && pl[1].dist == 5.0f);
    CHECK(blvl_Collider_lo(c1).x == 0.0f); /* absent struct reads as zero */
    blvl_fb_str nm = blvl_ColliderSource_name(blvl_Sim_collider_sources_at(sim, 0));
    CHECK(nm.len == 11 && strcmp(nm.ptr, "func_door_1") == 0);
    CHECK(blvl_Sim_kill_y(sim) == -131072.0f);
    /* An absent table is empty: everything reads as its default. */
    blvl_Collider none = blvl_Sim_colliders_at(sim, 99);
    CHECK(none.p_ == NULL);
    CHECK_EQ_INT(blvl_Collider_source(none), 0xFFFFFFFFu);
    CHECK_EQ_INT(blvl_Hull_vertices_len(blvl_Collider_shape_as_Hull(none)), 0);
    blvl_Sim empty = {NULL};
    CHECK_EQ_INT(blvl_Sim_colliders_len(empty), 0);
    CHECK(blvl_Shading_phong_boost((blvl_Shading){NULL}) == 1.0f);
    CHECK(blvl_Shading_rim_exponent(blvl_Material_shading((blvl_Material){NULL})) == 4.0f);
    CHECK(blvl_Post_gamma((blvl_Post){NULL}) == 2.2f);
    CHECK(blvl_Material_texture((blvl_Material){NULL}) == 0xFFFFFFFFu);
    CHECK(blvl_Material_sort((blvl_Material){NULL}) == 3.0f);
}

static int refused(const uint8_t *d, size_t n, const blvl_fb_type *t, const blvl_options *lim,
                   const char *want) {
    blvl_error err;
    blvl_status st = blvl_fb_verify(d, n, t, lim, &err);
    if (st != BLVL_E_FLATBUFFER) {
        fprintf(stderr, "not refused (%s)\n", want ? want : "any reason");
        return 0;
    }
    if (want && !strstr(err.message, want)) {
        fprintf(stderr, "refused for another reason: %s (wanted %s)\n", err.message, want);
        return 0;
    }
    return 1;
}

/* Offset of the first occurrence of `pat` in d. */
static long find(const uint8_t *d, size_t n, const void *pat, size_t pn) {
    for (size_t i = 0; i + pn <= n; i++)
        if (memcmp(d + i, pat, pn) == 0)
            return (long)i;
    return -1;
}

static void corpus(const uint8_t *good, size_t n) {
    uint8_t *d;
    /* truncated: every cut that loses more than the final padding */
    int all = 1;
    for (size_t k = 0; k + 8 <= n; k++)
        all &= refused(good, k, &blvl_Sim_type, NULL, NULL);
    CHECK(all);
    CHECK(refused(good, 3, &blvl_Sim_type, NULL, "too small"));
    /* root offset out of range / zero / misaligned */
    d = copy(good, n);
    d[0] = 0xF0, d[1] = 0xFF, d[2] = 0xFF, d[3] = 0x0F;
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "outside the buffer"));
    memset(d, 0, 4);
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "zero"));
    memcpy(d, good, 4);
    d[0] += 1;
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "misaligned"));
    free(d);
    /* unterminated string */
    d = copy(good, n);
    long s = find(d, n, "func_door_1", 11);
    CHECK(s > 0);
    d[s + 11] = 'X';
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "NUL"));
    /* string length past the end */
    memcpy(d, good, n);
    d[s - 4] = 0xFF, d[s - 3] = 0xFF, d[s - 2] = 0xFF, d[s - 1] = 0x7F;
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "past the end"));
    free(d);
    /* huge vector length: the 12 face indices */
    d = copy(good, n);
    uint8_t twelve[8] = {12, 0, 0, 0, 0, 0, 0, 0}; /* length 12 then index 0 */
    long v = find(d, n, twelve, 8);
    CHECK(v > 0);
    d[v + 3] = 0x40;
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "vector runs past"));
    d[v + 3] = 0xFF;
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "vector runs past"));
    free(d);
    /* wrong union type: unknown member, and NONE with a value */
    blvl_Sim sim = blvl_Sim_root(good);
    blvl_Collider c0 = blvl_Sim_colliders_at(sim, 0);
    uint32_t to = blvl_fb_field_offset(c0.p_, 3);
    CHECK(to != 0);
    if (to) {
        size_t at = (size_t)(c0.p_ + to - good);
        d = copy(good, n);
        d[at] = 9;
        CHECK(refused(d, n, &blvl_Sim_type, NULL, "unknown union type"));
        d[at] = 0;
        CHECK(refused(d, n, &blvl_Sim_type, NULL, "union value without a type"));
        free(d);
    }
    /* vtable: size odd, size past the end, table pointing outside */
    size_t tpos = (size_t)(c0.p_ - good);
    int32_t soff = blvl_fb_i32(c0.p_);
    size_t vt = (size_t)((int64_t)tpos - soff);
    d = copy(good, n);
    d[vt] |= 1;
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "vtable"));
    memcpy(d, good, n);
    d[vt] = 0xFE, d[vt + 1] = 0xFF;
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "vtable"));
    memcpy(d, good, n);
    d[tpos] = 0x00, d[tpos + 1] = 0x00, d[tpos + 2] = 0x00, d[tpos + 3] = 0x80;
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "vtable"));
    /* a field that runs past its table */
    memcpy(d, good, n);
    d[vt + 2] = 4, d[vt + 3] = 0; /* object size 4: every field is now outside */
    CHECK(refused(d, n, &blvl_Sim_type, NULL, "outside its table"));
    free(d);
    /* the message names the path */
    d = copy(good, n);
    d[s + 11] = 'X';
    blvl_error err;
    blvl_fb_verify(d, n, &blvl_Sim_type, NULL, &err);
    CHECK(strstr(err.message, "Sim.collider_sources[0].name") != NULL);
    free(d);
}

static void limits(void) {
    blvl_fb_builder *b;
    blvl_error err;
    CHECK_EQ_INT(blvl_fb_builder_new(&b, NULL, &err), BLVL_OK);
    /* 100 nested tables */
    blvl_fb_ref r = 0;
    for (int i = 0; i < 100; i++) {
        blvl_fb_table_start(b);
        blvl_fb_add_ref(b, 0, r);
        r = blvl_fb_table_end(b);
    }
    const uint8_t *d;
    size_t n;
    CHECK_EQ_INT(blvl_fb_finish(b, r, &d, &n, &err), BLVL_OK);
    CHECK(refused(d, n, &node_type, NULL, "nested too deeply"));
    blvl_options deep = {.fb_max_depth = 200};
    CHECK_EQ_INT(blvl_fb_verify(d, n, &node_type, &deep, &err), BLVL_OK);
    /* 2000 tables in one vector */
    blvl_fb_builder_reset(b);
    blvl_fb_ref *kids = malloc(2000 * sizeof *kids);
    for (int i = 0; i < 2000; i++) {
        blvl_fb_table_start(b);
        kids[i] = blvl_fb_table_end(b);
    }
    blvl_fb_ref kv = blvl_fb_create_ref_vector(b, kids, 2000);
    blvl_fb_table_start(b);
    blvl_fb_add_ref(b, 1, kv);
    r = blvl_fb_table_end(b);
    CHECK_EQ_INT(blvl_fb_finish(b, r, &d, &n, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_fb_verify(d, n, &node_type, NULL, &err), BLVL_OK);
    blvl_options few = {.fb_max_tables = 1000};
    CHECK(refused(d, n, &node_type, &few, "too many tables"));
    /* vtables are shared: 2000 empty tables, one vtable */
    CHECK(n < 2000 * 4 + 2000 * 4 + 64);
    free(kids);
    blvl_fb_builder_free(b);
}

/* Random corruption: the verifier may accept, but then reading must stay inside the buffer. */
static void mutate(const uint8_t *good, size_t n) {
    uint32_t seed = 12345;
    int accepted = 0;
    for (int round = 0; round < 20000; round++) {
        uint8_t *d = copy(good, n);
        int flips = 1 + (int)(seed % 4);
        for (int k = 0; k < flips; k++) {
            seed = seed * 1103515245u + 12345u;
            d[(seed >> 8) % n] ^= (uint8_t)(1u << ((seed >> 4) & 7));
        }
        char *json;
        size_t jl;
        blvl_error err;
        if (blvl_fb_to_json(&json, &jl, d, n, &blvl_Sim_type, 0, NULL, &err) == BLVL_OK) {
            accepted++;
            blvl_free(NULL, json);
        }
        free(d);
    }
    printf("mutations accepted by the verifier: %d of 20000\n", accepted);
}

int main(void) {
    blvl_fb_builder *b;
    blvl_error err;
    CHECK_EQ_INT(blvl_fb_builder_new(&b, NULL, &err), BLVL_OK);
    blvl_fb_ref root = build_sim(b);
    const uint8_t *d;
    size_t n;
    CHECK_EQ_INT(blvl_fb_finish(b, root, &d, &n, &err), BLVL_OK);
    uint8_t *good = copy(d, n);
    /* deterministic: building again gives the same bytes */
    blvl_fb_builder_reset(b);
    root = build_sim(b);
    CHECK_EQ_INT(blvl_fb_finish(b, root, &d, &n, &err), BLVL_OK);
    CHECK(memcmp(d, good, n) == 0);
    blvl_fb_builder_free(b);
    typed_api(good, n);
    corpus(good, n);
    limits();
    mutate(good, n);
    free(good);
    return check_report("test_fb_verify");
}
