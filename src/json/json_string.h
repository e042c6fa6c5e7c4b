/* The one JSON string escaper: every JSON writer (the FlatBuffers printer, the glTF export, the
 * CLI's reports and the viewer's events) writes strings through it, so they agree byte for byte.
 * The rule (docs/API.md, "JSON output"): well-formed UTF-8 is kept as it is; `"` and `\` are
 * escaped; control bytes below 0x20 and 0x7f are escaped (\n \t \r \b \f in their short forms,
 * the others as \u00XX); a byte sequence that is not well-formed UTF-8 (a stray continuation
 * byte, a lead byte 0xC0, 0xC1 or 0xF5..0xFF, an overlong form, an encoded surrogate, a code
 * point past U+10FFFF, a sequence cut short) becomes \ufffd, one per maximal ill-formed subpart
 * (Unicode's "substitution of maximal subparts", what Python's errors="replace" does). */
#ifndef BLVL_JSON_JSON_STRING_H
#define BLVL_JSON_JSON_STRING_H

#include <stddef.h>

/* Receives the output in pieces: a run of characters written as they are (whole UTF-8
 * sequences, never cut), one escape, or a quote. */
typedef void blvl__json_put(void *user, const char *bytes, size_t n);

/* Writes `s` (n bytes, NULs included) as one quoted JSON string through `put`. */
void blvl__json_string(const char *s, size_t n, blvl__json_put *put, void *user);

#endif
