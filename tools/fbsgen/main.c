/* fbsgen SCHEMA.fbs... --header-dir DIR --source-dir DIR
 * Parses every schema (and what they include), then writes DIR/<name>.h (reading, verifying),
 * DIR/<name>_builder.h (building) and DIR/<name>.c (type tables) for each file named on the
 * command line and each file they include. Output is deterministic. */
#include <stdlib.h>
#include <string.h>

#include "fbsgen.h"

static int write_file(const char *dir, const char *base, const char *ext, const schema *s,
                      const schema_file *f, int header) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, base, ext);
    FILE *out = fopen(path, "wb");
    if (!out) {
        fprintf(stderr, "fbsgen: cannot write %s\n", path);
        return -1;
    }
    int rc = header == 2 ? fbs_emit_builder_header(s, f, out)
             : header    ? fbs_emit_header(s, f, out)
                         : fbs_emit_source(s, f, out);
    if (fclose(out) != 0 || rc) {
        fprintf(stderr, "fbsgen: failed writing %s\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *hdir = NULL, *cdir = NULL;
    schema s;
    memset(&s, 0, sizeof s);
    int nschemas = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--header-dir") == 0 && i + 1 < argc)
            hdir = argv[++i];
        else if (strcmp(argv[i], "--source-dir") == 0 && i + 1 < argc)
            cdir = argv[++i];
        else if (strcmp(argv[i], "--help") == 0 || argv[i][0] == '-') {
            fprintf(stderr, "usage: fbsgen SCHEMA.fbs... --header-dir DIR --source-dir DIR\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        } else {
            if (fbs_parse_file(&s, argv[i]))
                return 1;
            nschemas++;
        }
    }
    if (!nschemas || !hdir || !cdir) {
        fprintf(stderr, "usage: fbsgen SCHEMA.fbs... --header-dir DIR --source-dir DIR\n");
        return 2;
    }
    if (fbs_resolve(&s))
        return 1;
    for (size_t i = 0; i < s.nfiles; i++) {
        const schema_file *f = &s.files[i];
        int tables = 0; /* a schema of enums and structs alone has nothing to build */
        for (size_t j = 0; j < s.ndefs; j++)
            tables += strcmp(s.defs[j]->file, f->base) == 0 && s.defs[j]->what == D_TABLE;
        if (write_file(hdir, f->base, ".h", &s, f, 1) ||
            (tables && write_file(hdir, f->base, "_builder.h", &s, f, 2)) ||
            write_file(cdir, f->base, ".c", &s, f, 0))
            return 1;
    }
    return 0;
}
