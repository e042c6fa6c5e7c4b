/* Tangents as Lengyel's method computes them: each triangle's u and v directions (from its
 * edges and UV deltas) summed at its three vertices, then the u direction made perpendicular to
 * the vertex normal (Gram-Schmidt) and the sign of the bitangent taken from the v direction. A
 * vertex no triangle gives a usable u direction (degenerate UVs or geometry) gets a tangent
 * perpendicular to its normal from the axis the normal points least along. Sums are doubles, so
 * the result depends only on the input, never on a thread count. */
#include "bake/write/tangents.h"

#include <math.h>
#include <string.h>

/* Rounded half away from zero, as lround, without a library call per component: the
 * truncation and the remainder are exact for |x| <= 32767. */
static int16_t snorm16(double x) {
    if (x != x)
        return 0; /* what lround's out-of-range answer gave; no NaN reaches here */
    if (x > 1.0)
        x = 1.0;
    if (x < -1.0)
        x = -1.0;
    double y = x * 32767.0;
    int32_t i = (int32_t)y;
    double f = y - (double)i;
    i += (f >= 0.5) - (f <= -0.5); /* no branch: which way it goes is the data's coin toss */
    return (int16_t)i;
}

static void fallback(const double n[3], double t[3]) {
    double a[3] = {fabs(n[0]), fabs(n[1]), fabs(n[2])};
    int k = 0;
    if (a[1] < a[k])
        k = 1;
    if (a[2] < a[k])
        k = 2;
    double axis[3] = {0, 0, 0};
    axis[k] = 1.0;
    double d = n[k];
    double len = 0;
    for (int i = 0; i < 3; i++) {
        t[i] = axis[i] - n[i] * d;
        len += t[i] * t[i];
    }
    len = sqrt(len);
    for (int i = 0; i < 3; i++)
        t[i] /= len;
}

/* One triangle's u and v directions (a, b, c its vertices); 0 when its UVs span no area: no
 * direction to learn. */
static int triangle_dirs(const blvl_bake_vertex *v, const uint32_t q[3], double s[3], double w[3]) {
    const blvl_bake_vertex *a = &v[q[0]], *b = &v[q[1]], *c = &v[q[2]];
    double e1[3], e2[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = (double)b->position[k] - a->position[k];
        e2[k] = (double)c->position[k] - a->position[k];
    }
    double du1 = (double)b->uv[0] - a->uv[0], dv1 = (double)b->uv[1] - a->uv[1];
    double du2 = (double)c->uv[0] - a->uv[0], dv2 = (double)c->uv[1] - a->uv[1];
    double r = du1 * dv2 - du2 * dv1;
    if (fabs(r) < 1e-20)
        return 0;
    for (int k = 0; k < 3; k++) {
        s[k] = (e1[k] * dv2 - e2[k] * dv1) / r;
        w[k] = (e2[k] * du1 - e1[k] * du2) / r;
    }
    return 1;
}

static void add_dirs(double sdir[3], double tdir[3], const double s[3], const double w[3]) {
    for (int k = 0; k < 3; k++) {
        sdir[k] += s[k];
        tdir[k] += w[k];
    }
}

/* The triangles' sums into scratch: u directions at 3 i, v directions at 3 nv + 3 i. */
static void tangent_sums(const blvl_bake_vertex *v, uint32_t nv, const uint32_t *idx, uint32_t ni,
                         double *scratch) {
    double *sdir = scratch, *tdir = scratch + 3 * (size_t)nv;
    memset(scratch, 0, 6 * (size_t)nv * sizeof *scratch);
    for (uint32_t t = 0; t + 2 < ni; t += 3) {
        double s[3], w[3];
        if (!triangle_dirs(v, idx + t, s, w))
            continue;
        for (int j = 0; j < 3; j++)
            add_dirs(&sdir[3 * (size_t)idx[t + j]], &tdir[3 * (size_t)idx[t + j]], s, w);
    }
}

