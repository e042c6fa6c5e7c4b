/* libblvl: the .blvl container. Read, validate, write, edit in place and stream baked levels.
 *
 * Every fallible call returns a blvl_status (BLVL_OK is 0) and, when `err` is not NULL, fills
 * it with the code and a one-line message that starts with the name of the rule that refused
 * ("table-digest: ..."). The library keeps no global state. docs/FORMAT.md is the normative
 * byte layout.
 *
 * Options, memory, ownership (blvl/common.h, docs/API.md "One shape"): a call that makes
 * something takes its outputs first, then its inputs, then one zero-initialised options
 * pointer (NULL = the defaults), then `err`: blvl_open_file(&level, path, &opt, &err). A
 * feature that needs more than the common options has its own struct whose first member is
 * them (the HTTP options, the trace options). Every byte comes from the options' allocator;
 * objects remember it, so each destructor takes only the object; buffers handed out are
 * `void **data, size_t *size`, freed with blvl_free and the options of the call that made
 * them; bytes read from a level with blvl_bytes_free.
 *
 * Naming: every name starts with blvl_ (BLVL_ for macros and enum values). An object's
 * functions are blvl_<object>_<verb> (blvl_writer_begin, blvl_stream_feed, blvl_fb_builder_new,
 * blvl_trace_world_new). The level is the library's main object, and its container operations
 * drop the noun, as stdio's do for a FILE: blvl_open_*, blvl_close, blvl_read, blvl_find,
 * blvl_verify. What the layers above the container read from a level is blvl_level_<what>
 * (blvl_level_section, blvl_level_sim). Booleans are bool; callbacks that report success
 * return int, 0 for success, as POSIX calls do. Vectors are the schema's blvl_Vec3.
 *
 * Reference: every function the three libraries export, by library and header (names in full;
 * tests/test_api_reference.sh holds this list to the libraries' exports).
 *
 * libblvl, the runtime (pkg-config blvl, CMake blvl::blvl; needs libzstd only)
 *   common.h      blvl_status_name blvl_free
 *                     status names; free a buffer the library handed out
 *   version.h     blvl_version_number blvl_version_string
 *                     the library linked at run time
 *   payload.h     blvl_digest blvl_hex
 *                     the format's BLAKE3-128 digest, as hex
 *   blvl.h        blvl_open_file blvl_open_memory blvl_open_source blvl_close
 *                 blvl_level_options
 *                     open and validate a level; close it; the options it keeps
 *                 blvl_get_info blvl_count blvl_entry_at blvl_find
 *                     header facts and the table
 *                 blvl_read blvl_read_packed blvl_read_sink blvl_bytes_free
 *                     a section's inflated or stored bytes, digest and chunks checked
 *                 blvl_verify
 *                     check every section of a level
 *                 blvl_compute_identity blvl_compute_table_digest blvl_tag_valid
 *                     the format's identity, table digest and tag rule
 *                 blvl_writer_open_file blvl_writer_open_memory blvl_writer_open_sink
 *                 blvl_writer_begin blvl_writer_append blvl_writer_end blvl_writer_add
 *                 blvl_writer_commit blvl_writer_commit_memory blvl_writer_abort
 *                     the streaming writer (docs/WRITER.md)
 *                 blvl_write_memory blvl_write_file blvl_file_write
 *                     a level from whole sections; any bytes by the out-file rule
 *                 blvl_rewrite_file blvl_rewrite_edit_file blvl_edit_put blvl_edit_drop
 *                     compacting copies, with edits; in-place edits outside identity
 *                 blvl_stream_new blvl_stream_want blvl_stream_set_check blvl_stream_feed
 *                 blvl_stream_finish blvl_stream_free blvl_stream_options
 *                     verify and read a level as its bytes arrive
 *   fb_types.h    blvl_fb_scalar_size blvl_fb_enum_name
 *                     the FlatBuffers type tables
 *   fb_verifier.h blvl_fb_verify
 *                     verify a FlatBuffer against its type table
 *   sections.h    blvl_section_type blvl_schema_type blvl_core_tag_at
 *                     the core tags and their root types
 *                 blvl_level_section blvl_sections_verify blvl_sections_check
 *                 blvl_sections_stream_check blvl_section_verify_bytes
 *                     read and verify core sections; the level rules on a level, a
 *                     writer's input, a stream
 *   symbols.h     blvl_symbols_open_memory blvl_symbols_open_file blvl_symbols_free
 *                 blvl_symbols_get_info blvl_symbols_collider_source
 *                 blvl_symbols_triangle_source blvl_symbols_batch_runs
 *                 blvl_symbols_batch_source blvl_symbols_source_at blvl_symbols_runs
 *                 blvl_symbols_material_at blvl_symbols_kind_name blvl_symbols_describe
 *                     read a .bsym sidecar, checked against its level; look sources up
 *   trace.h       blvl_trace_collider_desc_init blvl_trace_world_new
 *                 blvl_trace_world_from_level blvl_trace_world_free blvl_trace_world_reports
 *                 blvl_trace_world_collider_count blvl_trace_world_planes
 *                 blvl_trace_world_bounds
 *                     a level's collision world
 *                 blvl_trace_doors_new blvl_trace_doors_set blvl_trace_doors_free
 *                 blvl_trace_transform_identity blvl_trace_transform_slide
 *                 blvl_trace_transform_swing
 *                     door poses
 *                 blvl_trace_box blvl_trace_ray blvl_trace_point_contents
 *                 blvl_trace_point_water blvl_trace_box_stats blvl_trace_box_brute
 *                 blvl_trace_box_many
 *                     queries; many box traces at once, on worker threads
 *   acoustics.h   blvl_acoustics_new blvl_acoustics_new_memory blvl_acoustics_free
 *                 blvl_acoustics_counts blvl_acoustics_probe
 *                     a level's sound-propagation graph, checked, with its probes indexed
 *                 blvl_acoustics_nearest blvl_acoustics_scratch_new
 *                 blvl_acoustics_scratch_free blvl_acoustics_path_find
 *                     a point's probe; the way a sound travels to a listener
 *
 * libblvl-http, levels over HTTP (pkg-config blvl-http, CMake blvl::http; needs libcurl)
 *   http.h        blvl_open_url blvl_is_url blvl_http_get_stats
 *                     open a level at a URL; its transfer figures
 *                 blvl_fetch_url blvl_http_stream_feed
 *                     a whole level to a file; a level into a streaming reader
 *
 * libblvl-tools, building and baking (pkg-config blvl-tools, CMake blvl::tools)
 *   fb_builder.h  blvl_fb_builder_new blvl_fb_builder_free blvl_fb_builder_reset
 *                 blvl_fb_builder_status blvl_fb_create_string blvl_fb_create_vector
 *                 blvl_fb_create_struct_vector blvl_fb_create_ref_vector
 *                 blvl_fb_table_start blvl_fb_table_end blvl_fb_add_raw blvl_fb_add_ref
 *                 blvl_fb_add_struct blvl_fb_finish blvl_fb_finish_id
 *                     build a FlatBuffer
 *   fb_json.h     blvl_fb_to_json blvl_fb_from_json
 *                     FlatBuffers JSON out and in
 *   sections.h    blvl_section_to_json blvl_section_from_json
 *                     a core section's JSON
 *   symbols.h     blvl_symbols_write
 *                     write a .bsym
 *   image.h       blvl_image_decode blvl_image_expected_size blvl_image_rgba_free
 *                 blvl_image_write_png
 *                     decode textures, write PNG
 *   bake.h        blvl_bake_new blvl_bake_free blvl_bake_options
 *                 blvl_bake_material_init blvl_bake_surface_init blvl_bake_collider_init
 *                 blvl_bake_door_init
 *                 blvl_bake_add_material blvl_bake_add_surface blvl_bake_add_triangle
 *                 blvl_bake_add_box blvl_bake_add_brush blvl_bake_add_hull
 *                 blvl_bake_add_door blvl_bake_add_entity blvl_bake_add_spawn
 *                 blvl_bake_add_teleport_dest blvl_bake_add_trigger blvl_bake_add_hurt
 *                 blvl_bake_add_fog_volume blvl_bake_add_light blvl_bake_add_site
 *                 blvl_bake_add_camera blvl_bake_add_source blvl_bake_add_image_rgba8
 *                 blvl_bake_add_image_encoded
 *                 blvl_bake_set_meta blvl_bake_set_sky blvl_bake_set_sun
 *                 blvl_bake_set_ambient blvl_bake_set_kill_y blvl_bake_set_light_grid
 *                 blvl_bake_set_acoustics blvl_bake_set_draft
 *                 blvl_bake_set_lightmap
 *                 blvl_bake_write_memory blvl_bake_write_file
 *                     the baker every importer feeds
 *                 blvl_bake_brush_polygons blvl_bake_polygons_free blvl_bake_merge_boxes
 *                 blvl_bake_mesh_is_convex
 *                     convex geometry helpers
 *   import.h      blvl_import_detect blvl_import_format_name blvl_import_bake_file
 *                 blvl_import_bake_memory blvl_import_list_maps
 *                     any source map to a level in one call (docs/IMPORT.md)
 *   hmap.h        blvl_hmap_read blvl_hmap_write blvl_hmap_free blvl_hmap_bake
 *                     the .hmap height-map format
 *   subspace.h    blvl_subspace_read blvl_subspace_write blvl_subspace_free
 *                 blvl_subspace_bake blvl_subspace_grid blvl_subspace_region_tiles
 *                 blvl_subspace_default_tileset
 *                     Subspace maps
 *   riot.h        blvl_riot_read blvl_riot_parse blvl_riot_write blvl_riot_free
 *                 blvl_riot_bake blvl_riot_srsc_read blvl_riot_srsc_write
 *                 blvl_riot_srsc_find blvl_riot_srsc_free
 *                     Riot levels and their resource archives
 *   q3.h          blvl_q3_fs_new blvl_q3_fs_add blvl_q3_fs_exists blvl_q3_fs_read
 *                 blvl_q3_fs_list blvl_q3_fs_options blvl_q3_fs_free
 *                     Quake 3 archives and folders
 *                 blvl_q3_bsp_read blvl_q3_bsp_free blvl_q3_entities_parse
 *                 blvl_q3_entities_free blvl_q3_entity_get
 *                     maps and their entities
 *                 blvl_q3_bake
 *                     bake a Quake 3 map
 *   q3_shader.h   blvl_q3_shaders_new blvl_q3_shaders_add blvl_q3_shaders_load
 *                 blvl_q3_shaders_find blvl_q3_shaders_count blvl_q3_shaders_refused
 *                 blvl_q3_shaders_first_refusal blvl_q3_shaders_free
 *                     shader scripts
 *   export.h      blvl_export_glb blvl_export_glb_file blvl_export_gltf
 *                 blvl_export_gltf_files
 *                     a level to glTF
 *   diag.h        blvl_diag_run blvl_diag_collect blvl_diag_findings_free
 *                 blvl_diag_catalogue blvl_diag_check_find blvl_diag_severity_name
 *                     what is wrong with a level, by check
 *   probe.h       blvl_probe_new blvl_probe_free blvl_probe_world blvl_probe_camera
 *                 blvl_probe_look blvl_probe_pose_axes blvl_probe_spawn_kind
 *                 blvl_probe_ray_triangles blvl_probe_material_name
 *                 blvl_probe_load_pictures blvl_probe_render blvl_probe_damaged
 *                     look into a level from a pose, render what a camera sees
 *
 * Not in the list above (nothing to link): the header-only helpers le.h's little-endian
 * loads and stores, fb_reader.h's accessors, and the generated readers of
 * sections/<name>.h (the typed level readers and verifiers; docs/FLATBUFFERS.md); the type
 * tables the generated headers name are exported data, not functions.
 */
