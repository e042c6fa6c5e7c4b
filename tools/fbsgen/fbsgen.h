/* fbsgen: turns FlatBuffers schemas (.fbs) into typed C headers and type tables for libblvl's
 * runtime (include/blvl/fb.h). It understands the subset docs/FLATBUFFERS.md lists. */
#ifndef BLVL_FBSGEN_H
#define BLVL_FBSGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Kinds, numbered like blvl_fb_kind in include/blvl/fb.h. */
enum {
    K_NONE = 0,
    K_BOOL,
    K_I8,
    K_U8,
    K_I16,
    K_U16,
    K_I32,
    K_U32,
    K_I64,
    K_U64,
    K_F32,
    K_F64,
    K_STRING,
    K_STRUCT,
    K_TABLE,
    K_UNION,
    K_VECTOR,
    K_ARRAY
};

enum { D_ENUM = 1, D_UNION, D_STRUCT, D_TABLE };

struct def;

typedef struct field {
    char *name;
    char *doc;
    char *type_name; /* unresolved element or field type name */
    int is_vector, array_len;
    int kind, elem;  /* resolved */
    struct def *ref; /* struct / table / union (field or element) */
    struct def *enm; /* enum of a scalar or its elements */
    int id, explicit_id;
    unsigned offset; /* struct member */
    char *default_text;
    uint64_t def_bits;
    double def_real;
    int deprecated, required;
    int exact_len; /* blvl_length: a vector must hold exactly this many elements (0 = any) */
    int line;
} field;

typedef struct enum_val {
    char *name;
    char *doc;
    int64_t value;
    struct def *table; /* union member */
} enum_val;

typedef struct def {
    int what;
    char *name;
    char *doc;
    const char *file; /* schema base name without .fbs, e.g. "sim" */
    int underlying;   /* enum */
    int bit_flags;
    enum_val *vals;
    size_t nvals;
    field *fields;
    size_t nfields;
    unsigned size, align, force_align;
    int has_padding;
    int required_section; /* blvl_required_section on a core section's root table */
    int emitted;          /* struct topological emission */
} def;

typedef struct schema_file {
    char *path;
    const char *base; /* "sim" */
    char **includes;  /* base names of included files */
    size_t nincludes;
    char *root_type;
    char *file_identifier; /* 4 chars or NULL */
} schema_file;

typedef struct schema {
    def **defs; /* in declaration order over all files */
    size_t ndefs;
    schema_file *files;
    size_t nfiles;
} schema;

/* Lexer. */
typedef enum { T_EOF, T_IDENT, T_NUMBER, T_STRING, T_PUNCT } tok_kind;
typedef struct token {
    tok_kind kind;
    char *text;
    int line;
} token;
typedef struct comment {
    int line;
    int trailing; /* a token precedes it on its line */
    char *text;
} comment;
typedef struct lexed {
    token *toks;
    size_t ntoks;
    comment *comments;
    size_t ncomments;
} lexed;

int fbs_lex(const char *path, const char *src, lexed *out);

/* Parse `path` (and what it includes) into `s`. */
int fbs_parse_file(schema *s, const char *path);
/* Resolve types, assign ids, lay out structs, evaluate defaults. */
int fbs_resolve(schema *s);

int fbs_emit_header(const schema *s, const schema_file *f, FILE *out);
int fbs_emit_builder_header(const schema *s, const schema_file *f, FILE *out);
int fbs_emit_source(const schema *s, const schema_file *f, FILE *out);

/* The registry of root schemas: a schema with a root_type and no file_identifier is a core
 * section of a level, its tag the file's base name; one with a file_identifier is a file of its
 * own (bsym). Core sections come first, required ones first, each group by name. */
typedef struct fbs_root {
    const schema_file *file;
    const def *table;
    int core, required;
} fbs_root;
/* Fills roots (s->nfiles entries at most) and returns how many, or -1 on a bad root schema. */
int fbs_roots(const schema *s, fbs_root *roots);
int fbs_emit_registry_header(const fbs_root *r, size_t n, FILE *out);
int fbs_emit_registry_source(const fbs_root *r, size_t n, FILE *out);
/* One name a line: the core tags (core = 1) or the files of their own (core = 0). */
int fbs_emit_list(const fbs_root *r, size_t n, int core, FILE *out);

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
#define GROW(arr, n) ((arr) = xrealloc((arr), ((n) + 1) * sizeof *(arr)))

def *fbs_find(const schema *s, const char *name);
const char *kind_ctype(int kind);
const char *kind_enum(int kind);
const char *kind_suffix(int kind);
unsigned kind_size(int kind);

#endif
