/* Fuzz target: the entity string parser (blvl_q3_entities_parse). A refusal must be
 * BLVL_E_SOURCE shaped "entities: ... at offset N: <rule>: ..." with N inside the text; parsed
 * entities must hold NUL-terminated keys and values that occur in the text, each entity's offset
 * on a '{', in increasing order, and blvl_q3_entity_get must find every entity's first key.
 * Seeds: fuzz/corpus/q3_entities/ (hand-written entity strings). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blvl/q3.h"

static void need(int ok) {
    if (!ok)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_options opt;
    memset(&opt, 0, sizeof opt);
    blvl_error err;
    blvl_q3_entities e;
    memset(&e, 0, sizeof e);
    const char *text = (const char *)data;
    blvl_status st = blvl_q3_entities_parse(&e, text, size, &opt, &err);
    if (st != BLVL_OK) {
        need(st == BLVL_E_SOURCE);
        need(strncmp(err.message, "entities: ", 10) == 0);
        const char *at = strstr(err.message, " at offset ");
        need(at != NULL);
        need(strtoull(at + 11, NULL, 10) <= size);
        return 0;
    }
    uint32_t last = 0;
    for (uint32_t i = 0; i < e.count; i++) {
        const blvl_q3_entity *en = &e.items[i];
        need(en->offset < size && text[en->offset] == '{');
        need(i == 0 || en->offset > last);
        last = en->offset;
        for (uint32_t k = 0; k < en->pair_count; k++) {
            const blvl_q3_pair *p = &en->pairs[k];
            need(p->key && p->value);
            need(strlen(p->key) <= size && strlen(p->value) <= size);
        }
        if (en->pair_count) {
            const char *v = blvl_q3_entity_get(en, en->pairs[0].key);
            need(v != NULL);
            /* the first pair whose key matches without case */
            for (uint32_t k = 0; k < en->pair_count; k++)
                if (!strcasecmp(en->pairs[k].key, en->pairs[0].key)) {
                    need(v == en->pairs[k].value);
                    break;
                }
        }
    }
    blvl_q3_entities_free(&e);
    return 0;
}
