/* Say each thing once: a refusal's message is "<rule>: <what>", its rule printed once by
 * blvl__fail's formatting and never again in the text. Real refusals of the library: a
 * missing output argument, allocation failures through a failing allocator (in turn, at every
 * allocation of a call), a Quake 3 image that does not decode (the image layer's refusal passed
 * on as a source refusal, without its rule), and a section the verifier refuses.
 * tests/test_messages.sh checks the sources' literals. */
#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"
#include "blvl/q3.h"
#include "blvl/q3_shader.h"
#include "blvl/sections.h"
#include "check.h"
#include "common/error.h"
#include "import/q3/image_internal.h"

/* True when `msg` is "<rule>: <text>" and the text names no rule again: not `rule` followed by
 * ':' anywhere, and for out-of-memory none of the ways of saying memory ran out. */
static int once(const char *msg, const char *rule) {
    size_t n = strlen(rule);
    if (strncmp(msg, rule, n) != 0 || msg[n] != ':' || msg[n + 1] != ' ' || !msg[n + 2]) {
        fprintf(stderr, "  \"%s\" does not start with \"%s: \"\n", msg, rule);
        return 0;
    }
    const char *text = msg + n + 2;
    char again[64];
    snprintf(again, sizeof again, "%s:", rule);
    static const char *const memory[] = {"nomem", "out of memory", "no memory", "out-of-memory"};
    int ok = strstr(text, again) == NULL;
    if (strcmp(rule, "out-of-memory") == 0)
        for (size_t i = 0; i < sizeof memory / sizeof memory[0]; i++)
            ok &= strstr(text, memory[i]) == NULL;
    if (!ok)
        fprintf(stderr, "  \"%s\" says its rule again\n", msg);
    return ok;
}

/* An allocator that fails its `fail_at`-th call (0 = never) and counts the calls. */
typedef struct failing {
    int calls, fail_at;
} failing;

static void *f_alloc(void *user, size_t size) {
    failing *f = user;
    if (++f->calls == f->fail_at)
        return NULL;
    return malloc(size);
}
static void f_free(void *user, void *p, size_t size) {
    (void)user, (void)size;
    free(p);
}

static blvl_options failing_options(failing *f) {
    blvl_options o;
    memset(&o, 0, sizeof o);
    o.allocator.alloc = f_alloc;
    o.allocator.free = f_free;
    o.allocator.user = f;
    return o;
}

/* A shader set and one script in it, with the k-th allocation failing. */
static blvl_status shaders(failing *f, blvl_error *err) {
    blvl_options o = failing_options(f);
    blvl_q3_shaders *s = NULL;
    blvl_status st = blvl_q3_shaders_new(&s, &o, err);
    if (st == BLVL_OK) {
        static const char text[] = "textures/a/b\n{\n  surfaceparm nolightmap\n  {\n    map "
                                   "textures/a/b.tga\n    blendFunc add\n  }\n}\n";
        st = blvl_q3_shaders_add(s, "scripts/a.shader", text, sizeof text - 1, err);
    }
    blvl_q3_shaders_free(s);
    return st;
}

static void missing_output(void) {
    blvl_error err;
    CHECK(blvl_q3_shaders_new(NULL, NULL, &err) == BLVL_E_ARGUMENT);
    CHECK(once(err.message, "argument"));
    CHECK(strcmp(err.message, "argument: no output") == 0);
    CHECK(blvl_q3_shaders_add(NULL, "x", "", 0, &err) == BLVL_E_ARGUMENT);
    CHECK(once(err.message, "argument"));
}

static void out_of_memory(void) {
    /* every allocation of the calls fails in turn; each refusal says what, rule once */
    failing f = {0, 0};
    blvl_error err;
    CHECK(shaders(&f, &err) == BLVL_OK);
    int total = f.calls, refused = 0;
    CHECK(total > 1);
    for (int k = 1; k <= total; k++) {
        failing g = {0, k};
        blvl_status st = shaders(&g, &err);
        if (st == BLVL_OK)
            continue;
        CHECK_EQ_INT(st, BLVL_E_NOMEM);
        CHECK(once(err.message, "out-of-memory"));
        refused++;
    }
    CHECK(refused > 0);
    failing g = {0, 1};
    CHECK(shaders(&g, &err) == BLVL_E_NOMEM);
    CHECK(strcmp(err.message, "out-of-memory: shader set") == 0);

    /* the container: a level opened from memory with its allocator failing */
    static uint8_t bytes[4096];
    failing h = {0, 1};
    blvl_options o = failing_options(&h);
    blvl_level *lv = NULL;
    blvl_status st = blvl_open_memory(&lv, bytes, sizeof bytes, &o, &err);
    if (st == BLVL_E_NOMEM)
        CHECK(once(err.message, "out-of-memory"));
    blvl_close(lv);

    /* blvl__nomem itself: the rule once, then what */
    CHECK(blvl__nomem(&err, "%u records", 7u) == BLVL_E_NOMEM);
    CHECK_EQ_INT(err.code, BLVL_E_NOMEM);
    CHECK(strcmp(err.message, "out-of-memory: 7 records") == 0);
    CHECK(strcmp(blvl__error_text(&err), "7 records") == 0);
    CHECK(blvl__nomem(NULL, "nothing to fill") == BLVL_E_NOMEM);
}

/* A PNG whose headers pass and whose data does not inflate. */
static size_t bad_png(uint8_t *p) {
    static const uint8_t head[] = {
        0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0,   0,   0,    13,   'I',  'H',  'D',
        'R',  0,   0,   0,   4,    0,    0,    0,    4,   8,   6,    0,    0,    0,    0,
        0,    0,   0,   0,   0,    4,    'I',  'D',  'A', 'T', 0xde, 0xad, 0xbe, 0xef, 0,
        0,    0,   0,   0,   0,    0,    0,    'I',  'E', 'N', 'D',  0xae, 0x42, 0x60, 0x82};
    memcpy(p, head, sizeof head);
    return sizeof head;
}

static void q3_bad_image(void) {
    uint8_t png[128];
    size_t n = bad_png(png);
    blvl_allocator a = {0};
    uint8_t *rgba = NULL;
    uint32_t w = 0, h = 0;
    blvl_error err;
    blvl_status st =
        blvl__import_q3_img_decode(png, n, "textures/a/b.png", &a, &rgba, &w, &h, &err);
    CHECK_EQ_INT(st, BLVL_E_SOURCE);
    CHECK(rgba == NULL);
    /* a source refusal: "<part>: <field> at offset N: <rule>: <problem>", no status prefix;
     * the image layer's text is the problem, its "argument: " not carried in */
    CHECK(strncmp(err.message, "textures/a/b.png: data at offset 0: decode: image: png ", 55) == 0);
    CHECK(strstr(err.message, "argument") == NULL);
    if (strstr(err.message, "argument"))
        fprintf(stderr, "  %s\n", err.message);
}

static void section_refusal(void) {
    /* the verifier's refusal: "flatbuffer" once */
    static const uint8_t junk[16] = {0xff, 0xff, 0xff, 0x7f};
    blvl_error err;
    blvl_status st = blvl_section_verify_bytes("meta", junk, sizeof junk, NULL, &err);
    CHECK(st != BLVL_OK);
    if (st == BLVL_E_FLATBUFFER)
        CHECK(once(err.message, "flatbuffer"));
}

int main(void) {
    missing_output();
    out_of_memory();
    q3_bad_image();
    section_refusal();
    return check_report("test_error_messages");
}
