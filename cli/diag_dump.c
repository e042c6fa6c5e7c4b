/* The dumps of `blvl diag --dump`: a header row, then one row per element, tab-separated;
 * strings have their tabs and line breaks turned into spaces so a row stays one line. Index
 * fields that are none print as -1. With symbols, colliders and batches gain the source column
 * (blvl_symbols_describe, "-" for none). With --json the same rows as one document, each row an
 * object keyed by the header's columns (docs/CLI.md gives the shapes). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blvl/sections.h"
#include "blvl/symbols.h"
#include "cli.h"
#include "diag_dump.h"

static const char *const kinds[] = {"colliders", "batches", "materials", "entities", "spawns"};

int cli_diag_dump_kind_valid(const char *kind) {
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(kind, kinds[i]) == 0)
            return 1;
    return 0;
}

/* One table, printed as text or as JSON from the same calls: each cell names no column, it is
 * the next of the table's column list, so the text header and the JSON keys cannot disagree. */
typedef struct table {
    int json;
    const char *file, *kind; /* JSON: the document's "file" and the key of its rows */
    const char *const *cols;
    uint32_t ncols, col, rows;
} table;

/* The header row (text), or the document's head (JSON, whose rows carry their keys):
 * {"file": F, "KIND": [rows]}. */
static void begin(table *t, const char *const *cols, uint32_t ncols) {
    t->cols = cols;
    t->ncols = ncols;
    if (t->json) {
        printf("{\"file\": ");
        cli_json_string(t->file);
        printf(", \"%s\": [", t->kind);
        return;
    }
    for (uint32_t i = 0; i < ncols; i++)
        printf("%s%s", i ? "\t" : "", cols[i]);
    putchar('\n');
}

static void row(table *t) {
    t->col = 0;
    if (t->json)
        printf("%s\n    {", t->rows ? "," : "");
}

static void row_end(table *t) {
    putchar(t->json ? '}' : '\n');
    t->rows++;
}

static void end(const table *t) {
    if (t->json)
        printf("%s]}\n", t->rows ? "\n  " : "");
}

/* Before a cell: the separator (text) or the key (JSON). */
static void cell(table *t) {
    if (t->json)
        printf("%s\"%s\": ", t->col ? ", " : "", t->cols[t->col]);
    else if (t->col)
        putchar('\t');
    t->col++;
}

static void u32(table *t, uint32_t v) {
    cell(t);
    printf("%u", v);
}

/* Flags and masks: hexadecimal in the text, a number in JSON. */
static void hex(table *t, uint32_t v) {
    cell(t);
    printf(t->json ? "%u" : "0x%x", v);
}

/* An index that may be none: -1 in the text, null in JSON. */
static void idx(table *t, uint32_t v) {
    cell(t);
    if (v == 0xFFFFFFFFu)
        printf(t->json ? "null" : "-1");
    else
        printf("%u", v);
}

static void real_fmt(table *t, double v, const char *text_fmt) {
    cell(t);
    if (t->json && isnan(v))
        printf("\"nan\""); /* as blvl dump prints them (docs/FLATBUFFERS.md) */
    else if (t->json && isinf(v))
        printf(v < 0 ? "\"-inf\"" : "\"inf\"");
    else
        printf(t->json ? "%.9g" : text_fmt, v);
}

static void real(table *t, double v) {
    real_fmt(t, v, "%.9g");
}

static void vec3(table *t, blvl_Vec3 v) {
    real(t, (double)v.x);
    real(t, (double)v.y);
    real(t, (double)v.z);
}

static void flag(table *t, int v) {
    cell(t);
    printf(t->json ? (v ? "true" : "false") : "%d", v);
}

static void name(table *t, const char *s) {
    cell(t);
    if (t->json)
        cli_json_string(s);
    else
        fputs(s, stdout);
}

/* A string of the level's: in the text its tabs and line breaks as spaces, empty as "-"; in
 * JSON as it is. */
static void text_str(blvl_fb_str s) {
    for (uint32_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        putchar(c == '\t' || c == '\n' || c == '\r' ? ' ' : c);
    }
    if (!s.len)
        putchar('-');
}

static void str(table *t, blvl_fb_str s) {
    cell(t);
    if (t->json)
        cli_json_stringn(s.ptr, s.len);
    else
        text_str(s);
}

/* A cell with nothing in it: "-" in the text, null in JSON. */
static void none(table *t) {
    cell(t);
    printf(t->json ? "null" : "-");
}

static void source(table *t, const blvl_symbols *sym, uint32_t s) {
    char buf[256];
    if (s == BLVL_SYMBOLS_NONE) {
        none(t);
        return;
    }
    blvl_symbols_describe(sym, s, buf, sizeof buf);
    cell(t);
    if (t->json) {
        cli_json_string(buf);
        return;
    }
    for (char *p = buf; *p; p++)
        putchar(*p == '\t' || *p == '\n' ? ' ' : *p);
}

