/* blvl trace: box, ray and point queries against a level's sim colliders (blvl-trace). The
 * output is one line per query, `KIND key value...` with a fixed set of keys per kind (or one
 * JSON object per line with --json); docs/TRACE.md defines both. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/trace.h"
#include "cli.h"
#include "trace_output.h"

static const cli_help help = {
    "trace",
    "FILE [--box MINX MINY MINZ MAXX MAXY MAXZ] (--from X Y Z --to X Y Z | --points FILE |\n"
    "       --contents X Y Z | --water X Y Z | --reports)... [options]",
    "Sweeps a box (a ray without --box) from --from to --to through the level's sim colliders\n"
    "the way a game server would (Hull colliders expanded once into faces, axial planes and\n"
    "edge bevels) and prints one line per query:\n"
    "  trace from X Y Z to X Y Z fraction F end X Y Z normal X Y Z dist D startsolid 0|1\n"
    "        allsolid 0|1 collider N flags 0xHH NAMES surface S material N\n"
    "  contents at X Y Z count N flags 0xHH NAMES collider N\n"
    "  water at X Y Z inside 0|1 material N collider N\n"
    "  report collider N face N reason TEXT\n"
    "NAMES is a comma-separated list of the flag bits set (ladder, sky, clip, shot-through,\n"
    "water, player-through, bitN) or '-'; -1 stands for none. A stopped box ends 1/32 unit\n"
    "off the surface (DIST_EPSILON). Queries run in this order: reports, --from/--to, the\n"
    "--points lines, then --contents and --water as given.\n"
    "  --box MINS MAXS        the box, relative to the moving point (six numbers)\n"
    "  --from X Y Z --to X Y Z  one sweep\n"
    "  --points FILE          many sweeps: each line FROMX FROMY FROMZ TOX TOY TOZ ('-' =\n"
    "                         stdin; blank lines and '#' comments are skipped)\n"
    "  --contents X Y Z       which solids the mover sees hold the point (repeatable)\n"
    "  --water X Y Z          is the point in water, and its material (repeatable)\n"
    "  --as player|shot       who moves: a player skips player-through (bit 7), a shot skips\n"
    "                         shot-through (bit 5: ladders, player clips); default player.\n"
    "                         Water (bit 6) is never swept\n"
    "  --include MASK --exclude MASK  custom mover: hit a collider when it has every bit of\n"
    "                         MASK and none of the excluded bits (decimal or 0x hex)\n"
    "  --gametype N           only colliders of match type N (0 free-for-all .. 10 gun game)\n"
    "  --reports              list the faces and colliders expansion could not use (a count\n"
    "                         goes to stderr without it)\n"
    "  --json                 one JSON object per line instead\n"
    "Exit status: 0 done, 1 the level (or the points file) is refused or has no sim section,\n"
    "2 usage error.\n"};

#define MAX_LINE 4096
/* Match types of sim.Collider.gametypes: 0 free-for-all .. 10 gun game (schema/sim.fbs). */
#define BLVL_GAMETYPE_MAX 10

/* A point query given on the command line, run in the order given. */
typedef struct point_query {
    int water; /* 0 contents, 1 water */
    float p[3];
} point_query;

/* Coordinates past a billion units are no level's (hull vertices stop at 1e7, and a float there
 * steps by 64 units), so the CLI refuses them rather than trace garbage. */
#define COORD_MAX 1e9

/* Why `s` is not a coordinate, or NULL when *out holds it. */
static const char *parse_coord(const char *s, float *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end)
        return "is not a number";
    if (v != v || (isinf(v) && errno != ERANGE)) /* nan, inf: not 1e999, which overflowed */
        return "is not a finite number";
    if (v > COORD_MAX || v < -COORD_MAX)
        return "is outside -1e9..1e9 (no level reaches a billion units)";
    *out = (float)v;
    return NULL;
}

/* N coordinates of option `opt` from argv[at...]; a usage error (one line) when they are not. */
static int parse_floats(char **argv, int at, int argc, int n, float *out, const char *opt,
                        const char *names) {
    for (int i = 0; i < n; i++) {
        const char *why;
        if (at + i >= argc || (argv[at + i][0] == '-' && argv[at + i][1] == '-'))
            return cli_usage(&help, "%s expects %d numbers %s", opt, n, names);
        if ((why = parse_coord(argv[at + i], &out[i])) != NULL)
            return cli_usage(&help, "%s: '%s' %s", opt, argv[at + i], why);
    }
    return CLI_OK;
}