#ifndef BLVL_BLVL_H
#define BLVL_BLVL_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/api.h"
#include "blvl/common.h"
#include "blvl/payload.h"
#include "blvl/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_MAGIC "BLVL\r\n\x1a\n"
#define BLVL_CONTAINER_VERSION 1u
#define BLVL_HEADER_SIZE 64u
#define BLVL_ENTRY_SIZE 64u
#define BLVL_TAG_MAX 16u
#define BLVL_FLOOR_MIN 128u
#define BLVL_FLOOR_MAX (128u << 10)
#define BLVL_ENTRY_FLAG_IDENTITY 1u

/* A pread-style source: read exactly `len` bytes at `offset`, return 0 on success. */
typedef struct blvl_source {
    int (*read)(void *user, uint64_t offset, void *buf, size_t len);
    uint64_t size; /* the file's length */
    void *user;
    /* NULL, or called once when the level is done with `user`: by blvl_close, or by a
     * blvl_open_source that fails (then before it returns). */
    void (*close)(void *user);
    /* NULL, or fills `err` with why the last failed read failed (its code and a message that
     * starts with the rule's name); without it a failed read is BLVL_E_IO. */
    void (*why)(void *user, blvl_error *err);
} blvl_source;

/* One live table entry, decoded. */
typedef struct blvl_entry {
    char tag[BLVL_TAG_MAX + 1]; /* NUL-terminated */
    uint64_t offset;
    uint64_t packed_size;
    uint64_t raw_size;
    uint32_t version;
    uint32_t flags;
    uint8_t digest[BLVL_DIGEST_SIZE];
} blvl_entry;