static const char *const collider_cols[] = {
    "index",     "shape",         "planes_or_faces", "lo_x",     "lo_y",      "lo_z", "hi_x",
    "hi_y",      "hi_z",          "flags",           "material", "breakable", "door", "source",
    "gametypes", "symbols_source"};

static void colliders(table *t, blvl_Sim sim, const blvl_symbols *sym) {
    begin(t, collider_cols, 15 + (sym != NULL));
    uint32_t n = blvl_Sim_colliders_len(sim);
    for (uint32_t i = 0; i < n; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(sim, i);
        blvl_Shape s = blvl_Collider_shape_type(c);
        uint32_t count =
            s == blvl_Shape_Planes ? blvl_Planes_planes_len(blvl_Collider_shape_as_Planes(c))
            : s == blvl_Shape_Hull ? blvl_Hull_face_sizes_len(blvl_Collider_shape_as_Hull(c))
                                   : 0;
        row(t);
        u32(t, i);
        name(t, s == blvl_Shape_Planes ? "planes" : s == blvl_Shape_Hull ? "hull" : "none");
        u32(t, count);
        vec3(t, blvl_Collider_lo(c));
        vec3(t, blvl_Collider_hi(c));
        hex(t, blvl_Collider_flags(c));
        idx(t, blvl_Collider_material(c));
        idx(t, blvl_Collider_breakable(c));
        idx(t, blvl_Collider_door(c));
        idx(t, blvl_Collider_source(c));
        hex(t, blvl_Collider_gametypes(c));
        if (sym)
            source(t, sym, blvl_symbols_collider_source(sym, i));
        row_end(t);
    }
}

static const char *const batch_cols[] = {
    "index",     "first_index", "index_count", "material",       "material_name", "fog",
    "breakable", "door",        "gametypes",   "lightmap_layer", "symbols_source"};

static void batches(table *t, blvl_Geometry g, const blvl_symbols *sym) {
    begin(t, batch_cols, 10 + (sym != NULL));
    uint32_t n = blvl_Geometry_batches_len(g), nm = blvl_Geometry_materials_len(g);
    for (uint32_t i = 0; i < n; i++) {
        blvl_Batch b = blvl_Geometry_batches_at(g, i);
        uint32_t m = blvl_Batch_material(b);
        row(t);
        u32(t, i);
        u32(t, blvl_Batch_first_index(b));
        u32(t, blvl_Batch_index_count(b));
        idx(t, m);
        if (m < nm)
            str(t, blvl_Material_name(blvl_Geometry_materials_at(g, m)));
        else
            none(t);
        idx(t, blvl_Batch_fog(b));
        idx(t, blvl_Batch_breakable(b));
        idx(t, blvl_Batch_door(b));
        hex(t, blvl_Batch_gametypes(b));
        u32(t, blvl_Batch_lightmap_layer(b));
        if (sym)
            source(t, sym, blvl_symbols_batch_source(sym, i));
        row_end(t);
    }
}

static const char *const material_cols[] = {"index", "name",      "texture", "sort",
                                            "blend", "two_sided", "sky",     "symbols_materials"};

/* The source materials the bake merged into material i: names joined by commas in the text
 * ("?" for one without a name, "-" for none), an array of names in JSON. */
static void merged(table *t, const blvl_symbols *sym, uint32_t ns, uint32_t i) {
    int any = 0;
    cell(t);
    if (t->json)
        putchar('[');
    for (uint32_t k = 0; k < ns; k++) {
        blvl_symbols_material sm;
        if (blvl_symbols_material_at(sym, k, &sm) && sm.baked == i) {
            fputs(any ? (t->json ? ", " : ",") : "", stdout);
            if (t->json)
                cli_json_string(sm.name);
            else
                fputs(sm.name[0] ? sm.name : "?", stdout);
            any = 1;
        }
    }
    if (t->json)
        putchar(']');
    else if (!any)
        putchar('-');
}

static void materials(table *t, blvl_Geometry g, const blvl_symbols *sym) {
    begin(t, material_cols, 7 + (sym != NULL));
    uint32_t n = blvl_Geometry_materials_len(g), ns = 0;
    if (sym) {
        blvl_symbols_info info;
        blvl_symbols_get_info(sym, &info);
        ns = info.materials;
    }
    for (uint32_t i = 0; i < n; i++) {
        blvl_Material m = blvl_Geometry_materials_at(g, i);
        row(t);
        u32(t, i);
        str(t, blvl_Material_name(m));
        idx(t, blvl_Material_texture(m));
        real_fmt(t, (double)blvl_Material_sort(m), "%g");
        u32(t, blvl_Material_blend(m));
        flag(t, blvl_Material_two_sided(m));
        flag(t, blvl_Material_sky(m));
        if (sym)
            merged(t, sym, ns, i);
        row_end(t);
    }
}

