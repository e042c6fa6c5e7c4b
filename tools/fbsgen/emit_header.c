/* The generated header of one schema file: enums, struct typedefs with layout asserts, table
 * handles, accessors, the root verifier and builders. Naming: docs/FLATBUFFERS.md. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fbsgen.h"
#include "emit_util.h"

static void doc(FILE *o, const char *indent, const char *text) {
    if (!text || !text[0])
        return;
    fprintf(o, "%s/* ", indent);
    for (const char *p = text; *p; p++) {
        if (p[0] == '*' && p[1] == '/')
            fputs("* ", o);
        else
            fputc(*p, o);
    }
    fputs(" */\n", o);
}

/* The C type of a scalar field or element (enum typedef when it has one). */
static void scalar_type(FILE *o, const def *enm, int kind, int in_struct) {
    if (enm)
        fprintf(o, "blvl_%s", enm->name);
    else if (kind == K_BOOL && in_struct)
        fputs("uint8_t", o);
    else
        fputs(kind_ctype(kind), o);
}

static void emit_enum(FILE *o, const def *d) {
    doc(o, "", d->doc);
    fprintf(o, "typedef %s blvl_%s;\n", kind_ctype(d->underlying), d->name);
    int all_int = 1;
    for (size_t i = 0; i < d->nvals; i++)
        if (d->vals[i].value > 2147483647LL || d->vals[i].value < -2147483647LL - 1)
            all_int = 0;
    if (all_int) {
        fprintf(o, "enum {\n");
        for (size_t i = 0; i < d->nvals; i++) {
            doc(o, "    ", d->vals[i].doc);
            fprintf(o, "    blvl_%s_%s = %lld,\n", d->name, d->vals[i].name,
                    (long long)d->vals[i].value);
        }
        fprintf(o, "};\n");
    } else {
        for (size_t i = 0; i < d->nvals; i++) {
            doc(o, "", d->vals[i].doc);
            fprintf(o, "#define blvl_%s_%s ((blvl_%s)", d->name, d->vals[i].name, d->name);
            emit_int_lit(o, (uint64_t)d->vals[i].value, d->underlying);
            fprintf(o, ")\n");
        }
    }
    fprintf(o, "BLVL_API extern const blvl_fb_enum blvl_%s_enum;\n\n", d->name);
}

static void emit_struct(FILE *o, const schema_file *file, def *d) {
    if (d->emitted)
        return;
    d->emitted = 1;
    for (size_t i = 0; i < d->nfields; i++) {
        def *r = d->fields[i].ref;
        if (r && r->what == D_STRUCT && strcmp(r->file, file->base) == 0)
            emit_struct(o, file, r);
    }
    doc(o, "", d->doc);
    fprintf(o, "typedef struct blvl_%s {\n", d->name);
    unsigned off = 0;
    for (size_t i = 0; i < d->nfields; i++) {
        const field *f = &d->fields[i];
        if (f->offset > off)
            fprintf(o, "    uint8_t pad%u_[%u];\n", off, f->offset - off);
        doc(o, "    ", f->doc);
        int k = f->array_len ? f->elem : f->kind;
        fputs("    ", o);
        if (k == K_STRUCT)
            fprintf(o, "blvl_%s", f->ref->name);
        else
            scalar_type(o, f->enm, k, 1);
        fprintf(o, " %s", f->name);
        if (f->array_len)
            fprintf(o, "[%d]", f->array_len);
        fputs(";\n", o);
        unsigned one = k == K_STRUCT ? f->ref->size : kind_size(k);
        off = f->offset + one * (unsigned)(f->array_len ? f->array_len : 1);
    }
    if (d->size > off)
        fprintf(o, "    uint8_t pad%u_[%u];\n", off, d->size - off);
    fprintf(o, "} blvl_%s;\n", d->name);
    fprintf(o, "BLVL_STATIC_ASSERT(sizeof(blvl_%s) == %u, \"blvl_%s is %u bytes on the wire\");\n",
            d->name, d->size, d->name, d->size);
    fprintf(o, "BLVL_STATIC_ASSERT(BLVL_ALIGNOF(blvl_%s) <= %u, \"blvl_%s alignment\");\n", d->name,
            d->align, d->name);
    for (size_t i = 0; i < d->nfields; i++)
        fprintf(o, "BLVL_STATIC_ASSERT(offsetof(blvl_%s, %s) == %u, \"blvl_%s.%s offset\");\n",
                d->name, d->fields[i].name, d->fields[i].offset, d->name, d->fields[i].name);
    fprintf(o, "BLVL_API extern const blvl_fb_type blvl_%s_type;\n\n", d->name);
}

