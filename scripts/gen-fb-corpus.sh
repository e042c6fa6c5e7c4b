#!/usr/bin/env bash
# Regenerate the FlatBuffers fuzz seeds from the samples (tests/data/sections/<tag>.json):
#   fuzz/corpus/fb_<tag>/sample.bin  flatc's binary of the sample (an independent builder)
#   fuzz/corpus/fb_<tag>/ours.bin    blvl's own builder's binary of it
#   fuzz/corpus/fb_json/<tag>.json   one byte (the schema's index in the registry) + the JSON
# Run it after a schema or sample change. Usage: scripts/gen-fb-corpus.sh [BUILD_DIR]
# (BUILD_DIR holds libblvl.a and libblvl-tools.a; default build/).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every root schema in the registry's order (the core tags, then the files of their own), as
# fuzz/fuzz_fb_json.c indexes them: the first byte of a seed picks its schema.
tags=$(cat "$src/schema/core_tags.txt" "$src/schema/file_schemas.txt")
cat >"$tmp/build.c" <<'CEOF'
#include <stdio.h>
#include <stdlib.h>

#include "blvl/sections.h"

int main(int argc, char **argv) {
    if (argc != 4)
        return 2;
    FILE *f = fopen(argv[2], "rb");
    if (!f)
        return 1;
    static char json[1 << 22];
    size_t n = fread(json, 1, sizeof json, f);
    fclose(f);
    void *out;
    size_t size;
    blvl_error err;
    if (blvl_section_from_json(&out, &size, argv[1], json, n, NULL, &err) != BLVL_OK) {
        fprintf(stderr, "%s: %s\n", argv[2], err.message);
        return 1;
    }
    f = fopen(argv[3], "wb");
    int ok = f && fwrite(out, 1, size, f) == size;
    if (f)
        ok &= fclose(f) == 0;
    blvl_free(NULL, out);
    return ok ? 0 : 1;
}
CEOF
"$cc" -std=c11 -I"$src/include" -o "$tmp/build" "$tmp/build.c" "$build/libblvl-tools.a" "$build/libblvl.a" -lzstd -lpthread -lm
i=0
for t in $tags; do
    d=$src/fuzz/corpus/fb_$t
    mkdir -p "$d"
    flatc -b -o "$tmp" "$src/schema/$t.fbs" "$src/tests/data/sections/$t.json"
    cp "$tmp/$t.bin" "$d/sample.bin"
    "$tmp/build" "$t" "$src/tests/data/sections/$t.json" "$d/ours.bin"
    { printf "\\$(printf %03o "$i")"; cat "$src/tests/data/sections/$t.json"; } >"$src/fuzz/corpus/fb_json/$t.json"
    i=$((i + 1))
done