/* Header facts of an opened level. */
typedef struct blvl_info {
    uint64_t file_size;
    uint64_t floor;
    uint64_t table_offset;
    uint32_t count;
    uint32_t capacity; /* entries the reserved region holds: (floor - 64) / 64 */
    uint64_t covered;  /* floor + sum of packed sizes */
    uint64_t unreferenced;
    uint8_t identity[BLVL_DIGEST_SIZE];
    uint8_t table_digest[BLVL_DIGEST_SIZE];
} blvl_info;

typedef struct blvl_level blvl_level;

/* Open and validate: header, table, table digest, identity, the unreferenced-bytes limit and
 * the inflation budget are all checked before this returns. Section digests are checked when
 * a section is read. */
BLVL_API blvl_status blvl_open_file(blvl_level **out, const char *path, const blvl_options *opt,
                                    blvl_error *err);
/* `data` is borrowed and must outlive the level. */
BLVL_API blvl_status blvl_open_memory(blvl_level **out, const void *data, size_t size,
                                      const blvl_options *opt, blvl_error *err);
BLVL_API blvl_status blvl_open_source(blvl_level **out, const blvl_source *src,
                                      const blvl_options *opt, blvl_error *err);
BLVL_API void blvl_close(blvl_level *level);

BLVL_API void blvl_get_info(const blvl_level *level, blvl_info *out);
BLVL_API uint32_t blvl_count(const blvl_level *level);
/* Entries in table order; NULL past the end. */
BLVL_API const blvl_entry *blvl_entry_at(const blvl_level *level, uint32_t index);
/* NULL when no section has that tag. */
BLVL_API const blvl_entry *blvl_find(const blvl_level *level, const char *tag);

