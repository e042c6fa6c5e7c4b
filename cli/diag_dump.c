/* The dumps of `blvl diag --dump`: a header row, then one row per element, tab-separated;
 * strings have their tabs and line breaks turned into spaces so a row stays one line. Index
 * fields that are none print as -1. With symbols, colliders and batches gain the source column
 * (blvl_symbols_describe, "-" for none). */
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

static void str(blvl_fb_str s) {
    for (uint32_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        putchar(c == '\t' || c == '\n' || c == '\r' ? ' ' : c);
    }
    if (!s.len)
        putchar('-');
}

static void idx(uint32_t v) {
    if (v == 0xFFFFFFFFu)
        printf("\t-1");
    else
        printf("\t%u", v);
}

static void vec3(blvl_Vec3 v) {
    printf("\t%.9g\t%.9g\t%.9g", (double)v.x, (double)v.y, (double)v.z);
}

static void source(const blvl_symbols *sym, uint32_t s) {
    char buf[256];
    if (s == BLVL_SYMBOLS_NONE) {
        printf("\t-");
        return;
    }
    blvl_symbols_describe(sym, s, buf, sizeof buf);
    putchar('\t');
    for (char *p = buf; *p; p++)
        putchar(*p == '\t' || *p == '\n' ? ' ' : *p);
}

static void colliders(blvl_Sim sim, const blvl_symbols *sym) {
    printf("index\tshape\tplanes_or_faces\tlo_x\tlo_y\tlo_z\thi_x\thi_y\thi_z\tflags\tmaterial\t"
           "breakable\tdoor\tsource\tgametypes%s\n",
           sym ? "\tsymbols_source" : "");
    uint32_t n = blvl_Sim_colliders_len(sim);
    for (uint32_t i = 0; i < n; i++) {
        blvl_Collider c = blvl_Sim_colliders_at(sim, i);
        blvl_Shape t = blvl_Collider_shape_type(c);
        uint32_t count =
            t == blvl_Shape_Planes ? blvl_Planes_planes_len(blvl_Collider_shape_as_Planes(c))
            : t == blvl_Shape_Hull ? blvl_Hull_face_sizes_len(blvl_Collider_shape_as_Hull(c))
                                   : 0;
        printf("%u\t%s\t%u", i,
               t == blvl_Shape_Planes ? "planes"
               : t == blvl_Shape_Hull ? "hull"
                                      : "none",
               count);
        vec3(blvl_Collider_lo(c));
        vec3(blvl_Collider_hi(c));
        printf("\t0x%x", blvl_Collider_flags(c));
        idx(blvl_Collider_material(c));
        idx(blvl_Collider_breakable(c));
        idx(blvl_Collider_door(c));
        idx(blvl_Collider_source(c));
        printf("\t0x%x", blvl_Collider_gametypes(c));
        if (sym)
            source(sym, blvl_symbols_collider_source(sym, i));
        putchar('\n');
    }
}

static void batches(blvl_Geometry g, const blvl_symbols *sym) {
    printf("index\tfirst_index\tindex_count\tmaterial\tmaterial_name\tfog\tbreakable\tdoor\t"
           "gametypes\tlightmap_layer%s\n",
           sym ? "\tsymbols_source" : "");
    uint32_t n = blvl_Geometry_batches_len(g), nm = blvl_Geometry_materials_len(g);
    for (uint32_t i = 0; i < n; i++) {
        blvl_Batch b = blvl_Geometry_batches_at(g, i);
        uint32_t m = blvl_Batch_material(b);
        printf("%u\t%u\t%u", i, blvl_Batch_first_index(b), blvl_Batch_index_count(b));
        idx(m);
        putchar('\t');
        if (m < nm)
            str(blvl_Material_name(blvl_Geometry_materials_at(g, m)));
        else
            putchar('-');
        idx(blvl_Batch_fog(b));
        idx(blvl_Batch_breakable(b));
        idx(blvl_Batch_door(b));
        printf("\t0x%x\t%u", blvl_Batch_gametypes(b), blvl_Batch_lightmap_layer(b));
        if (sym)
            source(sym, blvl_symbols_batch_source(sym, i));
        putchar('\n');
    }
}

