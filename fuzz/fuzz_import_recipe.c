/* Fuzz target: the import front door's detection and its recipe and options-line parser
 * (src/import/front/). The input is a recipe named /nonexistent/x.recipe; inputs holding '/'
 * are skipped, so every path the recipe names resolves under a folder that does not exist and
 * the fuzzer never reads (or scans) the machine's files. Nothing can bake, so every input is
 * refused: a refusal of a line must be BLVL_E_SOURCE shaped "line N: <field> at offset M:
 * <rule>: <problem>" and name the recipe (docs/IMPORT.md, "Recipes"); any other status must
 * carry a message. Seeds: fuzz/corpus/import_recipe/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (memchr(data, '/', size))
        return 0;
    static const char name[] = "/nonexistent/x.recipe";
    blvl_import_format f = blvl_import_detect(NULL, data, size, name);
    if ((f == BLVL_IMPORT_RECIPE) != (size >= 12 && memcmp(data, "blvl-recipe ", 12) == 0))
        abort();
    if (f != BLVL_IMPORT_RECIPE)
        return 0;
    blvl_import_options opt = {0};
    opt.from = BLVL_IMPORT_RECIPE;
    blvl_import_report rep;
    blvl_error e;
    blvl_status st =
        blvl_import_bake_memory(&rep, name, data, size, "/nonexistent/out.blvl", NULL, &opt, &e);
    if (st == BLVL_OK || e.code != st || !e.message[0])
        abort();
    if (st == BLVL_E_SOURCE && !strncmp(e.message, "line ", 5)) {
        const char *at = strstr(e.message, " at offset ");
        if (!at || strcmp(rep.where, name) != 0 || !strstr(at, ": "))
            abort();
    }
    return 0;
}