/* Bytes a level hands out: a section's inflated or packed bytes. `data` points into the mapped
 * file (no copy) when the section is one raw chunk of a mapped or in-memory level; otherwise
 * into memory the bytes own, from the level's allocator. Release with blvl_bytes_free. */
typedef struct blvl_bytes {
    const uint8_t *data;
    size_t size;
    void *owned_;          /* internal */
    size_t owned_size_;    /* internal */
    blvl_allocator alloc_; /* internal: the allocator owned_ came from */
} blvl_bytes;

/* Read a section: check its digest, parse the chunk index, inflate the chunks in parallel,
 * each to exactly its declared size. Safe to call from several threads on one level. */
BLVL_API blvl_status blvl_read(blvl_level *level, const char *tag, blvl_bytes *out,
                               blvl_error *err);
/* ---- blvl_sink is declared with the writer, below --------------------------------------- */
typedef struct blvl_sink blvl_sink;
/* Read a section without holding it: its inflated bytes go to `sink` in order (write(user,
 * raw offset, bytes, len), one chunk of at most 4 MiB at a time), so memory stays at about two
 * chunks whatever the section's size. Every check of blvl_read (digest, chunk index, every
 * chunk inflating to its size) is made before the first byte reaches the sink; the section's
 * bytes are then read a second time to hand them out (a callback source is read twice; a
 * source whose bytes change between the two reads is refused with section-digest after the
 * sink has had some of them). A sink's non-zero return stops the read with BLVL_E_IO. */
