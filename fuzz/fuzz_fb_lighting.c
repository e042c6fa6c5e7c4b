/* libFuzzer target: the Lighting verifier on hostile bytes. A buffer it accepts must print as JSON
 * without leaving the buffer (ASan), and that JSON must build a buffer the verifier accepts. */
#include <stdlib.h>
#include <string.h>

#include "blvl/sections/lighting.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* An aligned copy, as a section read from a level always is. */
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    if (size)
        memcpy(buf, data, size);
    blvl_error err;
    char *json;
    size_t jlen;
    if (blvl_Lighting_verify(buf, size, &err) == BLVL_OK &&
        blvl_fb_to_json(buf, size, &blvl_Lighting_type, 0, NULL, &json, &jlen, &err) == BLVL_OK) {
        uint8_t *again;
        size_t alen;
        if (blvl_fb_from_json(json, jlen, &blvl_Lighting_type, NULL, &again, &alen, &err) ==
            BLVL_OK) {
            if (blvl_Lighting_verify(again, alen, &err) != BLVL_OK)
                abort();
            blvl_fb_free(NULL, again, alen);
        }
        blvl_fb_free(NULL, json, jlen + 1);
    }
    free(buf);
    return 0;
}
