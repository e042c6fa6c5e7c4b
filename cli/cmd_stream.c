/* blvl stream [--want TAG]... [--piece N] [FILE]: a level read once, in order,
 * through the streaming reader, each event printed as it happens. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blvl/sections.h"
#include "cli.h"

static const cli_help help = {
    "stream", "[--want TAG]... [--piece N] [FILE]",
    "Reads a level from stdin (or FILE) in order, as a download would arrive, "
    "through the\n"
    "streaming reader, and prints each event on stdout the moment it happens:\n"
    "  table END count=N identity=HEX table_digest=HEX\n"
    "  section TAG END ok [raw=SIZE b3=HEX]     (raw and b3 for a wanted "
    "section: its inflated\n"
    "                                            size and BLAKE3-128 of its "
    "inflated bytes)\n"
    "  section TAG END bad RULE: MESSAGE\n"
    "  end END\n"
    "END is the file offset just past the byte that completed the event. The "
    "table is checked\n"
    "(table digest, identity) before any payload byte; each section is checked "
    "when its last\n"
    "byte lands. Exits 1 when the level is refused or any section is bad.\n\n"
    "  --want TAG   keep, check and inflate section TAG (repeatable); others are hashed only.\n"
    "               A wanted core section (meta, sim, geometry, ...) also meets the level\n"
    "               rules verify applies to it: its FlatBuffers verifier, and meta and sim at\n"
    "               a payload version this program knows (flatbuffer, section-version)\n"
    "  --piece N    feed the reader N bytes at a time (default 65536; "
    "1..16777216)\n"};

typedef struct state {
    int bad;
    blvl_error first_bad; /* reported on stderr at the end */
    int write_errno;      /* stdout failed: the stream is stopped and this reported */
} state;

static int on_event(void *user, const blvl_stream_event *ev) {
    state *s = user;
    char hex[33], hex2[33];
    switch (ev->kind) {
    case BLVL_EV_TABLE:
        blvl_hex(ev->identity, hex);
        blvl_hex(ev->table_digest, hex2);
        printf("table %llu count=%u identity=%s table_digest=%s\n", (unsigned long long)ev->offset,
               ev->count, hex, hex2);
        break;
    case BLVL_EV_SECTION:
        printf("section %s %llu ok", ev->entry->tag, (unsigned long long)ev->offset);
        if (ev->data) {
            uint8_t d[BLVL_DIGEST_SIZE];
            blvl_digest(ev->data, ev->size, d);
            blvl_hex(d, hex);
            printf(" raw=%zu b3=%s", ev->size, hex);
        }
        putchar('\n');
        break;
    case BLVL_EV_SECTION_BAD:
        if (s->bad++ == 0) {
            s->first_bad.code = ev->status;
            snprintf(s->first_bad.message, sizeof s->first_bad.message, "%s",
                     ev->message ? ev->message : blvl_status_name(ev->status));
        }
        printf("section %s %llu bad %s\n", ev->entry->tag, (unsigned long long)ev->offset,
               ev->message ? ev->message : blvl_status_name(ev->status));
        break;
    case BLVL_EV_END:
        printf("end %llu\n", (unsigned long long)ev->offset);
        break;
    }
    /* as it happens, also into a pipe; a stdout that cannot take it stops the stream */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        s->write_errno = errno ? errno : EIO;
        return 1;
    }
    return 0;
}

static int write_failed(const state *st) {
    return cli_failf("stdout", BLVL_E_IO, "cannot write the events: %s", strerror(st->write_errno));
}

int blvl_cmd_stream(int argc, char **argv) {
    if (cli_wants_help(argc, argv))
        return cli_print_help(&help);
    static const struct option longs[] = {{"want", required_argument, NULL, 'w'},
                                          {"piece", required_argument, NULL, 'p'},
                                          {0, 0, 0, 0}};
    state st = {0};
    blvl_stream *s = NULL;
    blvl_error err;
    if (blvl_stream_new(&s, on_event, &st, NULL, &err) != BLVL_OK ||
        blvl_sections_stream_check(s, &err) != BLVL_OK) {
        blvl_stream_free(s);
        return cli_fail("stream", &err);
    }
    uint32_t piece = 65536;
    int c, rc = CLI_OK;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c == 'w') {
            if ((rc = cli_check_tag(&help, optarg)) != CLI_OK)
                goto out;
            if (blvl_stream_want(s, optarg, &err) != BLVL_OK) {
                rc = cli_fail("stream", &err);
                goto out;
            }
        } else if (c == 'p') {
            if (cli_parse_u32(optarg, &piece) != 0 || piece == 0 || piece > (16u << 20)) {
                rc = cli_usage(&help, "--piece wants a number 1..16777216, not '%s'", optarg);
                goto out;
            }
        } else {
            rc = cli_getopt_error(&help, argc, argv);
            goto out;
        }
    }
    if (argc - optind > 1) {
        rc = cli_usage(&help, "reads one level (stdin, or one FILE)");
        goto out;
    }
    const char *name = argc - optind == 1 ? argv[optind] : "-";
    const char *shown = strcmp(name, "-") == 0 ? "stdin" : name;
    int fd = strcmp(name, "-") == 0 ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        rc = cli_failf(shown, BLVL_E_IO, "cannot open: %s", strerror(errno));
        goto out;
    }
    uint8_t *buf = malloc(piece);
    if (!buf) {
        rc = cli_failf(shown, BLVL_E_NOMEM, "a piece of %u bytes", piece);
        goto close;
    }
    size_t have = 0;
    for (;;) {
        /* fill a whole piece (a pipe hands out what it has) so --piece means what
         * it says */
        ssize_t n = read(fd, buf + have, piece - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = cli_failf(shown, BLVL_E_IO, "read failed: %s", strerror(errno));
            goto free;
        }
        have += (size_t)n;
        if (have < piece && n > 0)
            continue;
        if (have && blvl_stream_feed(s, buf, have, &err) != BLVL_OK) {
            rc = st.write_errno ? write_failed(&st) : cli_fail(shown, &err);
            goto free;
        }
        have = 0;
        if (n == 0)
            break;
    }
    if (blvl_stream_finish(s, &err) != BLVL_OK)
        rc = st.write_errno ? write_failed(&st) : cli_fail(shown, &err);
    else if (st.bad)
        rc = cli_fail(shown, &st.first_bad); /* the first bad section; stdout has them all */
free:
    free(buf);
close:
    if (fd != STDIN_FILENO)
        close(fd);
out:
    blvl_stream_free(s);
    return rc;
}
