#!/usr/bin/env bash
# Installs what the build and the tests need, from Debian's packages, when missing. `make`
# calls it before every build, so it checks first and cheaply (one dpkg-query, one ls): when
# everything is present it runs nothing else, no apt-get and no network. Only a missing package
# (apt-get update once, then install) or missing BLAKE3 sources (apt-get download) reach apt.
# The list includes OpenArena's maps, textures and shader scripts (openarena-081-maps,
# openarena-081-textures, openarena-data): the real-map test stage (tests/test_q3_maps.sh, which
# skips without them) and the benchmarks bake them.
# chromium runs blvl view's page headless in the browser test (tests/test_view.sh).
# python3-dev, -cffi, -numpy, -pytest, -venv, -setuptools: the Python binding (python/,
# docs/PYTHON.md), built for Debian's /usr/bin/python3 and tested by tests/test_python.sh.
#   BLVL_DEPS_DIR=DIR  where the BLAKE3 sources are extracted (default: .deps/ of the tree)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
pkgs=(build-essential cmake pkg-config libzstd-dev zstd b3sum flatbuffers-compiler
      python3-flatbuffers clang clang-format libclang-rt-14-dev libstb-dev
      libjpeg-dev zlib1g-dev python3-pil libzip-dev openarena-081-maps openarena-081-textures
      openarena-data libcurl4-openssl-dev curl nginx chromium
      python3-dev python3-cffi python3-numpy python3-pytest python3-venv python3-setuptools)

# dpkg-query exits non-zero when it does not know a package; the ones it knows still print.
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${pkgs[@]}" 2>/dev/null || true)
need=()
for p in "${pkgs[@]}"; do
    [[ $'\n'$installed$'\n' == *$'\n'"$p install ok installed"$'\n'* ]] || need+=("$p")
done
# node and npm run the glTF validator (scripts/gltf-validator.sh) and install three.js for
# blvl view (scripts/three-js.sh): Debian's packages, unless the
# commands are already there (a node from elsewhere ships its own npm).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    need+=(nodejs npm)
fi
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
updated=0
if [ ${#need[@]} -gt 0 ]; then
    echo "deps: installing ${need[*]}" >&2
    $SUDO apt-get update -qq
    updated=1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The official BLAKE3 C code (with its SIMD kernels) ships inside librust-blake3-dev. Extract
# that one package rather than installing it, which would pull Rust crates. It lives outside
# build/ (which `make clean` removes) so a rebuild needs no network; CMakeLists.txt looks here.
dest=${BLVL_DEPS_DIR:-$src/.deps}
have_blake3() { ls "$1"/blake3/usr/share/cargo/registry/blake3-*/c/blake3.h >/dev/null 2>&1; }
if ls /usr/share/cargo/registry/blake3-*/c/blake3.h >/dev/null 2>&1 || have_blake3 "$dest"; then
    exit 0
fi
if have_blake3 "$src/build/_deps"; then # where a checkout from before .deps/ extracted it
    mkdir -p "$dest"
    mv "$src/build/_deps/blake3" "$dest/blake3"
    exit 0
fi
echo "deps: extracting librust-blake3-dev into $dest/blake3" >&2
[ $updated = 1 ] || $SUDO apt-get update -qq
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download librust-blake3-dev >/dev/null 2>&1)
# Extract beside, then rename: an interrupted run leaves no half tree that the check accepts.
mkdir -p "$dest"
rm -rf "$dest/blake3.part"
dpkg-deb -x "$tmp"/librust-blake3-dev_*.deb "$dest/blake3.part"
mv "$dest/blake3.part" "$dest/blake3"
