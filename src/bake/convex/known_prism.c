/* Vertical prisms over a convex outline (docs/BAKE.md, "Prisms"): the face loops come from one
 * template per shape, and the checks use what the shape guarantees instead of known.c's general
 * ones. Every prism this file accepts passes known.c's checks too (the margins below dwarf
 * rounding; tests/test_bake_prism.c checks it on random prisms), so both give the same collider;
 * what it does not accept goes to known.c, and from there to the general hull.
 *
 * The cheap checks, with M = PRISM_MARGIN:
 * - every coordinate finite and within PRISM_LIMIT of 0 (the bounds check: the margins are sized
 *   for that range);
 * - far corner i has surface corner i's x and z, bit for bit, and lies at least M above it (up)
 *   or below it (down);
 * - in x, z the outline turns left at every corner and every other corner lies at least M inside
 *   each edge's line (so the side faces are vertical, convex and apart from each other, and no
 *   two corners are within BAKE_WELD);
 * - each side face's corners lie more than 4 * BAKE_WELD from the line through their neighbours;
 * - each surface and far triangle has every corner not on it at least M behind its plane (so no
 *   two faces merge and the solid is deep), and each corner more than 4 * BAKE_WELD from the
 *   opposite edge.
 * Distances are compared squared, without square roots or divisions. */
#include <math.h>

#include "bake/convex/faces.h"
#include "bake/convex/known.h"

#define PRISM_MARGIN (1.0 / 16.0)
#define PRISM_LIMIT 16777216.0 /* 2^24 qu */
#define PRISM_CORNER (4.0 * BAKE_WELD)

int blvl__bake_convex_prism_variant(uint32_t n, int split, bool up) {
    return n == 3 ? (int)up : 2 + 2 * (split + 1) + (int)up;
}

void blvl__bake_convex_prism_faces(uint32_t n, int split, bool up, uint8_t *sizes, uint8_t *idx,
                                   uint32_t *face_count, uint32_t *index_count) {
    /* quad corners a b / c d (0 1 / 2 3); its outline a c d b is counter-clockwise seen from +Y */
    static const uint8_t quad[4] = {0, 2, 3, 1}, tri3[3] = {0, 1, 2};
    static const uint8_t diag[2][2][3] = {{{0, 2, 1}, {1, 2, 3}}, {{0, 2, 3}, {0, 3, 1}}};
    const uint8_t *outline = n == 4 ? quad : tri3;
    uint8_t m = (uint8_t)n;
    uint32_t nf = 0, nt = 0;
#define PRISM_FACE(loop, len, shift, reverse)                                                      \
    do {                                                                                           \
        sizes[nf++] = (uint8_t)(len);                                                              \
        for (uint32_t k_ = 0; k_ < (len); k_++)                                                    \
            idx[nt++] = (uint8_t)((loop)[(reverse) ? (len)-1 - k_ : k_] + (shift));                \
    } while (0)
    if (split < 0) {
        PRISM_FACE(outline, n, 0, up);
        PRISM_FACE(outline, n, m, !up);
    } else {
        for (int t = 0; t < 2; t++)
            PRISM_FACE(diag[split][t], 3u, 0, up);
        for (int t = 0; t < 2; t++)
            PRISM_FACE(diag[!split][t], 3u, m, !up);
    }
    for (uint32_t k = 0; k < n; k++) {
        uint8_t i = outline[k], j = outline[(k + 1) % n];
        const uint8_t side[4] = {j, i, (uint8_t)(i + m), (uint8_t)(j + m)};
        PRISM_FACE(side, 4u, 0, up);
    }
#undef PRISM_FACE
    *face_count = nf;
    *index_count = nt;
}

static double sq3(const double a[3]) {
    return a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
}

/* A triangle face's checks: the corners not on it at least M behind, each corner off the
 * opposite edge. p holds every corner relative to corner 0 of the prism. */
static bool triangle_ok(const double (*p)[3], uint32_t nv, const uint8_t *loop) {
    const double *a = p[loop[0]], *b = p[loop[1]], *c = p[loop[2]];
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double bc[3] = {c[0] - b[0], c[1] - b[1], c[2] - b[2]};
    double ca[3] = {a[0] - c[0], a[1] - c[1], a[2] - c[2]};
    double nrm[3] = {ab[1] * bc[2] - ab[2] * bc[1], ab[2] * bc[0] - ab[0] * bc[2],
                     ab[0] * bc[1] - ab[1] * bc[0]};
    double len2 = sq3(nrm); /* (twice the area)^2 */
    double far2 = PRISM_CORNER * PRISM_CORNER;
    if (!(len2 > far2 * sq3(ab) && len2 > far2 * sq3(bc) && len2 > far2 * sq3(ca)))
        return false;
    double m2 = PRISM_MARGIN * PRISM_MARGIN * len2;
    for (uint32_t i = 0; i < nv; i++) {
        if (i == loop[0] || i == loop[1] || i == loop[2])
            continue;
        double s =
            nrm[0] * (p[i][0] - a[0]) + nrm[1] * (p[i][1] - a[1]) + nrm[2] * (p[i][2] - a[2]);
        if (!(s < 0 && s * s >= m2))
            return false;
    }
    return true;
}

