/* blvl_probe_new: the trace world from sim, and copies of geometry, spawns and cameras, every
 * index checked once here so the look and the renderer never check again. */
#include <math.h>
#include <string.h>

#include "probe/probe_internal.h"

static void *alloc_n(blvl_probe *p, size_t n, size_t elem) {
    return blvl__calloc_n(&p->al, n ? n : 1, elem);
}

static void grow(float lo[3], float hi[3], const float q[3]) {
    for (int k = 0; k < 3; k++) {
        if (q[k] < lo[k])
            lo[k] = q[k];
        if (q[k] > hi[k])
            hi[k] = q[k];
    }
}

static blvl_status load_geometry(blvl_probe *p, blvl_level *level, blvl_error *err) {
    blvl_Geometry g;
    blvl_status st = blvl_level_geometry(level, &p->geometry_bytes, &g, err);
    if (st == BLVL_E_NOT_FOUND)
        return BLVL_OK; /* nothing to draw */
    if (st != BLVL_OK)
        return st;
    p->vertex_count = blvl_Geometry_vertices_len(g);
    p->tri_count = blvl_Geometry_indices_len(g) / 3;
    p->batch_count = blvl_Geometry_batches_len(g);
    p->material_count = blvl_Geometry_materials_len(g);
    p->vertices = alloc_n(p, p->vertex_count, sizeof *p->vertices);
    p->indices = alloc_n(p, (size_t)p->tri_count * 3, sizeof *p->indices);
    p->tri_batch = alloc_n(p, p->tri_count, sizeof *p->tri_batch);
    p->batches = alloc_n(p, p->batch_count, sizeof *p->batches);
    p->materials = alloc_n(p, p->material_count, sizeof *p->materials);
    if (!p->vertices || !p->indices || !p->tri_batch || !p->batches || !p->materials)
        return blvl__nomem(err, "probe: the geometry");
    blvl_Geometry_vertices_copy(g, 0, p->vertices, p->vertex_count);
    blvl_Geometry_indices_copy(g, 0, p->indices, (size_t)p->tri_count * 3);
    for (uint32_t t = 0; t < p->tri_count; t++) {
        uint32_t *ix = &p->indices[3 * t];
        p->tri_batch[t] = BLVL_TRACE_NONE;
        if (ix[0] >= p->vertex_count || ix[1] >= p->vertex_count || ix[2] >= p->vertex_count)
            ix[0] = ix[1] = ix[2] = 0; /* degenerate: never drawn, never hit */
    }
    for (uint32_t m = 0; m < p->material_count; m++) {
        blvl_Material mt = blvl_Geometry_materials_at(g, m);
        probe_material *x = &p->materials[m];
        x->name = blvl_Material_name(mt).ptr;
        x->texture = blvl_Material_texture(mt);
        x->blend = (uint8_t)blvl_Material_blend(mt);
        x->alpha_test = (uint8_t)blvl_Material_alpha_test(mt);
        x->alpha_ref = blvl_Material_alpha_ref(mt);
        x->sky = blvl_Material_sky(mt);
        x->two_sided = blvl_Material_two_sided(mt);
        x->lightmapped = !blvl_Material_shading_present(mt) ||
                         blvl_Shading_lightmapped(blvl_Material_shading(mt));
    }
    for (uint32_t b = 0; b < p->batch_count; b++) {
        blvl_Batch bt = blvl_Geometry_batches_at(g, b);
        probe_batch *x = &p->batches[b];
        uint64_t first = blvl_Batch_first_index(bt) / 3, n = blvl_Batch_index_count(bt) / 3;
        if (first > p->tri_count)
            first = p->tri_count;
        if (n > p->tri_count - first)
            n = p->tri_count - first; /* a range past indices draws what exists */
        x->first_tri = (uint32_t)first;
        x->tri_count = (uint32_t)n;
        x->material = blvl_Batch_material(bt);
        if (x->material >= p->material_count)
            x->material = BLVL_TRACE_NONE;
        x->lightmap_layer = blvl_Batch_lightmap_layer(bt);
        for (uint32_t t = 0; t < n; t++)
            p->tri_batch[first + t] = b;
    }
    for (uint32_t t = 0; t < p->tri_count; t++) {
        if (p->tri_batch[t] == BLVL_TRACE_NONE)
            continue;
        for (int k = 0; k < 3; k++) {
            const blvl_Vec3 *q = &p->vertices[p->indices[3 * t + k]].position;
            float f[3] = {q->x, q->y, q->z};
            if (isfinite(f[0]) && isfinite(f[1]) && isfinite(f[2]))
                grow(p->lo, p->hi, f);
        }
    }
    return BLVL_OK;
}