BLVL_API blvl_status blvl_read_sink(blvl_level *level, const char *tag, const blvl_sink *sink,
                                    blvl_error *err);
/* Read the packed (stored) bytes of a section after checking its digest. */
BLVL_API blvl_status blvl_read_packed(blvl_level *level, const char *tag, blvl_bytes *out,
                                      blvl_error *err);
/* Frees what the bytes own (nothing when they borrow the file) and zeroes them. It needs no
 * level: bytes may outlive the level that read them only when they own their memory, so
 * close the level last. NULL is fine. */
BLVL_API void blvl_bytes_free(blvl_bytes *bytes);

/* A copy of the options the level was opened with (the allocator, threads, limits): what the
 * layers above the container use for the level's work. */
BLVL_API const blvl_options *blvl_level_options(const blvl_level *level);

/* Check every section: digest, chunk index and inflation of every chunk (output discarded).
 * The container does not know FlatBuffers; the section layer adds that check. */
BLVL_API blvl_status blvl_verify(blvl_level *level, blvl_error *err);

/* Identity from decoded entries (what open checks header bytes 48..64 against). */
BLVL_API void blvl_compute_identity(const blvl_entry *entries, uint32_t count,
                                    uint8_t out[BLVL_DIGEST_SIZE]);
/* Table digest (header bytes 24..40): BLAKE3-128 of magic | u32 1 | u32 count | u64 floor |
 * u32 table offset | u32 0 | the `count` 64-byte entries at `table_bytes`, as stored. */
BLVL_API void blvl_compute_table_digest(const uint8_t *table_bytes, uint32_t count, uint64_t floor,
                                        uint32_t table_offset, uint8_t out[BLVL_DIGEST_SIZE]);
/* blvl_digest and blvl_hex: blvl/payload.h. */

/* True when `tag` is a valid tag; *core is set when it has no dot (the format's core tags). */
BLVL_API bool blvl_tag_valid(const char *tag, bool *core);

/* ---- writing --------------------------------------------------------------------------- */

/* One section handed to the writer: raw bytes, to be chunked and compressed. */
typedef struct blvl_section_in {
    const char *tag;
    uint32_t version;
    uint32_t flags; /* BLVL_ENTRY_FLAG_IDENTITY; forced on for core tags */
    const void *data;
    size_t size;
} blvl_section_in;