static int parse_mask(const char *s, uint32_t *out) {
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    unsigned long v = strtoul(s, &end, 0);
    if (errno || *end || v > 0xFFFFFFFFul)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static void run_point(const blvl_trace_world *w, const blvl_trace_filter *f, const trace_output *o,
                      const point_query *q) {
    uint32_t material = BLVL_TRACE_NONE, flags = 0, collider = BLVL_TRACE_NONE;
    if (q->water) {
        int in = blvl_trace_point_water(w, f, q->p, &material, &collider);
        trace_print_water(o, q->p, in, material, collider);
    } else {
        uint32_t count = blvl_trace_point_contents(w, f, q->p, &flags, &collider);
        trace_print_contents(o, q->p, count, flags, collider);
    }
}

/* One sweep per line of FROM TO; returns CLI_OK or CLI_FAILED (line reported). */
static int run_points(const blvl_trace_world *w, const blvl_trace_filter *f, const trace_output *o,
                      const char *path) {
    FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!in)
        return cli_failf(path, BLVL_E_IO, "cannot open: %s", strerror(errno));
    char line[MAX_LINE];
    unsigned long lineno = 0;
    int rc = CLI_OK;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(in)) {
            rc = cli_failf(path, BLVL_E_ARGUMENT, "line %lu: longer than %d bytes", lineno,
                           MAX_LINE - 2);
            break;
        }
        char *p = line, *save = NULL, *word;
        float v[6];
        int n = 0;
        const char *why = NULL;
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0'; /* a comment runs to the end of the line */
        while (!why && (word = strtok_r(p, " \t\r\n", &save)) != NULL) {
            p = NULL;
            if (n == 6) {
                rc = cli_failf(path, BLVL_E_ARGUMENT, "line %lu: more than six numbers", lineno);
                break;
            }
            if ((why = parse_coord(word, &v[n])) != NULL) {
                rc = cli_failf(path, BLVL_E_ARGUMENT, "line %lu: '%s' %s", lineno, word, why);
                break;
            }
            n++;
        }
        if (rc != CLI_OK)
            break;
        if (n == 0)
            continue; /* blank or comment */
        if (n != 6) {
            rc = cli_failf(path, BLVL_E_ARGUMENT,
                           "line %lu: expected six numbers FROMX FROMY FROMZ TOX TOY TOZ", lineno);
            break;
        }
        blvl_trace_result res;
        blvl_trace_box(w, f, v, v + 3, o->mins, o->maxs, &res);
        trace_print_sweep(o, v, v + 3, &res);
    }
    if (rc == CLI_OK && ferror(in))
        rc = cli_failf(path, BLVL_E_IO, "read error");
    if (in != stdin)
        fclose(in);
    return rc;
}