static blvl_status load_sim(blvl_probe *p, blvl_level *level, blvl_error *err) {
    blvl_Sim sim;
    blvl_status st = blvl_level_sim(level, &p->sim_bytes, &sim, err);
    if (st != BLVL_OK)
        return st;
    p->spawn_count = blvl_Sim_spawns_len(sim);
    p->spawns = alloc_n(p, p->spawn_count, sizeof *p->spawns);
    p->collider_count = blvl_Sim_colliders_len(sim);
    p->collider_flags = alloc_n(p, p->collider_count, sizeof *p->collider_flags);
    if (!p->spawns || !p->collider_flags)
        return blvl__nomem(err, "probe: the spawns and colliders");
    for (uint32_t i = 0; i < p->collider_count; i++)
        p->collider_flags[i] = blvl_Collider_flags(blvl_Sim_colliders_at(sim, i));
    for (uint32_t i = 0; i < p->spawn_count; i++) {
        blvl_Spawn s = blvl_Sim_spawns_at(sim, i);
        blvl_Vec3 q = blvl_Spawn_position(s);
        p->spawns[i] = (probe_spawn){{q.x, q.y, q.z}, blvl_Spawn_yaw(s), blvl_Spawn_kind(s).ptr};
    }
    return BLVL_OK;
}

blvl_status blvl__probe_degraded(blvl_probe *p, const char *section, blvl_status st,
                                 const blvl_error *e, blvl_error *err) {
    if (st == BLVL_E_NOMEM) {
        if (err)
            *err = *e;
        return st;
    }
    for (uint32_t i = 0; i < p->damaged_count; i++)
        if (strcmp(p->damaged[i].section, section) == 0)
            return BLVL_OK;
    if (p->damaged_count < sizeof p->damaged / sizeof *p->damaged) {
        p->damaged[p->damaged_count].section = section;
        p->damaged[p->damaged_count].error = *e;
        p->damaged_count++;
    }
    return BLVL_OK;
}

const blvl_probe_damage *blvl_probe_damaged(const blvl_probe *p, uint32_t *count) {
    if (count)
        *count = p ? p->damaged_count : 0;
    return p && p->damaged_count ? p->damaged : NULL;
}

static blvl_status load_cameras(blvl_probe *p, blvl_level *level, blvl_error *err) {
    blvl_Cameras c;
    blvl_error e;
    blvl_status st = blvl_level_cameras(level, &p->cameras_bytes, &c, &e);
    if (st == BLVL_E_NOT_FOUND)
        return BLVL_OK;
    if (st != BLVL_OK) { /* degraded: a --pose needs no camera; blvl_probe_camera says why */
        p->cameras_damaged = st != BLVL_E_NOMEM;
        return blvl__probe_degraded(p, "cameras", st, &e, err);
    }
    p->camera_count = blvl_Cameras_cameras_len(c);
    p->cameras = alloc_n(p, p->camera_count, sizeof *p->cameras);
    if (!p->cameras)
        return blvl__nomem(err, "probe: the cameras");
    for (uint32_t i = 0; i < p->camera_count; i++) {
        blvl_Camera cam = blvl_Cameras_cameras_at(c, i);
        blvl_Vec3 q = blvl_Camera_pos(cam);
        probe_camera *x = &p->cameras[i];
        x->name = blvl_Camera_name_present(cam) ? blvl_Camera_name(cam).ptr : NULL;
        x->purpose = (uint32_t)blvl_Camera_purpose(cam);
        x->pose = (blvl_probe_pose){{q.x, q.y, q.z},
                                    blvl_Camera_yaw(cam),
                                    blvl_Camera_pitch(cam),
                                    blvl_Camera_roll(cam),
                                    blvl_Camera_fov_x(cam)};
    }
    return BLVL_OK;
}

