/* How blvl trace prints its answers (docs/TRACE.md): each answer is described once, as a list
 * of keyed values, and printed from that description either as a text line `KIND key value...`
 * or as one JSON object per line (--json), so the two formats cannot drift apart. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "trace_output.h"

/* The shortest decimal that reads back as the same float, so exact values print exactly
 * (24.03125) and the rest without noise, in plain notation for the sizes a level has; -0 prints
 * as 0. */
static void put_num(float v) {
    if (v != v || v - v != 0) {
        fputs("nan", stdout);
        return;
    }
    if (v == 0)
        v = 0;
    char buf[48];
    int found = 0;
    if (fabsf(v) >= 1e-4f && fabsf(v) < 1e9f) {
        for (int d = 0; d <= 12 && !found; d++) {
            snprintf(buf, sizeof buf, "%.*f", d, (double)v);
            found = strtof(buf, NULL) == v;
        }
    }
    for (int prec = 1; prec <= 9 && !found; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, (double)v);
        found = strtof(buf, NULL) == v;
    }
    fputs(buf, stdout);
}

static void put_vec(const float *v, int json) {
    if (json)
        putchar('[');
    for (int k = 0; k < 3; k++) {
        if (k)
            putchar(json ? ',' : ' ');
        put_num(v[k]);
    }
    if (json)
        putchar(']');
}

static const char *const flag_names[8] = {"ladder", NULL,           NULL,    "sky",
                                          "clip",   "shot-through", "water", "player-through"};

/* The flag bits by name (the surface field, bits 1..2, is printed on its own). */
void trace_put_flag_names(uint32_t flags, int json) {
    int any = 0;
    if (json)
        putchar('[');
    for (unsigned b = 0; b < 32; b++) {
        if (!(flags >> b & 1u) || b == 1 || b == 2)
            continue;
        if (any)
            putchar(',');
        any = 1;
        if (json)
            putchar('"');
        if (b < 8)
            fputs(flag_names[b], stdout);
        else
            printf("bit%u", b);
        if (json)
            putchar('"');
    }
    if (json)
        putchar(']');
    else if (!any)
        putchar('-');
}

static const char *surface_name(uint32_t flags) {
    static const char *const names[4] = {"concrete", "metal", "wood", "unknown"};
    return names[(flags & BLVL_COLLIDER_SURFACE_MASK) >> BLVL_COLLIDER_SURFACE_SHIFT];
}

/* ---- one answer, described once and printed as a text line or a JSON object ---------------- */

/* How a value prints:               text             JSON
 *   F_NUM    a float                24.03125         24.03125
 *   F_VEC    three floats           0 24.03125 0     [0,24.03125,0]
 *   F_BOOL   a truth                0 / 1            false / true
 *   F_COUNT  a u32                  3                3
 *   F_INDEX  a u32 or NONE          N or -1          N or null
 *   F_FLAGS  collider flag bits     0xHH             decimal
 *   F_NAMES  the same bits by name  a,b or - (no key) ["a","b"]
 *   F_TEXT   a string               as is            quoted, escaped */
typedef enum field_kind {
    F_NUM,
    F_VEC,
    F_BOOL,
    F_COUNT,
    F_INDEX,
    F_FLAGS,
    F_NAMES,
    F_TEXT
} field_kind;

typedef struct field {
    const char *key;
    field_kind kind;
    int json_only; /* the box of a trace: the text line leaves it to the command line */
    float num;
    const float *vec;
    uint32_t u; /* BOOL, COUNT, INDEX, FLAGS, NAMES */
    const char *text;
} field;

/* clang-format off */
#define NUM(k, v)      {.key = (k), .kind = F_NUM, .num = (v)}
#define VEC(k, v)      {.key = (k), .kind = F_VEC, .vec = (v)}
#define JSON_VEC(k, v) {.key = (k), .kind = F_VEC, .json_only = 1, .vec = (v)}
#define BOOL(k, v)     {.key = (k), .kind = F_BOOL, .u = (v) != 0}
#define COUNT(k, v)    {.key = (k), .kind = F_COUNT, .u = (v)}
#define INDEX(k, v)    {.key = (k), .kind = F_INDEX, .u = (v)}
#define FLAGS(k, v)    {.key = (k), .kind = F_FLAGS, .u = (v)}
#define NAMES(k, v)    {.key = (k), .kind = F_NAMES, .u = (v)}
#define TEXT(k, v)     {.key = (k), .kind = F_TEXT, .text = (v)}
/* clang-format on */

