#!/usr/bin/env bash
# blvl view's first frame of a 30 MB level (docs/VIEW.md, docs/BENCHMARKS.md): builds the level
# once into BUILD_DIR/bench/view30.blvl (bench/view_level.py, then blvl pack), serves it with
# blvl view, and opens the page RUNS times (default 5) in headless chromium with SwiftShader's
# WebGL, in real time. Each run prints the page's own times (milliseconds from the navigation's
# start, performance.now()); last the median first frame and the load average.
#   scripts/bench-view.sh BUILD_DIR [RUNS]
set -eu
build=${1:-build}
runs=${2:-5}
src=$(cd "$(dirname "$0")/.." && pwd)
blvl=$build/blvl
py=/usr/bin/python3
[ -x "$py" ] || py=python3
[ -x "$blvl" ] || { echo "bench-view: no $blvl (build first)" >&2; exit 1; }
chromium=$(command -v chromium) || { echo "bench-view: no chromium (scripts/deps.sh)" >&2; exit 1; }
level=$build/bench/view30.blvl
if ! "$blvl" identity "$level" >/dev/null 2>&1; then
    gen=$build/bench/view30
    echo "bench-view: generating $level" >&2
    "$py" "$src/bench/view_level.py" "$gen" 720 1024
    "$blvl" pack -o "$level" meta="$gen/meta.json" geometry="$gen/geometry.json" \
        textures="$gen/textures.json" cameras="$gen/cameras.json" sim="$gen/sim.json" >/dev/null
    rm -rf "$gen"
fi
echo "level: $level, $(wc -c <"$level") bytes"
work=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill -INT "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"$blvl" view "$level" --port 0 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 600); do
    grep -q "exported the level" "$work/server.log" && break
    sleep 0.1
done
url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$work/server.log" | head -n 1)
grep "exported the level" "$work/server.log"
for i in $(seq "$runs"); do
    # the browser's CPU time (all its processes, reaped by it) from launch to its end, printed
    # by the wrapper when the page has said ready and the browser is stopped
    "$py" -c 'import resource, subprocess, sys
p = subprocess.Popen(sys.argv[1:])
try:
    p.wait()
except KeyboardInterrupt:
    p.terminate(); p.wait()
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("browser cpu_s=%.2f" % (r.ru_utime + r.ru_stime))' timeout 120 "$chromium" --headless --no-sandbox --use-angle=swiftshader \
        --enable-unsafe-swiftshader --user-data-dir="$work/profile$i" --no-first-run \
        --disable-extensions --window-size=1024,768 --remote-debugging-port=0 \
        "${url}?panel=0" 2>"$work/chromium$i.log" >"$work/cpu$i.txt" &
    browser=$!
    for _ in $(seq 1200); do
        [ "$(grep -c '^view: page ready' "$work/server.log")" -ge "$i" ] && break
        sleep 0.1
    done
    kill -INT "$browser" 2>/dev/null || true
    wait "$browser" 2>/dev/null || true
    echo "$(grep '^view: page ready' "$work/server.log" | sed -n "${i}p") $(cat "$work/cpu$i.txt")"
done
if grep '^view: page error' "$work/server.log"; then
    echo "bench-view: the page reported errors" >&2
    exit 1
fi
grep '^view: page ready' "$work/server.log" | grep -o 'first_frame_ms=[0-9]*' | cut -d= -f2 |
    sort -n | awk '{a[NR]=$1} END {print "median first frame: " a[int((NR+1)/2)] " ms of " NR " runs"}'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
