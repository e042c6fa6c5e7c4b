#!/usr/bin/env bash
# Installs the Khronos glTF-Validator (npm gltf-validator, the version tools/gltf_validate/
# package.json pins) into BUILD_DIR/gltf-validator, once: a later build finds it there and runs
# nothing, so the tests never reach the network. Without node and npm it says so and leaves the
# export tests to skip.
#   scripts/gltf-validator.sh BUILD_DIR
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?BUILD_DIR}/gltf-validator
want=$src/tools/gltf_validate/package.json
if [ -f "$dest/node_modules/gltf-validator/package.json" ] && cmp -s "$want" "$dest/package.json"; then
    exit 0
fi
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
    echo "gltf-validator: node/npm not installed (scripts/deps.sh): the export tests will skip" >&2
    exit 0
fi
echo "gltf-validator: npm install into $dest" >&2
rm -rf "$dest.part"
mkdir -p "$dest.part"
cp "$want" "$dest.part/package.json"
(cd "$dest.part" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
rm -rf "$dest"
mv "$dest.part" "$dest"