/* One vertex's tangent from its two sums. */
static blvl_Snorm16x4 tangent_frame(const blvl_bake_vertex *vi, const double s[3],
                                    const double w[3]) {
    double n[3] = {vi->normal[0], vi->normal[1], vi->normal[2]};
    double nl = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (nl > 0) {
        for (int k = 0; k < 3; k++)
            n[k] /= nl;
    } else {
        n[0] = 0, n[1] = 1, n[2] = 0; /* no normal: treat it as +Y, the up axis */
    }
    double d = n[0] * s[0] + n[1] * s[1] + n[2] * s[2];
    double t[3] = {s[0] - n[0] * d, s[1] - n[1] * d, s[2] - n[2] * d};
    double sl = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    double tl = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    double sign = 1.0;
    if (!(tl > 1e-6 * sl) || !(tl > 0) || !isfinite(tl)) {
        fallback(n, t);
    } else {
        for (int k = 0; k < 3; k++)
            t[k] /= tl;
        double bx = n[1] * t[2] - n[2] * t[1];
        double by = n[2] * t[0] - n[0] * t[2];
        double bz = n[0] * t[1] - n[1] * t[0];
        if (bx * w[0] + by * w[1] + bz * w[2] < 0)
            sign = -1.0;
    }
    return (blvl_Snorm16x4){snorm16(t[0]), snorm16(t[1]), snorm16(t[2]), snorm16(sign)};
}

void blvl__bake_write_tangents(const blvl_bake_vertex *v, uint32_t nv, const uint32_t *idx,
                               uint32_t ni, double *scratch, blvl_Snorm16x4 *out) {
    tangent_sums(v, nv, idx, ni, scratch);
    for (uint32_t i = 0; i < nv; i++)
        out[i] =
            tangent_frame(&v[i], &scratch[3 * (size_t)i], &scratch[3 * (size_t)nv + 3 * (size_t)i]);
}

bool blvl__bake_write_tangents_window(const blvl_bake_vertex *v, uint32_t nv, const uint32_t *idx,
                                      uint32_t ni, double *ring, uint32_t *low,
                                      blvl__bake_tangent_emit emit, void *ctx) {
    const uint32_t W = BAKE_TANGENT_WINDOW, nt = ni / 3u;
    double *sdir = ring, *tdir = ring + 3 * (size_t)W;
    /* low[t]: the least vertex a triangle at or after t names; below it, every sum is final.
     * When triangle t is summed, the ring holds [low[t], low[t] + W): a triangle naming a vertex
     * past that is found here, before anything is emitted, so a caller that streams what emit
     * gives never has to take a vertex back. */
    for (uint32_t t = nt, m = nv; t-- > 0;) {
        const uint32_t *q = idx + 3 * (size_t)t;
        m = q[0] < m ? q[0] : m;
        m = q[1] < m ? q[1] : m;
        m = q[2] < m ? q[2] : m;
        if (q[0] - m >= W || q[1] - m >= W || q[2] - m >= W)
            return false;
        low[t] = m;
    }
    uint32_t base = 0; /* vertices below base are emitted; the ring holds [base, base + W) */
    for (uint32_t t = 0; t <= nt; t++) {
        uint32_t upto = t < nt ? low[t] : nv;
        for (; base < upto; base++) {
            size_t r = 3 * (size_t)(base & (W - 1));
            emit(ctx, base, tangent_frame(&v[base], &sdir[r], &tdir[r]));
            memset(&sdir[r], 0, 3 * sizeof *sdir);
            memset(&tdir[r], 0, 3 * sizeof *tdir);
        }
        if (t == nt)
            break;
        const uint32_t *q = idx + 3 * (size_t)t; /* within the ring: checked above */
        double s[3], w[3];
        if (!triangle_dirs(v, q, s, w))
            continue;
        for (int j = 0; j < 3; j++) {
            size_t r = 3 * (size_t)(q[j] & (W - 1));
            add_dirs(&sdir[r], &tdir[r], s, w);
        }
    }
    return true;
}
