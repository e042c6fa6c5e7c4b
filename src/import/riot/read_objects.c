/* Record 0x0020: u16 object count, then the objects. Links are indices in this record's object
 * table and must name one of its objects; the scale is there only with flag 0x100; the
 * parameter data is data_size dwords, then exactly parameter_count u16 indices, then
 * parameter_count definitions (u32 type, string). */
#include "common/alloc.h"
#include "import/riot/riot_internal.h"

static blvl_status position(blvl__cursor *c, float v[3], const char *x, const char *y,
                            const char *z) {
    blvl_status st = blvl__cursor_f32(c, x, &v[0]);
    if (!st)
        st = blvl__cursor_f32(c, y, &v[1]);
    if (!st)
        st = blvl__cursor_f32(c, z, &v[2]);
    return st;
}

static blvl_status params(blvl__cursor *c, blvl_riot_object *o) {
    uint64_t at = c->pos;
    blvl_status st = blvl__cursor_u32(c, "dataSize", &o->data_size);
    if (!st)
        st = blvl__cursor_u32(c, "paramCount", &o->param_count);
    if (st)
        return st;
    /* the data, the indices and the smallest definitions, all before allocating any */
    uint64_t need = (uint64_t)o->data_size * 4 + (uint64_t)o->param_count * (2 + RT_PARAM_DEF_MIN);
    if (need > blvl__cursor_left(c))
        return blvl__cursor_fail(
            c, "dataSize", at, "count-size",
            "%u dwords and %u parameters need at least %llu bytes, %llu are left "
            "in the record",
            o->data_size, o->param_count, (unsigned long long)need,
            (unsigned long long)blvl__cursor_left(c));
    RT_ARRAY(c, "dataSize", at, o->data_size, 4, o->param_data);
    for (uint32_t k = 0; k < o->data_size; k++)
        (void)blvl__cursor_u32(c, NULL, &o->param_data[k]);
    RT_ARRAY(c, "paramCount", at + 4, o->param_count, 2, o->param_indices);
    for (uint32_t k = 0; k < o->param_count; k++)
        (void)blvl__cursor_u16(c, NULL, &o->param_indices[k]);
    RT_ARRAY(c, "paramCount", at + 4, o->param_count, RT_PARAM_DEF_MIN, o->param_defs);
    for (uint32_t k = 0; k < o->param_count; k++) {
        blvl__cursor_enter(c, "paramDef", k);
        st = blvl__cursor_u32(c, "type", &o->param_defs[k].type);
        if (!st)
            st = blvl__import_riot_str(c, "name", &o->param_defs[k].name);
        if (st)
            return st;
        blvl__cursor_leave(c);
    }
    return BLVL_OK;
}

static blvl_status object(blvl__cursor *c, blvl_riot_object *o, uint16_t count) {
    blvl_status st = blvl__cursor_u32(c, "id", &o->id);
    if (!st)
        st = blvl__cursor_u16(c, "classId", &o->class_id);
    if (!st)
        st = blvl__cursor_u16(c, "classDb", &o->class_db);
    if (!st)
        st = blvl__cursor_u32(c, "lightingLayer", &o->lighting_layer);
    if (!st)
        st = position(c, o->position, "x", "y", "z");
    if (!st)
        st = blvl__cursor_u32(c, "flags", &o->flags);
    if (!st)
        st = blvl__cursor_u16(c, "initialEventCount", &o->initial_event_count);
    uint64_t at = c->pos;
    if (!st)
        st = blvl__cursor_u16(c, "linkCount", &o->link_count);
    if (st)
        return st;
    RT_ARRAY(c, "linkCount", at, o->link_count, 2, o->links);
    for (uint32_t k = 0; k < o->link_count; k++) {
        uint64_t p = c->pos;
        (void)blvl__cursor_u16(c, NULL, &o->links[k]); /* known to fit */
        if (o->links[k] >= count) {
            blvl__cursor_enter(c, "link", k);
            return blvl__cursor_fail(c, NULL, p, "link-range",
                                     "object index %u is past the record's %u objects", o->links[k],
                                     count);
        }
    }
    for (int k = 0; !st && k < 3; k++)
        st = blvl__cursor_u16(c,
                              k == 0   ? "rotationX"
                              : k == 1 ? "rotationY"
                                       : "rotationZ",
                              &o->rotation[k]);
    if (st)
        return st;
    if (o->flags & BLVL_RIOT_SCALED)
        st = position(c, o->scale, "scaleX", "scaleY", "scaleZ");
    else
        o->scale[0] = o->scale[1] = o->scale[2] = 1.0f;
    return st ? st : params(c, o);
}

blvl_status blvl__import_riot_parse_objects(blvl__cursor *c, blvl_riot_level *level) {
    uint16_t n;
    blvl_status st = blvl__cursor_u16(c, "objectCount", &n);
    if (st)
        return st;
    RT_ARRAY(c, "objectCount", 0, n, RT_OBJECT_MIN, level->objects);
    level->object_count = n;
    for (uint32_t i = 0; i < n; i++) {
        blvl__cursor_enter(c, "object", i);
        st = object(c, &level->objects[i], n);
        if (st)
            return st;
        blvl__cursor_leave(c);
    }
    return blvl__cursor_end(c);
}
