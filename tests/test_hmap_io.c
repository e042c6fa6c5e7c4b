/* The .hmap reader and writer (src/import/hmap/) against files written by an independent Python
 * implementation (tests/data/hmap/make_hmap.py):
 *   - every good file reads, its fields equal the Python writer's dump, and read -> write gives
 *     back the same bytes (source-only, compiled-only, combined, unknown chunks before, between
 *     and after, a shuffled order, zero counts, NaN payloads); a map with no chunk list is
 *     written in the canonical order;
 *   - every bad file is refused with BLVL_E_SOURCE and exactly its expected message;
 *   - a counting allocator: refusals, allocation failures at every step and every truncation
 *     leave nothing allocated, and every free names the size that was allocated;
 *   - the writer builds malformed maps the reader refuses; the 1 GiB file limit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "blvl/hmap.h"
#include "check.h"
#include "files.h"
#include "import/hmap/hmap_internal.h"
#include "support/counting_alloc.h"

/* ---- the dump: every field in file order, as make_hmap.py writes it ------------------------ */

static void d_u32(FILE *f, const char *n, uint32_t v) {
    fprintf(f, "%s u32 %u\n", n, v);
}
static void d_i32(FILE *f, const char *n, int32_t v) {
    fprintf(f, "%s i32 %d\n", n, v);
}
static void d_u8(FILE *f, const char *n, uint8_t v) {
    fprintf(f, "%s u8 %u\n", n, v);
}
static void d_f(FILE *f, const char *n, const float *v, int k) {
    fprintf(f, "%s f32", n);
    for (int i = 0; i < k; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        fprintf(f, " %08x", u);
    }
    fputc('\n', f);
}
#define D_V(f, n, v) d_f(f, n, (const float *)&(v), (int)(sizeof(v) / 4))
static void d_str(FILE *f, const char *n, const blvl_hmap_str *s) {
    fprintf(f, "%s str %u ", n, s->size);
    for (uint32_t i = 0; i < s->size; i++)
        fprintf(f, "%02x", (uint8_t)s->bytes[i]);
    fputc('\n', f);
}
static void d_uv(FILE *f, const char *n, const blvl_hmap_uv *uv) {
    float v[5] = {uv->offset.x, uv->offset.y, uv->scale.x, uv->scale.y, uv->rotation};
    d_f(f, n, v, 5);
}

static void d_cbrushes(FILE *f, uint32_t n, const blvl_hmap_cbrush *b) {
    d_u32(f, "brushCount", n);
    for (uint32_t i = 0; i < n; i++) {
        d_u32(f, "contents", b[i].contents);
        d_u32(f, "sourceId", b[i].source_id);
        D_V(f, "bounds", b[i].bounds);
        d_u32(f, "planeCount", b[i].plane_count);
        for (uint32_t k = 0; k < b[i].plane_count; k++)
            D_V(f, "plane", b[i].planes[k]);
    }
}

