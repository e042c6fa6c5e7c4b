/* The light grid (docs/IMPORT-Q3.md, "Lighting, fog and lightmaps"): cells of 64 x 64 x 128 qu
 * (or the worldspawn's gridsize) over the world model's bounds, counted as the engine counts
 * them; a lump whose size does not match that count is dropped, as the engine drops it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake_lighting.h"
#include "blvl/sections/common.h"
#include "common/alloc.h"
#include "common/error.h"

#define CELLS_MAX (1u << 20) /* cells along one axis */

static void grid_size(const q3_ctx *c, float s[3]) {
    s[0] = 64, s[1] = 64, s[2] = 128;
    const char *v = c->world ? blvl_q3_entity_get(c->world, "gridsize") : NULL;
    if (!v)
        return;
    float t[3];
    for (int k = 0; k < 3; k++) {
        char *end;
        t[k] = strtof(v, &end);
        if (end == v || !isfinite(t[k]) || t[k] < 1.0f) {
            c->report->values_replaced++;
            return; /* the default, whole */
        }
        v = end;
    }
    memcpy(s, t, sizeof t);
}

blvl_status blvl__import_q3_light_grid(q3_ctx *c, float gain) {
    const blvl_q3_bsp *bsp = c->bsp;
    const blvl_allocator *a = &c->opt->allocator;
    if (!bsp->light_grid_size)
        return BLVL_OK;
    float s[3], org[3];
    uint32_t cnt[3];
    grid_size(c, s);
    const blvl_q3_model *w = &bsp->models[0];
    uint64_t total = 1;
    for (int i = 0; i < 3; i++) {
        /* The engine's arithmetic: float origin and maxs, the count truncated. */
        org[i] = (float)(s[i] * ceil(w->mins[i] / s[i]));
        float mx = (float)(s[i] * floor(w->maxs[i] / s[i]));
        float b = (mx - org[i]) / s[i] + 1;
        if (!isfinite(org[i]) || !(b >= 1.0f) || b > (float)CELLS_MAX) {
            c->report->light_grid_dropped++;
            return BLVL_OK;
        }
        cnt[i] = (uint32_t)b;
        total *= cnt[i];
    }
    if (total * 8 != bsp->light_grid_size) {
        c->report->light_grid_dropped++;
        return BLVL_OK;
    }
    size_t n = (size_t)total;
    uint8_t *amb = blvl__calloc_n(a, n, 3), *dir = blvl__calloc_n(a, n, 3);
    blvl_Vec3 *vec = blvl__calloc_n(a, n, sizeof *vec);
    blvl_status st = BLVL_OK;
    if (!amb || !dir || !vec) {
        st = blvl__nomem(c->err, "the bake's scratch memory");
        goto out;
    }
    /* Quake 3 cell (x, y, z) is blvl cell (x, Y = z, Z = ny - 1 - y): blvl's Z is -y. */
    const double k = 2.0 * 3.14159265358979323846 / 256.0;
    for (uint32_t z = 0; z < cnt[2]; z++)
        for (uint32_t y = 0; y < cnt[1]; y++)
            for (uint32_t x = 0; x < cnt[0]; x++) {
                const uint8_t *d =
                    bsp->light_grid + 8 * ((size_t)x + cnt[0] * ((size_t)y + cnt[1] * (size_t)z));
                size_t e = (size_t)x + cnt[0] * ((size_t)(cnt[1] - 1 - y) + cnt[1] * (size_t)z);
                memcpy(amb + 3 * e, d, 3);
                memcpy(dir + 3 * e, d + 3, 3);
                if (!(d[0] | d[1] | d[2] | d[3] | d[4] | d[5]))
                    continue; /* the engine skips such cells as inside walls: no direction */
                /* byte 6 is the angle from +Z, byte 7 the angle around it from +X */
                double lng = d[6] * k, lat = d[7] * k;
                float q[3] = {(float)(cos(lat) * sin(lng)), (float)(sin(lat) * sin(lng)),
                              (float)cos(lng)};
                vec[e] = q3_axes(q);
            }
    blvl_bake_light_grid g = {
        .origin = {org[0], org[2], -(org[1] + (float)(cnt[1] - 1) * s[1])},
        .cell_size = {s[0], s[2], s[1]},
        .width = cnt[0],
        .height = cnt[1],
        .layers = cnt[2],
        .ambient = amb,
        .directional = dir,
        .direction = vec,
        .encoding = blvl_LightmapEncoding_Gamma8,
        .gain = gain,
    };
    st = blvl_bake_set_light_grid(c->b, &g, c->err);
out:
    if (amb)
        blvl__dealloc(a, amb, n * 3);
    if (dir)
        blvl__dealloc(a, dir, n * 3);
    if (vec)
        blvl__dealloc(a, vec, n * sizeof *vec);
    return st;
}
