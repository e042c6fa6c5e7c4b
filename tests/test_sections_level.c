/* A level with every core section filled with non-trivial content, baked and read back field for
 * field. Each of the twelve core sections is built from its sample tests/data/sections/<tag>.json
 * with blvl's own JSON parser and builder, baked into one level together with a game section
 * outside identity, opened, verified, and read back through the typed section API:
 *   generic: our JSON of every read-back section equals flatc's JSON of the sample (flatc is the
 *            independent reader of the sample; tests/fb/jsoncmp.py compares semantically);
 *   typed:   the generated accessors give, for every field of every row, the value the sample
 *            spells, or the schema default where the sample leaves the field out. The expected
 *            values are looked up in the sample text at run time by a tiny JSON path lookup, so
 *            nothing here is a copy of what our own printer says. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "blvl/sections.h"
#include "check.h"
#include "files.h"
#include "sections/roots.h"

/* ---- a tiny JSON path lookup over the sample text ---------------------------------------- */

static const char *J; /* the sample of the section being checked */

static const char *jws(const char *p) {
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    return p;
}

/* The first byte after the value at p (p at the value's first byte), NULL when malformed. */
static const char *jskip(const char *p) {
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1])
                p++;
        return *p ? p + 1 : NULL;
    }
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = jws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') { /* key */
                p = jskip(p);
                if (!p)
                    return NULL;
                p = jws(p);
                if (*p != ':')
                    return NULL;
                p = jws(p + 1);
            }
            p = jskip(p);
            if (!p)
                return NULL;
            p = jws(p);
            if (*p == close)
                return p + 1;
            if (*p != ',')
                return NULL;
            p = jws(p + 1);
        }
    }
    const char *s = p;
    while (*p && !strchr(",]} \n\r\t", *p))
        p++;
    return p > s ? p : NULL;
}

/* The value at a path such as `colliders[3].shape.planes[2].normal.x`, NULL when absent. */
static const char *jvalue(const char *path) {
    const char *p = jws(J);
    while (*path) {
        if (*path == '.')
            path++;
        if (*path == '[') {
            char *end;
            unsigned long n = strtoul(path + 1, &end, 10);
            if (*end != ']' || *p != '[')
                return NULL;
            path = end + 1;
            p = jws(p + 1);
            for (unsigned long i = 0; i < n; i++) {
                if (*p == ']' || !(p = jskip(p)))
                    return NULL;
                p = jws(p);
                if (*p != ',')
                    return NULL;
                p = jws(p + 1);
            }
            if (*p == ']')
                return NULL;
            continue;
        }
        size_t klen = strcspn(path, ".[");
        if (*p != '{')
            return NULL;
        p = jws(p + 1);
        for (;;) {
            if (*p != '"')
                return NULL;
            int match = strncmp(p + 1, path, klen) == 0 && p[1 + klen] == '"';
            if (!(p = jskip(p)))
                return NULL;
            p = jws(p);
            if (*p != ':')
                return NULL;
            p = jws(p + 1);
            if (match)
                break;
            if (!(p = jskip(p)))
                return NULL;
            p = jws(p);
            if (*p != ',')
                return NULL; /* '}' : no such key */
            p = jws(p + 1);
        }
        path += klen;
    }
    /* null means absent, as for flatc and our parser */
    return strncmp(p, "null", 4) == 0 ? NULL : p;
}

static const char *jvaluef(char *path, size_t n, const char *fmt, va_list ap) {
    vsnprintf(path, n, fmt, ap);
    return jvalue(path);
}

static double jnum(const char *v) {
    if (strncmp(v, "true", 4) == 0)
        return 1;
    if (strncmp(v, "false", 5) == 0)
        return 0;
    return strtod(v, NULL);
}

/* Decode the JSON string at v into out (NUL-terminated); returns its length. */
static size_t jstr(const char *v, char *out, size_t cap) {
    size_t n = 0;
    if (*v != '"')
        return 0;
    for (v++; *v && *v != '"' && n + 4 < cap; v++) {
        char c = *v;
        if (c == '\\') {
            c = *++v;
            switch (c) {
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case 'r':
                c = '\r';
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case 'u': {
                unsigned cp = (unsigned)strtoul((char[5]){v[1], v[2], v[3], v[4], 0}, NULL, 16);
                v += 4;
                if (cp < 0x80) {
                    out[n++] = (char)cp;
                } else if (cp < 0x800) {
                    out[n++] = (char)(0xC0 | cp >> 6);
                    out[n++] = (char)(0x80 | (cp & 0x3F));
                } else {
                    out[n++] = (char)(0xE0 | cp >> 12);
                    out[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
                    out[n++] = (char)(0x80 | (cp & 0x3F));
                }
                continue;
            }
            default:
                break; /* \" \\ \/ */
            }
        }
        out[n++] = c;
    }
    out[n] = 0;
    return n;
}

/* Elements of the array at v (0 when absent). */
static uint32_t jcount(const char *v) {
    if (!v || *v != '[')
        return 0;
    const char *p = jws(v + 1);
    uint32_t n = 0;
    while (*p != ']') {
        if (!(p = jskip(p)))
            return n;
        n++;
        p = jws(p);
        if (*p == ',')
            p = jws(p + 1);
    }
    return n;
}

/* ---- checks that name the sample path on failure ------------------------------------------ */

/* Build a sample path (long enough for every path of the samples). */
static void pathf(char *dst, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, n, fmt, ap);
    va_end(ap);
}

static void pass(int ok, const char *path, const char *what) {
    if (ok) {
        check_passed_++;
    } else {
        check_failed_++;
        fprintf(stderr, "CHECK failed at %s: %s\n", path, what);
    }
}

/* A float field: the sample's value, or `def` when the sample leaves it out. */
static void chk_f(float got, float def, const char *fmt, ...) {
    char path[256], msg[128];
    va_list ap;
    va_start(ap, fmt);
    const char *v = jvaluef(path, sizeof path, fmt, ap);
    va_end(ap);
    float want = v ? (float)jnum(v) : def;
    snprintf(msg, sizeof msg, "got %.9g, want %.9g", (double)got, (double)want);
    pass(got == want || (isnan(got) && isnan(want)), path, msg);
}

/* An integer or bool field. */
static void chk_i(int64_t got, int64_t def, const char *fmt, ...) {
    char path[256], msg[128];
    va_list ap;
    va_start(ap, fmt);
    const char *v = jvaluef(path, sizeof path, fmt, ap);
    va_end(ap);
    int64_t want = def;
    if (v)
        want = (*v == 't' || *v == 'f') ? (int64_t)jnum(v) : strtoll(v, NULL, 10);
    snprintf(msg, sizeof msg, "got %lld, want %lld", (long long)got, (long long)want);
    pass(got == want, path, msg);
}

/* A string: the sample's, or "" when the sample leaves it out. */
static void chk_s(blvl_fb_str got, const char *fmt, ...) {
    char path[256], want[4096], msg[128];
    va_list ap;
    va_start(ap, fmt);
    const char *v = jvaluef(path, sizeof path, fmt, ap);
    va_end(ap);
    size_t n = v ? jstr(v, want, sizeof want) : 0;
    want[n] = 0;
    snprintf(msg, sizeof msg, "got \"%.40s\" (%u bytes), want \"%.40s\"", got.ptr, got.len, want);
    pass(got.ptr && got.len == n && memcmp(got.ptr, want, n) == 0 && got.ptr[n] == 0, path, msg);
}

/* An enum: the sample names it; absent is the value 0 (every default in our schemas). */
static void chk_e(int64_t got, const blvl_fb_enum *e, const char *fmt, ...) {
    char path[256], want[64], msg[160];
    va_list ap;
    va_start(ap, fmt);
    const char *v = jvaluef(path, sizeof path, fmt, ap);
    va_end(ap);
    const char *def = blvl_fb_enum_name(e, 0);
    if (v)
        jstr(v, want, sizeof want);
    else
        snprintf(want, sizeof want, "%s", def ? def : "?");
    const char *name = blvl_fb_enum_name(e, got);
    snprintf(msg, sizeof msg, "got %lld (%s), want %s", (long long)got, name ? name : "?", want);
    pass(name && strcmp(name, want) == 0, path, msg);
}

/* A vector's length, or presence of a table, struct or string. */
static void chk_len(uint32_t got, const char *fmt, ...) {
    char path[256], msg[64];
    va_list ap;
    va_start(ap, fmt);
    const char *v = jvaluef(path, sizeof path, fmt, ap);
    va_end(ap);
    uint32_t want = jcount(v);
    snprintf(msg, sizeof msg, "length %u, want %u", got, want);
    pass(got == want, path, msg);
}
static void chk_present(bool got, const char *fmt, ...) {
    char path[256];
    va_list ap;
    va_start(ap, fmt);
    const char *v = jvaluef(path, sizeof path, fmt, ap);
    va_end(ap);
    pass(got == (v != NULL), path, got ? "present, the sample has none" : "absent");
}

