/* blvl-diag: a catalogue of checks over a level (and its .bsym symbols), each with a stable code.
 *
 *   blvl_diag_catalogue(&n)      every check: code "D0000", severity, what it looks for
 *   blvl_diag_check_find(code)   one check by its code (NULL when there is none)
 *   blvl_diag_run(&counts, level, fn, user, &d, &err)
 *                                run the checks, one callback per finding
 *   blvl_diag_collect(&found, level, &d, &err)
 *                                the same into an object (blvl_diag_findings_free)
 *   blvl_diag_severity_name(s)   "error", "warning", "info"
 *
 *   blvl_diag_options d = {0};
 *   d.symbols_data = bsym; d.symbols_size = bsym_size;    // optional
 *   blvl_diag_findings *found;
 *   if (blvl_diag_collect(&found, level, &d, &err) == BLVL_OK) {
 *       for (size_t i = 0; i < found->count; i++) puts(found->items[i].message);
 *       blvl_diag_findings_free(found);
 *   }
 *
 * docs/DIAG.md lists every check with an example of what triggers it. A finding is a fact about
 * the level, not a failure of the call: blvl_diag_run returns BLVL_OK for a level full of errors
 * and fails only for a bad argument, the allocator, or a read that failed outside the level's
 * bytes (I/O, HTTP). A core section that is absent is read as empty; one refused by its digest,
 * its chunks or the FlatBuffers verifier is one D0000 finding whose message starts with the
 * rule's name, and the checks that need that section are skipped. */
#ifndef BLVL_DIAG_H
#define BLVL_DIAG_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/blvl.h"
#include "blvl/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLVL_DIAG_NONE 0xFFFFFFFFu /* a finding about a whole section: no element index */

typedef enum blvl_diag_severity {
    BLVL_DIAG_ERROR = 0,   /* the level is malformed: a reader would misread it or a game break */
    BLVL_DIAG_WARNING = 1, /* legal, but almost certainly not what the map meant */
    BLVL_DIAG_INFO = 2     /* worth knowing */
} blvl_diag_severity;

/* One entry of the catalogue. The strings are static. */
typedef struct blvl_diag_check {
    const char *code;            /* "D0001": stable, never reused for another check */
    blvl_diag_severity severity; /* of every finding of this check */
    const char *section;         /* where it looks: "geometry.batches", "sim.spawns", ... */
    const char *title;           /* one line: what it finds */
} blvl_diag_check;

BLVL_API const blvl_diag_check *blvl_diag_catalogue(uint32_t *count);
BLVL_API const blvl_diag_check *blvl_diag_check_find(const char *code);
BLVL_API const char *blvl_diag_severity_name(blvl_diag_severity severity);

/* One finding; valid during the callback (copy what you keep), or as long as the array. */
typedef struct blvl_diag_finding {
    const char *code; /* the catalogue's static string */
    blvl_diag_severity severity;
    char section[48]; /* "geometry.batches", "lightmaps.lightmaps[2].l1", "bsym" */
    uint32_t index;   /* element of that section, BLVL_DIAG_NONE for the whole section */
    char message[200];
    char source[200]; /* with symbols: where the element came from; "" otherwise */
} blvl_diag_finding;

/* Return non-zero to stop the run (blvl_diag_run then returns BLVL_OK with what was found). */
typedef int (*blvl_diag_fn)(void *user, const blvl_diag_finding *finding);

typedef struct blvl_diag_options {
    /* The allocator and the rest; an unset allocator (zeroed base): the level's options. */
    blvl_options base;
    /* Only these codes (NULL/0: every check). A code not in the catalogue is BLVL_E_ARGUMENT.
     * D0000 (a section refused as damaged: the checks that need it are skipped) is always on. */
    const char *const *only;
    uint32_t only_count;
    /* Findings reported per check, 0 = no limit; the counts below count them all. */
    uint32_t max_per_check;
    /* Symbols: an open object (its stale flag is reported), or the bytes of a .bsym that the run
     * opens itself against the level (BLVL_SYMBOLS_READ_STALE), reporting a stale, foreign or
     * inconsistent file as a finding instead of failing. Both NULL: no symbols. */
    const blvl_symbols *symbols;
    const void *symbols_data;
    size_t symbols_size;
} blvl_diag_options;

/* What a run found, by severity (every finding, reported or past max_per_check). */
typedef struct blvl_diag_counts {
    uint32_t errors, warnings, infos;
} blvl_diag_counts;

/* Run the checks (every one, or opt->only) in catalogue order. `counts` and `opt` may be NULL. */
BLVL_API blvl_status blvl_diag_run(blvl_diag_counts *counts, blvl_level *level, blvl_diag_fn fn,
                                   void *user, const blvl_diag_options *opt, blvl_error *err);

typedef struct blvl_diag_findings {
    blvl_diag_finding *items;
    size_t count;
    blvl_diag_counts counts;
    size_t cap_;               /* internal */
    blvl_allocator allocator_; /* internal */
} blvl_diag_findings;

/* Every finding of a run, in one object freed with blvl_diag_findings_free (*out is NULL on
 * failure). */
BLVL_API blvl_status blvl_diag_collect(blvl_diag_findings **out, blvl_level *level,
                                       const blvl_diag_options *opt, blvl_error *err);
BLVL_API void blvl_diag_findings_free(blvl_diag_findings *f);

#ifdef __cplusplus
}
#endif

#endif
