#!/usr/bin/env bash
# `make bench`: the container benchmarks on a level of more than 100 MiB raw built
# from real maps (scripts/make-bench-level.sh, cached in BUILD_DIR/bench/), then
# bench_container: blvl verify (1 and 2 threads) against b3sum + zstd -d -T0 over the same
# bytes, and open + read sim in that level against a level of only that sim.
# Then bench_writer: the streaming writer's peak memory (1 GiB vs 16 MiB section), incompressible
# packing speed with the level-1 probe against level 19 on every chunk, and the bench level's
# size under both codec rules.
# Then bench_bake: the .hmap bake of a generated 20,000-brush, 200-mesh map on one core (each
# stage's share, peak RSS, zstd -19 of the same sections as the reference), and of a small map.
# Then bench_http: open + read sim and the whole level over HTTP from nginx on 127.0.0.1
# (tests/support/nginx.sh) against the local file and `curl -o`.
# Then bench_http_cache: every section of that level read over HTTP without a cache, with an
# empty one and with a warm one, against the local file.
# Then bench_http_memory: peak RSS of `blvl fetch -o` (with and without --cache), `blvl cat URL
# TAG` and `blvl verify URL` on a level with a 256 MiB section (192 MiB that do not compress,
# then 64 MiB of zeros), against `curl -o` of the same file.
# usage: scripts/bench.sh BUILD_DIR [bench_container options: --runs N --iters N]
set -eu
build=${1:-build}
shift || true
here=$(cd "$(dirname "$0")/.." && pwd)
for tool in b3sum zstd python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 1; }
done
"$here/scripts/make-bench-level.sh" "$build"
out=$build/bench
"$build/bench_container" "$out/big.blvl" "$out/sim.blvl" "$out/chunks.zst" \
    --blvl "$build/blvl" "$@" | tee "$out/results.txt"
"$build/bench_writer" --dir "$out" --level "$out/big.blvl" | tee -a "$out/results.txt"
if [ -x "$build/bench_bake" ]; then # built once the .hmap conversion is in the tree
    "$build/bench_bake" --write "$out/bake_big.hmap" >/dev/null
    "$build/bench_bake" "$out/bake_big.hmap" | tee -a "$out/results.txt"
    "$build/bench_bake" --write "$out/bake_small.hmap" --small >/dev/null
    "$build/bench_bake" "$out/bake_small.hmap" | tee -a "$out/results.txt"
fi
# Then bench_trace_maps: blvl-trace on five OpenArena maps, baked once into BUILD_DIR/bench/trace-maps/,
# the Python binding's batch traces on one of them, and bench_jpeg: OpenArena's JPEGs decoded.
oa=/usr/share/games/openarena/baseoa
if [ -f "$oa/pak1-maps.pk3" ]; then
    mkdir -p "$out/trace-maps"
    levels=()
    for m in oa_ctf2 oa_dm1 oa_rpg3dm2 ctf_inyard islandctf; do
        lv=$out/trace-maps/$m.blvl
        [ -f "$lv" ] || "$build/blvl" bake "$oa/pak1-maps.pk3" --map "$m" --pk3 "$oa" -o "$lv" 2>/dev/null
        levels+=("$lv")
    done
    "$build/bench_trace_maps" "${levels[@]}" | tee -a "$out/results.txt"
    # The Python binding's trace_many against bench_trace_level on ctf_inyard, and a 4 M-vertex
    # level's geometry arrays (bench/bench_python_trace.py; skipped when it was not built).
    if ls "$build"/python/blvl/_blvl_cffi*.so >/dev/null 2>&1; then
        py=$(sed -n 's/^BLVL_PYTHON:FILEPATH=//p' "$build/CMakeCache.txt")
        PYTHONPATH=$here/python BLVL_BUILD_DIR=$build "${py:-/usr/bin/python3}" \
            "$here/bench/bench_python_trace.py" "$out/trace-maps/ctf_inyard.blvl" \
            --build "$build" | tee -a "$out/results.txt"
    fi
    # bench_jpeg: every JPEG of OpenArena's archives through blvl_image_decode against
    # libjpeg-turbo called directly.
    "$build/bench_jpeg" | tee -a "$out/results.txt"
else
    echo "bench: $oa/pak1-maps.pk3 absent: bench_trace_maps skipped (scripts/deps.sh installs it)"
fi
# Then bench_http: the bench level served by nginx on 127.0.0.1 (skipped without nginx or curl).
if command -v curl >/dev/null && [ -x "$build/bench_http" ] &&
    (. "$here/tests/support/nginx.sh"; [ -n "$nginx_bin" ]); then
    (
        . "$here/tests/support/nginx.sh"
        nginx_start "$out" >/dev/null
        "$build/bench_http" "$nginx_url/big.blvl" "$out/big.blvl" "$out"
        if [ -x "$build/bench_http_cache" ]; then
            "$build/bench_http_cache" "$nginx_url/big.blvl" "$out/big.blvl" "$out/http-cache"
        fi
        if [ -x "$build/bench_http_memory" ]; then
            mem=$out/http-memory
            mkdir -p "$mem"
            if [ ! -f "$out/section256.blvl" ]; then
                { head -c $((192 << 20)) /dev/urandom; head -c $((64 << 20)) /dev/zero; } >"$mem/big.bin"
                "$build/blvl" pack --container -o "$out/section256.blvl" game.big="$mem/big.bin" >/dev/null
                rm -f "$mem/big.bin"
            fi
            "$build/bench_http_memory" "$build/blvl" "$nginx_url/section256.blvl" game.big "$mem"
        fi
    ) | tee -a "$out/results.txt"
else
    echo "bench: nginx or curl absent: bench_http skipped (scripts/deps.sh installs them)"
fi
