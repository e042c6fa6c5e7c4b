/* The visibility buffer: every drawn triangle clipped to the near plane, projected, and scanned
 * over its bounding box with edge functions; per pixel the nearest triangle wins (1/z, which
 * is linear in screen space) and keeps its perspective-correct barycentrics for the shading. */
#include <math.h>

#include "probe/probe_internal.h"

/* A clipped vertex: camera-space position and its weights of the triangle's vertices 1 and 2. */
typedef struct cv {
    float x, y, z, b1, b2;
} cv;

static cv lerp(const cv *a, const cv *b, float t) {
    return (cv){a->x + (b->x - a->x) * t, a->y + (b->y - a->y) * t, a->z + (b->z - a->z) * t,
                a->b1 + (b->b1 - a->b1) * t, a->b2 + (b->b2 - a->b2) * t};
}

/* Keep the part in front of the near plane; a triangle gives at most four points. */
static int clip_near(const cv in[3], cv out[4]) {
    int n = 0;
    for (int i = 0; i < 3; i++) {
        const cv *a = &in[i], *b = &in[(i + 1) % 3];
        bool ain = a->z >= BLVL_PROBE_NEAR, bin = b->z >= BLVL_PROBE_NEAR;
        if (ain)
            out[n++] = *a;
        if (ain != bin)
            out[n++] = lerp(a, b, (BLVL_PROBE_NEAR - a->z) / (b->z - a->z));
    }
    return n;
}

/* Does the alpha test keep the texel at barycentrics (b1, b2) of triangle t? */
static bool alpha_keeps(const blvl_probe *p, const probe_material *m, uint32_t t, float b1,
                        float b2) {
    if (m->alpha_test == 0 || m->texture >= p->texture_count || !p->textures[m->texture].rgba)
        return true;
    const uint32_t *ix = &p->indices[3 * t];
    const blvl_Vec2 *u0 = &p->vertices[ix[0]].uv, *u1 = &p->vertices[ix[1]].uv,
                    *u2 = &p->vertices[ix[2]].uv;
    float b0 = 1 - b1 - b2;
    uint8_t px[4];
    blvl__probe_sample(&p->textures[m->texture], 0, b0 * u0->x + b1 * u1->x + b2 * u2->x,
                       b0 * u0->y + b1 * u1->y + b2 * u2->y, true, px);
    float a = px[3] / 255.0f;
    switch (m->alpha_test) {
    case 1:
        return a > m->alpha_ref;
    case 2:
        return a < m->alpha_ref;
    default:
        return a >= m->alpha_ref;
    }
}

static void scan(const blvl_probe *p, const probe_view *v, probe_vis *vis, const cv q[3],
                 uint32_t t, const probe_material *m) {
    float X[3], Y[3], W[3], B1[3], B2[3];
    for (int i = 0; i < 3; i++) {
        W[i] = 1.0f / q[i].z;
        X[i] = v->cx + v->sx * q[i].x * W[i];
        Y[i] = v->cy - v->sy * q[i].y * W[i];
        B1[i] = q[i].b1 * W[i];
        B2[i] = q[i].b2 * W[i];
    }
    if (!isfinite(X[0] + X[1] + X[2] + Y[0] + Y[1] + Y[2] + W[0] + W[1] + W[2]))
        return; /* a vertex at infinity or NaN: nothing to scan */
    float area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (!(fabsf(area) > 1e-12f))
        return;
    float minx = fminf(X[0], fminf(X[1], X[2])), maxx = fmaxf(X[0], fmaxf(X[1], X[2]));
    float miny = fminf(Y[0], fminf(Y[1], Y[2])), maxy = fmaxf(Y[0], fmaxf(Y[1], Y[2]));
    if (!(maxx >= 0 && maxy >= 0 && minx < (float)vis->width && miny < (float)vis->height))
        return;
    int x0 = minx < 0 ? 0 : (int)minx, y0 = miny < 0 ? 0 : (int)miny;
    int x1 = maxx >= (float)vis->width ? (int)vis->width - 1 : (int)maxx;
    int y1 = maxy >= (float)vis->height ? (int)vis->height - 1 : (int)maxy;
    float inv = 1.0f / area;
    /* edge i is opposite vertex i: e_i(x, y) = A_i x + B_i y + C_i, positive inside */
    float A[3], Bc[3], C[3];
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        A[i] = (Y[j] - Y[k]) * inv;
        Bc[i] = (X[k] - X[j]) * inv;
        C[i] = (X[j] * Y[k] - X[k] * Y[j]) * inv;
    }
    for (int y = y0; y <= y1; y++) {
        float py = (float)y + 0.5f;
        size_t row = (size_t)y * vis->width;
        for (int x = x0; x <= x1; x++) {
            float px = (float)x + 0.5f;
            float l0 = A[0] * px + Bc[0] * py + C[0];
            float l1 = A[1] * px + Bc[1] * py + C[1];
            float l2 = A[2] * px + Bc[2] * py + C[2];
            if (l0 < 0 || l1 < 0 || l2 < 0)
                continue;
            float w = l0 * W[0] + l1 * W[1] + l2 * W[2];
            size_t at = row + (size_t)x;
            if (w <= vis->inv_z[at])
                continue;
            float b1 = (l0 * B1[0] + l1 * B1[1] + l2 * B1[2]) / w;
            float b2 = (l0 * B2[0] + l1 * B2[1] + l2 * B2[2]) / w;
            if (m && !alpha_keeps(p, m, t, b1, b2))
                continue;
            vis->inv_z[at] = w;
            vis->tri[at] = t;
            vis->b1[at] = b1;
            vis->b2[at] = b2;
        }
    }
}

