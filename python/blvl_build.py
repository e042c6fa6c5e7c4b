"""The cffi builder of blvl's Python binding (API mode, out of line: a compiled extension).

The declarations below are checked by the C compiler against include/blvl/*.h: every struct is
declared with `...;`, so cffi takes its layout from the real header, not from this file. Two
callers use this file:

  - the CMake build (target blvl_python, `make`): `python3 blvl_build.py --emit OUT.c` writes
    the extension's C source, which CMake compiles and links against build/'s shared libraries;
  - pip (setup.py's cffi_modules): `ffibuilder` compiles the same source, against the tree's
    build (BLVL_BUILD_DIR, or ../build when it holds libblvl.so) or the system's installed
    libblvl (pkg-config blvl-tools blvl-http).
"""
import os
import subprocess
import sys

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))

CDEF = r"""
typedef int... blvl_status;
typedef struct { blvl_status code; char message[256]; ...; } blvl_error;
typedef struct { ...; } blvl_allocator;
typedef void (*blvl_progress_fn)(void *user, uint64_t done, uint64_t total);
typedef struct {
    unsigned threads;
    blvl_progress_fn progress;
    void *progress_user;
    ...;
} blvl_options;
typedef struct blvl_level blvl_level;
typedef struct {
    char tag[17];
    uint64_t offset;
    uint64_t packed_size;
    uint64_t raw_size;
    uint32_t version;
    uint32_t flags;
    uint8_t digest[16];
    ...;
} blvl_entry;
typedef struct {
    uint64_t file_size;
    uint64_t floor;
    uint64_t table_offset;
    uint32_t count;
    uint32_t capacity;
    uint64_t covered;
    uint64_t unreferenced;
    uint8_t identity[16];
    uint8_t table_digest[16];
    ...;
} blvl_info;
typedef struct { const uint8_t *data; size_t size; ...; } blvl_bytes;
typedef struct {
    const char *tag;
    uint32_t version;
    uint32_t flags;
    const void *data;
    size_t size;
    ...;
} blvl_section_in;

#define BLVL_ENTRY_FLAG_IDENTITY ...

const char *blvl_status_name(blvl_status code);
void blvl_free(const blvl_options *opt, void *ptr);
const char *blvl_version_string(void);
void blvl_hex(const uint8_t digest[16], char out[33]);

blvl_status blvl_open_file(blvl_level **out, const char *path, const blvl_options *opt,
                           blvl_error *err);
void blvl_close(blvl_level *level);
void blvl_get_info(const blvl_level *level, blvl_info *out);
uint32_t blvl_count(const blvl_level *level);
const blvl_entry *blvl_entry_at(const blvl_level *level, uint32_t index);
const blvl_entry *blvl_find(const blvl_level *level, const char *tag);
blvl_status blvl_read(blvl_level *level, const char *tag, blvl_bytes *out, blvl_error *err);
void blvl_bytes_free(blvl_bytes *bytes);
blvl_status blvl_verify(blvl_level *level, blvl_error *err);
bool blvl_tag_valid(const char *tag, bool *core);
blvl_status blvl_write_file(const char *path, const blvl_section_in *sections, size_t count,
                            const blvl_options *opt, blvl_error *err);
blvl_status blvl_edit_put(const char *path, const char *tag, uint32_t version, const void *data,
                          size_t size, const blvl_options *opt, blvl_error *err);
blvl_status blvl_edit_drop(const char *path, const char *tag, const blvl_options *opt,
                           blvl_error *err);

/* sections */
typedef struct blvl_fb_type blvl_fb_type;
const blvl_fb_type *blvl_schema_type(const char *name);
const blvl_fb_type *blvl_section_type(const char *tag, bool *required);
const char *blvl_core_tag_at(unsigned index);
blvl_status blvl_sections_check(const blvl_section_in *sections, size_t count,
                                const blvl_options *opt, blvl_error *err);
blvl_status blvl_level_section(blvl_level *level, const char *tag, blvl_bytes *out,
                               const uint8_t **root, blvl_error *err);
blvl_status blvl_sections_verify(blvl_level *level, blvl_error *err);
blvl_status blvl_section_to_json(char **text, size_t *len, const char *tag, const void *bytes,
                                 size_t size, unsigned indent, const blvl_options *opt,
                                 blvl_error *err);
blvl_status blvl_section_from_json(void **data, size_t *size, const char *tag, const char *json,
                                   size_t json_len, const blvl_options *opt, blvl_error *err);

/* http */
typedef struct {
    blvl_options base;
    const char *cache_dir;
    ...;
} blvl_http_options;
blvl_status blvl_open_url(blvl_level **out, const char *url, const blvl_http_options *opt,
                          blvl_error *err);
bool blvl_is_url(const char *path);

/* trace */
typedef struct { float x, y, z; } blvl_Vec3;
typedef struct { blvl_Vec3 normal; float dist; } blvl_Plane;
typedef struct blvl_trace_world blvl_trace_world;
typedef struct blvl_trace_doors blvl_trace_doors;
typedef struct { blvl_options base; ...; } blvl_trace_options;
typedef int... blvl_trace_mover;
typedef struct {
    blvl_trace_mover mover;
    uint32_t include, exclude;
    uint32_t gametypes;
    ...;
} blvl_trace_filter;
typedef struct {
    float fraction;
    float endpos[3];
    blvl_Plane plane;
    bool startsolid;
    bool allsolid;
    uint32_t collider;
    uint32_t flags;
    uint32_t material;
    ...;
} blvl_trace_result;
#define BLVL_TRACE_NONE ...
#define BLVL_TRACE_AS_PLAYER ...
#define BLVL_TRACE_AS_SHOT ...
#define BLVL_TRACE_AS_CUSTOM ...
blvl_status blvl_trace_world_from_level(blvl_trace_world **out, blvl_level *level,
                                        const blvl_trace_options *opt, blvl_error *err);
void blvl_trace_world_free(blvl_trace_world *world);
uint32_t blvl_trace_world_collider_count(const blvl_trace_world *world);
void blvl_trace_box(const blvl_trace_world *world, const blvl_trace_filter *filter,
                    const float start[3], const float end[3], const float mins[3],
                    const float maxs[3], blvl_trace_result *out);
blvl_status blvl_trace_box_many(const blvl_trace_world *world, const blvl_trace_filter *filter,
                                const float *starts, const float *ends, size_t count,
                                const float mins[3], const float maxs[3], blvl_trace_result *out,
                                const blvl_options *opt, blvl_error *err);
uint32_t blvl_trace_point_contents(const blvl_trace_world *world, const blvl_trace_filter *filter,
                                   const float point[3], uint32_t *flags, uint32_t *collider);

/* bake (the import front door) */
typedef int... blvl_import_format;
typedef struct {
    blvl_options base;
    blvl_import_format from;
    const char *const *pk3;
    size_t pk3_count;
    const char *map;
    ...;
} blvl_import_options;
typedef struct { blvl_import_format format; char where[4096]; ...; } blvl_import_report;
blvl_status blvl_import_bake_file(blvl_import_report *report, const char *input,
                                  const char *level_path, const char *symbols_path,
                                  const blvl_import_options *opt, blvl_error *err);
const char *blvl_import_format_name(blvl_import_format format);

/* diag */
typedef int... blvl_diag_severity;
typedef struct {
    const char *code;
    blvl_diag_severity severity;
    char section[48];
    uint32_t index;
    char message[200];
    char source[200];
    ...;
} blvl_diag_finding;
typedef struct {
    blvl_options base;
    const void *symbols_data;
    size_t symbols_size;
    ...;
} blvl_diag_options;
typedef struct { uint32_t errors, warnings, infos; ...; } blvl_diag_counts;
typedef struct {
    blvl_diag_finding *items;
    size_t count;
    blvl_diag_counts counts;
    ...;
} blvl_diag_findings;
#define BLVL_DIAG_NONE ...
blvl_status blvl_diag_collect(blvl_diag_findings **out, blvl_level *level,
                              const blvl_diag_options *opt, blvl_error *err);
void blvl_diag_findings_free(blvl_diag_findings *f);
const char *blvl_diag_severity_name(blvl_diag_severity severity);

/* probe */
typedef struct {
    float pos[3];
    float yaw, pitch, roll;
    float fov_x;
    ...;
} blvl_probe_pose;
typedef struct blvl_probe blvl_probe;
typedef struct {
    bool hit;
    float distance;
    float point[3];
    float normal[3];
    bool front;
    uint32_t triangle;
    uint32_t batch;
    uint32_t material;
    ...;
} blvl_probe_tri_hit;
typedef struct {
    float point[3];
    uint32_t count;
    uint32_t flags;
    uint32_t collider;
    bool water;
    uint32_t water_collider, water_material;
    ...;
} blvl_probe_contents;
typedef struct {
    float eye[3], dir[3];
    blvl_trace_result view;
    float view_distance;
    blvl_probe_tri_hit tri;
    blvl_probe_contents at_eye, at_feet;
    bool floor_hit, floor_startsolid;
    float floor_distance;
    float floor_point[3];
    float floor_normal[3];
    uint32_t floor_collider;
    uint32_t spawn;
    float spawn_distance;
    float spawn_position[3];
    float spawn_yaw;
    ...;
} blvl_probe_result;
typedef struct {
    const char *section;
    blvl_error error;
    ...;
} blvl_probe_damage;
static const float BLVL_PROBE_VIEW_RANGE;
#define BLVL_PROBE_RENDER_COLLIDERS ...
#define BLVL_PROBE_RENDER_NO_TEXTURES ...
#define BLVL_PROBE_MAX_SIZE ...
blvl_status blvl_probe_new(blvl_probe **out, blvl_level *level, const blvl_options *opt,
                           blvl_error *err);
blvl_status blvl_probe_load_pictures(blvl_probe *p, blvl_error *err);
void blvl_probe_free(blvl_probe *p);
const blvl_probe_damage *blvl_probe_damaged(const blvl_probe *p, uint32_t *count);
void blvl_probe_look(const blvl_probe *p, const blvl_probe_pose *pose, blvl_probe_result *out);
const char *blvl_probe_material_name(const blvl_probe *p, uint32_t material);
const char *blvl_probe_spawn_kind(const blvl_probe *p, uint32_t spawn);
blvl_status blvl_probe_render(const blvl_probe *p, const blvl_probe_pose *pose, uint32_t width,
                              uint32_t height, unsigned flags, uint8_t *rgba, blvl_error *err);

/* the binding's own helpers (HELPERS below) */
extern "Python" void pyblvl_progress(void *user, uint64_t done, uint64_t total);
int pyblvl_geometry(const uint8_t *section, size_t size, size_t *vertex_offset,
                    uint32_t *vertex_count, size_t *index_offset, uint32_t *index_count,
                    uint32_t *batch_count);
typedef struct {
    uint32_t first_index, index_count, material;
    float lo[3], hi[3];
    uint32_t breakable, door, fog, gametypes;
    uint16_t lightmap_layer;
    ...;
} pyblvl_batch;
void pyblvl_batches(const uint8_t *section, pyblvl_batch *out, uint32_t count);
uint32_t pyblvl_collider_count(const uint8_t *section);
void pyblvl_colliders(const uint8_t *section, float *bounds, uint32_t *flags, uint32_t count);
void pyblvl_contents(const blvl_trace_world *world, const blvl_trace_filter *filter,
                     const float *points, size_t count, uint32_t *counts, uint32_t *flags,
                     uint32_t *colliders);
"""

