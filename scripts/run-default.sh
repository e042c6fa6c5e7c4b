#!/usr/bin/env bash
# `make run`: the main job on the bundled defaults. First a level packed from the sample core
# sections (tests/data/sections/*.json, built into FlatBuffers by blvl's own builder) and the
# game sections in tests/data/default/: verify it, print its info, run `blvl diag` on it, dump
# its meta section, trace a box through its colliders and stream it through the streaming
# reader. Then the bundled Rockgrave map (tests/data/hmap/sample.hmap, docs/IMPORT-HMAP.md):
# bake it with its symbols, verify it, print its info, run `blvl diag` on it and drop a player
# box onto its floor. A diag error in either level fails `make run` (warnings do not: the
# project's own samples pass its own checks). Last, both levels exported to glTF 2.0 .glb files
# and checked by the Khronos glTF-Validator; it ends by saying how to look at the baked map in a
# browser (blvl view, docs/VIEW.md).
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
echo "== blvl diag"
"$blvl" diag "$level"
echo "== blvl dump meta"
"$blvl" dump "$level" meta
echo "== blvl trace (a player box dropped onto the floor)"
"$blvl" trace "$level" --box -16 -24 -16 16 32 16 --from 0 256 0 --to 0 -256 0 --as player
echo "== blvl stream --want meta (events as the bytes arrive, 4 KiB at a time)"
"$blvl" stream --want meta --piece 4096 <"$level"

sample=$src/tests/data/hmap/sample.hmap
baked=$out/sample.blvl
echo "== blvl bake $sample -o $baked --symbols ${baked%.blvl}.bsym"
"$blvl" bake "$sample" -o "$baked" --symbols "${baked%.blvl}.bsym"
echo "== blvl verify"
"$blvl" verify "$baked"
echo "== blvl info"
"$blvl" info "$baked"
echo "== blvl diag"
"$blvl" diag "$baked" --symbols "${baked%.blvl}.bsym"
# Room A's floor is at y 0 (x 0..8 m, z 0..8 m = 0..315 qu): a player box (origin 24 above its
# feet) dropped from 100 qu lands at y 24 + 1/32.
echo "== blvl trace (a player box dropped onto room A's floor)"
"$blvl" trace "$baked" --box -16 -24 -16 16 32 16 --from 40 100 40 --to 40 -100 40 --as player

# Both levels as glTF 2.0 (docs/EXPORT.md), colliders included as a second scene "collision".
echo "== blvl export $baked -o ${baked%.blvl}.glb --collision"
"$blvl" export "$baked" -o "${baked%.blvl}.glb" --collision
glb=$out/default.glb
echo "== blvl export $level -o $glb --collision"
"$blvl" export "$level" -o "$glb" --collision
echo "wrote $glb ($(wc -c <"$glb") bytes) and ${baked%.blvl}.glb: open either in any glTF 2.0"
echo "viewer, e.g. Blender (File > Import > glTF 2.0) or three.js's editor (drag the file onto"
echo "it); the colliders are the file's second scene, \"collision\"."
if [ -f "$build/gltf-validator/node_modules/gltf-validator/package.json" ]; then
    echo "== the Khronos glTF-Validator on both"
    NODE_PATH=$build/gltf-validator/node_modules node "$src/tools/gltf_validate/validate.js" \
        "$glb" "${baked%.blvl}.glb"
fi
echo "== to look at the baked map in a browser (three.js, served on 127.0.0.1; Ctrl-C stops):"
echo "   $blvl view              (the default: $baked with its symbols)"
echo "   $blvl view LEVEL [--symbols F.bsym] [--port N]"
