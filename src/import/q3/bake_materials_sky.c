/* The sky of profile 0 from a skyParms farbox, and the sun from a q3map_sun.
 *
 * The engine loads the farbox as <farbox>_rt, _bk, _lf, _ft, _up, _dn and draws box side i
 * (+X, -X, +Y, -Y, +Z, -Z of Quake's axes) with image sky_texorder[i] = {0, 2, 1, 3, 4, 5}: rt,
 * lf, bk, ft, up, dn (tr_sky.c). In blvl's axes (x, z, -y) those sides are +X, -X, -Z, +Z, +Y,
 * -Y, so the cubemap's faces +X, -X, +Y, -Y, +Z, -Z are rt, lf, up, dn, ft, bk, each image as it
 * is (no turn or mirror; a face smaller than the largest is scaled up to it):
 * docs/IMPORT-Q3.md gives each face's orientation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bake_materials.h"
#include "common/alloc.h"
#include "image_internal.h"
#include "common/error.h"

/* A face scaled to size x size (nearest texel): the engine draws faces of any size, a cubemap
 * wants six of one. */
static uint8_t *fit(const blvl_allocator *a, const uint8_t *px, uint32_t w, uint32_t h,
                    uint32_t size) {
    uint8_t *out = blvl__alloc(a, (size_t)size * size * 4);
    if (!out)
        return NULL;
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            size_t sx = (size_t)x * w / size, sy = (size_t)y * h / size;
            memcpy(out + ((size_t)y * size + x) * 4, px + (sy * w + sx) * 4, 4);
        }
    return out;
}

blvl_status blvl__import_q3_mat_sky(q3_materials *m, const blvl_q3_shader *sh) {
    static const char *const faces[6] = {"rt", "lf", "up", "dn", "ft", "bk"};
    q3_ctx *c = m->c;
    const blvl_allocator *a = &c->opt->allocator;
    if (m->sky_done || !sh->has_sky || !sh->sky_farbox || !c->o->fs)
        return BLVL_OK;
    m->sky_done = true;
    uint8_t *px[6] = {0};
    uint32_t w[6] = {0}, h[6] = {0}, size = 0;
    bool ok = true;
    blvl_status st = BLVL_OK;
    for (int i = 0; i < 6 && st == BLVL_OK; i++) {
        char name[Q3I_MAX_NAME + 8], found[Q3I_MAX_NAME + 8];
        int n = snprintf(name, sizeof name, "%s_%s.tga", sh->sky_farbox, faces[i]);
        if (n < 0 || (size_t)n > Q3I_MAX_NAME ||
            !blvl__import_q3_img_find(c->o->fs, name, found, sizeof found)) {
            c->report->missing_images++;
            ok = false;
            continue;
        }
        st = blvl__import_q3_mat_pixels(m, name, &px[i], &w[i], &h[i]);
        if (st == BLVL_OK && !px[i]) { /* found but does not decode */
            c->report->bad_images++;
            ok = false;
        }
        if (px[i]) {
            size = w[i] > size ? w[i] : size;
            size = h[i] > size ? h[i] : size;
        }
    }
    if (st == BLVL_OK && ok && (uint64_t)size * size * 6 > Q3I_MAX_PIXELS) {
        c->report->bad_images++; /* six faces past the pixel limit together */
        ok = false;
    }
    if (st == BLVL_OK && ok) {
        size_t face = (size_t)size * size * 4;
        uint8_t *all = blvl__alloc(a, face * 6);
        for (int i = 0; all && i < 6; i++) {
            if (w[i] == size && h[i] == size) {
                memcpy(all + face * i, px[i], face);
                continue;
            }
            uint8_t *f = fit(a, px[i], w[i], h[i], size);
            if (!f) {
                blvl__dealloc(a, all, face * 6);
                all = NULL;
                break;
            }
            memcpy(all + face * i, f, face);
            blvl__dealloc(a, f, face);
        }
        if (!all) {
            st = blvl__nomem(c->err, "the bake's scratch memory");
        } else {
            st = blvl_bake_set_sky(c->b, sh->sky_farbox, size, all, c->err);
            blvl__dealloc(a, all, face * 6);
        }
    }
    for (int i = 0; i < 6; i++)
        if (px[i])
            blvl__dealloc(a, px[i], (size_t)w[i] * h[i] * 4);
    return st;
}

void blvl__import_q3_mat_sun(q3_materials *m, const blvl_q3_shader *sh) {
    if (m->sun_done || !sh->has_sun)
        return;
    m->sun_done = true;
    /* q3map2's reading: degrees turn from +X toward +Y, elevation lifts toward +Z; the
     * vector points from the level toward the sun. */
    const double rad = 3.14159265358979323846 / 180.0;
    double az = sh->sun_degrees * rad, el = sh->sun_elevation * rad;
    float q[3] = {(float)(cos(az) * cos(el)), (float)(sin(az) * cos(el)), (float)sin(el)};
    float mx = fmaxf(sh->sun_color[0], fmaxf(sh->sun_color[1], sh->sun_color[2]));
    blvl_Vec3 color = {1, 1, 1};
    if (mx > 0) { /* q3map2 normalises the colour; the intensity carries the strength */
        color.x = sh->sun_color[0] / mx;
        color.y = sh->sun_color[1] / mx;
        color.z = sh->sun_color[2] / mx;
    }
    blvl_bake_set_sun(m->c->b, q3_axes(q), color, sh->sun_intensity);
}
