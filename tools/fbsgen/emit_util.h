/* Literal formatting shared by the header and source emitters. */
#ifndef BLVL_FBSGEN_EMIT_UTIL_H
#define BLVL_FBSGEN_EMIT_UTIL_H
#include "fbsgen.h"

/* An integer constant of `kind` from its two's-complement bits. */
void emit_int_lit(FILE *o, uint64_t bits, int kind);
/* The shortest decimal that reads back as the same float/double; INFINITY and NAN by name. */
void emit_float_lit(FILE *o, double v, int is_f32);
/* A scalar field's default as a C constant of its kind. */
void emit_default(FILE *o, const field *f);
#endif