/* ---- the streaming writer (docs/WRITER.md) ------------------------------------------------
 *
 *   blvl_writer *w;
 *   blvl_writer_open_file(&w, "e1m1.blvl", 3, &opt, &err);   // at most 3 sections
 *   blvl_writer_add(w, "meta", 1, 0, meta, meta_size, &err); // a whole section at once
 *   blvl_writer_begin(w, "textures", 2, 0, &err);            // or piece by piece
 *   while (n = read(fd, buf, sizeof buf)) blvl_writer_append(w, buf, n, &err);
 *   blvl_writer_end(w, &err);
 *   ...
 *   blvl_writer_commit(w, &err);   // or blvl_writer_abort(w): no file, old target untouched
 *
 * Sections are laid out in the order they are begun. Raw bytes are cut into 4 MiB chunks that
 * the worker threads compress as they fill; they reach the target in order, each section's
 * digest computed as its bytes go out; the header and table are written last. Memory stays
 * near threads x 2 chunks + one zstd encoder per thread, whatever the level's size. The bytes
 * are a function of the sections and `max_sections` alone (not of the thread count or of how
 * the bytes were split into appends): blvl_write_memory/_file are this writer with
 * max_sections = count.
 *
 * Errors: every call returns a status. After a failure the writer is failed: later calls
 * return the same status, and only blvl_writer_abort (or a commit, which then fails) ends it.
 * commit and abort always free the writer. Not thread-safe: one thread drives a writer. */
typedef struct blvl_writer blvl_writer;

/* A pwrite-style destination: write `len` bytes at `offset`, return 0 on success. Every byte
 * of the level is written exactly once: the payloads in increasing order from the payload
 * floor, then the first `floor` bytes (header and table) last, in commit. */
struct blvl_sink {
    int (*write)(void *user, uint64_t offset, const void *data, size_t len);
    void *user;
};

/* `max_sections` bounds the sections to come and fixes the reserved region: the floor is the
 * one a level of exactly max_sections sections gets (docs/FORMAT.md). Writing fewer is fine.
 * The file writer refuses (io) at once to replace a file this process could not write in
 * place; it writes a temporary file beside `path` that commit flushes and renames over it. */
BLVL_API blvl_status blvl_writer_open_file(blvl_writer **out, const char *path,
                                           uint32_t max_sections, const blvl_options *opt,
                                           blvl_error *err);
/* The level is built in memory and handed over by blvl_writer_commit_memory. */
BLVL_API blvl_status blvl_writer_open_memory(blvl_writer **out, uint32_t max_sections,
                                             const blvl_options *opt, blvl_error *err);
/* The level goes to `sink` (copied; its user pointer must outlive the writer). */
BLVL_API blvl_status blvl_writer_open_sink(blvl_writer **out, const blvl_sink *sink,
                                           uint32_t max_sections, const blvl_options *opt,
                                           blvl_error *err);

/* Start the next section. `flags`: BLVL_ENTRY_FLAG_IDENTITY (forced on for core tags). A bad or
 * repeated tag is BLVL_E_WRITE_TAG; one section more than max_sections is BLVL_E_ARGUMENT. */
BLVL_API blvl_status blvl_writer_begin(blvl_writer *w, const char *tag, uint32_t version,
                                       uint32_t flags, blvl_error *err);
/* Raw bytes of the open section, in pieces of any size (copied before this returns). A section
 * past 2 GiB raw is BLVL_E_RAW_SIZE. */
BLVL_API blvl_status blvl_writer_append(blvl_writer *w, const void *data, size_t size,
                                        blvl_error *err);
/* Close the open section. */
BLVL_API blvl_status blvl_writer_end(blvl_writer *w, blvl_error *err);
/* begin + append + end. */
BLVL_API blvl_status blvl_writer_add(blvl_writer *w, const char *tag, uint32_t version,
                                     uint32_t flags, const void *data, size_t size,
                                     blvl_error *err);
/* Finish the level: wait for the last chunks, check the inflation budget (the sum of raw sizes
 * at most max(64 MiB, 64 x covered), BLVL_E_BUDGET naming the largest section and its ratio),
 * write the header and table, and for a file flush and rename. Frees the writer, on success
 * or not; on failure nothing is left behind. For a memory writer use commit_memory. */
BLVL_API blvl_status blvl_writer_commit(blvl_writer *w, blvl_error *err);
/* The same for a memory writer: *data (free with blvl_free and the writer's options) holds
 * *size bytes. */
BLVL_API blvl_status blvl_writer_commit_memory(blvl_writer *w, void **data, size_t *size,
                                               blvl_error *err);
/* Drop everything: the temporary file is removed, the target untouched. NULL is fine. */
BLVL_API void blvl_writer_abort(blvl_writer *w);

