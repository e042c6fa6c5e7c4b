/* The input side of `blvl pack`: how each TAG=PATH is read and what its bytes are (raw, or
 * JSON built into a FlatBuffer), and the level rules checked before anything is written.
 * Kept apart from how the level is written (cli/cmd_pack.c). */
#ifndef BLVL_CLI_PACK_INPUT_H
#define BLVL_CLI_PACK_INPUT_H
#include "cli.h"

typedef enum pack_form {
    PACK_AUTO, /* TAG=PATH: a core section's JSON is recognised by its content */
    PACK_JSON, /* TAG=json:PATH */
    PACK_BIN   /* TAG=bin:PATH: the bytes as they are */
} pack_form;

typedef struct pack_input {
    char tag[BLVL_TAG_MAX + 1];
    const char *path;
    pack_form form;
    uint8_t *data; /* malloc'd, or the library's (built from JSON): see data_from_lib */
    size_t size;
    int data_from_lib; /* data was handed out by the library: blvl_free, not free */
    uint32_t version;
    uint32_t flags;
} pack_input;

/* Parses "TAG=PATH", "TAG=json:PATH" or "TAG=bin:PATH" into `in` (tag, path, form, identity
 * flag of a core tag). Returns CLI_OK or the usage error it printed. */
int pack_input_parse(const cli_help *h, const char *arg, pack_input *in);

/* Checks what the options asked of an input: a json: form needs a core tag with a schema at
 * payload version 0. Returns CLI_OK or the usage error it printed. */
int pack_input_check_form(const cli_help *h, const pack_input *in);

/* Reads the input (bounded: cli_read_input) and, for JSON, builds the section's FlatBuffer.
 * Returns CLI_OK or CLI_FAILED after the one-line report. */
int pack_input_load(pack_input *in);
/* Frees the input's bytes, by whoever allocated them. */
void pack_input_free(pack_input *in);

/* The level rules `blvl verify` applies (meta and sim present at a known payload version,
 * every core section passing the FlatBuffers verifier of its root type), run on the loaded
 * inputs before anything is written; a refusal is reported against OUT with verify's message.
 * Returns CLI_OK or CLI_FAILED. */
int pack_check_level(const char *out, const pack_input *in, int n);
#endif
