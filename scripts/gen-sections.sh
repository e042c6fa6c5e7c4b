#!/usr/bin/env bash
# Regenerate the typed FlatBuffers code from schema/*.fbs:
#   include/blvl/sections/<name>.h and src/sections/gen/<name>.c
# Usage: scripts/gen-sections.sh [OUTROOT]   (OUTROOT defaults to the source tree; the
# staleness test passes a temporary directory and compares). Output is deterministic.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$src}
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The one way the generator is built (the CMake build does not: the generated files are
# committed), with the warnings the library gets; test_fb_gen_current runs this in ctest.
"$cc" -std=c11 -O1 -Wall -Wextra -Werror -o "$tmp/fbsgen" "$src"/tools/fbsgen/*.c -lm
mkdir -p "$out/include/blvl/sections" "$out/src/sections/gen"
"$tmp/fbsgen" "$src"/schema/*.fbs --header-dir "$tmp" --source-dir "$tmp"
# Format like the rest of the tree so `make check-format` holds for the headers.
cp "$src/.clang-format" "$tmp/.clang-format"
for f in "$tmp"/*.h "$tmp"/*.c; do
    clang-format -i --style=file "$f"
done
for f in "$tmp"/*.h; do cp "$f" "$out/include/blvl/sections/"; done
for f in "$tmp"/*.c; do cp "$f" "$out/src/sections/gen/"; done
