#!/usr/bin/env bash
# blvl view's first frame of a 30 MB level (docs/VIEW.md, docs/BENCHMARKS.md): builds the level
# once into BUILD_DIR/bench/view30.blvl (bench/view_level.py, then blvl pack), serves it with
# blvl view, and opens the page RUNS times (default 5) in headless chromium with SwiftShader's
# WebGL, in real time. The reference, measured in the same run the same way: the bundled
# default level (tests/data/sections/, 60 KB), whose cost is the browser's start and three.js.
# Each run prints the page's own times (milliseconds from the navigation's start,
# performance.now(); materials_ms: the frame after the first, with the level's own materials
# and the markers; textures_ms: the textures decoded and swapped in after the first frame),
# the browser's CPU time (all its processes, up to both notes) and the server's CPU time for
# that page load; last the medians and the load average.
# Each level is measured twice: "cold", the browser launched with the page's URL (its own start,
# about 2.5 s here for SwiftShader's GPU process, is inside the page's times), and "warm", the
# browser already running (a fresh profile, started on a blank local page that navigates to the
# view's URL 2 s later): what a user sees who opens the printed URL in the browser they have open.
# Both start with an empty cache: nothing of the page is cached.
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
    parts=() # one section per file the generator wrote, named for its tag
    for f in "$gen"/*.json; do parts+=("$(basename "$f" .json)=$f"); done
    "$blvl" pack -o "$level" "${parts[@]}" >/dev/null
    rm -rf "$gen"
fi
work=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill -INT "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
ref=$work/default.blvl
args=()
while read -r tag; do
    [ -f "$src/tests/data/sections/$tag.json" ] && args+=("$tag=$src/tests/data/sections/$tag.json")
done <"$src/schema/core_tags.txt"
"$blvl" pack -o "$ref" "${args[@]}" >/dev/null
ticks=$(getconf CLK_TCK)
cpu_of() { awk -v t="$ticks" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }

bench_level() { # LEVEL NAME cold|warm
level=$1
mode=$3
echo "== $2, $mode browser: $level, $(wc -c <"$level") bytes"
"$blvl" view "$level" --port 0 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 600); do
    grep -q "exported the level" "$work/server.log" && break
    sleep 0.1
done
url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/?t=[0-9a-f]*' "$work/server.log" | head -n 1) # with its token
grep "exported the level" "$work/server.log"
start="${url}&panel=0"
if [ "$mode" = warm ]; then
    # a blank local page that sends the running browser to the view 2 s after its start
    printf '<!doctype html><title>warm</title><script>setTimeout(function () {\n location.href = %s;\n}, 2000);</script>\n' \
        "'${url}&panel=0'" >"$work/warm.html"
    start="file://$work/warm.html"
fi
for i in $(seq "$runs"); do
    before=$(cpu_of "$server")
    # the browser's CPU time (all its processes, reaped by it) from launch to its end, printed
    # by the wrapper when the page has said ready and the browser is stopped
    # (SIGTERM: a background job of a script ignores SIGINT)
    "$py" -c 'import resource, signal, subprocess, sys
p = subprocess.Popen(sys.argv[1:])
signal.signal(signal.SIGTERM, lambda *a: p.terminate())
p.wait()
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("browser cpu_s=%.2f" % (r.ru_utime + r.ru_stime))' timeout 120 "$chromium" --headless --no-sandbox --use-angle=swiftshader \
        --enable-unsafe-swiftshader --user-data-dir="$work/profile-$(basename "$level")-$mode-$i" \
        --no-first-run --disable-breakpad --disable-crash-reporter \
        --disable-extensions --window-size=1024,768 --remote-debugging-port=0 \
        "$start" 2>"$work/chromium$i.log" >"$work/cpu$i.txt" &
    browser=$!
    # the first frame (ready), then the frame with the materials and the textures swapped in
    # (notes)
    for _ in $(seq 1200); do
        [ "$(grep -c '^view: page note: textures_ms=' "$work/server.log")" -ge "$i" ] &&
            [ "$(grep -c '^view: page note: materials_ms=' "$work/server.log")" -ge "$i" ] && break
        grep -q '^view: page error' "$work/server.log" && break
        sleep 0.1
    done
    kill "$browser" 2>/dev/null || true
    wait "$browser" 2>/dev/null || true
    after=$(cpu_of "$server")
    echo "$(grep '^view: page ready' "$work/server.log" | sed -n "${i}p")" \
        "$(grep -o '^view: page note: materials_ms=[0-9]*' "$work/server.log" | sed -n "${i}s/.* //p")" \
        "$(grep -o '^view: page note: textures_ms=[0-9]*' "$work/server.log" | sed -n "${i}s/.* //p")" \
        "$(cat "$work/cpu$i.txt") server cpu_s=$(echo "$after - $before" | bc)"
done
if grep '^view: page error' "$work/server.log"; then
    echo "bench-view: the page reported errors" >&2
    exit 1
fi
grep '^view: page ready' "$work/server.log" | grep -o 'first_frame_ms=[0-9]*' | cut -d= -f2 |
    sort -n | awk '{a[NR]=$1} END {print "median first frame: " a[int((NR+1)/2)] " ms of " NR " runs"}'
grep -o '^view: page note: textures_ms=[0-9]*' "$work/server.log" | cut -d= -f2 |
    sort -n | awk '{a[NR]=$1} END {print "median textures in: " a[int((NR+1)/2)] " ms"}'
kill -INT "$server"
wait "$server" || true
server=
}

for mode in cold warm; do
    bench_level "$ref" "reference (the default level)" "$mode"
    bench_level "$build/bench/view30.blvl" "the 30 MB level" "$mode"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
