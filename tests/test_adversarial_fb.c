/* Adversarial FlatBuffers input for the table-driven verifier (src/fb/verify.c): buffers built
 * by hand, byte by byte, that each break one rule, and shared subtrees (a DAG) that would make
 * the verifier's work grow far faster than the buffer. Every refusal is checked for its reason;
 * each buffer is verified from a private copy of exactly its length, so ASan sees any read past
 * the end. */
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "blvl/fb.h"
#include "blvl/sections/geometry.h"
#include "blvl/sections_builder.h"

/* T { a:int (0); s:string (1); v:[ulong] (2); u:U (type 3, value 4) }, T2 { x:int (0) },
 * union U { T2 } */
extern const blvl_fb_type t2_type;
static const blvl_fb_field t2_fields[] = {{.name = "x", .id = 0, .kind = BLVL_FB_I32}};
const blvl_fb_type t2_type = {"T2", 0, 0, 0, 0, 1, t2_fields, NULL};
static const blvl_fb_enum_val u_vals[] = {{"NONE", 0, NULL}, {"T2", 1, &t2_type}};
static const blvl_fb_enum u_enum = {"U", BLVL_FB_U8, 1, 0, 2, u_vals};
static const blvl_fb_field t_fields[] = {
    {.name = "a", .id = 0, .kind = BLVL_FB_I32},
    {.name = "s", .id = 1, .kind = BLVL_FB_STRING},
    {.name = "v", .id = 2, .kind = BLVL_FB_VECTOR, .elem = BLVL_FB_U64},
    {.name = "u", .id = 4, .kind = BLVL_FB_UNION, .enum_t = &u_enum},
};
static const blvl_fb_type t_type = {"T", 0, 0, 0, 0, 4, t_fields, NULL};

static void put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Verify a private copy of exactly n bytes of b against `t`. */
static blvl_status run(const uint8_t *b, size_t n, const blvl_fb_type *t, blvl_error *err) {
    uint8_t *c = malloc(n ? n : 1);
    if (n)
        memcpy(c, b, n);
    blvl_status st = blvl_fb_verify(c, n, t, NULL, err);
    free(c);
    return st;
}

static int accepted(const uint8_t *b, size_t n) {
    blvl_error err;
    blvl_status st = run(b, n, &t_type, &err);
    if (st != BLVL_OK)
        fprintf(stderr, "wanted acceptance, got: %s\n", err.message);
    return st == BLVL_OK;
}

static int refused(const uint8_t *b, size_t n, const char *want) {
    blvl_error err;
    blvl_status st = run(b, n, &t_type, &err);
    if (st != BLVL_E_FLATBUFFER || !strstr(err.message, want)) {
        fprintf(stderr, "wanted a refusal naming '%s', got %d: %s\n", want, (int)st,
                st ? err.message : "(accepted)");
        return 0;
    }
    return 1;
}

/* The skeleton every case starts from (all fields absent):
 *   0: root offset -> table at 20
 *   4: vtable: size 14, table size 24, five slots (a, s, v, u_type, u), all 0
 *  20: table: soffset 16 (vtable at 4), then 20 bytes of inline room (24..44)
 *  44..: free for strings, vectors and the union's table */
#define BUF 128
static void skeleton(uint8_t *b) {
    memset(b, 0, BUF);
    put32(b, 20);
    put16(b + 4, 14);
    put16(b + 6, 24);
    put32(b + 20, 16);
}

/* Every field present and valid: a = 7; s -> "abc" at 44; v -> [ulong] of 2 at 52; u = T2 at
 * 76 with its own vtable at 84. Length 90. */
static size_t full(uint8_t *b) {
    skeleton(b);
    put16(b + 8, 4); /* a at table+4 = 24 */
    put32(b + 24, 7);
    put16(b + 10, 8); /* s at table+8 = 28 -> 44 */
    put32(b + 28, 44 - 28);
    put32(b + 44, 3);
    memcpy(b + 48, "abc", 4);
    put16(b + 12, 12); /* v at table+12 = 32 -> 52; elements at 56, 8-aligned */
    put32(b + 32, 52 - 32);
    put32(b + 52, 2);
    put16(b + 14, 16); /* u_type at table+16 = 36 */
    b[36] = 1;
    put16(b + 16, 20); /* u at table+20 = 40 -> 76 */
    put32(b + 40, 76 - 40);
    put32(b + 76, (uint32_t)(76 - 84)); /* negative soffset: the vtable follows the table */
    put16(b + 84, 6);
    put16(b + 86, 8);
    put16(b + 88, 4);
    return 90;
}

