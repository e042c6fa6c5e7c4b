/* Fuzz the expansion of arbitrary hulls (and the door re-expansion and traces after it).
 * Input: u8 vertex count, u8 face count, u8 mode (bit 0: raw float32 coordinates, else int16
 * quarter units; bit 1: make it a door and swing it), the coordinates, one u8 size per face,
 * then u8 vertex indices for the loops. Checks: the build never fails on content, every plane is
 * finite and unit, traces return a fraction in [0, 1]. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/trace.h"

#define MAXV 64
#define MAXF 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3)
        return 0;
    uint32_t nv = data[0] % (MAXV + 1), nf = data[1] % (MAXF + 1), mode = data[2];
    size_t at = 3, csize = (mode & 1) ? 4 : 2;
    blvl_Vec3 v[MAXV];
    for (uint32_t i = 0; i < nv; i++) {
        float c[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++) {
            if (at + csize > size)
                break;
            if (mode & 1) {
                memcpy(&c[k], data + at, 4);
            } else {
                int16_t s = (int16_t)(data[at] | data[at + 1] << 8);
                c[k] = s / 4.0f;
            }
            at += csize;
        }
        v[i] = (blvl_Vec3){c[0], c[1], c[2]};
    }
    uint32_t sizes[MAXF], idx[MAXF * 32], ni = 0;
    for (uint32_t f = 0; f < nf; f++) {
        sizes[f] = at < size ? data[at++] % 32 : 3;
        ni += sizes[f];
    }
    for (uint32_t i = 0; i < ni; i++)
        idx[i] = at < size ? data[at++] : i % (nv ? nv : 1);
    blvl_trace_collider_desc d;
    blvl_trace_collider_desc_init(&d);
    d.shape = BLVL_TRACE_SHAPE_HULL;
    d.vertices = v;
    d.vertex_count = nv;
    d.face_sizes = sizes;
    d.face_count = nf;
    d.face_indices = idx;
    d.face_index_count = ni;
    if (mode & 2)
        d.door = 0;
    blvl_trace_world *w = NULL;
    blvl_error err;
    if (blvl_trace_world_new(&w, &d, 1, NULL, &err) != BLVL_OK)
        abort();
    uint32_t np;
    const blvl_Plane *p = blvl_trace_world_planes(w, 0, &np);
    for (uint32_t i = 0; i < np; i++) {
        float l = p[i].normal.x * p[i].normal.x + p[i].normal.y * p[i].normal.y +
                  p[i].normal.z * p[i].normal.z;
        if (!isfinite(p[i].dist) || fabsf(l - 1) > 1e-3f)
            abort();
    }
    blvl_trace_doors *doors = NULL;
    blvl_trace_filter f;
    memset(&f, 0, sizeof f);
    if ((mode & 2) && blvl_trace_doors_new(&doors, w, &err) == BLVL_OK) {
        blvl_trace_transform xf;
        float o[3] = {1, 2, 3}, ax[3] = {0.3f, 1, 0.2f};
        if (blvl_trace_transform_swing(&xf, o, ax, (float)(mode >> 2) * 7, &err) == BLVL_OK &&
            blvl_trace_doors_set(doors, 0, &xf, &err) != BLVL_OK)
            abort();
        f.doors = doors;
    }
    static const float pts[4][6] = {{-100, 0, 0, 100, 0, 0},
                                    {0, -100, 0, 0, 100, 0},
                                    {0, 0, -100, 0, 0, 100},
                                    {-50, -60, -70, 80, 90, 100}};
    const float mins[3] = {-16, -16, -24}, maxs[3] = {16, 16, 32};
    for (int i = 0; i < 4; i++) {
        blvl_trace_result r;
        blvl_trace_box(w, &f, pts[i], pts[i] + 3, mins, maxs, &r);
        if (!(r.fraction >= 0 && r.fraction <= 1))
            abort();
        blvl_trace_ray(w, &f, pts[i], pts[i] + 3, &r);
        if (!(r.fraction >= 0 && r.fraction <= 1))
            abort();
        blvl_trace_point_contents(w, &f, pts[i], NULL, NULL);
    }
    blvl_trace_doors_free(doors);
    blvl_trace_world_free(w);
    return 0;
}
