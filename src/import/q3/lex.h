/* The tokeniser the entity lump and .shader scripts share, the engine's way: white space and
 * control bytes separate tokens, // and C comments are skipped, a quoted token runs to the next
 * quote (no escapes). Each caller turns a failure into its own refusal. */
#ifndef BLVL_IMPORT_Q3_LEX_H
#define BLVL_IMPORT_Q3_LEX_H

#include <stdbool.h>
#include <stddef.h>

typedef struct q3_lex {
    const char *s;
    size_t n, pos;
    /* after a failure: where, the rule ("comment", "quote") and the problem */
    size_t fail_at;
    const char *fail_rule, *fail_problem;
} q3_lex;

typedef struct q3_token {
    const char *p; /* the token's bytes, without quotes; NULL at the end of the text */
    size_t n;
    size_t at;    /* offset of its first byte (its opening quote, when quoted) */
    bool quoted;  /* it was written in quotes */
    bool newline; /* a line break lies between the previous token and this one */
} q3_token;

/* The next token into *t; false (and fail_*) on a comment or quote that never closes. */
bool blvl__import_q3_lex_next(q3_lex *l, q3_token *t);

#endif