int blvl_cmd_trace(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    const char *file = NULL, *points = NULL;
    float mins[3] = {0, 0, 0}, maxs[3] = {0, 0, 0}, from[3], to[3];
    int have_from = 0, have_to = 0, reports = 0, have_as = 0, custom = 0;
    trace_output o = {0, mins, maxs};
    blvl_trace_filter filter;
    memset(&filter, 0, sizeof filter);
    point_query *pq = calloc((size_t)argc + 1, sizeof *pq);
    size_t npq = 0;
    if (!pq)
        return cli_failf("trace", BLVL_E_NOMEM, "the queries");
    int rc = CLI_OK;
#define USAGE(...)                                                                                 \
    do {                                                                                           \
        rc = cli_usage(&help, __VA_ARGS__);                                                        \
        goto done;                                                                                 \
    } while (0)
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--box")) {
            float b[6] = {0};
            if ((rc = parse_floats(argv, i + 1, argc, 6, b, a, "MINX MINY MINZ MAXX MAXY MAXZ")))
                goto done;
            memcpy(mins, b, sizeof mins);
            memcpy(maxs, b + 3, sizeof maxs);
            if (mins[0] > maxs[0] || mins[1] > maxs[1] || mins[2] > maxs[2])
                USAGE("--box: MINS must not exceed MAXS");
            i += 6;
        } else if (!strcmp(a, "--from") || !strcmp(a, "--to")) {
            int f = a[2] == 'f';
            if (*(f ? &have_from : &have_to))
                USAGE("%s given twice (one sweep per run; --points FILE for many)", a);
            if ((rc = parse_floats(argv, i + 1, argc, 3, f ? from : to, a, "X Y Z")))
                goto done;
            *(f ? &have_from : &have_to) = 1;
            i += 3;
        } else if (!strcmp(a, "--contents") || !strcmp(a, "--water")) {
            pq[npq].water = a[2] == 'w';
            if ((rc = parse_floats(argv, i + 1, argc, 3, pq[npq].p, a, "X Y Z")))
                goto done;
            npq++;
            i += 3;
        } else if (!strcmp(a, "--as")) {
            if (i + 1 >= argc)
                USAGE("--as expects player or shot");
            a = argv[++i];
            if (!strcmp(a, "player"))
                filter.mover = BLVL_TRACE_AS_PLAYER;
            else if (!strcmp(a, "shot"))
                filter.mover = BLVL_TRACE_AS_SHOT;
            else
                USAGE("--as expects player or shot, not '%s'", a);
            have_as = 1;
        } else if (!strcmp(a, "--include") || !strcmp(a, "--exclude")) {
            uint32_t m;
            if (i + 1 >= argc || parse_mask(argv[i + 1], &m))
                USAGE("%s expects a flag mask (decimal or 0x hex)", a);
            *(a[2] == 'i' ? &filter.include : &filter.exclude) = m;
            custom = 1;
            i++;
        } else if (!strcmp(a, "--gametype")) {
            uint32_t g;
            if (i + 1 >= argc || cli_parse_u32(argv[i + 1], &g) || g > BLVL_GAMETYPE_MAX)
                USAGE("--gametype expects a match type 0..%d (0 free-for-all .. 10 gun game)",
                      BLVL_GAMETYPE_MAX);
            filter.gametypes = 1u << g;
            i++;
        } else if (!strcmp(a, "--points")) {
            if (i + 1 >= argc)
                USAGE("--points expects a FILE");
            points = argv[++i];
        } else if (!strcmp(a, "--reports")) {
            reports = 1;
        } else if (!strcmp(a, "--json")) {
            o.json = 1;
        } else if (a[0] == '-' && a[1]) {
            USAGE("unknown option '%s'", a);
        } else if (!file) {
            file = a;
        } else {
            USAGE("expects one FILE");
        }
    }
    if (custom && have_as)
        USAGE("--as and --include/--exclude exclude each other");
    if (custom)
        filter.mover = BLVL_TRACE_AS_CUSTOM;
    if (!file)
        USAGE("expects a FILE");
    if (have_from != have_to)
        USAGE("--from and --to go together");
    if (!have_from && !points && !npq && !reports)
        USAGE("nothing to do: give --from and --to, --points, --contents, --water or --reports");

    blvl_level *lv;
    rc = cli_open(file, &lv);
    if (rc != CLI_OK)
        goto done;
    blvl_trace_world *w = NULL;
    blvl_error err;
    blvl_status st = blvl_trace_world_from_level(&w, lv, NULL, &err);
    blvl_close(lv);
    if (st != BLVL_OK) {
        rc = cli_fail(file, &err);
        goto done;
    }
    uint32_t nrep;
    blvl_trace_world_reports(w, &nrep);
    if (reports)
        trace_print_reports(&o, w);
    else if (nrep)
        fprintf(stderr,
                "blvl trace: %s: %u expansion report(s): hull faces or colliders that yield no "
                "plane (--reports lists them)\n",
                file, nrep);
    if (have_from) {
        blvl_trace_result res;
        blvl_trace_box(w, &filter, from, to, mins, maxs, &res);
        trace_print_sweep(&o, from, to, &res);
    }
    if (points)
        rc = run_points(w, &filter, &o, points);
    for (size_t i = 0; rc == CLI_OK && i < npq; i++)
        run_point(w, &filter, &o, &pq[i]);
    blvl_trace_world_free(w);
    if (fflush(stdout) != 0 && rc == CLI_OK)
        rc = cli_failf("stdout", BLVL_E_IO, "write error: %s", strerror(errno));
done:
#undef USAGE
    free(pq);
    return rc;
}