static void put_value(const field *f, int json) {
    switch (f->kind) {
    case F_NUM:
        put_num(f->num);
        break;
    case F_VEC:
        put_vec(f->vec, json);
        break;
    case F_BOOL:
        fputs(json ? (f->u ? "true" : "false") : (f->u ? "1" : "0"), stdout);
        break;
    case F_COUNT:
        printf("%u", f->u);
        break;
    case F_INDEX:
        if (f->u == BLVL_TRACE_NONE)
            fputs(json ? "null" : "-1", stdout);
        else
            printf("%u", f->u);
        break;
    case F_FLAGS:
        printf(json ? "%u" : "0x%02x", f->u);
        break;
    case F_NAMES:
        trace_put_flag_names(f->u, json);
        break;
    case F_TEXT:
        if (json)
            cli_json_string(f->text);
        else
            fputs(f->text, stdout);
        break;
    }
}

/* `KIND key value key value...` or {"query":"KIND","key":value,...}, one line. */
static void put_answer(const char *kind, const field *f, size_t n, int json) {
    printf(json ? "{\"query\":\"%s\"" : "%s", kind);
    for (size_t i = 0; i < n; i++) {
        if (json)
            printf(",\"%s\":", f[i].key);
        else if (f[i].json_only)
            continue;
        else if (f[i].kind == F_NAMES)
            putchar(' '); /* the names follow the flags they spell out */
        else
            printf(" %s ", f[i].key);
        put_value(&f[i], json);
    }
    fputs(json ? "}\n" : "\n", stdout);
}

#define COUNT_OF(a) (sizeof(a) / sizeof *(a))

void trace_print_sweep(const trace_output *o, const float from[3], const float to[3],
                       const blvl_trace_result *r) {
    const float n[3] = {r->plane.normal.x, r->plane.normal.y, r->plane.normal.z};
    const field f[] = {VEC("from", from),
                       VEC("to", to),
                       JSON_VEC("mins", o->mins),
                       JSON_VEC("maxs", o->maxs),
                       NUM("fraction", r->fraction),
                       VEC("end", r->endpos),
                       VEC("normal", n),
                       NUM("dist", r->plane.dist),
                       BOOL("startsolid", r->startsolid),
                       BOOL("allsolid", r->allsolid),
                       INDEX("collider", r->collider),
                       FLAGS("flags", r->flags),
                       NAMES("flag_names", r->flags),
                       TEXT("surface", surface_name(r->flags)),
                       INDEX("material", r->material)};
    put_answer("trace", f, COUNT_OF(f), o->json);
}

void trace_print_reports(const trace_output *o, const blvl_trace_world *w) {
    uint32_t n;
    const blvl_trace_report *r = blvl_trace_world_reports(w, &n);
    for (uint32_t i = 0; i < n; i++) {
        const field a[] = {COUNT("collider", r[i].collider), INDEX("face", r[i].face),
                           TEXT("reason", r[i].reason)};
        put_answer("report", a, COUNT_OF(a), o->json);
    }
}

void trace_print_water(const trace_output *o, const float at[3], int inside, uint32_t material,
                       uint32_t collider) {
    const field a[] = {VEC("at", at), BOOL("inside", inside), INDEX("material", material),
                       INDEX("collider", collider)};
    put_answer("water", a, COUNT_OF(a), o->json);
}

void trace_print_contents(const trace_output *o, const float at[3], uint32_t count, uint32_t flags,
                          uint32_t collider) {
    const field a[] = {VEC("at", at), COUNT("count", count), FLAGS("flags", flags),
                       NAMES("flag_names", flags), INDEX("collider", collider)};
    put_answer("contents", a, COUNT_OF(a), o->json);
}
