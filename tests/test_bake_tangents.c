/* Tangents against hand-worked cases (docs/BAKE.md, "Tangents"): a quad in the XZ plane whose
 * u runs along +X and v along -Z has tangent +X and w = +1; mirroring u flips both; rotating
 * the quad rotates the tangent; degenerate UVs give a unit tangent perpendicular to the
 * normal, from the axis the normal points least along. The windowed sums give the same bytes
 * as the whole-surface ones and refuse triangles naming vertices too far apart. */
#include <math.h>

#include "bake/write/tangents.h"
#include "check.h"

static blvl_bake_vertex vtx(double x, double y, double z, double nx, double ny, double nz, double u,
                            double v) {
    blvl_bake_vertex r = {{(float)x, (float)y, (float)z},
                          {(float)nx, (float)ny, (float)nz},
                          {(float)u, (float)v},
                          {0, 0},
                          {255, 255, 255, 255}};
    return r;
}

static const uint32_t quad_idx[6] = {0, 1, 2, 0, 2, 3};

/* Rotation of p by `deg` about axis 0 (X), 1 (Y) or 2 (Z). */
static void rot(double p[3], int axis, double deg) {
    double a = deg * 3.14159265358979323846 / 180.0, c = cos(a), s = sin(a);
    int i = (axis + 1) % 3, j = (axis + 2) % 3;
    double pi = p[i] * c - p[j] * s, pj = p[i] * s + p[j] * c;
    p[i] = pi, p[j] = pj;
}

static void quad(blvl_bake_vertex q[4], int axis, double deg, int mirror) {
    const double pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 0, -1}, {0, 0, -1}};
    const double uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int i = 0; i < 4; i++) {
        double p[3] = {pos[i][0], pos[i][1], pos[i][2]}, n[3] = {0, 1, 0};
        rot(p, axis, deg);
        rot(n, axis, deg);
        q[i] =
            vtx(p[0], p[1], p[2], n[0], n[1], n[2], mirror ? 1.0 - uv[i][0] : uv[i][0], uv[i][1]);
    }
}

static int near16(int16_t got, double want) {
    return fabs(got - want * 32767.0) <= 2.0;
}

static void check_all(const blvl_Snorm16x4 *t, int n, double x, double y, double z, double w) {
    for (int i = 0; i < n; i++) {
        CHECK(near16(t[i].x, x));
        CHECK(near16(t[i].y, y));
        CHECK(near16(t[i].z, z));
        CHECK_EQ_INT(t[i].w, w > 0 ? 32767 : -32767);
    }
}

/* The window (tangents.h) against the whole-surface sums: every vertex once, in order, with
 * the same bytes. */
typedef struct seen {
    blvl_Snorm16x4 *t;
    uint32_t next, bad;
} seen;

static void take(void *ctx, uint32_t i, blvl_Snorm16x4 t) {
    seen *s = ctx;
    s->bad += i != s->next;
    s->next = i + 1;
    s->t[i] = t;
}

