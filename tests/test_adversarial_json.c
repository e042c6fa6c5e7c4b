/* Adversarial JSON for the FlatBuffers JSON parser (src/json/json_parse.c): nesting deep enough to
 * overflow a recursive parser's stack, numbers past every range, duplicate keys, invalid UTF-8
 * and lone surrogates, unknown fields and enum names, NUL inside strings. Every accepted input is
 * run through the verifier, and strings are checked byte for byte. */
#include <stdlib.h>

#include "check.h"
#include "blvl/fb.h"

/* J { a:int (0); f:float (1); s:string (2); c:Color (ubyte enum, 3); u:U (type 4, value 5);
 *     b:ubyte (6); l:long (7) }, K { x:int }, union U { K }, enum Color { Red, Green } */
extern const blvl_fb_type k_type;
static const blvl_fb_field k_fields[] = {{.name = "x", .id = 0, .kind = BLVL_FB_I32}};
const blvl_fb_type k_type = {"K", 0, 0, 0, 0, 1, k_fields, NULL};
static const blvl_fb_enum_val u_vals[] = {{"NONE", 0, NULL}, {"K", 1, &k_type}};
static const blvl_fb_enum u_enum = {"U", BLVL_FB_U8, 1, 0, 2, u_vals};
static const blvl_fb_enum_val color_vals[] = {{"Red", 0, NULL}, {"Green", 1, NULL}};
static const blvl_fb_enum color_enum = {"Color", BLVL_FB_U8, 0, 0, 2, color_vals};
static const blvl_fb_field j_fields[] = {
    {.name = "a", .id = 0, .kind = BLVL_FB_I32},
    {.name = "f", .id = 1, .kind = BLVL_FB_F32},
    {.name = "s", .id = 2, .kind = BLVL_FB_STRING},
    {.name = "c", .id = 3, .kind = BLVL_FB_U8, .enum_t = &color_enum},
    {.name = "u", .id = 5, .kind = BLVL_FB_UNION, .enum_t = &u_enum},
    {.name = "b", .id = 6, .kind = BLVL_FB_U8},
    {.name = "l", .id = 7, .kind = BLVL_FB_I64},
};
static const blvl_fb_type j_type = {"J", 0, 0, 0, 0, 7, j_fields, NULL};

/* Parse; on success verify the bytes and hand them back (the caller frees) when `out` is set. */
static blvl_status parse_n(const char *json, size_t len, uint8_t **out, size_t *n, char *msg) {
    void *buf = NULL;
    size_t size = 0;
    blvl_error err;
    memset(&err, 0, sizeof err);
    /* a private copy of exactly len bytes: ASan sees any read past the end */
    char *c = malloc(len ? len : 1);
    memcpy(c, json, len);
    blvl_status st = blvl_fb_from_json(&buf, &size, c, len, &j_type, NULL, &err);
    free(c);
    if (msg)
        snprintf(msg, 256, "%s", st ? err.message : "");
    if (st == BLVL_OK) {
        CHECK_EQ_INT(blvl_fb_verify(buf, size, &j_type, NULL, &err), BLVL_OK);
        if (out) {
            *out = buf;
            *n = size;
            return st;
        }
        blvl_free(NULL, buf);
    }
    return st;
}

static blvl_status parse(const char *json, char *msg) {
    return parse_n(json, strlen(json), NULL, NULL, msg);
}

static int refused_for(const char *json, const char *want) {
    char msg[256];
    blvl_status st = parse(json, msg);
    if (st != BLVL_E_FLATBUFFER || !strstr(msg, want)) {
        fprintf(stderr, "%s: wanted a refusal naming '%s', got %d: %s\n", json, want, (int)st, msg);
        return 0;
    }
    return 1;
}

/* The string field of a parsed buffer. */
static int string_is(const char *json, const char *bytes, uint32_t len) {
    uint8_t *buf;
    size_t n;
    if (parse_n(json, strlen(json), &buf, &n, NULL) != BLVL_OK)
        return 0;
    blvl_fb_str s = blvl_fb_get_str(blvl_fb_root(buf), 2);
    int ok = s.len == len && memcmp(s.ptr, bytes, len) == 0 && s.ptr[len] == 0;
    blvl_free(NULL, buf);
    return ok;
}

/* Correctly handled: nesting a recursive parser would overflow its stack on. */
static void deep_nesting(void) {
    size_t depth = 1000000;
    char *j = malloc(2 * depth + 16);
    size_t n = 0;
    n += (size_t)sprintf(j, "{\"s\":");
    for (size_t i = 0; i < depth; i++)
        j[n++] = '[';
    for (size_t i = 0; i < depth; i++)
        j[n++] = ']';
    j[n++] = '}';
    char msg[256];
    CHECK_EQ_INT(parse_n(j, n, NULL, NULL, msg), BLVL_E_FLATBUFFER);
    CHECK(strstr(msg, "nested too deeply") != NULL);
    /* objects, through the union's table: the parser's depth limit, then the builder's */
    n = 0;
    for (size_t i = 0; i < 100000; i++)
        n += (size_t)sprintf(j + n, "{\"u\":");
    CHECK_EQ_INT(parse_n(j, n, NULL, NULL, msg), BLVL_E_FLATBUFFER);
    CHECK(strstr(msg, "nested too deeply") != NULL);
    free(j);
}

