/* A test_trace_shapes.h solid written as a sim Hull table (test_trace_load, test_trace_sim). */
#ifndef TEST_TRACE_SHAPES_FB_H
#define TEST_TRACE_SHAPES_FB_H

#include "blvl/sections_builder.h"
#include "test_trace_shapes.h"

static inline blvl_fb_ref shape_hull_fb(blvl_fb_builder *b, const shape *s) {
    blvl_fb_ref vr = blvl_Hull_vertices_create(b, s->v, (size_t)s->nv);
    blvl_fb_ref sr = blvl_Hull_face_sizes_create(b, s->sizes, (size_t)s->nf);
    blvl_fb_ref ir = blvl_Hull_face_indices_create(b, s->idx, (size_t)s->ni);
    blvl_Hull_start(b);
    blvl_Hull_add_vertices(b, vr);
    blvl_Hull_add_face_sizes(b, sr);
    blvl_Hull_add_face_indices(b, ir);
    return blvl_Hull_end(b);
}
#endif
