/* blvl pack -o OUT [--id TAG]... [--version TAG=N]... TAG=PATH...: bake a level
 * from raw payload files, in the order given. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blvl/sections.h"
#include "cli.h"
#include "pack_input.h"

static const cli_help help = {
    "pack", "-o OUT [--container] [--id TAG]... [--version TAG=N]... TAG=[json:|bin:]PATH...",
    "Bakes the level OUT from payload files: section TAG holds the bytes of PATH (\"-\" reads\n"
    "stdin, once). Sections are laid out in the order given; chunks of 4 MiB are compressed\n"
    "in parallel (raw when zstd level 1 saves under 1/32, else level 19 when that shrinks\n"
    "them); game sections are streamed from PATH as they are read, never held whole. The same\n"
    "inputs give the same bytes. OUT is written beside itself and renamed into place.\n"
    "A core section (meta, sim, geometry, ...) is given as its FlatBuffer or as JSON (the\n"
    "schema's field names, as `blvl dump` and `flatc --json` print them), built into a\n"
    "FlatBuffer by blvl's own builder. JSON is recognised by its content (its first byte other\n"
    "than whitespace is '{' and it is not a valid FlatBuffer), whatever PATH's name; json:PATH\n"
    "or bin:PATH says which it is. Before anything is written, the level rules `blvl verify`\n"
    "checks are run on what would be written (meta and sim present at a payload version this\n"
    "program knows, every core section passing the FlatBuffers verifier of its schema); a\n"
    "refusal gives verify's message and writes nothing. An input over 2 GiB is refused\n"
    "(raw-size).\n\n"
    "  -o, --output OUT     the level to write (once)\n"
    "  --container          write any payloads (no level rules), as `verify --container`\n"
    "                       checks; with no TAG=PATH, an empty container\n"
    "  --id TAG             put game section TAG (with a dot) in identity; core tags (no dot)\n"
    "                       always are\n"
    "  --version TAG=N      payload version N of section TAG (default 0)\n"
    "  --threads N          compression workers (default: online CPUs)\n"};

static void progress(void *user, uint64_t done, uint64_t total) {
    (void)user;
    cli_progress("pack", done, total);
}

static pack_input *find(pack_input *in, int n, const char *tag) {
    for (int i = 0; i < n; i++)
        if (strcmp(in[i].tag, tag) == 0)
            return &in[i];
    return NULL;
}

/* Game sections (tags with a dot) are streamed from their files in pieces, never held whole;
 * core sections are small, built from JSON, and appended from memory. */
static int streamed(const pack_input *s) {
    bool core = false;
    blvl_tag_valid(s->tag, &core);
    return !core;
}

/* Before any work: a streamed file that cannot be read or is over 2 GiB is refused. Adds the
 * sizes known up front to *total (for progress). */
static int check_streamed(const pack_input *s, uint64_t *total) {
    if (strcmp(s->path, "-") == 0)
        return CLI_OK;
    struct stat sb;
    if (stat(s->path, &sb) != 0)
        return cli_failf(s->path, BLVL_E_IO, "cannot read: %s", strerror(errno));
    if (S_ISDIR(sb.st_mode))
        return cli_failf(s->path, BLVL_E_IO, "cannot read: %s", strerror(EISDIR));
    if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > BLVL_SECTION_RAW_MAX)
        return cli_failf(s->path, BLVL_E_RAW_SIZE, "section '%s' would be %llu bytes, over 2 GiB",
                         s->tag, (unsigned long long)sb.st_size);
    if (S_ISREG(sb.st_mode))
        *total += (uint64_t)sb.st_size;
    return CLI_OK;
}

#define PIECE (1u << 20)

static int append_file(blvl_writer *w, const pack_input *s, uint8_t *buf) {
    int fd = strcmp(s->path, "-") == 0 ? STDIN_FILENO : open(s->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cli_failf(s->path, BLVL_E_IO, "cannot read: %s", strerror(errno));
    blvl_error err;
    blvl_status st = blvl_writer_begin(w, s->tag, s->version, s->flags, &err);
    int rc = CLI_OK;
    while (st == BLVL_OK) {
        ssize_t r = read(fd, buf, PIECE);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = cli_failf(s->path, BLVL_E_IO, "cannot read: %s", strerror(errno));
            break;
        }
        if (r == 0) {
            st = blvl_writer_end(w, &err);
            break;
        }
        st = blvl_writer_append(w, buf, (size_t)r, &err);
    }
    if (fd != STDIN_FILENO)
        close(fd);
    if (rc == CLI_OK && st != BLVL_OK)
        rc = cli_fail(s->path, &err);
    return rc;
}