static void d_cmpl(FILE *f, const blvl_hmap_compiled *c) {
    char name[32];
    D_V(f, "ambient", c->ambient);
    d_f(f, "unitsPerMeter", &c->units_per_meter, 1);
    d_u8(f, "baked", c->baked);
    D_V(f, "bounds", c->bounds);
    d_u32(f, "batchCount", c->batch_count);
    for (uint32_t i = 0; i < c->batch_count; i++) {
        const blvl_hmap_batch *b = &c->batches[i];
        d_i32(f, "material", b->material);
        d_u8(f, "source", b->source);
        d_i32(f, "model", b->model);
        d_u32(f, "vertexCount", b->vertex_count);
        for (uint32_t k = 0; k < b->vertex_count; k++) {
            D_V(f, "pos", b->vertices[k].pos);
            D_V(f, "normal", b->vertices[k].normal);
            D_V(f, "uv", b->vertices[k].uv);
            d_u32(f, "color", b->vertices[k].color);
        }
        d_u32(f, "indexCount", b->index_count);
        for (uint32_t k = 0; k < b->index_count; k++) {
            snprintf(name, sizeof name, "index[%u]", k);
            d_u32(f, name, b->indices[k]);
        }
    }
    d_u32(f, "modelCount", c->model_count);
    for (uint32_t i = 0; i < c->model_count; i++) {
        d_u32(f, "entityId", c->models[i].entity_id);
        D_V(f, "bounds", c->models[i].bounds);
        d_cbrushes(f, c->models[i].brush_count, c->models[i].brushes);
    }
    const blvl_hmap_bsp *t = &c->bsp;
    d_i32(f, "root", t->root);
    d_u32(f, "depth", t->depth);
    D_V(f, "bounds", t->bounds);
    d_u32(f, "planeCount", t->plane_count);
    for (uint32_t i = 0; i < t->plane_count; i++)
        D_V(f, "plane", t->planes[i]);
    d_u32(f, "nodeCount", t->node_count);
    for (uint32_t i = 0; i < t->node_count; i++) {
        d_i32(f, "plane", t->nodes[i].plane);
        d_i32(f, "front", t->nodes[i].front);
        d_i32(f, "back", t->nodes[i].back);
    }
    d_u32(f, "leafCount", t->leaf_count);
    for (uint32_t i = 0; i < t->leaf_count; i++) {
        d_u32(f, "firstBrush", t->leaves[i].first_brush);
        d_u32(f, "brushCount", t->leaves[i].brush_count);
    }
    d_u32(f, "leafBrushCount", t->leaf_brush_count);
    for (uint32_t i = 0; i < t->leaf_brush_count; i++) {
        snprintf(name, sizeof name, "leafBrush[%u]", i);
        d_u32(f, name, t->leaf_brushes[i]);
    }
    d_cbrushes(f, t->brush_count, t->brushes);
    d_u32(f, "meshCollCount", c->mesh_coll_count);
    for (uint32_t i = 0; i < c->mesh_coll_count; i++) {
        d_u32(f, "objectId", c->mesh_colls[i].object_id);
        D_V(f, "bounds", c->mesh_colls[i].bounds);
        d_u32(f, "vertexCount", c->mesh_colls[i].vertex_count);
        for (uint32_t k = 0; k < c->mesh_colls[i].vertex_count; k++)
            D_V(f, "vertex", c->mesh_colls[i].vertices[k]);
    }
    d_u32(f, "lightCount", c->light_count);
    for (uint32_t i = 0; i < c->light_count; i++) {
        const blvl_hmap_light *l = &c->lights[i];
        d_u8(f, "type", l->type);
        D_V(f, "pos", l->pos);
        D_V(f, "dir", l->dir);
        D_V(f, "color", l->color);
        d_f(f, "intensity", &l->intensity, 1);
        d_f(f, "radius", &l->radius, 1);
        d_f(f, "innerDeg", &l->inner_deg, 1);
        d_f(f, "outerDeg", &l->outer_deg, 1);
        d_u32(f, "entityId", l->entity_id);
    }
}

