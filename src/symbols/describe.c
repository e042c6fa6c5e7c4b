/* Names for people: a source kind's name, and one line describing a source. */
#include <stdio.h>

#include "symbols/symbols_internal.h"

const char *blvl_symbols_kind_name(uint32_t kind) {
    static const char *const names[] = {"brush", "face", "patch", "prop", "physics-shape"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : NULL;
}

size_t blvl_symbols_describe(const blvl_symbols *sym, uint32_t source, char *buf, size_t size) {
    char scratch[1];
    if (!buf || size == 0) { /* only the length is wanted */
        buf = scratch;
        size = sizeof scratch;
    }
    const blvl_symbols_source *s = blvl_symbols_source_at(sym, source);
    int n;
    if (source == BLVL_SYMBOLS_NONE) {
        n = snprintf(buf, size, "none");
    } else if (!s) {
        n = snprintf(buf, size, "source %u (out of range)", source);
    } else {
        char kind[24], ent[16], mat[24];
        const char *kn = blvl_symbols_kind_name(s->kind);
        if (kn)
            snprintf(kind, sizeof kind, "%s", kn);
        else
            snprintf(kind, sizeof kind, "kind %u", s->kind);
        if (s->entity == BLVL_SYMBOLS_NONE)
            snprintf(ent, sizeof ent, "none");
        else
            snprintf(ent, sizeof ent, "%u", s->entity);
        blvl_symbols_material m = {"", "", "", BLVL_SYMBOLS_NONE, 0, NULL};
        bool has = blvl_symbols_material_at(sym, s->material, &m);
        /* The name as the source spelled it; a script or texture path when it had none. */
        const char *mn = m.name[0] ? m.name : m.shader[0] ? m.shader : m.texture;
        if (has)
            snprintf(mat, sizeof mat, "%u%s", s->material, mn[0] ? " " : "");
        else
            snprintf(mat, sizeof mat, "none");
        n = snprintf(buf, size, "%s %u (entity %s, material %s%s, contents 0x%x, surface 0x%x)",
                     kind, s->index, ent, mat, has ? mn : "", s->contents_flags, s->surface_flags);
    }
    return n < 0 ? 0 : (size_t)n;
}