#define T "static inline "

static void emit_accessors(FILE *o, const def *d) {
    const char *tn = d->name;
    fprintf(o, "/* %s: reading */\n", tn);
    for (size_t i = 0; i < d->nfields; i++) {
        const field *f = &d->fields[i];
        if (f->deprecated)
            continue;
        const char *fn = f->name;
        int id = f->id;
        doc(o, "", f->doc);
        switch (f->kind) {
        case K_STRING:
            fprintf(
                o,
                T "blvl_fb_str blvl_%s_%s(blvl_%s t) {\n    return blvl_fb_get_str(t.p_, %d);\n}\n",
                tn, fn, tn, id);
            break;
        case K_STRUCT:
            fprintf(o,
                    T "blvl_%s blvl_%s_%s(blvl_%s t) {\n    blvl_%s v;\n"
                      "    blvl_fb_get_struct(t.p_, %d, &v, sizeof v);\n    return v;\n}\n",
                    f->ref->name, tn, fn, tn, f->ref->name, id);
            break;
        case K_TABLE:
            fprintf(
                o,
                T
                "blvl_%s blvl_%s_%s(blvl_%s t) {\n    blvl_%s v = {blvl_fb_get_table(t.p_, %d)};\n"
                "    return v;\n}\n",
                f->ref->name, tn, fn, tn, f->ref->name, id);
            break;
        case K_UNION:
            fprintf(o,
                    T "blvl_%s blvl_%s_%s_type(blvl_%s t) {\n"
                      "    return (blvl_%s)blvl_fb_get_u8(t.p_, %d, 0);\n}\n",
                    f->ref->name, tn, fn, tn, f->ref->name, id - 1);
            for (size_t j = 1; j < f->ref->nvals; j++) {
                const enum_val *v = &f->ref->vals[j];
                fprintf(o,
                        T "blvl_%s blvl_%s_%s_as_%s(blvl_%s t) {\n"
                          "    blvl_%s v = {blvl_%s_%s_type(t) == blvl_%s_%s ? "
                          "blvl_fb_get_table(t.p_, %d) : NULL};\n    return v;\n}\n",
                        v->table->name, tn, fn, v->name, tn, v->table->name, tn, fn, f->ref->name,
                        v->name, id);
            }
            break;
        case K_VECTOR: {
            fprintf(o,
                    T "blvl_fb_vec blvl_%s_%s_vec(blvl_%s t) {\n    return blvl_fb_get_vec(t.p_, "
                      "%d);\n}\n",
                    tn, fn, tn, id);
            fprintf(o,
                    T "uint32_t blvl_%s_%s_len(blvl_%s t) {\n    return blvl_fb_get_vec(t.p_, "
                      "%d).len;\n}\n",
                    tn, fn, tn, id);
            if (f->elem == K_STRING) {
                fprintf(o,
                        T "blvl_fb_str blvl_%s_%s_at(blvl_%s t, uint32_t i) {\n"
                          "    return blvl_fb_vec_str(blvl_fb_get_vec(t.p_, %d), i);\n}\n",
                        tn, fn, tn, id);
            } else if (f->elem == K_TABLE) {
                fprintf(o,
                        T "blvl_%s blvl_%s_%s_at(blvl_%s t, uint32_t i) {\n"
                          "    blvl_%s v = {blvl_fb_vec_table(blvl_fb_get_vec(t.p_, %d), i)};\n"
                          "    return v;\n}\n",
                        f->ref->name, tn, fn, tn, f->ref->name, id);
            } else if (f->elem == K_STRUCT) {
                const char *sn = f->ref->name;
                fprintf(o,
                        T "blvl_%s blvl_%s_%s_at(blvl_%s t, uint32_t i) {\n    blvl_%s v;\n"
                          "    memset(&v, 0, sizeof v);\n"
                          "    blvl_fb_vec_copy(blvl_fb_get_vec(t.p_, %d), sizeof v, i, &v, 1);\n"
                          "    return v;\n}\n",
                        sn, tn, fn, tn, sn, id);
                fprintf(
                    o,
                    "/* Copies elements [first, first + count) into dst; returns how many. */\n" T
                    "size_t blvl_%s_%s_copy(blvl_%s t, size_t first, blvl_%s *dst, size_t count) "
                    "{\n"
                    "    return blvl_fb_vec_copy(blvl_fb_get_vec(t.p_, %d), sizeof *dst, first, "
                    "dst, count);\n}\n",
                    tn, fn, tn, sn, id);
            } else {
                fprintf(o, T);
                scalar_type(o, f->enm, f->elem, 0);
                fprintf(o, " blvl_%s_%s_at(blvl_%s t, uint32_t i) {\n    return (", tn, fn, tn);
                scalar_type(o, f->enm, f->elem, 0);
                fprintf(o, ")blvl_fb_vec_%s(blvl_fb_get_vec(t.p_, %d), i);\n}\n",
                        kind_suffix(f->elem), id);
                fprintf(
                    o,
                    "/* Copies elements [first, first + count) into dst; returns how many. */\n" T
                    "size_t blvl_%s_%s_copy(blvl_%s t, size_t first, %s *dst, size_t count) {\n"
                    "    return blvl_fb_vec_copy(blvl_fb_get_vec(t.p_, %d), sizeof *dst, first, "
                    "dst, count);\n}\n",
                    tn, fn, tn, f->elem == K_BOOL ? "uint8_t" : kind_ctype(f->elem), id);
            }
            break;
        }
        default:
            fputs(T, o);
            scalar_type(o, f->enm, f->kind, 0);
            fprintf(o, " blvl_%s_%s(blvl_%s t) {\n    return ", tn, fn, tn);
            if (f->kind == K_BOOL) {
                fprintf(o, "blvl_fb_get_bool(t.p_, %d, %s);\n}\n", id,
                        f->def_bits ? "true" : "false");
                break;
            }
            fputs("(", o);
            scalar_type(o, f->enm, f->kind, 0);
            fprintf(o, ")blvl_fb_get_%s(t.p_, %d, ", kind_suffix(f->kind), id);
            emit_default(o, f);
            fputs(");\n}\n", o);
        }
        if (f->kind != K_VECTOR)
            fprintf(
                o, T "bool blvl_%s_%s_present(blvl_%s t) {\n    return blvl_fb_has(t.p_, %d);\n}\n",
                tn, fn, tn, id);
    }
    fputs("\n", o);
}