static void d_chunk(FILE *f, const blvl_hmap *m, const blvl_hmap_chunk *ch) {
    char name[32];
    fprintf(f, "chunk %02x%02x%02x%02x %d\n", (uint8_t)ch->tag[0], (uint8_t)ch->tag[1],
            (uint8_t)ch->tag[2], (uint8_t)ch->tag[3], ch->known ? 1 : 0);
    if (!ch->known) {
        fprintf(f, "bytes %u ", ch->size);
        for (uint32_t i = 0; i < ch->size; i++)
            fprintf(f, "%02x", ch->bytes[i]);
        fputc('\n', f);
        return;
    }
    if (!memcmp(ch->tag, "META", 4)) {
        d_str(f, "name", &m->meta->name);
        D_V(f, "ambient", m->meta->ambient);
        d_f(f, "gridSize", &m->meta->grid_size, 1);
        d_f(f, "unitsPerMeter", &m->meta->units_per_meter, 1);
        d_u32(f, "nextId", m->meta->next_id);
    } else if (!memcmp(ch->tag, "MATS", 4)) {
        d_u32(f, "n", m->material_count);
        for (uint32_t i = 0; i < m->material_count; i++) {
            const blvl_hmap_material *x = &m->materials[i];
            d_str(f, "name", &x->name);
            d_str(f, "texture", &x->texture);
            D_V(f, "tileSize", x->tile_size);
            D_V(f, "color", x->color);
            d_u32(f, "flags", x->flags);
        }
    } else if (!memcmp(ch->tag, "BRSH", 4)) {
        d_u32(f, "n", m->brush_count);
        for (uint32_t i = 0; i < m->brush_count; i++) {
            const blvl_hmap_brush *b = &m->brushes[i];
            d_u32(f, "id", b->id);
            d_u32(f, "owner", b->owner);
            d_u32(f, "contents", b->contents);
            d_u32(f, "flags", b->flags);
            d_u32(f, "faceCount", b->face_count);
            for (uint32_t k = 0; k < b->face_count; k++) {
                D_V(f, "plane", b->faces[k].plane);
                d_i32(f, "material", b->faces[k].material);
                d_uv(f, "uv", &b->faces[k].uv);
                d_u32(f, "flags", b->faces[k].flags);
            }
        }
    } else if (!memcmp(ch->tag, "MESH", 4)) {
        d_u32(f, "n", m->mesh_count);
        for (uint32_t i = 0; i < m->mesh_count; i++) {
            const blvl_hmap_mesh *x = &m->meshes[i];
            d_u32(f, "id", x->id);
            d_u32(f, "owner", x->owner);
            d_u32(f, "flags", x->flags);
            d_str(f, "name", &x->name);
            d_u32(f, "vertCount", x->vertex_count);
            for (uint32_t k = 0; k < x->vertex_count; k++)
                D_V(f, "vert", x->vertices[k]);
            d_u32(f, "polyCount", x->poly_count);
            for (uint32_t k = 0; k < x->poly_count; k++) {
                const blvl_hmap_poly *p = &x->polys[k];
                d_i32(f, "material", p->material);
                d_u32(f, "smooth", p->smooth);
                d_uv(f, "proj", &p->proj);
                d_u32(f, "idxCount", p->index_count);
                for (uint32_t j = 0; j < p->index_count; j++) {
                    snprintf(name, sizeof name, "index[%u]", j);
                    d_u32(f, name, p->indices[j]);
                }
                d_u32(f, "uvCount", p->uv_count);
                for (uint32_t j = 0; j < p->uv_count; j++)
                    D_V(f, "uv", p->uvs[j]);
            }
        }
    } else if (!memcmp(ch->tag, "ENTS", 4)) {
        d_u32(f, "n", m->entity_count);
        for (uint32_t i = 0; i < m->entity_count; i++) {
            const blvl_hmap_entity *e = &m->entities[i];
            d_u32(f, "id", e->id);
            d_u32(f, "flags", e->flags);
            d_str(f, "classname", &e->classname);
            D_V(f, "origin", e->origin);
            D_V(f, "angles", e->angles);
            D_V(f, "scale", e->scale);
            d_u32(f, "kvCount", e->pair_count);
            for (uint32_t k = 0; k < e->pair_count; k++) {
                d_str(f, "key", &e->pairs[k].key);
                d_str(f, "value", &e->pairs[k].value);
            }
        }
    } else if (!memcmp(ch->tag, "CMPL", 4)) {
        d_cmpl(f, m->compiled);
    }
}

static char *dump(const blvl_hmap *m) {
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    d_u32(f, "version", m->version);
    d_u32(f, "flags", m->flags);
    for (uint32_t i = 0; i < m->chunk_count; i++)
        d_chunk(f, m, &m->chunks[i]);
    fclose(f);
    return text;
}

/* ---- helpers ------------------------------------------------------------------------------ */

static uint8_t *load(const char *dir, const char *name, const char *ext, size_t *n) {
    char path[512];
    snprintf(path, sizeof path, "tests/data/hmap/%s/%s%s", dir, name, ext);
    uint8_t *b = test_slurp(path, n);
    if (!b)
        fprintf(stderr, "cannot read %s\n", path);
    return b;
}

