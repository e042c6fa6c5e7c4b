/* The .hmap reader's and writer's shared parts: the compound fields read through the common
 * cursor, the wire sizes of each record (the writer sizes its
 * output with them, the cross-chunk checks find a field's offset with them), UTF-8. */
#ifndef BLVL_IMPORT_HMAP_INTERNAL_H
#define BLVL_IMPORT_HMAP_INTERNAL_H

#include <stdint.h>

#include "blvl/hmap.h"
#include "common/cursor.h"
#include "common/error.h"

#define HM_HEADER_SIZE 12u
#define HM_CHUNK_HEADER 8u

/* Smallest wire size of each record (its fixed part, every string empty, every array empty):
 * a count is refused when count * this exceeds the bytes left, so nothing is allocated for
 * records the file cannot hold. */
#define HM_MATERIAL_MIN 32u /* str, str, vec2, vec3, u32 */
#define HM_BRUSH_MIN 20u    /* id, owner, contents, flags, faceCount */
#define HM_FACE_SIZE 44u    /* plane, i32 material, uv, u32 flags */
#define HM_MESH_MIN 24u     /* id, owner, flags, str name, vertCount, polyCount */
#define HM_POLY_MIN 36u     /* material, smooth, uv, idxCount, uvCount */
#define HM_ENTITY_MIN 52u   /* id, flags, str classname, 3 x vec3, kvCount */
#define HM_PAIR_MIN 8u      /* str, str */
#define HM_CMPL_HEAD 41u    /* ambient, unitsPerMeter, baked, bounds */
#define HM_BATCH_MIN 17u    /* material, source, model, vertexCount, indexCount */
#define HM_CVERTEX_SIZE 36u /* pos, normal, uv, colour */
#define HM_MODEL_MIN 32u    /* entityId, aabb, brushCount */
#define HM_CBRUSH_MIN 36u   /* contents, sourceId, aabb, planeCount */
#define HM_BSP_MIN 52u      /* root, depth, aabb and five counts */
#define HM_NODE_SIZE 12u
#define HM_LEAF_SIZE 8u
#define HM_COLL_MIN 32u   /* objectId, aabb, vertexCount */
#define HM_LIGHT_SIZE 57u /* type, pos, dir, colour, 4 x f32, entityId */

/* The known chunks, in the writer's canonical order. */
typedef enum hm_kind { HM_META, HM_MATS, HM_BRSH, HM_MESH, HM_ENTS, HM_CMPL, HM_KINDS } hm_kind;
extern const char blvl__import_hmap_tags[HM_KINDS][4];
/* The kind of a known tag, or HM_KINDS. */
hm_kind blvl__import_hmap_kind_of(const char tag[4]);

/* Wire sizes of parsed records and known chunk payloads (uint64: a hand-built map may be
 * larger than any file). */
uint64_t blvl__import_hmap_size_str(const blvl_hmap_str *s);
uint64_t
blvl__import_hmap_size_mesh_head(const blvl_hmap_mesh *m); /* up to and including vertices */
uint64_t blvl__import_hmap_size_poly(const blvl_hmap_poly *p);
uint64_t blvl__import_hmap_size_batch(const blvl_hmap_batch *b);
uint64_t blvl__import_hmap_size_payload(const blvl_hmap *map, hm_kind kind);

/* File offsets of parsed records, for refusals after reading (check.c, the bake's bake_offsets.c):
 * the first byte of a chunk's payload, brush[i] / its face[k] (k = UINT32_MAX: the brush),
 * mesh[i] / its poly[k] (likewise), entity[i], batch[i] of CMPL. Each walks the records before
 * it; 0 when a read map has no such chunk. A map built by hand (chunk_count 0) is laid out as
 * blvl_hmap_write lays it out. */
uint64_t blvl__import_hmap_payload_at(const blvl_hmap *map, hm_kind kind);
uint64_t blvl__import_hmap_at_face(const blvl_hmap *map, uint32_t brush, uint32_t face);
uint64_t blvl__import_hmap_at_poly(const blvl_hmap *map, uint32_t mesh, uint32_t poly);
uint64_t blvl__import_hmap_at_entity(const blvl_hmap *map, uint32_t entity);
uint64_t blvl__import_hmap_at_batch(const blvl_hmap *map, uint32_t batch);

/* Every field is read through the common cursor (common/cursor.h; its unit is "chunk", its
 * positions are file offsets). The readers below add the .hmap's compound fields, each checking
 * the bytes left in the chunk (rule field-size) before it reads and advances. */