static void emit_builders(FILE *o, const def *d) {
    const char *tn = d->name;
    fprintf(o, "/* %s: building */\n", tn);
    fprintf(o, T "void blvl_%s_start(blvl_fb_builder *b) {\n    blvl_fb_table_start(b);\n}\n", tn);
    fprintf(
        o, T "blvl_fb_ref blvl_%s_end(blvl_fb_builder *b) {\n    return blvl_fb_table_end(b);\n}\n",
        tn);
    for (size_t i = 0; i < d->nfields; i++) {
        const field *f = &d->fields[i];
        if (f->deprecated)
            continue;
        const char *fn = f->name;
        int id = f->id;
        switch (f->kind) {
        case K_STRUCT:
            fprintf(o,
                    T "void blvl_%s_add_%s(blvl_fb_builder *b, const blvl_%s *v) {\n"
                      "    blvl_fb_add_struct(b, %d, &blvl_%s_type, v);\n}\n",
                    tn, fn, f->ref->name, id, f->ref->name);
            break;
        case K_UNION:
            fprintf(o,
                    T "void blvl_%s_add_%s(blvl_fb_builder *b, blvl_%s type, blvl_fb_ref v) {\n"
                      "    blvl_fb_add_union(b, %d, type, v);\n}\n",
                    tn, fn, f->ref->name, id);
            break;
        case K_STRING:
        case K_TABLE:
        case K_VECTOR:
            fprintf(o,
                    T "void blvl_%s_add_%s(blvl_fb_builder *b, blvl_fb_ref v) {\n"
                      "    blvl_fb_add_ref(b, %d, v);\n}\n",
                    tn, fn, id);
            if (f->kind == K_VECTOR && f->elem == K_STRUCT)
                fprintf(o,
                        T "blvl_fb_ref blvl_%s_%s_create(blvl_fb_builder *b, const blvl_%s *v, "
                          "size_t n) {\n"
                          "    return blvl_fb_create_struct_vector(b, &blvl_%s_type, v, n);\n}\n",
                        tn, fn, f->ref->name, f->ref->name);
            else if (f->kind == K_VECTOR && f->elem <= K_F64) {
                fprintf(o, T "blvl_fb_ref blvl_%s_%s_create(blvl_fb_builder *b, const ", tn, fn);
                if (f->elem == K_BOOL)
                    fputs("uint8_t", o);
                else
                    scalar_type(o, f->enm, f->elem, 0);
                fprintf(o,
                        " *v, size_t n) {\n    return blvl_fb_create_vector(b, v, n, %u, %u);\n}\n",
                        kind_size(f->elem), kind_size(f->elem));
            }
            break;
        default:
            fprintf(o, T "void blvl_%s_add_%s(blvl_fb_builder *b, ", tn, fn);
            scalar_type(o, f->enm, f->kind, 0);
            if (f->kind == K_BOOL) {
                fprintf(o, " v) {\n    blvl_fb_add_bool(b, %d, v, %s);\n}\n", id,
                        f->def_bits ? "true" : "false");
                break;
            }
            fprintf(o, " v) {\n    blvl_fb_add_%s(b, %d, v, ", kind_suffix(f->kind), id);
            emit_default(o, f);
            fputs(");\n}\n", o);
        }
    }
    fputs("\n", o);
}