/* Reads with a counting allocator; on success also checks write and free. Returns the status. */
static blvl_status read_counted(const uint8_t *b, size_t n, long fail_at, blvl_error *e,
                                int identical) {
    test_counter c;
    blvl_options o = test_counting(&c);
    c.fail_at = fail_at;
    blvl_hmap *m = (blvl_hmap *)(uintptr_t)1;
    blvl_status st = blvl_hmap_read(&m, b, n, &o, e);
    if (st) {
        CHECK(m == NULL);
        CHECK(e->code == st);
    } else {
        void *out = NULL;
        size_t size = 0;
        c.fail_at = 0;
        CHECK(blvl_hmap_write(&out, &size, m, &o, e) == BLVL_OK);
        if (identical)
            CHECK(size == n && out && memcmp(out, b, n) == 0);
        blvl_free(&o, out);
        blvl_hmap_free(m);
    }
    CHECK_EQ_INT(c.live, 0);
    CHECK_EQ_INT(c.bad_free, 0);
    return st;
}

static const char *good_files[] = {"source",   "compiled",    "combined",    "unknown_chunks",
                                   "shuffled", "zero_counts", "header_only", "meta_only",
                                   "new_map",  "odd_floats"};
#define N_GOOD (sizeof good_files / sizeof *good_files)

static void test_good(void) {
    for (size_t i = 0; i < N_GOOD; i++) {
        size_t n, dn;
        uint8_t *b = load("good", good_files[i], ".hmap", &n);
        uint8_t *want = load("good", good_files[i], ".dump", &dn);
        CHECK(b && want);
        if (!b || !want)
            continue;
        blvl_hmap *m = NULL;
        blvl_error e;
        blvl_status st = blvl_hmap_read(&m, b, n, NULL, &e);
        if (st)
            fprintf(stderr, "%s: %s\n", good_files[i], e.message);
        CHECK_EQ_INT(st, BLVL_OK);
        if (m) {
            char *got = dump(m);
            if (strcmp(got, (char *)want) != 0) {
                fprintf(stderr, "%s: the parsed fields differ from the Python dump\n",
                        good_files[i]);
                test_spit("/tmp/hmap_dump_got.txt", got, strlen(got));
            }
            CHECK(strcmp(got, (char *)want) == 0);
            free(got);
            /* chunk list: offsets and sizes as in the file */
            for (uint32_t k = 0; k < m->chunk_count; k++) {
                const blvl_hmap_chunk *ch = &m->chunks[k];
                CHECK(ch->offset + 8 + ch->size <= n);
                CHECK(memcmp(b + ch->offset, ch->tag, 4) == 0);
                CHECK(ch->known == (ch->bytes == NULL) || (!ch->known && ch->size == 0));
            }
            blvl_hmap_free(m);
        }
        blvl_error e2;
        CHECK_EQ_INT(read_counted(b, n, 0, &e2, 1), BLVL_OK);
        free(b);
        free(want);
    }
}

/* A map with no chunk list is written META, MATS, BRSH, MESH, ENTS, CMPL: the shuffled file so
 * written is the combined one (same content, flags 3). */
