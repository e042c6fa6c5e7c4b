/* blvl_probe_render: the visibility buffer, its shading, and the collider wireframe. */
#include <string.h>

#include "probe/probe_internal.h"

blvl_status blvl_probe_render(const blvl_probe *p, const blvl_probe_pose *pose, uint32_t width,
                              uint32_t height, unsigned flags, uint8_t *rgba, blvl_error *err) {
    if (!p || !pose || !rgba)
        return blvl__fail(err, BLVL_E_ARGUMENT, "probe: render: no probe, pose or pixels");
    if (width == 0 || height == 0 || width > BLVL_PROBE_MAX_SIZE || height > BLVL_PROBE_MAX_SIZE)
        return blvl__fail(err, BLVL_E_ARGUMENT, "probe: render: size %ux%u is not 1..%u a side",
                          width, height, BLVL_PROBE_MAX_SIZE);
    probe_view v;
    blvl__probe_view(pose, width, height, &v);
    v.no_textures = (flags & BLVL_PROBE_RENDER_NO_TEXTURES) != 0;
    size_t n = (size_t)width * height;
    probe_vis vis = {width, height, NULL, NULL, NULL, NULL};
    vis.inv_z = blvl__alloc(&p->al, n * sizeof(float));
    vis.tri = blvl__alloc(&p->al, n * sizeof(uint32_t));
    vis.b1 = blvl__alloc(&p->al, n * sizeof(float));
    vis.b2 = blvl__alloc(&p->al, n * sizeof(float));
    blvl_status st = BLVL_OK;
    if (!vis.inv_z || !vis.tri || !vis.b1 || !vis.b2) {
        st = blvl__nomem(err, "probe: render");
    } else {
        blvl__probe_rasterise(p, &v, &vis);
        blvl__probe_shade(p, &v, &vis, rgba);
        if (flags & BLVL_PROBE_RENDER_COLLIDERS)
            st = blvl__probe_wire(p, &v, &vis, rgba, err);
    }
    blvl__dealloc(&p->al, vis.inv_z, n * sizeof(float));
    blvl__dealloc(&p->al, vis.tri, n * sizeof(uint32_t));
    blvl__dealloc(&p->al, vis.b1, n * sizeof(float));
    blvl__dealloc(&p->al, vis.b2, n * sizeof(float));
    return st;
}