static void materials(blvl_Geometry g, const blvl_symbols *sym) {
    printf("index\tname\ttexture\tsort\tblend\ttwo_sided\tsky%s\n",
           sym ? "\tsymbols_materials" : "");
    uint32_t n = blvl_Geometry_materials_len(g), ns = 0;
    if (sym) {
        blvl_symbols_info info;
        blvl_symbols_get_info(sym, &info);
        ns = info.materials;
    }
    for (uint32_t i = 0; i < n; i++) {
        blvl_Material m = blvl_Geometry_materials_at(g, i);
        printf("%u\t", i);
        str(blvl_Material_name(m));
        idx(blvl_Material_texture(m));
        printf("\t%g\t%u\t%d\t%d", (double)blvl_Material_sort(m), blvl_Material_blend(m),
               blvl_Material_two_sided(m), blvl_Material_sky(m));
        if (sym) {
            /* the source materials the bake merged into this one */
            int any = 0;
            putchar('\t');
            for (uint32_t k = 0; k < ns; k++) {
                blvl_symbols_material sm;
                if (blvl_symbols_material_at(sym, k, &sm) && sm.baked == i) {
                    printf("%s%s", any ? "," : "", sm.name[0] ? sm.name : "?");
                    any = 1;
                }
            }
            if (!any)
                putchar('-');
        }
        putchar('\n');
    }
}

static void entities(blvl_Entities e) {
    printf("index\tclassname\tpairs\n");
    uint32_t n = blvl_Entities_entities_len(e);
    for (uint32_t i = 0; i < n; i++) {
        blvl_Entity en = blvl_Entities_entities_at(e, i);
        printf("%u\t", i);
        str(blvl_Entity_classname(en));
        putchar('\t');
        uint32_t np = blvl_Entity_pairs_len(en);
        for (uint32_t k = 0; k < np; k++) {
            blvl_KeyValue kv = blvl_Entity_pairs_at(en, k);
            if (k)
                putchar(' ');
            str(blvl_KeyValue_key(kv));
            putchar('=');
            str(blvl_KeyValue_value(kv));
        }
        if (!np)
            putchar('-');
        putchar('\n');
    }
}

static void spawns(blvl_Sim sim) {
    printf("index\tx\ty\tz\tyaw\tkind\tteam\tgametypes\n");
    uint32_t n = blvl_Sim_spawns_len(sim);
    for (uint32_t i = 0; i < n; i++) {
        blvl_Spawn s = blvl_Sim_spawns_at(sim, i);
        printf("%u", i);
        vec3(blvl_Spawn_position(s));
        printf("\t%.9g\t", (double)blvl_Spawn_yaw(s));
        str(blvl_Spawn_kind(s));
        putchar('\t');
        str(blvl_Spawn_team(s));
        printf("\t0x%x\n", blvl_Spawn_gametypes(s));
    }
}

int cli_diag_dump(const char *file, blvl_level *level, const char *kind, const char *sym_path,
                  const uint8_t *sym_data, size_t sym_size) {
    blvl_error err;
    blvl_symbols *sym = NULL;
    if (sym_data) {
        if (blvl_symbols_open_memory(&sym, sym_data, sym_size, level, 0, NULL, &err) != BLVL_OK)
            return cli_fail(sym_path, &err);
    }
    blvl_bytes b;
    int rc = CLI_OK;
    blvl_status st;
    if (strcmp(kind, "colliders") == 0 || strcmp(kind, "spawns") == 0) {
        blvl_Sim sim;
        if ((st = blvl_level_sim(level, &b, &sim, &err)) != BLVL_OK) {
            rc = cli_fail(file, &err);
        } else {
            if (kind[0] == 'c')
                colliders(sim, sym);
            else
                spawns(sim);
            blvl_bytes_free(&b);
        }
    } else if (strcmp(kind, "entities") == 0) {
        blvl_Entities e;
        if ((st = blvl_level_entities(level, &b, &e, &err)) != BLVL_OK && st != BLVL_E_NOT_FOUND) {
            rc = cli_fail(file, &err);
        } else {
            if (st == BLVL_E_NOT_FOUND)
                e.p_ = NULL;
            entities(e);
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
                batches(g, sym);
            else
                materials(g, sym);
            if (st == BLVL_OK)
                blvl_bytes_free(&b);
        }
    }
    if (sym)
        blvl_symbols_free(sym);
    return rc;
}