blvl_status blvl__import_hmap_vec2(blvl__cursor *c, const char *leaf, blvl_Vec2 *v);
blvl_status blvl__import_hmap_vec3(blvl__cursor *c, const char *leaf, blvl_Vec3 *v);
blvl_status blvl__import_hmap_plane(blvl__cursor *c, const char *leaf, blvl_Plane *v);
blvl_status blvl__import_hmap_box(blvl__cursor *c, const char *leaf, blvl_hmap_box *v);
blvl_status blvl__import_hmap_uv(blvl__cursor *c, const char *leaf, blvl_hmap_uv *v);
/* A string: size, UTF-8 (rule utf8), no NUL (rule string-nul), copied with a NUL after it. */
blvl_status blvl__import_hmap_str(blvl__cursor *c, const char *leaf, blvl_hmap_str *s);
/* A count whose records take at least `min` bytes each (rule count-size), then `*arr` gets
 * n zeroed elements of `elem` bytes (NULL when n is 0). `*count` is set with `*arr`. */
blvl_status blvl__import_hmap_array(blvl__cursor *c, const char *leaf, uint32_t min, size_t elem,
                                    uint32_t *count, void **arr);
/* blvl__import_hmap_array into the array lvalue `arr` (its element size from its type), returning
 * from the calling function on a refusal. The pointer passes through a void * of its own, not a
 * cast of &arr, so no object is written through a pointer of another type. */
#define HM_ARRAY(c, leaf, min, count, arr)                                                         \
    do {                                                                                           \
        void *p_ = NULL;                                                                           \
        blvl_status s_ = blvl__import_hmap_array((c), (leaf), (min), sizeof *(arr), (count), &p_); \
        (arr) = p_;                                                                                \
        if (s_)                                                                                    \
            return s_;                                                                             \
    } while (0)

/* Return the status of x from the calling function when it is not BLVL_OK. */
#define HM_TRY(x)                                                                                  \
    do {                                                                                           \
        blvl_status st_ = (x);                                                                     \
        if (st_)                                                                                   \
            return st_;                                                                            \
    } while (0)

/* n little-endian u32s / vec3s / planes already known to fit. */
void blvl__import_hmap_take_u32s(blvl__cursor *c, uint32_t *out, uint32_t n);
/* Take n indices (known to fit) and refuse the first one >= limit with `rule`; `owner` names
 * what holds the vertices ("mesh", "batch") in the message. */
blvl_status blvl__import_hmap_take_indices(blvl__cursor *c, uint32_t *out, uint32_t n,
                                           uint32_t limit, const char *rule, const char *owner);
void blvl__import_hmap_take_vec3s(blvl__cursor *c, blvl_Vec3 *out, uint32_t n);
void blvl__import_hmap_take_planes(blvl__cursor *c, blvl_Plane *out, uint32_t n);

/* Chunk payload readers (read_source.c, read_compiled.c). */
blvl_status blvl__import_hmap_read_meta(blvl__cursor *c, blvl_hmap *map);
blvl_status blvl__import_hmap_read_mats(blvl__cursor *c, blvl_hmap *map);
blvl_status blvl__import_hmap_read_brsh(blvl__cursor *c, blvl_hmap *map);
blvl_status blvl__import_hmap_read_mesh(blvl__cursor *c, blvl_hmap *map);
blvl_status blvl__import_hmap_read_ents(blvl__cursor *c, blvl_hmap *map);
blvl_status blvl__import_hmap_read_cmpl(blvl__cursor *c, blvl_hmap *map);

/* The BSP's links form a tree, its indices are in range, its depth is the tree's (bsp.c).
 * `at` = the file offset of the BSP's root field. */
blvl_status blvl__import_hmap_check_bsp(blvl__cursor *c, const blvl_hmap_bsp *bsp, uint64_t at);
/* Checks across chunks, once all are read: header flags, material indices (check.c). */
blvl_status blvl__import_hmap_check_map(const blvl_hmap *map, blvl_error *err);

/* Strict UTF-8: 0 when valid; else the index of the first bad byte in *at and why. */
const char *blvl__import_hmap_utf8_error(const uint8_t *s, uint32_t n, uint32_t *at);

/* A 4-byte tag as printable text ("BRSH", or "\x00AB\xff"); buf holds at least 17 bytes. */
void blvl__import_hmap_tag_text(const uint8_t tag[4], char *buf);

#endif
