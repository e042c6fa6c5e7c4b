# Shared by the tests that check blvl's output with programs we did not write: the Khronos
# glTF-Validator (tests/test_export*.sh) and headless chromium (tests/test_view*.sh). Source it
# after tests/support/cli.sh's cli_workdir.
#   validator_needed NAME  $vdir, the validator's install in the build folder, and validate();
#                          exits 77 (skip) without node, the validator or flatc
#   chromium_needed NAME   $chromium and $py (Pillow's interpreter); exits 77 without chromium,
#                          1 when three.js is not in the build folder
#   view_serve LEVEL       starts `blvl view LEVEL --port 0`: $server, $url (with its token),
#                          $port; exits 1 when no URL is printed
#   shot OUT.png QUERY     a 640 x 480 screenshot of $url&QUERY; a missing one counts a failure
build=${BLVL_BUILD:-$src/build}

validator_needed() {
    vdir=
    for d in "$build/gltf-validator" "$src/build/gltf-validator"; do
        [ -f "$d/node_modules/gltf-validator/package.json" ] && { vdir=$d; break; }
    done
    if ! command -v node >/dev/null || [ -z "$vdir" ] || ! command -v flatc >/dev/null; then
        echo "$1: SKIP: needs node, flatc and the validator (make build runs scripts/gltf-validator.sh)"
        exit 77
    fi
}
validate() { NODE_PATH=$vdir/node_modules node "$src/tools/gltf_validate/validate.js" "$@"; }

chromium_needed() {
    chromium=$(command -v chromium || command -v chromium-browser || true)
    if [ -z "$chromium" ]; then
        echo "$1: SKIP: no chromium (scripts/deps.sh installs it)"
        exit 77
    fi
    py=/usr/bin/python3
    [ -x "$py" ] || py=python3
    if [ ! -f "$build/three/node_modules/three/build/three.module.min.js" ]; then
        echo "FAIL: three.js is not installed in $build/three (make build runs scripts/three-js.sh)"
        exit 1
    fi
}

view_serve() {
    "$blvl" view "$1" --port 0 >server.log 2>server.err &
    server=$!
    url=
    for _ in $(seq 100); do
        # the URL with this run's token, which the page needs (docs/VIEW.md, "Who may ask")
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/?t=[0-9a-f]*' server.log 2>/dev/null | head -n 1)
        [ -n "$url" ] && break
        sleep 0.1
    done
    if [ -z "$url" ]; then
        echo "FAIL: blvl view printed no URL: $(cat server.log server.err)"
        kill "$server" 2>/dev/null
        exit 1
    fi
    port=${url##*:}
    port=${port%%/*}
}

shot() {
    timeout 90 "$chromium" --headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader \
        --user-data-dir="$work/profile" --no-first-run --disable-extensions --disable-breakpad \
        --disable-crash-reporter --hide-scrollbars \
        --window-size=640,480 --virtual-time-budget=8000 --screenshot="$work/$1" "$url&$2" \
        >>chromium.log 2>&1
    [ -s "$1" ] || { fail=$((fail+1)); echo "FAIL: no screenshot $1: $(tail -n 5 chromium.log)"; }
}