static uint64_t rng = 2026;
static uint32_t rnd(uint32_t n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

static void check_window(void) {
    enum { NV = 3 * BAKE_TANGENT_WINDOW, NT = 4 * NV };
    static blvl_bake_vertex v[NV];
    static uint32_t idx[3 * NT], low[NT];
    static double full[6 * NV], ring[6 * BAKE_TANGENT_WINDOW];
    static blvl_Snorm16x4 want[NV], got[NV];
    for (uint32_t i = 0; i < NV; i++)
        v[i] = vtx(rnd(1000) / 7.0, rnd(1000) / 9.0, rnd(1000) / 11.0, rnd(3) - 1.0, 1,
                   rnd(3) - 1.0, rnd(1000) / 999.0, rnd(1000) / 997.0);
    /* triangles over a sliding span (shared vertices, some never named), in any order inside */
    for (uint32_t t = 0; t < NT; t++)
        for (int k = 0; k < 3; k++) {
            uint32_t c = (uint32_t)((uint64_t)t * NV / NT) + rnd(200);
            idx[3 * t + k] = c < NV ? c : NV - 1;
        }
    blvl__bake_write_tangents(v, NV, idx, 3 * NT, full, want);
    seen s = {got, 0, 0};
    CHECK(blvl__bake_write_tangents_window(v, NV, idx, 3 * NT, ring, low, take, &s));
    CHECK_EQ_INT(s.bad, 0);
    CHECK_EQ_INT(s.next, NV);
    CHECK_MEM(got, want, sizeof want);
    for (uint32_t i = 0; i < 6 * BAKE_TANGENT_WINDOW; i++)
        CHECK(ring[i] == 0);
    /* a triangle naming the first and the last vertex: past the window, refused before any
     * vertex is emitted (a streaming caller cannot take one back), ring zero */
    idx[3 * (NT - 1)] = 0;
    seen none = {got, 0, 0};
    CHECK(!blvl__bake_write_tangents_window(v, NV, idx, 3 * NT, ring, low, take, &none));
    CHECK_EQ_INT(none.next, 0);
    uint32_t nonzero = 0;
    for (uint32_t i = 0; i < 6 * BAKE_TANGENT_WINDOW; i++)
        nonzero += ring[i] != 0;
    CHECK_EQ_INT(nonzero, 0);
}

int main(void) {
    blvl_bake_vertex q[4];
    blvl_Snorm16x4 t[4];
    double scratch[6 * 4];

    quad(q, 1, 0, 0); /* XZ plane, u +X, v -Z */
    blvl__bake_write_tangents(q, 4, quad_idx, 6, scratch, t);
    check_all(t, 4, 1, 0, 0, 1);

    quad(q, 1, 0, 1); /* u mirrored: tangent -X, w = -1 */
    blvl__bake_write_tangents(q, 4, quad_idx, 6, scratch, t);
    check_all(t, 4, -1, 0, 0, -1);

    /* Rotated 30 degrees about Y: X goes to (cos 30, 0, -sin 30). */
    quad(q, 1, 30, 0);
    blvl__bake_write_tangents(q, 4, quad_idx, 6, scratch, t);
    check_all(t, 4, cos(M_PI / 6), 0, -sin(M_PI / 6), 1);

    /* Tilted 30 degrees about Z: the normal leaves the axes, X goes to (cos 30, sin 30, 0). */
    quad(q, 2, 30, 0);
    blvl__bake_write_tangents(q, 4, quad_idx, 6, scratch, t);
    check_all(t, 4, cos(M_PI / 6), sin(M_PI / 6), 0, 1);

    /* Scaled UVs (4 repeats along u, 2 along v) do not change the direction. */
    quad(q, 1, 0, 0);
    for (int i = 0; i < 4; i++)
        q[i].uv[0] *= 4, q[i].uv[1] *= 2;
    blvl__bake_write_tangents(q, 4, quad_idx, 6, scratch, t);
    check_all(t, 4, 1, 0, 0, 1);

    /* u along -Z, v along +X (the texture turned a quarter): tangent -Z, and
     * cross(+Y, -Z) = -X is opposite to v's +X, so w = -1. */
    quad(q, 1, 0, 0);
    for (int i = 0; i < 4; i++) {
        float u = q[i].uv[0];
        q[i].uv[0] = q[i].uv[1];
        q[i].uv[1] = u;
    }
    blvl__bake_write_tangents(q, 4, quad_idx, 6, scratch, t);
    check_all(t, 4, 0, 0, -1, -1);

    /* Degenerate UVs: every vertex at (0, 0). Normal +Y: +X is the first least axis. */
    quad(q, 1, 0, 0);
    for (int i = 0; i < 4; i++)
        q[i].uv[0] = q[i].uv[1] = 0;
    blvl__bake_write_tangents(q, 4, quad_idx, 6, scratch, t);
    check_all(t, 4, 1, 0, 0, 1);

    /* Degenerate UVs on a tilted quad: unit and perpendicular to the normal. */
    quad(q, 2, 30, 0);
    for (int i = 0; i < 4; i++)
        q[i].uv[0] = q[i].uv[1] = 0.5f;
    blvl__bake_write_tangents(q, 4, quad_idx, 6, scratch, t);
    for (int i = 0; i < 4; i++) {
        double x = t[i].x / 32767.0, y = t[i].y / 32767.0, z = t[i].z / 32767.0;
        CHECK(fabs(sqrt(x * x + y * y + z * z) - 1.0) < 1e-3);
        CHECK(fabs(x * q[i].normal[0] + y * q[i].normal[1] + z * q[i].normal[2]) < 1e-3);
        CHECK_EQ_INT(t[i].w, 32767);
    }

    /* A vertex no triangle uses gets the fallback too (it has no UV direction). */
    blvl_bake_vertex lone[5];
    quad(lone, 1, 0, 0);
    lone[4] = vtx(5, 5, 5, 0, 0, 1, 0, 0);
    blvl_Snorm16x4 t5[5];
    double s5[6 * 5];
    blvl__bake_write_tangents(lone, 5, quad_idx, 6, s5, t5);
    check_all(t5, 4, 1, 0, 0, 1);
    CHECK(near16(t5[4].x, 1) && near16(t5[4].y, 0) && near16(t5[4].z, 0));

    check_window();
    return check_report("test_bake_tangents");
}
