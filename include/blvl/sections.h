/* The core sections of a level as typed FlatBuffers: read + verify by tag, verify a whole level,
 * and JSON of a section (what `blvl dump` prints and `blvl pack TAG=FILE.json` builds).
 *
 * The core sections are the schemas in schema/ with a root_type and no file_identifier, each
 * tagged by its file name; their list (and the typed readers blvl_level_<tag>()) is generated
 * into blvl/sections/registry.h, included at the end of this header.
 *
 * Every core section is at payload version 0 (BLVL_SECTION_VERSION). A section of another
 * version is dropped (read as absent) unless it is required (meta and sim: the root table says
 * blvl_required_section), which refuses the level with BLVL_E_SECTION_VERSION; a level without
 * a required section is refused with BLVL_E_REQUIRED.
 *
 * This header reads: it pulls in no FlatBuffers builder and no JSON. Building sections is
 * blvl/sections_builder.h (or one blvl/sections/<name>_builder.h). */
#ifndef BLVL_SECTIONS_H
#define BLVL_SECTIONS_H

#include "blvl/api.h"
#include "blvl/blvl.h"
#include "blvl/fb_reader.h"
#include "blvl/fb_verifier.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_SECTION_VERSION 0u

/* The root table type of a core tag ("sim" -> Sim); NULL for anything else (bsym included: the
 * symbols are a .bsym file of their own, never a section of a level). *required (may be NULL)
 * is set for a required section (meta, sim). */
BLVL_API const blvl_fb_type *blvl_section_type(const char *tag, bool *required);

/* The root table type of schema/NAME.fbs: a core tag's, or that of a file of its own (a schema
 * with a file_identifier: Symbols for "bsym", the .bsym file whose buffers carry "BSYM"); NULL
 * for anything else. */
BLVL_API const blvl_fb_type *blvl_schema_type(const char *name);

/* The core tags in registry order (the required ones, then the rest, each by name); NULL past
 * the end. */
BLVL_API const char *blvl_core_tag_at(unsigned index);

/* Read a core section, check its version and verify it. On BLVL_OK, *root is its root table
 * (valid until blvl_bytes_free(out)). A section that is absent, or dropped for an
 * unknown version, gives BLVL_E_NOT_FOUND (read it as the empty table) unless the tag is
 * required: then BLVL_E_REQUIRED or BLVL_E_SECTION_VERSION. A payload the verifier refuses
 * gives BLVL_E_FLATBUFFER. */
BLVL_API blvl_status blvl_level_section(blvl_level *level, const char *tag, blvl_bytes *out,
                                        const uint8_t **root, blvl_error *err);

/* Typed forms, one per core tag, are generated into blvl/sections/registry.h: e.g.
 * blvl_level_sim(level, &sec, &sim, &err) fills a blvl_Sim. */

/* For `blvl verify`: meta and sim present at a known version, and every core section of a
 * known version passes the FlatBuffers verifier (each is read, so digests and chunks are
 * checked too). The message names the tag and what failed. */
BLVL_API blvl_status blvl_sections_verify(blvl_level *level, blvl_error *err);

/* The same level rules over the sections a writer is about to write, with the same statuses
 * and messages blvl_sections_verify gives for the written level (so `blvl pack` refuses what
 * `blvl verify` would). Sections with game tags (a dot) are not looked at, so their `data` may
 * be NULL (a writer that streams them from disk). */
BLVL_API blvl_status blvl_sections_check(const blvl_section_in *sections, size_t count,
                                         const blvl_options *opt, blvl_error *err);

/* Makes the streaming reader check each wanted core section as blvl_level_section does: meta
 * and sim at a payload version this reader knows, and every core section of a known version
 * through the FlatBuffers verifier of its root type. A section that fails is reported as
 * SECTION_BAD with section-version or flatbuffer. Call before the table is known (it installs
 * blvl_stream_set_check's hook). */
BLVL_API blvl_status blvl_sections_stream_check(blvl_stream *s, blvl_error *err);

/* Verify bytes as the section `tag`, or as a .bsym file for "bsym" (so for the JSON functions
 * below too), with opt's FlatBuffers limits (`opt` may be NULL). */
BLVL_API blvl_status blvl_section_verify_bytes(const char *tag, const void *bytes, size_t size,
                                               const blvl_options *opt, blvl_error *err);

/* The two JSON functions below are in libblvl-tools (pkg-config blvl-tools, blvl::tools): a
 * program linking the runtime alone does not have them. */

/* JSON of a section's bytes (verified first), flatc --json --strict-json style: *text is
 * NUL-terminated text of *len bytes (the NUL not counted) and the caller's:
 * blvl_free(opt, *text). `indent` 0 prints one line. */
BLVL_API blvl_status blvl_section_to_json(char **text, size_t *len, const char *tag,
                                          const void *bytes, size_t size, unsigned indent,
                                          const blvl_options *opt, blvl_error *err);

/* Build a section's FlatBuffer from JSON with blvl's builder (canonical bytes). *data (*size
 * bytes) is the caller's: blvl_free(opt, *data). */
BLVL_API blvl_status blvl_section_from_json(void **data, size_t *size, const char *tag,
                                            const char *json, size_t json_len,
                                            const blvl_options *opt, blvl_error *err);

#ifdef __cplusplus
}
#endif

/* Every root schema's header and the typed readers (generated; it needs the above first). */
#include "blvl/sections/registry.h"
#endif