/* Writes the level through the streaming writer: nothing is left at OUT unless it commits. */
static int write_level(const char *out, pack_input *in, int n, unsigned threads) {
    blvl_options wo = {0};
    cli_out_options(&wo);
    wo.threads = threads;
    if (cli_progress_enabled())
        wo.progress = progress;
    for (int i = 0; i < n; i++) {
        int rc = streamed(&in[i]) ? check_streamed(&in[i], &wo.progress_total) : CLI_OK;
        if (rc != CLI_OK)
            return rc;
        wo.progress_total += in[i].size;
    }
    uint8_t *buf = malloc(PIECE);
    if (!buf)
        return cli_failf("pack", BLVL_E_NOMEM, "a piece of %u bytes", (unsigned)PIECE);
    blvl_error err;
    blvl_writer *w;
    if (blvl_writer_open_file(&w, out, (uint32_t)n, &wo, &err) != BLVL_OK) {
        free(buf);
        return cli_fail(out, &err);
    }
    int rc = CLI_OK;
    for (int i = 0; i < n && rc == CLI_OK; i++) {
        if (streamed(&in[i]))
            rc = append_file(w, &in[i], buf);
        else if (blvl_writer_add(w, in[i].tag, in[i].version, in[i].flags, in[i].data, in[i].size,
                                 &err) != BLVL_OK)
            rc = cli_fail(out, &err);
    }
    free(buf);
    if (rc != CLI_OK) {
        cli_progress_clear();
        blvl_writer_abort(w);
        return rc;
    }
    blvl_status st = blvl_writer_commit(w, &err);
    cli_progress_clear();
    return st == BLVL_OK ? CLI_OK : cli_fail(out, &err);
}

int blvl_cmd_pack(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'},  {"id", required_argument, NULL, 'i'},
        {"version", required_argument, NULL, 'v'}, {"threads", required_argument, NULL, 't'},
        {"container", no_argument, NULL, 'c'},     {0, 0, 0, 0}};
    const char *out = NULL;
    int container_only = 0;
    int nid = 0, nver = 0, c;
    char **ids = calloc((size_t)argc, sizeof *ids), **vers = calloc((size_t)argc, sizeof *vers);
    pack_input *in = calloc((size_t)argc, sizeof *in);
    uint32_t threads = 0;
    int rc = CLI_OK, n = 0, stdin_used = 0;
    if (!ids || !vers || !in) {
        rc = cli_failf("pack", BLVL_E_NOMEM, "the arguments");
        goto done;
    }
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
        if (c == 'o' && (out || !*optarg)) {
            rc = cli_usage(&help, out ? "-o given twice" : "-o wants a file name, not ''");
            goto done;
        } else if (c == 'o')
            out = optarg;
        else if (c == 'c')
            container_only = 1;
        else if (c == 'i')
            ids[nid++] = optarg;
        else if (c == 'v')
            vers[nver++] = optarg;
        else if (c == 't' && cli_parse_u32(optarg, &threads) == 0 && threads <= 1024)
            continue;
        else if (c == 't') {
            rc = cli_usage(&help, "--threads wants a number 0..1024, not '%s'", optarg);
            goto done;
        } else {
            rc = cli_getopt_error(&help, argc, argv);
            goto done;
        }
    }
    if (!out) {
        rc = cli_usage(&help, "needs -o OUT");
        goto done;
    }
    for (int i = optind; i < argc; i++) {
        pack_input *s = &in[n];
        if ((rc = pack_input_parse(&help, argv[i], s)) != CLI_OK)
            goto done;
        if (find(in, n, s->tag)) {
            rc = cli_usage(&help, "section '%s' given twice", s->tag);
            goto done;
        }
        if (strcmp(s->path, "-") == 0 && stdin_used++) {
            rc = cli_usage(&help, "stdin (\"-\") can feed only one section");
            goto done;
        }
        n++;
    }
    for (int i = 0; i < nid; i++) {
        pack_input *s = find(in, n, ids[i]);
        if (!s) {
            rc = cli_usage(&help, "--id %s: no section with that tag is packed", ids[i]);
            goto done;
        }
        s->flags |= BLVL_ENTRY_FLAG_IDENTITY;
    }
    for (int i = 0; i < nver; i++) {
        char tag[BLVL_TAG_MAX + 1];
        const char *num = cli_split_tag(vers[i], tag);
        pack_input *s = num ? find(in, n, tag) : NULL;
        if (!num || cli_parse_u32(num, &(uint32_t){0}) != 0) {
            rc = cli_usage(&help, "--version wants TAG=N, not '%s'", vers[i]);
            goto done;
        }
        if (!s) {
            rc = cli_usage(&help, "--version %s: no section with that tag is packed", vers[i]);
            goto done;
        }
        cli_parse_u32(num, &s->version);
    }
    for (int i = 0; i < n; i++)
        if ((rc = pack_input_check_form(&help, &in[i])) != CLI_OK)
            goto done;
    for (int i = 0; i < n; i++)
        if (!streamed(&in[i]) && (rc = pack_input_load(&in[i])) != CLI_OK)
            goto done; /* game sections are read in pieces while writing */
    if (!container_only && (rc = pack_check_level(out, in, n)) != CLI_OK)
        goto done;
    rc = write_level(out, in, n, threads);
done:
    for (int i = 0; in && i < n; i++)
        pack_input_free(&in[i]);
    free(in);
    free(ids);
    free(vers);
    return rc;
}
