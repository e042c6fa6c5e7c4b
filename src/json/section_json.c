/* JSON of a core section by tag (what `blvl dump` prints and `blvl pack TAG=FILE.json` builds),
 * apart from section.c so reading sections links no JSON or builder code. */
#include <stdio.h>
#include <string.h>

#include "blvl/fb_json.h"
#include "blvl/sections.h"
#include "common/error.h"
#include "sections/sections_internal.h"

blvl_status blvl_section_to_json(char **out, size_t *out_len, const char *tag, const void *bytes,
                                 size_t size, unsigned indent, const blvl_options *opt,
                                 blvl_error *err) {
    const blvl_fb_type *t = blvl__sections_type_or_fail(tag, err);
    return t ? blvl_fb_to_json(out, out_len, bytes, size, t, indent, opt, err) : BLVL_E_ARGUMENT;
}

blvl_status blvl_section_from_json(void **out, size_t *out_size, const char *tag, const char *json,
                                   size_t len, const blvl_options *opt, blvl_error *err) {
    const blvl_fb_type *t = blvl__sections_type_or_fail(tag, err);
    if (!t)
        return BLVL_E_ARGUMENT;
    void *data = NULL;
    blvl_status st = blvl_fb_from_json(&data, out_size, json, len, t, opt, err);
    *out = data;
    /* "flatbuffer: json: Sim.colliders[7].flags: ..." names the value from the root type; name
     * it from the tag instead, as a user wrote it: "sim.colliders[7].flags". */
    const char *head = "json: ", *text = err ? blvl__error_text(err) : "";
    size_t hl = strlen(head), rl = strlen(t->name);
    if (st == BLVL_E_FLATBUFFER && err && strncmp(text, head, hl) == 0 &&
        strncmp(text + hl, t->name, rl) == 0 &&
        (text[hl + rl] == '.' || text[hl + rl] == ':' || text[hl + rl] == '[')) {
        char rest[sizeof err->message];
        snprintf(rest, sizeof rest, "%s", text + hl + rl);
        blvl__fail(err, st, "json: %s%s", tag, rest);
    }
    return st;
}
