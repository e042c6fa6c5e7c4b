#!/usr/bin/env bash
# `make run`: the main job on the bundled default. Until importers exist, that is: bake a level
# from the sample core sections (tests/data/sections/*.json, built into FlatBuffers by blvl's
# own builder) and the game sections in tests/data/default/, then verify it, print its info,
# dump its meta section, trace a box through its colliders and stream it through the
# streaming reader.
#   scripts/run-default.sh BUILD_DIR
set -eu
build=${1:-build}
src=$(cd "$(dirname "$0")/.." && pwd)
blvl=$build/blvl
[ -x "$blvl" ] || { echo "run-default: no $blvl; run make first" >&2; exit 1; }
out=$build/default
rm -rf "$out"
mkdir -p "$out"

args=()
# Every core tag (schema/core_tags.txt, generated from schema/) that has a sample.
while read -r tag; do
    json=$src/tests/data/sections/$tag.json
    [ -f "$json" ] || continue
    args+=("$tag=$json")
done <"$src/schema/core_tags.txt"
for f in "$src"/tests/data/default/*.*.*; do
    name=$(basename "$f")
    args+=("${name%.*}=$f")
done

level=$out/default.blvl
echo "== blvl pack -o $level (${#args[@]} sections)"
"$blvl" pack -o "$level" --id demo.spawns "${args[@]}"
echo "== blvl verify"
"$blvl" verify "$level"
echo "== blvl info"
"$blvl" info "$level"
echo "== blvl dump meta"
"$blvl" dump "$level" meta
echo "== blvl trace (a player box dropped onto the floor)"
"$blvl" trace "$level" --box -16 -24 -16 16 32 16 --from 0 256 0 --to 0 -256 0 --as player
echo "== blvl stream --want meta (events as the bytes arrive, 4 KiB at a time)"
"$blvl" stream --want meta --piece 4096 <"$level"
