/* How `blvl pack` reads its inputs and checks the level before writing (pack_input.h).
 *
 * A core section's input is JSON or its FlatBuffer. `json:` and `bin:` in front of PATH say
 * which; without them the content decides, whatever the file's name (stdin included): the
 * input is JSON when its first byte other than JSON whitespace (and a UTF-8 byte order mark)
 * is '{' and it does not pass the FlatBuffers verifier of the tag's root type. A FlatBuffer
 * starts with the u32 offset of its root table, which must be a multiple of 4: a first byte
 * of '{' (0x7B), tab, newline, return or the mark's 0xEF makes that offset odd or 2 mod 4, so
 * such a buffer is never valid and the verifier is only asked when the JSON starts with
 * spaces. docs/CLI.md records the rule. */
#include "pack_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/sections.h"

int pack_input_parse(const cli_help *h, const char *arg, pack_input *in) {
    const char *path = cli_split_tag(arg, in->tag);
    if (!path)
        return cli_usage(h, "'%s' is not TAG=PATH with a tag of 1..16 bytes of [a-z0-9._-]", arg);
    in->form = PACK_AUTO;
    if (strncmp(path, "json:", 5) == 0)
        in->form = PACK_JSON, path += 5;
    else if (strncmp(path, "bin:", 4) == 0)
        in->form = PACK_BIN, path += 4;
    if (!*path)
        return cli_usage(h, "'%s' names no PATH", arg);
    in->path = path;
    bool core = false;
    blvl_tag_valid(in->tag, &core);
    in->flags = core ? BLVL_ENTRY_FLAG_IDENTITY : 0;
    return CLI_OK;
}

/* A core tag with a schema this program builds: JSON applies to it. */
static int has_schema(const pack_input *in) {
    bool core = false;
    blvl_tag_valid(in->tag, &core);
    return core && blvl_section_type(in->tag, NULL) && in->version == BLVL_SECTION_VERSION;
}

int pack_input_check_form(const cli_help *h, const pack_input *in) {
    if (in->form == PACK_JSON && !has_schema(in))
        return cli_usage(h,
                         "%s=json:%s: JSON input is for a core section with a schema (meta, sim, "
                         "geometry, ...) at payload version %u",
                         in->tag, in->path, BLVL_SECTION_VERSION);
    return CLI_OK;
}

static int looks_like_json(const pack_input *in) {
    const uint8_t *p = in->data, *end = in->data + in->size;
    if (end - p >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
        p += 3;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    if (p == end || *p != '{')
        return 0;
    /* only a start of spaces leaves the root offset aligned: then the verifier decides */
    return in->data[0] != ' ' ||
           blvl_section_verify_bytes(in->tag, in->data, in->size, NULL, NULL) != BLVL_OK;
}

int pack_input_load(pack_input *in) {
    if (cli_read_input(in->path, &in->data, &in->size) != CLI_OK)
        return CLI_FAILED;
    if (!has_schema(in) || in->form == PACK_BIN || (in->form == PACK_AUTO && !looks_like_json(in)))
        return CLI_OK;
    const char *shown = strcmp(in->path, "-") == 0 ? "stdin" : in->path;
    void *fb = NULL;
    size_t size = 0, bom = 0;
    if (in->size >= 3 && memcmp(in->data, "\xEF\xBB\xBF", 3) == 0)
        bom = 3; /* JSON text may carry one (RFC 8259 lets a parser ignore it) */
    blvl_error err;
    if (blvl_section_from_json(&fb, &size, in->tag, (const char *)in->data + bom, in->size - bom,
                               NULL, &err) != BLVL_OK)
        return cli_fail(shown, &err);
    free(in->data);
    in->data = fb;
    in->size = size;
    in->data_from_lib = 1;
    return CLI_OK;
}

void pack_input_free(pack_input *in) {
    if (in->data_from_lib)
        blvl_free(NULL, in->data);
    else
        free(in->data);
    in->data = NULL;
    in->data_from_lib = 0;
}

int pack_check_level(const char *out, const pack_input *in, int n) {
    blvl_section_in *secs = calloc((size_t)(n ? n : 1), sizeof *secs);
    if (!secs)
        return cli_failf(out, BLVL_E_NOMEM, "the level check");
    for (int i = 0; i < n; i++)
        secs[i] = (blvl_section_in){in[i].tag, in[i].version, in[i].flags, in[i].data, in[i].size};
    blvl_error err;
    blvl_status st = blvl_sections_check(secs, (size_t)n, NULL, &err);
    free(secs);
    return st == BLVL_OK ? CLI_OK : cli_fail(out, &err);
}
