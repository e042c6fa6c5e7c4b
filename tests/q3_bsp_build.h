/* A tiny IBSP 46 writer for tests: lumps filled record by record, then laid out after the
 * header in lump order (the layout docs/IMPORT-Q3.md describes, little-endian). */
#ifndef BLVL_TEST_Q3_BSP_BUILD_H
#define BLVL_TEST_Q3_BSP_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/q3.h"

typedef struct qb_lump {
    uint8_t *p;
    size_t n;
} qb_lump;

typedef struct qb {
    qb_lump l[BLVL_Q3_LUMP_COUNT];
} qb;

static void qb_put(qb *b, int lump, const void *src, size_t n) {
    qb_lump *l = &b->l[lump];
    l->p = realloc(l->p, l->n + n);
    memcpy(l->p + l->n, src, n);
    l->n += n;
}

static void qb_i32(qb *b, int lump, int32_t v) {
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    qb_put(b, lump, x, 4);
}

static void qb_f32(qb *b, int lump, float f) {
    int32_t v;
    memcpy(&v, &f, 4);
    qb_i32(b, lump, v);
}

static void qb_name(qb *b, int lump, const char *name) {
    char n[64] = {0};
    strncpy(n, name, 63);
    qb_put(b, lump, n, 64);
}

static void qb_shader(qb *b, const char *name, uint32_t flags, uint32_t contents) {
    qb_name(b, BLVL_Q3_LUMP_SHADERS, name);
    qb_i32(b, BLVL_Q3_LUMP_SHADERS, (int32_t)flags);
    qb_i32(b, BLVL_Q3_LUMP_SHADERS, (int32_t)contents);
}

static void qb_plane(qb *b, float nx, float ny, float nz, float d) {
    float v[4] = {nx, ny, nz, d};
    for (int k = 0; k < 4; k++)
        qb_f32(b, BLVL_Q3_LUMP_PLANES, v[k]);
}

static void qb_model(qb *b, const float mins[3], const float maxs[3], int32_t fs, int32_t ns,
                     int32_t fb, int32_t nb) {
    for (int k = 0; k < 3; k++)
        qb_f32(b, BLVL_Q3_LUMP_MODELS, mins[k]);
    for (int k = 0; k < 3; k++)
        qb_f32(b, BLVL_Q3_LUMP_MODELS, maxs[k]);
    int32_t v[4] = {fs, ns, fb, nb};
    for (int k = 0; k < 4; k++)
        qb_i32(b, BLVL_Q3_LUMP_MODELS, v[k]);
}

static void qb_vert(qb *b, float x, float y, float z, float s, float t, float ls, float lt,
                    float nx, float ny, float nz) {
    float f[10] = {x, y, z, s, t, ls, lt, nx, ny, nz};
    for (int k = 0; k < 10; k++)
        qb_f32(b, BLVL_Q3_LUMP_DRAW_VERTS, f[k]);
    uint8_t c[4] = {255, 128, 64, 255};
    qb_put(b, BLVL_Q3_LUMP_DRAW_VERTS, c, 4);
}

static void qb_surface(qb *b, int32_t shader, int32_t fog, int32_t type, int32_t fv, int32_t nv,
                       int32_t fi, int32_t ni, int32_t lightmap, int32_t pw, int32_t ph) {
    int32_t v[12] = {shader,
                     fog,
                     type,
                     fv,
                     nv,
                     fi,
                     ni,
                     lightmap,
                     0,
                     0,
                     lightmap >= 0 ? 16 : 0,
                     lightmap >= 0 ? 16 : 0};
    for (int k = 0; k < 12; k++)
        qb_i32(b, BLVL_Q3_LUMP_SURFACES, v[k]);
    float f[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int k = 0; k < 12; k++)
        qb_f32(b, BLVL_Q3_LUMP_SURFACES, f[k]);
    qb_i32(b, BLVL_Q3_LUMP_SURFACES, pw);
    qb_i32(b, BLVL_Q3_LUMP_SURFACES, ph);
}

/* The file; free with free(). */
static uint8_t *qb_finish(qb *b, size_t *size) {
    size_t n = 8 + 8 * BLVL_Q3_LUMP_COUNT;
    for (int l = 0; l < BLVL_Q3_LUMP_COUNT; l++)
        n += (b->l[l].n + 3) & ~(size_t)3;
    uint8_t *f = calloc(1, n);
    memcpy(f, "IBSP", 4);
    f[4] = 46;
    size_t at = 8 + 8 * BLVL_Q3_LUMP_COUNT;
    for (int l = 0; l < BLVL_Q3_LUMP_COUNT; l++) {
        uint32_t o = (uint32_t)at, len = (uint32_t)b->l[l].n;
        for (int k = 0; k < 4; k++) {
            f[8 + 8 * l + k] = (uint8_t)(o >> (8 * k));
            f[12 + 8 * l + k] = (uint8_t)(len >> (8 * k));
        }
        if (len)
            memcpy(f + at, b->l[l].p, len);
        at += (len + 3) & ~(size_t)3;
        free(b->l[l].p);
        b->l[l].p = NULL;
        b->l[l].n = 0;
    }
    *size = n;
    return f;
}

#endif
