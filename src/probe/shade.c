/* The colour of each pixel of the visibility buffer: base texture (or the surface normal as a
 * colour) times the lightmap (or a headlight term), background where nothing or sky is hit. */
#include <math.h>

#include "probe/probe_internal.h"

static float wrap01(float f) {
    f -= floorf(f);
    return f >= 0 && f < 1 ? f : 0; /* NaN and the rounding edge of floorf */
}

void blvl__probe_sample(const probe_picture *pic, uint32_t layer, float u, float v, bool repeat,
                        uint8_t out[4]) {
    if (repeat) {
        u = wrap01(u);
        v = wrap01(v);
    } else {
        u = u > 0 ? (u < 1 ? u : 1) : 0; /* NaN clamps to 0 */
        v = v > 0 ? (v < 1 ? v : 1) : 0;
    }
    uint32_t x = (uint32_t)(u * (float)pic->width), y = (uint32_t)(v * (float)pic->height);
    if (x >= pic->width)
        x = pic->width - 1;
    if (y >= pic->height)
        y = pic->height - 1;
    if (layer >= pic->layers)
        layer = 0;
    const uint8_t *s = pic->rgba + (((size_t)layer * pic->height + y) * pic->width + x) * 4;
    for (int k = 0; k < 4; k++)
        out[k] = s[k];
}

static uint8_t byte01(float f) {
    f = f * 255.0f + 0.5f;
    return f >= 255 ? 255 : f > 0 ? (uint8_t)f : 0;
}

static void shade_pixel(const blvl_probe *p, const probe_view *v, uint32_t t, float b1, float b2,
                        float dir[3], uint8_t *px) {
    static const uint8_t bg[4] = {BLVL_PROBE_BACKGROUND_R, BLVL_PROBE_BACKGROUND_G,
                                  BLVL_PROBE_BACKGROUND_B, 255};
    const probe_batch *bt = &p->batches[p->tri_batch[t]];
    const probe_material *m = bt->material == BLVL_TRACE_NONE ? NULL : &p->materials[bt->material];
    if (m && m->sky) {
        for (int k = 0; k < 4; k++)
            px[k] = bg[k];
        return;
    }
    const uint32_t *ix = &p->indices[3 * t];
    const blvl_Vertex *a = &p->vertices[ix[0]], *b = &p->vertices[ix[1]], *c = &p->vertices[ix[2]];
    float b0 = 1 - b1 - b2;
    float n[3] = {b0 * a->normal.x + b1 * b->normal.x + b2 * c->normal.x,
                  b0 * a->normal.y + b1 * b->normal.y + b2 * c->normal.y,
                  b0 * a->normal.z + b1 * b->normal.z + b2 * c->normal.z};
    float len = sqrtf(probe_dot(n, n));
    if (!(len > 1e-6f)) {
        n[0] = n[1] = n[2] = 0;
        len = 1;
    }
    for (int k = 0; k < 3; k++)
        n[k] /= len;
    float base[3], light[3];
    const probe_picture *tex = m && m->texture < p->texture_count && p->textures[m->texture].rgba
                                   ? &p->textures[m->texture]
                                   : NULL;
    if (tex && !v->no_textures) {
        uint8_t s[4];
        blvl__probe_sample(tex, 0, b0 * a->uv.x + b1 * b->uv.x + b2 * c->uv.x,
                           b0 * a->uv.y + b1 * b->uv.y + b2 * c->uv.y, true, s);
        for (int k = 0; k < 3; k++)
            base[k] = s[k] / 255.0f;
    } else {
        for (int k = 0; k < 3; k++)
            base[k] = n[k] * 0.5f + 0.5f;
    }
    if (m && !m->lightmapped && !v->no_textures) {
        /* vertex-lit: the vertex colours are its light */
        light[0] = (b0 * a->color.r + b1 * b->color.r + b2 * c->color.r) / 255.0f;
        light[1] = (b0 * a->color.g + b1 * b->color.g + b2 * c->color.g) / 255.0f;
        light[2] = (b0 * a->color.b + b1 * b->color.b + b2 * c->color.b) / 255.0f;
    } else if (p->lightmap.rgba && !v->no_textures) {
        uint8_t s[4];
        blvl__probe_sample(&p->lightmap, bt->lightmap_layer,
                           b0 * a->lightmap_uv.x + b1 * b->lightmap_uv.x + b2 * c->lightmap_uv.x,
                           b0 * a->lightmap_uv.y + b1 * b->lightmap_uv.y + b2 * c->lightmap_uv.y,
                           false, s);
        for (int k = 0; k < 3; k++)
            light[k] = p->lightmap_lut[s[k]];
    } else {
        /* a headlight: full where the surface faces the eye, 0.6 edge-on */
        float f = 0.6f + 0.4f * fabsf(probe_dot(n, dir));
        light[0] = light[1] = light[2] = f;
    }
    for (int k = 0; k < 3; k++)
        px[k] = byte01(base[k] * light[k]);
    px[3] = 255;
}

void blvl__probe_shade(const blvl_probe *p, const probe_view *v, const probe_vis *vis,
                       uint8_t *rgba) {
    for (uint32_t y = 0; y < vis->height; y++) {
        float dy = ((float)y + 0.5f - v->cy) / v->sy;
        for (uint32_t x = 0; x < vis->width; x++) {
            size_t at = (size_t)y * vis->width + x;
            uint8_t *px = rgba + at * 4;
            uint32_t t = vis->tri[at];
            if (t == BLVL_TRACE_NONE) {
                px[0] = BLVL_PROBE_BACKGROUND_R;
                px[1] = BLVL_PROBE_BACKGROUND_G;
                px[2] = BLVL_PROBE_BACKGROUND_B;
                px[3] = 255;
                continue;
            }
            float dx = ((float)x + 0.5f - v->cx) / v->sx, dir[3];
            for (int k = 0; k < 3; k++)
                dir[k] = v->fwd[k] + v->right[k] * dx - v->up[k] * dy;
            float l = sqrtf(probe_dot(dir, dir));
            for (int k = 0; k < 3; k++)
                dir[k] /= l;
            shade_pixel(p, v, t, vis->b1[at], vis->b2[at], dir, px);
        }
    }
}