# C the binding adds beside the library: loops over a section's FlatBuffer tables (batches,
# colliders) and over a batch of points, so no Python object is made per element. Sections
# handed here were verified by blvl_level_section.
HELPERS = r"""
#include <string.h>
#include "blvl/blvl.h"
#include "blvl/diag.h"
#include "blvl/http.h"
#include "blvl/import.h"
#include "blvl/probe.h"
#include "blvl/sections.h"
#include "blvl/trace.h"

typedef struct pyblvl_batch {
    uint32_t first_index, index_count, material;
    float lo[3], hi[3];
    uint32_t breakable, door, fog, gametypes;
    uint16_t lightmap_layer;
} pyblvl_batch;

/* Where the vertex and index vectors lie in a verified geometry section. */
static int pyblvl_geometry(const uint8_t *section, size_t size, size_t *vertex_offset,
                           uint32_t *vertex_count, size_t *index_offset, uint32_t *index_count,
                           uint32_t *batch_count) {
    blvl_Geometry g = blvl_Geometry_root(section);
    blvl_fb_vec v = blvl_Geometry_vertices_vec(g), ix = blvl_Geometry_indices_vec(g);
    *vertex_count = v.len;
    *vertex_offset = v.data ? (size_t)(v.data - section) : 0;
    *index_count = ix.len;
    *index_offset = ix.data ? (size_t)(ix.data - section) : 0;
    *batch_count = blvl_Geometry_batches_len(g);
    return *vertex_offset + (size_t)v.len * 52u <= size &&
           *index_offset + (size_t)ix.len * 4u <= size;
}

static void pyblvl_batches(const uint8_t *section, pyblvl_batch *out, uint32_t count) {
    blvl_Geometry g = blvl_Geometry_root(section);
    for (uint32_t i = 0; i < count; i++) {
        blvl_Batch b = blvl_Geometry_batches_at(g, i);
        blvl_Vec3 lo = blvl_Batch_lo(b), hi = blvl_Batch_hi(b);
        pyblvl_batch *o = &out[i];
        o->first_index = blvl_Batch_first_index(b);
        o->index_count = blvl_Batch_index_count(b);
        o->material = blvl_Batch_material(b);
        o->lo[0] = lo.x, o->lo[1] = lo.y, o->lo[2] = lo.z;
        o->hi[0] = hi.x, o->hi[1] = hi.y, o->hi[2] = hi.z;
        o->breakable = blvl_Batch_breakable(b);
        o->door = blvl_Batch_door(b);
        o->fog = blvl_Batch_fog(b);
        o->gametypes = blvl_Batch_gametypes(b);
        o->lightmap_layer = blvl_Batch_lightmap_layer(b);
    }
}

static uint32_t pyblvl_collider_count(const uint8_t *section) {
    return blvl_Sim_colliders_len(blvl_Sim_root(section));
}

/* bounds: count x 2 x 3 floats (lo, hi); flags: count. */
static void pyblvl_colliders(const uint8_t *section, float *bounds, uint32_t *flags,
                             uint32_t count) {
    blvl_Sim s = blvl_Sim_root(section);
    for (uint32_t i = 0; i < count; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(s, i);
        blvl_Vec3 lo = blvl_Collider_lo(c), hi = blvl_Collider_hi(c);
        float *b = bounds + 6 * (size_t)i;
        b[0] = lo.x, b[1] = lo.y, b[2] = lo.z, b[3] = hi.x, b[4] = hi.y, b[5] = hi.z;
        flags[i] = blvl_Collider_flags(c);
    }
}

static void pyblvl_contents(const blvl_trace_world *world, const blvl_trace_filter *filter,
                            const float *points, size_t count, uint32_t *counts, uint32_t *flags,
                            uint32_t *colliders) {
    for (size_t i = 0; i < count; i++) {
        flags[i] = 0;
        colliders[i] = BLVL_TRACE_NONE;
        counts[i] = blvl_trace_point_contents(world, filter, points + 3 * i, &flags[i],
                                              &colliders[i]);
    }
}
"""


