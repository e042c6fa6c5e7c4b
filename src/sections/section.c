/* Core sections by tag: version policy, read + verify (JSON by tag is section_json.c). The tags,
 * their root types and which are required come from the generated registry (sections/roots.h). A
 * file of its own such as .bsym is never a section of a level: it is known here only by schema
 * name. */
#include "blvl/sections.h"

#include <stdio.h>

#include "common/error.h"
#include "sections/roots.h"
#include "sections/sections_internal.h"

/* Index in blvl__sections_roots of a root schema by name, core sections only or any; -1 if none. */
static int find_root(const char *name, int core_only) {
    unsigned n = core_only ? blvl__sections_core_count : blvl__sections_root_count;
    for (unsigned i = 0; name && i < n; i++)
        if (strcmp(blvl__sections_roots[i].name, name) == 0)
            return (int)i;
    return -1;
}

const blvl_fb_type *blvl_section_type(const char *tag, bool *required) {
    int k = find_root(tag, 1);
    if (required)
        *required = k >= 0 && blvl__sections_roots[k].required;
    return k >= 0 ? blvl__sections_roots[k].type : NULL;
}

const blvl_fb_type *blvl_schema_type(const char *name) {
    int k = find_root(name, 0);
    return k >= 0 ? blvl__sections_roots[k].type : NULL;
}

const char *blvl_core_tag_at(unsigned index) {
    return index < blvl__sections_core_count ? blvl__sections_roots[index].name : NULL;
}

/* The level rule for one core tag: `e` is its entry (NULL when absent). BLVL_OK means read and
 * verify it; BLVL_E_NOT_FOUND an optional section absent or dropped; anything else refuses the
 * level. The one place verify, pack and the stream word these rules. */
static blvl_status presence_rule(int k, const char *tag, int present, uint32_t version,
                                 blvl_error *err) {
    if (!present)
        return blvl__sections_roots[k].required
                   ? blvl__fail(err, BLVL_E_REQUIRED, "the level has no %s section", tag)
                   : blvl__fail(err, BLVL_E_NOT_FOUND, "no section '%s'", tag);
    if (version != BLVL_SECTION_VERSION)
        return blvl__sections_roots[k].required
                   ? blvl__fail(err, BLVL_E_SECTION_VERSION,
                                "%s is at payload version %u, this reader knows %u", tag, version,
                                BLVL_SECTION_VERSION)
                   : blvl__fail(err, BLVL_E_NOT_FOUND,
                                "%s dropped: payload version %u unknown (this reader knows %u)",
                                tag, version, BLVL_SECTION_VERSION);
    return BLVL_OK;
}

/* The FlatBuffers verifier for section k, its message naming the section. */
static blvl_status verify_kind(int k, const void *bytes, size_t size, const blvl_options *opt,
                               blvl_error *err) {
    blvl_error verr;
    blvl_status st = blvl_fb_verify(bytes, size, blvl__sections_roots[k].type, opt, &verr);
    if (st == BLVL_OK)
        return BLVL_OK;
    /* verr reads "flatbuffer: <path>: ..."; name the section in front. */
    return blvl__fail(err, st, "section %s: %s", blvl__sections_roots[k].name,
                      blvl__error_text(&verr));
}

