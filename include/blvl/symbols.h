/* The .bsym symbols sidecar (schema/bsym.fbs): where every collider and triangle of a baked
 * level came from in its source map. Read, checked against the level it belongs to, looked up;
 * and written (the bake writes its .bsym through blvl_symbols_write).
 *
 *   blvl_symbols *sym;
 *   if (blvl_symbols_open_file(&sym, "crossing.bsym", level, 0, NULL, &err) != BLVL_OK)
 *       puts(err.message);              // "symbols-stale: ..." when it names another level
 *   uint32_t src = blvl_symbols_collider_source(sym, 42);
 *   char what[256];
 *   blvl_symbols_describe(sym, src, what, sizeof what);  // "brush 312 (entity 0, material ...)"
 *   blvl_symbols_free(sym);
 *
 * The level's identity (header offset 48) is the link: a .bsym whose `level` differs is stale.
 * Checked on read (each refusal is BLVL_E_SYMBOLS and names its invariant): `colliders` has one
 * entry per sim.colliders element; `tri_runs` is sorted by first triangle, starts at 0, has no
 * two runs on the same triangle, and its last run starts below the triangle count of
 * geometry.indices (so the runs cover every triangle); every source, entity and material id is in
 * range or BLVL_SYMBOLS_NONE; a material's `baked` is below geometry.materials' count or NONE. */
#ifndef BLVL_SYMBOLS_H
#define BLVL_SYMBOLS_H

#include "blvl/blvl.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_SYMBOLS_VERSION 1u
#define BLVL_SYMBOLS_NONE 0xFFFFFFFFu
/* Limits a reader enforces before it allocates: the file, and each vector's element count. */
#define BLVL_SYMBOLS_MAX_FILE (1024u * 1024u * 1024u)

/* What a source element is (schema enum SourceKind). */
typedef enum blvl_symbols_kind {
    BLVL_SYMBOLS_BRUSH = 0,
    BLVL_SYMBOLS_FACE = 1,
    BLVL_SYMBOLS_PATCH = 2,
    BLVL_SYMBOLS_PROP = 3,
    BLVL_SYMBOLS_PHYSICS_SHAPE = 4
} blvl_symbols_kind;

/* One source element (schema struct SymbolSource). */
typedef struct blvl_symbols_source {
    uint32_t kind;           /* blvl_symbols_kind; another value is kept and printed as a number */
    uint32_t index;          /* its number in the source map */
    uint32_t surface_flags;  /* the source engine's own flags */
    uint32_t contents_flags; /* the source engine's own flags */
    uint32_t entity;         /* entities index of the entity that placed it; NONE */
    uint32_t material;       /* symbols materials index (pre-merge); NONE */
} blvl_symbols_source;

/* A run of triangles of one source: first_tri .. the next run's first_tri (last: the end). */
typedef struct blvl_symbols_run {
    uint32_t first_tri;
    uint32_t source; /* sources index; NONE */
} blvl_symbols_run;

/* A material before the bake merged it. Strings are NUL-terminated, never NULL ("" when the
 * file has none); they live as long as the symbols object. */
typedef struct blvl_symbols_material {
    const char *name;
    const char *shader;
    const char *texture;
    uint32_t baked; /* geometry.materials index it became; NONE */
    uint32_t unknown_count;
    const char *const *unknown; /* script keywords the bake did not read, "keyword args" */
} blvl_symbols_material;

/* What a symbols object holds. */
typedef struct blvl_symbols_info {
    uint8_t level[BLVL_DIGEST_SIZE]; /* the identity it names */
    uint32_t version;
    bool stale;         /* opened with BLVL_SYMBOLS_READ_STALE and it names another level */
    bool checked;       /* the level's invariants were checked (a level was given, not stale) */
    uint32_t colliders; /* entries of `colliders` */
    uint32_t runs;
    uint32_t sources;
    uint32_t materials;
    uint32_t triangles; /* triangles of the level's geometry; 0 when no level was given */
    uint32_t batches;   /* batches of the level's geometry; 0 when no level was given */
} blvl_symbols_info;

/* Open flags. */
enum {
    /* A stale .bsym is read anyway (its own invariants checked, not the level's) instead of
     * refused with BLVL_E_SYMBOLS_STALE; blvl_symbols_info.stale says so. */
    BLVL_SYMBOLS_READ_STALE = 1u
};

