/* Core sections by tag: version policy, read + verify, JSON by tag. The .bsym symbols file is a
 * file of its own, never a section of a level: it is known here only by schema name. */
#include "blvl/fb_json.h"
#include "blvl/sections.h"

#include <stdio.h>

#include "common/error.h"

static const struct {
    const char *tag;
    const blvl_fb_type *type;
    int required;
} kinds[] = {
    {"meta", &blvl_Meta_type, 1},           {"sim", &blvl_Sim_type, 1},
    {"geometry", &blvl_Geometry_type, 0},   {"textures", &blvl_Textures_type, 0},
    {"cubemaps", &blvl_Cubemaps_type, 0},   {"lightmaps", &blvl_Lightmaps_type, 0},
    {"lighting", &blvl_Lighting_type, 0},   {"entities", &blvl_Entities_type, 0},
    {"acoustics", &blvl_Acoustics_type, 0}, {"props", &blvl_Props_type, 0},
    {"cameras", &blvl_Cameras_type, 0},     {"sites", &blvl_Sites_type, 0},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static int find_kind(const char *tag) {
    for (unsigned i = 0; tag && i < NKINDS; i++)
        if (strcmp(kinds[i].tag, tag) == 0)
            return (int)i;
    return -1;
}

const blvl_fb_type *blvl_section_type(const char *tag, bool *required) {
    int k = find_kind(tag);
    if (required)
        *required = k >= 0 && kinds[k].required;
    return k >= 0 ? kinds[k].type : NULL;
}

const blvl_fb_type *blvl_schema_type(const char *name) {
    if (name && strcmp(name, "bsym") == 0)
        return &blvl_Symbols_type;
    return blvl_section_type(name, NULL);
}

const char *blvl_core_tag_at(unsigned index) {
    return index < NKINDS ? kinds[index].tag : NULL;
}

/* The level rule for one core tag: `e` is its entry (NULL when absent). BLVL_OK means read and
 * verify it; BLVL_E_NOT_FOUND an optional section absent or dropped; anything else refuses the
 * level. The one place verify, pack and the stream word these rules. */
static blvl_status presence_rule(int k, const char *tag, int present, uint32_t version,
                                 blvl_error *err) {
    if (!present)
        return kinds[k].required
                   ? blvl__fail(err, BLVL_E_REQUIRED, "the level has no %s section", tag)
                   : blvl__fail(err, BLVL_E_NOT_FOUND, "no section '%s'", tag);
    if (version != BLVL_SECTION_VERSION)
        return kinds[k].required
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
    blvl_status st = blvl_fb_verify(bytes, size, kinds[k].type, opt, &verr);
    if (st == BLVL_OK)
        return BLVL_OK;
    /* verr reads "flatbuffer: <path>: ..."; name the section in front. */
    size_t skip = strlen(blvl_status_name(st)) + 2;
    return blvl__fail(err, st, "section %s: %s", kinds[k].tag,
                      strlen(verr.message) >= skip ? verr.message + skip : "");
}

blvl_status blvl_level_section(blvl_level *level, const char *tag, blvl_bytes *out,
                               const uint8_t **root, blvl_error *err) {
    if (!level || !out || !root)
        return blvl__fail(err, BLVL_E_ARGUMENT, "sections: no level or no output");
    memset(out, 0, sizeof *out);
    *root = NULL;
    int k = find_kind(tag);
    if (k < 0 && tag && strcmp(tag, "bsym") == 0)
        return blvl__fail(err, BLVL_E_ARGUMENT,
                          "sections: bsym is not a section of a level: the symbols are a .bsym "
                          "file of their own, beside the level");
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
    for (unsigned i = 0; i < NKINDS; i++) {
        blvl_bytes s;
        const uint8_t *root;
        blvl_status st = blvl_level_section(level, kinds[i].tag, &s, &root, err);
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
    for (unsigned i = 0; i < NKINDS; i++) {
        const blvl_section_in *s = NULL;
        for (size_t j = 0; j < count && !s; j++)
            if (sections[j].tag && strcmp(sections[j].tag, kinds[i].tag) == 0)
                s = &sections[j];
        blvl_status st = presence_rule((int)i, kinds[i].tag, s != NULL, s ? s->version : 0, err);
        if (st == BLVL_E_NOT_FOUND)
            continue;
        if (st == BLVL_OK && !s->data && s->size)
            st = blvl__fail(err, BLVL_E_ARGUMENT, "sections: %s has no bytes", kinds[i].tag);
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
    int k = find_kind(e->tag);
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

static const blvl_fb_type *type_or_fail(const char *tag, blvl_error *err) {
    const blvl_fb_type *t = blvl_schema_type(tag);
    if (!t)
        blvl__fail(err, BLVL_E_ARGUMENT, "sections: '%s' is not a core tag or bsym",
                   tag ? tag : "(null)");
    return t;
}

blvl_status blvl_section_verify_bytes(const char *tag, const void *bytes, size_t size,
                                      const blvl_options *opt, blvl_error *err) {
    const blvl_fb_type *t = type_or_fail(tag, err);
    return t ? blvl_fb_verify(bytes, size, t, opt, err) : BLVL_E_ARGUMENT;
}

blvl_status blvl_section_to_json(const char *tag, const void *bytes, size_t size, unsigned indent,
                                 const blvl_options *opt, char **out, size_t *out_len,
                                 blvl_error *err) {
    const blvl_fb_type *t = type_or_fail(tag, err);
    return t ? blvl_fb_to_json(bytes, size, t, indent, opt, out, out_len, err) : BLVL_E_ARGUMENT;
}

blvl_status blvl_section_from_json(const char *tag, const char *json, size_t len,
                                   const blvl_options *opt, uint8_t **out, size_t *out_size,
                                   blvl_error *err) {
    const blvl_fb_type *t = type_or_fail(tag, err);
    if (!t)
        return BLVL_E_ARGUMENT;
    blvl_status st = blvl_fb_from_json(json, len, t, opt, out, out_size, err);
    /* "flatbuffer: json: Sim.colliders[7].flags: ..." names the value from the root type; name
     * it from the tag instead, as a user wrote it: "sim.colliders[7].flags". */
    const char *head = "flatbuffer: json: ";
    size_t hl = strlen(head), rl = strlen(t->name);
    if (st == BLVL_E_FLATBUFFER && err && strncmp(err->message, head, hl) == 0 &&
        strncmp(err->message + hl, t->name, rl) == 0 &&
        (err->message[hl + rl] == '.' || err->message[hl + rl] == ':' ||
         err->message[hl + rl] == '[')) {
        char rest[sizeof err->message];
        snprintf(rest, sizeof rest, "%s", err->message + hl + rl);
        blvl__fail(err, st, "json: %s%s", tag, rest);
    }
    return st;
}
