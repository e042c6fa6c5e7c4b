/* The answers of blvl trace on stdout, as text lines or JSON objects (docs/TRACE.md). */
#ifndef BLVL_CLI_TRACE_OUTPUT_H
#define BLVL_CLI_TRACE_OUTPUT_H
#include <stdint.h>

#include "blvl/trace.h"

typedef struct trace_output {
    int json;                 /* one JSON object per line instead of text */
    const float *mins, *maxs; /* the swept box (JSON names it; the text line does not) */
} trace_output;

/* `trace from X Y Z to X Y Z fraction F end ... material N`: one sweep and its result. */
void trace_print_sweep(const trace_output *o, const float from[3], const float to[3],
                       const blvl_trace_result *r);
/* `water at X Y Z inside 0|1 material N collider N` */
void trace_print_water(const trace_output *o, const float at[3], int inside, uint32_t material,
                       uint32_t collider);
/* `contents at X Y Z count N flags 0xHH NAMES collider N` */
void trace_print_contents(const trace_output *o, const float at[3], uint32_t count, uint32_t flags,
                          uint32_t collider);
/* `report collider N face N reason TEXT`, one per expansion report of the world. */
void trace_print_reports(const trace_output *o, const blvl_trace_world *w);
/* The flag bits by name, comma-separated ('-' for none), or a JSON array with json set; the
 * surface field (bits 1..2) is not among them. Shared with blvl probe. */
void trace_put_flag_names(uint32_t flags, int json);
#endif