/* An array of numbers compared element by element with `got(i)` values. */
static void chk_numbers(const double *got, uint32_t n, const char *fmt, ...) {
    char path[256], msg[128];
    va_list ap;
    va_start(ap, fmt);
    const char *v = jvaluef(path, sizeof path, fmt, ap);
    va_end(ap);
    uint32_t want_n = jcount(v);
    snprintf(msg, sizeof msg, "length %u, want %u", n, want_n);
    pass(n == want_n, path, msg);
    const char *p = v ? jws(v + 1) : "";
    for (uint32_t i = 0; i < n && i < want_n; i++) {
        double want = jnum(p);
        if (got[i] != want) {
            snprintf(msg, sizeof msg, "[%u] got %.9g, want %.9g", i, got[i], want);
            pass(0, path, msg);
            return;
        }
        p = jws(jskip(p));
        if (*p == ',')
            p = jws(p + 1);
    }
    pass(1, path, "");
}

static void chk_v2(blvl_Vec2 v, const char *pre) {
    chk_f(v.x, 0, "%s.x", pre);
    chk_f(v.y, 0, "%s.y", pre);
}
static void chk_v3(blvl_Vec3 v, const char *pre) {
    chk_f(v.x, 0, "%s.x", pre);
    chk_f(v.y, 0, "%s.y", pre);
    chk_f(v.z, 0, "%s.z", pre);
}
static void chk_v4(blvl_Vec4 v, const char *pre) {
    chk_f(v.x, 0, "%s.x", pre);
    chk_f(v.y, 0, "%s.y", pre);
    chk_f(v.z, 0, "%s.z", pre);
    chk_f(v.w, 0, "%s.w", pre);
}
static void chk_plane(blvl_Plane p, const char *pre) {
    char q[256];
    pathf(q, sizeof q, "%s.normal", pre);
    chk_v3(p.normal, q);
    chk_f(p.dist, 0, "%s.dist", pre);
}
static void chk_box(blvl_Box b, const char *pre) {
    char q[256];
    pathf(q, sizeof q, "%s.lo", pre);
    chk_v3(b.lo, q);
    pathf(q, sizeof q, "%s.hi", pre);
    chk_v3(b.hi, q);
}
/* A struct field of a table: present exactly when the sample gives it, then member by member. */
#define CHK_V3_FIELD(T, t, field, pre)                                                             \
    do {                                                                                           \
        char q_[256];                                                                              \
        pathf(q_, sizeof q_, "%s." #field, pre);                                                   \
        chk_present(blvl_##T##_##field##_present(t), "%s", q_);                                    \
        chk_v3(blvl_##T##_##field(t), q_);                                                         \
    } while (0)

static void chk_vertex(blvl_Vertex v, const char *pre) {
    char q[256];
    pathf(q, sizeof q, "%s.position", pre);
    chk_v3(v.position, q);
    pathf(q, sizeof q, "%s.normal", pre);
    chk_v3(v.normal, q);
    pathf(q, sizeof q, "%s.uv", pre);
    chk_v2(v.uv, q);
    pathf(q, sizeof q, "%s.lightmap_uv", pre);
    chk_v2(v.lightmap_uv, q);
    chk_i(v.color.r, 0, "%s.color.r", pre);
    chk_i(v.color.g, 0, "%s.color.g", pre);
    chk_i(v.color.b, 0, "%s.color.b", pre);
    chk_i(v.color.a, 0, "%s.color.a", pre);
    chk_i(v.tangent.x, 0, "%s.tangent.x", pre);
    chk_i(v.tangent.y, 0, "%s.tangent.y", pre);
    chk_i(v.tangent.z, 0, "%s.tangent.z", pre);
    chk_i(v.tangent.w, 0, "%s.tangent.w", pre);
}

static void chk_u32s(blvl_fb_vec v, const char *fmt, const char *pre) {
    double *d = malloc(sizeof *d * (v.len + 1u));
    for (uint32_t i = 0; i < v.len; i++)
        d[i] = blvl_fb_vec_u32(v, i);
    chk_numbers(d, v.len, fmt, pre);
    free(d);
}

/* An Image table: every field, every byte of the blob. */
static void chk_image(blvl_Image img, const char *pre) {
    chk_present(img.p_ != NULL, "%s", pre);
    chk_s(blvl_Image_name(img), "%s.name", pre);
    chk_i(blvl_Image_width(img), 0, "%s.width", pre);
    chk_i(blvl_Image_height(img), 0, "%s.height", pre);
    chk_e(blvl_Image_encoding(img), &blvl_ImageEncoding_enum, "%s.encoding", pre);
    chk_e(blvl_Image_color_space(img), &blvl_ColorSpace_enum, "%s.color_space", pre);
    chk_i(blvl_Image_mips(img), 1, "%s.mips", pre);
    chk_i(blvl_Image_layers(img), 1, "%s.layers", pre);
    uint32_t n = blvl_Image_data_len(img);
    double *d = malloc(sizeof *d * (n + 1u));
    for (uint32_t i = 0; i < n; i++)
        d[i] = blvl_Image_data_at(img, i);
    chk_numbers(d, n, "%s.data", pre);
    free(d);
}

static void chk_wave(blvl_Wave w, bool present, const char *pre) {
    chk_present(present, "%s", pre);
    chk_e(w.func, &blvl_WaveFunc_enum, "%s.func", pre);
    chk_f(w.base, 0, "%s.base", pre);
    chk_f(w.amp, 0, "%s.amp", pre);
    chk_f(w.phase, 0, "%s.phase", pre);
    chk_f(w.freq, 0, "%s.freq", pre);
}

/* ---- the sections, one by one ------------------------------------------------------------- */

static void check_meta(blvl_Meta m) {
    chk_s(blvl_Meta_name(m), "name");
    chk_s(blvl_Meta_author(m), "author");
    chk_s(blvl_Meta_description(m), "description");
    chk_i((int64_t)blvl_Meta_created(m), 0, "created");
    chk_s(blvl_Meta_tool(m), "tool");
    chk_e(blvl_Meta_engine(m), &blvl_Engine_enum, "engine");
    /* the generated constant agrees with the name table and the sample */
    CHECK_EQ_INT(blvl_Meta_engine(m), blvl_Engine_Urt);
    CHECK(strstr(blvl_Meta_description(m).ptr, "\n") != NULL); /* an escape decoded */
}

static void chk_planes_vec(uint32_t n, blvl_Plane (*at)(const void *, uint32_t), const void *t,
                           const char *pre) {
    char q[256];
    chk_len(n, "%s", pre);
    for (uint32_t i = 0; i < n; i++) {
        pathf(q, sizeof q, "%s[%u]", pre, i);
        chk_plane(at(t, i), q);
    }
}
static blvl_Plane planes_at(const void *t, uint32_t i) {
    return blvl_Planes_planes_at(*(const blvl_Planes *)t, i);
}
static blvl_Plane trigger_planes_at(const void *t, uint32_t i) {
    return blvl_Trigger_planes_at(*(const blvl_Trigger *)t, i);
}
static blvl_Plane hurt_planes_at(const void *t, uint32_t i) {
    return blvl_HurtVolume_planes_at(*(const blvl_HurtVolume *)t, i);
}

static void check_sim(blvl_Sim s) {
    char p[256], q[256];
    chk_f(blvl_Sim_kill_y(s), -131072.0f, "kill_y");
    uint32_t planes_seen = 0, hulls_seen = 0;
    chk_len(blvl_Sim_colliders_len(s), "colliders");
    for (uint32_t i = 0; i < blvl_Sim_colliders_len(s); i++) {
        blvl_Collider c = blvl_Sim_colliders_at(s, i);
        pathf(p, sizeof p, "colliders[%u]", i);
        CHK_V3_FIELD(Collider, c, lo, p);
        CHK_V3_FIELD(Collider, c, hi, p);
        chk_i(blvl_Collider_flags(c), 0, "%s.flags", p);
        chk_i(blvl_Collider_material(c), 0xFFFFFFFF, "%s.material", p);
        chk_i(blvl_Collider_breakable(c), 0xFFFFFFFF, "%s.breakable", p);
        chk_i(blvl_Collider_door(c), 0xFFFFFFFF, "%s.door", p);
        chk_i(blvl_Collider_source(c), 0xFFFFFFFF, "%s.source", p);
        chk_i(blvl_Collider_gametypes(c), 0xFFFFFFFF, "%s.gametypes", p);
        chk_e(blvl_Collider_shape_type(c), &blvl_Shape_enum, "%s.shape_type", p);
        pathf(q, sizeof q, "%s.shape", p);
        if (blvl_Collider_shape_type(c) == blvl_Shape_Planes) {
            planes_seen++;
            blvl_Planes pl = blvl_Collider_shape_as_Planes(c);
            CHECK(pl.p_ != NULL && blvl_Collider_shape_as_Hull(c).p_ == NULL);
            pathf(q, sizeof q, "%s.shape.planes", p);
            chk_planes_vec(blvl_Planes_planes_len(pl), planes_at, &pl, q);
        } else if (blvl_Collider_shape_type(c) == blvl_Shape_Hull) {
            hulls_seen++;
            blvl_Hull h = blvl_Collider_shape_as_Hull(c);
            CHECK(h.p_ != NULL && blvl_Collider_shape_as_Planes(c).p_ == NULL);
            chk_len(blvl_Hull_vertices_len(h), "%s.vertices", q);
            for (uint32_t k = 0; k < blvl_Hull_vertices_len(h); k++) {
                char r[256];
                pathf(r, sizeof r, "%s.vertices[%u]", q, k);
                chk_v3(blvl_Hull_vertices_at(h, k), r);
            }
            chk_u32s(blvl_Hull_face_sizes_vec(h), "%s.face_sizes", q);
            chk_u32s(blvl_Hull_face_indices_vec(h), "%s.face_indices", q);
        } else {
            CHECK(!"collider without a shape");
        }
    }
    CHECK(planes_seen > 0 && hulls_seen > 0); /* both union members exercised */

    chk_len(blvl_Sim_collider_sources_len(s), "collider_sources");
    for (uint32_t i = 0; i < blvl_Sim_collider_sources_len(s); i++) {
        blvl_ColliderSource c = blvl_Sim_collider_sources_at(s, i);
        pathf(p, sizeof p, "collider_sources[%u]", i);
        chk_e(blvl_ColliderSource_kind(c), &blvl_ColliderSourceKind_enum, "%s.kind", p);
        chk_s(blvl_ColliderSource_name(c), "%s.name", p);
        chk_present(blvl_ColliderSource_name_present(c), "%s.name", p);
        chk_i(blvl_ColliderSource_entity(c), 0xFFFFFFFF, "%s.entity", p);
        chk_i(blvl_ColliderSource_prop(c), 0xFFFFFFFF, "%s.prop", p);
    }
    chk_len(blvl_Sim_breakables_len(s), "breakables");
    for (uint32_t i = 0; i < blvl_Sim_breakables_len(s); i++) {
        blvl_Breakable b = blvl_Sim_breakables_at(s, i);
        pathf(p, sizeof p, "breakables[%u]", i);
        chk_s(blvl_Breakable_name(b), "%s.name", p);
        chk_e(blvl_Breakable_kind(b), &blvl_BreakableKind_enum, "%s.kind", p);
        CHK_V3_FIELD(Breakable, b, lo, p);
        CHK_V3_FIELD(Breakable, b, hi, p);
        chk_f(blvl_Breakable_health(b), 1.0f, "%s.health", p);
        chk_i(blvl_Breakable_door(b), 0xFFFFFFFF, "%s.door", p);
        chk_i(blvl_Breakable_gametypes(b), 0xFFFFFFFF, "%s.gametypes", p);
    }
    chk_len(blvl_Sim_doors_len(s), "doors");
    for (uint32_t i = 0; i < blvl_Sim_doors_len(s); i++) {
        blvl_Door d = blvl_Sim_doors_at(s, i);
        pathf(p, sizeof p, "doors[%u]", i);
        chk_s(blvl_Door_name(d), "%s.name", p);
        chk_e(blvl_Door_kind(d), &blvl_DoorKind_enum, "%s.kind", p);
        chk_e(blvl_Door_trigger(d), &blvl_DoorTrigger_enum, "%s.trigger", p);
        CHK_V3_FIELD(Door, d, lo, p);
        CHK_V3_FIELD(Door, d, hi, p);
        CHK_V3_FIELD(Door, d, direction, p);
        chk_f(blvl_Door_distance(d), 0, "%s.distance", p);
        CHK_V3_FIELD(Door, d, hinge_origin, p);
        CHK_V3_FIELD(Door, d, hinge_axis, p);
        chk_f(blvl_Door_angle(d), 0, "%s.angle", p);
        chk_f(blvl_Door_speed(d), 100, "%s.speed", p);
        chk_f(blvl_Door_wait(d), 2, "%s.wait", p);
        chk_s(blvl_Door_team(d), "%s.team", p);
        chk_i(blvl_Door_gametypes(d), 0xFFFFFFFF, "%s.gametypes", p);
    }
    chk_len(blvl_Sim_triggers_len(s), "triggers");
    for (uint32_t i = 0; i < blvl_Sim_triggers_len(s); i++) {
        blvl_Trigger t = blvl_Sim_triggers_at(s, i);
        pathf(p, sizeof p, "triggers[%u]", i);
        chk_e(blvl_Trigger_kind(t), &blvl_TriggerKind_enum, "%s.kind", p);
        CHK_V3_FIELD(Trigger, t, lo, p);
        CHK_V3_FIELD(Trigger, t, hi, p);
        pathf(q, sizeof q, "%s.planes", p);
        chk_planes_vec(blvl_Trigger_planes_len(t), trigger_planes_at, &t, q);
        CHK_V3_FIELD(Trigger, t, velocity, p);
        chk_i(blvl_Trigger_teleport_dest(t), 0xFFFFFFFF, "%s.teleport_dest", p);
        chk_i(blvl_Trigger_gametypes(t), 0xFFFFFFFF, "%s.gametypes", p);
    }
    chk_len(blvl_Sim_teleport_dests_len(s), "teleport_dests");
    for (uint32_t i = 0; i < blvl_Sim_teleport_dests_len(s); i++) {
        blvl_TeleportDest t = blvl_Sim_teleport_dests_at(s, i);
        pathf(p, sizeof p, "teleport_dests[%u]", i);
        chk_s(blvl_TeleportDest_name(t), "%s.name", p);
        CHK_V3_FIELD(TeleportDest, t, position, p);
        chk_f(blvl_TeleportDest_yaw(t), 0, "%s.yaw", p);
    }
    chk_len(blvl_Sim_spawns_len(s), "spawns");
    for (uint32_t i = 0; i < blvl_Sim_spawns_len(s); i++) {
        blvl_Spawn t = blvl_Sim_spawns_at(s, i);
        pathf(p, sizeof p, "spawns[%u]", i);
        CHK_V3_FIELD(Spawn, t, position, p);
        chk_f(blvl_Spawn_yaw(t), 0, "%s.yaw", p);
        chk_s(blvl_Spawn_kind(t), "%s.kind", p);
        chk_s(blvl_Spawn_team(t), "%s.team", p);
        chk_present(blvl_Spawn_team_present(t), "%s.team", p);
        chk_i(blvl_Spawn_gametypes(t), 0xFFFFFFFF, "%s.gametypes", p);
    }
    chk_len(blvl_Sim_hurt_volumes_len(s), "hurt_volumes");
    for (uint32_t i = 0; i < blvl_Sim_hurt_volumes_len(s); i++) {
        blvl_HurtVolume h = blvl_Sim_hurt_volumes_at(s, i);
        pathf(p, sizeof p, "hurt_volumes[%u]", i);
        chk_s(blvl_HurtVolume_name(h), "%s.name", p);
        chk_e(blvl_HurtVolume_kind(h), &blvl_HurtKind_enum, "%s.kind", p);
        CHK_V3_FIELD(HurtVolume, h, lo, p);
        CHK_V3_FIELD(HurtVolume, h, hi, p);
        pathf(q, sizeof q, "%s.planes", p);
        chk_planes_vec(blvl_HurtVolume_planes_len(h), hurt_planes_at, &h, q);
        chk_f(blvl_HurtVolume_amount(h), 0, "%s.amount", p);
        chk_f(blvl_HurtVolume_interval(h), 1, "%s.interval", p);
    }
    /* a few hand-picked values and defaults, spelled out (read from sim.json) */
    blvl_Collider c1 = blvl_Sim_colliders_at(s, 1);
    CHECK_EQ_INT(blvl_Collider_shape_type(c1), blvl_Shape_Hull);
    CHECK(blvl_Hull_vertices_at(blvl_Collider_shape_as_Hull(c1), 1).z == -96.0f);
    CHECK_EQ_INT(blvl_Collider_material(c1), 0xFFFFFFFFu); /* absent: none */
    CHECK(!blvl_Collider_material_present(c1));
    CHECK_EQ_INT(blvl_Door_kind(blvl_Sim_doors_at(s, 1)), blvl_DoorKind_Swing);
    CHECK(blvl_Door_wait(blvl_Sim_doors_at(s, 1)) == -1.0f);
}

static void check_geometry(blvl_Geometry g) {
    char p[256], q[256];
    uint32_t nv = blvl_Geometry_vertices_len(g);
    chk_len(nv, "vertices");
    for (uint32_t i = 0; i < nv; i++) {
        pathf(p, sizeof p, "vertices[%u]", i);
        chk_vertex(blvl_Geometry_vertices_at(g, i), p);
    }
    /* The vertex array is usable as is: 52-byte records whose bytes are floats at fixed offsets
     * (position 0, normal 12, uv 24, lightmap_uv 32), ready for a GPU upload. */
    CHECK_EQ_INT(sizeof(blvl_Vertex), 52);
    blvl_fb_vec raw = blvl_Geometry_vertices_vec(g);
    CHECK_EQ_INT(raw.len, nv);
    float *fl = malloc((size_t)nv * 52);
    blvl_Vertex *vs = malloc((size_t)nv * sizeof *vs);
    memcpy(fl, raw.data, (size_t)nv * 52);
    CHECK_EQ_INT(blvl_Geometry_vertices_copy(g, 0, vs, nv), nv);
    for (uint32_t i = 0; i < nv; i++) {
        const float *f = fl + 13u * i;
        pathf(p, sizeof p, "vertices[%u]", i);
        chk_f(f[0], 0, "%s.position.x", p);
        chk_f(f[1], 0, "%s.position.y", p);
        chk_f(f[2], 0, "%s.position.z", p);
        chk_f(f[3], 0, "%s.normal.x", p);
        chk_f(f[4], 0, "%s.normal.y", p);
        chk_f(f[5], 0, "%s.normal.z", p);
        chk_f(f[6], 0, "%s.uv.x", p);
        chk_f(f[7], 0, "%s.uv.y", p);
        chk_f(f[8], 0, "%s.lightmap_uv.x", p);
        chk_f(f[9], 0, "%s.lightmap_uv.y", p);
        chk_vertex(vs[i], p);
    }
    CHECK(memcmp(vs, raw.data, (size_t)nv * 52) == 0);
    free(fl);
    free(vs);

    chk_u32s(blvl_Geometry_indices_vec(g), "%s", "indices");
    chk_len(blvl_Geometry_batches_len(g), "batches");
    for (uint32_t i = 0; i < blvl_Geometry_batches_len(g); i++) {
        blvl_Batch b = blvl_Geometry_batches_at(g, i);
        pathf(p, sizeof p, "batches[%u]", i);
        chk_i(blvl_Batch_first_index(b), 0, "%s.first_index", p);
        chk_i(blvl_Batch_index_count(b), 0, "%s.index_count", p);
        chk_i(blvl_Batch_material(b), 0xFFFFFFFF, "%s.material", p);
        CHK_V3_FIELD(Batch, b, lo, p);
        CHK_V3_FIELD(Batch, b, hi, p);
        chk_i(blvl_Batch_breakable(b), 0xFFFFFFFF, "%s.breakable", p);
        chk_i(blvl_Batch_door(b), 0xFFFFFFFF, "%s.door", p);
        chk_i(blvl_Batch_fog(b), 0xFFFFFFFF, "%s.fog", p);
        chk_i(blvl_Batch_gametypes(b), 0xFFFFFFFF, "%s.gametypes", p);
        chk_i(blvl_Batch_lightmap_layer(b), 0, "%s.lightmap_layer", p);
    }
    uint32_t shaded = 0, animated = 0;
    chk_len(blvl_Geometry_materials_len(g), "materials");
    for (uint32_t i = 0; i < blvl_Geometry_materials_len(g); i++) {
        blvl_Material m = blvl_Geometry_materials_at(g, i);
        pathf(p, sizeof p, "materials[%u]", i);
        chk_s(blvl_Material_name(m), "%s.name", p);
        chk_i(blvl_Material_texture(m), 0xFFFFFFFF, "%s.texture", p);
        chk_f(blvl_Material_sort(m), 3, "%s.sort", p);
        chk_e(blvl_Material_blend(m), &blvl_BlendMode_enum, "%s.blend", p);
        chk_i(blvl_Material_depth_write(m), 1, "%s.depth_write", p);
        chk_e(blvl_Material_alpha_test(m), &blvl_AlphaTest_enum, "%s.alpha_test", p);
        chk_f(blvl_Material_alpha_ref(m), 0.5f, "%s.alpha_ref", p);
        chk_i(blvl_Material_two_sided(m), 0, "%s.two_sided", p);
        chk_i(blvl_Material_polygon_offset(m), 0, "%s.polygon_offset", p);
        chk_i(blvl_Material_env_map(m), 0, "%s.env_map", p);
        chk_i(blvl_Material_sky(m), 0, "%s.sky", p);

        blvl_Pbr pbr = blvl_Material_pbr(m);
        pathf(q, sizeof q, "%s.pbr", p);
        chk_present(pbr.p_ != NULL, "%s", q);
        chk_len(blvl_Pbr_surface_params_len(pbr), "%s.surface_params", q);
        for (uint32_t k = 0; k < blvl_Pbr_surface_params_len(pbr); k++)
            chk_s(blvl_Pbr_surface_params_at(pbr, k), "%s.surface_params[%u]", q, k);
        CHK_V3_FIELD(Pbr, pbr, emit_color, q);
        chk_f(blvl_Pbr_emit_intensity(pbr), 0, "%s.emit_intensity", q);
        blvl_MaterialMaps maps = blvl_Pbr_maps(pbr);
        chk_present(maps.p_ != NULL, "%s.maps", q);
        chk_i(blvl_MaterialMaps_normal(maps), 0xFFFFFFFF, "%s.maps.normal", q);
        chk_i(blvl_MaterialMaps_orm(maps), 0xFFFFFFFF, "%s.maps.orm", q);
        chk_i(blvl_MaterialMaps_emissive(maps), 0xFFFFFFFF, "%s.maps.emissive", q);
        chk_i(blvl_MaterialMaps_albedo2(maps), 0xFFFFFFFF, "%s.maps.albedo2", q);
        chk_i(blvl_MaterialMaps_specular(maps), 0xFFFFFFFF, "%s.maps.specular", q);
        chk_i(blvl_MaterialMaps_detail(maps), 0xFFFFFFFF, "%s.maps.detail", q);
        chk_f(blvl_Pbr_normal_scale(pbr), 1, "%s.normal_scale", q);
        chk_f(blvl_Pbr_roughness(pbr), 1, "%s.roughness", q);
        chk_f(blvl_Pbr_metalness(pbr), 0, "%s.metalness", q);
        chk_f(blvl_Pbr_occlusion(pbr), 1, "%s.occlusion", q);
        chk_f(blvl_Pbr_emissive_scale(pbr), 1, "%s.emissive_scale", q);

        blvl_Water w = blvl_Material_water(m);
        pathf(q, sizeof q, "%s.water", p);
        chk_present(w.p_ != NULL, "%s", q);
        CHK_V3_FIELD(Water, w, fog_color, q);
        chk_f(blvl_Water_fog_start(w), 0, "%s.fog_start", q);
        chk_f(blvl_Water_fog_end(w), 0, "%s.fog_end", q);
        CHK_V3_FIELD(Water, w, reflect_tint, q);
        chk_f(blvl_Water_reflect_amount(w), 0, "%s.reflect_amount", q);
        CHK_V3_FIELD(Water, w, refract_tint, q);
        chk_f(blvl_Water_refract_amount(w), 0, "%s.refract_amount", q);
        char r[256];
        pathf(r, sizeof r, "%s.scroll1", q);
        chk_v2(blvl_Water_scroll1(w), r);
        pathf(r, sizeof r, "%s.scroll2", q);
        chk_v2(blvl_Water_scroll2(w), r);

        blvl_Shading sh = blvl_Material_shading(m);
        pathf(q, sizeof q, "%s.shading", p);
        chk_present(sh.p_ != NULL, "%s", q);
        shaded += sh.p_ != NULL;
        chk_i(blvl_Shading_phong(sh), 0, "%s.phong", q);
        chk_f(blvl_Shading_phong_exponent(sh), 0, "%s.phong_exponent", q);
        chk_f(blvl_Shading_phong_boost(sh), 1, "%s.phong_boost", q);
        CHK_V3_FIELD(Shading, sh, phong_fresnel, q);
        chk_i(blvl_Shading_phong_albedo_tint(sh), 0, "%s.phong_albedo_tint", q);
        CHK_V3_FIELD(Shading, sh, envmap_tint, q);
        chk_e(blvl_Shading_envmap_mask(sh), &blvl_EnvmapMask_enum, "%s.envmap_mask", q);
        chk_f(blvl_Shading_envmap_contrast(sh), 0, "%s.envmap_contrast", q);
        chk_f(blvl_Shading_envmap_saturation(sh), 1, "%s.envmap_saturation", q);
        CHK_V3_FIELD(Shading, sh, selfillum_tint, q);
        chk_f(blvl_Shading_rim_boost(sh), 0, "%s.rim_boost", q);
        chk_f(blvl_Shading_rim_exponent(sh), 4, "%s.rim_exponent", q);
        chk_i(blvl_Shading_lightwarp(sh), 0xFFFFFFFF, "%s.lightwarp", q);
        chk_i(blvl_Shading_detail_blend(sh), 0, "%s.detail_blend", q);
        chk_f(blvl_Shading_detail_scale(sh), 1, "%s.detail_scale", q);
        chk_f(blvl_Shading_detail_factor(sh), 1, "%s.detail_factor", q);
        chk_f(blvl_Shading_seamless_scale(sh), 0, "%s.seamless_scale", q);
        chk_i(blvl_Shading_halflambert(sh), 0, "%s.halflambert", q);
        chk_i(blvl_Shading_lightmapped(sh), 1, "%s.lightmapped", q);

        blvl_Anim an = blvl_Shading_anim(sh);
        pathf(q, sizeof q, "%s.shading.anim", p);
        chk_present(an.p_ != NULL, "%s", q);
        animated += an.p_ != NULL;
        chk_len(blvl_Anim_tcmods_len(an), "%s.tcmods", q);
        for (uint32_t k = 0; k < blvl_Anim_tcmods_len(an); k++) {
            blvl_TcMod tm = blvl_Anim_tcmods_at(an, k);
            pathf(r, sizeof r, "%s.tcmods[%u]", q, k);
            chk_e(blvl_TcMod_kind(tm), &blvl_TcModKind_enum, "%s.kind", r);
            char s2[300];
            pathf(s2, sizeof s2, "%s.args", r);
            chk_present(blvl_TcMod_args_present(tm), "%s", s2);
            chk_v4(blvl_TcMod_args(tm), s2);
            pathf(s2, sizeof s2, "%s.wave", r);
            chk_wave(blvl_TcMod_wave(tm), blvl_TcMod_wave_present(tm), s2);
        }
        pathf(r, sizeof r, "%s.rgb_wave", q);
        chk_wave(blvl_Anim_rgb_wave(an), blvl_Anim_rgb_wave_present(an), r);
        pathf(r, sizeof r, "%s.alpha_wave", q);
        chk_wave(blvl_Anim_alpha_wave(an), blvl_Anim_alpha_wave_present(an), r);
        chk_u32s(blvl_Anim_frames_vec(an), "%s.frames", q);
        chk_f(blvl_Anim_fps(an), 0, "%s.fps", q);
        blvl_Deform df = blvl_Anim_deform(an);
        pathf(r, sizeof r, "%s.deform", q);
        chk_present(df.p_ != NULL, "%s", r);
        chk_e(blvl_Deform_kind(df), &blvl_DeformKind_enum, "%s.kind", r);
        chk_f(blvl_Deform_spread(df), 0, "%s.spread", r);
        char s2[300];
        pathf(s2, sizeof s2, "%s.wave", r);
        chk_wave(blvl_Deform_wave(df), blvl_Deform_wave_present(df), s2);
        CHK_V3_FIELD(Deform, df, vector, r);
        chk_present(blvl_Deform_bulge_present(df), "%s.bulge", r);
        blvl_Bulge bu = blvl_Deform_bulge(df);
        chk_f(bu.width, 0, "%s.bulge.width", r);
        chk_f(bu.height, 0, "%s.bulge.height", r);
        chk_f(bu.speed, 0, "%s.bulge.speed", r);
    }
    CHECK(shaded > 0 && animated > 0);
    /* defaults of an absent sub-table, spelled out: material 0 has no shading */
    blvl_Shading none = blvl_Material_shading(blvl_Geometry_materials_at(g, 0));
    if (!none.p_) {
        CHECK(blvl_Shading_phong_boost(none) == 1.0f);
        CHECK(blvl_Shading_rim_exponent(none) == 4.0f);
        CHECK(blvl_Shading_lightmapped(none));
        CHECK_EQ_INT(blvl_Shading_lightwarp(none), 0xFFFFFFFFu);
    }
}

static void check_images(uint32_t n, blvl_Image (*at)(const void *, uint32_t), const void *t,
                         const char *pre) {
    char q[256];
    chk_len(n, "%s", pre);
    for (uint32_t i = 0; i < n; i++) {
        pathf(q, sizeof q, "%s[%u]", pre, i);
        chk_image(at(t, i), q);
    }
}
static blvl_Image textures_at(const void *t, uint32_t i) {
    return blvl_Textures_images_at(*(const blvl_Textures *)t, i);
}
static blvl_Image cubemaps_at(const void *t, uint32_t i) {
    return blvl_Cubemaps_images_at(*(const blvl_Cubemaps *)t, i);
}
static blvl_Image l1_at(const void *t, uint32_t i) {
    return blvl_Lightmap_l1_at(*(const blvl_Lightmap *)t, i);
}
static blvl_Image bump_at(const void *t, uint32_t i) {
    return blvl_Lightmap_bump_at(*(const blvl_Lightmap *)t, i);
}
static blvl_Image faces_at(const void *t, uint32_t i) {
    return blvl_LightGrid_faces_at(*(const blvl_LightGrid *)t, i);
}

static void check_textures(blvl_Textures t) {
    check_images(blvl_Textures_images_len(t), textures_at, &t, "images");
    /* the first image is a real PNG (its signature, read from the sample's bytes) */
    blvl_Image png = blvl_Textures_images_at(t, 0);
    CHECK_EQ_INT(blvl_Image_encoding(png), blvl_ImageEncoding_Png);
    CHECK(blvl_Image_data_len(png) > 8 && memcmp(blvl_Image_data_vec(png).data, "\x89PNG", 4) == 0);
}

static void check_cubemaps(blvl_Cubemaps c) {
    check_images(blvl_Cubemaps_images_len(c), cubemaps_at, &c, "images");
    for (uint32_t i = 0; i < blvl_Cubemaps_images_len(c); i++)
        CHECK_EQ_INT(blvl_Image_layers(blvl_Cubemaps_images_at(c, i)), 6);
}

static void check_lightmaps(blvl_Lightmaps l) {
    char p[256], q[256];
    chk_len(blvl_Lightmaps_lightmaps_len(l), "lightmaps");
    for (uint32_t i = 0; i < blvl_Lightmaps_lightmaps_len(l); i++) {
        blvl_Lightmap m = blvl_Lightmaps_lightmaps_at(l, i);
        pathf(p, sizeof p, "lightmaps[%u]", i);
        pathf(q, sizeof q, "%s.color", p);
        chk_image(blvl_Lightmap_color(m), q);
        pathf(q, sizeof q, "%s.l1", p);
        check_images(blvl_Lightmap_l1_len(m), l1_at, &m, q);
        pathf(q, sizeof q, "%s.sun_visibility", p);
        chk_image(blvl_Lightmap_sun_visibility(m), q);
        chk_f(blvl_Lightmap_gain(m), 1, "%s.gain", p);
        chk_e(blvl_Lightmap_encoding(m), &blvl_LightmapEncoding_enum, "%s.encoding", p);
        pathf(q, sizeof q, "%s.bump", p);
        check_images(blvl_Lightmap_bump_len(m), bump_at, &m, q);
        chk_len(blvl_Lightmap_styles_len(m), "%s.styles", p);
        for (uint32_t k = 0; k < blvl_Lightmap_styles_len(m); k++) {
            blvl_LightmapStyle st = blvl_Lightmap_styles_at(m, k);
            pathf(q, sizeof q, "%s.styles[%u]", p, k);
            chk_i(blvl_LightmapStyle_style(st), 0, "%s.style", q);
            char r[300];
            pathf(r, sizeof r, "%s.color", q);
            chk_image(blvl_LightmapStyle_color(st), r);
        }
    }
}

static void check_lighting(blvl_Lighting l) {
    char p[256], q[300];
    chk_len(blvl_Lighting_profiles_len(l), "profiles");
    for (uint32_t i = 0; i < blvl_Lighting_profiles_len(l); i++) {
        blvl_LightingProfile f = blvl_Lighting_profiles_at(l, i);
        pathf(p, sizeof p, "profiles[%u]", i);
        chk_s(blvl_LightingProfile_name(f), "%s.name", p);
        chk_i(blvl_LightingProfile_lightmap(f), 0xFFFFFFFF, "%s.lightmap", p);
        chk_i(blvl_LightingProfile_sky(f), 0xFFFFFFFF, "%s.sky", p);
        chk_f(blvl_LightingProfile_lightmap_scale(f), 1, "%s.lightmap_scale", p);
        chk_f(blvl_LightingProfile_light_scale(f), 1, "%s.light_scale", p);
        CHK_V3_FIELD(LightingProfile, f, ambient, p);
        chk_present(blvl_LightingProfile_sun_present(f), "%s.sun", p);
        blvl_Sun sun = blvl_LightingProfile_sun(f);
        pathf(q, sizeof q, "%s.sun.direction", p);
        chk_v3(sun.direction, q);
        pathf(q, sizeof q, "%s.sun.color", p);
        chk_v3(sun.color, q);
        chk_f(sun.intensity, 0, "%s.sun.intensity", p);
        chk_e(blvl_LightingProfile_sun_units(f), &blvl_SunUnits_enum, "%s.sun_units", p);
        chk_i(blvl_LightingProfile_sun_shadow_channel(f), 255, "%s.sun_shadow_channel", p);
        chk_i(blvl_LightingProfile_sun_baked(f), 0, "%s.sun_baked", p);
        CHK_V3_FIELD(LightingProfile, f, fog_color, p);
        chk_f(blvl_LightingProfile_fog_density(f), 0, "%s.fog_density", p);
        chk_e(blvl_LightingProfile_fog_mode(f), &blvl_FogMode_enum, "%s.fog_mode", p);
        chk_f(blvl_LightingProfile_fog_start(f), 0, "%s.fog_start", p);
        chk_f(blvl_LightingProfile_fog_end(f), 0, "%s.fog_end", p);
        chk_f(blvl_LightingProfile_fog_max(f), 1, "%s.fog_max", p);
        chk_f(blvl_LightingProfile_fog_height_falloff(f), 0, "%s.fog_height_falloff", p);
        uint32_t nsh = blvl_LightingProfile_sky_irradiance_len(f);
        double sh[64];
        for (uint32_t k = 0; k < nsh && k < 64; k++)
            sh[k] = (float)blvl_LightingProfile_sky_irradiance_at(f, k);
        /* compare as floats: the sample's decimals are rounded to float by every writer */
        char r[300];
        pathf(r, sizeof r, "%s.sky_irradiance", p);
        chk_len(nsh, "%s", r);
        for (uint32_t k = 0; k < nsh && k < 64; k++)
            chk_f((float)sh[k], 0, "%s[%u]", r, k);

        blvl_Post po = blvl_LightingProfile_post(f);
        pathf(q, sizeof q, "%s.post", p);
        chk_present(po.p_ != NULL, "%s", q);
        chk_i(blvl_Post_tonemap(po), 0, "%s.tonemap", q);
        chk_f(blvl_Post_exposure(po), 1, "%s.exposure", q);
        chk_i(blvl_Post_auto_exposure(po), 0, "%s.auto_exposure", q);
        chk_f(blvl_Post_exposure_min(po), 1, "%s.exposure_min", q);
        chk_f(blvl_Post_exposure_max(po), 1, "%s.exposure_max", q);
        chk_f(blvl_Post_exposure_rate(po), 1, "%s.exposure_rate", q);
        chk_f(blvl_Post_exposure_compensation(po), 0, "%s.exposure_compensation", q);
        chk_f(blvl_Post_bloom_scale(po), 0, "%s.bloom_scale", q);
        chk_f(blvl_Post_bloom_threshold(po), 1, "%s.bloom_threshold", q);
        chk_f(blvl_Post_bloom_exponent(po), 1, "%s.bloom_exponent", q);
        chk_f(blvl_Post_film_contrast(po), 1, "%s.film_contrast", q);
        chk_f(blvl_Post_film_brightness(po), 0, "%s.film_brightness", q);
        chk_f(blvl_Post_film_desaturation(po), 0, "%s.film_desaturation", q);
        CHK_V3_FIELD(Post, po, light_tint, q);
        CHK_V3_FIELD(Post, po, dark_tint, q);
        chk_f(blvl_Post_gamma(po), 2.2f, "%s.gamma", q);
        chk_i(blvl_Post_lut(po), 0xFFFFFFFF, "%s.lut", q);
        chk_f(blvl_Post_film_slope(po), 0.88f, "%s.film_slope", q);
        chk_f(blvl_Post_film_toe(po), 0.55f, "%s.film_toe", q);
        chk_f(blvl_Post_film_shoulder(po), 0.26f, "%s.film_shoulder", q);
        chk_f(blvl_Post_film_black_clip(po), 0, "%s.film_black_clip", q);
        chk_f(blvl_Post_film_white_clip(po), 0.04f, "%s.film_white_clip", q);
        chk_f(blvl_Post_vignette(po), 0, "%s.vignette", q);
    }
    chk_len(blvl_Lighting_lights_len(l), "lights");
    for (uint32_t i = 0; i < blvl_Lighting_lights_len(l); i++) {
        blvl_Light t = blvl_Lighting_lights_at(l, i);
        pathf(p, sizeof p, "lights[%u]", i);
        CHK_V3_FIELD(Light, t, position, p);
        CHK_V3_FIELD(Light, t, normal, p);
        CHK_V3_FIELD(Light, t, color, p);
        chk_f(blvl_Light_intensity(t), 0, "%s.intensity", p);
        chk_f(blvl_Light_area(t), 0, "%s.area", p);
    }
    blvl_LightGrid gr = blvl_Lighting_light_grid(l);
    chk_present(gr.p_ != NULL, "light_grid");
    chk_e(blvl_LightGrid_kind(gr), &blvl_LightGridKind_enum, "light_grid.kind");
    CHK_V3_FIELD(LightGrid, gr, origin, "light_grid");
    CHK_V3_FIELD(LightGrid, gr, cell_size, "light_grid");
    chk_image(blvl_LightGrid_ambient(gr), "light_grid.ambient");
    chk_image(blvl_LightGrid_directional(gr), "light_grid.directional");
    chk_image(blvl_LightGrid_direction(gr), "light_grid.direction");
    check_images(blvl_LightGrid_faces_len(gr), faces_at, &gr, "light_grid.faces");
    chk_image(blvl_LightGrid_sun_visibility(gr), "light_grid.sun_visibility");
    chk_e(blvl_LightGrid_encoding(gr), &blvl_LightmapEncoding_enum, "light_grid.encoding");
    chk_f(blvl_LightGrid_gain(gr), 1, "light_grid.gain");

    blvl_SkyVis sv = blvl_Lighting_sky_vis(l);
    chk_present(sv.p_ != NULL, "sky_vis");
    CHK_V3_FIELD(SkyVis, sv, origin, "sky_vis");
    CHK_V3_FIELD(SkyVis, sv, cell_size, "sky_vis");
    chk_image(blvl_SkyVis_image(sv), "sky_vis.image");

    chk_len(blvl_Lighting_reflection_probes_len(l), "reflection_probes");
    for (uint32_t i = 0; i < blvl_Lighting_reflection_probes_len(l); i++) {
        blvl_ReflectionProbe r = blvl_Lighting_reflection_probes_at(l, i);
        pathf(p, sizeof p, "reflection_probes[%u]", i);
        chk_i(blvl_ReflectionProbe_cubemap(r), 0xFFFFFFFF, "%s.cubemap", p);
        CHK_V3_FIELD(ReflectionProbe, r, position, p);
        chk_present(blvl_ReflectionProbe_influence_present(r), "%s.influence", p);
        pathf(q, sizeof q, "%s.influence", p);
        chk_box(blvl_ReflectionProbe_influence(r), q);
        chk_present(blvl_ReflectionProbe_parallax_present(r), "%s.parallax", p);
        pathf(q, sizeof q, "%s.parallax", p);
        chk_box(blvl_ReflectionProbe_parallax(r), q);
    }
    uint32_t members = 0;
    chk_len(blvl_Lighting_punctual_lights_len(l), "punctual_lights");
    for (uint32_t i = 0; i < blvl_Lighting_punctual_lights_len(l); i++) {
        blvl_PunctualLight t = blvl_Lighting_punctual_lights_at(l, i);
        pathf(p, sizeof p, "punctual_lights[%u]", i);
        chk_e(blvl_PunctualLight_kind(t), &blvl_PunctualKind_enum, "%s.kind", p);
        CHK_V3_FIELD(PunctualLight, t, position, p);
        CHK_V3_FIELD(PunctualLight, t, direction, p);
        CHK_V3_FIELD(PunctualLight, t, color, p);
        chk_f(blvl_PunctualLight_intensity(t), 0, "%s.intensity", p);
        chk_f(blvl_PunctualLight_range(t), 0, "%s.range", p);
        chk_f(blvl_PunctualLight_inner_cone(t), 0, "%s.inner_cone", p);
        chk_f(blvl_PunctualLight_outer_cone(t), 0, "%s.outer_cone", p);
        chk_i(blvl_PunctualLight_baked_diffuse(t), 0, "%s.baked_diffuse", p);
        chk_i(blvl_PunctualLight_style(t), 0xFFFFFFFF, "%s.style", p);
        chk_e(blvl_PunctualLight_falloff_type(t), &blvl_Falloff_enum, "%s.falloff_type", p);
        chk_present(blvl_PunctualLight_falloff_present(t), "%s.falloff", p);
        blvl_SourceQuadratic sq = blvl_PunctualLight_falloff_as_SourceQuadratic(t);
        blvl_Iw3Falloff iw = blvl_PunctualLight_falloff_as_Iw3Falloff(t);
        blvl_SmoothFalloff sm = blvl_PunctualLight_falloff_as_SmoothFalloff(t);
        switch (blvl_PunctualLight_falloff_type(t)) {
        case blvl_Falloff_SourceQuadratic:
            members |= 1;
            CHECK(sq.p_ && !iw.p_ && !sm.p_);
            chk_f(blvl_SourceQuadratic_constant(sq), 0, "%s.falloff.constant", p);
            chk_f(blvl_SourceQuadratic_linear(sq), 0, "%s.falloff.linear", p);
            chk_f(blvl_SourceQuadratic_quadratic(sq), 0, "%s.falloff.quadratic", p);
            chk_f(blvl_SourceQuadratic_fifty_percent(sq), 0, "%s.falloff.fifty_percent", p);
            chk_f(blvl_SourceQuadratic_hundred_percent(sq), 0, "%s.falloff.hundred_percent", p);
            break;
        case blvl_Falloff_Iw3Falloff:
            members |= 2;
            CHECK(!sq.p_ && iw.p_ && !sm.p_);
            chk_f(blvl_Iw3Falloff_radius(iw), 0, "%s.falloff.radius", p);
            break;
        case blvl_Falloff_SmoothFalloff:
            members |= 4;
            CHECK(!sq.p_ && !iw.p_ && sm.p_); /* an empty table, still present */
            break;
        default:
            CHECK(!sq.p_ && !iw.p_ && !sm.p_);
            break;
        }
    }
    CHECK_EQ_INT(members, 7); /* every member of the union came back */
    chk_len(blvl_Lighting_fog_volumes_len(l), "fog_volumes");
    for (uint32_t i = 0; i < blvl_Lighting_fog_volumes_len(l); i++) {
        blvl_FogVolume v = blvl_Lighting_fog_volumes_at(l, i);
        pathf(p, sizeof p, "fog_volumes[%u]", i);
        CHK_V3_FIELD(FogVolume, v, lo, p);
        CHK_V3_FIELD(FogVolume, v, hi, p);
        CHK_V3_FIELD(FogVolume, v, color, p);
        chk_f(blvl_FogVolume_depth(v), 0, "%s.depth", p);
    }
    chk_len(blvl_Lighting_light_styles_len(l), "light_styles");
    for (uint32_t i = 0; i < blvl_Lighting_light_styles_len(l); i++)
        chk_s(blvl_Lighting_light_styles_at(l, i), "light_styles[%u]", i);
    /* defaults spelled out: profile 0 leaves post's UE4 film curve to the schema */
    blvl_Post po0 = blvl_LightingProfile_post(blvl_Lighting_profiles_at(l, 0));
    if (!po0.p_) {
        CHECK(blvl_Post_gamma(po0) == 2.2f);
        CHECK(blvl_Post_film_slope(po0) == 0.88f);
    }
}

static void check_entities(blvl_Entities e) {
    char p[256];
    uint32_t pairs = 0;
    chk_len(blvl_Entities_entities_len(e), "entities");
    for (uint32_t i = 0; i < blvl_Entities_entities_len(e); i++) {
        blvl_Entity t = blvl_Entities_entities_at(e, i);
        pathf(p, sizeof p, "entities[%u]", i);
        chk_s(blvl_Entity_classname(t), "%s.classname", p);
        chk_len(blvl_Entity_pairs_len(t), "%s.pairs", p);
        chk_present(blvl_Entity_pairs_vec(t).data != NULL, "%s.pairs", p); /* [] kept */
        for (uint32_t k = 0; k < blvl_Entity_pairs_len(t); k++, pairs++) {
            blvl_KeyValue kv = blvl_Entity_pairs_at(t, k);
            chk_s(blvl_KeyValue_key(kv), "%s.pairs[%u].key", p, k);
            chk_s(blvl_KeyValue_value(kv), "%s.pairs[%u].value", p, k);
        }
    }
    CHECK(pairs > 10);
}

static void check_acoustics(blvl_Acoustics a) {
    char p[256];
    uint32_t np = blvl_Acoustics_probes_len(a);
    chk_len(np, "probes");
    for (uint32_t i = 0; i < np; i++) {
        blvl_AcousticProbe pr = blvl_Acoustics_probes_at(a, i);
        pathf(p, sizeof p, "probes[%u].position", i);
        chk_v3(pr.position, p);
        chk_i(pr.first_edge, 0, "probes[%u].first_edge", i);
        chk_i(pr.room, 0, "probes[%u].room", i);
        chk_i(pr.enclosed, 0, "probes[%u].enclosed", i);
        chk_i(pr.size_m, 0, "probes[%u].size_m", i);
    }
    chk_len(blvl_Acoustics_edges_len(a), "edges");
    for (uint32_t i = 0; i < blvl_Acoustics_edges_len(a); i++) {
        blvl_AcousticEdge ed = blvl_Acoustics_edges_at(a, i);
        chk_i(ed.to, 0, "edges[%u].to", i);
        chk_f(ed.len_m, 0, "edges[%u].len_m", i);
        chk_i(ed.door, 0, "edges[%u].door", i);
        chk_i(ed.narrow, 0, "edges[%u].narrow", i);
        chk_i(ed.reserved, 0, "edges[%u].reserved", i);
    }
    chk_len(blvl_Acoustics_rooms_len(a), "rooms");
    for (uint32_t i = 0; i < blvl_Acoustics_rooms_len(a); i++) {
        blvl_AcousticRoom r = blvl_Acoustics_rooms_at(a, i);
        chk_f(blvl_AcousticRoom_rt60_s(r), 0, "rooms[%u].rt60_s", i);
        chk_f(blvl_AcousticRoom_damping(r), 0, "rooms[%u].damping", i);
        chk_i(blvl_AcousticRoom_outdoor(r), 0, "rooms[%u].outdoor", i);
    }
    /* the struct vector copies out as the wire records */
    blvl_AcousticProbe probes[16];
    if (np <= 16) {
        CHECK_EQ_INT(blvl_Acoustics_probes_copy(a, 0, probes, 16), np);
        CHECK(np == 0 || memcmp(probes, blvl_Acoustics_probes_vec(a).data, np * 20u) == 0);
    }
}

static void check_props(blvl_Props pr) {
    char p[256], q[300];
    chk_len(blvl_Props_models_len(pr), "models");
    for (uint32_t i = 0; i < blvl_Props_models_len(pr); i++) {
        blvl_PropModel m = blvl_Props_models_at(pr, i);
        pathf(p, sizeof p, "models[%u]", i);
        chk_s(blvl_PropModel_name(m), "%s.name", p);
        chk_len(blvl_PropModel_vertices_len(m), "%s.vertices", p);
        for (uint32_t k = 0; k < blvl_PropModel_vertices_len(m); k++) {
            pathf(q, sizeof q, "%s.vertices[%u]", p, k);
            chk_vertex(blvl_PropModel_vertices_at(m, k), q);
        }
        chk_u32s(blvl_PropModel_indices_vec(m), "%s.indices", p);
        chk_len(blvl_PropModel_surfaces_len(m), "%s.surfaces", p);
        for (uint32_t k = 0; k < blvl_PropModel_surfaces_len(m); k++) {
            blvl_PropSurface s = blvl_PropModel_surfaces_at(m, k);
            chk_i(s.first_index, 0, "%s.surfaces[%u].first_index", p, k);
            chk_i(s.index_count, 0, "%s.surfaces[%u].index_count", p, k);
            chk_i(s.material, 0, "%s.surfaces[%u].material", p, k);
        }
        chk_len(blvl_PropModel_hulls_len(m), "%s.hulls", p);
        for (uint32_t k = 0; k < blvl_PropModel_hulls_len(m); k++) {
            blvl_PropHull h = blvl_PropModel_hulls_at(m, k);
            pathf(q, sizeof q, "%s.hulls[%u]", p, k);
            chk_i(blvl_PropHull_flags(h), 0, "%s.flags", q);
            chk_len(blvl_PropHull_vertices_len(h), "%s.vertices", q);
            for (uint32_t v = 0; v < blvl_PropHull_vertices_len(h); v++) {
                char r[320];
                pathf(r, sizeof r, "%s.vertices[%u]", q, v);
                chk_v3(blvl_PropHull_vertices_at(h, v), r);
            }
            chk_u32s(blvl_PropHull_face_sizes_vec(h), "%s.face_sizes", q);
            chk_u32s(blvl_PropHull_face_indices_vec(h), "%s.face_indices", q);
        }
        CHK_V3_FIELD(PropModel, m, lo, p);
        CHK_V3_FIELD(PropModel, m, hi, p);
    }
    chk_len(blvl_Props_placements_len(pr), "placements");
    for (uint32_t i = 0; i < blvl_Props_placements_len(pr); i++) {
        blvl_PropPlacement pl = blvl_Props_placements_at(pr, i);
        pathf(p, sizeof p, "placements[%u]", i);
        chk_i(blvl_PropPlacement_model(pl), 0xFFFFFFFF, "%s.model", p);
        chk_present(blvl_PropPlacement_transform_present(pl), "%s.transform", p);
        blvl_Transform tr = blvl_PropPlacement_transform(pl);
        pathf(q, sizeof q, "%s.transform.position", p);
        chk_v3(tr.position, q);
        pathf(q, sizeof q, "%s.transform.rotation", p);
        chk_v4(tr.rotation, q);
        pathf(q, sizeof q, "%s.transform.scale", p);
        chk_v3(tr.scale, q);
        chk_i(blvl_PropPlacement_movable(pl), 0, "%s.movable", p);
        chk_e(blvl_PropPlacement_solidity(pl), &blvl_Solidity_enum, "%s.solidity", p);
    }
}

static void check_cameras(blvl_Cameras c) {
    char p[256];
    chk_len(blvl_Cameras_cameras_len(c), "cameras");
    for (uint32_t i = 0; i < blvl_Cameras_cameras_len(c); i++) {
        blvl_Camera t = blvl_Cameras_cameras_at(c, i);
        pathf(p, sizeof p, "cameras[%u]", i);
        chk_s(blvl_Camera_name(t), "%s.name", p);
        chk_e(blvl_Camera_purpose(t), &blvl_CameraPurpose_enum, "%s.purpose", p);
        CHK_V3_FIELD(Camera, t, pos, p);
        chk_f(blvl_Camera_yaw(t), 0, "%s.yaw", p);
        chk_f(blvl_Camera_pitch(t), 0, "%s.pitch", p);
        chk_f(blvl_Camera_roll(t), 0, "%s.roll", p);
        chk_f(blvl_Camera_fov_x(t), 90, "%s.fov_x", p);
    }
}

static void check_sites(blvl_Sites s) {
    char p[256];
    chk_len(blvl_Sites_sites_len(s), "sites");
    for (uint32_t i = 0; i < blvl_Sites_sites_len(s); i++) {
        blvl_Site t = blvl_Sites_sites_at(s, i);
        pathf(p, sizeof p, "sites[%u]", i);
        chk_s(blvl_Site_name(t), "%s.name", p);
        chk_e(blvl_Site_kind(t), &blvl_SiteKind_enum, "%s.kind", p);
        CHK_V3_FIELD(Site, t, lo, p);
        CHK_V3_FIELD(Site, t, hi, p);
    }
}

/* ---- the level ---------------------------------------------------------------------------- */

static char tmpdir[64];

/* Generic half: our JSON of the bytes read back from the level equals flatc's JSON of the
 * sample. (flatc's reading of the sample, not the sample text itself: the sample spells some
 * defaults out, e.g. "kind": "Bombsite", which no FlatBuffers writer stores or prints.) */
static void generic(const char *tag, const uint8_t *bytes, size_t size) {
    char path[256], cmd[1024];
    char *json;
    size_t jlen;
    blvl_error err;
    blvl_status st = blvl_section_to_json(&json, &jlen, tag, bytes, size, 2, NULL, &err);
    CHECK_EQ_INT(st, BLVL_OK);
    if (st) {
        fprintf(stderr, "%s: %s\n", tag, err.message);
        return;
    }
    snprintf(path, sizeof path, "%s/%s.ours.json", tmpdir, tag);
    CHECK(test_spit(path, json, jlen) == 0);
    blvl_free(NULL, json);
    snprintf(cmd, sizeof cmd,
             "flatc -b -o %s schema/%s.fbs tests/data/sections/%s.json && "
             "flatc --json --strict-json --raw-binary -o %s schema/%s.fbs -- %s/%s.bin && "
             "/usr/bin/python3 tests/fb/jsoncmp.py %s/%s.json %s/%s.ours.json",
             tmpdir, tag, tag, tmpdir, tag, tmpdir, tag, tmpdir, tag, tmpdir, tag);
    if (test_run(cmd) != 0) {
        fprintf(stderr, "generic comparison failed for %s\n", tag);
        CHECK(!"our JSON of the read-back section equals flatc's JSON of the sample");
    } else {
        CHECK(1);
    }
}

/* Room for every core tag of the generated registry (blvl__sections_roots[0 ..
 * blvl__sections_core_count)). */
#define MAX_CORE 64

/* The index of a core tag in the registry. */
static unsigned core_index(const char *tag) {
    for (unsigned i = 0; i < blvl__sections_core_count; i++)
        if (strcmp(blvl__sections_roots[i].name, tag) == 0)
            return i;
    CHECK(!"a core tag of the registry");
    return 0;
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/blvl-seclvl-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    const unsigned ncore = blvl__sections_core_count;
    CHECK(ncore >= 2 && ncore < MAX_CORE);
    if (ncore < 2 || ncore >= MAX_CORE)
        return check_report("test_sections_level");

    /* 1. every core section from its sample, with our parser and builder */
    char *sample[MAX_CORE] = {0};
    void *bytes[MAX_CORE] = {0};
    size_t nbytes[MAX_CORE] = {0};
    const char *tags[MAX_CORE];
    blvl_section_in in[MAX_CORE + 1];
    blvl_error err;
    for (unsigned i = 0; i < ncore; i++) {
        char path[128];
        size_t n;
        tags[i] = blvl__sections_roots[i].name;
        snprintf(path, sizeof path, "tests/data/sections/%s.json", tags[i]);
        sample[i] = (char *)test_slurp(path, &n);
        CHECK(sample[i] != NULL);
        if (!sample[i])
            return check_report("test_sections_level");
        blvl_status st =
            blvl_section_from_json(&bytes[i], &nbytes[i], tags[i], sample[i], n, NULL, &err);
        CHECK_EQ_INT(st, BLVL_OK);
        if (st) {
            fprintf(stderr, "%s: %s\n", tags[i], err.message);
            return check_report("test_sections_level");
        }
        in[i] = (blvl_section_in){tags[i], BLVL_SECTION_VERSION, BLVL_ENTRY_FLAG_IDENTITY, bytes[i],
                                  nbytes[i]};
    }
    /* plus a game's own section, outside identity */
    static const char blocks[] = "eds.blocks: a game's own bytes, opaque to blvl\n";
    in[ncore] = (blvl_section_in){"eds.blocks", 7, 0, blocks, sizeof blocks};

    /* 2. bake, open, verify */
    void *file;
    size_t fsize;
    blvl_level *lv = NULL;
    CHECK_EQ_INT(blvl_write_memory(&file, &fsize, in, ncore + 1, NULL, &err), BLVL_OK);
    CHECK_EQ_INT(blvl_open_memory(&lv, file, fsize, NULL, &err), BLVL_OK);
    if (!lv) {
        fprintf(stderr, "%s\n", err.message);
        return check_report("test_sections_level");
    }
    CHECK_EQ_INT(blvl_count(lv), ncore + 1);
    CHECK_EQ_INT(blvl_verify(lv, &err), BLVL_OK);
    blvl_status vs = blvl_sections_verify(lv, &err);
    CHECK_EQ_INT(vs, BLVL_OK);
    if (vs)
        fprintf(stderr, "sections_verify: %s\n", err.message);
    for (unsigned i = 0; i < ncore; i++) {
        const blvl_entry *e = blvl_find(lv, tags[i]);
        CHECK(e && e->flags == BLVL_ENTRY_FLAG_IDENTITY && e->version == 0 &&
              e->raw_size == nbytes[i]);
    }
    const blvl_entry *ge = blvl_find(lv, "eds.blocks");
    CHECK(ge && ge->flags == 0 && ge->version == 7);
    blvl_bytes gs;
    CHECK_EQ_INT(blvl_read(lv, "eds.blocks", &gs, &err), BLVL_OK);
    CHECK(gs.size == sizeof blocks && memcmp(gs.data, blocks, sizeof blocks) == 0);
    blvl_bytes_free(&gs);
    /* the game section is not a core section: the section layer knows nothing of it */
    CHECK(blvl_section_type("eds.blocks", NULL) == NULL);

    /* 3. read every core section back by tag: the bytes written, and flatc agrees */
    blvl_bytes s;
    for (unsigned i = 0; i < ncore; i++) {
        const uint8_t *root = NULL;
        blvl_status st = blvl_level_section(lv, tags[i], &s, &root, &err);
        CHECK_EQ_INT(st, BLVL_OK);
        if (st) {
            fprintf(stderr, "%s: %s\n", tags[i], err.message);
            continue;
        }
        CHECK(s.size == nbytes[i] && memcmp(s.data, bytes[i], s.size) == 0);
        CHECK(root == blvl_fb_root(s.data));
        generic(tags[i], s.data, s.size);
        blvl_bytes_free(&s);
    }

    /* 4. and through the typed API, field by field against the sample */
#define READ_BACK(tag, Type)                                                                       \
    do {                                                                                           \
        unsigned i_ = core_index(#tag);                                                            \
        blvl_##Type root = {NULL};                                                                 \
        blvl_status st_ = blvl_level_##tag(lv, &s, &root, &err);                                   \
        CHECK_EQ_INT(st_, BLVL_OK);                                                                \
        if (st_) {                                                                                 \
            fprintf(stderr, "%s: %s\n", #tag, err.message);                                        \
            break;                                                                                 \
        }                                                                                          \
        CHECK(s.size == nbytes[i_] && memcmp(s.data, bytes[i_], s.size) == 0);                     \
        CHECK(root.p_ == blvl_##Type##_root(s.data).p_);                                           \
        J = sample[i_];                                                                            \
        int failed_before_ = check_failed_, passed_before_ = check_passed_;                        \
        check_##tag(root);                                                                         \
        printf("%-10s %6zu bytes, %5d typed checks, %d failed\n", #tag, s.size,                    \
               check_passed_ - passed_before_ + check_failed_ - failed_before_,                    \
               check_failed_ - failed_before_);                                                    \
        blvl_bytes_free(&s);                                                                       \
    } while (0)
    READ_BACK(meta, Meta);
    READ_BACK(sim, Sim);
    READ_BACK(geometry, Geometry);
    READ_BACK(textures, Textures);
    READ_BACK(cubemaps, Cubemaps);
    READ_BACK(lightmaps, Lightmaps);
    READ_BACK(lighting, Lighting);
    READ_BACK(entities, Entities);
    READ_BACK(acoustics, Acoustics);
    READ_BACK(props, Props);
    READ_BACK(cameras, Cameras);
    READ_BACK(sites, Sites);
#undef READ_BACK

    blvl_close(lv);
    blvl_free(NULL, file);
    for (unsigned i = 0; i < ncore; i++) {
        blvl_free(NULL, bytes[i]);
        free(sample[i]);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    test_run(cmd);
    return check_report("test_sections_level");
}
