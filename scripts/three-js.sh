#!/usr/bin/env bash
# Installs three.js (npm three, the version tools/view_three/package.json pins) into
# BUILD_DIR/three, once: `blvl view` serves it from there (docs/VIEW.md), so the page never
# fetches anything from the internet and a later build, offline, finds it and runs nothing.
# Without node and npm it says so and leaves the browser test to skip.
#   scripts/three-js.sh BUILD_DIR
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?BUILD_DIR}/three
want=$src/tools/view_three/package.json
if [ -f "$dest/node_modules/three/build/three.module.min.js" ] && cmp -s "$want" "$dest/package.json"; then
    exit 0
fi
if ! command -v npm >/dev/null; then
    echo "three-js: npm not installed (scripts/deps.sh): blvl view cannot draw, its test skips" >&2
    exit 0
fi
echo "three-js: npm install into $dest" >&2
rm -rf "$dest.part"
mkdir -p "$dest.part"
cp "$want" "$dest.part/package.json"
# npm's own cache inside the build folder: nothing is written outside it
(cd "$dest.part" && npm install --no-audit --no-fund --loglevel=error --cache "$dest.part/.npm" \
    >/dev/null && rm -rf .npm)
rm -rf "$dest"
mv "$dest.part" "$dest"
