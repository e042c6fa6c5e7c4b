/* Planes colliders (planes.c). */
#ifndef BLVL_TRACE_PLANES_H
#define BLVL_TRACE_PLANES_H
#include "trace/trace_internal.h"

/* Check and append a Planes collider's planes; add axial planes it lacks from its bounds. */
blvl_status blvl__trace_use_planes(const blvl_allocator *al, const blvl_trace_collider_desc *c,
                                   geom_vec *planes, float lo[3], float hi[3], int *usable,
                                   tw_report_fn report, void *ru);
#endif