/* Correctly handled: each of these breaks one rule of an otherwise accepted buffer. */
static void hand_cases(void) {
    uint8_t b[BUF];
    skeleton(b);
    CHECK(accepted(b, 44));
    size_t n = full(b);
    CHECK(accepted(b, n));
    CHECK(refused(b, n - 1, "vtable")); /* the union's vtable cut short */

    /* buffers too small or too large, root offset 0 or negative */
    CHECK(refused(b, 7, "too small"));
    CHECK(refused(b, 0, "too small"));
    {
        blvl_error err;
        /* refused on the size alone, before a byte is read */
        CHECK_EQ_INT(blvl_fb_verify(b, (size_t)BLVL_FB_MAX_SIZE + 1, &t_type, NULL, &err),
                     BLVL_E_FLATBUFFER);
        CHECK(strstr(err.message, "2 GiB") != NULL);
    }
    full(b);
    put32(b, 0);
    CHECK(refused(b, n, "zero"));
    full(b);
    put32(b, 0x80000000u);
    CHECK(refused(b, n, "negative"));
    full(b);
    put32(b, 200); /* root past the end */
    CHECK(refused(b, n, "outside"));

    /* vtables: odd size, smaller than 4, outside the buffer on either side, table size past
     * the end, table size < 4 */
    full(b);
    put16(b + 4, 13);
    CHECK(refused(b, n, "vtable"));
    full(b);
    put16(b + 4, 2);
    CHECK(refused(b, n, "vtable"));
    full(b);
    put16(b + 4, 0);
    CHECK(refused(b, n, "vtable"));
    full(b);
    put32(b + 20, 0x7FFFFF00u); /* vtable far before the buffer */
    CHECK(refused(b, n, "vtable"));
    full(b);
    put32(b + 20, (uint32_t)-1000); /* vtable far after the end */
    CHECK(refused(b, n, "vtable"));
    full(b);
    put32(b + 20, 17); /* vtable at an odd position */
    CHECK(refused(b, n, "misaligned"));
    full(b);
    put16(b + 4, 400); /* vtable size past the end */
    CHECK(refused(b, n, "vtable"));
    full(b);
    put16(b + 6, 200);
    CHECK(refused(b, n, "past the end"));
    full(b);
    put16(b + 6, 2); /* smaller than the table's own 4-byte vtable offset */
    CHECK(refused(b, n, "table size under 4"));
    full(b);
    put16(b + 6, 0);
    CHECK(refused(b, n, "table size under 4"));
    full(b);
    put16(b + 6, 4); /* 4 is a table, but too small for the fields its vtable names */
    CHECK(refused(b, n, "outside its table"));

    /* field offsets inside the vtable pointing past the table's inline size, into the soffset,
     * or misaligned for the field */
    full(b);
    put16(b + 8, 22); /* a: 22 + 4 > 24 */
    CHECK(refused(b, n, "outside its table"));
    full(b);
    put16(b + 8, 2); /* a inside the soffset */
    CHECK(refused(b, n, "outside its table"));
    full(b);
    put16(b + 8, 6); /* a at 26: misaligned int */
    CHECK(refused(b, n, "misaligned"));
    full(b);
    put16(b + 6, 12); /* table size 12: s fits (8 + 4), v (12 + 4) does not */
    CHECK(refused(b, n, "outside its table"));

    /* strings: no NUL, length past the end, length 2^32 - 1 */
    full(b);
    b[51] = 'x';
    CHECK(refused(b, n, "NUL"));
    full(b);
    put32(b + 44, 1000);
    CHECK(refused(b, n, "past the end"));
    full(b);
    put32(b + 44, 0xFFFFFFFFu);
    CHECK(refused(b, n, "past the end"));
    full(b);
    put32(b + 44, 37); /* the terminator would be the byte just past the end */
    CHECK(refused(b, 85, "outside the buffer"));

    /* vectors: element count whose byte size overflows 32 bits, misaligned 8-byte elements */
    full(b);
    put32(b + 52, 0xFFFFFFFFu); /* 2^32 - 1 elements of 8 bytes */
    CHECK(refused(b, n, "past the end"));
    full(b);
    put32(b + 52, 0x20000001u); /* x 8 = 2^32 + 8: wraps to 8 in 32 bits */
    CHECK(refused(b, n, "past the end"));
    full(b);
    put32(b + 32, 48 - 32); /* vector at 48: elements at 52, not 8-aligned */
    put32(b + 48, 1);
    CHECK(refused(b, n, "misaligned"));

    /* unions: type without value, value without type, unknown type, type slot outside */
    full(b);
    put16(b + 16, 0);
    CHECK(refused(b, n, "union type without a value"));
    full(b);
    b[36] = 0;
    CHECK(refused(b, n, "union value without a type"));
    full(b);
    b[36] = 9;
    CHECK(refused(b, n, "unknown union type"));
    full(b);
    put16(b + 14, 24); /* the type byte at table+24: past the inline size */
    CHECK(refused(b, n, "union type outside"));
    full(b);
    put16(b + 4, 12); /* vtable too short to hold the value slot: the value is absent */
    CHECK(refused(b, n, "union type without a value"));
}

