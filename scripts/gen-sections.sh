#!/usr/bin/env bash
# Regenerate the typed FlatBuffers code and the registry of root schemas from schema/*.fbs:
#   include/blvl/sections/<name>.h and src/sections/gen/<name>.c   one pair per schema
#   include/blvl/sections/registry.h and src/sections/gen/registry.c   the tag -> root type
#     table and the typed blvl_level_<tag>() readers
#   schema/core_tags.txt and schema/file_schemas.txt   the lists CMake and the scripts iterate
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
mkdir -p "$out/include/blvl/sections" "$out/src/sections/gen" "$out/schema" "$tmp/lists"
"$tmp/fbsgen" "$src"/schema/*.fbs --header-dir "$tmp" --source-dir "$tmp" --list-dir "$tmp/lists"
# Format like the rest of the tree so `make check-format` holds for the headers.
cp "$src/.clang-format" "$tmp/.clang-format"
for f in "$tmp"/*.h "$tmp"/*.c; do
    clang-format -i --style=file "$f"
done
for f in "$tmp"/*.h; do cp "$f" "$out/include/blvl/sections/"; done
for f in "$tmp"/*.c; do cp "$f" "$out/src/sections/gen/"; done
for f in "$tmp"/lists/*.txt; do cp "$f" "$out/schema/"; done
