#!/usr/bin/env bash
# The usage examples in the public headers' comments (include/blvl/*.h) compile against the
# headers they sit in, so a signature change that leaves an example behind fails here (the one in
# bake.h called blvl_bake_write_file with four arguments; it takes five).
#
# An example is a comment block whose first line is indented three spaces past " * " and ends in
# ';' (a declaration or a call; reference lists do not), through the next blank comment line.
# Lines that are only "..." (elided steps) are dropped and "{ ...;" becomes "{". Each example is
# compiled as the body of a function, after declarations of the names examples use without
# declaring (opt, err, level, buffers), with gcc -std=c11 -Wall -Wextra -Werror (unused names
# allowed), syntax and types only.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for h in "$src"/include/blvl/*.h; do
    rel=${h#"$src"/include/}
    python3 - "$h" "$tmp/ex" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
blocks, cur = [], None
for ln in lines:
    if cur is None:
        m = re.match(r"^ \*   (\S.*)$", ln)
        code = m and re.sub(r"//.*", "", m.group(1)).rstrip().endswith(";")
        if code:
            cur = [m.group(1)]
        continue
    if re.match(r"^ \*\s*$", ln) or not ln.startswith(" * "):
        blocks.append(cur)
        cur = None
        continue
    cur.append(ln[3:])
if cur:
    blocks.append(cur)
for i, b in enumerate(blocks):
    body = [re.sub(r"\{ \.\.\.;", "{", l) for l in b if not l.strip().startswith("...")]
    open("%s.%d" % (sys.argv[2], i), "w").write("\n".join(body) + "\n")
PY
    for ex in "$tmp"/ex.*; do
        [ -e "$ex" ] || continue
        n=$((n + 1))
        {
            printf '#include <stdio.h>\n#include <unistd.h>\n#include "blvl/blvl.h"\n#include "blvl/sections.h"\n'
            printf '#include "%s"\n' "$rel"
            printf 'void example(blvl_level *level, const void *bsym, size_t bsym_size,\n'
            printf '             const void *meta, size_t meta_size, int fd, uint32_t w,\n'
            printf '             uint32_t h, const void *data, size_t size, uint8_t *rgba);\n'
            printf 'void example(blvl_level *level, const void *bsym, size_t bsym_size,\n'
            printf '             const void *meta, size_t meta_size, int fd, uint32_t w,\n'
            printf '             uint32_t h, const void *data, size_t size, uint8_t *rgba) {\n'
            printf '    blvl_options opt = {0};\n    blvl_error err;\n    char buf[4096];\n'
            printf '    ssize_t n;\n    {\n'
            cat "$ex"
            printf '    }\n}\n'
        } >"$tmp/t.c"
        if ! gcc -std=c11 -Wall -Wextra -Werror -Wno-unused-variable -Wno-unused-parameter \
            -Wno-unused-but-set-variable -Wno-parentheses -D_GNU_SOURCE -I"$src/include" \
            -fsyntax-only "$tmp/t.c" >"$tmp/log" 2>&1; then
            echo "FAIL: the example in $rel does not compile:"
            sed 's/^/    /' "$ex"
            grep -E 'error' "$tmp/log" | head -5
            fail=1
        fi
        rm -f "$ex"
    done
done
[ $n -ge 8 ] || { echo "FAIL: found $n examples, want at least 8 (the extraction broke?)"; fail=1; }
echo "test_header_examples: $n examples"
exit $fail