/* ---- shared subtrees ----------------------------------------------------------------------- */

/* A Geometry whose `materials` vector holds `nm` offsets to ONE Material, whose pbr's
 * surface_params vector holds `ns` offsets to ONE string. Every offset is legal; the buffer is
 * about 4 * (nm + ns) bytes, but a verifier that walks every path visits nm * ns strings. */
static uint8_t *dag_geometry(uint32_t nm, uint32_t ns, size_t *size) {
    blvl_fb_builder *b;
    blvl_error err;
    if (blvl_fb_builder_new(&b, NULL, &err) != BLVL_OK)
        return NULL;
    blvl_fb_ref s = blvl_fb_create_string(b, "metal", 5);
    blvl_fb_ref *refs = malloc((nm > ns ? nm : ns) * sizeof *refs);
    for (uint32_t i = 0; i < ns; i++)
        refs[i] = s;
    blvl_fb_ref sv = blvl_fb_create_ref_vector(b, refs, ns);
    blvl_Pbr_start(b);
    blvl_Pbr_add_surface_params(b, sv);
    blvl_fb_ref pbr = blvl_Pbr_end(b);
    blvl_Material_start(b);
    blvl_Material_add_pbr(b, pbr);
    blvl_fb_ref mat = blvl_Material_end(b);
    for (uint32_t i = 0; i < nm; i++)
        refs[i] = mat;
    blvl_fb_ref mv = blvl_fb_create_ref_vector(b, refs, nm);
    blvl_Geometry_start(b);
    blvl_Geometry_add_materials(b, mv);
    blvl_fb_ref root = blvl_Geometry_end(b);
    const uint8_t *d;
    uint8_t *out = NULL;
    if (blvl_fb_finish(b, root, &d, size, &err) == BLVL_OK) {
        out = malloc(*size);
        memcpy(out, d, *size);
    }
    free(refs);
    blvl_fb_builder_free(b);
    return out;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Finding: the verifier counted tables against max_tables but not the strings of a vector of
 * strings, so a small buffer of shared subtrees cost nm * ns string checks: 16 million here
 * from 32 KB; at 2 GiB, about 10^17. Refused now: a buffer cannot take more table and string
 * visits than it has 4-byte offsets, unless it shares subtrees. */
static void dag_strings(void) {
    size_t n = 0;
    uint8_t *d = dag_geometry(4000, 4000, &n);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK(n < 40000);
    blvl_error err;
    double t0 = now();
    blvl_status st = blvl_Geometry_verify(d, n, &err);
    double dt = now() - t0;
    CHECK_EQ_INT(st, BLVL_E_FLATBUFFER);
    CHECK(st == BLVL_OK || strstr(err.message, "shared") != NULL);
    CHECK(dt < 0.5);
    free(d);
}

/* Correctly handled: sharing that does not multiply work stays accepted. One string referred
 * to from 5000 vector slots costs one check per slot, as many as the buffer has offsets; and
 * one shared Material referred to from a few slots is fine too. */
static void dag_benign(void) {
    size_t n = 0;
    uint8_t *d = dag_geometry(1, 5000, &n);
    blvl_error err;
    CHECK(d && blvl_Geometry_verify(d, n, &err) == BLVL_OK);
    free(d);
    d = dag_geometry(3, 10, &n);
    CHECK(d && blvl_Geometry_verify(d, n, &err) == BLVL_OK);
    free(d);
}

int main(void) {
    hand_cases();
    dag_strings();
    dag_benign();
    return check_report("test_adversarial_fb");
}