typedef struct blvl_symbols blvl_symbols;

/* Read a .bsym. `level` (may be NULL: then nothing is compared with a level) is the level it
 * should describe: its identity is compared first (a mismatch is BLVL_E_SYMBOLS_STALE and nothing
 * further is read unless `flags` has BLVL_SYMBOLS_READ_STALE), then its sim and geometry sections
 * are read for the invariants and the batch ranges. Another version is BLVL_E_SYMBOLS_VERSION and
 * nothing is read; bytes that fail the FlatBuffers verifier are BLVL_E_FLATBUFFER. The object
 * keeps no pointer into `data` or `level`. */
BLVL_API blvl_status blvl_symbols_open_memory(blvl_symbols **out, const void *data, size_t size,
                                              blvl_level *level, unsigned flags,
                                              const blvl_options *opt, blvl_error *err);
BLVL_API blvl_status blvl_symbols_open_file(blvl_symbols **out, const char *path, blvl_level *level,
                                            unsigned flags, const blvl_options *opt,
                                            blvl_error *err);
BLVL_API void blvl_symbols_free(blvl_symbols *sym);

BLVL_API void blvl_symbols_get_info(const blvl_symbols *sym, blvl_symbols_info *out);

/* Lookups; each returns BLVL_SYMBOLS_NONE (or NULL / false) for an index out of range. */
BLVL_API uint32_t blvl_symbols_collider_source(const blvl_symbols *sym, uint32_t collider);
BLVL_API uint32_t blvl_symbols_triangle_source(const blvl_symbols *sym, uint32_t triangle);
/* The runs covering batch B's triangles (geometry.batches[B]; needs the level at open): *count
 * runs from the returned pointer; the first may start before the batch's first triangle and the
 * last run on past its end. NULL with *count 0 for none. */
BLVL_API const blvl_symbols_run *blvl_symbols_batch_runs(const blvl_symbols *sym, uint32_t batch,
                                                         uint32_t *count);
/* The one source of a whole batch, or NONE when its triangles come from none or several. */
BLVL_API uint32_t blvl_symbols_batch_source(const blvl_symbols *sym, uint32_t batch);

BLVL_API const blvl_symbols_source *blvl_symbols_source_at(const blvl_symbols *sym, uint32_t index);
BLVL_API const blvl_symbols_run *blvl_symbols_runs(const blvl_symbols *sym, uint32_t *count);
BLVL_API bool blvl_symbols_material_at(const blvl_symbols *sym, uint32_t index,
                                       blvl_symbols_material *out);
/* "brush", "face", "patch", "prop", "physics-shape"; NULL for another value. */
BLVL_API const char *blvl_symbols_kind_name(uint32_t kind);
/* One line naming a source for people: "brush 312 (entity 0, material 7 textures/base/wall,
 * contents 0x1, surface 0x0)"; "none" for NONE. Always NUL-terminates; returns the length it
 * needed (as snprintf). */
BLVL_API size_t blvl_symbols_describe(const blvl_symbols *sym, uint32_t source, char *buf,
                                      size_t size);

/* ---- writing (libblvl-tools: pkg-config blvl-tools, blvl::tools) ------------------------ */

/* Everything a .bsym holds, as plain arrays (the writer copies what it needs). */
typedef struct blvl_symbols_data {
    uint8_t level[BLVL_DIGEST_SIZE];
    const uint32_t *colliders; /* sources index per sim.colliders element */
    uint32_t collider_count;
    const blvl_symbols_run *runs;
    uint32_t run_count;
    const blvl_symbols_source *sources;
    uint32_t source_count;
    const blvl_symbols_material *materials; /* NULL strings are written as absent */
    uint32_t material_count;
} blvl_symbols_data;

/* Serialise to a version-1 .bsym of *size bytes (freed with blvl_free(opt, *data)). The
 * symbols' own invariants (runs sorted and starting at 0, ids in range) are checked first:
 * BLVL_E_SYMBOLS. */
BLVL_API blvl_status blvl_symbols_write(void **data, size_t *size, const blvl_symbols_data *symbols,
                                        const blvl_options *opt, blvl_error *err);

#ifdef __cplusplus
}
#endif

#endif
