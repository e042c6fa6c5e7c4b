/* The .shader parser's pieces: an arena the set owns, the tokeniser, and one keyword line at a
 * time handed to the general (shader_keywords.c) or stage (shader_stage.c) readers. */
#ifndef BLVL_IMPORT_Q3_SHADER_INTERNAL_H
#define BLVL_IMPORT_Q3_SHADER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blvl/q3_shader.h"

/* Bump allocator: blocks from the set's allocator, freed together. */
typedef struct q3s_block q3s_block;
typedef struct q3s_arena {
    const blvl_allocator *a;
    q3s_block *head;
    size_t used, cap; /* of head */
} q3s_arena;

void *blvl__import_q3_shader_arena_alloc(q3s_arena *ar,
                                         size_t size); /* zeroed, 8-aligned; NULL: no memory */
char *blvl__import_q3_shader_arena_str(q3s_arena *ar, const char *s, size_t n);
void blvl__import_q3_shader_arena_free(q3s_arena *ar);
/* Undo every allocation made since `mark` was taken (a refused script leaves nothing). */
typedef struct q3s_mark {
    q3s_block *head;
    size_t used, cap;
} q3s_mark;
q3s_mark blvl__import_q3_shader_arena_mark(const q3s_arena *ar);
void blvl__import_q3_shader_arena_rollback(q3s_arena *ar, q3s_mark m);

/* One keyword line: the keyword, then its arguments (tokens before the end of the line or a
 * brace). A reader sets `used` to the arguments it consumed, as the engine reads them one by
 * one: the rest are read again as keywords ("map $lightmap rgbGen identity" on one line). A
 * keyword kept unread consumes its whole line, as the engine skips the rest of it. */
typedef struct q3s_tok {
    const char *p;
    size_t n;
} q3s_tok;
typedef struct q3s_line {
    q3s_tok kw;
    q3s_tok arg[BLVL_Q3_SHADER_MAX_ARGS];
    uint32_t argc, used;
    size_t offset;                           /* of the keyword */
    size_t end[BLVL_Q3_SHADER_MAX_ARGS + 1]; /* end[i]: after argument i - 1 (end[0]: keyword) */
} q3s_line;

/* Per-block scratch the readers fill; shader_parse.c copies it into the arena. */
typedef struct q3s_list {
    const char *item[BLVL_Q3_SHADER_MAX_LIST];
    uint32_t count;
} q3s_list;

typedef struct q3s_parse {
    q3s_arena *ar;
    const char *script;
    blvl_error *err;
    q3s_list unknown, params, stage_unknown;
    size_t block_offset;
} q3s_parse;

/* Token helpers (case-insensitive compare against a C string). */
bool blvl__import_q3_shader_is(const q3s_tok *t, const char *s);
/* A number as the engine's atof reads the token's leading part; false when no digit or the
 * value is not finite. Parentheses around or glued to it are skipped. */
bool blvl__import_q3_shader_num(const q3s_tok *t, float *out);
/* `want` numbers from the line's arguments from index `from`, parentheses skipped as tokens or
 * glued ("(", "(1", "1)"); *next (may be NULL): the argument after the last one read, and
 * after a closing ")" token that follows it. False when a token is not a number or too few. */
bool blvl__import_q3_shader_nums(const q3s_line *l, uint32_t from, float *out, uint32_t want,
                                 uint32_t *next);
/* A wave "func base amp phase freq" from argument `from`; *next: the argument after it. */
bool blvl__import_q3_shader_wave(const q3s_line *l, uint32_t from, blvl_q3_wave *w, uint32_t *next);
/* Keep the line as "keyword args" in `list`; refuses when the list is full. */
blvl_status blvl__import_q3_shader_keep(q3s_parse *p, q3s_list *list, q3s_line *l,
                                        const char *what);
blvl_status blvl__import_q3_shader_refuse(q3s_parse *p, size_t at, const char *rule,
                                          const char *problem);

/* Read one keyword line into the shader (general keywords) or the stage; a keyword not read is
 * kept in p->unknown / p->stage_unknown. */
blvl_status blvl__import_q3_shader_general(q3s_parse *p, blvl_q3_shader *sh, q3s_line *l);
blvl_status blvl__import_q3_shader_stage(q3s_parse *p, blvl_q3_stage *st, q3s_line *l);

/* Parse a whole script into `out` (arena memory; *count shaders). */
blvl_status blvl__import_q3_shader_parse(q3s_arena *ar, const char *script, const char *text,
                                         size_t size, blvl_q3_shader **out, uint32_t *count,
                                         blvl_error *err);

#endif
