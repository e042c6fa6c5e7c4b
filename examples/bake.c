/* Any source map this library reads -> a level and its symbols, through the library alone
 * (blvl/import.h): the format is detected from the bytes and name, archives and recipes
 * included. What `blvl bake` does, as a program to copy into a game's tools.
 *
 *   examples/bake INPUT OUT.blvl [--pk3 FILE_OR_DIR]... [--map NAME] [--symbols OUT.bsym]
 *
 * Build: cc bake.c $(pkg-config --cflags --libs blvl) */
#include <stdio.h>
#include <string.h>

#include "blvl/import.h"

static int usage(void) {
    fprintf(stderr, "usage: bake INPUT OUT.blvl [--pk3 FILE_OR_DIR]... [--map NAME] "
                    "[--symbols OUT.bsym]\n");
    return 2;
}

int main(int argc, char **argv) {
    static const char *pk3[BLVL_IMPORT_MAX_PK3];
    blvl_import_options opt = {0}; /* zero: detect the format, every default, malloc */
    const char *symbols = NULL;
    opt.pk3 = pk3;
    if (argc < 3)
        return usage();
    for (int i = 3; i < argc; i++) {
        if (i + 1 >= argc)
            return usage();
        if (!strcmp(argv[i], "--pk3") && opt.pk3_count < BLVL_IMPORT_MAX_PK3)
            pk3[opt.pk3_count++] = argv[++i];
        else if (!strcmp(argv[i], "--map"))
            opt.map = argv[++i];
        else if (!strcmp(argv[i], "--symbols"))
            symbols = argv[++i];
        else
            return usage();
    }

    blvl_import_report report;
    blvl_error err;
    if (blvl_import_bake_file(&report, argv[1], argv[2], symbols, &opt, &err) != BLVL_OK) {
        fprintf(stderr, "bake: %s: %s\n", report.where, err.message);
        return 1;
    }
    printf("baked %s (%s): %u colliders, %u triangles, %u materials, %u entities\n", argv[2],
           blvl_import_format_name(report.format), report.stats.colliders, report.stats.triangles,
           report.stats.materials, report.stats.entities);
    if (report.q3.missing_images)
        fprintf(stderr, "bake: %u images not found (--pk3 gives the game's archives)\n",
                report.q3.missing_images);
    return 0;
}
