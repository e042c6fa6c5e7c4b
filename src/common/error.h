/* Filling a blvl_error: every refusal goes through blvl__fail so the message names the rule. */
#ifndef BLVL_COMMON_ERROR_H
#define BLVL_COMMON_ERROR_H
#include <stdint.h>

#include "blvl/common.h"

#if defined(__GNUC__)
#define BLVL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define BLVL_PRINTF(a, b)
#endif

/* Sets err (when not NULL) to `code` and "<rule-name>: <message>"; returns `code`. */
blvl_status blvl__fail(blvl_error *err, blvl_status code, const char *fmt, ...) BLVL_PRINTF(3, 4);
/* An allocation failure (BLVL_E_NOMEM): err's message is "out-of-memory: <what>", `what`
 * (printf-style) naming what could not be allocated ("shader set", "%u records"); the rule
 * name says it was memory, so `what` never does. Returns BLVL_E_NOMEM. */
blvl_status blvl__nomem(blvl_error *err, const char *what, ...) BLVL_PRINTF(2, 3);
/* A source-format refusal (BLVL_E_SOURCE): err's message is exactly
 * "<part>: <field> at offset N: <rule>: <problem>", no status prefix (the CLI prints the file
 * before it). `part` is the chunk or record, `field` the path of the field, `offset` counts
 * from the source file's start, `rule` names the rule its importer's doc lists. */
blvl_status blvl__fail_source(blvl_error *err, const char *part, const char *field, uint64_t offset,
                              const char *rule, const char *fmt, ...) BLVL_PRINTF(6, 7);
/* The text of err's message after its "<rule>: " prefix (all of it when there is none, as in a
 * source refusal's): for a layer passing another's refusal on with context of its own, so the
 * rule is printed once. */
const char *blvl__error_text(const blvl_error *err);
/* Clears err to BLVL_OK. */
void blvl__ok(blvl_error *err);

#endif