/* The colliders' bounds when the level draws nothing. */
static void collider_bounds(blvl_probe *p) {
    uint32_t n = blvl_trace_world_collider_count(p->world);
    for (uint32_t i = 0; i < n; i++) {
        float lo[3], hi[3];
        if (blvl_trace_world_bounds(p->world, i, lo, hi) && isfinite(lo[0] + lo[1] + lo[2]) &&
            isfinite(hi[0] + hi[1] + hi[2])) {
            grow(p->lo, p->hi, lo);
            grow(p->lo, p->hi, hi);
        }
    }
}

blvl_status blvl_probe_new(blvl_probe **out, blvl_level *level, const blvl_options *opt,
                           blvl_error *err) {
    if (!out || !level)
        return blvl__fail(err, BLVL_E_ARGUMENT, "probe: no level");
    *out = NULL;
    blvl_allocator al = {0};
    if (opt)
        al = opt->allocator;
    blvl_probe *p = blvl__calloc(&al, sizeof *p);
    if (!p)
        return blvl__nomem(err, "probe: the probe");
    p->al = al;
    p->level = level;
    if (opt)
        p->opt = *opt;
    for (int k = 0; k < 3; k++) {
        p->lo[k] = INFINITY;
        p->hi[k] = -INFINITY;
    }
    blvl_status st =
        blvl_trace_world_from_level(&p->world, level, &(blvl_trace_options){.base = p->opt}, err);
    if (st == BLVL_OK)
        st = load_sim(p, level, err);
    if (st == BLVL_OK)
        st = load_geometry(p, level, err);
    if (st == BLVL_OK)
        st = load_cameras(p, level, err);
    if (st != BLVL_OK) {
        blvl_probe_free(p);
        return st;
    }
    if (p->lo[0] > p->hi[0])
        collider_bounds(p);
    *out = p;
    return BLVL_OK;
}

void blvl_probe_free(blvl_probe *p) {
    if (!p)
        return;
    blvl_allocator al = p->al;
    blvl__probe_free_pictures(p);
    blvl_trace_world_free(p->world);
    blvl_bytes_free(&p->geometry_bytes);
    blvl_bytes_free(&p->sim_bytes);
    blvl_bytes_free(&p->cameras_bytes);
    size_t nt = p->tri_count ? p->tri_count : 1;
    blvl__dealloc(&al, p->vertices, (p->vertex_count ? p->vertex_count : 1) * sizeof *p->vertices);
    blvl__dealloc(&al, p->indices, nt * 3 * sizeof *p->indices);
    blvl__dealloc(&al, p->tri_batch, nt * sizeof *p->tri_batch);
    blvl__dealloc(&al, p->batches, (p->batch_count ? p->batch_count : 1) * sizeof *p->batches);
    blvl__dealloc(&al, p->materials,
                  (p->material_count ? p->material_count : 1) * sizeof *p->materials);
    blvl__dealloc(&al, p->spawns, (p->spawn_count ? p->spawn_count : 1) * sizeof *p->spawns);
    blvl__dealloc(&al, p->collider_flags,
                  (p->collider_count ? p->collider_count : 1) * sizeof *p->collider_flags);
    blvl__dealloc(&al, p->cameras, (p->camera_count ? p->camera_count : 1) * sizeof *p->cameras);
    blvl__dealloc(&al, p, sizeof *p);
}

const blvl_trace_world *blvl_probe_world(const blvl_probe *p) {
    return p ? p->world : NULL;
}

const char *blvl_probe_material_name(const blvl_probe *p, uint32_t material) {
    if (!p || material >= p->material_count || !p->materials[material].name)
        return "";
    return p->materials[material].name;
}

const char *blvl_probe_spawn_kind(const blvl_probe *p, uint32_t spawn) {
    if (!p || spawn >= p->spawn_count || !p->spawns[spawn].kind)
        return "";
    return p->spawns[spawn].kind;
}
