/* Quake 3 maps: pk3 archives, IBSP 46 .bsp files, entity strings, .shader scripts, and the
 * bake of a map into a level (docs/IMPORT-Q3.md).
 *
 * Three readers, each bounded and hostile-input safe:
 *   - blvl_q3_fs: a search path of .pk3 archives (libzip) and directories. Later entries
 *     override earlier ones, as the engine's search path does; names compare without regard to
 *     case, '\\' reads as '/'.
 *   - blvl_q3_bsp: every lump of an IBSP version 46 file decoded into host structs. A refusal
 *     is BLVL_E_SOURCE with "lump <name>: record N field at offset M: <rule>: <problem>", the
 *     offset from the file's start.
 *   - blvl_q3_shaders: the .shader scripts of a search path (q3_shader.h).
 * All integers in the file are little-endian. Axes: Quake 3 (x, y, z) -> blvl (x, z, -y);
 * units unchanged. */
#ifndef BLVL_Q3_H
#define BLVL_Q3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/bake.h"
#include "blvl/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hostile-input limits. */
#define BLVL_Q3_MAX_FILE (1u << 30)     /* a .bsp, or one file inside an archive, at most 1 GiB */
#define BLVL_Q3_MAX_ARCHIVE_FILES 65536 /* entries of one .pk3 */

/* ---- the search path ------------------------------------------------------------------- */

typedef struct blvl_q3_fs blvl_q3_fs;

