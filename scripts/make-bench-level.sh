#!/usr/bin/env bash
# Builds the benchmark levels once into BUILD_DIR/bench/ (a cache; delete it to rebuild):
#   big.blvl    meta, every OpenArena .bsp of Debian's openarena-081-maps as a game section
#               oa.<map> (repeated if needed to pass 100 MiB raw), then a 1 MiB sim, last
#   sim.blvl    meta and the same sim only
#   chunks.zst  the zstd chunks of big.blvl as concatenated frames (the zstd -d reference)
# usage: scripts/make-bench-level.sh BUILD_DIR
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
blvl=$build/blvl
out=$build/bench
tools=$here/bench/level_tools.py
pk3=/usr/share/games/openarena/baseoa/pak1-maps.pk3
min_raw=$((100 << 20))
[ -x "$blvl" ] || { echo "make-bench-level: no $blvl (build first)" >&2; exit 1; }

if [ -f "$out/big.blvl" ] && [ -f "$out/sim.blvl" ] && [ -f "$out/chunks.zst" ] &&
   "$blvl" identity "$out/big.blvl" >/dev/null 2>&1 &&
   "$blvl" identity "$out/sim.blvl" >/dev/null 2>&1; then
    echo "make-bench-level: using the cached levels in $out" >&2
    exit 0
fi
if [ ! -f "$pk3" ]; then
    echo "make-bench-level: installing openarena-081-maps" >&2
    BLVL_WANT_MAPS=1 "$here/scripts/deps.sh"
fi
mkdir -p "$out"
python3 "$tools" maps "$pk3" "$out/maps" "$min_raw" >"$out/maps.args"
largest=$(ls -S "$out"/maps/*.bsp | head -n 1)
python3 "$tools" sim "$largest" "$out/sim.bin" $((1 << 20))
python3 "$tools" meta "$out/meta.bin"
mapfile -t maps <"$out/maps.args"
echo "make-bench-level: packing ${#maps[@]} maps + sim (zstd level 19, this takes a while)" >&2
start=$(date +%s)
"$blvl" pack -o "$out/big.blvl.tmp" "meta=$out/meta.bin" "${maps[@]}" "sim=$out/sim.bin"
echo "make-bench-level: packed in $(( $(date +%s) - start )) s" >&2
"$blvl" pack -o "$out/sim.blvl.tmp" "meta=$out/meta.bin" "sim=$out/sim.bin"
python3 "$tools" chunks "$out/big.blvl.tmp" "$out/chunks.zst" >"$out/chunks.txt"
mv "$out/sim.blvl.tmp" "$out/sim.blvl"
mv "$out/big.blvl.tmp" "$out/big.blvl"
cat "$out/chunks.txt" >&2
