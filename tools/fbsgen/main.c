/* fbsgen SCHEMA.fbs... --header-dir DIR --source-dir DIR [--list-dir DIR]
 * Parses every schema (and what they include), then writes DIR/<name>.h (reading, verifying),
 * DIR/<name>_builder.h (building) and DIR/<name>.c (type tables) for each file named on the
 * command line and each file they include, the registry of root schemas (registry.h,
 * registry.c) and, with --list-dir, the lists core_tags.txt and file_schemas.txt. Output is
 * deterministic. */
#include <stdlib.h>
#include <string.h>

#include "fbsgen.h"

#define USAGE "usage: fbsgen SCHEMA.fbs... --header-dir DIR --source-dir DIR [--list-dir DIR]\n"

/* What goes into one output file. */
enum {
    OUT_HEADER,
    OUT_BUILDER,
    OUT_SOURCE,
    OUT_REG_HEADER,
    OUT_REG_SOURCE,
    OUT_CORE_LIST,
    OUT_FILE_LIST
};

static int write_file(const char *dir, const char *base, const char *ext, const schema *s,
                      const schema_file *f, const fbs_root *roots, size_t nroots, int what) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, base, ext);
    FILE *out = fopen(path, "wb");
    if (!out) {
        fprintf(stderr, "fbsgen: cannot write %s\n", path);
        return -1;
    }
    int rc = what == OUT_HEADER       ? fbs_emit_header(s, f, out)
             : what == OUT_BUILDER    ? fbs_emit_builder_header(s, f, out)
             : what == OUT_SOURCE     ? fbs_emit_source(s, f, out)
             : what == OUT_REG_HEADER ? fbs_emit_registry_header(roots, nroots, out)
             : what == OUT_REG_SOURCE ? fbs_emit_registry_source(roots, nroots, out)
                                      : fbs_emit_list(roots, nroots, what == OUT_CORE_LIST, out);
    if (fclose(out) != 0 || rc) {
        fprintf(stderr, "fbsgen: failed writing %s\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *hdir = NULL, *cdir = NULL, *ldir = NULL;
    schema s;
    memset(&s, 0, sizeof s);
    int nschemas = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--header-dir") == 0 && i + 1 < argc)
            hdir = argv[++i];
        else if (strcmp(argv[i], "--source-dir") == 0 && i + 1 < argc)
            cdir = argv[++i];
        else if (strcmp(argv[i], "--list-dir") == 0 && i + 1 < argc)
            ldir = argv[++i];
        else if (strcmp(argv[i], "--help") == 0 || argv[i][0] == '-') {
            fputs(USAGE, stderr);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        } else {
            if (fbs_parse_file(&s, argv[i]))
                return 1;
            nschemas++;
        }
    }
    if (!nschemas || !hdir || !cdir) {
        fputs(USAGE, stderr);
        return 2;
    }
    if (fbs_resolve(&s))
        return 1;
    fbs_root *roots = xmalloc((s.nfiles + 1) * sizeof *roots);
    int nroots = fbs_roots(&s, roots);
    if (nroots < 0)
        return 1;
    size_t nr = (size_t)nroots;
    for (size_t i = 0; i < s.nfiles; i++) {
        const schema_file *f = &s.files[i];
        int tables = 0; /* a schema of enums and structs alone has nothing to build */
        for (size_t j = 0; j < s.ndefs; j++)
            tables += strcmp(s.defs[j]->file, f->base) == 0 && s.defs[j]->what == D_TABLE;
        if (write_file(hdir, f->base, ".h", &s, f, roots, nr, OUT_HEADER) ||
            (tables && write_file(hdir, f->base, "_builder.h", &s, f, roots, nr, OUT_BUILDER)) ||
            write_file(cdir, f->base, ".c", &s, f, roots, nr, OUT_SOURCE))
            return 1;
    }
    if (write_file(hdir, "registry", ".h", &s, NULL, roots, nr, OUT_REG_HEADER) ||
        write_file(cdir, "registry", ".c", &s, NULL, roots, nr, OUT_REG_SOURCE))
        return 1;
    if (ldir && (write_file(ldir, "core_tags", ".txt", &s, NULL, roots, nr, OUT_CORE_LIST) ||
                 write_file(ldir, "file_schemas", ".txt", &s, NULL, roots, nr, OUT_FILE_LIST)))
        return 1;
    free(roots);
    return 0;
}