int fbs_emit_header(const schema *s, const schema_file *file, FILE *o) {
    char guard[128];
    snprintf(guard, sizeof guard, "BLVL_SECTIONS_%s_H", file->base);
    for (char *p = guard; *p; p++)
        *p = (char)(isalnum((unsigned char)*p) ? toupper((unsigned char)*p) : '_');
    fprintf(
        o,
        "/* Generated by fbsgen from schema/%s.fbs. Do not edit: run scripts/gen-sections.sh. */\n",
        file->base);
    /* a reader needs no builder and no JSON: <name>_builder.h holds the building half */
    fprintf(o,
            "#ifndef %s\n#define %s\n\n#include <math.h>\n\n#include \"blvl/api.h\"\n"
            "#include \"blvl/fb_reader.h\"\n"
            "#include \"blvl/fb_types.h\"\n#include \"blvl/fb_verifier.h\"\n",
            guard, guard);
    for (size_t i = 0; i < file->nincludes; i++)
        fprintf(o, "#include \"blvl/sections/%s.h\"\n", file->includes[i]);
    fputs("\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", o);
    for (size_t i = 0; i < s->ndefs; i++) {
        const def *d = s->defs[i];
        if (strcmp(d->file, file->base) == 0 && (d->what == D_ENUM || d->what == D_UNION))
            emit_enum(o, d);
    }
    for (size_t i = 0; i < s->ndefs; i++) {
        def *d = s->defs[i];
        if (strcmp(d->file, file->base) == 0 && d->what == D_STRUCT)
            emit_struct(o, file, d);
    }
    for (size_t i = 0; i < s->ndefs; i++) {
        const def *d = s->defs[i];
        if (strcmp(d->file, file->base) != 0 || d->what != D_TABLE)
            continue;
        doc(o, "", d->doc);
        fprintf(o,
                "typedef struct blvl_%s {\n    const uint8_t *p_; /* NULL: absent, reads as empty "
                "*/\n} blvl_%s;\n",
                d->name, d->name);
        fprintf(o, "BLVL_API extern const blvl_fb_type blvl_%s_type;\n", d->name);
    }
    fputs("\n", o);
    for (size_t i = 0; i < s->ndefs; i++) {
        const def *d = s->defs[i];
        if (strcmp(d->file, file->base) == 0 && d->what == D_TABLE)
            emit_accessors(o, d);
    }
    if (file->root_type) {
        const def *r = fbs_find(s, file->root_type);
        if (!r || r->what != D_TABLE) {
            fprintf(stderr, "fbsgen: root_type %s is not a table\n", file->root_type);
            return -1;
        }
        fprintf(
            o,
            "/* Verify a %s buffer before reading it (BLVL_E_FLATBUFFER names what failed). */\n" T
            "blvl_status blvl_%s_verify(const void *buf, size_t size, blvl_error *err) {\n"
            "    return blvl_fb_verify(buf, size, &blvl_%s_type, NULL, err);\n}\n"
            "/* The root of a verified buffer. */\n" T
            "blvl_%s blvl_%s_root(const void *buf) {\n    blvl_%s t = {blvl_fb_root(buf)};\n"
            "    return t;\n}\n",
            r->name, r->name, r->name, r->name, r->name, r->name);
        if (file->file_identifier)
            fprintf(o,
                    "/* The schema's file_identifier: bytes 4..8 of every %s buffer (the verifier "
                    "checks it). */\n#define blvl_%s_file_identifier \"%s\"\n",
                    r->name, r->name, file->file_identifier);
        fputs("\n", o);
    }
    fprintf(o, "#ifdef __cplusplus\n}\n#endif\n#endif\n");
    return ferror(o) ? -1 : 0;
}

