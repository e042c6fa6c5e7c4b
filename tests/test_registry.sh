#!/usr/bin/env bash
# The tag registry is generated from schema/ alone (docs/FLATBUFFERS.md, "The registry"):
#  1. a dry run: in a temporary copy of the tree, add a core section (dummy.fbs) and a file of
#     its own (dummyfile.fbs, with a file_identifier), run scripts/gen-sections.sh and nothing
#     else, then check that every list picks them up: schema/core_tags.txt (in registry order)
#     and file_schemas.txt, the generated registry, the typed blvl_level_dummy(), CMake's fuzz
#     targets, and a program built on the regenerated sections layer that bakes, reads and
#     verifies a level holding a dummy section;
#  2. fbsgen refuses a core section whose file name cannot be a tag, and the required mark on a
#     file of its own;
#  3. the fuzz seeds (fuzz/corpus/fb_<name>/, fb_json/<name>.json) follow the registry;
#  4. nothing in the real tree keeps a list of the core tags by hand.
set -u
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
build=${BLVL_BUILD:-$src/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { local what=$1; shift; if "$@" >/dev/null 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what"; fi; }
not() { ! "$@"; }

# --- 1. the dry run -------------------------------------------------------------------------
t=$tmp/tree
mkdir -p "$t"
cp -r "$src/schema" "$src/tools" "$src/scripts" "$src/include" "$src/src" "$src/fuzz" "$src/cli" "$src/examples" \
    "$src/CMakeLists.txt" "$src/.clang-format" "$t/"
[ -f "$src/blvl.pc.in" ] && cp "$src/blvl.pc.in" "$t/"
[ -d "$src/cmake" ] && cp -r "$src/cmake" "$t/"
mkdir -p "$t/tests" && cp -r "$src/tests/link" "$t/tests/" # the layer link programs
cat >"$t/schema/dummy.fbs" <<'EOF'
// dummy.fbs: a core section added by test_registry.sh.
namespace blvl;
table Dummy {
  x:uint;
}
root_type Dummy;
EOF
cat >"$t/schema/dummyfile.fbs" <<'EOF'
// dummyfile.fbs: a file of its own, added by test_registry.sh.
namespace blvl;
table DummyFile {
  y:uint;
}
root_type DummyFile;
file_identifier "DUMY";
EOF
ok "gen-sections.sh regenerates the copy" "$t/scripts/gen-sections.sh"

# The registry's order: the required sections, then the rest, each by name.
want=$( { grep -l blvl_required_section "$t"/schema/*.fbs | xargs -n1 basename | sed 's/\.fbs$//' | sort
          grep -L -e blvl_required_section -e '^file_identifier' "$t"/schema/*.fbs |
              xargs grep -l '^root_type' | xargs -n1 basename | sed 's/\.fbs$//' | sort; } )
ok "core_tags.txt lists dummy, in registry order" \
    diff <(echo "$want") "$t/schema/core_tags.txt"
ok "core_tags.txt still starts with the required meta and sim" \
    diff <(printf 'meta\nsim\n') <(head -n 2 "$t/schema/core_tags.txt")
ok "file_schemas.txt lists bsym and dummyfile" \
    diff <(printf 'bsym\ndummyfile\n') "$t/schema/file_schemas.txt"
ok "core_tags.txt has no file of its own" not grep -qx -e bsym -e dummyfile "$t/schema/core_tags.txt"
reg_h=$t/include/blvl/sections/registry.h
reg_c=$t/src/sections/gen/registry.c
ok "registry.h includes dummy.h" grep -q '#include "blvl/sections/dummy.h"' "$reg_h"
ok "registry.h includes dummyfile.h" grep -q '#include "blvl/sections/dummyfile.h"' "$reg_h"
ok "registry.h defines blvl_level_dummy" grep -q 'blvl_level_dummy(blvl_level \*level' "$reg_h"
ok "no typed level reader for a file of its own" not grep -q 'blvl_level_dummyfile' "$reg_h"
ok "registry.c: dummy -> Dummy, core, optional" grep -q '{"dummy", &blvl_Dummy_type, 1, 0}' "$reg_c"
ok "registry.c: dummyfile -> DummyFile, not core" \
    grep -q '{"dummyfile", &blvl_DummyFile_type, 0, 0}' "$reg_c"
ok "the real tree's registry is untouched by the copy" not grep -q dummy \
    "$src/schema/core_tags.txt" "$src/include/blvl/sections/registry.h"

# CMake: a fuzz target per root schema, read from the generated lists.
[ -d "$src/.deps" ] && ln -s "$src/.deps" "$t/.deps" # the BLAKE3 sources scripts/deps.sh extracted
if cmake -S "$t" -B "$tmp/cmake" -DBLVL_FUZZ=ON >"$tmp/cmake.log" 2>&1; then
    pass=$((pass+1))
    ok "CMake makes fuzz_fb_dummy" grep -q 'fuzz_fb_dummy' "$tmp/cmake/Makefile"
    ok "CMake makes fuzz_fb_dummyfile" grep -q 'fuzz_fb_dummyfile' "$tmp/cmake/Makefile"
else
    fail=$((fail+1)); echo "FAIL: cmake configure of the copy: $(tail -n 5 "$tmp/cmake.log")"
fi

# A program on the regenerated sections layer (its objects come before libblvl.a, so the
# archive's own registry is never linked).
cat >"$tmp/use.c" <<'EOF'
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "blvl/sections.h"

#define NEED(c) do { if (!(c)) { fprintf(stderr, "failed: %s\n", #c); return 1; } } while (0)

static uint8_t *from_json(const char *tag, const char *json, size_t *n) {
    void *out = NULL;
    blvl_error err;
    if (blvl_section_from_json(&out, n, tag, json, strlen(json), NULL, &err) != BLVL_OK)
        fprintf(stderr, "%s: %s\n", tag, err.message);
    return out;
}

static int bake(const void *dummy, size_t dn, void **file, size_t *fn, blvl_level **lv) {
    size_t mn, sn;
    uint8_t *meta = from_json("meta", "{}", &mn), *sim = from_json("sim", "{}", &sn);
    blvl_section_in in[3] = {{"meta", 0, BLVL_ENTRY_FLAG_IDENTITY, meta, mn},
                             {"sim", 0, BLVL_ENTRY_FLAG_IDENTITY, sim, sn},
                             {"dummy", 0, BLVL_ENTRY_FLAG_IDENTITY, dummy, dn}};
    blvl_error err;
    int bad = !meta || !sim || blvl_write_memory(file, fn, in, 3, NULL, &err) != BLVL_OK ||
              blvl_open_memory(lv, *file, *fn, NULL, &err) != BLVL_OK;
    blvl_free(NULL, meta);
    blvl_free(NULL, sim);
    return bad;
}

int main(void) {
    bool required = true;
    NEED(blvl_section_type("dummy", &required) == &blvl_Dummy_type && required == 0);
    NEED(blvl_section_type("meta", &required) == &blvl_Meta_type && required == 1);
    NEED(blvl_schema_type("dummy") == &blvl_Dummy_type);
    NEED(blvl_schema_type("dummyfile") == &blvl_DummyFile_type);
    NEED(blvl_section_type("dummyfile", NULL) == NULL);
    NEED(blvl_schema_type("bsym") == &blvl_Symbols_type);
    int listed = 0;
    for (unsigned i = 0; blvl_core_tag_at(i); i++)
        listed += strcmp(blvl_core_tag_at(i), "dummy") == 0;
    NEED(listed == 1 && BLVL_CORE_SECTION_COUNT == WANT_COUNT);

    size_t dn;
    uint8_t *dummy = from_json("dummy", "{\"x\": 7}", &dn);
    NEED(dummy != NULL);
    void *file = NULL;
    size_t fn = 0;
    blvl_level *lv = NULL;
    NEED(bake(dummy, dn, &file, &fn, &lv) == 0);
    blvl_error err;
    blvl_bytes s;
    blvl_Dummy d;
    NEED(blvl_level_dummy(lv, &s, &d, &err) == BLVL_OK && blvl_Dummy_x(d) == 7);
    blvl_bytes_free(&s);
    NEED(blvl_sections_verify(lv, &err) == BLVL_OK);
    blvl_close(lv);
    blvl_free(NULL, file);
    blvl_free(NULL, dummy);

    /* a dummy section the verifier refuses: blvl verify's rules now cover it by name */
    static const uint8_t junk[8] = {0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0};
    NEED(bake(junk, sizeof junk, &file, &fn, &lv) == 0);
    NEED(blvl_sections_verify(lv, &err) == BLVL_E_FLATBUFFER);
    NEED(strstr(err.message, "section dummy") != NULL);
    blvl_close(lv);
    blvl_free(NULL, file);
    puts("dummy: ok");
    return 0;
}
EOF
# Built with the library's own compiler, and its sanitizers when it has them.
cc=$(sed -n 's/^CMAKE_C_COMPILER:FILEPATH=//p' "$build/CMakeCache.txt" 2>/dev/null)
cc=${cc:-${CC:-cc}}
san=
grep -q '^BLVL_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null && san=-fsanitize=address,undefined
# shellcheck disable=SC2086 # san is one flag or none
if [ -f "$build/libblvl.a" ] &&
    "$cc" -std=c11 $san -D_GNU_SOURCE -DWANT_COUNT="$(wc -l <"$t/schema/core_tags.txt")u" -I"$t/include" -I"$t/src" -o "$tmp/use" "$tmp/use.c" \
        "$t"/src/sections/*.c "$t"/src/sections/gen/*.c "$build/libblvl-tools.a" "$build/libblvl.a" \
        -lzstd -lpthread -lm >"$tmp/cc.log" 2>&1; then
    pass=$((pass+1))
    ok "a level with a dummy section bakes, reads and verifies" "$tmp/use"
else
    fail=$((fail+1)); echo "FAIL: building on the regenerated copy: $(head -c 600 "$tmp/cc.log")"
fi

# --- 2. what fbsgen refuses -----------------------------------------------------------------
fbsgen=$tmp/fbsgen
"$cc" -std=c11 -O1 -o "$fbsgen" "$src"/tools/fbsgen/*.c -lm
mkdir -p "$tmp/refuse"
refused() { # SCHEMA-FILE-NAME CONTENT MESSAGE-PART
    printf '%s\n' "$2" >"$tmp/refuse/$1"
    ! "$fbsgen" "$tmp/refuse/$1" --header-dir "$tmp/refuse" --source-dir "$tmp/refuse" \
        2>"$tmp/refuse/err" >/dev/null && grep -q "$3" "$tmp/refuse/err"
    local r=$?
    rm -f "$tmp/refuse/$1"
    return $r
}
ok "a core section named with a dash" \
    refused "two-part.fbs" 'namespace blvl; table T { x:uint; } root_type T;' "file name is its tag"
ok "a core section named past 16 characters" \
    refused "abcdefghijklmnopq.fbs" 'namespace blvl; table T { x:uint; } root_type T;' "16 characters"
ok "blvl_required_section on a file of its own" \
    refused "own.fbs" 'namespace blvl; attribute "blvl_required_section"; table T (blvl_required_section) { x:uint; } root_type T; file_identifier "OWNF";' "file of its own"
ok "a schema named registry" \
    refused "registry.fbs" 'namespace blvl; table T { x:uint; } root_type T;' "taken by the generated registry"
ok "a 16-character core tag is fine" \
    not refused "abcdefghijklmnop.fbs" 'namespace blvl; table T { x:uint; } root_type T;' "."

if command -v python3 >/dev/null 2>&1; then py=python3; else py=/usr/bin/python3; fi

# --- 3. the fuzz seeds follow the registry ---------------------------------------------------
# scripts/gen-fb-corpus.sh makes fuzz/corpus/fb_<name>/ for every root schema and prefixes each
# fb_json seed with the schema's index in the registry; a schema added or removed without
# running it leaves seeds that fuzz the wrong schema or none.
ok "fuzz seeds match the registry (run scripts/gen-fb-corpus.sh)" "$py" - "$src" <<'PYEOF'
import os, sys
src = sys.argv[1]
names = (open(f"{src}/schema/core_tags.txt").read().split()
         + open(f"{src}/schema/file_schemas.txt").read().split())
corpus = f"{src}/fuzz/corpus"
bad = 0
for i, n in enumerate(names):
    seed = f"{corpus}/fb_json/{n}.json"
    if not os.path.isdir(f"{corpus}/fb_{n}") or not os.path.isfile(seed):
        print(f"no seeds for {n}"); bad = 1
    elif open(seed, "rb").read(1) != bytes([i]):
        print(f"{seed}: first byte is not {i}, its index in the registry"); bad = 1
for d in os.listdir(corpus):
    if d.startswith("fb_") and d != "fb_json" and d[3:] not in names:
        print(f"orphan seeds: fuzz/corpus/{d}"); bad = 1
for f in os.listdir(f"{corpus}/fb_json"):
    if f[:-len(".json")] not in names:
        print(f"orphan seed: fuzz/corpus/fb_json/{f}"); bad = 1
sys.exit(bad)
PYEOF

# --- 4. no list of core tags kept by hand ---------------------------------------------------
# Any 3 lines naming 5 or more core tags, with the tags a third or more of their words, outside
# schema/, the generated code, docs/ and the sample data is a list someone would have to keep
# up; iterate the registry instead. (Code that reads several sections for what they hold, like
# the cross-section checks of test_schemas_flatc.sh, names them among many other words.)
(cd "$src" && git ls-files 2>/dev/null) >"$tmp/files" || true
if [ -s "$tmp/files" ]; then
    ok "no hand-kept list of core tags" "$py" - "$src" "$tmp/files" <<'PYEOF'
import re, sys
src, listing = sys.argv[1], sys.argv[2]
tags = open(f"{src}/schema/core_tags.txt").read().split()
skip = ("schema/", "src/sections/gen/", "include/blvl/sections/", "docs/", "tests/data/",
        "fuzz/corpus/", "tests/golden/")
word = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
bad = 0
for path in open(listing).read().split("\n"):
    if not path or path.startswith(skip) or path.endswith((".md", ".json", ".bin")):
        continue
    try:
        lines = open(f"{src}/{path}", encoding="utf-8").read().split("\n")
    except (OSError, UnicodeDecodeError):
        continue
    words = [word.findall(l) for l in lines]
    for i in range(len(lines)):
        w = [x for ws in words[i:i + 3] for x in ws]
        found = set(w) & set(tags)
        if len(found) >= 5 and 3 * sum(x in found for x in w) >= len(w):
            print(f"{path}:{i + 1}: a hand-kept list of core tags: {sorted(found)}")
            bad = 1
            break
sys.exit(bad)
PYEOF
else
    echo "note: not a git checkout; the hand-kept list check is skipped"
fi

echo "test_registry: $pass passed, $fail failed"
[ $fail = 0 ]
