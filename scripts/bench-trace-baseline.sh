#!/usr/bin/env bash
# blvl-trace against the code before the hierarchy work, in one run: the trace benchmark as it
# was at commit ef350d0 (the trace code of d935fa7 with only the counters added; its tree built
# once into BUILD_DIR/bench/trace-baseline/) and this tree's bench_trace_maps run alternately,
# ROUNDS times per map, on the five maps `make bench` bakes. Prints each set's traces/s of both
# (medians) and the median of the rounds' ratios (new / baseline): the two see the same load.
# usage: scripts/bench-trace-baseline.sh BUILD_DIR [ROUNDS (default 5)]
set -eu
build=${1:-build}
rounds=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
oa=/usr/share/games/openarena/baseoa
[ -f "$oa/pak1-maps.pk3" ] || { echo "bench-trace-baseline: $oa/pak1-maps.pk3 absent" >&2; exit 1; }
[ -x "$build/bench_trace_maps" ] || { echo "bench-trace-baseline: build $build first" >&2; exit 1; }
base=$build/bench/trace-baseline
if [ ! -x "$base/build/bench_trace_maps" ]; then
    rm -rf "$base"
    mkdir -p "$base/src"
    git -C "$here" archive ef350d0 | tar -x -C "$base/src"
    ln -s "$here/.deps" "$base/src/.deps"
    cmake -S "$base/src" -B "$base/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$base/build" -j"${JOBS:-1}" --target bench_trace_maps >/dev/null
fi
out=$build/bench/trace-maps
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# "  box short    3930305 traces/s ..." -> "box_short 3930305"
rates() { awk '/traces\/s/ { print $1 "_" $2, $3 }'; }
echo "blvl-trace against the code of ef350d0, alternate runs, $rounds rounds per map" \
     "(load average $(cut -d' ' -f1 /proc/loadavg) at the start)"
for m in oa_ctf2 oa_dm1 oa_rpg3dm2 ctf_inyard islandctf; do
    lv=$out/$m.blvl
    [ -f "$lv" ] || "$build/blvl" bake "$oa/pak1-maps.pk3" --map "$m" --pk3 "$oa" -o "$lv" 2>/dev/null
    for r in $(seq "$rounds"); do
        "$base/build/bench_trace_maps" "$lv" --no-baseline --runs 1 | rates | sed "s/^/$r base /" >>"$tmp/$m"
        "$build/bench_trace_maps" "$lv" --no-baseline --runs 1 --walk 0 --pairs 1 | rates |
            sed "s/^/$r new /" >>"$tmp/$m"
    done
    python3 - "$m" "$tmp/$m" <<'PY'
import statistics, sys
name, path = sys.argv[1], sys.argv[2]
runs = {}
for line in open(path):
    r, who, s, rate = line.split()
    runs.setdefault(s, {}).setdefault(r, {})[who] = float(rate)
cells = []
for s, by in runs.items():
    pairs = [v for v in by.values() if "base" in v and "new" in v]
    ratio = statistics.median(v["new"] / v["base"] for v in pairs)
    cells.append("%s %.0f / %.0f (%.2fx)" % (s.replace("_", " "),
                 statistics.median(v["new"] for v in pairs),
                 statistics.median(v["base"] for v in pairs), ratio))
print("%s: %s" % (name, "; ".join(cells)))
PY
done
echo "(load average $(cut -d' ' -f1 /proc/loadavg) at the end)"
