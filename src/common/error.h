/* Filling a blvl_error: every refusal goes through blvl__fail so the message names the rule. */
#ifndef BLVL_COMMON_ERROR_H
#define BLVL_COMMON_ERROR_H
#include "blvl/common.h"

#if defined(__GNUC__)
#define BLVL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define BLVL_PRINTF(a, b)
#endif

/* Sets err (when not NULL) to `code` and "<rule-name>: <message>"; returns `code`. */
blvl_status blvl__fail(blvl_error *err, blvl_status code, const char *fmt, ...) BLVL_PRINTF(3, 4);
/* Clears err to BLVL_OK. */
void blvl__ok(blvl_error *err);

#endif
