#!/usr/bin/env bash
# Writes fuzz/corpus/bsym/, the seeds of fuzz_bsym.c: each is one mode byte (bit 0 the fixed
# level, bit 1 READ_STALE, bit 2 the level's identity written over the file's) and a .bsym.
#
#   fuzz/make_bsym_corpus.sh BLVL_PROGRAM      (flatc from Debian builds the hand-written ones)
#
# The .bsym files: one matching the fuzz target's fixed level (3 colliders, 4 triangles, 2
# materials, 2 entities), one of another version, tests/data/sections/bsym.json, and the bake's
# of the hmap sample.
set -eu
blvl=${1:?usage: make_bsym_corpus.sh BLVL_PROGRAM}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
out=$here/corpus/bsym
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
cat >"$tmp/fits.json" <<'J'
{"level": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "version": 1,
 "colliders": [0, 4294967295, 1],
 "tri_runs": [{"first_tri": 0, "source": 0}, {"first_tri": 2, "source": 1},
              {"first_tri": 3, "source": 4294967295}],
 "sources": [{"kind": "Brush", "index": 3, "surface_flags": 0, "contents_flags": 1,
              "entity": 0, "material": 0},
             {"kind": "Face", "index": 9, "surface_flags": 4, "contents_flags": 0,
              "entity": 1, "material": 1},
             {"kind": "Patch", "index": 2, "surface_flags": 0, "contents_flags": 0,
              "entity": 4294967295, "material": 4294967295}],
 "materials": [{"name": "a", "baked": 0},
               {"name": "b", "shader": "scripts/b.shader", "texture": "textures/b",
                "baked": 1, "unknown": ["surfaceparm nodraw", "q3map_x 1"]}]}
J
sed 's/"version": 1/"version": 2/' "$tmp/fits.json" >"$tmp/v2.json"
cp "$src/tests/data/sections/bsym.json" "$tmp/sample.json"
for j in fits v2 sample; do
    flatc -b -o "$tmp" "$src/schema/bsym.fbs" "$tmp/$j.json"
done
"$blvl" bake "$src/tests/data/hmap/sample.hmap" -o "$tmp/h.blvl" --symbols "$tmp/hmap.bin" >/dev/null
seed() { { printf "\\$(printf '%03o' "$1")"; cat "$tmp/$2.bin"; } >"$out/$2-$1"; }
for m in 0 1 5 7; do seed $m fits; done
seed 1 v2
for m in 0 3; do seed $m sample; done
for m in 0 1 5; do seed $m hmap; done
