/* A random Riot engine (Drakan) level generator for the io and bake tests, the fuzz seeds and the
 * benchmark (tests/support/riot_gen.c).
 *
 * It builds a blvl_riot_level by hand (the public structs of blvl/riot.h, malloc'd; nothing of
 * the library is called) that the caller writes with blvl_riot_write: layers with
 * compressed == NULL (the writer deflates them), strings as text only (the writer pads odd
 * ones). The same options give the same level.
 *
 * What it holds: layers of every type (0 floor, 1 ceiling, 2 between, in turn), both cell
 * divisions, hole (0xFFFFFFFF) and invisible (0xFFFFFFFE) triangles, vertex types 0..75, heights
 * around the 0x8000 bias, visible-layer lists, odd- and even-length strings (level name,
 * database paths, layer names, group names, parameter names), groups of layer ids, objects
 * scaled and unscaled with links, parameter data, indices and definitions. Options leave out
 * the groups or objects record, and `unusual` gives the level a container of its own: directory
 * order 0x0020, an unknown 0x0042, 0x0002, 0x0000, 0x0001; in the file one fill byte, 0x0001
 * (at offset 13), three fill bytes, the directory, one fill byte, then 0x0000, the unknown
 * record, 0x0020, 0x0002 and five trailing bytes: bodies at odd offsets, the directory not
 * last. */
#ifndef BLVL_TEST_RIOT_GEN_H
#define BLVL_TEST_RIOT_GEN_H
#include <stdbool.h>
#include <stdint.h>

#include "blvl/riot.h"

typedef struct riot_gen_opts {
    uint64_t seed;
    uint32_t layers;        /* 0 = 3 (one of each type) */
    uint32_t width, height; /* cells per layer; 0 = 2..6 picked by the seed per layer */
    uint32_t objects;       /* objects in 0x0020; 0 = no objects record */
    bool no_groups;         /* leave the 0x0002 record out */
    bool unusual;           /* the container layout above */
    bool flat;              /* every vertex at raw height 0x8000, every cell drawn (no holes) */
} riot_gen_opts;

/* Builds the level; 0 on success, -1 when out of memory. Free with riot_gen_free (not
 * blvl_riot_free: the generator uses malloc). */
int riot_gen_build(const riot_gen_opts *o, blvl_riot_level *level);
void riot_gen_free(blvl_riot_level *level);

/* Compares every field the records hold (not `srsc`, not `compressed`): strings by their text
 * and stored size, floats bit for bit. 0 when equal; else 1 and a description in `why`. */
int riot_gen_compare(const blvl_riot_level *a, const blvl_riot_level *b, char *why, size_t n);

/* The stored size of a string built from text: the text's length, plus one for an odd one. */
uint16_t riot_gen_str_size(const char *text);

#endif
