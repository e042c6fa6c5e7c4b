/* Whole-section writing: thin wrappers over the streaming writer (writer.c), with room for
 * exactly `count` sections, so the bytes are the streaming writer's for the same sections. */
#include "blvl/blvl.h"
#include "common/error.h"

static blvl_status add_all(blvl_writer *w, const blvl_section_in *sections, size_t count,
                           blvl_error *err) {
    for (size_t i = 0; i < count; i++) {
        const blvl_section_in *s = &sections[i];
        if (s->size && !s->data)
            return blvl__fail(err, BLVL_E_ARGUMENT, "section '%.16s': no data",
                              s->tag ? s->tag : "");
        blvl_status st = blvl_writer_add(w, s->tag, s->version, s->flags, s->data, s->size, err);
        if (st != BLVL_OK)
            return st;
    }
    return BLVL_OK;
}

/* The options with the total raw size filled in, for progress. */
static blvl_options with_total(const blvl_options *opt, const blvl_section_in *sections,
                               size_t count) {
    blvl_options o = {0};
    if (opt)
        o = *opt;
    if (!o.progress_total)
        for (size_t i = 0; i < count; i++)
            o.progress_total += sections[i].size;
    return o;
}

static blvl_status check_count(const blvl_section_in *sections, size_t count, blvl_error *err) {
    if (count && !sections)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no sections");
    if (count > (BLVL_FLOOR_MAX - BLVL_HEADER_SIZE) / BLVL_ENTRY_SIZE)
        return blvl__fail(err, BLVL_E_ARGUMENT, "%zu sections do not fit a reserved region", count);
    return BLVL_OK;
}

blvl_status blvl_write_memory(void **data, size_t *size, const blvl_section_in *sections,
                              size_t count, const blvl_options *opt, blvl_error *err) {
    if (!data || !size)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no output");
    *data = NULL;
    *size = 0;
    blvl_status st = check_count(sections, count, err);
    if (st != BLVL_OK)
        return st;
    blvl_options o = with_total(opt, sections, count);
    blvl_writer *w;
    if ((st = blvl_writer_open_memory(&w, (uint32_t)count, &o, err)) != BLVL_OK)
        return st;
    if ((st = add_all(w, sections, count, err)) != BLVL_OK) {
        blvl_writer_abort(w);
        return st;
    }
    return blvl_writer_commit_memory(w, data, size, err);
}

blvl_status blvl_write_file(const char *path, const blvl_section_in *sections, size_t count,
                            const blvl_options *opt, blvl_error *err) {
    if (!path)
        return blvl__fail(err, BLVL_E_ARGUMENT, "no path");
    blvl_status st = check_count(sections, count, err);
    if (st != BLVL_OK)
        return st;
    blvl_options o = with_total(opt, sections, count);
    blvl_writer *w;
    if ((st = blvl_writer_open_file(&w, path, (uint32_t)count, &o, err)) != BLVL_OK)
        return st;
    if ((st = add_all(w, sections, count, err)) != BLVL_OK) {
        blvl_writer_abort(w);
        return st;
    }
    return blvl_writer_commit(w, err);
}