static void test_canonical(void) {
    size_t n1, n2;
    uint8_t *shuf = load("good", "shuffled", ".hmap", &n1);
    uint8_t *comb = load("good", "combined", ".hmap", &n2);
    CHECK(shuf && comb);
    blvl_hmap *m = NULL;
    blvl_error e;
    CHECK(shuf && blvl_hmap_read(&m, shuf, n1, NULL, &e) == BLVL_OK);
    if (m && comb) {
        uint32_t count = m->chunk_count;
        m->chunk_count = 0;
        void *out = NULL;
        size_t size = 0;
        CHECK(blvl_hmap_write(&out, &size, m, NULL, &e) == BLVL_OK);
        CHECK(size == n2 && memcmp(out, comb, n2) == 0);
        blvl_free(NULL, out);
        /* without MESH and CMPL: the order holds for what is left */
        m->has_mesh = false;
        blvl_hmap_compiled *c = m->compiled;
        m->compiled = NULL;
        m->flags = 1;
        CHECK(blvl_hmap_write(&out, &size, m, NULL, &e) == BLVL_OK);
        blvl_hmap *back = NULL;
        CHECK(blvl_hmap_read(&back, out, size, NULL, &e) == BLVL_OK);
        if (back) {
            CHECK_EQ_INT(back->chunk_count, 4);
            const char *order = "METAMATSBRSHENTS";
            for (uint32_t k = 0; k < back->chunk_count && k < 4; k++)
                CHECK(memcmp(back->chunks[k].tag, order + 4 * k, 4) == 0);
            CHECK(back->mesh_count == 0 && !back->has_mesh && !back->compiled);
            blvl_hmap_free(back);
        }
        blvl_free(NULL, out);
        m->compiled = c;
        m->has_mesh = true;
        m->chunk_count = count;
        blvl_hmap_free(m);
    }
    free(shuf);
    free(comb);
}

static int bad_count;

static void test_bad(void) {
    size_t n;
    char *list = (char *)load("bad", "expected", ".tsv", &n);
    CHECK(list != NULL);
    if (!list)
        return;
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        CHECK(tab != NULL);
        if (!tab)
            continue;
        *tab = '\0';
        const char *want = tab + 1;
        size_t fn;
        uint8_t *b = load("bad", line, ".hmap", &fn);
        CHECK(b != NULL);
        if (!b)
            continue;
        bad_count++;
        blvl_hmap *m = NULL;
        blvl_error e;
        blvl_status st = blvl_hmap_read(&m, b, fn, NULL, &e);
        CHECK_EQ_INT(st, BLVL_E_SOURCE);
        CHECK(m == NULL);
        if (strcmp(e.message, want) != 0)
            fprintf(stderr, "%s:\n  got  %s\n  want %s\n", line, e.message, want);
        CHECK(strcmp(e.message, want) == 0);
        /* the same refusal with a counting allocator frees everything */
        blvl_error e2;
        CHECK_EQ_INT(read_counted(b, fn, 0, &e2, 0), BLVL_E_SOURCE);
        CHECK(strcmp(e2.message, want) == 0);
        free(b);
    }
    free(list);
    CHECK(bad_count >= 40);
}

/* Every allocation of a read failing in turn: BLVL_E_NOMEM, nothing left allocated. */
static void test_nomem(void) {
    size_t n;
    uint8_t *b = load("good", "unknown_chunks", ".hmap", &n);
    CHECK(b != NULL);
    if (!b)
        return;
    test_counter c;
    blvl_options o = test_counting(&c);
    blvl_hmap *m = NULL;
    blvl_error e;
    CHECK(blvl_hmap_read(&m, b, n, &o, &e) == BLVL_OK);
    long total = c.calls;
    blvl_hmap_free(m);
    CHECK(total > 50);
    for (long k = 1; k <= total; k++) {
        blvl_error e2;
        blvl_status st = read_counted(b, n, k, &e2, 1);
        CHECK_EQ_INT(st, BLVL_E_NOMEM);
    }
    free(b);
}

/* Every prefix of a file: read only at a chunk boundary, otherwise refused; never a leak. */
static void test_prefixes(void) {
    const char *names[] = {"combined", "unknown_chunks", "meta_only"};
    for (size_t f = 0; f < 3; f++) {
        size_t n;
        uint8_t *b = load("good", names[f], ".hmap", &n);
        CHECK(b != NULL);
        if (!b)
            continue;
        blvl_hmap *m = NULL;
        blvl_error e;
        CHECK(blvl_hmap_read(&m, b, n, NULL, &e) == BLVL_OK);
        int bad = 0;
        for (size_t len = 0; len < n; len++) {
            blvl_error e2;
            blvl_status st = read_counted(b, len, 0, &e2, 1);
            bool boundary = len == 12;
            for (uint32_t k = 0; m && k < m->chunk_count; k++)
                boundary |= len == m->chunks[k].offset + 8 + m->chunks[k].size;
            if (st == BLVL_OK && !boundary)
                bad++;
            if (st != BLVL_OK && st != BLVL_E_SOURCE)
                bad++;
        }
        CHECK_EQ_INT(bad, 0);
        blvl_hmap_free(m);
        free(b);
    }
}