/* ---- whole-section writing (wrappers over the streaming writer) --------------------------- */

/* Bake a level. The output is a function of the sections alone (order included): same
 * input, same bytes. Sections are laid out in the order given. */
BLVL_API blvl_status blvl_write_memory(void **data, size_t *size, const blvl_section_in *sections,
                                       size_t count, const blvl_options *opt, blvl_error *err);
/* Writes to a temporary file beside `path`, flushes, then renames it over `path`. */
BLVL_API blvl_status blvl_write_file(const char *path, const blvl_section_in *sections,
                                     size_t count, const blvl_options *opt, blvl_error *err);
/* *data of blvl_write_memory is freed with blvl_free(opt, *data). */

/* Writes `size` bytes to `path` by the rule every writer of the library follows (docs/API.md,
 * "Output files"): a directory is refused (BLVL_E_ARGUMENT); an existing device, FIFO or socket
 * is written through; anything else is written to a temporary beside the file the path names
 * (symlinks followed), flushed and renamed over it, keeping an existing file's mode and, where
 * the process may, its owner. */
BLVL_API blvl_status blvl_file_write(const char *path, const void *data, size_t size,
                                     const blvl_options *opt, blvl_error *err);

/* ---- rewrite and in-place edits ----------------------------------------------------------- */

/* Keep a section in a rewrite? Return true to keep. NULL keeps all. The callback is a
 * raw filter, not checked: dropping a section in identity through it renames the level (what
 * a program that predates a core section must do). Use `drop` for checked drops. */
typedef bool (*blvl_keep_fn)(void *user, const blvl_entry *entry);

/* Compacting copy: every kept section's packed bytes are copied verbatim (so identity holds
 * when every identity section is kept), laid out in table order, with a fresh reserved region.
 * in_path and out_path may be the same file (the output is renamed over it); then the file's
 * edit lock is held from the read to the rename (BLVL_E_BUSY past opt->lock_timeout_ms). */
BLVL_API blvl_status blvl_rewrite_file(const char *in_path, const char *out_path, blvl_keep_fn keep,
                                       void *keep_user, const blvl_options *opt, blvl_error *err);

/* A compacting copy with edits, the way out when an in-place edit answers BLVL_E_NO_ROOM.
 * Each section of `put` (raw bytes, chunked and compressed as the writer does, outside
 * identity: a game tag and flags 0) replaces the section of the same tag in its place, or is
 * added after the kept sections. Each tag of `drop` is left out; it must be in the level
 * (BLVL_E_NOT_FOUND) and outside identity. A put or drop of a section in identity (a core
 * tag, or a game section with the identity flag) is BLVL_E_IDENTITY_SECTION, so the level
 * keeps its name. `keep` (may be NULL) filters further, unchecked. A level a reader would
 * refuse under the inflation-budget rule is not written (BLVL_E_BUDGET). Every refusal comes
 * before anything is written. `out_path` may name the file `in_path` does: the new file is
 * renamed over it, under the edit lock as for blvl_rewrite_file. */
BLVL_API blvl_status blvl_rewrite_edit_file(const char *in_path, const char *out_path,
                                            blvl_keep_fn keep, void *keep_user,
                                            const blvl_section_in *put, size_t nput,
                                            const char *const *drop, size_t ndrop,
                                            const blvl_options *opt, blvl_error *err);

/* The file operations an edit performs, so tests can interrupt them (blvl_options.file_ops;
 * NULL = POSIX on the path, under the edit lock). */
typedef struct blvl_file_ops {
    int (*pread)(void *user, void *buf, size_t len, uint64_t off);
    int (*pwrite)(void *user, const void *buf, size_t len, uint64_t off);
    int (*flush)(void *user);
    int (*size)(void *user, uint64_t *size);
    void *user;
} blvl_file_ops;

