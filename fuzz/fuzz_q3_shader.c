/* Fuzz target: the .shader script parser (src/import/q3/shader_*.c). A refusal must be
 * BLVL_E_SOURCE shaped "<script>: text at offset N: <rule>: <problem>" with N inside the input
 * and leave the set unchanged; a script that reads must give every shader a name that finds it
 * (or an earlier definition of the same name), and its lists and counts within the limits.
 * Seeds: fuzz/corpus/q3_shader/ (hand-written scripts). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/q3_shader.h"

static void walk(const blvl_q3_shader *sh) {
    if (!sh->name || strlen(sh->name) > BLVL_Q3_SHADER_MAX_NAME)
        abort();
    if (sh->stage_count > BLVL_Q3_SHADER_MAX_STAGES || sh->deform_count > 3 ||
        sh->unknown_count > BLVL_Q3_SHADER_MAX_LIST ||
        sh->surface_param_count > BLVL_Q3_SHADER_MAX_LIST)
        abort();
    size_t sum = 0;
    for (uint32_t i = 0; i < sh->unknown_count; i++)
        sum += strlen(sh->unknown[i]);
    for (uint32_t i = 0; i < sh->surface_param_count; i++)
        sum += strlen(sh->surface_params[i]);
    for (uint32_t i = 0; i < sh->stage_count; i++) {
        const blvl_q3_stage *st = &sh->stages[i];
        if (st->tcmod_count > BLVL_Q3_SHADER_MAX_TCMODS ||
            st->frame_count > BLVL_Q3_SHADER_MAX_FRAMES)
            abort();
        if (st->map_kind == BLVL_Q3_MAP_IMAGE && !st->map)
            abort();
        for (uint32_t k = 0; k < st->frame_count; k++)
            sum += strlen(st->frames[k]);
        for (uint32_t k = 0; k < st->unknown_count; k++)
            sum += strlen(st->unknown[k]);
    }
    (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_q3_shaders *s = NULL;
    blvl_error e;
    if (blvl_q3_shaders_new(&s, NULL, &e) != BLVL_OK)
        abort();
    /* A first script so a refusal can be seen to leave the set as it was. */
    static const char base[] = "base { sort 3 }\n";
    if (blvl_q3_shaders_add(s, "scripts/base.shader", base, sizeof base - 1, &e) != BLVL_OK)
        abort();
    blvl_status st = blvl_q3_shaders_add(s, "scripts/f.shader", (const char *)data, size, &e);
    if (st != BLVL_OK) {
        if (st != BLVL_E_SOURCE || e.code != st)
            abort();
        const char *prefix = "scripts/f.shader: text at offset ";
        if (strncmp(e.message, prefix, strlen(prefix)) != 0)
            abort();
        char *end;
        unsigned long long off = strtoull(e.message + strlen(prefix), &end, 10);
        if (off > size || strncmp(end, ": ", 2) != 0 || !strstr(end + 2, ": "))
            abort();
        if (blvl_q3_shaders_count(s) != 1 || !blvl_q3_shaders_find(s, "BASE"))
            abort();
    } else {
        const blvl_q3_shader *b = blvl_q3_shaders_find(s, "base");
        if (!b)
            abort();
        walk(b);
    }
    blvl_q3_shaders_free(s);
    return 0;
}
