/* blvl_riot_parse and blvl_riot_read: the required records first (0x0000 then 0x0001 must be
 * in the directory), then each known record's body in type order 0x0000, 0x0001, 0x0002,
 * 0x0020, found through the directory. The level owns a copy of the container (read: the one
 * just read), so a rewrite keeps every other record and every fill. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "import/riot/riot_internal.h"

static blvl_status copy_srsc(const blvl_riot_srsc *c, const blvl_allocator *a, blvl_riot_srsc **out,
                             blvl_error *err) {
    blvl_riot_srsc *d = blvl__calloc(a, sizeof *d);
    if (!d)
        return blvl__nomem(err, "the container");
    d->allocator = a ? *a : (blvl_allocator){0};
    *out = d;
    d->version = c->version;
    d->dir_offset = c->dir_offset;
    uint32_t nrec = c->records ? c->record_count : 0, nfill = c->fills ? c->fill_count : 0;
    if (nrec) {
        d->records = blvl__calloc_n(a, nrec, sizeof *d->records);
        if (!d->records)
            return blvl__nomem(err, "%u records", nrec);
        d->record_count = (uint16_t)nrec;
    }
    for (uint32_t i = 0; i < nrec; i++) {
        d->records[i] = c->records[i];
        d->records[i].bytes = NULL;
        if (c->records[i].size) {
            d->records[i].bytes = blvl__alloc(a, c->records[i].size);
            if (!d->records[i].bytes)
                return blvl__nomem(err, "a %u-byte record", c->records[i].size);
            if (c->records[i].bytes)
                memcpy(d->records[i].bytes, c->records[i].bytes, c->records[i].size);
            else
                memset(d->records[i].bytes, 0, c->records[i].size);
        }
    }
    if (nfill) {
        d->fills = blvl__calloc_n(a, nfill, sizeof *d->fills);
        if (!d->fills)
            return blvl__nomem(err, "%u fills", nfill);
        d->fill_count = nfill;
    }
    for (uint32_t i = 0; i < nfill; i++) {
        d->fills[i] = c->fills[i];
        d->fills[i].bytes = NULL;
        if (c->fills[i].size) {
            d->fills[i].bytes = blvl__alloc(a, c->fills[i].size);
            if (!d->fills[i].bytes)
                return blvl__nomem(err, "a %u-byte fill", c->fills[i].size);
            if (c->fills[i].bytes)
                memcpy(d->fills[i].bytes, c->fills[i].bytes, c->fills[i].size);
            else
                memset(d->fills[i].bytes, 0, c->fills[i].size);
        }
    }
    return BLVL_OK;
}

typedef blvl_status (*record_parser)(blvl__cursor *c, blvl_riot_level *level);

static blvl_status records(const blvl_riot_srsc *c, const blvl_allocator *a, blvl_riot_level *level,
                           blvl_error *err) {
    static const uint16_t types[4] = {BLVL_RIOT_LEVEL, BLVL_RIOT_LAYERS, BLVL_RIOT_GROUPS,
                                      BLVL_RIOT_OBJECTS};
    static const record_parser parsers[4] = {
        blvl__import_riot_parse_level, blvl__import_riot_parse_layers,
        blvl__import_riot_parse_groups, blvl__import_riot_parse_objects};
    static const char *const names[2] = {"the level name and database references", "the layers"};
    for (int k = 0; k < 2; k++)
        if (blvl_riot_srsc_find(c, types[k]) < 0)
            return blvl__fail_source(err, "directory", "type", c->dir_offset, "record-missing",
                                     "no record 0x%04x (%s) among the %u entries", types[k],
                                     names[k], c->records ? c->record_count : 0);
    for (int k = 0; k < 4; k++) {
        int32_t i = blvl_riot_srsc_find(c, types[k]);
        if (i < 0)
            continue;
        const blvl_riot_record *r = &c->records[i];
        if (r->size && !r->bytes)
            return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_riot_parse: record 0x%04x has no bytes",
                              r->type);
        char part[16];
        snprintf(part, sizeof part, "record 0x%04x", r->type);
        blvl__cursor cur = {.base = r->bytes,
                            .pos = 0,
                            .end = r->size,
                            .at = r->offset,
                            .part = part,
                            .unit = "record",
                            .a = a,
                            .err = err};
        if (k == 2)
            level->has_groups = true;
        if (k == 3)
            level->has_objects = true;
        blvl_status st = parsers[k](&cur, level);
        if (st)
            return st;
    }
    return BLVL_OK;
}

/* Parses with `owned` as the level's container (freed with the level, also on a refusal). */
static blvl_status parse_owned(blvl_riot_srsc *owned, const blvl_options *opt,
                               blvl_riot_level **out, blvl_error *err) {
    const blvl_allocator *a = opt ? &opt->allocator : NULL;
    blvl_riot_level *level = blvl__calloc(a, sizeof *level);
    if (!level) {
        blvl_riot_srsc_free(owned);
        return blvl__nomem(err, "the level");
    }
    level->srsc = owned;
    level->allocator = a ? *a : (blvl_allocator){0};
    blvl_status st = records(owned, a, level, err);
    if (st) {
        blvl_riot_free(level);
        return st;
    }
    *out = level;
    return BLVL_OK;
}

blvl_status blvl_riot_parse(blvl_riot_level **out, const blvl_riot_srsc *c, const blvl_options *opt,
                            blvl_error *err) {
    blvl__ok(err);
    if (!c || !out)
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_riot_parse: NULL container or out");
    *out = NULL;
    blvl_riot_srsc *copy = NULL;
    blvl_status st = copy_srsc(c, opt ? &opt->allocator : NULL, &copy, err);
    if (st) {
        blvl_riot_srsc_free(copy);
        return st;
    }
    return parse_owned(copy, opt, out, err);
}

blvl_status blvl_riot_read(blvl_riot_level **out, const void *data, size_t size,
                           const blvl_options *opt, blvl_error *err) {
    blvl__ok(err);
    if (!out || (!data && size))
        return blvl__fail(err, BLVL_E_ARGUMENT, "blvl_riot_read: NULL data or out");
    *out = NULL;
    blvl_riot_srsc *c = NULL;
    blvl_status st = blvl_riot_srsc_read(&c, data, size, opt, err);
    return st ? st : parse_owned(c, opt, out, err);
}