/* <name>_builder.h: the building half of a schema's generated code. */
int fbs_emit_builder_header(const schema *s, const schema_file *file, FILE *o) {
    char guard[128];
    snprintf(guard, sizeof guard, "BLVL_SECTIONS_%s_BUILDER_H", file->base);
    for (char *p = guard; *p; p++)
        *p = (char)(isalnum((unsigned char)*p) ? toupper((unsigned char)*p) : '_');
    fprintf(
        o,
        "/* Generated by fbsgen from schema/%s.fbs. Do not edit: run scripts/gen-sections.sh. */\n",
        file->base);
    fprintf(o,
            "#ifndef %s\n#define %s\n\n#include \"blvl/fb_builder.h\"\n"
            "#include \"blvl/sections/%s.h\"\n",
            guard, guard, file->base);
    fputs("\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", o);
    if (file->root_type) {
        const def *r = fbs_find(s, file->root_type);
        fprintf(o,
                "/* Finish a %s buffer built with the builder functions below%s. */\n" T
                "blvl_status blvl_%s_finish(blvl_fb_builder *b, blvl_fb_ref root, const uint8_t "
                "**data, size_t *size, blvl_error *err) {\n"
                "    return blvl_fb_finish_id(b, root, blvl_%s_type.file_identifier, data, size, "
                "err);\n}\n\n",
                r->name, file->file_identifier ? " (writes the file identifier)" : "", r->name,
                r->name);
    }
    for (size_t i = 0; i < s->ndefs; i++) {
        const def *d = s->defs[i];
        if (strcmp(d->file, file->base) == 0 && d->what == D_TABLE)
            emit_builders(o, d);
    }
    fprintf(o, "#ifdef __cplusplus\n}\n#endif\n#endif\n");
    return ferror(o) ? -1 : 0;
}
