/* libFuzzer target, built once per root type as fuzz_fb_<tag> (FUZZ_TAG is the section's tag,
 * or bsym): the verifier on hostile bytes. A buffer it accepts must print as JSON without
 * leaving the buffer (ASan), and that JSON must build a buffer the verifier accepts. */
#include <stdlib.h>
#include <string.h>

#include "blvl/fb_json.h"
#include "blvl/sections.h"

#ifndef FUZZ_TAG
#error "FUZZ_TAG names the section"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const blvl_fb_type *type = blvl_schema_type(FUZZ_TAG);
    if (!type)
        abort();
    /* An aligned copy, as a section read from a level always is. */
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    if (size)
        memcpy(buf, data, size);
    blvl_error err;
    char *json;
    size_t jlen;
    if (blvl_fb_verify(buf, size, type, NULL, &err) == BLVL_OK &&
        blvl_fb_to_json(&json, &jlen, buf, size, type, 0, NULL, &err) == BLVL_OK) {
        void *again;
        size_t alen;
        if (blvl_fb_from_json(&again, &alen, json, jlen, type, NULL, &err) == BLVL_OK) {
            if (blvl_fb_verify(again, alen, type, NULL, &err) != BLVL_OK)
                abort();
            blvl_free(NULL, again);
        }
        blvl_free(NULL, json);
    }
    free(buf);
    return 0;
}
