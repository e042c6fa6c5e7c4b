/* libFuzzer target: the JSON parser (what `blvl pack TAG=FILE.json` feeds it) on hostile text.
 * The first byte picks the root schema (index into the generated registry, blvl__sections_roots:
 * the core tags in schema/core_tags.txt order, then schema/file_schemas.txt); the rest is the JSON.
 * Whatever it builds must verify, print, and print and parse must then be a fixpoint (the builder
 * is canonical). */
#include <stdlib.h>
#include <string.h>

#include "blvl/sections.h"
#include "sections/roots.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1)
        return 0;
    const blvl_fb_type *root = blvl__sections_roots[data[0] % blvl__sections_root_count].type;
    blvl_error err;
    void *out;
    size_t n;
    if (blvl_fb_from_json(&out, &n, (const char *)data + 1, size - 1, root, NULL, &err) != BLVL_OK)
        return 0;
    if (blvl_fb_verify(out, n, root, NULL, &err) != BLVL_OK)
        abort();
    char *json;
    size_t jlen;
    if (blvl_fb_to_json(&json, &jlen, out, n, root, 0, NULL, &err) != BLVL_OK)
        abort();
    void *again;
    size_t alen;
    if (blvl_fb_from_json(&again, &alen, json, jlen, root, NULL, &err) != BLVL_OK)
        abort();
    /* One print normalises strings that are not UTF-8 (the one lossy case); from then on
     * print and parse are a fixpoint. */
    char *json2;
    size_t jlen2;
    void *again2;
    size_t alen2;
    if (blvl_fb_to_json(&json2, &jlen2, again, alen, root, 0, NULL, &err) != BLVL_OK ||
        blvl_fb_from_json(&again2, &alen2, json2, jlen2, root, NULL, &err) != BLVL_OK)
        abort();
    if (alen2 != alen || memcmp(again2, again, alen) != 0)
        abort();
    blvl_free(NULL, again2);
    blvl_free(NULL, json2);
    blvl_free(NULL, again);
    blvl_free(NULL, json);
    blvl_free(NULL, out);
    return 0;
}
