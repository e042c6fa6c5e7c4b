#!/usr/bin/env bash
# Installs what the build and the tests need, from Debian's packages, when missing.
# Idempotent and quiet when everything is present; runs apt-get update once first.
set -eu
need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
for p in build-essential cmake pkg-config libzstd-dev zstd b3sum flatbuffers-compiler \
         python3-flatbuffers clang clang-format libclang-rt-14-dev; do
    have_pkg "$p" || need+=("$p")
done
if [ "${BLVL_WANT_MAPS:-0}" = 1 ]; then
    have_pkg openarena-081-maps || need+=(openarena-081-maps)
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
# The official BLAKE3 C code (with its SIMD kernels) ships inside librust-blake3-dev.
# Extract that one package rather than installing it, which would pull Rust crates.
dest=${BLVL_DEPS_DIR:-build/_deps}
if ! ls /usr/share/cargo/registry/blake3-*/c/blake3.h >/dev/null 2>&1 &&
   ! ls "$dest"/blake3/usr/share/cargo/registry/blake3-*/c/blake3.h >/dev/null 2>&1; then
    mkdir -p "$dest/blake3"
    [ $updated = 1 ] || $SUDO apt-get update -qq
    tmp=$(mktemp -d)
    (cd "$tmp" && apt-get download librust-blake3-dev >/dev/null 2>&1)
    dpkg-deb -x "$tmp"/librust-blake3-dev_*.deb "$dest/blake3"
    rm -rf "$tmp"
fi