/* The writer checks nothing: malformed maps built from a good one, refused on reading. */
static void refuse_written(blvl_hmap *m, const char *want_prefix) {
    void *out = NULL;
    size_t size = 0;
    blvl_error e;
    CHECK(blvl_hmap_write(&out, &size, m, NULL, &e) == BLVL_OK);
    blvl_hmap *back = NULL;
    CHECK_EQ_INT(blvl_hmap_read(&back, out, size, NULL, &e), BLVL_E_SOURCE);
    CHECK(back == NULL);
    if (strncmp(e.message, want_prefix, strlen(want_prefix)) != 0)
        fprintf(stderr, "got %s\nwant %s...\n", e.message, want_prefix);
    CHECK(strncmp(e.message, want_prefix, strlen(want_prefix)) == 0);
    blvl_free(NULL, out);
}

static void test_writer_builds_bad(void) {
    size_t n;
    uint8_t *b = load("good", "combined", ".hmap", &n);
    blvl_hmap *m = NULL;
    blvl_error e;
    CHECK(b && blvl_hmap_read(&m, b, n, NULL, &e) == BLVL_OK);
    if (!m) {
        free(b);
        return;
    }
    int32_t keep = m->brushes[2].faces[1].material;
    m->brushes[2].faces[1].material = 99;
    refuse_written(m, "BRSH: brush[2].face[1].material at offset ");
    m->brushes[2].faces[1].material = keep;

    blvl_hmap_bsp *t = &m->compiled->bsp;
    int32_t back = t->nodes[2].back;
    t->nodes[2].back = 1;
    refuse_written(m, "CMPL: bsp.node[2].back at offset ");
    t->nodes[2].back = back;
    t->depth++;
    refuse_written(m, "CMPL: bsp.depth at offset ");
    t->depth--;

    uint32_t idx = m->meshes[0].polys[0].indices[1];
    m->meshes[0].polys[0].indices[1] = 1000;
    refuse_written(m, "MESH: mesh[0].poly[0].index[1] at offset ");
    m->meshes[0].polys[0].indices[1] = idx;

    /* a repeated known chunk, written as an unknown one with the bytes of MATS */
    void *out = NULL;
    size_t size = 0;
    CHECK(blvl_hmap_write(&out, &size, m, NULL, &e) == BLVL_OK);
    uint32_t k = 0;
    while (k < m->chunk_count && memcmp(m->chunks[k].tag, "MATS", 4))
        k++;
    blvl_hmap_chunk *chunks = calloc(m->chunk_count + 1, sizeof *chunks);
    memcpy(chunks, m->chunks, m->chunk_count * sizeof *chunks);
    chunks[m->chunk_count] = m->chunks[k];
    chunks[m->chunk_count].known = false;
    chunks[m->chunk_count].bytes = (uint8_t *)out + m->chunks[k].offset + 8;
    blvl_hmap_chunk *own = m->chunks;
    m->chunks = chunks;
    m->chunk_count++;
    refuse_written(m, "MATS: tag at offset ");
    m->chunk_count--;
    m->chunks = own;
    free(chunks);
    blvl_free(NULL, out);

    /* and unchanged, it writes the file back */
    CHECK(blvl_hmap_write(&out, &size, m, NULL, &e) == BLVL_OK);
    CHECK(size == n && memcmp(out, b, n) == 0);
    blvl_free(NULL, out);
    blvl_hmap_free(m);
    free(b);
}