/* Correctly handled: numbers past the field's range, past 64 bits, too long, malformed. */
static void numbers(void) {
    char msg[256];
    CHECK_EQ_INT(parse("{\"a\": -2147483648, \"b\": 255, \"l\": -9223372036854775808}", msg),
                 BLVL_OK);
    CHECK(refused_for("{\"a\": 2147483648}", "out of range"));
    CHECK(refused_for("{\"a\": -2147483649}", "out of range"));
    CHECK(refused_for("{\"b\": 256}", "out of range"));
    CHECK(refused_for("{\"b\": -1}", "out of range"));
    CHECK(refused_for("{\"l\": 9223372036854775808}", "out of range"));
    CHECK(refused_for("{\"l\": 99999999999999999999}", "J.l: integer out of range"));
    CHECK(refused_for("{\"a\": 1.5}", "integer"));
    CHECK(refused_for("{\"a\": 1e3}", "integer"));
    CHECK(refused_for("{\"a\": --1}", "integer"));
    CHECK(refused_for("{\"a\": 0x}", "integer"));
    CHECK(refused_for("{\"a\": 11111111111111111111111111111111111111111111}", "unexpected"));
    CHECK(refused_for("{\"f\": 1e}", "bad number"));
    CHECK(refused_for("{\"a\": \"7\"}", "J.a: a string where a number belongs"));
    CHECK_EQ_INT(parse("{\"f\": 3.4e38}", msg), BLVL_OK);
    CHECK_EQ_INT(parse("{\"f\": 3.4028235e38}", msg), BLVL_OK); /* FLT_MAX as printed */
    CHECK_EQ_INT(parse("{\"f\": 1e-300}", msg), BLVL_OK);       /* underflow: rounds to 0 */
    CHECK_EQ_INT(parse("{\"f\": -inf}", msg), BLVL_OK);
    CHECK_EQ_INT(parse("{\"f\": nan}", msg), BLVL_OK);
    /* Finding: a finite double past FLT_MAX became an infinity in a float field (a conversion C
     * leaves undefined without Annex F); refused as out of range now, as an integer would be. */
    CHECK(refused_for("{\"f\": 1e39}", "out of range"));
    CHECK(refused_for("{\"f\": -1e300}", "out of range"));
    CHECK(refused_for("{\"f\": 1e999}", "out of range")); /* past double, too */
}

/* Finding: a key given twice was accepted and the first one silently won; flatc refuses it. */
static void duplicate_keys(void) {
    CHECK(refused_for("{\"a\": 1, \"a\": 2}", "twice"));
    CHECK(refused_for("{\"s\": \"x\", \"a\": 1, \"s\": \"y\"}", "twice"));
    CHECK(refused_for("{\"u_type\": \"K\", \"u\": {\"x\": 1}, \"u_type\": \"K\"}", "twice"));
    CHECK(refused_for("{\"u_type\": \"K\", \"u\": {\"x\": 1, \"x\": 1}}", "twice"));
    char msg[256];
    CHECK_EQ_INT(parse("{\"u_type\": \"K\", \"u\": {\"x\": 1}, \"a\": 1}", msg), BLVL_OK);
}

/* Findings: raw bytes that are not UTF-8 and \u escapes of lone surrogates went into strings
 * unchecked (a lone surrogate became the CESU-8 bytes ED A0 80), so a buffer built from JSON
 * could carry strings that are not UTF-8, which FlatBuffers strings must be and flatc refuses. */
