/* Step 3, lighting: fog volumes, the lightmap atlas, the light grid and the ambient, in that
 * order (docs/IMPORT-Q3.md, "Lighting, fog and lightmaps"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake_lighting.h"

float blvl__import_q3_light_gain(const q3_ctx *c) {
    int n = 2;
    static const char *const keys[2] = {"_mapOverBrightBits", "mapOverBrightBits"};
    for (int k = 0; c->world && k < 2; k++) {
        const char *v = blvl_q3_entity_get(c->world, keys[k]);
        if (!v)
            continue;
        char *end;
        long x = strtol(v, &end, 10);
        /* Anything but a whole number 0..4 reads as the default. */
        if (end != v && x >= 0 && x <= 4)
            n = (int)x;
        break;
    }
    return ldexpf(1.0f, n - 1);
}

/* Three numbers "r g b" (worldspawn _color). */
static bool read3(const char *s, float out[3]) {
    for (int k = 0; k < 3; k++) {
        char *end;
        float v = strtof(s, &end);
        if (end == s || !isfinite(v))
            return false;
        out[k] = v;
        s = end;
    }
    return true;
}

/* The compiler's ambient: worldspawn _ambient (or ambient), a level on the 0..255 scale of the
 * lightmap bytes, times _color scaled so its largest channel is 1 (white without it). */
void blvl__import_q3_light_ambient(q3_ctx *c) {
    if (!c->world)
        return;
    const char *v = blvl_q3_entity_get(c->world, "_ambient");
    if (!v)
        v = blvl_q3_entity_get(c->world, "ambient");
    if (!v)
        return;
    float level = strtof(v, NULL);
    if (!isfinite(level) || level <= 0)
        return;
    float col[3] = {1, 1, 1};
    const char *cs = blvl_q3_entity_get(c->world, "_color");
    float m;
    if (cs && read3(cs, col) && (m = fmaxf(col[0], fmaxf(col[1], col[2]))) > 0) {
        for (int k = 0; k < 3; k++)
            col[k] = fmaxf(col[k], 0.0f) / m;
    } else {
        col[0] = col[1] = col[2] = 1;
    }
    float s = fminf(level / 255.0f, 1.0f);
    blvl_Vec3 rgb = {col[0] * s, col[1] * s, col[2] * s};
    blvl_bake_set_ambient(c->b, rgb);
}

blvl_status blvl__import_q3_light_lighting(q3_ctx *c) {
    float gain = blvl__import_q3_light_gain(c);
    blvl_status st = blvl__import_q3_light_fogs(c);
    if (st == BLVL_OK)
        st = blvl__import_q3_light_lightmaps(c, gain);
    if (st == BLVL_OK)
        st = blvl__import_q3_light_grid(c, gain);
    if (st == BLVL_OK)
        blvl__import_q3_light_ambient(c);
    return st;
}
