#!/usr/bin/env bash
# The three libraries and what each needs (CMakeLists.txt, "the libraries"): libblvl.so, the
# runtime a game server links, loads libzstd and the C runtime only (libm, libc, the loader);
# libblvl-http.so adds libcurl and no tools library; libblvl-tools.so adds zlib, libzip and
# libjpeg and no libcurl. The build tree's packages work as the installed ones do: build/*.pc
# point at the build and the source's include/ (PKG_CONFIG_PATH=build), and find_package(blvl)
# with blvl_DIR=build finds blvlTargets.cmake there.
set -u
src=${BLVL_SRC:?}
build=${BLVL_BUILD:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { local what=$1; shift; if "$@" >"$work/log" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what"; tail -n 20 "$work/log"; fi; }

# deps LIB: the sonames LIB loads (ldd: itself and what it needs, transitively), one a line,
# without the sanitizers' runtime in an instrumented build.
deps() {
    ldd "$build/$1" | awk '{ print $1 }' | sed 's|.*/||; s|\.so.*||' |
        grep -vE '^(linux-vdso|ld-linux.*)$' |
        { if [ -n "${BLVL_SANITIZED:-}" ]; then grep -vE '^lib(asan|ubsan|stdc\+\+|gcc_s)$'; else cat; fi; } | sort -u
}
deps libblvl.so >"$work/runtime"
ok "ldd libblvl.so: libzstd, libm, libc and the loader, nothing else ($(tr '\n' ' ' <"$work/runtime"))" \
    test "$(tr '\n' ' ' <"$work/runtime")" = "libc libm libzstd "
deps libblvl-http.so >"$work/http"
ok "libblvl-http.so loads libcurl" grep -qx libcurl "$work/http"
ok "  and libblvl" grep -qx libblvl "$work/http"
ok "  and no tools library" bash -c "! grep -qE '^lib(blvl-tools|zip|jpeg)$' '$work/http'"
deps libblvl-tools.so >"$work/tools"
for l in libblvl libzip libjpeg libz; do ok "libblvl-tools.so loads $l" grep -qx $l "$work/tools"; done
ok "  and not libcurl or libblvl-http" bash -c "! grep -qE '^lib(curl|blvl-http)$' '$work/tools'"

if [ -n "${BLVL_SANITIZED:-}" ]; then
    echo "test_libraries: $pass passed, $fail failed (the build tree's packages: checked by the release run)"
    [ "$fail" = 0 ]
    exit
fi

# --- the build tree's pkg-config files --------------------------------------------------------
export PKG_CONFIG_PATH=$build
for pc in blvl blvl-http blvl-tools; do
    ok "build/$pc.pc: its include dir holds blvl/blvl.h" \
        test -f "$(pkg-config --variable=includedir $pc)/blvl/blvl.h"
    ok "build/$pc.pc: every package it requires is there" pkg-config --exists --print-errors --static $pc
done
ok "pkg-config --static --libs blvl names no HTTP or tools library" \
    bash -c "! pkg-config --static --libs blvl | grep -qE 'curl|zip|jpeg|blvl-'"
ok "pkg-config --static --libs blvl-http: libcurl, not the tools" \
    bash -c "pkg-config --static --libs blvl-http | grep -q -- -lcurl && ! pkg-config --static --libs blvl-http | grep -qE 'zip|jpeg|blvl-tools'"
ok "pkg-config --libs blvl-tools: -lblvl-tools -lblvl" \
    bash -c "pkg-config --libs blvl-tools | grep -q -- '-lblvl-tools.*-lblvl'"
cat >"$work/app.c" <<'C'
#include <blvl/blvl.h>
#include <blvl/http.h>
#include <stdio.h>
int main(void) {
    printf("%s %d\n", blvl_version_string(), (int)blvl_is_url("http://x/y.blvl"));
    return 0;
}
C
ok "cc with the build tree's blvl blvl-http" sh -c "cc -o '$work/app' '$work/app.c' \$(pkg-config --cflags --libs blvl blvl-http) -Wl,-rpath,'$build'"
ok "  runs" sh -c "'$work/app' | grep -qx '[0-9.]* 1'"

# --- find_package from the build tree ---------------------------------------------------------
ok "build/blvlTargets.cmake" test -f "$build/blvlTargets.cmake"
mkdir -p "$work/cm"
cp "$work/app.c" "$work/cm/"
cat >"$work/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(app C)
find_package(blvl REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE blvl::http blvl::blvl)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE blvl::http_static)
CM
ok "find_package(blvl) with blvl_DIR=build: configure" cmake -S "$work/cm" -B "$work/cm/b" -Dblvl_DIR="$build"
ok "  build" cmake --build "$work/cm/b"
ok "  blvl::http runs" sh -c "'$work/cm/b/app' | grep -qx '[0-9.]* 1'"
ok "  blvl::http_static runs" sh -c "'$work/cm/b/app_static' | grep -qx '[0-9.]* 1'"
echo "test_libraries: $pass passed, $fail failed"
[ "$fail" = 0 ]
