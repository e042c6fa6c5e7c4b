/* Planes colliders: used as stored (axial planes and bevels included by the writer). Each plane
 * is checked, a normal off unit length by more than 1e-3 brought to unit length (every other
 * plane is kept bit for bit), and an axis with no (exactly) axial plane gets one
 * from the stored bounds, so the solid is never larger than the box it is culled by. */
#include <math.h>
#include <stdio.h>

#include "trace/trace_planes.h"

blvl_status blvl__trace_use_planes(const blvl_allocator *al, const blvl_trace_collider_desc *c,
                                   geom_vec *planes, float lo[3], float hi[3], int *usable,
                                   tw_report_fn report, void *ru) {
    *usable = 0;
    if (c->plane_count == 0 || !c->planes) {
        report(ru, BLVL_TRACE_NONE, "Planes collider has no planes");
        return BLVL_OK;
    }
    if (c->plane_count > BLVL_TRACE_MAX_PLANES) {
        report(ru, BLVL_TRACE_NONE, "Planes collider over the plane limit");
        return BLVL_OK;
    }
    size_t first = planes->len;
    /* room for every stored plane and the six axial planes it may lack: written in place */
    if (!blvl__geom_vec_reserve(al, planes, first + c->plane_count + 6))
        return BLVL_E_NOMEM;
    blvl_Plane *out = planes->data;
    double blo[3] = {-INFINITY, -INFINITY, -INFINITY}, bhi[3] = {INFINITY, INFINITY, INFINITY};
    for (uint32_t i = 0; i < c->plane_count; i++) {
        const blvl_Plane *p = &c->planes[i];
        double n[3] = {p->normal.x, p->normal.y, p->normal.z}, d = p->dist;
        if (!isfinite(n[0]) || !isfinite(n[1]) || !isfinite(n[2]) || !isfinite(d) ||
            fabs(d) > TW_COORD_MAX) {
            report(ru, i, "plane not finite or out of range");
            continue;
        }
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (l < 1e-6) {
            report(ru, i, "plane normal has zero length");
            continue;
        }
        /* Used as stored, bit for bit: renormalising a plane the writer already made unit moves
         * its distance (by up to 1e-3 unit on real maps) and the solid with it. */
        blvl_Plane q = *p;
        if (fabs(l - 1) > 1e-3) {
            report(ru, i, "plane normal not unit length (normalized)");
            for (int k = 0; k < 3; k++)
                n[k] /= l;
            d /= l;
            q = (blvl_Plane){{(float)n[0], (float)n[1], (float)n[2]}, (float)d};
        }
        /* Only an exactly axial plane bounds the solid along its axis: a nearly axial one
         * lets the solid reach past its distance far from the axis, and culling bounds must
         * never be smaller than the solid. */
        for (int k = 0; k < 3; k++) {
            if (n[(k + 1) % 3] == 0 && n[(k + 2) % 3] == 0) {
                /* n_k x <= d: a stored normal a little off unit length moves the bound to d/n_k */
                double b = d / n[k];
                if (n[k] > 0 && b < bhi[k])
                    bhi[k] = b;
                if (n[k] < 0 && b > blo[k])
                    blo[k] = b;
            }
        }
        out[planes->len++] = q;
    }
    const float slo[3] = {c->lo.x, c->lo.y, c->lo.z}, shi[3] = {c->hi.x, c->hi.y, c->hi.z};
    for (int k = 0; k < 3; k++) {
        for (int s = 0; s < 2; s++) {
            double *b = s ? &bhi[k] : &blo[k];
            if (isfinite(*b))
                continue;
            float v = s ? shi[k] : slo[k];
            if (!isfinite(v) || fabs(v) > TW_COORD_MAX) {
                report(ru, BLVL_TRACE_NONE, "no axial plane and no usable stored bound");
                planes->len = first;
                return BLVL_OK;
            }
            *b = v;
            float nn[3] = {0, 0, 0};
            nn[k] = s ? 1.0f : -1.0f;
            out[planes->len++] = (blvl_Plane){{nn[0], nn[1], nn[2]}, s ? v : -v};
        }
    }
    if (planes->len == first) {
        report(ru, BLVL_TRACE_NONE, "Planes collider has no usable plane");
        return BLVL_OK;
    }
    for (int k = 0; k < 3; k++) {
        lo[k] = (float)blo[k];
        hi[k] = (float)bhi[k];
    }
    *usable = 1;
    return BLVL_OK;
}
