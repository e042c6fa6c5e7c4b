/* lighting (docs/IMPORT-HMAP.md, "Lighting"): the ambient of META (else CMPL's); the lights of
 * CMPL's table when it holds any, else of the light, light_spot and light_sun entities. CMPL
 * stores a sun as the direction its light travels; lighting wants the direction toward the
 * sun, so the bake negates it. The first sun is the profile's sun; later ones are dropped. */
#include <math.h>
#include <stdio.h>

#include "bake_internal.h"
#include "blvl/sections/bsym.h"
#include "blvl/sections/lighting.h"
#include "blvl/sections/sim.h"
#include "common/error.h"

#define HB_LIGHT_RADIUS 300.0f /* qu, Quake's default light reach */
#define HB_SPOT_INNER 30.0f    /* degrees, half-angle */
#define HB_SPOT_OUTER 45.0f

static blvl_status bad_light(hmap_bake *c, uint32_t i, const char *problem) {
    char field[48];
    snprintf(field, sizeof field, "light[%u].dir", i);
    return blvl__fail_source(c->err, "CMPL", field,
                             blvl__import_hmap_bake_off_cmpl_light(c->map, i) + 13, "light", "%s",
                             problem);
}

static blvl_status cmpl_lights(hmap_bake *c, bool *sun) {
    const blvl_hmap_compiled *cm = c->map->compiled;
    for (uint32_t i = 0; i < cm->light_count; i++) {
        const blvl_hmap_light *l = &cm->lights[i];
        bool ok;
        blvl_Vec3 dir = blvl__import_hmap_bake_normalize(l->dir, &ok);
        if (!blvl__import_hmap_bake_finite3(l->pos) || !blvl__import_hmap_bake_finite3(l->color) ||
            !isfinite(l->intensity) || !isfinite(l->radius) || !isfinite(l->inner_deg) ||
            !isfinite(l->outer_deg))
            return bad_light(c, i, "a number is not finite");
        if (l->type == 2) {
            if (!ok)
                return bad_light(c, i, "a sun's direction is zero");
            if (!*sun)
                blvl_bake_set_sun(c->b, (blvl_Vec3){-dir.x, -dir.y, -dir.z}, l->color,
                                  l->intensity);
            *sun = true;
            continue;
        }
        if (l->type != 0 && l->type != 1)
            continue; /* an unknown light type: nothing to draw it as */
        if (!blvl__import_hmap_bake_finite3(blvl__import_hmap_bake_point(c, l->pos)) ||
            !isfinite(l->radius * c->s))
            return bad_light(c, i, "the position or radius is too large once converted to qu");
        if (l->type == 1 && !ok)
            return bad_light(c, i, "a spot light's direction is zero");
        blvl_bake_light bl = {0};
        bl.kind = l->type == 1 ? blvl_PunctualKind_Spot : blvl_PunctualKind_Point;
        bl.position = blvl__import_hmap_bake_point(c, l->pos);
        bl.direction = l->type == 1 ? dir : (blvl_Vec3){0, 0, 0};
        bl.color = l->color;
        bl.intensity = l->intensity;
        bl.range = (float)(l->radius * c->s);
        bl.inner_cone = l->type == 1 ? l->inner_deg : 0;
        bl.outer_cone = l->type == 1 ? l->outer_deg : 0;
        bl.baked_diffuse = cm->baked != 0;
        blvl_status st = blvl_bake_add_light(c->b, &bl, c->err);
        if (st != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

static blvl_status entity_lights(hmap_bake *c, bool *sun) {
    blvl_status st;
    for (uint32_t e = 0; e < c->map->entity_count; e++) {
        hb_class k = c->cls[e];
        if (k != HB_LIGHT && k != HB_LIGHT_SPOT && k != HB_LIGHT_SUN)
            continue;
        const blvl_hmap_entity *ent = &c->map->entities[e];
        blvl_Vec3 color;
        float intensity, radius, inner, outer;
        bool has_radius;
        if ((st = blvl__import_hmap_bake_key_vec3(c, e, "color", (blvl_Vec3){1, 1, 1}, &color,
                                                  NULL)) != BLVL_OK ||
            (st = blvl__import_hmap_bake_key_float(c, e, "intensity", 1, &intensity, NULL)) !=
                BLVL_OK ||
            (st = blvl__import_hmap_bake_key_float(c, e, "radius", 0, &radius, &has_radius)) !=
                BLVL_OK ||
            (st = blvl__import_hmap_bake_key_float(c, e, "inner", HB_SPOT_INNER, &inner, NULL)) !=
                BLVL_OK ||
            (st = blvl__import_hmap_bake_key_float(c, e, "outer", HB_SPOT_OUTER, &outer, NULL)) !=
                BLVL_OK)
            return st;
        /* the entity points where its light goes (its forward, -Z turned by its angles) */
        blvl_Vec3 f = blvl__import_hmap_bake_forward(ent->angles);
        if (k == HB_LIGHT_SUN) {
            if (!*sun)
                blvl_bake_set_sun(c->b, (blvl_Vec3){-f.x, -f.y, -f.z}, color, intensity);
            *sun = true;
            continue;
        }
        blvl_bake_light bl = {0};
        bl.kind = k == HB_LIGHT_SPOT ? blvl_PunctualKind_Spot : blvl_PunctualKind_Point;
        bl.position = blvl__import_hmap_bake_point(c, ent->origin);
        bl.direction = k == HB_LIGHT_SPOT ? f : (blvl_Vec3){0, 0, 0};
        bl.color = color;
        bl.intensity = intensity;
        bl.range = has_radius ? (float)(radius * c->s) : HB_LIGHT_RADIUS;
        if (!isfinite(bl.range))
            return blvl__fail_source(c->err, "ENTS", "light radius",
                                     blvl__import_hmap_bake_off_entity(c->map, e), "entity-key",
                                     "the radius is too large once converted to qu");
        bl.inner_cone = k == HB_LIGHT_SPOT ? inner : 0;
        bl.outer_cone = k == HB_LIGHT_SPOT ? outer : 0;
        if ((st = blvl_bake_add_light(c->b, &bl, c->err)) != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

blvl_status blvl__import_hmap_bake_lighting(hmap_bake *c) {
    const blvl_hmap *m = c->map;
    blvl_Vec3 ambient = m->meta ? m->meta->ambient : m->compiled->ambient;
    if (blvl__import_hmap_bake_finite3(ambient))
        blvl_bake_set_ambient(c->b, ambient);
    bool sun = false;
    if (m->compiled && m->compiled->light_count > 0)
        return cmpl_lights(c, &sun);
    return entity_lights(c, &sun);
}