blvl_status blvl_level_section(blvl_level *level, const char *tag, blvl_bytes *out,
                               const uint8_t **root, blvl_error *err) {
    if (!level || !out || !root)
        return blvl__fail(err, BLVL_E_ARGUMENT, "sections: no level or no output");
    memset(out, 0, sizeof *out);
    *root = NULL;
    int k = find_root(tag, 1);
    if (k < 0 && find_root(tag, 0) >= 0)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "sections: %s is not a section of a level: it is a .%s file of its "
                          "own, beside the level",
                          tag, tag);
    if (k < 0)
        return blvl__fail(err, BLVL_E_ARGUMENT, "sections: '%s' is not a core tag",
                          tag ? tag : "(null)");
    const blvl_entry *e = blvl_find(level, tag);
    blvl_status st = presence_rule(k, tag, e != NULL, e ? e->version : 0, err);
    if (st)
        return st;
    st = blvl_read(level, tag, out, err);
    if (st)
        return st;
    st = verify_kind(k, out->data, out->size, blvl_level_options(level), err);
    if (st) {
        blvl_bytes_free(out);
        return st;
    }
    *root = blvl_fb_root(out->data);
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_sections_verify(blvl_level *level, blvl_error *err) {
    if (!level)
        return blvl__fail(err, BLVL_E_ARGUMENT, "sections: no level");
    for (unsigned i = 0; i < blvl__sections_core_count; i++) {
        blvl_bytes s;
        const uint8_t *root;
        blvl_status st = blvl_level_section(level, blvl__sections_roots[i].name, &s, &root, err);
        if (st == BLVL_E_NOT_FOUND)
            continue; /* absent or dropped: an optional section */
        if (st)
            return st;
        blvl_bytes_free(&s);
    }
    blvl__ok(err);
    return BLVL_OK;
}

blvl_status blvl_sections_check(const blvl_section_in *sections, size_t count,
                                const blvl_options *opt, blvl_error *err) {
    if (!sections && count)
        return blvl__fail(err, BLVL_E_ARGUMENT, "sections: no sections");
    /* the order and wording of blvl_sections_verify, so a writer refuses with its message */
    for (unsigned i = 0; i < blvl__sections_core_count; i++) {
        const blvl_section_in *s = NULL;
        for (size_t j = 0; j < count && !s; j++)
            if (sections[j].tag && strcmp(sections[j].tag, blvl__sections_roots[i].name) == 0)
                s = &sections[j];
        blvl_status st =
            presence_rule((int)i, blvl__sections_roots[i].name, s != NULL, s ? s->version : 0, err);
        if (st == BLVL_E_NOT_FOUND)
            continue;
        if (st == BLVL_OK && !s->data && s->size)
            st = blvl__fail(err, BLVL_E_ARGUMENT, "sections: %s has no bytes",
                            blvl__sections_roots[i].name);
        if (st == BLVL_OK)
            st = verify_kind((int)i, s->data, s->size, opt, err);
        if (st)
            return st;
    }
    blvl__ok(err);
    return BLVL_OK;
}

/* The stream's check (blvl_stream_check_fn): a wanted core section meets the level rule
 * blvl_level_section applies to it (required at a known version; an optional one at an unknown
 * version is dropped, so not checked) and passes the FlatBuffers verifier of its root type.
 * Game sections and core tags without a schema are not looked at. */
static blvl_status stream_check(void *user, const blvl_entry *e, const uint8_t *data, size_t size,
                                blvl_error *err) {
    int k = find_root(e->tag, 1);
    if (k < 0)
        return BLVL_OK;
    blvl_status st = presence_rule(k, e->tag, 1, e->version, err);
    if (st == BLVL_E_NOT_FOUND)
        return BLVL_OK;
    return st ? st : verify_kind(k, data, size, user, err);
}

blvl_status blvl_sections_stream_check(blvl_stream *s, blvl_error *err) {
    /* the stream's own copy of its options outlives the hook */
    return blvl_stream_set_check(s, stream_check, (void *)blvl_stream_options(s), err);
}

const blvl_fb_type *blvl__sections_type_or_fail(const char *tag, blvl_error *err) {
    const blvl_fb_type *t = blvl_schema_type(tag);
    if (!t)
        blvl__fail(err, BLVL_E_ARGUMENT,
                   "sections: '%s' is not a core tag or a schema of its own (bsym)",
                   tag ? tag : "(null)");
    return t;
}

blvl_status blvl_section_verify_bytes(const char *tag, const void *bytes, size_t size,
                                      const blvl_options *opt, blvl_error *err) {
    const blvl_fb_type *t = blvl__sections_type_or_fail(tag, err);
    return t ? blvl_fb_verify(bytes, size, t, opt, err) : BLVL_E_ARGUMENT;
}
