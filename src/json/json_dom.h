/* JSON text to a small DOM: the tokenizer and parser of blvl_fb_from_json, apart from the
 * FlatBuffer build (json_parse.c), which walks the tree. Internal. */
#ifndef BLVL_FB_JSON_DOM_H
#define BLVL_FB_JSON_DOM_H
#include <stddef.h>
#include <stdint.h>

#include "blvl/common.h"

/* Nesting deeper than this is refused, by the parser and by the build. */
#define JSON_MAX_DEPTH 200u

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct json_node {
    uint8_t type;
    uint8_t truth;
    uint32_t key, key_len; /* offset in the string arena (object members) */
    uint32_t str, len;     /* J_STR: decoded text in the arena; J_NUM: raw text in the input */
    uint32_t child, count; /* first child (J_ARR / J_OBJ), number of children */
    uint32_t next;         /* next sibling, 0 = none (node 0 is the root and never a sibling) */
} json_node;

typedef struct json_dom {
    const blvl_allocator *a;
    const char *s;
    size_t len, pos;
    json_node *nodes; /* node 0 is "no node" */
    size_t nnodes, capnodes;
    char *arena; /* decoded strings and keys, each NUL-terminated */
    size_t arena_len, arena_cap;
    blvl_error *err;
    blvl_status st;
} json_dom;

/* Parses json[0..len) (len <= 0xFFFFFFF0) into *d: returns the root's node, or 0 with d->st
 * and err set ("json line L column C: ..."). Free with blvl__json_dom_free either way. */
uint32_t blvl__json_dom_parse(json_dom *d, const char *json, size_t len, const blvl_allocator *a,
                              blvl_error *err);
void blvl__json_dom_free(json_dom *d);
#endif