/* The record offsets the bake may use for its refusals point at the records' first bytes. */
static int32_t i32_at(const uint8_t *b, uint64_t at) {
    uint32_t u = (uint32_t)b[at] | (uint32_t)b[at + 1] << 8 | (uint32_t)b[at + 2] << 16 |
                 (uint32_t)b[at + 3] << 24;
    int32_t v;
    memcpy(&v, &u, 4);
    return v;
}

static void test_offsets(void) {
    const char *names[] = {"combined", "shuffled", "unknown_chunks"};
    for (size_t f = 0; f < 3; f++) {
        size_t n;
        uint8_t *b = load("good", names[f], ".hmap", &n);
        blvl_hmap *m = NULL;
        blvl_error e;
        CHECK(b && blvl_hmap_read(&m, b, n, NULL, &e) == BLVL_OK);
        if (!m) {
            free(b);
            continue;
        }
        int bad = 0;
        for (uint32_t i = 0; i < m->brush_count; i++) {
            bad +=
                i32_at(b, blvl__import_hmap_at_face(m, i, UINT32_MAX)) != (int32_t)m->brushes[i].id;
            for (uint32_t k = 0; k < m->brushes[i].face_count; k++)
                bad += i32_at(b, blvl__import_hmap_at_face(m, i, k) + 16) !=
                       m->brushes[i].faces[k].material;
        }
        for (uint32_t i = 0; i < m->mesh_count; i++) {
            bad +=
                i32_at(b, blvl__import_hmap_at_poly(m, i, UINT32_MAX)) != (int32_t)m->meshes[i].id;
            for (uint32_t k = 0; k < m->meshes[i].poly_count; k++)
                bad +=
                    i32_at(b, blvl__import_hmap_at_poly(m, i, k)) != m->meshes[i].polys[k].material;
        }
        for (uint32_t i = 0; i < m->entity_count; i++)
            bad += i32_at(b, blvl__import_hmap_at_entity(m, i)) != (int32_t)m->entities[i].id;
        for (uint32_t i = 0; i < m->compiled->batch_count; i++)
            bad += i32_at(b, blvl__import_hmap_at_batch(m, i)) != m->compiled->batches[i].material;
        CHECK_EQ_INT(bad, 0);
        CHECK(m->brush_count == 3 && m->mesh_count == 2 && m->entity_count == 3);
        blvl_hmap_free(m);
        free(b);
    }
}

/* Over BLVL_HMAP_MAX_FILE: refused before a byte is read (the mapping is never touched). */
static void test_size_limit(void) {
    size_t big = (size_t)BLVL_HMAP_MAX_FILE + 1;
    void *p = mmap(NULL, big, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(p != MAP_FAILED);
    if (p == MAP_FAILED)
        return;
    blvl_hmap *m = NULL;
    blvl_error e;
    CHECK_EQ_INT(blvl_hmap_read(&m, p, big, NULL, &e), BLVL_E_SOURCE);
    CHECK(strcmp(e.message, "header: file at offset 1073741824: file-size: 1073741825 bytes, "
                            "over the limit of 1073741824") == 0);
    /* exactly at the limit the size passes and the magic is what is wrong */
    CHECK_EQ_INT(blvl_hmap_read(&m, p, big - 1, NULL, &e), BLVL_E_SOURCE);
    CHECK(strncmp(e.message, "header: magic at offset 0: magic: ", 34) == 0);
    munmap(p, big);
    CHECK_EQ_INT(blvl_hmap_read(&m, NULL, 0, NULL, &e), BLVL_E_SOURCE);
    CHECK_EQ_INT(blvl_hmap_read(&m, NULL, 1, NULL, &e), BLVL_E_ARGUMENT);
    CHECK_EQ_INT(blvl_hmap_read(NULL, "HMAP", 4, NULL, &e), BLVL_E_ARGUMENT);
}

int main(void) {
    test_good();
    test_canonical();
    test_bad();
    test_nomem();
    test_prefixes();
    test_writer_builds_bad();
    test_size_limit();
    test_offsets();
    printf("hmap io: %zu good files, %d bad files\n", N_GOOD, bad_count);
    return check_report("test_hmap_io");
}