def make_ffi(include_dirs=(), library_dirs=(), runtime_library_dirs=()):
    ffi = FFI()
    ffi.cdef(CDEF)
    ffi.set_source(
        "blvl._blvl_cffi",
        HELPERS,
        libraries=["blvl-tools", "blvl-http", "blvl"],
        include_dirs=list(include_dirs),
        library_dirs=list(library_dirs),
        runtime_library_dirs=list(runtime_library_dirs),
    )
    return ffi


def _pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "blvl-tools", "blvl-http"],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.split()


def _for_pip():
    """Where pip's build finds the headers and libraries: the tree's build, else pkg-config."""
    build = os.environ.get("BLVL_BUILD_DIR")
    if not build and os.path.exists(os.path.join(HERE, "..", "build", "libblvl.so")):
        build = os.path.join(HERE, "..", "build")
    if build:
        build = os.path.abspath(build)
        src = os.path.abspath(os.path.join(build, ".."))
        inc = os.environ.get("BLVL_INCLUDE_DIR", os.path.join(src, "include"))
        if not os.path.exists(os.path.join(build, "libblvl.so")):
            sys.exit("blvl_build.py: no libblvl.so in %s (run make first)" % build)
        return make_ffi([inc], [build], [build])
    cflags = _pkg_config("--cflags-only-I")
    libs = _pkg_config("--libs-only-L")
    if cflags is None:
        sys.exit("blvl_build.py: no tree build (../build/libblvl.so, or BLVL_BUILD_DIR) and no "
                 "installed libblvl (pkg-config blvl-tools blvl-http)")
    # the libraries' folder is recorded too, so a prefix outside the loader's path works
    return make_ffi([f[2:] for f in cflags], [f[2:] for f in libs], [f[2:] for f in libs])


if __name__ == "__main__" and len(sys.argv) == 3 and sys.argv[1] == "--emit":
    # CMake compiles and links the source itself: only the C text is wanted here.
    make_ffi().emit_c_code(sys.argv[2])
elif __name__ == "__main__":
    sys.exit("usage: blvl_build.py --emit OUT.c")
else:
    ffibuilder = _for_pip()