BLVL_API blvl_status blvl_q3_fs_new(blvl_q3_fs **out, const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_q3_fs_free(blvl_q3_fs *fs);
/* Add a .pk3 (zip) file, or a directory: its *.pk3 files in byte order of their names, then
 * its loose files (which override those archives), as the engine does with a game folder.
 * Entries added later override entries added earlier. */
BLVL_API blvl_status blvl_q3_fs_add(blvl_q3_fs *fs, const char *path, blvl_error *err);
/* A file by its path in the game's tree ("maps/oa_dm1.bsp", "textures/base/x.tga"), from the
 * latest entry that holds it. BLVL_E_NOT_FOUND when none does. Free with blvl_free(opt, data). */
BLVL_API blvl_status blvl_q3_fs_read(void **data, size_t *size, const blvl_q3_fs *fs,
                                     const char *name, blvl_error *err);
BLVL_API bool blvl_q3_fs_exists(const blvl_q3_fs *fs, const char *name);
/* Every distinct file under `dir` ("maps", "scripts") whose name ends in `ext` (".bsp",
 * ".shader"; case-insensitive), as the game spells the winning entry's path, sorted by byte
 * order of the lower-cased path, in one buffer freed with blvl_free(opt, *names) (`opt` as
 * given to blvl_q3_fs_new, or blvl_q3_fs_options(fs)). */
BLVL_API blvl_status blvl_q3_fs_list(char ***names, size_t *count, const blvl_q3_fs *fs,
                                     const char *dir, const char *ext, blvl_error *err);
/* The options the search path was made with (a copy): what its outputs are freed with. */
BLVL_API const blvl_options *blvl_q3_fs_options(const blvl_q3_fs *fs);

/* ---- the .bsp ------------------------------------------------------------------------- */

enum {
    BLVL_Q3_LUMP_ENTITIES = 0,
    BLVL_Q3_LUMP_SHADERS,
    BLVL_Q3_LUMP_PLANES,
    BLVL_Q3_LUMP_NODES,
    BLVL_Q3_LUMP_LEAFS,
    BLVL_Q3_LUMP_LEAF_SURFACES,
    BLVL_Q3_LUMP_LEAF_BRUSHES,
    BLVL_Q3_LUMP_MODELS,
    BLVL_Q3_LUMP_BRUSHES,
    BLVL_Q3_LUMP_BRUSH_SIDES,
    BLVL_Q3_LUMP_DRAW_VERTS,
    BLVL_Q3_LUMP_DRAW_INDEXES,
    BLVL_Q3_LUMP_FOGS,
    BLVL_Q3_LUMP_SURFACES,
    BLVL_Q3_LUMP_LIGHTMAPS,
    BLVL_Q3_LUMP_LIGHT_GRID,
    BLVL_Q3_LUMP_VISIBILITY,
    BLVL_Q3_LUMP_COUNT
};

/* Surface types. */
enum {
    BLVL_Q3_MST_BAD = 0,
    BLVL_Q3_MST_PLANAR,
    BLVL_Q3_MST_PATCH,
    BLVL_Q3_MST_TRIANGLE_SOUP,
    BLVL_Q3_MST_FLARE
};

/* Contents and surface flags the bake reads (the engine's surfaceflags.h values). */
#define BLVL_Q3_CONTENTS_SOLID 0x1u
#define BLVL_Q3_CONTENTS_LAVA 0x8u
#define BLVL_Q3_CONTENTS_SLIME 0x10u
#define BLVL_Q3_CONTENTS_WATER 0x20u
#define BLVL_Q3_CONTENTS_FOG 0x40u
#define BLVL_Q3_CONTENTS_PLAYERCLIP 0x10000u
#define BLVL_Q3_CONTENTS_MONSTERCLIP 0x20000u
#define BLVL_Q3_CONTENTS_TELEPORTER 0x40000u
#define BLVL_Q3_CONTENTS_JUMPPAD 0x80000u
#define BLVL_Q3_CONTENTS_CLUSTERPORTAL 0x100000u
#define BLVL_Q3_CONTENTS_DONOTENTER 0x200000u
#define BLVL_Q3_CONTENTS_BOTCLIP 0x400000u
#define BLVL_Q3_CONTENTS_TRIGGER 0x40000000u
#define BLVL_Q3_CONTENTS_NODROP 0x80000000u

#define BLVL_Q3_SURF_NODAMAGE 0x1u
#define BLVL_Q3_SURF_SLICK 0x2u
#define BLVL_Q3_SURF_SKY 0x4u
#define BLVL_Q3_SURF_LADDER 0x8u
#define BLVL_Q3_SURF_NOIMPACT 0x10u
#define BLVL_Q3_SURF_NOMARKS 0x20u
#define BLVL_Q3_SURF_FLESH 0x40u
#define BLVL_Q3_SURF_NODRAW 0x80u
#define BLVL_Q3_SURF_HINT 0x100u
#define BLVL_Q3_SURF_SKIP 0x200u
#define BLVL_Q3_SURF_NOLIGHTMAP 0x400u
#define BLVL_Q3_SURF_POINTLIGHT 0x800u
#define BLVL_Q3_SURF_METALSTEPS 0x1000u
#define BLVL_Q3_SURF_NOSTEPS 0x2000u
#define BLVL_Q3_SURF_NONSOLID 0x4000u
#define BLVL_Q3_SURF_LIGHTFILTER 0x8000u
#define BLVL_Q3_SURF_ALPHASHADOW 0x10000u
#define BLVL_Q3_SURF_NODLIGHT 0x20000u
#define BLVL_Q3_SURF_DUST 0x40000u

/* Records as the file lays them out, decoded to host order; names as the file holds them
 * (NUL-terminated copies of the 64-byte fields). Every index has been checked in range (or is
 * the documented "none", -1) by blvl_q3_bsp_read. */
typedef struct blvl_q3_shader_ref {
    char name[65];
    uint32_t surface_flags, contents;
} blvl_q3_shader_ref;

typedef struct blvl_q3_plane {
    float normal[3], dist;
} blvl_q3_plane;

typedef struct blvl_q3_node {
    int32_t plane, children[2]; /* child < 0: leaf -(child + 1) */
    int32_t mins[3], maxs[3];
} blvl_q3_node;

typedef struct blvl_q3_leaf {
    int32_t cluster, area;
    int32_t mins[3], maxs[3];
    int32_t first_leaf_surface, num_leaf_surfaces;
    int32_t first_leaf_brush, num_leaf_brushes;
} blvl_q3_leaf;

typedef struct blvl_q3_model {
    float mins[3], maxs[3];
    int32_t first_surface, num_surfaces;
    int32_t first_brush, num_brushes;
} blvl_q3_model;

typedef struct blvl_q3_brush {
    int32_t first_side, num_sides;
    int32_t shader;
} blvl_q3_brush;

typedef struct blvl_q3_brush_side {
    int32_t plane, shader;
} blvl_q3_brush_side;

/* xyz is finite; st, lightmap and normal are as stored (real maps hold NaN lightmap
 * coordinates on surfaces without a lightmap): whoever uses them checks them. */
typedef struct blvl_q3_draw_vert {
    float xyz[3];
    float st[2];
    float lightmap[2];
    float normal[3];
    uint8_t color[4];
} blvl_q3_draw_vert;

typedef struct blvl_q3_fog {
    char shader[65];
    int32_t brush;
    int32_t visible_side; /* -1: none (the fog is seen from every side) */
} blvl_q3_fog;

typedef struct blvl_q3_surface {
    int32_t shader;
    int32_t fog; /* -1: none */
    int32_t type;
    int32_t first_vert, num_verts;
    int32_t first_index, num_indexes;
    int32_t lightmap; /* -1: none; -3: vertex lit (other negative values read as none) */
    int32_t lightmap_x, lightmap_y, lightmap_width, lightmap_height;
    float lightmap_origin[3];
    float lightmap_vecs[3][3]; /* s, t, normal */
    int32_t patch_width, patch_height;
} blvl_q3_surface;

#define BLVL_Q3_LIGHTMAP_SIZE 128u /* a lightmap page: 128 x 128 RGB8 */

typedef struct blvl_q3_bsp {
    uint32_t offset[BLVL_Q3_LUMP_COUNT], length[BLVL_Q3_LUMP_COUNT]; /* the lump directory */
    char *entities; /* the entity string, NUL-terminated (the lump's bytes up to its first NUL) */
    size_t entities_size;
    uint32_t shader_count, plane_count, node_count, leaf_count, leaf_surface_count,
        leaf_brush_count, model_count, brush_count, brush_side_count, draw_vert_count,
        draw_index_count, fog_count, surface_count, lightmap_count;
    blvl_q3_shader_ref *shaders;
    blvl_q3_plane *planes;
    blvl_q3_node *nodes;
    blvl_q3_leaf *leafs;
    int32_t *leaf_surfaces;
    int32_t *leaf_brushes;
    blvl_q3_model *models; /* at least one: model 0 is the world */
    blvl_q3_brush *brushes;
    blvl_q3_brush_side *brush_sides;
    blvl_q3_draw_vert *draw_verts;
    int32_t *draw_indexes; /* offsets from each surface's first_vert */
    blvl_q3_fog *fogs;
    blvl_q3_surface *surfaces;
    uint8_t *lightmaps; /* lightmap_count pages of 128 * 128 RGB8, rows top to bottom */
    /* The light grid as stored: 8 bytes per cell (ambient RGB, directed RGB, longitude,
     * latitude), cells x fastest, then y, then z over the world model's bounds (docs). */
    uint8_t *light_grid;
    uint32_t light_grid_size;
    /* Visibility: cluster_count bit rows of row_size bytes; NULL when the lump is empty. */
    uint32_t vis_clusters, vis_row_size;
    uint8_t *vis;
    /* Surfaces whose fog index named no fog: read as unfogged (real maps hold them). */
    uint32_t fogs_dropped;
    /* What blvl_q3_bsp_free gives every array back to: the reader sets it to its options'
     * allocator; one built by hand sets the one its arrays came from (zero: malloc). */
    blvl_allocator allocator;
} blvl_q3_bsp;

BLVL_API blvl_status blvl_q3_bsp_read(blvl_q3_bsp **out, const void *data, size_t size,
                                      const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_q3_bsp_free(blvl_q3_bsp *bsp);

/* ---- entities ------------------------------------------------------------------------- */

typedef struct blvl_q3_pair {
    char *key, *value;
} blvl_q3_pair;

typedef struct blvl_q3_entity {
    uint32_t pair_count;
    blvl_q3_pair *pairs; /* in the order written; a repeated key keeps every pair */
    uint32_t offset;     /* of its '{' in the entity string */
} blvl_q3_entity;

typedef struct blvl_q3_entities {
    uint32_t count;
    blvl_q3_entity *items;
    blvl_allocator allocator; /* the parser's options' allocator: what the free gives back to */
} blvl_q3_entities;

/* The entity string: { "key" "value" ... } blocks as the engine's parser reads them (quoted
 * tokens, // comments). Refusals: "entities: at offset N: <rule>: <problem>". */
BLVL_API blvl_status blvl_q3_entities_parse(blvl_q3_entities *out, const char *text, size_t size,
                                            const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_q3_entities_free(blvl_q3_entities *e);
/* The first value of `key` (case-insensitive), as the game's spawn lookup reads it, or NULL. */
BLVL_API const char *blvl_q3_entity_get(const blvl_q3_entity *e, const char *key);

/* ---- the bake ------------------------------------------------------------------------- */

/* What the bake counted, filled for a caller that asks (blvl_q3_bake's `report`). */
typedef struct blvl_q3_bake_report {
    uint32_t missing_images;           /* distinct image names looked up and not found */
    uint32_t unknown_keywords;         /* distinct shader keywords the bake does not read */
    uint32_t brushes, brushes_dropped; /* collidable brushes; those that bound no volume */
    uint32_t patch_hulls;
    uint32_t surfaces_drawn, triangles;
    uint32_t patch_triangles;    /* of `triangles`, those tessellated from patches */
    uint32_t bad_images;         /* images found but not decodable (kept by name) */
    uint32_t fogs_dropped;       /* fogs whose brush bounds no volume */
    uint32_t light_grid_dropped; /* a light grid whose size does not fit the world */
    uint32_t values_replaced;    /* non-finite numbers read as their default */
} blvl_q3_bake_report;

/* The bake's options; zeroed = the defaults. */
typedef struct blvl_q3_bake_options {
    blvl_options base;      /* not read by the bake: the bake allocates with its own options */
    const blvl_q3_fs *fs;   /* shaders and images; NULL: materials keep their names, no images
                               (each image counts as missing) */
    const char *map_name;   /* "maps/oa_dm1.bsp": names the level when the map has no message */
    float patch_thickness;  /* qu a patch's collision hull reaches behind its surface; 0 = 4 */
    int patch_subdivisions; /* tessellation level of drawn patches (per Bezier span); 0 = the
                               engine's r_subdivisions 4 rule (docs) */
} blvl_q3_bake_options;

/* Fill a bake model from a read map (docs/IMPORT-Q3.md). `report` (may be NULL) is set to
 * what the bake counted, also on failure; `opt` may be NULL. */
BLVL_API blvl_status blvl_q3_bake(const blvl_q3_bsp *bsp, blvl_bake *bake,
                                  blvl_q3_bake_report *report, const blvl_q3_bake_options *opt,
                                  blvl_error *err);

#ifdef __cplusplus
}
#endif
#endif