/* Add or replace a section outside identity (flags 0), in place. The edit holds the file's
 * exclusive edit lock throughout (BLVL_E_BUSY when another edit or in-place rewrite holds it
 * past opt->lock_timeout_ms; opt->file_ops replaces the file). The edited level must meet the
 * inflation-budget rule (BLVL_E_BUDGET, nothing written). */
BLVL_API blvl_status blvl_edit_put(const char *path, const char *tag, uint32_t version,
                                   const void *data, size_t size, const blvl_options *opt,
                                   blvl_error *err);
/* Drop a section outside identity, in place. */
BLVL_API blvl_status blvl_edit_drop(const char *path, const char *tag, const blvl_options *opt,
                                    blvl_error *err);

/* ---- streaming ------------------------------------------------------------------------- */

typedef enum blvl_stream_event_kind {
    BLVL_EV_TABLE = 1,   /* header and table verified; identity recomputed and checked */
    BLVL_EV_SECTION,     /* a section's last byte landed and its digest matched */
    BLVL_EV_SECTION_BAD, /* a section's last byte landed and it failed (status in `status`) */
    BLVL_EV_END          /* every section has been seen */
} blvl_stream_event_kind;

typedef struct blvl_stream_event {
    blvl_stream_event_kind kind;
    const blvl_entry *entry; /* SECTION, SECTION_BAD */
    /* TABLE: every entry, in table order */
    const blvl_entry *entries;
    uint32_t count;
    const uint8_t *identity;     /* TABLE */
    const uint8_t *table_digest; /* TABLE */
    /* SECTION of a wanted tag: the inflated bytes, valid during the callback only */
    const uint8_t *data;
    size_t size;
    blvl_status status;  /* SECTION_BAD */
    const char *message; /* SECTION_BAD */
    uint64_t offset;     /* the file offset at which the event fired */
} blvl_stream_event;

/* Return 0 to go on, non-zero to stop the stream (feed then returns BLVL_E_ARGUMENT). */
typedef int (*blvl_stream_fn)(void *user, const blvl_stream_event *ev);

typedef struct blvl_stream blvl_stream;

BLVL_API blvl_status blvl_stream_new(blvl_stream **out, blvl_stream_fn fn, void *user,
                                     const blvl_options *opt, blvl_error *err);
/* Keep and inflate this section when it arrives. Call before the table is known. A stream
 * with no wanted tags verifies every section and keeps none. */
BLVL_API blvl_status blvl_stream_want(blvl_stream *s, const char *tag, blvl_error *err);
/* A check of a wanted section's inflated bytes (the container knows no payload format; e.g.
 * blvl_sections_stream_check plugs in the FlatBuffers verifier). Called once per wanted
 * section that passed the container's checks, before its event; return BLVL_OK, or a status
 * with `err` filled (its message starting with the rule name): the section is then reported
 * as SECTION_BAD with that status and message, and the stream goes on. */
typedef blvl_status (*blvl_stream_check_fn)(void *user, const blvl_entry *entry,
                                            const uint8_t *data, size_t size, blvl_error *err);
/* Install (or with NULL remove) the check. Call before the table is known. */
BLVL_API blvl_status blvl_stream_set_check(blvl_stream *s, blvl_stream_check_fn fn, void *user,
                                           blvl_error *err);
/* Feed the next bytes of the file, in order, in pieces of any size. A refusal of the header or
 * table is returned here; a bad section is an event, and the stream goes on. Once a call has
 * refused the input (or the callback stopped the stream), every later feed and finish returns
 * that first status and message again. */
BLVL_API blvl_status blvl_stream_feed(blvl_stream *s, const void *data, size_t len,
                                      blvl_error *err);
/* The end of the input: refuses a file that ended early. */
BLVL_API blvl_status blvl_stream_finish(blvl_stream *s, blvl_error *err);
BLVL_API void blvl_stream_free(blvl_stream *s);
/* A copy of the options the stream was made with (for checks plugged into it). */
BLVL_API const blvl_options *blvl_stream_options(const blvl_stream *s);

#ifdef __cplusplus
}
#endif
#endif