void blvl__probe_rasterise(const blvl_probe *p, const probe_view *v, probe_vis *vis) {
    size_t n = (size_t)vis->width * vis->height;
    for (size_t i = 0; i < n; i++) {
        vis->inv_z[i] = 0;
        vis->tri[i] = BLVL_TRACE_NONE;
    }
    for (uint32_t b = 0; b < p->batch_count; b++) {
        const probe_batch *bt = &p->batches[b];
        const probe_material *m =
            bt->material == BLVL_TRACE_NONE ? NULL : &p->materials[bt->material];
        if (m && m->blend != 0)
            continue; /* blended surfaces are not drawn (docs/PROBE.md) */
        bool cull = !m || !m->two_sided;
        for (uint32_t t = bt->first_tri; t < bt->first_tri + bt->tri_count; t++) {
            if (p->tri_batch[t] != b)
                continue; /* a later batch claimed it */
            const uint32_t *ix = &p->indices[3 * t];
            cv q[3];
            for (int i = 0; i < 3; i++) {
                const blvl_Vec3 *s = &p->vertices[ix[i]].position;
                float d[3] = {s->x - v->eye[0], s->y - v->eye[1], s->z - v->eye[2]};
                q[i] = (cv){probe_dot(d, v->right), probe_dot(d, v->up), probe_dot(d, v->fwd),
                            i == 1 ? 1.0f : 0.0f, i == 2 ? 1.0f : 0.0f};
            }
            if (q[0].z < BLVL_PROBE_NEAR && q[1].z < BLVL_PROBE_NEAR && q[2].z < BLVL_PROBE_NEAR)
                continue;
            if (cull) {
                /* counter-clockwise seen from the front; camera space (right, up, forward) is
                 * left-handed, so the cross product flips: front when it points away */
                float e1[3] = {q[1].x - q[0].x, q[1].y - q[0].y, q[1].z - q[0].z};
                float e2[3] = {q[2].x - q[0].x, q[2].y - q[0].y, q[2].z - q[0].z};
                float nx = e1[1] * e2[2] - e1[2] * e2[1], ny = e1[2] * e2[0] - e1[0] * e2[2],
                      nz = e1[0] * e2[1] - e1[1] * e2[0];
                if (!(nx * q[0].x + ny * q[0].y + nz * q[0].z > 0))
                    continue;
            }
            cv c[4];
            int k = clip_near(q, c);
            for (int i = 1; i + 1 < k; i++) {
                cv tri[3] = {c[0], c[i], c[i + 1]};
                scan(p, v, vis, tri, t, m);
            }
        }
    }
}
