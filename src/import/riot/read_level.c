/* Records 0x0000 (level name, sizes, database references) and 0x0002 (layer groups). */
#include "common/alloc.h"
#include "import/riot/riot_internal.h"

blvl_status blvl__import_riot_parse_level(blvl__cursor *c, blvl_riot_level *level) {
    blvl_status st = blvl__import_riot_str(c, "name", &level->name);
    if (!st)
        st = blvl__cursor_u32(c, "maxWidth", &level->max_width);
    if (!st)
        st = blvl__cursor_u32(c, "maxHeight", &level->max_height);
    uint64_t at = c->pos;
    uint32_t n = 0;
    if (!st)
        st = blvl__cursor_u32(c, "dbRefCount", &n);
    if (st)
        return st;
    RT_ARRAY(c, "dbRefCount", at, n, RT_DBREF_MIN, level->dbrefs);
    level->dbref_count = n;
    for (uint32_t i = 0; i < n; i++) {
        blvl_riot_dbref *d = &level->dbrefs[i];
        blvl__cursor_enter(c, "dbRef", i);
        st = blvl__cursor_u16(c, "index", &d->index);
        if (!st)
            st = blvl__cursor_u16(c, "unknown", &d->unknown);
        if (!st)
            st = blvl__import_riot_str(c, "path", &d->path);
        if (st)
            return st;
        blvl__cursor_leave(c);
    }
    return blvl__cursor_end(c);
}

blvl_status blvl__import_riot_parse_groups(blvl__cursor *c, blvl_riot_level *level) {
    uint32_t n;
    blvl_status st = blvl__cursor_u32(c, "groupCount", &n);
    if (st)
        return st;
    RT_ARRAY(c, "groupCount", 0, n, RT_GROUP_MIN, level->groups);
    level->group_count = n;
    for (uint32_t i = 0; i < n; i++) {
        blvl_riot_group *g = &level->groups[i];
        blvl__cursor_enter(c, "group", i);
        st = blvl__import_riot_str(c, "name", &g->name);
        uint64_t at = c->pos;
        uint32_t count = 0;
        if (!st)
            st = blvl__cursor_u32(c, "layerCount", &count);
        if (st)
            return st;
        RT_ARRAY(c, "layerCount", at, count, 4, g->layers);
        g->layer_count = count;
        for (uint32_t k = 0; k < count; k++)
            (void)blvl__cursor_u32(c, NULL, &g->layers[k]); /* known to fit */
        blvl__cursor_leave(c);
    }
    return blvl__cursor_end(c);
}