bool blvl__bake_convex_prism_ok(const blvl_Vec3 *points, uint32_t n, int split, bool up) {
    if (!points || (n != 3 && n != 4) || split < -1 || split > 1 || (n == 3 && split >= 0) ||
        (n == 4 && split < 0))
        return false; /* planar quads (merged rectangles) are rare: known.c checks them */
    double p[8][3];
    for (uint32_t i = 0; i < 2 * n; i++) {
        const float v[3] = {points[i].x, points[i].y, points[i].z};
        for (int k = 0; k < 3; k++)
            if (!(fabs(v[k]) <= PRISM_LIMIT))
                return false; /* also NaN */
    }
    for (uint32_t i = 0; i < 2 * n; i++) { /* relative to corner 0: small numbers, exact */
        p[i][0] = (double)points[i].x - points[0].x;
        p[i][1] = (double)points[i].y - points[0].y;
        p[i][2] = (double)points[i].z - points[0].z;
    }
    for (uint32_t i = 0; i < n; i++) {
        const blvl_Vec3 s = points[i], f = points[n + i];
        double t = (double)f.y - s.y;
        if (memcmp(&s.x, &f.x, sizeof s.x) || memcmp(&s.z, &f.z, sizeof s.z) ||
            !(up ? t >= PRISM_MARGIN : t <= -PRISM_MARGIN))
            return false;
    }
    static const uint8_t quad[4] = {0, 2, 3, 1};
    const uint8_t *outline = n == 4 ? quad : (const uint8_t[3]){0, 1, 2};
    for (uint32_t k = 0; k < n; k++) { /* each edge of the outline, seen from +Y */
        uint8_t i = outline[k], j = outline[(k + 1) % n];
        double ex = p[j][0] - p[i][0], ez = p[j][2] - p[i][2], l2 = ex * ex + ez * ez;
        if (!(l2 >= PRISM_MARGIN * PRISM_MARGIN))
            return false;
        for (uint32_t q = 2; q < n; q++) { /* the other corners: inside by M */
            uint8_t o = outline[(k + q) % n];
            /* left of the edge (inside a counter-clockwise outline seen from +Y, X east, Z
             * south): the cross product's Y component positive */
            double s = ez * (p[o][0] - p[i][0]) - ex * (p[o][2] - p[i][2]);
            if (!(s > 0 && s * s >= PRISM_MARGIN * PRISM_MARGIN * l2))
                return false;
        }
        /* the side face's corners off the lines through their neighbours: the nearest is
         * l * min|t| / the longer of the face's diagonals */
        double ti = p[n + i][1] - p[i][1], tj = p[n + j][1] - p[j][1];
        double t2 = ti * ti < tj * tj ? ti * ti : tj * tj;
        double d1[3] = {p[j][0] - p[n + i][0], p[j][1] - p[n + i][1], p[j][2] - p[n + i][2]};
        double d2[3] = {p[i][0] - p[n + j][0], p[i][1] - p[n + j][1], p[i][2] - p[n + j][2]};
        double dd = sq3(d1) > sq3(d2) ? sq3(d1) : sq3(d2);
        if (!(l2 * t2 > PRISM_CORNER * PRISM_CORNER * dd))
            return false;
    }
    /* the surface and far triangles, wound as the template winds them
     * (blvl__bake_convex_prism_faces) */
    static const uint8_t diag[2][2][3] = {{{0, 2, 1}, {1, 2, 3}}, {{0, 2, 3}, {0, 3, 1}}};
    static const uint8_t tri3[3] = {0, 1, 2};
    for (int side = 0; side < 2; side++) { /* 0 surface, 1 far */
        bool reverse = side ? !up : up;
        uint8_t shift = (uint8_t)(side ? n : 0);
        for (int t = 0; t < (n == 4 ? 2 : 1); t++) {
            const uint8_t *src = n == 4 ? diag[side ? !split : split][t] : tri3;
            const uint8_t loop[3] = {(uint8_t)(src[reverse ? 2 : 0] + shift),
                                     (uint8_t)(src[1] + shift),
                                     (uint8_t)(src[reverse ? 0 : 2] + shift)};
            if (!triangle_ok((const double(*)[3])p, 2 * n, loop))
                return false;
        }
    }
    return true;
}
