/* blvl trace: box, ray and point queries against a level's sim colliders (blvl-trace). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/trace.h"
#include "cli.h"

static const cli_help help = {
    "trace", "FILE [--box MINX MINY MINZ MAXX MAXY MAXZ] --from X Y Z --to X Y Z [options]",
    "Sweeps a box (a ray without --box) from --from to --to through the level's colliders and\n"
    "prints one line: fraction, end position, the plane that stopped it (normal, distance),\n"
    "startsolid, allsolid, the collider index (-1 for none), its flags and material.\n"
    "Hull colliders are expanded once (faces, axial planes, edge bevels), as a server would.\n"
    "  --box MINS MAXS    the box, relative to the moving point (six numbers)\n"
    "  --from X Y Z       start\n"
    "  --to X Y Z         end\n"
    "  --as player|shot   who moves: a player skips player-through (bit 7), a shot\n"
    "                     skips shot-through (bit 5); default player; water is never hit\n"
    "  --gametype N       only colliders of match type N (0 free-for-all .. 10 gun game)\n"
    "  --points FILE      run many: each line FROMX FROMY FROMZ TOX TOY TOZ ('-' = stdin;\n"
    "                     blank lines and lines starting with # are skipped)\n"
    "  --reports          print the faces and colliders expansion could not use (stderr)\n"};

static int parse_floats(char **argv, int at, int argc, int n, float *out) {
    if (at + n > argc)
        return -1;
    for (int i = 0; i < n; i++) {
        char *end;
        errno = 0;
        double v = strtod(argv[at + i], &end);
        if (errno || end == argv[at + i] || *end || v != v || v > 1e9 || v < -1e9)
            return -1;
        out[i] = (float)v;
    }
    return 0;
}

static void print_result(const blvl_trace_result *r) {
    printf("fraction %.6g end %.6g %.6g %.6g plane %.6g %.6g %.6g %.6g startsolid %d allsolid %d "
           "collider %lld flags 0x%x material %lld\n",
           r->fraction, r->endpos[0], r->endpos[1], r->endpos[2], r->plane.normal.x,
           r->plane.normal.y, r->plane.normal.z, r->plane.dist, r->startsolid, r->allsolid,
           r->collider == BLVL_TRACE_NONE ? -1LL : (long long)r->collider, r->flags,
           r->material == BLVL_TRACE_NONE ? -1LL : (long long)r->material);
}

int blvl_cmd_trace(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    const char *file = NULL, *points = NULL;
    float mins[3] = {0, 0, 0}, maxs[3] = {0, 0, 0}, from[3], to[3];
    int have_from = 0, have_to = 0, reports = 0;
    blvl_trace_filter filter;
    memset(&filter, 0, sizeof filter);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--box")) {
            float b[6];
            if (parse_floats(argv, i + 1, argc, 6, b))
                return cli_usage(&help, "--box expects six numbers");
            memcpy(mins, b, sizeof mins);
            memcpy(maxs, b + 3, sizeof maxs);
            if (mins[0] > maxs[0] || mins[1] > maxs[1] || mins[2] > maxs[2])
                return cli_usage(&help, "--box: MINS must not exceed MAXS");
            i += 6;
        } else if (!strcmp(a, "--from") || !strcmp(a, "--to")) {
            int f = a[2] == 'f';
            if (parse_floats(argv, i + 1, argc, 3, f ? from : to))
                return cli_usage(&help, "%s expects three numbers", a);
            *(f ? &have_from : &have_to) = 1;
            i += 3;
        } else if (!strcmp(a, "--as")) {
            if (i + 1 >= argc)
                return cli_usage(&help, "--as expects player or shot");
            a = argv[++i];
            if (!strcmp(a, "player"))
                filter.mover = BLVL_TRACE_AS_PLAYER;
            else if (!strcmp(a, "shot"))
                filter.mover = BLVL_TRACE_AS_SHOT;
            else
                return cli_usage(&help, "--as expects player or shot, not '%s'", a);
        } else if (!strcmp(a, "--gametype")) {
            uint32_t g;
            if (i + 1 >= argc || cli_parse_u32(argv[i + 1], &g) || g > 31)
                return cli_usage(&help, "--gametype expects a match type 0..31");
            filter.gametypes = 1u << g;
            i++;
        } else if (!strcmp(a, "--points")) {
            if (i + 1 >= argc)
                return cli_usage(&help, "--points expects a FILE");
            points = argv[++i];
        } else if (!strcmp(a, "--reports")) {
            reports = 1;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage(&help, "unknown option '%s'", a);
        } else if (!file) {
            file = a;
        } else {
            return cli_usage(&help, "expects one FILE");
        }
    }
    if (!file)
        return cli_usage(&help, "expects a FILE");
    if (!points && (!have_from || !have_to))
        return cli_usage(&help, "expects --from and --to, or --points");

    blvl_level *lv;
    int rc = cli_open(file, &lv);
    if (rc != CLI_OK)
        return rc;
    blvl_trace_world *w = NULL;
    blvl_error err;
    blvl_status st = blvl_trace_world_from_level(&w, lv, NULL, &err);
    blvl_close(lv);
    if (st != BLVL_OK)
        return cli_fail(file, &err);
    if (reports) {
        uint32_t n;
        const blvl_trace_report *r = blvl_trace_world_reports(w, &n);
        for (uint32_t i = 0; i < n; i++) {
            if (r[i].face == BLVL_TRACE_NONE)
                fprintf(stderr, "blvl trace: collider %u: %s\n", r[i].collider, r[i].reason);
            else
                fprintf(stderr, "blvl trace: collider %u face %u: %s\n", r[i].collider, r[i].face,
                        r[i].reason);
        }
    }
    blvl_trace_result res;
    rc = CLI_OK;
    if (have_from && have_to) {
        blvl_trace_box(w, &filter, from, to, mins, maxs, &res);
        print_result(&res);
    }
    if (points) {
        FILE *f = strcmp(points, "-") ? fopen(points, "r") : stdin;
        if (!f) {
            rc = cli_failf(points, "cannot open: %s", strerror(errno));
        } else {
            char line[1024];
            unsigned long lineno = 0;
            while (fgets(line, sizeof line, f)) {
                lineno++;
                char *p = line;
                while (*p == ' ' || *p == '\t')
                    p++;
                if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
                    continue;
                float v[6];
                int n = 0;
                for (; n < 6; n++) {
                    char *end;
                    double d = strtod(p, &end);
                    if (end == p || d != d || d > 1e9 || d < -1e9)
                        break;
                    v[n] = (float)d;
                    p = end;
                }
                if (n != 6) {
                    rc = cli_failf(points, "line %lu: expected six numbers", lineno);
                    break;
                }
                blvl_trace_box(w, &filter, v, v + 3, mins, maxs, &res);
                print_result(&res);
            }
            if (f != stdin)
                fclose(f);
        }
    }
    blvl_trace_world_free(w);
    return rc;
}
