/* The classname table (docs/IMPORT-HMAP.md, "Classnames") and entity keys. The .hmap format
 * names no classname: these are Quake's names, which Rockgrave maps use, and ours for lights. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_internal.h"
#include "common/error.h"

hb_class blvl__import_hmap_bake_classify(const char *n) {
    static const struct {
        const char *name;
        hb_class cls;
    } table[] = {
        {"worldspawn", HB_WORLD},
        {"func_door", HB_DOOR},
        {"trigger_push", HB_PUSH},
        {"trigger_teleport", HB_TELEPORT},
        {"trigger_hurt", HB_HURT},
        {"info_teleport_destination", HB_DEST},
        {"misc_teleporter_dest", HB_DEST},
        {"info_player_intermission", HB_INTERMISSION},
        {"light", HB_LIGHT},
        {"light_spot", HB_LIGHT_SPOT},
        {"light_sun", HB_LIGHT_SUN},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strcmp(n, table[i].name) == 0)
            return table[i].cls;
    if (strncmp(n, "info_player_", 12) == 0)
        return HB_SPAWN;
    if (strncmp(n, "trigger_", 8) == 0)
        return HB_TRIGGER_OTHER;
    return HB_OTHER;
}

const char *blvl__import_hmap_bake_key(const blvl_hmap_entity *e, const char *key, uint32_t *pair) {
    for (uint32_t i = 0; i < e->pair_count; i++)
        if (e->pairs[i].key.bytes && strcmp(e->pairs[i].key.bytes, key) == 0) {
            if (pair)
                *pair = i;
            return e->pairs[i].value.bytes ? e->pairs[i].value.bytes : "";
        }
    return NULL;
}

/* Reads up to `n` finite numbers separated by blanks; returns how many, or -1 for anything
 * else in the string (so "1 2 x" and "1e999" are refused, not half read). */
static int numbers(const char *s, double *out, int n) {
    int k = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == 0)
            return k;
        if (k == n)
            return -1;
        char *end;
        double v = strtod(s, &end);
        if (end == s || !isfinite(v) || fabs(v) > 3.0e38)
            return -1;
        if (*end != 0 && *end != ' ' && *end != '\t')
            return -1;
        out[k++] = v;
        s = end;
    }
}

static blvl_status bad_key(hmap_bake *c, uint32_t entity, uint32_t pair, const char *key,
                           const char *want) {
    char field[96], problem[200];
    snprintf(field, sizeof field, "entity[%u].%s", entity, key);
    snprintf(problem, sizeof problem, "\"%.80s\" is not %s",
             c->map->entities[entity].pairs[pair].value.bytes, want);
    return blvl__fail_source(c->err, "ENTS", field,
                             blvl__import_hmap_bake_off_pair_value(c->map, entity, pair),
                             "entity-key", "%s", problem);
}

blvl_status blvl__import_hmap_bake_key_float(hmap_bake *c, uint32_t entity, const char *key,
                                             float def, float *out, bool *present) {
    uint32_t pair;
    const char *v = blvl__import_hmap_bake_key(&c->map->entities[entity], key, &pair);
    if (present)
        *present = v != NULL;
    *out = def;
    if (!v)
        return BLVL_OK;
    double d;
    if (numbers(v, &d, 1) != 1)
        return bad_key(c, entity, pair, key, "one finite number");
    *out = (float)d;
    return BLVL_OK;
}

blvl_status blvl__import_hmap_bake_key_vec3(hmap_bake *c, uint32_t entity, const char *key,
                                            blvl_Vec3 def, blvl_Vec3 *out, bool *present) {
    uint32_t pair;
    const char *v = blvl__import_hmap_bake_key(&c->map->entities[entity], key, &pair);
    if (present)
        *present = v != NULL;
    *out = def;
    if (!v)
        return BLVL_OK;
    double d[3];
    if (numbers(v, d, 3) != 3)
        return bad_key(c, entity, pair, key, "three finite numbers \"x y z\"");
    out->x = (float)d[0];
    out->y = (float)d[1];
    out->z = (float)d[2];
    return BLVL_OK;
}