static void utf8(void) {
    CHECK(string_is("{\"s\": \"h\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}",
                    "h\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10));
    CHECK(string_is("{\"s\": \"\\u00e9\\u20ac\\ud83d\\ude00\"}",
                    "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9));
    CHECK(refused_for("{\"s\": \"\xff\"}", "UTF-8"));
    CHECK(refused_for("{\"s\": \"\xc3\"}", "UTF-8"));             /* cut short */
    CHECK(refused_for("{\"s\": \"\xc0\xaf\"}", "UTF-8"));         /* overlong '/' */
    CHECK(refused_for("{\"s\": \"\xe0\x80\xaf\"}", "UTF-8"));     /* overlong, 3 bytes */
    CHECK(refused_for("{\"s\": \"\xed\xa0\x80\"}", "UTF-8"));     /* an encoded surrogate */
    CHECK(refused_for("{\"s\": \"\xf4\x90\x80\x80\"}", "UTF-8")); /* past U+10FFFF */
    CHECK(refused_for("{\"s\": \"\x80\"}", "UTF-8"));             /* a lone continuation byte */
    CHECK(refused_for("{\"\xff\": 1}", "UTF-8"));                 /* in a key */
    CHECK(refused_for("{\"s\": \"\\ud800\"}", "surrogate"));
    CHECK(refused_for("{\"s\": \"\\ud800x\"}", "surrogate"));
    CHECK(refused_for("{\"s\": \"\\ud800\\u0041\"}", "surrogate"));
    CHECK(refused_for("{\"s\": \"\\udc00\"}", "surrogate"));
}

/* Correctly handled: escapes and control characters, NUL inside a string (kept: FlatBuffers
 * strings carry their length; the terminator still follows), and the printer writes it back
 * escaped. */
static void strings(void) {
    CHECK(refused_for("{\"s\": \"a\nb\"}", "control character"));
    CHECK(refused_for("{\"s\": \"\\x41\"}", "bad escape"));
    CHECK(refused_for("{\"s\": \"\\u12\"}", "\\u"));
    CHECK(refused_for("{\"s\": \"\\u12g4\"}", "\\u"));
    CHECK(refused_for("{\"s\": \"abc", "unterminated"));
    CHECK(refused_for("{\"s\": \"abc\\", "unterminated"));
    CHECK(string_is("{\"s\": \"a\\u0000b\"}", "a\0b", 3));
    {
        static const char j[] = "{\"s\": \"a\\u0000b\"}";
        uint8_t *buf;
        size_t n;
        char *txt = NULL;
        size_t tl = 0;
        blvl_error err;
        CHECK_EQ_INT(parse_n(j, strlen(j), &buf, &n, NULL), BLVL_OK);
        CHECK_EQ_INT(blvl_fb_to_json(&txt, &tl, buf, n, &j_type, 0, NULL, &err), BLVL_OK);
        CHECK(txt && strstr(txt, "a\\u0000b") != NULL);
        blvl_free(NULL, txt);
        blvl_free(NULL, buf);
    }
    /* a NUL byte in the JSON text itself is a control character */
    CHECK_EQ_INT(parse_n("{\"s\": \"a\0b\"}", 12, NULL, NULL, NULL), BLVL_E_FLATBUFFER);
}

/* Correctly handled: fields, enum names and union types the schema does not have. */
static void schema(void) {
    char msg[256];
    CHECK(refused_for("{\"zz\": 1}", "unknown field"));
    CHECK(refused_for("{\"c\": \"Blue\"}", "J.c: unknown value 'Blue' of enum Color"));
    CHECK(refused_for("{\"c\": \"Red Green\"}", "several values of enum Color"));
    CHECK(refused_for("{\"c\": \"\"}", "empty value of enum Color"));
    CHECK_EQ_INT(parse("{\"c\": \"Green\"}", msg), BLVL_OK);
    CHECK(refused_for("{\"u_type\": \"Q\", \"u\": {}}", "J.u_type: unknown value 'Q' of enum U"));
    CHECK(refused_for("{\"u_type\": 7, \"u\": {}}", "J.u: unknown type 7 of union U"));
    CHECK(refused_for("{\"u_type\": \"K\"}", "without its value"));
    CHECK(refused_for("{\"u\": {\"x\": 1}}", "without its u_type"));
    CHECK(refused_for("{\"u_type\": \"K\", \"u\": {\"x\": 1e3}}", "J.u.x: bad integer"));
    CHECK(refused_for("{\"zz\": 1}", "J: unknown field 'zz' of table J"));
    CHECK(refused_for("{\"u_type\": \"K\", \"u\": 5}", "expected an object"));
    CHECK(refused_for("[1]", "expected an object"));
    CHECK(refused_for("", "unexpected end of input"));
    CHECK(refused_for("   ", "unexpected end of input"));
    /* cut short anywhere: it says so, not "expected a key" or "bad escape" */
    static const char *const cut[] = {
        "{",          "{\"a\"",           "{\"a\":",       "{\"a\": 1",
        "{\"a\": 1,", "{\"s\": \"ab",     "{\"s\": \"a\\", "{\"s\": \"\\u00",
        "{\"u\": {",  "{\"c\": \"Green\""};
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++)
        CHECK(refused_for(cut[i], "unexpected end of input"));
    CHECK(refused_for("{\n\"a\": ?}", "json line 2 column 6: unexpected character"));
    CHECK(refused_for("{} x", "trailing"));
    CHECK(refused_for("{\"a\" 1}", "expected ':'"));
    CHECK(refused_for("{\"a\": 1,}", "expected a key"));
}

/* Finding: node and string positions are 32-bit offsets into the text, so a text of 4 GiB or
 * more had its number positions wrap (numbers read from the wrong place). Such a text is refused
 * up front now, before a byte of it is read (the length here is a claim: the bytes are 3). */
static void huge_text(void) {
    static const char j[] = "{} ";
    void *out = NULL;
    size_t n = 0;
    blvl_error err;
    blvl_status st = blvl_fb_from_json(&out, &n, j, (size_t)5 << 30, &j_type, NULL, &err);
    CHECK_EQ_INT(st, BLVL_E_FLATBUFFER);
    CHECK(strstr(err.message, "4 GiB") != NULL);
}

int main(void) {
    deep_nesting();
    numbers();
    duplicate_keys();
    utf8();
    strings();
    schema();
    huge_text();
    return check_report("test_adversarial_json");
}
