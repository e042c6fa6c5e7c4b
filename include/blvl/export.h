/* glTF 2.0 export of a level (docs/EXPORT.md): the world mesh, its materials and textures, the
 * lightmap, cameras, punctual lights, spawns, triggers, sites, hurt volumes and (optionally) the
 * colliders, in glTF's axes (+Y up, metres; 1 qu = 0.0254 m), as one .glb or as a .gltf with
 * its .bin beside it.
 *
 *   blvl_export_glb(&glb, &size, level, &xo, &err)        a .glb in memory
 *   blvl_export_gltf(&json, &json_size, &bin, &bin_size, level, "x.bin", &xo, &err)
 *                                                          a .gltf's JSON and its buffer
 *   blvl_export_glb_file(level, "x.glb", &xo, &err)       a .glb written to a temporary name,
 *                                                          then renamed (never a partial file)
 *
 *   blvl_export_options xo = {0};       // geometry, materials, textures, lightmap, nodes
 *   xo.collision = true;                // plus a hidden "collision" scene, a mesh per collider
 *   xo.acoustics = true;                // plus an "acoustics" scene: probes and their edges
 *
 * Every level is hostile: an index out of range, a non-finite number, an image that is not what
 * its encoding says, or an output past glTF's 4 GiB is refused (BLVL_E_ARGUMENT, the message
 * "export: <rule>: <where>: <what>") before anything is written. Sections that fail to read
 * (digest, verifier) give the reader's own status. */
#ifndef BLVL_EXPORT_H
#define BLVL_EXPORT_H

#include "blvl/blvl.h"

#ifdef __cplusplus
extern "C" {
#endif

struct blvl_symbols;

/* Metres per Quake unit: the scale of every exported position and length. */
#define BLVL_EXPORT_METRES_PER_QU 0.0254

typedef struct blvl_export_options {
    blvl_options base; /* the allocator (the output files' writer takes the rest) */
    bool collision;    /* add the colliders (a scene of their own, not the default) */
    /* Optional (NULL = none): the level's .bsym, opened against the same level; each batch's
     * and collider's source goes into its extras. */
    const struct blvl_symbols *symbols;
    /* Add the acoustics section's probes and edges (a scene of their own, "acoustics", when the
     * level has the section). */
    bool acoustics;
} blvl_export_options;

/* The level as one .glb in memory; *data is the caller's: blvl_free(&xo->base, *data). */
BLVL_API blvl_status blvl_export_glb(void **data, size_t *size, blvl_level *level,
                                     const blvl_export_options *xo, blvl_error *err);

/* The level as a .gltf: its JSON (NUL-terminated) names its one buffer by `bin_uri` (a relative
 * URI, written into the JSON as given: it must need no escaping). Both outputs are the caller's. */
BLVL_API blvl_status blvl_export_gltf(char **json, size_t *json_len, void **bin, size_t *bin_size,
                                      blvl_level *level, const char *bin_uri,
                                      const blvl_export_options *xo, blvl_error *err);

/* blvl_export_glb written to `path` through a temporary file renamed over it: on any failure
 * nothing is left at `path` (an existing file there is kept as it was). */
BLVL_API blvl_status blvl_export_glb_file(blvl_level *level, const char *path,
                                          const blvl_export_options *xo, blvl_error *err);

/* blvl_export_gltf written as DIR/NAME.gltf and DIR/NAME.bin (each atomically, the .bin first). */
BLVL_API blvl_status blvl_export_gltf_files(blvl_level *level, const char *dir, const char *name,
                                            const blvl_export_options *xo, blvl_error *err);

#ifdef __cplusplus
}
#endif

#endif