static const char *const entity_cols[] = {"index", "classname", "pairs"};

/* An entity's pairs: key=value separated by spaces in the text ("-" for none); in JSON an
 * array of {"key", "value"} in their order (a key may repeat). */
static void pairs(table *t, blvl_Entity en) {
    uint32_t np = blvl_Entity_pairs_len(en);
    cell(t);
    if (t->json)
        putchar('[');
    for (uint32_t k = 0; k < np; k++) {
        blvl_KeyValue kv = blvl_Entity_pairs_at(en, k);
        blvl_fb_str key = blvl_KeyValue_key(kv), value = blvl_KeyValue_value(kv);
        if (t->json) {
            printf("%s{\"key\": ", k ? ", " : "");
            cli_json_stringn(key.ptr, key.len);
            printf(", \"value\": ");
            cli_json_stringn(value.ptr, value.len);
            putchar('}');
            continue;
        }
        if (k)
            putchar(' ');
        text_str(key);
        putchar('=');
        text_str(value);
    }
    if (t->json)
        putchar(']');
    else if (!np)
        putchar('-');
}

static void entities(table *t, blvl_Entities e) {
    begin(t, entity_cols, 3);
    uint32_t n = blvl_Entities_entities_len(e);
    for (uint32_t i = 0; i < n; i++) {
        blvl_Entity en = blvl_Entities_entities_at(e, i);
        row(t);
        u32(t, i);
        str(t, blvl_Entity_classname(en));
        pairs(t, en);
        row_end(t);
    }
}

static const char *const spawn_cols[] = {"index", "x",    "y",    "z",
                                         "yaw",   "kind", "team", "gametypes"};

static void spawns(table *t, blvl_Sim sim) {
    begin(t, spawn_cols, 8);
    uint32_t n = blvl_Sim_spawns_len(sim);
    for (uint32_t i = 0; i < n; i++) {
        blvl_Spawn s = blvl_Sim_spawns_at(sim, i);
        row(t);
        u32(t, i);
        vec3(t, blvl_Spawn_position(s));
        real(t, (double)blvl_Spawn_yaw(s));
        str(t, blvl_Spawn_kind(s));
        str(t, blvl_Spawn_team(s));
        hex(t, blvl_Spawn_gametypes(s));
        row_end(t);
    }
}

int cli_diag_dump(const char *file, blvl_level *level, const char *kind, int json,
                  const char *sym_path, const uint8_t *sym_data, size_t sym_size) {
    blvl_error err;
    blvl_symbols *sym = NULL;
    if (sym_data) {
        if (blvl_symbols_open_memory(&sym, sym_data, sym_size, level, 0, NULL, &err) != BLVL_OK)
            return cli_fail(sym_path, &err);
    }
    blvl_bytes b;
    int rc = CLI_OK;
    table t = {json, file, kind, NULL, 0, 0, 0};
    blvl_status st;
    if (strcmp(kind, "colliders") == 0 || strcmp(kind, "spawns") == 0) {
        blvl_Sim sim;
        if ((st = blvl_level_sim(level, &b, &sim, &err)) != BLVL_OK) {
            rc = cli_fail(file, &err);
        } else {
            if (kind[0] == 'c')
                colliders(&t, sim, sym);
            else
                spawns(&t, sim);
            blvl_bytes_free(&b);
        }
    } else if (strcmp(kind, "entities") == 0) {
        blvl_Entities e;
        if ((st = blvl_level_entities(level, &b, &e, &err)) != BLVL_OK && st != BLVL_E_NOT_FOUND) {
            rc = cli_fail(file, &err);
        } else {
            if (st == BLVL_E_NOT_FOUND)
                e.p_ = NULL;
            entities(&t, e);
            if (st == BLVL_OK)
                blvl_bytes_free(&b);
        }
    } else {
        blvl_Geometry g;
        if ((st = blvl_level_geometry(level, &b, &g, &err)) != BLVL_OK && st != BLVL_E_NOT_FOUND) {
            rc = cli_fail(file, &err);
        } else {
            if (st == BLVL_E_NOT_FOUND)
                g.p_ = NULL;
            if (kind[0] == 'b')
                batches(&t, g, sym);
            else
                materials(&t, g, sym);
            if (st == BLVL_OK)
                blvl_bytes_free(&b);
        }
    }
    if (rc == CLI_OK)
        end(&t);
    if (sym)
        blvl_symbols_free(sym);
    return rc;
}
