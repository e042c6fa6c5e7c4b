/* `blvl diag LEVEL --dump KIND [--json]`: one tab-separated row per element, or their JSON
 * (cli/diag_dump.c). */
#ifndef BLVL_CLI_DIAG_DUMP_H
#define BLVL_CLI_DIAG_DUMP_H
#include <stddef.h>
#include <stdint.h>

#include "blvl/blvl.h"

/* colliders, batches, materials, entities, spawns */
int cli_diag_dump_kind_valid(const char *kind);
/* Prints the table, or with `json` one JSON document {"file", KIND: [rows]} (docs/CLI.md);
 * `sym_data` (may be NULL) adds the symbols columns. Returns the exit status. */
int cli_diag_dump(const char *file, blvl_level *level, const char *kind, int json,
                  const char *sym_path, const uint8_t *sym_data, size_t sym_size);
#endif
